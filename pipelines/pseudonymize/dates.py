"""DATE, TIME, AGE and HEIGHT: un-numbered placeholders that keep context words.

A fully numeric date becomes `[DATE]`; otherwise each date token is replaced by its
kind (`[YEAR]`, `[MONTH]`, `[DAY_OF_WEEK]`, `[DAY]`, `[DECADE]`, `[NUMBER]`) and the
words around it stay ("in [MONTH] of [YEAR]"). If nothing in a span is recognised
the whole span is replaced, so an accepted span never survives unchanged.
"""

import re

from pipelines.detection.languages import all_day_suffixes, all_months
from pipelines.lexicons import MONTHS, NUMBER_WORDS, OCR_DAY_ORDINAL, SPOKEN_YEAR, WEEKDAYS

# The other languages' month names and day ordinals ("janvier", "1er"), from their files.
_OTHER_MONTHS = "|".join(re.escape(m) for m in sorted(all_months(), key=len, reverse=True)) or "(?!)"
_DAY_SUFFIXES = "|".join(("st", "nd", "rd", "th", *(re.escape(s) for s in all_day_suffixes())))

_FULL_NUMERIC = re.compile(r"\s*\d{1,4}[/.-]\d{1,2}[/.-]\d{1,4}\s*")
_DATE_TOKENS = re.compile(
    rf"(?P<YEAR>\b(?:19|20)\d{{2}}\b(?!'?s)|\b{SPOKEN_YEAR}\b)"
    rf"|(?P<DECADE>\b(?:19|20)?\d0'?s\b|\b(?:twenties|thirties|forties|fifties|sixties|seventies|eighties|nineties)\b)"
    rf"|(?P<MONTH>\b{MONTHS}(?!\w)|\b(?:{_OTHER_MONTHS})(?!\w))"
    rf"|(?P<DAY_OF_WEEK>\b{WEEKDAYS}s?\b)"
    rf"|(?P<DAY>\b\d{{1,2}}(?:{_DAY_SUFFIXES})\b|\b{OCR_DAY_ORDINAL}\b)"
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
