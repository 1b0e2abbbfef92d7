"""What the whole detector proposes on a text, as the engine tests read it: shared by
the tests of each session's made-up batch."""

from django.conf import settings

from pipelines.detection.pipeline import detect_text


def spans(text: str, *labels: str) -> list[tuple[str, str]]:
    """(text, label) of every span of `labels` the default model's ensemble proposes."""
    return [(c.text, c.label) for c in detect_text(text, settings.SPACY_MODEL).spans if c.label in labels]


def people(text: str) -> list[str]:
    """The names it proposes, spelled ones included."""
    return [t for t, _ in spans(text, "PERSON", "SPELLED_NAME")]
