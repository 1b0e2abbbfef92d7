"""A recording's counter with its hours, ranges of years, a law's year, a field past a
column's gap, and the roles a transcript's labels and ranks name (session 31)."""

import re

from pipelines.detection.recognizers.cues import recognize as cues
from tests.engine.span_support import spans as _spans


def test_a_video_s_counter_with_its_hours_is_no_time_of_day() -> None:
    text = (
        "GARDA\n\n00:00:04  SNB:    The time by the clock is 14:05.\n\n00:00:25  CMGC:   Detective Sergeant.\n\n"
        "00:00:33  CÓC:    And my solicitor.\n"
    )
    assert _spans(text, "TIME") == [("14:05", "TIME")]
    # A night log's clocks that start after midnight stay times.
    text = "LOG\n00:04:10  DISPATCH:  Unit 4 en route.\n00:09:12  DISPATCH:  on scene.\n"
    assert _spans(text, "TIME") == [("00:04:10", "TIME"), ("00:09:12", "TIME")]


def test_a_range_of_two_years_or_two_numeric_dates_is_two_dates() -> None:
    text = "He was deputy registrar in Washoe from 2011 to 2019, then at Coffield (05/2021-09/2023)."
    assert [t for t, _ in _spans(text, "DATE")] == ["2011", "2019", "05/2021", "09/2023"]


def test_a_law_s_year_and_a_code_s_section_are_no_dates() -> None:
    text = "Under the Criminal Justice Act, 1984 and 18 U.S.C. 1001, the Children (Scotland) Act 1995."
    assert _spans(text, "DATE") == []
    assert _spans("The Act was passed in 1984. In 1997 he moved.", "DATE") == [("1984", "DATE"), ("1997", "DATE")]


def test_a_date_ends_at_a_column_s_gap_before_the_next_field() -> None:
    text = "  Date:           Tuesday, February 11, 2025       Time: 9:48 a.m.\n  Location: Albany\n"
    assert _spans(text, "DATE") == [("Tuesday, February 11, 2025", "DATE")]


def test_a_year_keeps_the_apostrophe_of_its_lost_century() -> None:
    dates = [t for t, _ in _spans("Nothing since '16. Mosôm Alphonse passed in '09.", "DATE")]
    assert dates == ["'16", "'09"]


def test_labels_that_name_a_role_a_key_spells_out_or_a_heading_are_no_names() -> None:
    text = (
        "  Key:  FI = forensic interviewer.\n\nFI:     Hi, Harmony. My name is Jo.\nCHILD:  Can I sit?\n"
        "FI:     Sure.\nCHILD:  Okay.\nELDER:  Tansi.\nELDER:  Ekosi.\n"
    )
    labels = [c.text for c in cues(text) if c.rule == "cue:speaker_label"]
    assert labels == []
    text = "C. R. BRANCH, COMMISSIONER\nDATE OF DECISION: FEBRUARY 11, 2025        CC: DOCCS\n\nThe man said hello.\n"
    assert [c.text for c in cues(text) if c.rule == "cue:speaker_label"] == []


def test_an_english_prison_s_ranks_before_a_name() -> None:
    text = " 1  OSG ASANTE-MOORE: Yes.\n 2  OSG ASANTE-MOORE: No.\n"
    assert [t for t, _ in _spans(text, "PERSON")] == ["ASANTE-MOORE", "ASANTE-MOORE"]
    # "DJ" is a given name too, "MINOR" a surname: they stay in the name.
    text = "ATTY. MINOR: Objection.\nATTY. MINOR: Withdrawn.\nDJ WILLIAMS: Yes.\nDJ WILLIAMS: No.\n"
    assert [t for t, _ in _spans(text, "PERSON")] == ["MINOR", "MINOR", "DJ WILLIAMS", "DJ WILLIAMS"]


def test_the_second_word_of_a_rank_of_two_stays_outside_the_name() -> None:
    assert ("Julian Oakes", "PERSON") in _spans("now Lieutenant Colonel Julian Oakes, at the Pentagon.", "PERSON")
    assert ("Major Harris", "PERSON") in _spans("Inmate Major Harris spoke.", "PERSON")


