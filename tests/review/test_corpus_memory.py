"""Corpus memory in the engine (issue 17): remembered names found again through the
name identity, with their provenance; suppressions drop machine guesses only."""

from django.conf import settings

from pipelines.candidate import Candidate
from pipelines.detection.config import SOURCE_WEIGHTS, WEIGHTED_SOURCES, DetectionConfig
from pipelines.detection.merging.calibration import BULK_ACCEPT
from pipelines.detection.pipeline import detect_text
from pipelines.detection.recognizers.memory import (
    MEMORY_SOURCE,
    CompiledMemory,
    CorpusMemory,
    MemoryName,
    Suppression,
    provenance,
)

# No model pass: the rule recognizers only, so these tests say what memory adds.
RULES_ONLY = DetectionConfig(recognizers=frozenset({"patterns", "cues", "gazetteer", "header"}))
TEXT = """INMATE DELGADO: Correct. I talked to Officer Brandt about Vacaville.
COMMISSIONER STEIN: Inaudible. Did you write to Mr. Kowalczyk's office?
INMATE DELGADO: Yes, KOWALCZYK answered. Correct. kowalczyk wrote back from Vacaville.
"""


def _spans(result, source=MEMORY_SOURCE):
    return [s for s in result.spans if source in s.sources]


def test_without_memory_detection_is_unchanged():
    plain = detect_text(TEXT, settings.SPACY_MODEL, config=RULES_ONLY)
    empty = detect_text(TEXT, settings.SPACY_MODEL, config=RULES_ONLY, memory=CorpusMemory())
    assert plain.spans == empty.spans
    assert plain.filtered == empty.filtered
    assert not CorpusMemory()


def test_a_remembered_name_is_found_with_the_name_identity_and_its_provenance():
    memory = CorpusMemory(names=(MemoryName("Stanley Kowalczyk", "PERSON", (7, 3)),))
    result = detect_text(TEXT, settings.SPACY_MODEL, config=RULES_ONLY, memory=memory)
    found = {(s.text, s.label) for s in _spans(result)}
    # A part of the name (before a possessive), in capitals, in lower case (no common word).
    assert found >= {("Kowalczyk", "PERSON"), ("KOWALCZYK", "PERSON"), ("kowalczyk", "PERSON")}
    span = next(s for s in _spans(result) if s.text == "KOWALCZYK")
    assert "corpus-memory: documents 3, 7" in span.rule
    # A reviewer accepted it: calibrated like a cue, safe to accept in bulk.
    assert span.score >= BULK_ACCEPT
    # Each source's candidates are reported, the memory's too.
    assert any(MEMORY_SOURCE in c.sources for c in result.candidates)


def test_a_remembered_name_passes_the_filters_and_the_vote():
    # "Correct" alone would be filtered as a common word from a model; a reviewer
    # of this corpus said it is a name (a surname), so it is proposed.
    memory = CorpusMemory(names=(MemoryName("Vacaville", "LOCATION", (2,)),))
    voting = DetectionConfig(recognizers=RULES_ONLY.recognizers, mode="vote", k=2)
    result = detect_text(TEXT, settings.SPACY_MODEL, config=voting, memory=memory)
    assert [(s.text, s.label) for s in _spans(result)] == [("Vacaville", "LOCATION")] * 2


def test_memory_outweighs_a_model_guess_of_another_label():
    # sm calls "Vacaville" an ORGANIZATION here (the open default reads it right);
    # the corpus accepted it as a LOCATION.
    plain = detect_text(TEXT, "sm")
    assert ("Vacaville", "ORGANIZATION") in {(s.text, s.label) for s in plain.spans}
    memory = CorpusMemory(names=(MemoryName("Vacaville", "LOCATION", (2,)),))
    result = detect_text(TEXT, "sm", memory=memory)
    labels = {s.label for s in result.spans if s.text == "Vacaville"}
    assert labels == {"LOCATION"}


def test_a_suppression_drops_a_machine_guess_with_its_reason():
    labels = frozenset({"ORGANIZATION", "LOCATION"})
    memory = CorpusMemory(suppressions=(Suppression("vacaville", labels, (4, 5)),))
    result = detect_text(TEXT, settings.SPACY_MODEL, memory=memory)
    assert not [s for s in result.spans if s.text == "Vacaville"]
    reasons = {f.reason for f in result.filtered if f.candidate.text == "Vacaville"}
    assert reasons == {"corpus-suppression: rejected in 2 documents, never accepted"}


