"""The detection pipeline: recognizers → filters → ensemble → propagation.

Plain Python over text, no database: the `detect` command, the Celery task and
the evaluation all call `detect_texts`. With no configuration it runs the default
(`config.DEFAULT`); a corpus's configuration turns recognizers off, adds packs,
its own patterns, deny and allow lists, a vote and weights.

The model pass (spaCy, and presidio over the same Doc) runs chunk by chunk
(`chunks.py`), offsets shifted back onto the whole text, with progress reported
after each chunk. Everything after it runs once over the whole text: the rule
recognizers (cheap, and some patterns span lines: an age question and its answer,
a spelling broken across a line end), the filters, the vote, the merge and
propagation, so a name found in the first chunk is still found in the last.
"""

from bisect import bisect_right
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from types import ModuleType
from typing import TYPE_CHECKING

from pipelines.candidate import Candidate
from pipelines.detection.chunks import CHUNK_CHARS, chunk_bounds, is_letter_soup
from pipelines.detection.config import DEFAULT, SOURCE_WEIGHTS, DetectionConfig
from pipelines.detection.filtering.filters import Filtered, apply_filters, cap_scores
from pipelines.detection.filtering.place_context import (
    businesses_named_by_possessives,
    credentials_after_names,
    employers_named_as_places,
    given_names_before_surnames,
    given_names_placed_as_towns,
    given_names_read_as_places,
    institutions_by_their_short_names,
    institutions_named_after_people,
    institutions_named_by_acronyms,
    organizations_named_after_places,
    prisons_by_their_letters,
    relabel_places,
)
from pipelines.detection.filtering.words import FilterWords, words_for
from pipelines.detection.languages import DEFAULT_LANGUAGE, Language, language
from pipelines.detection.languages import rules as language_rules
from pipelines.detection.merging.beside_names import (
    affiliations_after_names,
    ages_beside_names,
    native_script_names,
    nicknames_beside_names,
)
from pipelines.detection.merging.calibration import calibrate, introduced, probability
from pipelines.detection.merging.edges import title_letters
from pipelines.detection.merging.ensemble import merge, vote
from pipelines.detection.merging.propagate import propagate
from pipelines.detection.models.nlp import load_nlp
from pipelines.detection.recognizers import corpus_patterns, cues, gazetteer, header_names, patterns, spacy_ner
from pipelines.detection.recognizers.memory import CompiledMemory, CorpusMemory
from pipelines.detection.recognizers.packs import PATTERN_PACKS
from pipelines.detection.registry import DOC_KEYS, REGISTRY, recognizer

if TYPE_CHECKING:
    from spacy.language import Language
    from spacy.tokens import Doc

# spaCy's pipe batches chunks; a small batch keeps memory flat.
BATCH_SIZE = 8
# (characters done, characters in the text), called after each chunk but the last.
Progress = Callable[[int, int], None]
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
    # Quasi-identifier flags (quasi.py): their own category, never auto-accepted.
    quasi: list[Candidate] = field(default_factory=list)


class _Compiled:
    """What a configuration needs at run time, built once per `detect_texts` call
    (not per text): compiled corpus patterns, the allow-list matcher, the deny set."""

    def __init__(self, config: DetectionConfig) -> None:
        self.config = config
        self.patterns = [(p, p.compile()) for p in config.patterns]
        self.deny = frozenset(t.strip().casefold() for t in config.deny if t.strip())
        # One automaton over the list's words, not one alternation of its texts
        # tried at every position (corpus_patterns.AllowList).
        self.allow = corpus_patterns.AllowList(config.allow)
        self.weights = {**SOURCE_WEIGHTS, **config.weights}
        self.needs_doc = bool({"spacy", "presidio"} & config.recognizers)


def _corpus_candidates(text: str, compiled: _Compiled) -> tuple[list[Candidate], list[str]]:
    found: list[Candidate] = []
    # One time budget per document for all corpus patterns, and a cap on matches
    # per pattern (corpus_patterns.py): a catastrophic or match-everything pattern
    # is skipped on this text, never hangs the worker or floods the review.
    result = corpus_patterns.scan(
        text, [regex for _pattern, regex in compiled.patterns], per_pattern=compiled.config.pattern_timeout
    )
    timed_out = [compiled.patterns[index][0].pattern for index in sorted(result.skipped)]
    for index, start, end in ((m.index, m.start, m.end) for m in result.matches):
        pattern = compiled.patterns[index][0]
        if start < end:
            candidate = Candidate(
                start, end, pattern.label, text[start:end], (CORPUS_SOURCE,), pattern.score, f"corpus:{index + 1}"
            )
            found.append(candidate)
    return found, timed_out


