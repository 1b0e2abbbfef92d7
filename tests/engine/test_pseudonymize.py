"""PERSON pseudonymization (seed 000's rule), the other placeholders, the leak gate."""

import re

import pytest

from pipelines.candidate import Candidate
from pipelines.export.leak_check import find_leaks
from pipelines.pseudonymize.engine import pseudonymize


def spans_for(text: str, *items: tuple[str, str]) -> list[Candidate]:
    """Spans for each (needle, label), every occurrence."""
    spans = []
    for needle, label in items:
        for m in re.finditer(r"(?<!\w)" + re.escape(needle) + r"(?!\w)", text):
            spans.append(Candidate(m.start(), m.end(), label, needle, ("test",), 1.0))
    return sorted(spans, key=lambda s: s.start)


def test_each_name_part_is_numbered_in_order_of_first_appearance():
    text = "We have a John Doe and the victim is Jane Smith."
    result = pseudonymize(text, spans_for(text, ("John Doe", "PERSON"), ("Jane Smith", "PERSON")))
    assert result.text == "We have a [PERSON_1] [PERSON_2] and the victim is [PERSON_3] [PERSON_4]."


def test_a_later_part_and_capitals_reuse_the_number():
    text = "John Doe spoke. Later Doe left. INMATE DOE: yes. Then John."
    spans = spans_for(text, ("John Doe", "PERSON"), ("Doe", "PERSON"), ("DOE", "PERSON"), ("John", "PERSON"))
    result = pseudonymize(
        text,
        [
            s
            for s in spans
            if not any(
                o is not s and o.start <= s.start and s.end <= o.end and o.end - o.start > s.end - s.start
                for o in spans
            )
        ],
    )
    assert result.text == "[PERSON_1] [PERSON_2] spoke. Later [PERSON_2] left. INMATE [PERSON_2]: yes. Then [PERSON_1]."


def test_possessive_stays_outside_the_placeholder():
    text = "Doe's car"
    result = pseudonymize(text, [Candidate(0, 5, "PERSON", "Doe's", ("t",), 1.0)])
    assert result.text == "[PERSON_1]'s car"


def test_titles_inside_a_span_stay_as_context_and_cut_off_names_reuse_their_part():
    text = "Mr. Hernandez said Hern- Hernandez"
    spans = [
        Candidate(0, 13, "PERSON", "Mr. Hernandez", ("t",), 1.0),
        Candidate(19, 24, "PERSON", "Hern-", ("t",), 1.0),
        Candidate(25, 34, "PERSON", "Hernandez", ("t",), 1.0),
    ]
    assert pseudonymize(text, spans).text == "Mr. [PERSON_1] said [PERSON_1] [PERSON_1]"


def test_numbering_is_per_document():
    text = "Jane Roe"
    first = pseudonymize(text, spans_for(text, ("Jane Roe", "PERSON")))
    second = pseudonymize(text, spans_for(text, ("Jane Roe", "PERSON")))
    assert first.text == second.text == "[PERSON_1] [PERSON_2]"


def test_spelled_name_points_at_the_person_it_spells():
    text = "Marcus Delgado, D-E-L-G-A-D-O. And X-Y-Z."
    spans = spans_for(text, ("Marcus Delgado", "PERSON"), ("D-E-L-G-A-D-O", "SPELLED_NAME"), ("X-Y-Z", "SPELLED_NAME"))
    assert pseudonymize(text, spans).text == "[PERSON_1] [PERSON_2], [SPELLED_NAME_PERSON_2]. And [SPELLED_NAME]."


def test_a_name_spelled_in_the_radio_alphabet_or_with_accents_points_at_the_person() -> None:
    # The export reads a spelling as detection does (`names.spelled_words`): a
    # dispatcher's "King-Ocean-Robert…" spells KORDELL, "Ñ" is a letter.
    text = "Kordell Wimbley, King-Ocean-Robert-David-Edward-Lincoln-Lincoln. Ana Villaseñor, V-I-L-L-A-S-E-Ñ-O-R."
    spans = spans_for(
        text,
        ("Kordell Wimbley", "PERSON"),
        ("King-Ocean-Robert-David-Edward-Lincoln-Lincoln", "SPELLED_NAME"),
        ("Ana Villaseñor", "PERSON"),
        ("V-I-L-L-A-S-E-Ñ-O-R", "SPELLED_NAME"),
    )
    assert pseudonymize(text, spans).text == (
        "[PERSON_1] [PERSON_2], [SPELLED_NAME_PERSON_1]. [PERSON_3] [PERSON_4], [SPELLED_NAME_PERSON_4]."
    )


