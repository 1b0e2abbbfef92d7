"""Quasi-identifiers (issue 18): ages, dates, places, occupations, relations, events.

Found from the same spaCy Doc as the direct identifiers (one pass per text), as
their own category: never auto-accepted, decided by a reviewer (mask, generalise,
keep). `recognize` runs per model chunk; `resolve` runs once per text, after the
direct spans are known.

The categories are the Text Anonymization Benchmark's (Pilán et al. 2022) without
ORG, plus RELATION: DEM (age, occupation, nationality, religion, ethnicity,
education), DATETIME (dates, times and durations), LOC, QUANTITY (money, measures),
MISC (events, medical conditions, injuries and bodily marks, drugs and weapons,
vehicles) and RELATION ("my aunt", "his cellmate"). Two sources feed them: the
Doc's entities (the loaded pipeline has NER only: no tagger or parser to lean on)
and the general word lists of `quasi_lexicons`, matched as patterns over the Doc's
text with the little context a surface pattern can check (an article before an
occupation, a possessive before a relation, an injury word before "two in the
chest").

The rules are per language (`QuasiRules`, `rules_for`). English's are the ones in
this module over `quasi/lexicons.py`, as they were before languages existed. Another
language brings its own as data: the "quasi" section of its file
(languages/<code>.json), lexicons and patterns over them. A language without that
section raises no flags, and a third language adds a section, not code.
"""

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any

from pipelines.candidate import Candidate
from pipelines.detection.quasi import lexicons as lex
from pipelines.lexicons import CLOSED_CLASS, HONORIFICS, MONTHS, NUMBER_WORDS, ROLE_WORDS, TIME_UNITS, WEEKDAYS

if TYPE_CHECKING:
    from pipelines.detection.languages import Language

SOURCE = "quasi"
# A flag is a question to the reviewer, never a decision: one middling score for all,
# below any bulk-accept threshold.
SCORE = 0.5
CATEGORIES: tuple[str, ...] = ("DEM", "DATETIME", "LOC", "QUANTITY", "MISC", "RELATION")

# The Doc's entity labels (spaCy's OntoNotes scheme) that are quasi-identifiers.
ENTITY_CATEGORIES: dict[str, tuple[str, str]] = {
    "DATE": ("DATETIME", "date"),
    "TIME": ("DATETIME", "time"),
    "GPE": ("LOC", "place"),
    "LOC": ("LOC", "place"),
    "FAC": ("LOC", "place"),
    "NORP": ("DEM", "nationality"),
    "QUANTITY": ("QUANTITY", "measure"),
    "MONEY": ("QUANTITY", "money"),
    "PERCENT": ("QUANTITY", "measure"),
    "EVENT": ("MISC", "event"),
}
# Date entities that say nothing about when ("today", "now"): not worth a flag.
VAGUE_DATES: frozenset[str] = frozenset(
    "today tomorrow yesterday tonight now daily weekly monthly yearly annually".split()
    + ["the day", "that day", "this day", "the time", "that time", "this time", "the year", "this year"]
    + ["good morning", "good afternoon", "good evening", "good night", "morning", "afternoon", "evening"]
)
# Words trimmed from the ends of a flag cut short by a direct span (R2 of the gold
# guideline: articles and prepositions stay out of the minimal phrase), and the
# words of an age around its number: the direct AGE span holds the number alone
# ("19" of "19 years old"), and "years old" or "aged" left over says nothing.
_EDGE_WORDS: frozenset[str] = frozenset(
    """the a an of in on at to for and or by from 's his her my about approximately around roughly nearly
    almost over under just probably some years year yrs old age aged this that these those one two three four
    five six seven eight nine ten""".split()
)

_NOT_PLACES: frozenset[str] = ROLE_WORDS | HONORIFICS | CLOSED_CLASS

_NUMBER = rf"(?:\d{{1,3}}|{NUMBER_WORDS})"
_COUNT = rf"(?:\d{{1,2}}|{NUMBER_WORDS}|several|another|the\s+rest|rest)"
_POSSESSIVE_DET = r"(?:(?:the|his|her|my|their|your|our|this|that)\s+)?"


def _alt(phrases: Iterable[str]) -> str:
    """A regex alternation of phrases, longest first, any whitespace between words."""
    ordered = sorted(set(phrases), key=len, reverse=True)
    return "(?:" + "|".join(r"\s+".join(re.escape(w) for w in p.split()) for p in ordered) + ")"


