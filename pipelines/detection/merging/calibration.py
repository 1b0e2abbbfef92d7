"""A span's score as a calibrated probability that it is right.

The ensemble's raw scores (noisy-or of fixed recognizer scores) order spans but
mean nothing on their own. This module maps each merged span's features (how
many sources agree, whether a cue, the header or a pattern backs it, whether only
propagation found it, its label, its case, its length in words, whether a person's
parts are known names, whether a person's name is also a place, whether all its
words are common English words, whether an organization has a second signal) to the
probability that a reviewer would keep it with its label: a logistic model whose
weights are data (`calibration.json`), fitted on the hand-checked real-transcript
gold by `python -m evaluation gold … --write-calibration` with cross-validation
across document sections (see BENCHMARKS.md). With a good fit, "accept all ≥ 0.9"
is safe.

The weights are per model: the same features mean different odds when another
model proposed the spans (sm's places are right less often than open's).
`calibration.json` is fitted for the default model (config.DEFAULT_MODEL) and
serves every model without a fit of its own; `calibration.<name>.json` is a
registry model's own (`parameters_for`).

An ORGANIZATION with no second signal (no organization word or type, no acronym,
no other source, no cue) never reaches the bulk-accept threshold, whatever the fit
says: the small model's ORGANIZATION guesses are its least reliable. Nor does a
one-word PERSON the document never introduces (no span names it in full, no cue
or header backs it: `introduced`): a case cited by its party ("reaffirm
Campbell"), a character or a brand is the model's guess alone.
"""

import json
import math
from dataclasses import replace
from functools import lru_cache
from pathlib import Path

from pipelines.candidate import Candidate
from pipelines.detection import places
from pipelines.detection.filtering.words import FilterWords, filter_words
from pipelines.gazetteers import is_common_word, is_known_name
from pipelines.names import name_parts

PARAMETERS = Path(__file__).with_name("calibration.json")
# Spans scored at or above this are safe to accept in bulk.
BULK_ACCEPT = 0.9
# The highest score an ORGANIZATION without a second signal may have.
ORGANIZATION_WITHOUT_SIGNAL = 0.5
# The highest score of a one-word person the document never names in full nor
# by a cue ("reaffirm Campbell", a character, a brand): a reviewer reads it
# before accepting, so it stays below BULK_ACCEPT (and above the 0.8 bar).
PERSON_NEVER_INTRODUCED = 0.85
# Evidence beyond a model's guess. A name remembered from the corpus's approved
# documents (`corpus-memory`) was accepted by a reviewer: it counts as a cue, so
# it reaches the bulk-accept threshold as the header's names do.
CUE_SOURCES = frozenset({"cues", "header", "patterns", "corpus", "allow_list", "human", "corpus-memory"})
MODEL_SOURCES = frozenset({"spacy", "presidio", "gazetteer"})
FEATURES: tuple[str, ...] = (
    "bias",
    "two_or_more_sources",
    "cue_or_header",
    "propagation_only",
    "model_only",
    "person",
    "organization",
    "location",
    "date_or_time",
    "all_capitals",
    "lower_case",
    "one_word",
    "known_name",
    "person_also_a_place",
    "common_words_only",
    "organization_without_signal",
    "known_place",
    "person_never_introduced",
)


_WITHOUT_SIGNAL = FEATURES.index("organization_without_signal")
_NEVER_INTRODUCED = FEATURES.index("person_never_introduced")


def capped(p: float, values: list[float]) -> float:
    """`p` under the caps no fit may lift: an ORGANIZATION without a second
    signal, a one-word person never introduced."""
    if values[_WITHOUT_SIGNAL]:
        p = min(p, ORGANIZATION_WITHOUT_SIGNAL)
    if values[_NEVER_INTRODUCED]:
        p = min(p, PERSON_NEVER_INTRODUCED)
    return p


def _organization_signal(span: Candidate, text: str, words: FilterWords) -> bool:
    """Another source, a cue, an organization word in the name, or, for an
    acronym, the document around it (`places.acronym_context`), for any other
    name, a sentence that works for it (`places.employer_context`); `text` is the
    whole document, "" when the caller has none. In a language other than
    English, the organization words are its file's and the English context of
    acronyms is not read."""
    sources = set(span.sources) - {"propagation"}
    if len(sources) >= 2 or sources & CUE_SOURCES:
        return True
    if words.organization_words is not None:
        return "&" in span.text or any(w.casefold() in words.organization_words for w in places.words_of(span.text))
    if places.organization_signal(span.text, is_known_name, is_common_word):
        return True
    if not text:
        return False
    if places.is_acronym(span.text):
        return places.acronym_context(span.text, text, span.start)
    return places.employer_context(text, span.start)


_PERSONISH = ("PERSON", "SPELLED_NAME")


def _organization_key(text: str) -> str:
    """An organization's entry in `introduced`: it holds a space, which no person's
    word does."""
    return "organization " + " ".join(text.split()).casefold()


def introduced(spans: list[Candidate]) -> frozenset[str]:
    """The words (case-folded) the document names a person by in full: each word
    of a person's span of two words or more, and a one-word person that a cue or
    the header backs ("Mr. Campbell", "CAMPBELL:"). A one-word person outside
    this set is one the document never introduces: a case cited by its party
    ("reaffirm Campbell"), a character, a brand; right less often. And the
    organizations a cue, the header or two sources back (`_organization_key`):
    the same name found again by propagation has that second signal too ("What
    is Heaven Sent Gaming?" after "Isabel Ruiz of Heaven Sent Gaming")."""
    out: set[str] = set()
    for s in spans:
        found_by = set(s.sources) - {"propagation"}
        if s.label == "ORGANIZATION" and (found_by & CUE_SOURCES or len(found_by) >= 2):
            out.add(_organization_key(s.text))
        if s.label not in _PERSONISH:
            continue
        parts = s.text.split()
        if len(parts) >= 2:
            out.update(p.strip(".,'’").casefold() for p in parts)
        elif set(s.sources) & CUE_SOURCES:
            out.add(s.text.strip(".,'’").casefold())
    return frozenset(out)