@pytest.mark.parametrize(
    ("label", "value", "expected"),
    [
        ("DATE", "12/23/2016", "[DATE]"),
        ("DATE", "March 3, 1985", "[MONTH] [NUMBER], [YEAR]"),
        ("DATE", "Wednesday the 12th", "[DAY_OF_WEEK] the [DAY]"),
        ("DATE", "the 1990s", "the [DECADE]"),
        ("DATE", "nineteen eighty-five", "[YEAR]"),
        ("DATE", "the other day", "[DATE]"),
        ("TIME", "10:30 a.m.", "[TIME]"),
        ("AGE", "25 years old", "[AGE] years old"),
        ("AGE", "twenty-one years old", "[AGE] years old"),
        ("AGE", "one day I turned 18", "one day I turned [AGE]"),
        ("HEIGHT", "5 feet 10 inches", "[HEIGHT] feet [HEIGHT] inches"),
        ("ORGANIZATION", "Folsom State Prison", "[PRISON_1]"),
        ("ORGANIZATION", "Fresno Police Department", "[POLICE_DEPARTMENT_1]"),
        ("LOCATION", "California", "[STATE_1]"),
        ("LOCATION", "Fresno County", "[COUNTY_1]"),
        ("LOCATION", "Stockton", "[CITY_1]"),
        ("LOCATION", "Mexico", "[COUNTRY_1]"),
        ("LOCATION", "CA", "[STATE_1]"),
        ("LOCATION", "93721", "[ZIP_CODE_1]"),
        ("LOCATION", "1200 Main Street", "[ADDRESS_1]"),
        ("LOCATION", "the Back Forty", "[LOCATION_1]"),
        ("NRP", "Catholics", "[RELIGION_1]"),
        ("NRP", "Mexican", "[NATIONALITY_1]"),
        ("NRP", "Democrats", "[POLITICAL_1]"),
        ("NRP", "Hispanic", "[ETHNICITY_1]"),
        ("ORGANIZATION", "Fresno County Jail", "[JAIL_1]"),
        ("ORGANIZATION", "Stanford University", "[UNIVERSITY_1]"),
        ("ORGANIZATION", "Acme Widgets", "[ORGANIZATION_1]"),
        ("SPELLED_OUT_ITEM", "B as in boy", "[SPELLED_OUT_ITEM_1]"),
        ("ID", "K-48213", "[ID_1]"),
        ("PHONE_NUMBER", "(559) 555-0147", "[PHONE_NUMBER_1]"),
        ("EMAIL_ADDRESS", "a@b.org", "[EMAIL_ADDRESS_1]"),
    ],
)
def test_placeholder_per_label(label, value, expected):
    text = f"x {value} y"
    result = pseudonymize(text, [Candidate(2, 2 + len(value), label, value, ("t",), 1.0)])
    assert result.text == f"x {expected} y"


def test_ids_are_keyed_by_digits_and_values_reuse_numbers():
    text = "K-48213 then K48213 then H11111"
    spans = [
        Candidate(0, 7, "ID", "K-48213", ("t",), 1),
        Candidate(13, 19, "ID", "K48213", ("t",), 1),
        Candidate(25, 31, "ID", "H11111", ("t",), 1),
    ]
    assert pseudonymize(text, spans).text == "[ID_1] then [ID_1] then [ID_2]"


def test_index_is_unique_in_order_of_first_occurrence_with_counts():
    text = "Jane Roe and Jane Roe met in Fresno County."
    result = pseudonymize(text, spans_for(text, ("Jane Roe", "PERSON"), ("Fresno County", "LOCATION")))
    assert [(e.label, e.original, e.replacement, e.count) for e in result.index()] == [
        ("PERSON", "Jane Roe", "[PERSON_1] [PERSON_2]", 2),
        ("LOCATION", "Fresno County", "[COUNTY_1]", 1),
    ]