def _words(pattern: str, flags: int = re.IGNORECASE) -> re.Pattern[str]:
    return re.compile(rf"(?<![\w-]){pattern}(?![\w-])", flags)


_BODY_LOCATION = rf"\s+(?:on|in|to|of)\s+{_POSSESSIVE_DET}(?:[A-Za-z-]+\s+){{0,3}}?{_alt(lex.BODY_PARTS)}"
# What makes a date or time entity a fact: a number, a month, a weekday, a season…
_TIME_ANCHOR = re.compile(
    rf"\d|(?<![\w-])(?:{NUMBER_WORDS}|{MONTHS}|{WEEKDAYS}s?|{_alt(lex.TIME_ANCHORS)})(?![\w-])", re.IGNORECASE
)


# (category, rule, pattern): the span is the group "v" when the pattern has one.
_PATTERNS: tuple[tuple[str, str, re.Pattern[str]], ...] = (
    ("DEM", "age", _words(rf"(?:{_NUMBER}[\s-]+years?[\s-]+old|(?:age|aged)\s+(?:of\s+)?{_NUMBER})")),
    (
        "DEM",
        "occupation",
        # An article, "as" or a copula first: "a medical legal investigator", "worked
        # as a welder", "she is a nurse" — not the profession named in general.
        _words(
            r"(?:an?|as|am|is|was|were|been|became|become|retired|former)\s+(?:(?:an?)\s+)?"
            rf"(?:[A-Za-z-]+\s+){{0,2}}?(?P<v>{_alt(lex.OCCUPATIONS)})s?"
        ),
    ),
    ("DEM", "religion", _words(_alt(lex.RELIGIONS))),
    (
        "DEM",
        "ethnicity",
        _words(rf"(?:{_alt(lex.ETHNIC_WORDS)}\s+{_alt(lex.PERSON_NOUNS)}|(?:dark|light|fair)[\s-]+skin(?:ned)?)"),
    ),
    ("DEM", "education", _words(_alt(lex.EDUCATION))),
    (
        "RELATION",
        "kinship",
        _words(
            rf"{_alt(lex.POSSESSIVES)}\s+(?:(?:late|own|younger|older|little|big|baby|eldest|oldest|youngest)\s+)?"
            rf"{_alt(lex.KINSHIP)}"
        ),
    ),
    (
        "RELATION",
        "social",
        _words(rf"{_alt(lex.POSSESSIVES)}\s+(?:(?:old|new|former|ex|best)\s+)?{_alt(lex.SOCIAL)}"),
    ),
    ("MISC", "event", _words(_alt(lex.EVENTS))),
    ("MISC", "condition", _words(_alt(lex.CONDITIONS))),
    (
        "MISC",
        "injury",
        _words(rf"(?:{_alt(lex.INJURY_TYPES)}(?:{_BODY_LOCATION})?|{_alt(lex.INJURY_NOUNS)}{_BODY_LOCATION})"),
    ),
    (
        "MISC",
        "mark",
        _words(
            rf"{_alt(lex.MARKS)}(?:\s+(?:on|in|to|of)\s+{_POSSESSIVE_DET}(?:[A-Za-z-]+\s+){{0,3}}?"
            rf"{_alt(lex.BODY_PARTS)})?"
        ),
    ),
    ("MISC", "item", _words(rf"(?:{_NUMBER}\s+)?{_alt(lex.ITEMS)}")),
    ("MISC", "vehicle", _words(_alt(lex.VEHICLE_MAKES), 0)),
    (
        "DATETIME",
        "duration",
        _words(
            rf"(?:\d+|{NUMBER_WORDS}|a\s+few|several|a\s+couple(?:\s+of)?)\s+{TIME_UNITS}"
            r"(?:\s+(?:a|per)\s+(?:day|week|month|year))?"
        ),
    ),
    ("DATETIME", "date", _words(r"weekends?")),
    ("QUANTITY", "money", re.compile(r"\$\s?\d[\d,]*(?:\.\d+)?(?!\d)")),
    ("QUANTITY", "measure", _words(rf"(?:\d[\d,.]*|{NUMBER_WORDS})\s+{_alt(lex.MEASURE_UNITS)}")),
)
# "two in the chest", "one in the top of the head": a count and a body location read as
# an injury only after an injury word (within _INJURY_WINDOW characters before).
_LOCATED = _words(rf"{_COUNT}\s+(?:in|on|to)\s+{_POSSESSIVE_DET}(?:[A-Za-z/-]+,?\s+){{0,4}}?{_alt(lex.BODY_PARTS)}")
_INJURY_CUE = _words(_alt(lex.INJURY_CONTEXT))
_INJURY_WINDOW = 600


