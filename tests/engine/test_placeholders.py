"""Placeholder rules of the export-trust issue: city and state typed apart, an age
given as the answer to an age question, date sub-placeholders as seed 000 and the
README say."""

import pytest
from django.conf import settings

from pipelines.candidate import Candidate
from pipelines.detection.pipeline import detect_text
from pipelines.pseudonymize.engine import pseudonymize


def _span(text: str, needle: str, label: str) -> Candidate:
    start = text.index(needle)
    return Candidate(start, start + len(needle), label, needle, ("t",), 1.0)


def test_city_and_state_are_typed_apart_in_detection_and_in_the_placeholder() -> None:
    text = "INMATE DELGADO: I grew up in Folsom, California with my aunt."
    places = [s for s in detect_text(text, settings.SPACY_MODEL).spans if s.label == "LOCATION"]
    assert [s.text for s in places] == ["Folsom", "California"]
    assert pseudonymize(text, places).text == "INMATE DELGADO: I grew up in [CITY_1], [STATE_1] with my aunt."
    # A span a reviewer drew over both parts is typed part by part too.
    assert pseudonymize(text, [_span(text, "Folsom, California", "LOCATION")]).text.count("[CITY_1], [STATE_1]") == 1


@pytest.mark.parametrize(
    "answer",
    ["INMATE DELGADO: I was 19.", "INMATE DELGADO: 19.", "A. About 19 years.", "INMATE DELGADO: I was nineteen."],
)
def test_an_age_answering_an_age_question_is_an_age(answer: str) -> None:
    text = f"PRESIDING COMMISSIONER HARTWELL: How old were you?\n{answer}\n"
    spans = [s for s in detect_text(text, settings.SPACY_MODEL).spans if s.label in ("AGE", "DATE")]
    assert [s.label for s in spans] == ["AGE"], spans
    assert "[AGE]" in pseudonymize(text, spans).text


def test_a_bare_number_after_was_is_an_age_not_a_date() -> None:
    text = "INMATE KIM: Santa Rita Jail, when I was thirteen. Mr. Kim was 29, not a child."
    spans = detect_text(text, settings.SPACY_MODEL).spans
    assert {s.text: s.label for s in spans if s.text in ("thirteen", "29")} == {"thirteen": "AGE", "29": "AGE"}


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        # seed 000: a number is [NUMBER], an ordinal is [DAY] (the README says the same)
        ("March 14, 2023", "[MONTH] [NUMBER], [YEAR]"),
        ("the 14th of March, 2023", "the [DAY] of [MONTH], [YEAR]"),
        ("Thursday, October 24, 2024", "[DAY_OF_WEEK], [MONTH] [NUMBER], [YEAR]"),
        ("12/23/2016", "[DATE]"),
        ("the 1990s", "the [DECADE]"),
    ],
)
def test_date_sub_placeholders(value: str, expected: str) -> None:
    assert pseudonymize(value, [Candidate(0, len(value), "DATE", value, ("t",), 1.0)]).text == expected


def test_the_readme_promises_the_date_placeholders_the_code_writes() -> None:
    readme = (settings.BASE_DIR / "README.md").read_text()
    assert "`[MONTH] [NUMBER], [YEAR]`" in readme and "`[MONTH] [DAY], [YEAR]`" not in readme
