"""Display names with pronouns, offices before names, numbers that are a record's or a
telephone's, streets named by their ordinals and names a report gives with their
initials (session 33, from made-up batch 28)."""

from django.conf import settings

from pipelines.candidate import Candidate
from pipelines.detection.filtering.filters import reject_reason
from pipelines.detection.filtering.place_context import given_names_before_surnames
from pipelines.detection.pipeline import detect_text
from pipelines.detection.recognizers import cues, patterns
from pipelines.detection.recognizers.spacy_ner import corrected_label
from tests.engine.span_support import spans as _spans


def _found(text: str, label: str) -> list[str]:
    """The texts the rules alone find with `label`, in order, less what a longer find holds."""
    found = [c for c in patterns.recognize(text) if c.label == label]
    outer = [c for c in found if not any(o.start <= c.start and c.end <= o.end and o != c for o in found)]
    return list(dict.fromkeys(c.text for c in sorted(outer, key=lambda c: c.start)))


def _model(text: str, word: str, label: str) -> Candidate:
    start = text.index(word)
    return Candidate(start, start + len(word), label, word, ("spacy",), 0.7, f"spacy:{label}")


def test_a_display_name_with_pronouns_is_a_person_in_lower_case_too() -> None:
    text = (
        "WEBVTT\n\n4\n00:00:24.753 --> 00:00:26.447\nkestrel o (she/they): Hi. Yeah, hi.\n\n"
        "5\n00:00:27.605 --> 00:00:39.198\nGraciela Ferreira-Dunn (she/her): Before we start.\n\n"
        'Zoom chat, 2:11 PM, from "kestrel o (she/they)" to Everyone: the link\n'
    )
    people = [t for t, _ in _spans(text, "PERSON")]
    assert people.count("kestrel o") == 2 and "Graciela Ferreira-Dunn" in people
    # A role's word with its pronouns names no one.
    assert [c.text for c in cues.recognize("Interviewer (she/her): Hello.\n")] == []


def test_an_assistant_prosecutor_s_letters_stay_outside_the_name() -> None:
    text = (
        "     APA RUDD:  Good morning, Madam Chair.\n     MR. KLINE:  Thank you.\n"
        "     APA RUDD:  The facts are in the record.\n"
        " 23        AAG FAIRWEATHER: None from the State, Chair.\n"
        "The motion by APA Phineas Rudd was granted.\n"
    )
    people = [t for t, _ in _spans(text, "PERSON")]
    assert people.count("RUDD") == 2 and "FAIRWEATHER" in people and "Phineas Rudd" in people
    assert not any(p.startswith(("APA", "AAG")) for p in people)


def test_an_attorney_general_s_general_is_no_given_name() -> None:
    text = "Appearing for the State is Assistant Attorney General Noelani Fairweather. She spoke."
    assert ("Noelani Fairweather", "PERSON") in _spans(text, "PERSON")
    assert "General Noelani" not in " ".join(c.text for c in cues.recognize(text))


def test_a_telephone_line_s_number_is_no_transcript_line() -> None:
    text = " 16        A.   He can always call the on-call line, 541-555-0190. I have to\n 17   report it.\n"
    assert ("541-555-0190", "PHONE_NUMBER") in _spans(text, "PHONE_NUMBER")
    start = text.index("541")
    phone = Candidate(start, start + 12, "PHONE_NUMBER", "541-555-0190", ("patterns",), 0.9, "pattern:us_phone")
    assert reject_reason(phone, text=text) is None
    # A line's number is still none ("page 12, line 4").
    text = "See page 12, line 4 of the transcript."
    start = text.index("4 of")
    line = Candidate(start, start + 1, "PHONE_NUMBER", "4", ("presidio",), 0.4, "presidio:PhoneRecognizer")
    assert reject_reason(line, text=text) is not None


def test_a_page_s_number_above_a_blank_line_is_no_day() -> None:
    text = "Page 6\n                      7\n\nApril 29, 2025 at 9:00. The 3rd of\nMarch, 2020."
    assert _found(text, "DATE") == ["April 29, 2025", "3rd of\nMarch, 2020"]


def test_a_badge_s_number_is_no_year() -> None:
    text = "Officer Soren T. Lindqvist, Badge 1987, Northeast Precinct. He was born in 1987."
    assert _spans(text, "ID", "DATE") == [("1987", "ID"), ("1987", "DATE")]