# (category, rule, pattern, cue, window): a match counts only when the cue matches
# within `window` characters before it.
Gated = tuple[str, str, re.Pattern[str], re.Pattern[str], int]


@dataclass(frozen=True)
class QuasiRules:
    """One language's quasi-identifier rules."""

    # The Doc's entity labels that are quasi-identifiers → (category, rule).
    entity_categories: dict[str, tuple[str, str]]
    vague_dates: frozenset[str]
    # What makes a date or time entity a fact (a number, a month...).
    time_anchor: re.Pattern[str]
    # Words no place or description is made of alone (roles, titles, function words).
    not_places: frozenset[str]
    # Words trimmed from the ends of a flag cut short by a direct span.
    edge_words: frozenset[str]
    patterns: tuple[tuple[str, str, re.Pattern[str]], ...]
    gated: tuple[Gated, ...] = ()


ENGLISH = QuasiRules(
    entity_categories=ENTITY_CATEGORIES,
    vague_dates=VAGUE_DATES,
    time_anchor=_TIME_ANCHOR,
    not_places=_NOT_PLACES,
    edge_words=_EDGE_WORDS,
    patterns=_PATTERNS,
    gated=(("MISC", "injury", _LOCATED, _INJURY_CUE, _INJURY_WINDOW),),
)


def _lexicon_alt(phrases: Iterable[str]) -> str:
    """A data lexicon as an alternation: longest first, any whitespace between words,
    and any apostrophe for an apostrophe ("d'arrêt" matches "d’arrêt")."""
    ordered = sorted(set(phrases), key=len, reverse=True)
    parts = (r"\s+".join(re.escape(w).replace("'", "['’]") for w in p.replace("’", "'").split()) for p in ordered)
    return "(?:" + "|".join(parts) + ")"


def _from_data(lang: "Language") -> QuasiRules:
    """A language's rules from its file's "quasi" section: `lexicons` (name → phrases),
    `patterns` ({category, rule, regex, flags, cue, window}) whose regexes use
    `{NAME}` for a lexicon, a fragment of the section or one of the file, `entity_categories`,
    `vague_dates`, `time_anchor` and `edge_words`."""
    from pipelines.detection.languages import expand_fragments

    data: dict[str, Any] = lang.quasi
    lexicons = {k: _lexicon_alt(v) for k, v in data.get("lexicons", {}).items()}
    fragments = {**lang.fragments, **data.get("fragments", {}), **lexicons}

    def compiled(regex: str, flags: str) -> re.Pattern[str]:
        return re.compile(rf"(?<![\w-])(?:{expand_fragments(regex, fragments)})(?![\w-])", _flags(flags))

    patterns, gated = [], []
    for entry in data.get("patterns", []):
        pattern = compiled(entry["regex"], entry.get("flags", "i"))
        if "cue" in entry:
            cue = compiled(entry["cue"], entry.get("flags", "i"))
            gated.append((entry["category"], entry["rule"], pattern, cue, int(entry.get("window", 300))))
        else:
            patterns.append((entry["category"], entry["rule"], pattern))
    words = lang.filter_words
    not_places = frozenset().union(
        words.get("role_words", ()), words.get("stop_words", ()), words.get("honorifics", ()), lang.not_entities
    ) | frozenset(t.casefold().rstrip(".") for t in lang.titles)
    anchor = data.get("time_anchor", r"\d")
    return QuasiRules(
        entity_categories={k: (v[0], v[1]) for k, v in data.get("entity_categories", {}).items()},
        vague_dates=frozenset(w.casefold() for w in data.get("vague_dates", ())),
        time_anchor=re.compile(expand_fragments(anchor, fragments), re.IGNORECASE),
        not_places=not_places,
        edge_words=frozenset(w.casefold() for w in data.get("edge_words", ())),
        patterns=tuple(patterns),
        gated=tuple(gated),
    )


def _flags(letters: str) -> int:
    flags = 0
    for letter in letters:
        flags |= {"i": re.IGNORECASE, "m": re.MULTILINE}[letter]
    return flags


@cache
def _data_rules(code: str) -> QuasiRules:
    from pipelines.detection.languages import language

    return _from_data(language(code))


def rules_for(lang: "Language | None") -> QuasiRules | None:
    """The language's rules; None when it has none (no flags are raised)."""
    if lang is None or lang.builtin_rules:
        return ENGLISH
    return _data_rules(lang.code) if lang.quasi else None


