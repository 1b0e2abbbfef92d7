"""Issue 13: a name the witness uses as a place ("came down Chambers") is not a
PERSON. Each case is a realistic transcript utterance."""

from pipelines.candidate import Candidate
from pipelines.detection.filtering.place_context import place_cue, relabel_places
from pipelines.detection.pipeline import detect_texts


def spans_of(text: str, *names: str, sources: tuple[str, ...] = ("spacy",)) -> list[Candidate]:
    """A PERSON candidate at every occurrence of each name."""
    found = []
    for name in names:
        at = text.find(name)
        while at != -1:
            found.append(Candidate(at, at + len(name), "PERSON", name, sources, 0.8, "spacy:PERSON"))
            at = text.find(name, at + 1)
    return sorted(found, key=lambda c: c.start)


def labels(spans: list[Candidate]) -> list[tuple[str, str]]:
    return [(s.text, s.label) for s in spans]


def test_a_street_the_witness_walked_down_is_a_location_everywhere_in_the_document():
    text = (
        "Q And where did you see him?\nA He came down Chambers, which is east and west.\n"
        "Q Was Chambers the first street you drove on?\nA Yes."
    )
    out = relabel_places(text, spans_of(text, "Chambers"))
    assert labels(out) == [("Chambers", "LOCATION"), ("Chambers", "LOCATION")]
    assert all(s.rule.endswith("place-context:path") for s in out)


def test_a_name_said_to_be_a_street_and_a_street_type_after_a_name():
    text = "A His feet were at Glen Oak.\nQ And Glen Oak was the other street?\nA He lived off Mason Avenue."
    out = relabel_places(text, spans_of(text, "Glen Oak", "Mason"))
    assert labels(out) == [("Glen Oak", "LOCATION"), ("Glen Oak", "LOCATION"), ("Mason", "LOCATION")]
    assert place_cue(text, text.index("Mason"), text.index("Mason") + 5) == "street type"


def test_a_town_named_before_its_officers_unless_the_document_has_a_person_of_that_name():
    text = "Q Were there any Ferguson officers present?\nA Yes. Ferguson was on the scene first."
    assert labels(relabel_places(text, spans_of(text, "Ferguson"))) == [("Ferguson", "LOCATION")] * 2
    # "Officer Ferguson" anywhere in the document makes its Ferguson a person.
    text += "\nQ Did Officer Ferguson speak to you?\nA No."
    assert {s.label for s in relabel_places(text, spans_of(text, "Ferguson"))} == {"PERSON"}


def test_people_stay_people():
    # "back up" someone, walking toward someone, a possessive, a person cue or a header name.
    text = "He was called up to back up Honus Wagner.\nHe ran toward Brown.\nThey came down Wilson's driveway."
    assert {s.label for s in relabel_places(text, spans_of(text, "Honus Wagner", "Brown", "Wilson"))} == {"PERSON"}
    # A place noun that does not end the phrase, a name followed by a noun it is not
    # an attribute of.
    text = "Jordan was a neighborhood kid. I told Johnson officers were coming. Reyes was the county jail nurse."
    assert {s.label for s in relabel_places(text, spans_of(text, "Jordan", "Johnson", "Reyes"))} == {"PERSON"}
    text = "A I came down Marisol Quintero's way. My name is Marisol Quintero, she came down Marisol Quintero."
    strong = spans_of(text, "Marisol Quintero", sources=("cues", "spacy"))
    assert {s.label for s in relabel_places(text, strong)} == {"PERSON"}


def test_the_pipeline_relabels_a_street_and_keeps_it_masked():
    text = "Q Which way did he go?\nA He came down Chambers and then he ran up Canfield toward the car."
    result = next(detect_texts([text], "sm"))
    found = {s.text: s.label for s in result.spans}
    # Masked either way (leak recall); never as a person.
    assert found.get("Chambers") in ("LOCATION", "ORGANIZATION"), found
    assert "PERSON" not in {found.get("Chambers"), found.get("Canfield")}, found
