"""Optional pattern packs a corpus can turn on (see config.py; `registry.py` checks
that this module implements exactly `config.PACKS`).

`seed001` is seed 001's list of "additional details" for Singapore clinical notes
(discharge summaries), redone: word boundaries so that "S1234567A" inside a longer
token is not cut out of it, cue words kept outside the span ("Ward: [WARD]"), and
the seed's "any character" separators narrowed to the ones people type. Its
candidates come from the source "patterns" (they are patterns, weighed as such),
with a `pattern:seed001_*` rule.
"""

import re

from pipelines.detection.recognizers.patterns import Pattern
from pipelines.lexicons import MONTHS

I = re.IGNORECASE  # noqa: E741


def _p(label: str, regex: str, score: float, rule: str, flags: int = 0) -> Pattern:
    return Pattern(label, re.compile(regex, flags), score, f"seed001_{rule}")


_CUE_SEP = r"[ \t]*[:.\-]?[ \t]*"

SEED001: tuple[Pattern, ...] = (
    # NRIC/FIN: S, T, F, G or M, seven digits, a check letter ("S1234567A").
    _p("ID", r"\b[STFGM]\d{7}[A-Z]\b", 0.95, "nric", I),
    # Case number: ten digits and a letter ("1234567890A").
    _p("ID", r"\b\d{10}[A-Z]\b", 0.9, "case_number", I),
    _p("ID", r"\bcase[ \t]+(?:number|no\.?)" + _CUE_SEP + r"(?P<v>[A-Z0-9][A-Z0-9-]{3,})\b", 0.9, "case_cue", I),
    # Hospital IDs: a letter, four digits, a letter ("A1234Z"); five digits and a letter.
    _p("ID", r"\b[A-Z]\d{4}[A-Z]\b", 0.8, "id_letter_digits", I),
    _p("ID", r"\b\d{5}[A-Z]\b", 0.8, "id_digits_letter", I),
    # Singapore numbers: eight digits starting 6 (fixed), 8 or 9 (mobile), "+65" optional.
    _p("PHONE_NUMBER", r"(?<![\d+])(?:\+65[ -]?)?[689]\d{3}[ -]?\d{4}(?!\d)", 0.8, "sg_phone"),
    _p("DATE", r"\b\d{1,2}[/.-]\d{1,2}[/.-](?:\d{4}|\d{2})\b", 0.9, "numeric_date"),
    _p("DATE", rf"\b\d{{1,2}}[ \t/.-]{MONTHS}[ \t/.-](?:\d{{4}}|\d{{2}})\b", 0.9, "day_month_year", I),
    _p(
        "TIME",
        r"\badmission[ \t]+time" + _CUE_SEP + r"(?P<v>\d{1,2}[:.]\d{2}(?:[ \t]*[ap]\.?m\.?)?)",
        0.95,
        "admission_time",
        I,
    ),
    # Ward and bed need a colon or "no."/"number" (or, for wards, "type"; for beds,
    # a digit): "returned to the ward and" names no ward.
    _p(
        "WARD",
        r"\b(?i:ward)(?:[ \t]*:|[ \t]+(?i:no\.?|number)[ \t]*:?|[ \t]+(?=(?i:type)\b))[ \t]*"
        r"(?P<v>(?i:type[ \t]+)?[A-Z0-9]{1,4})\b",
        0.85,
        "ward",
    ),
    _p(
        "BED",
        r"\b(?i:bed)(?:[ \t]*:|[ \t]+(?i:no\.?|number)[ \t]*:?|[ \t]+(?=[A-Za-z]?\d))[ \t]*"
        r"(?P<v>[A-Za-z]?\d{1,3}[A-Za-z]?)\b",
        0.85,
        "bed",
    ),
    _p(
        "PATIENT_CLASS",
        r"\b(?i:patient[ \t]+class)" + _CUE_SEP + r"(?P<v>[A-Za-z]+[ \t]+[A-Z]\d?)\b",
        0.85,
        "patient_class",
    ),
)

PATTERN_PACKS: dict[str, tuple[Pattern, ...]] = {"seed001": SEED001}
