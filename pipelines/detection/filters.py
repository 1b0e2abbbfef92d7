"""Per-label validity rules, in the spirit of seed 000's AnnotationChecker.

A rejected candidate is kept with its reason (`Filtered`) so that statistics and
the UI can say why the machine dropped it, rather than losing it silently.
"""

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from pipelines.detection.candidate import Candidate
from pipelines.detection.cues import ROLE_WORDS
from pipelines.detection.patterns import MONTHS, NUMBER_WORDS, SPOKEN_YEAR, WEEKDAYS


@dataclass(frozen=True, slots=True)
class Filtered:
    candidate: Candidate
    reason: str


_HAS_DIGIT = re.compile(r"\d")
_DATE_WORD = re.compile(rf"\b(?:{MONTHS}|{WEEKDAYS}|{SPOKEN_YEAR}|{NUMBER_WORDS}|decade|\w+ies)\b", re.IGNORECASE)


def _person(c: Candidate) -> str | None:
    stripped = c.text.strip()
    if len(stripped) < 2:
        return "single character"
    if _HAS_DIGIT.search(stripped):
        return "contains digits"
    if stripped == stripped.lower():
        return "all lowercase"
    words = [w.strip(".,'’").lower() for w in stripped.split()]
    if all(w in ROLE_WORDS for w in words):
        return "role word"
    return None


def _date(c: Candidate) -> str | None:
    if _HAS_DIGIT.search(c.text) or _DATE_WORD.search(c.text):
        return None
    return "no digit, month, weekday or number"


_TIME_WORD = re.compile(rf"\b(?:{NUMBER_WORDS}|noon|midnight|o'clock)\b", re.IGNORECASE)


def _time(c: Candidate) -> str | None:
    if _HAS_DIGIT.search(c.text) or _TIME_WORD.search(c.text):
        return None
    return "no digit or clock word"


def _generic(c: Candidate) -> str | None:
    if not c.text.strip():
        return "blank"
    if "\n" in c.text and c.sources == ("spacy",):
        # Transcript text has one utterance per line: a model entity that crosses
        # a line break has glued a heading to the next line.
        return "crosses a line break"
    words = [w.strip(".,'’:").lower() for w in c.text.split()]
    if c.label in ("PERSON", "LOCATION", "ORGANIZATION", "NRP") and all(w in ROLE_WORDS for w in words):
        return "role word"
    return None


def trim_whitespace(c: Candidate) -> Candidate:
    stripped = c.text.strip()
    if stripped == c.text or not stripped:
        return c
    start = c.start + (len(c.text) - len(c.text.lstrip()))
    return Candidate(start, start + len(stripped), c.label, stripped, c.sources, c.score, c.rule)


RULES: dict[str, Callable[[Candidate], str | None]] = {
    "PERSON": _person,
    "DATE": _date,
    "TIME": _time,
}

_WORD = re.compile(r"\S+")
_POSSESSIVE = re.compile(r"(?:['’]s|s['’])$")


def trim_person(c: Candidate) -> Candidate:
    """Drop leading role words ("Commissioner Robert Delgado"), trailing punctuation
    and a possessive ("Doe's"): the title stays readable context, the possessive
    stays outside the placeholder."""
    words = [w for w in _WORD.finditer(c.text)]
    while len(words) > 1 and words[0].group().strip(".,").lower() in ROLE_WORDS:
        words.pop(0)
    if not words:
        return c
    start = c.start + words[0].start()
    end = c.start + words[-1].end()
    last = words[-1].group()
    # A final period belongs to an initial ("J.") but not to a sentence ("Smith.").
    trailing = re.search(r"[,;:]+$|(?<=\w\w)\.$", last)
    if trailing:
        end -= len(trailing.group())
        last = last[: -len(trailing.group())]
    possessive = _POSSESSIVE.search(last)
    if possessive and len(last) - len(possessive.group()) >= 2:
        # "Doe's" loses "'s"; "Jones'" loses only the apostrophe.
        end -= len(possessive.group()) - (1 if possessive.group().startswith("s") else 0)
    if (start, end) == (c.start, c.end):
        return c
    return Candidate(start, end, c.label, c.text[start - c.start : end - c.start], c.sources, c.score, c.rule)


def apply_filters(candidates: Iterable[Candidate]) -> tuple[list[Candidate], list[Filtered]]:
    kept: list[Candidate] = []
    dropped: list[Filtered] = []
    for candidate in candidates:
        candidate = trim_whitespace(candidate)
        if candidate.label == "PERSON":
            candidate = trim_person(candidate)
        reason = _generic(candidate) or (RULES.get(candidate.label, lambda _c: None))(candidate)
        if reason:
            dropped.append(Filtered(candidate, reason))
        else:
            kept.append(candidate)
    return kept, dropped