def features(
    span: Candidate, text: str = "", words: FilterWords | None = None, named: frozenset[str] | None = None
) -> list[float]:
    """`words`: the text's language's (English by default): a feature whose words
    the language lacks reads 0, as it does on a span it does not apply to.
    `named`: `introduced` of the document's spans (None: not known, the feature
    reads 0)."""
    lexicon = words or filter_words()
    common = lexicon.common_word
    sources = set(span.sources)
    found_by = sources - {"propagation"}
    letters = [c for c in span.text if c.isalpha()]
    parts = name_parts(span.text, words=lexicon.names) if span.label == "PERSON" else []
    tokens = places.words_of(span.text)
    values = {
        "bias": 1.0,
        "two_or_more_sources": len(found_by) >= 2,
        "cue_or_header": bool(found_by & CUE_SOURCES),
        "propagation_only": not found_by,
        "model_only": bool(found_by) and found_by <= MODEL_SOURCES,
        "person": span.label in ("PERSON", "SPELLED_NAME"),
        "organization": span.label == "ORGANIZATION",
        "location": span.label == "LOCATION",
        "date_or_time": span.label in ("DATE", "TIME"),
        "all_capitals": bool(letters) and all(c.isupper() for c in letters),
        "lower_case": bool(letters) and all(c.islower() for c in letters),
        "one_word": len(span.text.split()) == 1,
        "known_name": bool(parts) and all(is_known_name(p) for p in parts),
        # "Ferguson" (a city), "West Florissant" (place-shaped) as a PERSON.
        # The place-shape words ("Cape", "Strait") are English.
        "person_also_a_place": span.label == "PERSON"
        and (places.is_known_place(span.text) or (lexicon.place_context and places.is_place_shaped(span.text))),
        # "Glen Oak": every word a common word of the language (wordfreq).
        "common_words_only": common is not None and bool(tokens) and all(common(w) for w in tokens),
        "organization_without_signal": span.label == "ORGANIZATION"
        and not _organization_signal(span, text, lexicon)
        and (named is None or _organization_key(span.text) not in named),
        # A LOCATION the place lexicons know or that is shaped like a place: a
        # case name ("in Lavan") or a person's name is neither.
        "known_place": span.label == "LOCATION"
        and (places.is_known_place(span.text) or (lexicon.place_context and places.is_place_shaped(span.text))),
        "person_never_introduced": named is not None
        and span.label in _PERSONISH
        and len(span.text.split()) == 1
        and span.text.strip(".,'’").casefold() not in named,
    }
    return [float(values[name]) for name in FEATURES]


def parameters_for(model: str | None) -> Path:
    """The calibration fitted for `model` (a registry name, its package or its
    directory): its own file when there is one, else the default model's. A corpus
    model (a fine-tuned `model/` directory whose parent's meta.json names its
    `base_model`) takes its base's: its scores are that model's, a little taught."""
    from pipelines.detection.models.catalog import describe

    info = describe(model) if model else None
    if info is None and model and Path(model).is_dir():
        base = _corpus_model_base(Path(model))
        info = describe(base) if base else None
    own = PARAMETERS.with_name(f"calibration.{info.name}.json") if info is not None else None
    return own if own is not None and own.exists() else PARAMETERS


@lru_cache(maxsize=32)  # read per span scored: once per model directory
def _corpus_model_base(directory: Path) -> str | None:
    """The base a corpus model was fine-tuned from (review/services/corpus_training.py
    writes it beside the model), or None for any other directory."""
    try:
        meta = json.loads((directory.parent / "meta.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    base = meta.get("base_model") if isinstance(meta, dict) else None
    return str(base) if base else None


def _weights(model: str | None = None) -> tuple[float, ...] | None:
    return _read_weights(parameters_for(model))


@lru_cache(maxsize=8)
def _read_weights(path: Path) -> tuple[float, ...] | None:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if tuple(data.get("features", ())) != FEATURES:
        return None  # fitted for other features: the raw scores stay
    return tuple(float(w) for w in data["weights"])


def probability(
    span: Candidate,
    text: str = "",
    words: FilterWords | None = None,
    model: str | None = None,
    named: frozenset[str] | None = None,
) -> float:
    """`text`: the document the span is in, for the signals around it; `words`:
    its language's (English by default); `model`: the model that ran (None: the
    default's fit); `named`: `introduced` of the document's spans. The weights
    are one fit (on English transcripts) per model for every language; the
    features read each language's words."""
    weights = _weights(model)
    if weights is None:
        return span.score
    values = features(span, text, words, named)
    z = sum(w * x for w, x in zip(weights, values, strict=True))
    p = 1.0 / (1.0 + math.exp(-max(min(z, 30.0), -30.0)))
    return round(capped(p, values), 4)


def calibrate(
    spans: list[Candidate],
    text: str = "",
    words: FilterWords | None = None,
    model: str | None = None,
    named: frozenset[str] | None = None,
) -> list[Candidate]:
    """The spans with their score replaced by the calibrated probability; `named`:
    `introduced(spans)` when the caller has it already."""
    named = introduced(spans) if named is None else named
    return [replace(s, score=probability(s, text, words, model, named)) for s in spans]
