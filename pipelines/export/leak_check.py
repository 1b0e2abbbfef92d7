"""The leak gate: no accepted span's text may survive in a redacted output.

Each accepted span is searched for word-bounded, with any run of whitespace (line
breaks included) between its words, case-insensitively when it has several words
or any non-letter. A single word is searched as written, in capitals and in title
case, never in lower case: "HOPE" as a speaker's name must not block every "hope"
in the testimony, while "Hope" and "HOPE" are the forms a surviving name takes.
Each name part of a PERSON span (after leading
titles) is searched the same way: a surviving "Doe" or "DOE" after "John Doe" is a
leak, the verb "will" is not a leak of "Will Smith". Hyphenated names are searched
whole and by part. The letters of a spelled name are searched with separators
("R U F F", "r.u.f.f"). Possessives need no pattern of their own: "Doe's"
contains the word "Doe". Reports carry the label and offsets only, never the
original text, so they can be logged and shown safely.
"""

import re
from collections.abc import Iterable
from dataclasses import dataclass

from pipelines.candidate import Candidate
from pipelines.pseudonymize.person import name_tokens

MIN_PART_LENGTH = 3


@dataclass(frozen=True, slots=True)
class Leak:
    label: str
    span_start: int
    span_end: int
    output_offset: int


def _word(word: str) -> re.Pattern[str]:
    """A single word as written, in capitals or in title case."""
    forms = {word, word.upper(), word[:1].upper() + word[1:].lower()}
    return re.compile(r"(?<!\w)(?:" + "|".join(re.escape(f) for f in sorted(forms)) + r")(?!\w)")


def _full_form(text: str) -> re.Pattern[str] | None:
    words = text.split()
    if not words:
        return None
    if len(words) == 1 and words[0].isalpha():
        return _word(words[0])
    body = r"\s+".join(re.escape(w) for w in words)
    return re.compile(r"(?<!\w)" + body + r"(?!\w)", re.IGNORECASE)


def _name_parts(text: str) -> list[re.Pattern[str]]:
    patterns = []
    for _match, _lead, core, _trail in name_tokens(text):
        core = core.strip(".")
        for part in {core, *core.split("-")}:
            if len(part) >= MIN_PART_LENGTH and part.isalpha():
                patterns.append(_word(part))
    return patterns


def _spelled(text: str) -> re.Pattern[str] | None:
    """A spelled name in any spelling: "R-U-F-F", "R U F F", "R.U.F.F.". The word
    itself ("ruff") is the PERSON span's business, not the spelling's."""
    letters = re.findall(r"[A-Za-z]", text)
    if len(letters) < MIN_PART_LENGTH:  # "A-L" would match every "al"
        return None
    return re.compile(r"(?<![A-Za-z])" + r"[\s.\-]+".join(letters) + r"(?![A-Za-z])", re.IGNORECASE)


def _patterns(label: str, text: str) -> list[re.Pattern[str]]:
    patterns = [p for p in [_full_form(text)] if p is not None]
    if label == "PERSON":
        patterns.extend(_name_parts(text))
    if label == "SPELLED_NAME":
        patterns.extend(p for p in [_spelled(text)] if p is not None)
    return patterns


def find_leaks(output: str, spans: Iterable[Candidate]) -> list[Leak]:
    leaks: list[Leak] = []
    # A name recurs dozens of times in a transcript: search each surface form once.
    found: dict[tuple[str, str], int | None] = {}
    for span in spans:
        key = (span.label, span.text)
        if key not in found:
            hits = (m.start() for p in _patterns(*key) for m in [p.search(output)] if m)
            found[key] = next(hits, None)
        if found[key] is not None:
            leaks.append(Leak(span.label, span.start, span.end, found[key]))
    return leaks
