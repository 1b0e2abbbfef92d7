"""The default detection pipeline: recognizers → filters → ensemble → propagation.

Plain Python over text, no database: the `detect` command, the Celery task and
the evaluation all call `detect_texts`.
"""

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from pipelines.detection import cues, gazetteer, header_names, patterns, presidio, spacy_ner
from pipelines.detection.candidate import Candidate
from pipelines.detection.ensemble import merge
from pipelines.detection.filters import Filtered, apply_filters
from pipelines.detection.nlp import load_nlp
from pipelines.detection.propagate import propagate

# spaCy's pipe batches texts; long transcripts are single texts, so a small batch
# keeps memory flat.
BATCH_SIZE = 8


@dataclass
class DetectionResult:
    spans: list[Candidate]
    filtered: list[Filtered] = field(default_factory=list)
    # Every recognizer's candidates that passed the filters, before the merge: what
    # each source found on its own (evaluation per source, provenance).
    candidates: list[Candidate] = field(default_factory=list)


def _detect_doc(doc, nlp, metadata: dict | None) -> DetectionResult:
    text = doc.text
    candidates = [
        *header_names.recognize(text, header_names.header_people(metadata)),
        *spacy_ner.recognize(doc),
        *presidio.recognize(doc, nlp),
        *patterns.recognize(text),
        *cues.recognize(text),
        *gazetteer.recognize(text),
    ]
    kept, filtered = apply_filters(candidates)
    spans = merge(text, kept)
    extra = propagate(text, spans)
    if extra:
        spans = merge(text, [*spans, *extra])
    return DetectionResult(spans, filtered, kept)


def detect_texts(
    texts: Iterable[str], model_name: str, metadata: Iterable[dict | None] | None = None
) -> Iterator[DetectionResult]:
    """Detect in each text; `metadata` (parsed transcript headers, one per text)
    seeds the header-names recognizer."""
    nlp = load_nlp(model_name)
    # nlp.max_length guards memory for the parser; transcripts can exceed the
    # default 1,000,000 characters and NER needs no more than linear memory.
    nlp.max_length = max(nlp.max_length, 5_000_000)
    metadata_iter = iter(metadata) if metadata is not None else None
    for doc in nlp.pipe(texts, batch_size=BATCH_SIZE):
        yield _detect_doc(doc, nlp, next(metadata_iter, None) if metadata_iter else None)


def detect_text(text: str, model_name: str, metadata: dict | None = None) -> DetectionResult:
    return next(detect_texts([text], model_name, [metadata]))