def _allowed(text: str, compiled: _Compiled) -> list[Candidate]:
    return [
        Candidate(start, end, label, text[start:end], (ALLOW_SOURCE,), 1.0)
        for start, end, label in compiled.allow.find(text)
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


def _quasi() -> ModuleType:
    """The quasi-identifier flags' module, imported where flags are wanted: its
    lexicons' patterns are ~20 ms of a one-line `detect`, which writes no flags."""
    from pipelines.detection.quasi import flags

    return flags


def _shifted(candidates: list[Candidate], offset: int) -> list[Candidate]:
    if not offset:
        return candidates
    return [
        Candidate(c.start + offset, c.end + offset, c.label, c.text, c.sources, c.score, c.rule, c.entity)
        for c in candidates
    ]


@dataclass
class _ModelFound:
    """The model pass's candidates on one text, gathered chunk by chunk, kept per
    recognizer so that the merge sees them in the unchunked order."""

    # Each Doc-reading recognizer's candidates, by its registry key.
    by_key: dict[str, list[Candidate]] = field(default_factory=dict)
    quasi: list[Candidate] = field(default_factory=list)
    # Whether the caller reads quasi-identifier flags (`detect` writes spans only).
    flags: bool = True
    # A fine-tuned model's non-person entities, (start, end, its label): they
    # outrank a bare name-list hit inside them (`_inside_model_entity`).
    not_people: list[tuple[int, int, str]] = field(default_factory=list)

    def add(self, doc, nlp, on: frozenset[str], offset: int, lang: Language) -> None:
        if self.flags:
            quasi = _quasi()
            rules = quasi.rules_for(lang)
            if rules is not None:  # a language without quasi lexicons raises no flags
                self.quasi += _shifted(quasi.recognize(doc, rules), offset)
        for key in sorted(DOC_KEYS & on):
            if key == "spacy" and not lang.builtin_rules:
                found = language_rules.model_entities(doc, lang)
            else:
                found = recognizer(key)(doc, nlp)
            if key == "presidio" and lang.presidio_labels:
                found = language_rules.relabel(found, lang.presidio_labels)
            self.by_key.setdefault(key, []).extend(_shifted(found, offset))
        if "spacy" in on and not spacy_ner.promotes(nlp):
            self.not_people += [(s + offset, e + offset, label) for s, e, label in spacy_ner.not_people(doc)]


def _lists_only(c: Candidate) -> bool:
    return c.label == "PERSON" and c.sources == (gazetteer.SOURCE,)


def _rank_only(c: Candidate) -> bool:
    """A person only the honorific cue found: a model that read the rank inside a
    place's or a firm's name ("Prince William Sound" LOC) read the words better
    than the cue did ("William Sound")."""
    return c.label == "PERSON" and c.sources == (cues.SOURCE,) and c.rule == "cue:honorific"


# The model's labels whose entities are spans themselves: a rank's person inside one
# stays covered. Inside an event, a law or a title ("the Senator Sarvis amendment")
# nothing would cover it, so the cue's person stays.
_COVERING = frozenset({"GPE", "LOC", "FAC", "ORG"})


def _inside_model_entity(
    entities: list[tuple[int, int, str]], backed: list[tuple[int, int]]
) -> Callable[[Candidate], str | None]:
    """A PERSON that only the name lists found, inside a longer entity that a
    model trusting its own labels calls something else ("1988 Summer Olympics"
    MISC, "Arnold Palmer Invitational" ORG, "Bob Dylan at Budokan" a title): the
    model read the whole phrase, the lists matched part of it; so is the honorific
    cue's person where a place's or a firm's entity holds the rank too
    (`_rank_only`). Other cues, the header, patterns and the model's own PERSON
    spans are never dropped here, nor is a list PERSON that another source's
    PERSON overlaps (`backed`, sorted): under a vote, dropping it would cost that
    source the agreeing vote."""
    starts = [start for start, _end, _label in entities]
    backed_starts = [start for start, _end in backed]
    longest = max((end - start for start, end in backed), default=0)

    def is_backed(c: Candidate) -> bool:
        # A backed span overlaps c when it starts before c.end and ends after
        # c.start; none starting more than `longest` before c.start can.
        for j in range(bisect_right(backed_starts, c.end - 1) - 1, -1, -1):
            start, end = backed[j]
            if start < c.start - longest:
                break
            if end > c.start:
                return True
        return False

    def reject(c: Candidate) -> str | None:
        rank = _rank_only(c)
        if not (_lists_only(c) or rank):
            return None
        # A Doc's entities never overlap: the only one that can hold the span is
        # the last one starting at or before it.
        i = bisect_right(starts, c.start) - 1
        if i < 0:
            return None
        start, end, label = entities[i]
        # Strictly inside: the same words read two ways ("Florence Henderson" ORG
        # and a first name + surname) are a disagreement the merge weighs, and a
        # person's name must not be lost to a label the model may have wrong.
        if rank and not (start < c.start and label in _COVERING):
            return None
        if c.end <= end and (start, end) != (c.start, c.end) and not is_backed(c):
            return f"inside the model's {label} entity"
        return None

    return reject


# A language other than English replaces these recognizers with its data-driven ones.
_LANGUAGE_RULES: dict[str, Callable[[str, Language], list[Candidate]]] = {
    "patterns": language_rules.patterns,
    "cues": language_rules.cues,
    "gazetteer": language_rules.gazetteer,
}


def _rule_candidates(key: str, text: str, metadata: dict | None, lang: Language) -> list[Candidate]:
    if not lang.builtin_rules and key in _LANGUAGE_RULES:
        return _LANGUAGE_RULES[key](text, lang)
    return recognizer(key)(text, metadata)


def _detect_doc(
    text: str,
    model: _ModelFound,
    metadata: dict | None,
    compiled: _Compiled,
    memory: CompiledMemory,
    lang: Language | None = None,
    model_name: str | None = None,
) -> DetectionResult:
    """`model_name`: the model that read the text (None: none did), whose
    calibration scores the spans."""
    lang = lang or language(DEFAULT_LANGUAGE)
    config = compiled.config
    on = config.recognizers
    people = header_names.header_people(metadata) if "header" in on else []
    candidates: list[Candidate] = []
    # The registry's order is the default pipeline's: merge ties keep it.
    for entry in REGISTRY:
        if entry.key in on:
            if entry.reads_doc:
                candidates += model.by_key.get(entry.key, [])
            else:
                candidates += _rule_candidates(entry.key, text, metadata, lang)
    for pack in config.packs:
        candidates += patterns.recognize(text, PATTERN_PACKS[pack])
    corpus_found, timed_out = _corpus_candidates(text, compiled)
    candidates += corpus_found

    # The filters and the calibration read the text's language's words (filtering/words.py).
    words = words_for(lang)
    kept, filtered = apply_filters(candidates, config.disabled_filters, text, words)
    if model.not_people:
        backed = sorted((c.start, c.end) for c in kept if c.label == "PERSON" and not (_lists_only(c) or _rank_only(c)))
        kept, dropped = _split(kept, _inside_model_entity(model.not_people, backed))
        filtered += dropped

    def denied(c: Candidate) -> str | None:
        return DENIED if c.text.strip().casefold() in compiled.deny else None

    def too_low(named: frozenset[str] | None) -> Callable[[Candidate], str | None]:
        # `named`: the names the spans introduce in full, as calibrate read them
        # (None before propagation: no one-word person is judged unintroduced yet).
        return lambda c: BELOW_MIN_SCORE if probability(c, text, words, model_name, named) < config.min_score else None

    # What the corpus's reviewers rejected in enough documents and never accepted
    # (memory.py) is dropped before the vote; the names they accepted are found
    # again, past the filters and the vote, as a reviewer's decision is.
    kept, dropped = _split(kept, memory.suppression)
    filtered += dropped
    remembered = memory.candidates(text)
    if compiled.deny:
        kept, dropped = _split(kept, denied)
        filtered += dropped
        remembered, dropped = _split(remembered, denied)
        filtered += dropped
    voters = kept
    k = config.vote_k
    if config.mode == "intersection" and not people:
        k = len(on - {"header"})  # no header names: that recognizer cannot vote here
    if k is not None and k > 1:
        voters, outvoted = vote(kept, k)
        filtered += [Filtered(c, f"fewer than {k} sources agree") for c in outvoted]
    # Allowed texts are proposed whatever the filters and the vote say.
    titles = title_letters(lang.titles)
    spans = merge(text, [*voters, *_allowed(text, compiled), *remembered], compiled.weights, titles)
    if config.min_score > 0:
        spans, dropped = _split(spans, too_low(None))
        filtered += dropped
    # Propagation spreads spans that already passed the vote: its candidates are
    # not voted on again (one source by construction).
    extra = _spread(text, spans, words)
    if extra:
        spans = merge(text, [*spans, *extra], compiled.weights, titles)
    # Its cues are English ("came down", "Street"): only where the language has them.
    if words.place_context:
        spans = _read_in_context(text, spans)
    # The raw scores weighed the merge and propagation; what the spans carry out is
    # the calibrated probability that each is right (the minimum score compares it).
    named = introduced(spans)
    spans = cap_scores(calibrate(spans, text, words, model_name, named), config.disabled_filters, text, words)
    if not lang.builtin_rules:
        spans = language_rules.tidy(spans, lang)
    if lang.role_labels:
        # A lawyer's or a judge's name, wherever it recurs, takes the role its cue gave.
        spans = language_rules.roles(spans, kept, lang, words.names)
    checks = ((denied, compiled.deny), (too_low(named), config.min_score > 0), (memory.suppression, memory.suppressed))
    for check, active in checks:
        if active:  # propagation may have grown or found spans again
            spans, dropped = _split(spans, check)
            filtered += dropped
    return DetectionResult(spans, filtered, [*kept, *remembered], timed_out, _flags(text, model, spans, lang))


def _spread(text: str, spans: list[Candidate], words: FilterWords) -> list[Candidate]:
    """What the merged spans lead to: their names elsewhere (propagation) and, in
    English, a person's age or affiliation said right after the name ("Rose (19)",
    "Isabel Ruiz of Heaven Sent Gaming"), a nickname tied to it ("Flex is Keyon
    Hairston.") and the name in its own script ("Jeong Myeong-ok (정명옥)")."""
    beside = (
        ages_beside_names(text, spans)
        + affiliations_after_names(text, spans)
        + nicknames_beside_names(text, spans)
        + native_script_names(text, spans)
        if words.place_context
        else []
    )
    # An affiliation spreads as the names it was read beside do ("What is Heaven Sent Gaming?").
    return beside + propagate(text, [*spans, *beside], words)


def _read_in_context(text: str, spans: list[Candidate]) -> list[Candidate]:
    """The merged spans relabelled by the English words around them."""
    # A name the document uses as a street or a town ("came down Chambers") is a
    # LOCATION wherever only the model or the name lists said PERSON.
    spans = organizations_named_after_places(text, relabel_places(text, spans))
    # "at DVI": an institution's acronym the model took for a place.
    spans = institutions_named_by_acronyms(text, prisons_by_their_letters(text, spans))
    spans = businesses_named_by_possessives(text, employers_named_as_places(text, spans))
    spans = institutions_named_after_people(text, institutions_by_their_short_names(text, spans))
    spans = given_names_read_as_places(text, spans)
    # "with me is Dallas Greer": a given name the model read as a place opens a name;
    # "Georgia Pham … lives in Georgia": a given name spread onto a placed town is it.
    spans = given_names_placed_as_towns(text, given_names_before_surnames(text, spans))
    return credentials_after_names(text, spans)


def _flags(text: str, model: _ModelFound, spans: list[Candidate], lang: Language) -> list[Candidate]:
    """The text's quasi-identifier flags beside its spans (none when not wanted)."""
    if not model.flags:
        return []
    quasi = _quasi()
    return quasi.resolve(text, model.quasi, spans, quasi.rules_for(lang) or quasi.ENGLISH)


def _chunks(texts: Iterable[str], size: int) -> Iterator[tuple[str, tuple[str, int, int, bool, bool]]]:
    """(what the model reads, (whole text, chunk start, chunk end, is the text's
    last chunk, skipped)): a chunk of one-character words is skipped (`chunks.
    is_letter_soup`): the model reads "" in its place, and a tokenizer-only Doc of
    the chunk stands for it."""
    for text in texts:
        bounds = chunk_bounds(text, size)
        for n, (start, end) in enumerate(bounds, start=1):
            chunk = text[start:end]
            skipped = is_letter_soup(chunk)
            yield ("" if skipped else chunk), (text, start, end, n == len(bounds), skipped)


# Chunks tokenised and given to the encoder ahead of the one spaCy's NER reads: with
# progress reported, spaCy takes one chunk at a time, and the encoder thread would
# otherwise wait for the recognizers of each chunk before it is given the next.
ENCODER_AHEAD = 1


def _started(
    stream: Iterator[tuple[str, tuple]], nlp: "Language", start: Callable[["Doc"], None]
) -> Iterator[tuple["str | Doc", tuple]]:
    """`_chunks`' stream with each chunk the model reads tokenised here and its
    encoder started (`minilm.starter`), ENCODER_AHEAD chunks before spaCy asks for
    it; a skipped chunk ("") passes as it is."""
    waiting: deque[tuple[str | Doc, tuple]] = deque()
    for chunk, context in stream:
        if chunk:
            doc = nlp.make_doc(chunk)
            start(doc)
            waiting.append((doc, context))
        else:
            waiting.append((chunk, context))
        if len(waiting) > ENCODER_AHEAD:
            yield waiting.popleft()
    yield from waiting


def detect_texts(
    texts: Iterable[str],
    model_name: str,
    metadata: Iterable[dict | None] | None = None,
    config: DetectionConfig | None = None,
    *,
    chunk_chars: int = CHUNK_CHARS,
    progress: Progress | None = None,
    memory: CorpusMemory | None = None,
    language_code: str = DEFAULT_LANGUAGE,
    quasi_flags: bool = True,
) -> Iterator[DetectionResult]:
    """Detect in each text; `metadata` (parsed transcript headers, one per text)
    seeds the header-names recognizer; `config` is a corpus's configuration (the
    default when None); `memory` is the corpus's memory (memory.py). Texts longer
    than `chunk_chars` go through the model a chunk at a time; `progress(done,
    total)` (characters of the current text) is called after every chunk but a
    text's last. `language_code` names the texts' language (languages/): its
    recognizers run; its model is the caller's to choose (`languages.model_for`).
    `quasi_flags=False`: no quasi-identifier flags (the spans are the same)."""
    compiled = _Compiled(config or DEFAULT)
    lang = language(language_code)
    words = words_for(lang)
    remembered = CompiledMemory(memory, words.names, words.frequent_name)
    metadata_iter = iter(metadata) if metadata is not None else None

    def next_metadata() -> dict | None:
        return next(metadata_iter, None) if metadata_iter else None

    if not compiled.needs_doc:
        # Neither spaCy nor presidio: no model pass at all.
        for text in texts:
            yield _detect_doc(text, _ModelFound(flags=quasi_flags), next_metadata(), compiled, remembered, lang)
        return
    # A corpus may choose its own model; otherwise the caller's (the site's SPACY_MODEL).
    chosen = compiled.config.model or model_name
    nlp = load_nlp(chosen)
    # Chunks are at most chunk_chars long, except one the caller asked to be
    # bigger; NER needs no more than linear memory.
    nlp.max_length = max(nlp.max_length, chunk_chars + 1)
    on = compiled.config.recognizers
    # With progress to report, one chunk per batch: otherwise spaCy would work
    # through a batch of chunks before the first report.
    batch_size = 1 if progress else BATCH_SIZE
    found = _ModelFound(flags=quasi_flags)
    # Loaded with the model (load_nlp); imported here so that importing this module
    # does not import NumPy.
    from pipelines.detection.models.minilm import starter

    stream = _chunks(texts, chunk_chars)
    start = starter(nlp)
    if start is not None:
        stream = _started(stream, nlp, start)
    for doc, (text, offset, end, last, skipped) in nlp.pipe(stream, as_tuples=True, batch_size=batch_size):
        if skipped:
            doc = nlp.make_doc(text[offset:end])
        found.add(doc, nlp, on, offset, lang)
        if not last:
            if progress:
                progress(offset + len(doc.text), len(text))
            continue
        yield _detect_doc(text, found, next_metadata(), compiled, remembered, lang, chosen)
        found = _ModelFound(flags=quasi_flags)


def detect_text(
    text: str,
    model_name: str,
    metadata: dict | None = None,
    config: DetectionConfig | None = None,
    *,
    chunk_chars: int = CHUNK_CHARS,
    progress: Progress | None = None,
    memory: CorpusMemory | None = None,
    language_code: str = DEFAULT_LANGUAGE,
) -> DetectionResult:
    return next(
        detect_texts(
            [text],
            model_name,
            [metadata],
            config,
            chunk_chars=chunk_chars,
            progress=progress,
            memory=memory,
            language_code=language_code,
        )
    )