def test_an_elder_said_alone_is_the_office_and_a_cree_grandfather_a_kin_title() -> None:
    people = [t for t, _ in _spans("Thank you, Elder. Elder Flett told me. Mosôm Alphonse passed.", "PERSON")]
    assert "Flett" in people and "Alphonse" in people
    assert not any(re.search("Elder|Mosôm", p) for p in people)
    # The office said alone as a label and as a word, not only addressed: still the office.
    text = "ELDER:  Tansi.\nELDER:  We will have Elder support there. Elder Flett told me that."
    people = [t for t, _ in _spans(text, "PERSON")]
    assert "Flett" in people and not any("Elder" in p for p in people)


def test_a_record_number_s_field_is_no_part_of_a_name() -> None:
    text = "interview concluded.)\n\nFORTUNE, Jovan E.    DIN 07-B-4418      Page 3\n\nThe interview of Jovan E. "
    text += "Fortune, DIN 07-B-4418, held on"
    people = [t for t, _ in _spans(text, "PERSON")]
    assert "DIN" not in " ".join(people)


def test_an_address_whose_number_is_the_page_s_printed_line_number() -> None:
    text = (
        " 1  We were living at number 2214\n 2  Nkwenkwezi Street, Mlungisi, in Queenstown, that\n"
        " 3  is where. He went to\n 4  Msobomvu Street and back.\n 5  The end.\n"
    )
    places = [t for t, _ in _spans(text, "LOCATION")]
    assert "2214\n 2  Nkwenkwezi Street" in places and "Msobomvu Street" in places


def test_a_role_s_letters_before_a_name_make_no_institution() -> None:
    assert ("Asante-Moore", "PERSON") in _spans("a cell search with OSG Asante-Moore, authorised later.", "PERSON")


def test_a_word_said_as_a_language_is_no_name() -> None:
    text = (
        "BOARD MEMBER STRANGER: (Speaks in Anishinaabemowin.) I asked him. Mrs Tyhali will speak in isiXhosa. "
        "Cree and Anishinaabemowin words are written. He speaks in Toronto."
    )
    found = [t for t, _ in _spans(text, "PERSON", "LOCATION", "ORGANIZATION")]
    assert "Anishinaabemowin" not in found and "isiXhosa" not in found
    assert "Toronto" in found and "Tyhali" in found


def test_ages_listed_and_ages_past_a_printed_line_number() -> None:
    ages = [t for t, _ in _spans("Our two daughters, ages 9 and 12. The kids, ages four, seven and eleven.", "AGE")]
    assert ages == ["9", "12", "four", "seven", "eleven"]
    assert _spans("Open to all ages 5 to 12. Children ages 3 and up.", "AGE") == []
    text = " 10  They said he was dead. My child was\n 11  seventeen. No problem. My\n 12      daughter's three.\n"
    assert [t for t, _ in _spans(text, "AGE")] == ["seventeen", "three"]
    assert [t for t, _ in _spans("your mother, Gloria Fortune, sixty-one\nyears of age, of Kirk", "AGE")] == [
        "sixty-one"
    ]


def test_a_street_s_name_begun_on_the_line_before_or_after_a_printed_number() -> None:
    text = (
        "Hundertmark. 114 Tillman\n13  Ferry Road, Lexington, South Carolina 29072.\n14  Mr. Weathers is from\n"
        "15  East 40th Street. The forty grams\n"
    )
    places = [t for t, _ in _spans(text, "LOCATION")]
    assert "114 Tillman\n13  Ferry Road" in places and "East 40th Street" in places


def test_a_name_holds_no_transcriber_s_bracket() -> None:
    from pipelines.detection.merging.edges import _within_brackets

    text = "Colorado. [Laughs] Trinidad in Texas. Kenneth (Kenny) Smith came."
    at = text.index("Laughs")
    assert text[slice(*_within_brackets(text, at, at + len("Laughs] Trinidad")))] == "Trinidad"
    at = text.index("Kenneth")
    assert text[slice(*_within_brackets(text, at, at + len("Kenneth (Kenny) Smith")))] == "Kenneth (Kenny) Smith"


