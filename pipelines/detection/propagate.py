"""Propagation: a name found once is a name everywhere in the document.

Every detected PERSON (whole and by part), ORGANIZATION, LOCATION and ID is searched for at
all its other occurrences; uncovered ones become candidates from the source
"propagation". Matching is exact, all-capitals, or title case for a name found in
capitals (transcripts print speaker names in capitals), and word-bounded.
"""

import re

from spacy.lang.en.stop_words import STOP_WORDS

from pipelines.detection import places
from pipelines.detection.candidate import Candidate
from pipelines.detection.cues import ROLE_WORDS
from pipelines.detection.gazetteer import is_known_name

SOURCE = "propagation"
PROPAGATED_LABELS = frozenset({"PERSON", "ORGANIZATION", "LOCATION", "ID", "SPELLED_NAME"})
MIN_PART_LENGTH = 3
# A name already found in this document is strong evidence wherever it recurs:
# above a lone model guess of another label (spaCy scores 0.6), below cues.
SCORE = 0.8


def _forms(span: Candidate) -> set[str]:
    forms = {span.text}
    if span.label == "PERSON":
        for part in re.split(r"\s+", span.text):
            part = re.sub(r"(?:['’]s|['’])$", "", part.strip(".,"))
            if (
                len(part) >= MIN_PART_LENGTH
                and part.lower() not in STOP_WORDS
                and part.lower() not in ROLE_WORDS
                # "Facility" of a misread "Preston Youth Correctional Facility"
                # must not become a PERSON everywhere.
                and not places.has_institution_word(part)
                and (part.lower() not in places.PLACE_WORDS or is_known_name(part))  # Wood, Hall, Park
            ):
                forms.add(part)
    # Speaker labels print names in capitals; their running-text form is title case.
    return forms | {f.upper() for f in forms} | {f.title() for f in forms if f.isupper()}


def spelled_words(text: str) -> list[str]:
    """ "R-U-F-F" → ["RUFF"]; "J-O-H-N S-M-I-T-H" → ["JOHN", "SMITH"]: the words a
    spelled name spells (letters joined by hyphens, words apart by spaces)."""
    words = ["".join(re.findall(r"[A-Za-z]", group)) for group in re.split(r"(?<![-\s])[ \t]+(?![-\s])", text)]
    return [w for w in words if len(w) >= MIN_PART_LENGTH]


def _dominant_labels(spans: list[Candidate]) -> dict[str, str]:
    """For each surface form (lower case), the label it carries most in the document.

    A form is only propagated under that label: spaCy calling one "Marcus Delgado" a
    place must not spread LOCATION over the two other times he is a PERSON."""
    weights: dict[str, dict[str, float]] = {}
    for span in spans:
        for form in _forms(span):
            per_label = weights.setdefault(form.lower(), {})
            per_label[span.label] = per_label.get(span.label, 0.0) + span.score
    # On a tie the name wins: masking a place as a person leaks nothing.
    return {
        form: max(per_label, key=lambda label: (per_label[label], label == "PERSON"))
        for form, per_label in weights.items()
    }


def propagate(text: str, spans: list[Candidate]) -> list[Candidate]:
    """New candidates for uncovered occurrences of the given spans' surface forms."""
    dominant = _dominant_labels(spans)
    # An occurrence under a span of the same label is already found. One under a
    # different label is proposed anyway: the ensemble then weighs "Delgado" as a
    # propagated PERSON against spaCy's lone guess that it is a place.
    covered = {label: [(s.start, s.end) for s in spans if s.label == label] for label in PROPAGATED_LABELS}
    # An occurrence inside a longer span of any label is part of that name: "WOOD"
    # (ORGANIZATION elsewhere) must not split "JAMES WOOD".
    extents = sorted((s.start, s.end) for s in spans)

    def inside_longer(start: int, end: int) -> bool:
        return any(s <= start and end <= e and e - s > end - start for s, e in extents)

    found: list[Candidate] = []
    seen: set[tuple[str, str]] = set()
    for span in spans:
        if span.label not in PROPAGATED_LABELS:
            continue
        # Longest first: the whole name claims its occurrences before its parts do.
        for form in sorted(_forms(span), key=len, reverse=True):
            if (span.label, form) in seen or not form.strip() or dominant.get(form.lower(), span.label) != span.label:
                continue
            seen.add((span.label, form))
            # A multi-word name may be broken across a line end ("Marcus\nDelgado").
            body = r"\s+".join(re.escape(word) for word in form.split())
            pattern = re.compile(r"(?<!\w)" + body + r"(?!\w)")
            for match in pattern.finditer(text):
                start, end = match.span()
                if any(start < e and s < end for s, e in covered[span.label]) or inside_longer(start, end):
                    continue
                found.append(
                    Candidate(start, end, span.label, text[start:end], (SOURCE,), SCORE, f"propagation:{span.label}")
                )
                covered[span.label].append((start, end))
    # A spelled name links back to the name it spells: "R-U-F-F" makes "Ruff" (in
    # any case: "McDonald" is spelled M-C-D-O-N-A-L-D) a PERSON wherever it occurs.
    for span in spans:
        if span.label != "SPELLED_NAME":
            continue
        for word in spelled_words(span.text):
            if ("SPELLED", word.lower()) in seen or dominant.get(word.lower(), "PERSON") != "PERSON":
                continue
            seen.add(("SPELLED", word.lower()))
            for match in re.finditer(r"(?<!\w)" + re.escape(word) + r"(?!\w)", text, re.IGNORECASE):
                start, end = match.span()
                if any(start < e and s < end for s, e in covered["PERSON"]):
                    continue
                found.append(Candidate(start, end, "PERSON", text[start:end], (SOURCE,), SCORE, "propagation:spelled"))
                covered["PERSON"].append((start, end))
    return found
