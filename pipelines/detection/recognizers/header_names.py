"""Header names: the people a transcript's first page lists (panel, inmate,
attorneys, transcriber) become a per-document gazetteer with the highest source
priority. Every form they take in the body is searched: the full name, each part
longer than 2 characters, in title case and in capitals, cut-off forms ("Hern-"),
spelled forms ("H-E-R-N-A-N-D-E-Z") and initials followed by a known part.
"""

import re
from collections.abc import Iterable

from pipelines.candidate import Candidate
from pipelines.lexicons import FIRM_WORDS, NAME_SUFFIXES, ROLE_WORDS

SOURCE = "header"
SCORE = 0.95
MIN_PART = 3


# "Transcribed by: Foothill Transcription Company, Inc." names a firm, not a person:
# its words must not become top-priority PERSON spans all over the body.
_FIRM = re.compile(r"\b(?:" + "|".join(FIRM_WORDS) + r")\b", re.IGNORECASE)


def header_people(metadata: dict | None) -> list[str]:
    """Names from parsed header metadata (see pipelines.extraction.header)."""
    if not metadata:
        return []
    names = [p.get("name") for p in metadata.get("participants") or []]
    names += [metadata.get("inmate_name"), metadata.get("transcriber")]
    return [n for n in names if n and n.strip() and not _FIRM.search(n)]


def _parts(name: str) -> list[str]:
    parts = [p.strip(".,") for p in re.split(r"[\s,]+", name)]
    return [p for p in parts if len(p) >= MIN_PART and p.lower() not in ROLE_WORDS and p.lower() not in NAME_SUFFIXES]


def _variants(word: str) -> set[str]:
    return {word, word.upper(), word.title(), word.lower().capitalize()}


def _word_pattern(forms: Iterable[str]) -> str:
    return "|".join(re.escape(f) for f in sorted(set(forms), key=len, reverse=True))


def recognize(text: str, names: list[str]) -> list[Candidate]:
    found: list[Candidate] = []
    parts = sorted({p for name in names for p in _parts(name)}, key=len, reverse=True)
    if not parts:
        return found
    fulls = {" ".join(name.replace(",", " ").split()) for name in names}

    def add(regex: str, label: str, rule: str, flags: int = 0, group: str | int = 0) -> None:
        for m in re.finditer(regex, text, flags):
            start, end = m.span(group)
            if start < end:
                found.append(Candidate(start, end, label, text[start:end], (SOURCE,), SCORE, f"header:{rule}"))

    full_forms = {v for full in fulls for v in _variants(full)}
    full_alternatives = "|".join(
        r"\s+".join(re.escape(w) for w in f.split()) for f in sorted(full_forms, key=len, reverse=True)
    )
    add(r"(?<!\w)(?:" + full_alternatives + r")(?!\w)", "PERSON", "full_name")
    part_forms = {v for p in parts for v in _variants(p)}
    add(r"(?<!\w)(?:" + _word_pattern(part_forms) + r")(?!\w)", "PERSON", "name_part")
    # An initial right before a known part: "J. Hartwell".
    add(r"(?<![\w-])[A-Z]\.\s+(?:" + _word_pattern(part_forms) + r")(?!\w)", "PERSON", "initial")
    # A name cut off mid-word by the speaker or transcriber: "Hern-" for Hernandez.
    for part in parts:
        if len(part) >= 5:
            prefixes = {part[:n] for n in range(3, len(part))}
            forms = {v for p in prefixes for v in _variants(p)}
            add(r"(?<!\w)(?:" + _word_pattern(forms) + r")-(?=\s|$)", "PERSON", "cut_off", re.MULTILINE)
        letters = r"[\s-]*".join(re.escape(ch) for ch in part.upper())
        add(
            r"(?<![A-Za-z])" + letters.replace(r"[\s-]*", r"\s*-\s*") + r"(?![A-Za-z])",
            "SPELLED_NAME",
            "spelled",
            re.IGNORECASE,
        )
    return found


def header_places(metadata: dict | None) -> list[tuple[str, str]]:
    """The facility the cover page names ("SAN QUENTIN STATE PRISON, SAN QUENTIN,
    CALIFORNIA") as (text, label): the institution as ORGANIZATION (exported as a
    PRISON placeholder), its city as LOCATION; the state is left out."""
    if not metadata:
        return []
    places: list[tuple[str, str]] = []
    facility = metadata.get("facility") or ""
    pieces = [p.strip() for p in facility.split(",") if p.strip()]
    if pieces:
        places.append((pieces[0], "ORGANIZATION"))
        if len(pieces) > 2:  # facility, city, state
            places.append((pieces[1], "LOCATION"))
    if metadata.get("city"):
        places.append((metadata["city"], "LOCATION"))
    return places


def recognize_places(text: str, places: list[tuple[str, str]]) -> list[Candidate]:
    """Every occurrence of the cover page's facility and city, as printed, in
    capitals or in title case ("San Quentin State Prison")."""
    found: list[Candidate] = []
    # Longest first: the city inside "San Quentin State Prison" is part of the
    # facility's name there, not a place of its own.
    for place, label in sorted(places, key=lambda p: len(p[0]), reverse=True):
        forms = sorted(_variants(" ".join(place.split())), key=len, reverse=True)
        body = "|".join(r"\s+".join(re.escape(w) for w in f.split()) for f in forms)
        for m in re.finditer(r"(?<!\w)(?:" + body + r")(?!\w)", text):
            if any(c.start < m.end() and m.start() < c.end for c in found):
                continue
            found.append(Candidate(m.start(), m.end(), label, m.group(), (SOURCE,), SCORE, f"header:{label.lower()}"))
    return found
