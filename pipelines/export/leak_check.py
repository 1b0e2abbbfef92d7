"""The leak gate: no accepted span's text may survive in a redacted output.

Each accepted span is searched for case-insensitively, word-bounded, with any run
of whitespace (line breaks included) between its words. Name parts of PERSON spans
are searched too, with their exact case or in capitals: a surviving "Doe" after
"John Doe" is a leak, while the verb "will" is not a leak of "Will Smith".
Reports carry the label and offsets only, never the original text, so they can be
logged and shown safely.
"""

import re
from collections.abc import Iterable
from dataclasses import dataclass

from pipelines.detection.candidate import Candidate
from pipelines.detection.cues import ROLE_WORDS

MIN_PART_LENGTH = 3


@dataclass(frozen=True, slots=True)
class Leak:
    label: str
    span_start: int
    span_end: int
    output_offset: int


def _full_form(text: str) -> re.Pattern[str] | None:
    words = text.split()
    if not words:
        return None
    body = r"\s+".join(re.escape(w) for w in words)
    return re.compile(r"(?<!\w)" + body + r"(?!\w)", re.IGNORECASE)


def _name_parts(text: str) -> list[re.Pattern[str]]:
    patterns = []
    for part in text.split():
        part = re.sub(r"(?:['’]s|['’])$", "", part.strip(".,;:"))
        if len(part) >= MIN_PART_LENGTH and part.lower() not in ROLE_WORDS:
            alternatives = {re.escape(part), re.escape(part.upper())}
            patterns.append(re.compile(r"(?<!\w)(?:" + "|".join(sorted(alternatives)) + r")(?!\w)"))
    return patterns


def find_leaks(output: str, spans: Iterable[Candidate]) -> list[Leak]:
    leaks: list[Leak] = []
    for span in spans:
        patterns = [p for p in [_full_form(span.text)] if p is not None]
        if span.label == "PERSON":
            patterns.extend(_name_parts(span.text))
        for pattern in patterns:
            match = pattern.search(output)
            if match:
                leaks.append(Leak(span.label, span.start, span.end, match.start()))
                break
    return leaks
