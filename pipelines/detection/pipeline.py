"""The detection pipeline: recognizers → filters → ensemble → propagation.

Plain Python over text, no database: the `detect` command, the Celery task and
the evaluation all call `detect_texts`. With no configuration it runs the default
(`config.DEFAULT`); a corpus's configuration turns recognizers off, adds packs,
its own patterns, deny and allow lists, a vote and weights.
"""

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from pipelines.detection import cues, gazetteer, header_names, patterns, presidio, spacy_ner
from pipelines.detection.candidate import Candidate
from pipelines.detection.config import DEFAULT, DetectionConfig
from pipelines.detection.ensemble import SOURCE_WEIGHTS, merge, vote
from pipelines.detection.filters import Filtered, apply_filters
from pipelines.detection.nlp import load_nlp
from pipelines.detection.packs import PACKS
from pipelines.detection.propagate import propagate

# spaCy's pipe batches texts; long transcripts are single texts, so a small batch
# keeps memory flat.
BATCH_SIZE = 8
CORPUS_SOURCE = "corpus"
ALLOW_SOURCE = "allow_list"
DENIED = "deny list"
BELOW_MIN_SCORE = "below the minimum score"


@dataclass
class DetectionResult:
    spans: list[Candidate]
    filtered: list[Filtered] = field(default_factory=list)
    # Every recognizer's candidates that passed the filters, before the merge: what
    # each source found on its own (evaluation per source, provenance).
    candidates: list[Candidate] = field(default_factory=list)
    # Corpus patterns skipped on this text because they ran out of time.
    timed_out: list[str] = field(default_factory=list)


class _Compiled:
    """What a configuration needs at run time, built once per `detect_texts` call
    (not per text): compiled corpus patterns, the allow-list matcher, the deny set."""

    def __init__(self, config: DetectionConfig) -> None:
        self.config = config
        self.patterns = [(p, p.compile()) for p in config.patterns]
        self.deny = frozenset(t.strip().casefold() for t in config.deny if t.strip())
        self.allow_labels = {t.strip().casefold(): label for t, label in config.allow.items()}
        forms = sorted({t.strip() for t in config.allow}, key=len, reverse=True)
        self.allow_re = (
            re.compile(r"(?<!\w)(?:" + "|".join(re.escape(f) for f in forms) + r")(?!\w)", re.IGNORECASE)
            if forms
            else None
        )
        self.weights = {**SOURCE_WEIGHTS, **config.weights}
        self.needs_doc = bool({"spacy", "presidio"} & config.recognizers)


def _corpus_candidates(text: str, compiled: _Compiled) -> tuple[list[Candidate], list[str]]:
    found: list[Candidate] = []
    timed_out: list[str] = []
    for n, (pattern, regex) in enumerate(compiled.patterns, start=1):
        try:
            # The timeout covers the whole scan; a pattern that backtracks
            # catastrophically is skipped for this text, never hangs the worker.
            matches = list(regex.finditer(text, timeout=compiled.config.pattern_timeout))
        except TimeoutError:
            timed_out.append(pattern.pattern)
            continue
        for match in matches:
            start, end = match.span("v") if "v" in regex.groupindex and match.group("v") is not None else match.span()
            if start < end:
                found.append(
                    Candidate(
                        start, end, pattern.label, text[start:end], (CORPUS_SOURCE,), pattern.score, f"corpus:{n}"
                    )
                )
    return found, timed_out


def _allowed(text: str, compiled: _Compiled) -> list[Candidate]:
    if compiled.allow_re is None:
        return []
    return [
        Candidate(m.start(), m.end(), compiled.allow_labels[m.group().casefold()], m.group(), (ALLOW_SOURCE,), 1.0)
        for m in compiled.allow_re.finditer(text)
    ]


def _split(spans: list[Candidate], reject) -> tuple[list[Candidate], list[Filtered]]:
    kept, dropped = [], []
    for span in spans:
        reason = reject(span)
        if reason:
            dropped.append(Filtered(span, reason))
        else:
            kept.append(span)
    return kept, dropped


