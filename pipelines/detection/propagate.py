"""Propagation: a name found once is a name everywhere in the document.

Every detected PERSON (whole and by part), ORGANIZATION, LOCATION and ID is searched for at
all its other occurrences; uncovered ones become candidates from the source
"propagation". Matching is exact, all-capitals, or title case for a name found in
capitals (transcripts print speaker names in capitals), and word-bounded.
"""

import re
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterator
from functools import lru_cache

from spacy.lang.en.stop_words import STOP_WORDS

from pipelines.candidate import Candidate
from pipelines.detection import places
from pipelines.gazetteers import is_known_name
from pipelines.lexicons import PLACE_WORDS, ROLE_WORDS

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
                and (part.lower() not in PLACE_WORDS or is_known_name(part))  # Wood, Hall, Park
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


class _Disjoint:
    """Sorted, non-overlapping intervals with overlap and containment tests by
    bisection: a long transcript has thousands of spans and of occurrences, and a
    scan of every span per occurrence was quadratic."""

    def __init__(self, intervals: list[tuple[int, int]]) -> None:
        ordered = sorted(intervals)
        self.starts = [s for s, _ in ordered]
        self.ends = [e for _, e in ordered]

    def overlaps(self, start: int, end: int) -> bool:
        # Disjoint and sorted, so ends are sorted too: only the last interval
        # starting before `end` can reach past `start`.
        i = bisect_left(self.starts, end)
        return i > 0 and self.ends[i - 1] > start

    def inside_longer(self, start: int, end: int) -> bool:
        i = bisect_right(self.starts, start) - 1
        return i >= 0 and self.ends[i] >= end and self.ends[i] - self.starts[i] > end - start

    def end_of_interval_at(self, position: int) -> int | None:
        """The end of the interval holding `position`, if one does."""
        i = bisect_right(self.starts, position) - 1
        return self.ends[i] if i >= 0 and self.ends[i] > position else None

    def add(self, start: int, end: int) -> None:
        i = bisect_left(self.starts, start)
        self.starts.insert(i, start)
        self.ends.insert(i, end)


def _body(form: str) -> str:
    # A multi-word name may be broken across a line end ("Marcus\nDelgado").
    return r"\s+".join(re.escape(word) for word in form.split())


@lru_cache(maxsize=4096)
def _form_pattern(form: str, flags: int) -> re.Pattern[str]:
    return re.compile(r"(?<!\w)" + _body(form) + r"(?!\w)", flags)


def _occurrences(
    text: str, forms: list[str], covered: _Disjoint, blocked: Callable[[int, int], bool], flags: int = 0
) -> Iterator[tuple[int, int]]:
    """Unblocked occurrences of any form, left to right, the longest form at each
    position: the whole name claims an occurrence before its parts do. One regex
    scans for all forms; where its longest match is blocked, the shorter forms are
    tried at the same position, then the scan moves on by one. A match starting
    inside a `covered` span (most are: the spans themselves) skips past that span,
    since every form starting there overlaps it."""
    ordered = sorted(dict.fromkeys(forms), key=len, reverse=True)
    pattern = re.compile(r"(?<!\w)(?:" + "|".join(_body(f) for f in ordered) + r")(?!\w)", flags)
    position = 0
    while match := pattern.search(text, position):
        start, end = match.span()
        if (skip_to := covered.end_of_interval_at(start)) is not None:
            position = skip_to
            continue
        if not blocked(start, end):
            yield start, end
            position = end
            continue
        shorter = (_form_pattern(f, flags).match(text, start) for f in ordered if len(f) < end - start)
        hit = next((m.span() for m in shorter if m and not blocked(*m.span())), None)
        if hit:
            yield hit
            position = hit[1]
        else:
            position = start + 1


def propagate(text: str, spans: list[Candidate]) -> list[Candidate]:
    """New candidates for uncovered occurrences of the given spans' surface forms.
    `spans` are the merge's output: sorted and non-overlapping."""
    dominant = _dominant_labels(spans)
    # An occurrence under a span of the same label is already found. One under a
    # different label is proposed anyway: the ensemble then weighs "Delgado" as a
    # propagated PERSON against spaCy's lone guess that it is a place.
    covered = {label: _Disjoint([(s.start, s.end) for s in spans if s.label == label]) for label in PROPAGATED_LABELS}
    # An occurrence inside a longer span of any label is part of that name: "WOOD"
    # (ORGANIZATION elsewhere) must not split "JAMES WOOD".
    extents = _Disjoint([(s.start, s.end) for s in spans])
    forms: dict[str, list[str]] = {}
    for span in spans:
        if span.label in PROPAGATED_LABELS:
            for form in _forms(span):
                if form.strip() and dominant.get(form.lower(), span.label) == span.label:
                    forms.setdefault(span.label, []).append(form)
    found: list[Candidate] = []
    for label in sorted(forms):

        def blocked(start: int, end: int, label: str = label) -> bool:
            return covered[label].overlaps(start, end) or extents.inside_longer(start, end)

        for start, end in _occurrences(text, forms[label], covered[label], blocked):
            found.append(Candidate(start, end, label, text[start:end], (SOURCE,), SCORE, f"propagation:{label}"))
            covered[label].add(start, end)
    # A spelled name links back to the name it spells: "R-U-F-F" makes "Ruff" (in
    # any case: "McDonald" is spelled M-C-D-O-N-A-L-D) a PERSON wherever it occurs.
    spelled = {
        word.lower()
        for span in spans
        if span.label == "SPELLED_NAME"
        for word in spelled_words(span.text)
        if dominant.get(word.lower(), "PERSON") == "PERSON"
    }
    if spelled:
        person = covered["PERSON"]
        for start, end in _occurrences(text, sorted(spelled), person, person.overlaps, re.IGNORECASE):
            found.append(Candidate(start, end, "PERSON", text[start:end], (SOURCE,), SCORE, "propagation:spelled"))
            covered["PERSON"].add(start, end)
    return sorted(found, key=lambda c: (c.start, c.end))