def test_a_town_that_names_a_lodge_stays_a_town() -> None:
    text = (
        "1 Sugarbush Road, Sugarbush, MN 56470\nShe goes to the Head Start in Sugarbush. She entered treatment "
        "at Sugarbush Recovery Lodge on August 4th."
    )
    found = _spans(text, "LOCATION", "ORGANIZATION")
    assert ("Sugarbush Recovery Lodge", "ORGANIZATION") in found
    assert [label for t, label in found if t == "Sugarbush"] == ["LOCATION", "LOCATION"]
    # A motel's short name, no town's, is the motel.
    text = "That's the Nimitz Motor Lodge, 8912 International Boulevard. I stayed at the Nimitz."
    assert ("Nimitz", "ORGANIZATION") in _spans(text, "LOCATION", "ORGANIZATION")


def test_an_age_s_years_on_the_next_numbered_line_stay_outside() -> None:
    text = "his father was born on March 3, 1989. He was 34\n15  years old. He was pronounced dead\n"
    assert _spans(text, "AGE") == [("34", "AGE")]


def test_review_31_ages_collars_languages_and_brackets() -> None:
    from pipelines.detection.recognizers import patterns

    ages = [c.text for c in patterns.recognize("For all ages 3 and 5. Ages 5 - 12, ages 5–12, ages 18 or older.")]
    assert [a for a in ages if a in ("3", "5", "12", "18")] == []
    text = "PC 1999 was a good year. Police Constable 2019. A large number, 25000."
    assert [c.text for c in patterns.recognize(text) if c.label == "ID"] == []
    people = [
        t for t, _ in _spans("He testified in Garcia's favor. The witness spoke in Kowalczyk's defense.", "PERSON")
    ]
    assert "Garcia" in people and "Kowalczyk" in people
    places = [t for t, _ in _spans("We went to Trinidad, Colorado. [Laughs] Trinidad in Texas was far.", "PERSON")]
    assert not any("Laughs" in p for p in places)
    text = " 1  It was at 2214 Tillman\n 2  Ferry Road, near the school.\n 3  The end.\n"
    assert ("2214 Tillman\n 2  Ferry Road", "LOCATION") in _spans(text, "LOCATION")


def test_review_31_blank_numbered_lines_and_runs_stay_linear() -> None:
    import time

    from pipelines.detection.recognizers import patterns

    page = " 9    Q.   And that was the house of my\n" + "".join(f"{i:>2}      \n" for i in range(10, 24)) + "Page 2\n"
    started = time.perf_counter()
    patterns.recognize(page)
    patterns.recognize(" 9  he\n" + "".join(f"{i:>2}      \n" for i in range(10, 24)))
    patterns.recognize("Detective " * 8000)
    assert time.perf_counter() - started < 3.0


def test_review_31_dates_keep_their_suffixes_and_streets_their_numbers() -> None:
    text = "Lisinopril, started 01/15/2020-Present. Employed 06/2012-Present. DOB 01/02/1980-M."
    assert [t for t, _ in _spans(text, "DATE")] == ["01/15/2020", "06/2012", "01/02/1980"]
    text = " 12  We moved there in 2004\n 13  Maple Avenue was the house. Call 911\n 14  Oak Street.\n"
    assert [t for t, _ in _spans(text, "LOCATION")] == ["Maple Avenue", "Oak Street"]
    # A town one testified in is a place; a name said in a man's name is his.
    assert ("Wetaskiwin", "LOCATION") in _spans("He testified in Wetaskiwin.", "LOCATION")
    assert ("2019", "DATE") in _spans("A. I remember, Bill, 2019 was the year.", "DATE")
    text = "Your commitment offense is PC 187, murder. PC 211 Robbery. The Constable 100 times."
    assert _spans(text, "ID") == []
    text = "The shelter takes boys between ages 12 and 17. Vaccines at ages 2, 4, 6 and 12 months."
    assert _spans(text, "AGE") == []
