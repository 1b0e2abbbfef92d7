"""DATE, TIME, AGE and HEIGHT: un-numbered placeholders that keep context words.

A fully numeric date becomes `[DATE]`; otherwise each date token is replaced by its
kind (`[YEAR]`, `[MONTH]`, `[DAY_OF_WEEK]`, `[DAY]`, `[DECADE]`, `[NUMBER]`) and the
words around it stay ("in [MONTH] of [YEAR]"). If nothing in a span is recognised
the whole span is replaced, so an accepted span never survives unchanged.
"""

import re

from pipelines.lexicons import MONTHS, NUMBER_WORDS, SPOKEN_YEAR, WEEKDAYS

_FULL_NUMERIC = re.compile(r"\s*\d{1,4}[/.-]\d{1,2}[/.-]\d{1,4}\s*")
_DATE_TOKENS = re.compile(
    rf"(?P<YEAR>\b(?:19|20)\d{{2}}\b(?!'?s)|\b{SPOKEN_YEAR}\b)"
    rf"|(?P<DECADE>\b(?:19|20)?\d0'?s\b|\b(?:twenties|thirties|forties|fifties|sixties|seventies|eighties|nineties)\b)"
    rf"|(?P<MONTH>\b{MONTHS}(?!\w))"
    rf"|(?P<DAY_OF_WEEK>\b{WEEKDAYS}s?\b)"
    r"|(?P<DAY>\b\d{1,2}(?:st|nd|rd|th)\b)"
    rf"|(?P<NUMBER>\b\d+\b|\b{NUMBER_WORDS}\b)",
    re.IGNORECASE,
)
# "one day", "one time", "one of": idioms, not numbers, even inside an AGE span.
_NUMBER = re.compile(rf"\b\d+(?:\.\d+)?\b|\b(?!one\s+(?:day|time|of)\b){NUMBER_WORDS}\b", re.IGNORECASE)


def date_replacement(text: str) -> str:
    if _FULL_NUMERIC.fullmatch(text):
        return "[DATE]"
    replaced = _DATE_TOKENS.sub(lambda m: f"[{m.lastgroup}]", text)
    return replaced if replaced != text else "[DATE]"


def numbers_replacement(text: str, label: str) -> str:
    """AGE and HEIGHT: the numbers become `[LABEL]`, the units stay."""
    replaced = _NUMBER.sub(f"[{label}]", text)
    return replaced if replaced != text else f"[{label}]"