def _detect_doc(text: str, doc, nlp, metadata: dict | None, compiled: _Compiled) -> DetectionResult:
    config = compiled.config
    on = config.recognizers
    people = header_names.header_people(metadata) if "header" in on else []
    candidates: list[Candidate] = []
    # The recognizers' order is the default pipeline's: merge ties keep it.
    if "header" in on:
        candidates += header_names.recognize(text, people)
    if "spacy" in on:
        candidates += spacy_ner.recognize(doc)
    if "presidio" in on:
        candidates += presidio.recognize(doc, nlp)
    if "patterns" in on:
        candidates += patterns.recognize(text)
    if "cues" in on:
        candidates += cues.recognize(text)
    if "gazetteer" in on:
        candidates += gazetteer.recognize(text)
    for pack in config.packs:
        candidates += patterns.recognize(text, PACKS[pack])
    corpus_found, timed_out = _corpus_candidates(text, compiled)
    candidates += corpus_found

    kept, filtered = apply_filters(candidates, config.disabled_filters)

    def denied(c: Candidate) -> str | None:
        return DENIED if c.text.strip().casefold() in compiled.deny else None

    def too_low(c: Candidate) -> str | None:
        return BELOW_MIN_SCORE if c.score < config.min_score else None

    if compiled.deny:
        kept, dropped = _split(kept, denied)
        filtered += dropped
    voters = kept
    k = config.vote_k
    if config.mode == "intersection" and not people:
        k = len(on - {"header"})  # no header names: that recognizer cannot vote here
    if k is not None and k > 1:
        voters, outvoted = vote(kept, k)
        filtered += [Filtered(c, f"fewer than {k} sources agree") for c in outvoted]
    # Allowed texts are proposed whatever the filters and the vote say.
    spans = merge(text, [*voters, *_allowed(text, compiled)], compiled.weights)
    if config.min_score > 0:
        spans, dropped = _split(spans, too_low)
        filtered += dropped
    # Propagation spreads spans that already passed the vote: its candidates are
    # not voted on again (one source by construction).
    extra = propagate(text, spans)
    if extra:
        spans = merge(text, [*spans, *extra], compiled.weights)
    for check, active in ((denied, compiled.deny), (too_low, config.min_score > 0)):
        if active:  # propagation may have grown or found spans again
            spans, dropped = _split(spans, check)
            filtered += dropped
    return DetectionResult(spans, filtered, kept, timed_out)


def detect_texts(
    texts: Iterable[str],
    model_name: str,
    metadata: Iterable[dict | None] | None = None,
    config: DetectionConfig | None = None,
) -> Iterator[DetectionResult]:
    """Detect in each text; `metadata` (parsed transcript headers, one per text)
    seeds the header-names recognizer; `config` is a corpus's configuration (the
    default when None)."""
    compiled = _Compiled(config or DEFAULT)
    metadata_iter = iter(metadata) if metadata is not None else None
    if not compiled.needs_doc:
        # Neither spaCy nor presidio: no model pass at all.
        for text in texts:
            yield _detect_doc(text, None, None, next(metadata_iter, None) if metadata_iter else None, compiled)
        return
    nlp = load_nlp(model_name)
    # nlp.max_length guards memory for the parser; transcripts can exceed the
    # default 1,000,000 characters and NER needs no more than linear memory.
    nlp.max_length = max(nlp.max_length, 5_000_000)
    for doc in nlp.pipe(texts, batch_size=BATCH_SIZE):
        yield _detect_doc(doc.text, doc, nlp, next(metadata_iter, None) if metadata_iter else None, compiled)


def detect_text(
    text: str, model_name: str, metadata: dict | None = None, config: DetectionConfig | None = None
) -> DetectionResult:
    return next(detect_texts([text], model_name, [metadata], config))