def test_a_record_s_number_after_its_letters_is_an_id() -> None:
    text = "Board case:         UOF 24-0117 (K-9 deployment)\nThe NFL 2019-2020 season. (see CR 25-000217)."
    assert _found(text, "ID") == ["24-0117", "25-000217"]
    # The ID's own word before its number is no agency's letters.
    assert [c.rule for c in patterns.recognize("Mine ID 44-07219") if c.label == "ID"].count(
        "pattern:lettered_record_number"
    ) == 0


def test_a_queens_house_number_and_a_quadrant_before_the_street() -> None:
    text = "Apartments, 2214 Northeast 85th Street, from June. A.   114-27 121st Street, first floor."
    assert _found(text, "LOCATION") == ["2214 Northeast 85th Street", "114-27 121st Street"]


def test_a_prosecutor_s_letters_open_no_name_with_the_surname() -> None:
    text = "E-mailed discovery request to ADA Barraza. Served on ADA Barraza by e-mail."
    people = [t for t, _ in _spans(text, "PERSON")]
    assert people == ["Barraza", "Barraza"]


def test_a_firm_s_dotted_legal_form_is_no_one_s_initials() -> None:
    text = "              Dunmore Haskins & Pell, P.S.\n              1201 Pacific Avenue\n"
    assert [c for c in cues.recognize(text) if c.rule == "cue:initials_after_name"] == []


def test_a_nickname_spreads_to_no_test_s_letters_in_capitals() -> None:
    text = (
        "My cousin Wilbert. Everybody call him Tiger. Tiger came by.\n"
        "     MR. GUILLORY:  Your TIGER assessment is low.\n"
        "Defendant:   FAVORS, Dequarius Montrell. Mr. Favors is here.\n"
    )
    spans = detect_text(text, settings.SPACY_MODEL).spans
    tiger = text.index("TIGER")
    assert not any(c.start == tiger and c.rule.startswith("propagation") for c in spans)
    favors = text.index("FAVORS")
    assert any(c.start == favors and c.label == "PERSON" for c in spans)


def test_a_given_name_and_its_initials_name_one_child() -> None:
    text = (
        " 24   date of birth April 2, 2014. She is eleven. And Haven,\n"
        " 25   H.A., who was six when I started.\n"
        " 1    Haven sees Dr. Lund weekly.\n"
    )
    found = [(c.text, c.rule) for c in cues.recognize(text) if c.rule == "cue:initials_after_name"]
    assert found == [("Haven", "cue:initials_after_name"), ("H.A.", "cue:initials_after_name")]
    assert [t for t, _ in _spans(text, "PERSON")].count("Haven") == 2
    # A degree after a name, a district after a city: no initials of the name.
    assert [
        c for c in cues.recognize("Dr. Dawson, D.O., testified. In Dallas, D.C. today.") if "initials" in c.rule
    ] == []


def test_a_month_s_word_in_a_list_of_children_and_their_ages_is_a_name() -> None:
    found = [c.text for c in cues.recognize("Pa Houa is eleven, Tou is eight and May is four.")]
    assert {"Tou", "May"} <= set(found)
    # A form's fields, and common words alone, name no one.
    assert [c for c in cues.recognize("On the form, Line is 4, Page is 5.") if c.rule == "cue:named_by_age"] == []
    assert [c for c in cues.recognize("The rent is six, and Will is nine.") if c.rule == "cue:named_by_age"] == []
    # After a name, a common word that is no given name stays a word.
    for text in ("Bao is 7 and Line is 4.", "Kou is 9 and Room is 12."):
        assert [c.text for c in cues.recognize(text) if c.rule == "cue:named_by_age"] in (["Bao"], ["Kou"], [])


def test_a_prison_said_by_its_town_and_correctional_is_an_organization() -> None:
    assert corrected_label("Marion Correctional", "PERSON") == "ORGANIZATION"
    assert corrected_label("MARION CORRECTIONAL", "PERSON") == "ORGANIZATION"
    assert corrected_label("Marion Szymanski", "PERSON") == "PERSON"