def _candidate(text: str, start: int, end: int, category: str, rule: str) -> Candidate:
    return Candidate(start, end, category, text[start:end], (SOURCE,), SCORE, rule)


def _pattern_flags(text: str, rules: QuasiRules) -> Iterator[Candidate]:
    for category, rule, pattern in rules.patterns:
        for match in pattern.finditer(text):
            start, end = match.span("v") if "v" in pattern.groupindex else match.span()
            if start < 0:  # an alternative without the group: the whole match
                start, end = match.span()
            yield _candidate(text, start, end, category, rule)
    for category, rule, pattern, cue, window in rules.gated:
        for match in pattern.finditer(text):
            if cue.search(text, max(0, match.start() - window), match.start()):
                yield _candidate(text, match.start(), match.end(), category, rule)


def _entity_flags(doc, rules: QuasiRules) -> Iterator[Candidate]:
    text = doc.text
    for ent in doc.ents:
        mapped = rules.entity_categories.get(ent.label_)
        if mapped is None:
            continue
        category, rule = mapped
        words = ent.text.lower().split()
        if category == "DATETIME" and (
            " ".join(words) in rules.vague_dates
            or not rules.time_anchor.search(ent.text)
            or re.fullmatch(r"\d{1,3}", ent.text)
        ):
            continue  # "next week", "the day": deictic; a bare "70" is no date
        if category in ("LOC", "DEM") and all(w in rules.not_places for w in words):
            continue  # the small model's "Inmate" as a place: a role, not a fact
        yield _candidate(text, ent.start_char, ent.end_char, category, rule)


def recognize(doc, rules: QuasiRules = ENGLISH) -> list[Candidate]:
    """Candidate quasi-identifiers in one chunk's Doc (offsets within the chunk).

    Overlaps between them are left to `resolve`, which sees the whole text."""
    return [*_entity_flags(doc, rules), *_pattern_flags(doc.text, rules)]


def _uncovered(start: int, end: int, covered: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The pieces of [start, end) outside the sorted, covered intervals."""
    pieces, cursor = [], start
    for c_start, c_end in covered:
        if c_end <= cursor or c_start >= end:
            continue
        if c_start > cursor:
            pieces.append((cursor, c_start))
        cursor = max(cursor, c_end)
    if cursor < end:
        pieces.append((cursor, end))
    return pieces


def _trimmed(text: str, start: int, end: int, edge_words: frozenset[str]) -> tuple[int, int] | None:
    """[start, end) without edge whitespace, punctuation and function words; None when
    nothing that carries information is left."""
    while True:
        while start < end and not text[start].isalnum() and text[start] != "$":
            start += 1
        while end > start and not text[end - 1].isalnum():
            end -= 1
        if start >= end:
            return None
        first = re.match(r"[\w']+", text[start:end])
        last = re.search(r"[\w']+$", text[start:end])
        if first and first.group().lower() in edge_words:
            start += first.end()
            continue
        if last and last.group().lower() in edge_words:
            end = start + last.start()
            continue
        return start, end


def resolve(text: str, found: list[Candidate], spans: list[Candidate], rules: QuasiRules = ENGLISH) -> list[Candidate]:
    """The text's quasi-identifiers, given the direct-identifier spans.

    A flag never repeats a direct span: one inside a direct span is dropped, one
    that overlaps it is cut to its longest piece outside ("the summer of 1998" with
    the date "1998" direct → "summer"), if that piece still says something. Flags
    that overlap each other keep the longest (the earliest on a tie): one flag per
    stretch of text, as the reviewer decides per stretch."""
    covered = sorted((s.start, s.end) for s in spans)
    cut: list[Candidate] = []
    for flag in found:
        pieces = _uncovered(flag.start, flag.end, covered)
        if not pieces:
            continue
        if pieces != [(flag.start, flag.end)]:
            start, end = max(pieces, key=lambda p: p[1] - p[0])
            bounds = _trimmed(text, start, end, rules.edge_words)
            if bounds is None:
                continue
            flag = _candidate(text, *bounds, flag.label, flag.rule)
        cut.append(_candidate(text, flag.start, flag.end, flag.label, flag.rule))
    kept: list[Candidate] = []
    for flag in sorted(cut, key=lambda c: (-(c.end - c.start), c.start)):
        if not any(flag.overlaps(other) for other in kept):
            kept.append(flag)
    return sorted(kept, key=lambda c: (c.start, c.end))
