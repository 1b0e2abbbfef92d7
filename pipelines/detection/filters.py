"""Per-label validity rules, in the spirit of seed 000's AnnotationChecker.

A rejected candidate is kept with its reason (`Filtered`) so that statistics and
the UI can say why the machine dropped it, rather than losing it silently.
"""

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from pipelines.candidate import Candidate
from pipelines.detection.config import FILTER_RULES
from pipelines.gazetteers import is_known_name
from pipelines.lexicons import HONORIFICS, MONTHS, NUMBER_WORDS, ROLE_WORDS, SPOKEN_YEAR, WEEKDAYS


@dataclass(frozen=True, slots=True)
class Filtered:
    candidate: Candidate
    reason: str


_HAS_DIGIT = re.compile(r"\d")
_DATE_WORD = re.compile(rf"\b(?:{MONTHS}|{WEEKDAYS}|{SPOKEN_YEAR}|{NUMBER_WORDS}|decade|\w+ies)\b", re.IGNORECASE)


def _person_single_character(c: Candidate) -> str | None:
    return "single character" if len(c.text.strip()) < 2 else None


def _person_digits(c: Candidate) -> str | None:
    return "contains digits" if _HAS_DIGIT.search(c.text) else None


def _person_lowercase(c: Candidate) -> str | None:
    stripped = c.text.strip()
    return "all lowercase" if stripped == stripped.lower() else None


def _role_word(c: Candidate) -> str | None:
    words = [w.strip(".,'’:").lower() for w in c.text.split()]
    return "role word" if all(w in ROLE_WORDS for w in words) else None


def _date(c: Candidate) -> str | None:
    if _HAS_DIGIT.search(c.text) or _DATE_WORD.search(c.text):
        return None
    return "no digit, month, weekday or number"


_TIME_WORD = re.compile(rf"\b(?:{NUMBER_WORDS}|noon|midnight|o'clock)\b", re.IGNORECASE)


def _time(c: Candidate) -> str | None:
    if _HAS_DIGIT.search(c.text) or _TIME_WORD.search(c.text):
        return None
    return "no digit or clock word"


def _line_break(c: Candidate) -> str | None:
    # Transcript text has one utterance per line: a model entity that crosses
    # a line break has glued a heading to the next line.
    return "crosses a line break" if "\n" in c.text and c.sources == ("spacy",) else None


@dataclass(frozen=True, slots=True)
class Rule:
    name: str
    labels: frozenset[str] | None  # None: every label
    check: Callable[[Candidate], str | None]
    description: str


# Rules are data: a corpus turns any of them off by name (see config.py, which
# lists the names and descriptions). They run in this order and the first that
# fires gives the reason.
_CHECKS: dict[str, tuple[frozenset[str] | None, Callable[[Candidate], str | None]]] = {
    "line_break": (None, _line_break),
    "role_word": (frozenset({"PERSON", "LOCATION", "ORGANIZATION", "NRP"}), _role_word),
    "person_single_character": (frozenset({"PERSON"}), _person_single_character),
    "person_digits": (frozenset({"PERSON"}), _person_digits),
    "person_lowercase": (frozenset({"PERSON"}), _person_lowercase),
    "date_words": (frozenset({"DATE"}), _date),
    "time_words": (frozenset({"TIME"}), _time),
}
if list(_CHECKS) != list(FILTER_RULES):
    raise ImportError("filters.py must implement exactly config.FILTER_RULES, in order")
RULES: tuple[Rule, ...] = tuple(Rule(name, *_CHECKS[name], FILTER_RULES[name]) for name in FILTER_RULES)


def reject_reason(c: Candidate, disabled: frozenset[str] = frozenset()) -> str | None:
    if not c.text.strip():
        return "blank"  # never a span, whatever the corpus says
    for rule in RULES:
        if rule.name in disabled or (rule.labels is not None and c.label not in rule.labels):
            continue
        reason = rule.check(c)
        if reason:
            return reason
    return None


def trim_whitespace(c: Candidate) -> Candidate:
    stripped = c.text.strip()
    if stripped == c.text or not stripped:
        return c
    start = c.start + (len(c.text) - len(c.text.lstrip()))
    return Candidate(start, start + len(stripped), c.label, stripped, c.sources, c.score, c.rule)


_WORD = re.compile(r"\S+")
_POSSESSIVE = re.compile(r"(?:['’]s|s['’])$")


def _leading_title(words: list[re.Match[str]]) -> bool:
    """The first word is a title, not part of the name: a role word
    ("Commissioner Robert Delgado") or an honorific that is no one's name
    ("General Robert Lee"; but "Major Harris", "Prince Jackson" keep theirs)."""
    first = words[0].group().strip(".,")
    return first.lower() in ROLE_WORDS or (first.lower() in HONORIFICS and not is_known_name(first))


# Not a name, even when the model's entity runs over it: a detached clitic
# ("Okafor 's" in tokenized text) or stray punctuation ("Dana Whitfield &").
_TRAILING_JUNK = frozenset({"'s", "’s", "'", "’", "&", "-", "–", "—", "(", '"'})


def trim_person(c: Candidate) -> Candidate:
    """Drop leading titles (see `_leading_title`), trailing punctuation and a
    possessive ("Doe's"): the title stays readable context, the possessive stays
    outside the placeholder."""
    words = [w for w in _WORD.finditer(c.text)]
    while len(words) > 1 and _leading_title(words):
        words.pop(0)
    while len(words) > 1 and words[-1].group() in _TRAILING_JUNK:
        words.pop()
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


def apply_filters(
    candidates: Iterable[Candidate], disabled: frozenset[str] = frozenset()
) -> tuple[list[Candidate], list[Filtered]]:
    """Trimmed candidates that pass every enabled rule, and the others with their
    reason; `disabled` names rules (see `RULES`) a corpus turned off."""
    kept: list[Candidate] = []
    dropped: list[Filtered] = []
    for candidate in candidates:
        candidate = trim_whitespace(candidate)
        if candidate.label == "PERSON":
            candidate = trim_person(candidate)
        reason = reject_reason(candidate, disabled)
        if reason:
            dropped.append(Filtered(candidate, reason))
        else:
            kept.append(candidate)
    return kept, dropped