def test_a_town_or_an_institution_is_no_given_name_and_surname() -> None:
    text = "The children remain in the Glen Ellyn schools. Ellyn said so. He was at Marion Correctional."
    person = Candidate(text.index("Ellyn said"), text.index("Ellyn said") + 5, "PERSON", "Ellyn", ("spacy",), 0.7)
    glen = _model(text, "Glen Ellyn", "LOCATION")
    assert [c.label for c in given_names_before_surnames(text, [glen, person])] == ["LOCATION", "PERSON"]
    # A person's span ending in "Correctional" makes no surname of it.
    text = "Anna Correctional wrote. He was at Marion Correctional."
    named = _model(text, "Anna Correctional", "PERSON")
    prison = _model(text, "Marion Correctional", "ORGANIZATION")
    assert given_names_before_surnames(text, [named, prison])[1].label == "ORGANIZATION"


def test_a_title_s_name_goes_on_after_a_numbered_line() -> None:
    text = (
        "15   Q.   And who obtained it?\n"
        "16   A.   It was a search warrant that Detective Anthony\n"
        "17   Paz of the Swissvale Police Department obtained.\n"
    )
    assert ("Anthony\n17   Paz", "PERSON") in _spans(text, "PERSON")
    # A new sentence on the next line keeps its first word.
    text = " 7   I spoke with Officer Lane\n 8   Yesterday he said so.\n"
    assert ("Lane", "PERSON") in _spans(text, "PERSON")


def test_a_street_named_by_its_ordinal_and_its_type_is_one_place() -> None:
    text = "East 112th Street, between Madison and Park. On 110th Street. He won 1st Place."
    assert _found(text, "LOCATION")[:2] == ["East 112th Street", "110th Street"]
    assert "1st Place" not in _found(text, "LOCATION")


def test_a_street_s_type_alone_is_no_place_but_after_its_name_it_is() -> None:
    text = "The Street was empty. We were on Seventh\nAvenue with the signs."
    street = _model(text, "Street", "LOCATION")
    assert reject_reason(street, text=text) is not None
    avenue = _model(text, "Avenue", "LOCATION")
    assert reject_reason(avenue, text=text) is None


def test_two_ordinals_between_which_an_alley_runs_are_streets() -> None:
    found = _found("He ran into the alley between 33rd and 34th. I gave chase.", "LOCATION")
    assert found == ["33rd", "34th"]
    assert _found("The kids were between 1st and 2nd grade.", "LOCATION") == []


def test_a_date_broken_by_a_page_s_printed_line_number_is_one_date() -> None:
    text = (
        "17   in Penn Hills on September\n18   21st. You didn't request it.\n"
        "19   They separated in March of\n20   2024. He moved.\n21   On November\n22   8, 1997, in Lawtell.\n"
    )
    assert _found(text, "DATE") == ["September\n18   21st", "March of\n20   2024", "November\n22   8, 1997"]
    # A line's number alone is still no day ("Rosalind June⏎17  Pettigrew").
    assert _found("16   my granny, Rosalind June\n17   Pettigrew, came.\n18   She sat.", "DATE") == []


def test_a_day_said_in_words_or_after_its_weekday_is_a_date() -> None:
    text = (
        "  5   The facts. The\n  6   index offense was on the third of\n  7   October, 2019. He struck him.\n"
        "  8   Were you there on the night of Thursday the sixth?\n"
    )
    assert _found(text, "DATE") == ["third of\n  7   October, 2019", "Thursday the sixth"]
    assert _found("She was the third of five children, born second of all.", "DATE") == []


def test_the_weekday_before_a_date_belongs_to_it() -> None:
    text = "Date: Tue 3/11/2025   Start: 2:03 PM MT\nJudge of District Court, on Tuesday,\nMarch 18, 2025, at 1:34."
    assert _found(text, "DATE") == ["Tue 3/11/2025", "Tuesday,\nMarch 18, 2025"]


def test_a_clock_s_meridiem_on_the_next_line_is_left_out() -> None:
    text = "22   the deposition concluded at 3:52\n23                  p.m.\n24\n"
    assert _found(text, "TIME") == ["3:52"]


def test_an_offset_into_a_recording_is_no_time_of_day() -> None:
    text = (
        "WEBVTT\n\n1\n00:00:03.120 --> 00:00:07.962\nGraciela (she/her): Okay.\n\n"
        "[Paralegal note: the video dropped at 00:07:06. It came back at 00:07:37.]\n"
        "The meeting began at 10:15:00.\n[End of file 1, 58:07.]\n"
    )
    times = [t for t, _ in _spans(text, "TIME")]
    assert times == ["10:15:00"]
    # A dispatch log's clock from midnight is a time of day: no recording's cues there.
    assert [t for t, _ in _spans("Call received:   00:14:37\nDispatched:      00:15:02\n", "TIME")] == [
        "00:14:37",
        "00:15:02",
    ]


