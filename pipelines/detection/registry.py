"""The recognizers, by the key a corpus's configuration turns them on or off with.

Each entry declares its configuration key (`config.RECOGNIZERS`), what it reads
(the model pass's spaCy Doc, or the plain text and the parsed cover page) and how
it is loaded, as Presidio's `RecognizerRegistry` does for its own recognizers.
`pipeline.py` runs what this registry lists, in its order: merge ties keep that
order, so it is the default pipeline's. Adding a recognizer is one entry here and
its key in `config.RECOGNIZERS`; the import-time check below (and a test) keeps
the two, and the pattern packs, in agreement.

Loading is deferred to the first use: importing presidio costs seconds, which a
web process that merely imports the annotation service must not pay.
"""

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pipelines.candidate import Candidate
from pipelines.detection.config import PACKS, RECOGNIZERS
from pipelines.detection.recognizers import cues, gazetteer, header_names, patterns, spacy_ner
from pipelines.detection.recognizers.packs import PATTERN_PACKS

if TYPE_CHECKING:
    from spacy.language import Language
    from spacy.tokens import Doc

# (text, parsed cover page) -> candidates
TextRecognize = Callable[[str, dict | None], list[Candidate]]
# (a chunk's Doc, the pipeline that made it) -> candidates, offsets within the chunk
DocRecognize = Callable[["Doc", "Language"], list[Candidate]]


@dataclass(frozen=True)
class Recognizer:
    key: str
    reads_doc: bool
    load: Callable[[], Any]  # -> TextRecognize or DocRecognize


def _header(text: str, metadata: dict | None) -> list[Candidate]:
    people = header_names.header_people(metadata)
    return header_names.recognize(text, people) + header_names.recognize_places(
        text, header_names.header_places(metadata)
    )


def _spacy(doc: "Doc", nlp: "Language") -> list[Candidate]:
    return spacy_ner.recognize(doc, spacy_ner.promotes(nlp))


def _presidio() -> DocRecognize:
    from pipelines.detection.recognizers import presidio

    return presidio.recognize


REGISTRY: tuple[Recognizer, ...] = (
    Recognizer("header", reads_doc=False, load=lambda: _header),
    Recognizer("spacy", reads_doc=True, load=lambda: _spacy),
    Recognizer("presidio", reads_doc=True, load=_presidio),
    Recognizer("patterns", reads_doc=False, load=lambda: lambda text, _metadata: patterns.recognize(text)),
    Recognizer("cues", reads_doc=False, load=lambda: lambda text, _metadata: cues.recognize(text)),
    Recognizer("gazetteer", reads_doc=False, load=lambda: lambda text, _metadata: gazetteer.recognize(text)),
)
BY_KEY: dict[str, Recognizer] = {r.key: r for r in REGISTRY}
DOC_KEYS: frozenset[str] = frozenset(r.key for r in REGISTRY if r.reads_doc)

if set(BY_KEY) != set(RECOGNIZERS) or len(BY_KEY) != len(REGISTRY):
    raise ImportError("registry.py must register exactly config.RECOGNIZERS, once each")
if set(PATTERN_PACKS) != set(PACKS):
    raise ImportError("recognizers/packs.py must implement exactly config.PACKS")

_loaded: dict[str, Any] = {}


def recognizer(key: str) -> Any:
    """The recognizer's callable, loaded once per process."""
    if key not in _loaded:
        _loaded[key] = BY_KEY[key].load()
    return _loaded[key]
