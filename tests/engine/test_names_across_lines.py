"""A line's end inside a name: a name a line broke is one name, once; two lines of a
list, a name and the index or heading under it, are not. And an institution a line
broke keeps its whole name. Every example is invented here."""

import pytest
from django.conf import settings

from pipelines.detection import places
from pipelines.detection.pipeline import detect_text
from pipelines.detection.recognizers.gazetteer import recognize as name_lists


def _found(text: str) -> list[tuple[str, str]]:
    return [(s.text, s.label) for s in detect_text(text, settings.SPACY_MODEL).spans]


@pytest.mark.parametrize(
    ("text", "name", "one"),
    [
        ("A. Bob\nMcCulloch was there.", "Bob\nMcCulloch", True),  # a given name at a line's end
        ("These two, Kathi Alizadeh, Shelia\nWhirley, will be here.", "Shelia\nWhirley", True),
        ("Officer Jane Doe\nPage 3 shows it.", "Jane Doe\nPage", True),  # words before it on its line
        ("Transcribed by: Jane Doe\nINDEX\nPage", "Jane Doe\nINDEX\nPage", False),  # two line ends
        ("PRESENT:\nMARY SMITH\nYoung\n", "MARY SMITH\nYoung", False),  # a whole name fills its line
        ("PRESENT:\nYoung\nWilliams\n", "Young\nWilliams", False),  # one word a line, no given name first
        ("PRESENT:\nShelia\nWhirley\n", "Shelia\nWhirley", True),
    ],
)
def test_a_name_is_broken_by_one_line_end_and_not_after_a_line_it_fills(text: str, name: str, one: bool) -> None:
    start = text.index(name)
    assert places.one_broken_name(text, start, start + len(name)) is one


def test_the_name_lists_join_no_name_to_the_lines_under_it() -> None:
    text = "Transcribed by: Jane Doe\nINDEX\nPage\nPRESENT:\nMARY SMITH\nYoung\nWilliams\n"
    assert [c.text for c in name_lists(text)] == ["Jane Doe", "MARY SMITH"]


def test_end_to_end_a_list_of_names_one_a_line_stays_a_list() -> None:
    found = _found("Transcribed by: Jane Doe\nINDEX\nPage\nProceedings 3\n")
    assert ("Jane Doe", "PERSON") in found
    assert not any("\n" in text for text, _ in found)
    found = _found("PRESENT:\nMARY SMITH\nYoung\nWilliams\n")
    assert ("MARY SMITH", "PERSON") in found
    assert not any("\n" in text for text, _ in found)


@pytest.mark.parametrize(
    ("text", "start", "end", "broken"),
    [
        ("I worked for St. Louis\nDelivery Service for three years.", "St.", "Service", True),
        ("I worked for St. Louis\nDELIVERY SERVICE: Hello.", "St.", "SERVICE", False),  # a new turn
        ("We lived in St. Louis\nCounty for years.", "St.", "County", False),  # no institution's word
    ],
)
def test_an_institution_broken_by_a_line(text: str, start: str, end: str, broken: bool) -> None:
    a, b = text.index(start), text.index(end) + len(end)
    assert places.institution_broken_by_a_line(text, a, b) is broken


def test_a_place_broken_by_a_line_ends_in_a_place_s_word() -> None:
    text = "We lived in St. Louis\nCounty for years."
    a, b = text.index("St."), text.index("County") + len("County")
    assert places.institution_broken_by_a_line(text, a, b, place=True)
    assert ("St. Louis\nCounty", "LOCATION") in _found(text)


def test_end_to_end_an_institution_a_line_broke_is_one_organization() -> None:
    found = _found("I worked for St. Louis\nDelivery Service for three years before that.")
    assert found == [("St. Louis\nDelivery Service", "ORGANIZATION")]


@pytest.mark.parametrize(
    ("text", "street"),
    [
        ("Then we drove to Baker Court and waited.", "Baker Court"),
        ("He pulled onto Baker Court again.", "Baker Court"),
        ("She lives at 12 Baker Court.", "12 Baker Court"),  # the house's number with it: one address
    ],
)
def test_a_street_ending_in_court_that_someone_goes_to_is_a_place(text: str, street: str) -> None:
    assert (street, "LOCATION") in _found(text)


def test_a_court_of_a_kind_one_goes_to_stays_an_institution() -> None:
    assert ("Harlow County Court", "ORGANIZATION") in _found("He went to Harlow County Court for the hearing.")


@pytest.mark.parametrize(
    ("text", "first", "second", "joined"),
    [
        ("Q. So his face was at West\nFlorissant?\nA. Correct.", "West", "Florissant", True),
        ("He lived in Sowerby\nBridge since 2015.", "Sowerby", "Bridge", True),
        ("1919 Sansom Street, Suite 2100\n 7    Philadelphia, Pennsylvania", "Suite 2100", "Philadelphia", False),
        ("hearing for Leroy\n 6  Fontenot, CDCR number C-58214.", "Leroy", "Fontenot", False),
        ("and my granny, Odessa\n24 Brown. And my cousin", "Odessa", "Brown", False),
        ("PLACES:\nFresno\nModesto\n", "Fresno", "Modesto", False),  # a list, a place a line
        ("I lived on Culver Street\nModesto for years.", "Culver Street", "Modesto", False),  # a street, a town
        ("Our office is in Dayton\nOhio, near the river.", "Dayton", "Ohio", False),  # two known places
        ("in New York\nLos Angeles and Chicago", "New York", "Los Angeles", False),  # two whole names
        ("100 Main St. Apt 4B\nSacramento", "Main St. Apt 4B", "Sacramento", False),  # an address's lines
    ],
)
def test_a_place_a_line_broke_is_one_place(text: str, first: str, second: str, joined: bool) -> None:
    from pipelines.candidate import Candidate
    from pipelines.detection.merging.ensemble import merge_adjacent

    a, b = text.index(first), text.index(second)
    spans = [
        Candidate(a, a + len(first), "LOCATION", first, ("spacy",), 0.6),
        Candidate(b, b + len(second), "LOCATION", second, ("spacy",), 0.6),
    ]
    assert (len(merge_adjacent(text, spans)) == 1) is joined