def test_a_page_s_number_set_apart_is_no_date_but_a_clock_of_the_day_is_kept() -> None:
    text = "                         1144\n 1               IN THE UNITED STATES DISTRICT COURT\n"
    page = _model(text, "1144", "DATE")
    assert reject_reason(page, text=text) is not None
    for text, clock in (
        ("The search was at 1425, after your shift ended.", "1425"),
        ("Departure:      1445\nArrival: 1510\n", "1445"),
        ("Time of arrival:\n1545\n", "1545"),
        ("                         1998\n 1   The year.\n", "1998"),
    ):
        assert reject_reason(_model(text, clock, "DATE"), text=text) is None


def test_a_pronoun_is_no_surname_where_it_is_written_in_lower_case() -> None:
    from pipelines.detection.merging.propagate import _no_person_here

    text = "      MS. HER: Pahoua Her, H-E-R, for Mr. Vang.\nShe sings a song her mother used to sing. Her came."
    lower = text.index("her mother")
    assert _no_person_here(text, lower, lower + 3)
    capital = text.index("Her came")
    assert not _no_person_here(text, capital, capital + 3)


def test_a_language_before_its_interpreter_is_no_name() -> None:
    text = "Xeng Hang, certified Hmong\ninterpreter, roster number 4417."
    hmong = _model(text, "Hmong", "PERSON")
    assert reject_reason(hmong, text=text) is not None


def test_a_storm_the_document_names_is_no_person() -> None:
    text = "Until the hurricane. Georges broke the house. [TN: Hurricane Georges, September 1998.]"
    storm = _model(text, "Georges", "PERSON")
    assert reject_reason(storm, text=text) is not None
    text = "Mr. Georges testified. Hurricane Georges hit. Georges said so."
    person = _model(text, "Georges", "PERSON")
    assert reject_reason(person, text=text) is None


def test_a_lawyer_s_name_before_her_firm_named_after_her_is_no_partner() -> None:
    text = "FOR THE CLIENT:\n          INES QUARTERMAN, Quarterman & Sayre, P.C., Eugene\n"
    firms = [c.text for c in cues.recognize(text) if c.rule == "cue:firm"]
    assert firms == ["Quarterman & Sayre, P.C."]


def test_a_room_after_a_comma_is_no_participant_s_role() -> None:
    text = " 18      Oregon State Hospital, Junction City Campus\n 19             Treatment Mall, Hearing Room B\n"
    assert [c for c in cues.recognize(text) if c.rule == "cue:participant_line"] == []


def test_a_title_s_name_goes_on_over_a_plain_line_s_end() -> None:
    text = "The record shows that in 1995. Detective Sergeant Roscoe\nFairbanks testified that the inmate was there."
    assert ("Roscoe\nFairbanks", "PERSON") in _spans(text, "PERSON")


def test_an_institution_s_opening_letters_spread_as_its_name() -> None:
    from pipelines.detection.merging.propagate import propagate

    text = "PLACE:         MVRTA Administration Building, Board Room\nI have been with MVRTA since 2011.\n"
    start = text.index("MVRTA")
    end = start + len("MVRTA Administration Building")
    found = propagate(
        text, [Candidate(start, end, "ORGANIZATION", text[start:end], ("cues",), 0.99, "cue:institution")]
    )
    assert [(c.text, c.label) for c in found] == [("MVRTA", "ORGANIZATION")]


def test_an_age_answered_through_an_interpreter_or_reckoned_is_an_age() -> None:
    text = (
        "      THE COURT: How old are you, Ms. Xiong?\n      MS. XIONG: (Through the interpreter) 34. No, 35.\n"
        "CHAIRMAN PIERRE:  You were born in 1981. That makes you forty-four.\n"
    )
    assert _found(text, "AGE") == ["34", "35", "forty-four"]
    assert _found("That makes you 5 dollars richer. That made him a hero.", "AGE") == []