def test_overlapping_spans_are_refused():
    with pytest.raises(ValueError):
        pseudonymize(
            "abcdef", [Candidate(0, 3, "PERSON", "abc", ("t",), 1), Candidate(2, 4, "PERSON", "cd", ("t",), 1)]
        )


def test_leak_check_finds_a_surviving_name_case_and_line_break_insensitively():
    spans = [Candidate(0, 8, "PERSON", "John Doe", ("t",), 1.0)]
    assert find_leaks("[PERSON_1] [PERSON_2]", spans) == []
    assert find_leaks("he said JOHN\nDOE", spans)[0].label == "PERSON"
    # A surviving part is a leak; the same letters as an ordinary word are not.
    assert find_leaks("Mr. Doe arrived", spans)
    will = [Candidate(0, 10, "PERSON", "Will Smith", ("t",), 1.0)]
    assert find_leaks("I will go", will) == []


def test_leak_report_has_no_original_text():
    leaks = find_leaks("Jane Roe", [Candidate(0, 8, "PERSON", "Jane Roe", ("t",), 1.0)])
    assert "Jane" not in repr(leaks)


def test_a_span_that_took_the_sentences_full_stop_gives_it_back():
    """ "the time is 9:05 a.m. This is" became "the time is [TIME] This is" (a
    fresh-clone walkthrough): the dot of "a.m." also ended the sentence."""
    from pipelines.pseudonymize.engine import PseudonymizationConfig, pseudonymize_document

    text = "The time is 9:05 a.m. This is the panel. He left at 5 p.m. and came back.\nAt 6 a.m.\nHe spoke."

    def span(needle: str) -> Candidate:
        start = text.index(needle)
        return Candidate(start, start + len(needle), "TIME", needle, ("patterns",), 1.0)

    spans = [span("9:05 a.m."), span("5 p.m."), span("6 a.m.")]
    assert pseudonymize(text, spans).text == (
        "The time is [TIME]. This is the panel. He left at [TIME] and came back.\nAt [TIME].\nHe spoke."
    )
    # Strategies that keep the length mask the dot with the rest.
    masked = pseudonymize_document(text, spans, PseudonymizationConfig("mask")).text
    assert len(masked) == len(text) and "********* This" in masked


def test_a_generational_suffix_stays_as_written_and_is_never_numbered():
    """Two unrelated "Jr."s must not share a placeholder (that would link them), and
    the suffix identifies no one: it stays as context, like a title."""
    text = "George Tillman Jr. directed it. Later Mr. Tillman met Sammy Davis Jr. and John Smith III."
    spans = spans_for(
        text,
        ("George Tillman Jr.", "PERSON"),
        ("Tillman", "PERSON"),
        ("Sammy Davis Jr.", "PERSON"),
        ("John Smith III", "PERSON"),
    )
    spans = [s for s in spans if not (s.text == "Tillman" and s.start < 10)]
    result = pseudonymize(text, spans)
    assert result.text == (
        "[PERSON_1] [PERSON_2] Jr. directed it. Later Mr. [PERSON_2] met [PERSON_3] [PERSON_4] Jr. "
        "and [PERSON_5] [PERSON_6] III."
    )
    assert find_leaks(result.text, spans) == []


def test_with_one_number_per_person_father_and_son_stay_two_people():
    from pipelines.pseudonymize.engine import PseudonymizationConfig, pseudonymize_document

    text = "George Tillman Sr. raised George Tillman Jr. in Ohio. Later George Tillman Jr. left."
    spans = spans_for(text, ("George Tillman Sr.", "PERSON"), ("George Tillman Jr.", "PERSON"))
    result = pseudonymize_document(text, spans, PseudonymizationConfig(person_numbering="entity"))
    assert result.text == "[PERSON_1] Sr. raised [PERSON_2] Jr. in Ohio. Later [PERSON_2] Jr. left."