def test_a_suppression_only_hides_the_labels_it_was_rejected_as():
    plain = detect_text(TEXT, settings.SPACY_MODEL)
    memory = CorpusMemory(suppressions=(Suppression("vacaville", frozenset({"PERSON"}), (4, 5)),))
    result = detect_text(TEXT, settings.SPACY_MODEL, memory=memory)
    assert result.spans == plain.spans
    # Rejected as an ORGANIZATION only: spaCy's LOCATION at the end still counts.
    memory = CorpusMemory(suppressions=(Suppression("vacaville", frozenset({"ORGANIZATION"}), (4, 5)),))
    result = detect_text(TEXT, settings.SPACY_MODEL, memory=memory)
    assert {s.label for s in result.spans if s.text == "Vacaville"} == {"LOCATION"}


def test_a_suppression_never_drops_a_protected_source():
    # (An invented surname: a known name in name case is never suppressed, below.)
    compiled = CompiledMemory(CorpusMemory(suppressions=(Suppression("Zorbex", frozenset({"PERSON"}), (1, 2)),)))
    guess = Candidate(0, 6, "PERSON", "ZORBEX", ("spacy",), 0.6)
    assert compiled.suppression(guess) == "corpus-suppression: rejected in 2 documents, never accepted"
    assert compiled.suppression(Candidate(0, 6, "PERSON", "zorbex", ("propagation",), 0.8))
    for source in ("header", "human", "allow_list", "corpus", MEMORY_SOURCE):
        assert compiled.suppression(Candidate(0, 6, "PERSON", "Zorbex", ("spacy", source), 0.9)) is None
    # A longer text is another form.
    assert compiled.suppression(Candidate(0, 13, "PERSON", "Zorbex Miller", ("spacy",), 0.6)) is None


def test_suppression_holds_off_propagation_but_not_the_allow_list():
    # A cue finds "Zorbex" after "Officer" and propagation would spread it: both
    # are machine findings, dropped; the admin's allow list is not.
    text = "Officer Zorbex left. Zorbex came back.\n"
    memory = CorpusMemory(suppressions=(Suppression("zorbex", frozenset({"PERSON"}), (1, 2)),))
    plain = detect_text(text, settings.SPACY_MODEL, config=RULES_ONLY)
    assert [s.text for s in plain.spans if s.label == "PERSON"] == ["Zorbex", "Zorbex"]
    suppressed = detect_text(text, settings.SPACY_MODEL, config=RULES_ONLY, memory=memory)
    assert not [s for s in suppressed.spans if s.label == "PERSON"]
    assert {f.reason for f in suppressed.filtered if f.candidate.text == "Zorbex"} == {
        "corpus-suppression: rejected in 2 documents, never accepted"
    }
    allow = DetectionConfig(recognizers=RULES_ONLY.recognizers, allow={"Zorbex": "PERSON"})
    allowed = detect_text(text, settings.SPACY_MODEL, config=allow, memory=memory)
    assert [s.text for s in allowed.spans if s.label == "PERSON"] == ["Zorbex", "Zorbex"]


def test_memory_source_is_weighted_and_configurable():
    assert MEMORY_SOURCE in WEIGHTED_SOURCES
    assert SOURCE_WEIGHTS["header"] < SOURCE_WEIGHTS[MEMORY_SOURCE] < SOURCE_WEIGHTS["allow_list"]
    config = DetectionConfig.from_dict({"weights": {MEMORY_SOURCE: 0.5}})
    assert config.weights[MEMORY_SOURCE] == 0.5


def test_value_labels_are_not_remembered_and_provenance_reads_well():
    compiled = CompiledMemory(CorpusMemory(names=(MemoryName("March 14, 2023", "DATE", (1,)),)))
    assert compiled.candidates("On March 14, 2023 we met.") == []
    assert provenance([7, 3, 3]) == "corpus-memory: documents 3, 7"
    assert provenance([4]) == "corpus-memory: document 4"


def test_a_name_in_name_case_is_never_suppressed_by_a_rejected_common_word():
    """Reviewers rejected "bill" (the noun) as a PERSON in two documents; "Bill" the
    inmate is still proposed: a suppressed name would be a leak nobody sees. The
    lowercase noun itself stays suppressed."""
    memory = CompiledMemory(CorpusMemory(suppressions=(Suppression("bill", frozenset({"PERSON"}), (4, 5)),)))
    name = Candidate(10, 14, "PERSON", "Bill", ("spacy",), 0.6)
    noun = Candidate(30, 34, "PERSON", "bill", ("spacy",), 0.6)
    assert memory.suppression(name) is None
    assert memory.suppression(noun) == "corpus-suppression: rejected in 2 documents, never accepted"
    # Not a known name: a capitalised false alarm such as "Correct" is suppressed as usual.
    memory = CompiledMemory(CorpusMemory(suppressions=(Suppression("correct", frozenset({"PERSON"}), (4, 5)),)))
    assert memory.suppression(Candidate(0, 7, "PERSON", "Correct", ("spacy",), 0.6)) is not None