def test_an_age_in_words_between_commas_after_a_full_name_needs_no_verb() -> None:
    text = "the homeowner, a Mrs. Ernestine Pruitt, seventy-eight, taken by ambulance."
    assert ("seventy-eight", "AGE") in _spans(text, "AGE")
    # A badge's or a car's number in figures after a rank still needs its verb.
    assert _spans("Officer Dan Ross, 77, the first to arrive.", "AGE") == []


def test_an_e_mail_address_said_aloud_is_one() -> None:
    text = "it is koduya14 at gmail dot com, because. Email me, marta at yahoo dot com. Look at this dot com thing."
    assert _found(text, "EMAIL_ADDRESS") == ["koduya14 at gmail dot com", "marta at yahoo dot com"]


def test_a_union_s_local_is_an_organization() -> None:
    text = "PLACE:  Teamsters Local 4412 hall, Joliet. For Carpenters\nLocal 2291, and USW Local 1104."
    found = [c.text for c in cues.recognize(text) if c.rule == "cue:union_local"]
    assert found == ["Teamsters Local 4412", "Carpenters\nLocal 2291", "USW Local 1104"]
    assert [c for c in cues.recognize("the local 5 news") if c.rule == "cue:union_local"] == []


def test_a_pronoun_tag_after_a_role_a_kin_word_or_an_app_s_word_names_no_one() -> None:
    text = (
        "Host (they/them): Welcome.\nMom (she/her): Hi.\nZoom User (they/them): hello\n"
        "Name and pronouns (she/her): Tanya\nHe said (he/him) was fine.\nConference Room B (they/them): ok\n"
        "dr. amara okafor (she/her): hello\n"
    )
    assert [c.text for c in cues.recognize(text) if c.rule == "cue:pronoun_tagged"] == ["amara okafor"]


def test_a_dated_list_s_days_are_no_printed_line_numbers() -> None:
    text = "Visit log:\n12 May 2021 - home visit\n13 May 2021 - school visit\n14 May 2021 - call\n"
    assert _found(text, "DATE") == ["12 May 2021", "13 May 2021", "14 May 2021"]
    # A count ending a numbered line is no day of the month opening the next.
    text = "13   A. About 14\n14   March was when it started.\n15   Q. Okay.\n"
    assert "14\n14   March" not in _found(text, "DATE")


def test_a_time_said_in_a_recording_and_a_meridiem_on_the_next_line_stay() -> None:
    text = "[00:00:04] MONTAÑEZ: It was 00:30:00 when the alarm went off.\nHe came at 9\na.m. sharp. At 24:00 hours."
    assert _found(text, "TIME") == ["00:30:00", "9\na.m.", "24:00"]


def test_a_person_named_like_the_storm_stays_a_person() -> None:
    text = (
        "Hurricane Katrina hit in 2005. We left the city that August with our neighbors and all the dogs, "
        "two cars, three days of driving.\nKatrina, my oldest, called me from Houston."
    )
    katrina = text.rindex("Katrina")
    person = Candidate(katrina, katrina + 7, "PERSON", "Katrina", ("spacy",), 0.7, "spacy:PERSON")
    assert reject_reason(person, text=text) is None


def test_words_before_their_own_letters_are_no_names() -> None:
    for text in ("Mother, M.O., came.", "Exhibit, E.X., shows.", "United, U.S., Army."):
        assert [c for c in cues.recognize(text) if c.rule == "cue:initials_after_name"] == []


def test_a_surname_in_capitals_spreads_after_a_determiner_too() -> None:
    text = "Mr. King spoke. The KING file is sealed."
    assert [t for t, _ in _spans(text, "PERSON")] == ["King", "KING"]


def test_ordinals_that_count_other_things_are_no_streets() -> None:
    text = (
        "We met between 9th and 10th week. Between 1st and 15th of the month. A 2nd Dr. Patel, the 3rd St. Louis trip."
    )
    assert _found(text, "LOCATION") == []
    # A range before a street's name is no Queens house number ("114-27 121st Street" is).
    assert _found("the 9-5 Main Street job", "LOCATION") == []


def test_a_month_s_or_a_phone_s_letters_before_a_number_give_no_record() -> None:
    assert _found("MAR 15-2020. FAX 555-0187. EXP 04-2026.", "ID") == []


def test_a_weekday_before_a_count_s_ordinal_is_no_date() -> None:
    assert _found("Tuesday the first thing I did was call. Monday the 3rd time.", "DATE") == []


