"""Propagation: a name found once is a name everywhere in the document.

Every detected PERSON (whole and by part), ORGANIZATION, LOCATION and ID is searched for at
all its other occurrences; uncovered ones become candidates from the source
"propagation". Matching is exact, all-capitals, or title case for a name found in
capitals (transcripts print speaker names in capitals), and word-bounded.
"""

import re

from spacy.lang.en.stop_words import STOP_WORDS

from pipelines.detection.candidate import Candidate
from pipelines.detection.cues import ROLE_WORDS

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
            if len(part) >= MIN_PART_LENGTH and part.lower() not in STOP_WORDS and part.lower() not in ROLE_WORDS:
                forms.add(part)
    # Speaker labels print names in capitals; their running-text form is title case.
    return forms | {f.upper() for f in forms} | {f.title() for f in forms if f.isupper()}


def spelled_word(text: str) -> str:
    """ "R-U-F-F" → "Ruff": the word a spelled name spells."""
    letters = re.findall(r"[A-Za-z]", text)
    return "".join(letters).title() if len(letters) >= MIN_PART_LENGTH else ""


def _as_person(spans: list[Candidate]) -> list[Candidate]:
    """A spelled name links back to the name it spells: "R-U-F-F" makes "Ruff" a
    PERSON form to search for, so the plain name is found wherever it recurs."""
    derived = []
    for span in spans:
        if span.label == "SPELLED_NAME" and (word := spelled_word(span.text)):
            derived.append(Candidate(span.start, span.end, "PERSON", word, span.sources, span.score, "spelled"))
    return derived


def _dominant_labels(spans: list[Candidate]) -> dict[str, str]:
    """For each surface form (lower case), the label it carries most in the document.

    A form is only propagated under that label: spaCy calling one "Marcus Delgado" a
    place must not spread LOCATION over the two other times he is a PERSON."""
    weights: dict[str, dict[str, float]] = {}
    for span in spans:
        for form in _forms(span):
            per_label = weights.setdefault(form.lower(), {})
            per_label[span.label] = per_label.get(span.label, 0.0) + span.score
    return {form: max(per_label, key=per_label.__getitem__) for form, per_label in weights.items()}


def propagate(text: str, spans: list[Candidate]) -> list[Candidate]:
    """New candidates for uncovered occurrences of the given spans' surface forms."""
    dominant = _dominant_labels(spans)
    # An occurrence under a span of the same label is already found. One under a
    # different label is proposed anyway: the ensemble then weighs "Delgado" as a
    # propagated PERSON against spaCy's lone guess that it is a place.
    covered = {label: [(s.start, s.end) for s in spans if s.label == label] for label in PROPAGATED_LABELS}
    found: list[Candidate] = []
    seen: set[tuple[str, str]] = set()
    for span in [*spans, *_as_person(spans)]:
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
                if any(start < e and s < end for s, e in covered[span.label]):
                    continue
                found.append(
                    Candidate(start, end, span.label, text[start:end], (SOURCE,), SCORE, f"propagation:{span.label}")
                )
                covered[span.label].append((start, end))
    return found