def test_a_firm_named_twice_after_a_partner_and_a_courtroom_s_role_stay() -> None:
    firms = [c.text for c in cues.recognize("Sayre, Sayre & Quarterman, LLP appeared.") if c.rule == "cue:firm"]
    assert firms == ["Sayre, Sayre & Quarterman, LLP"]
    text = "   Marguerite Okonjo, Courtroom Deputy\n"
    assert [c.text for c in cues.recognize(text) if c.rule == "cue:participant_line"] == ["Marguerite Okonjo"]


def test_a_day_wrapped_before_its_month_after_a_date_s_word_is_one_date() -> None:
    text = (
        "the appeal on 6\n    February 2024 at the office.\n18          The night of 17\n19          September 2023.\n"
        "20          Then.\n"
    )
    assert _found(text, "DATE")[:2] == ["6\n    February 2024", "17\n19          September 2023"]
    # (A count before a numbered line's month gives it no day: the rules find no date there.)
    assert _found("5    He was in cell 12\n6    May through August.\n7    Yes.\n", "DATE") == []


def test_house_numbers_in_ranges_and_islands_but_no_years() -> None:
    text = "A.   94-417 Kahuamoku Street in Waipahu. 3501-3519 W. Diversey Ave. In 2019-2020 Main Street changed."
    assert _found(text, "LOCATION") == ["94-417 Kahuamoku Street", "3501-3519 W. Diversey Ave."]


def test_a_lawyer_s_given_name_before_her_firm_s_partner() -> None:
    text = "FOR THE RESPONDENTS:\n     Jocasta Fairley, Fairley & Dunagin, PLLC, Conway, Arkansas\n"
    assert [c.text for c in cues.recognize(text) if c.rule == "cue:firm"] == ["Fairley & Dunagin, PLLC"]


def test_a_clock_past_a_day_s_hours_is_a_recording_s() -> None:
    text = "      [06:40 to 24:35: DC PENDLEBURY shows the interview]\nAt 24:00 hours the shift changed."
    assert "24:35" not in _found(text, "TIME") and "24:00" in _found(text, "TIME")


def test_knowing_someone_as_a_word_names_them() -> None:
    found = [
        c.text for c in cues.recognize("I didn't know him as Tray until Mrs. Pruitt told me.") if c.rule == "cue:called"
    ]
    assert found == ["Tray"]
    assert [c for c in cues.recognize("I know him as a friend.") if c.rule == "cue:called"] == []


def test_a_day_wrapped_after_a_field_s_label_keeps_its_day() -> None:
    text = "DOB: 9\nOctober 1980. Dated: 30\nNovember 2023. From 1\nJune 2018 to 30\nJune 2019."
    assert _found(text, "DATE")[:4] == ["9\nOctober 1980", "30\nNovember 2023", "1\nJune 2018", "30\nJune 2019"]


def test_a_bare_local_before_a_station_a_bus_or_an_emergency_is_no_union() -> None:
    text = "We called Local 911 dispatch. Local 1 news reported. Via Local 8 bus route. Then union, Local 1186, met."
    assert [c.text for c in cues.recognize(text) if c.rule == "cue:union_local"] == ["Local 1186"]


def test_a_person_named_like_a_storm_said_as_a_person_stays() -> None:
    for text, word in (
        ("We rebuilt after Hurricane Hugo. Hugo, my oldest, helped carry the beams.", "Hugo"),
        ("During Hurricane Sandy my sister Sandy stayed with us.", "Sandy"),
    ):
        at = text.rindex(word)
        person = Candidate(at, at + len(word), "PERSON", word, ("spacy",), 0.7, "spacy:PERSON")
        assert reject_reason(person, text=text) is None


def test_a_surname_a_full_name_gives_spreads_into_capitals() -> None:
    assert [t for t, _ in _spans("Mark Price testified. The PRICE exhibit was shown.", "PERSON")] == [
        "Mark Price",
        "PRICE",
    ]


def test_a_title_s_name_takes_no_verb_with_its_object_from_the_next_line() -> None:
    text = " 7   I saw Officer Bryce\n 8   Tased him right there.\n 9   Then left.\n"
    assert ("Bryce", "PERSON") in _spans(text, "PERSON")


def test_every_weekday_before_an_ordinal_is_a_schedule() -> None:
    assert _found("Every Monday the first hour is count. Each Friday the second shift rotates.", "DATE") == []
