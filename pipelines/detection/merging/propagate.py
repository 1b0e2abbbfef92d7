"""Propagation: a confident name found once is a name everywhere in the document.

Every confident PERSON (whole and by part), ORGANIZATION, LOCATION, ID and spelled
name is searched for at all its other occurrences through the name identity
(`pipelines.names`: case variants under its case policy, possessives, names
broken across a line, joined and spelled forms), the same identity that groups
apply-to-all and that the export's leak gate uses. Uncovered occurrences become
candidates from the source "propagation".

Only confident names spread (a wrong name spread is a wrong span at every
occurrence): one that comes from the transcript's header, that a cue or a
pattern backs, that two sources agree on, or that a reviewer accepted. A form
that is a closed-class word ("And", "We") or a common English word that is no
known name ("Correct") never spreads.
"""

from bisect import bisect_left, bisect_right

from pipelines.candidate import Candidate
from pipelines.detection import places
from pipelines.gazetteers import is_common_word, is_known_name, stop_words
from pipelines.lexicons import CLOSED_CLASS, PLACE_WORDS
from pipelines.names import NameIdentity, name_key, name_parts
from pipelines.names import spelled_words as _spelled_words

SOURCE = "propagation"
PROPAGATED_LABELS = frozenset({"PERSON", "ORGANIZATION", "LOCATION", "ID", "SPELLED_NAME"})
# A name already found in this document is strong evidence wherever it recurs:
# above a lone model guess of another label (spaCy scores 0.6), below cues.
SCORE = 0.8
# Sources that are evidence enough on their own: the header's own participant
# list, rules that read a cue or a pattern, and people (reviewers, the corpus
# admin's lists and regexes, and the corpus memory: names reviewers accepted in
# the corpus's approved documents).
CONFIDENT_SOURCES = frozenset({"header", "cues", "patterns", "human", "allow_list", "corpus", "corpus-memory"})
PEOPLE = frozenset({"human", "allow_list", "corpus-memory"})


def confident(span: Candidate, repeated: bool = False) -> bool:
    """Header, cue, pattern or person; two sources; the model's own finding at two
    places of the document (`repeated`); or a lexicon that agrees with the model:
    a person's name whose every part the name lists (Faker's, in any case) know
    (the gazetteer's vote, also for names in capitals, "JAMES WOOD", and surnames
    it cannot pair, "King White"), a known or place-shaped place, an
    organization word or type, or an acronym."""
    sources = set(span.sources) - {SOURCE}
    if sources & CONFIDENT_SOURCES or len(sources) >= 2 or repeated:
        return True
    if span.label == "LOCATION":  # the place lexicons agree
        return places.is_known_place(span.text) or places.is_place_shaped(span.text)
    if span.label == "ORGANIZATION":  # "… Police Department", "… State Prison", "CDCR"
        return organization_signal(span.text)
    if span.label != "PERSON":
        return False
    parts = name_parts(span.text, span.label)
    if len(parts) == 1:
        return is_known_name(parts[0])
    # Several capitalized words, one of them a known name: "Big Mike", not "Rigor mortis".
    words = span.text.split()
    return any(is_known_name(p) for p in parts) and all(w[:1].isupper() for w in words)


def organization_signal(text: str) -> bool:
    return places.organization_signal(text, is_known_name, is_common_word)


def spelled_words(text: str) -> list[str]:
    """ "R-U-F-F" → ["RUFF"]; "J-O-H-N S-M-I-T-H" → ["JOHN", "SMITH"]: the words a
    spelled name spells (letters joined by hyphens, words apart by spaces)."""
    return [w.upper() for w in _spelled_words(text) if len(w) >= 3]


def _spreadable(text: str, cued: bool = False) -> bool:
    """A form worth spreading: never a closed-class word ("And", "We", "Correct");
    for a model's guess, also no other stop word and no common word that is no
    known name ("Weather"), nor a word that names a place or an institution unless
    it is also a name ("Facility" of a misread institution; but "Wood", "Hall").
    A cue's or the header's name may be a stop word ("called him Will")."""
    words = [w for w in text.replace("-", " ").split() if w]
    if not words:
        return False
    if len(words) > 1:
        return True
    word = words[0].strip(".,'’:").lower()
    if word in CLOSED_CLASS:
        return False
    if cued:
        return True
    if word in stop_words():
        return False
    if is_common_word(word) and not is_known_name(word) and not places.is_known_place(word):
        return False
    return not ((places.has_institution_word(word) or word in PLACE_WORDS) and not is_known_name(word))


def _forms(span: Candidate) -> list[str]:
    """The span's text and, for a person, its name parts (keys of `_dominant_labels`)."""
    return [span.text, *name_parts(span.text, span.label)]


def _dominant_labels(spans: list[Candidate]) -> dict[str, str]:
    """For each name (its key), the label it carries most in the document.

    A form is only propagated under that label: spaCy calling one "Marcus Delgado" a
    place must not spread LOCATION over the two other times he is a PERSON."""
    weights: dict[str, dict[str, float]] = {}
    for span in spans:
        label = "PERSON" if span.label == "SPELLED_NAME" else span.label
        for form in _forms(span):
            per_label = weights.setdefault(name_key(form), {})
            per_label[label] = per_label.get(label, 0.0) + span.score
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


def propagate(text: str, spans: list[Candidate]) -> list[Candidate]:
    """New candidates for uncovered occurrences of the confident spans' names.
    `spans` are the merge's output: sorted and non-overlapping."""
    dominant = _dominant_labels(spans)
    # An occurrence under a span of the same label is already found. One under a
    # different label is proposed anyway: the ensemble then weighs "Delgado" as a
    # propagated PERSON against spaCy's lone guess that it is a place.
    covered = {label: _Disjoint([(s.start, s.end) for s in spans if s.label == label]) for label in PROPAGATED_LABELS}
    # An occurrence inside a longer span of any label is part of that name: "WOOD"
    # (ORGANIZATION elsewhere) must not split "JAMES WOOD".
    extents = _Disjoint([(s.start, s.end) for s in spans])
    forms: dict[str, list[tuple[str, str]]] = {}
    # The model's findings of one name at several places agree with each other.
    found_at: dict[tuple[str, str], int] = {}
    for span in spans:
        if SOURCE not in span.sources or len(span.sources) > 1:
            key = (span.label, name_key(span.text, span.label))
            found_at[key] = found_at.get(key, 0) + 1
    for span in spans:
        repeated = found_at.get((span.label, name_key(span.text, span.label)), 0) >= 2
        if span.label not in PROPAGATED_LABELS or not confident(span, repeated):
            continue
        label = "PERSON" if span.label == "SPELLED_NAME" else span.label
        if span.label == "SPELLED_NAME":
            # A spelled name links back to the name it spells: "R-U-F-F" makes "Ruff"
            # (in any case: "McDonald" is spelled M-C-D-O-N-A-L-D) a PERSON.
            words = [w for w in spelled_words(span.text) if dominant.get(name_key(w), "PERSON") == "PERSON"]
            forms.setdefault("PERSON", []).extend((w.lower(), "PERSON") for w in words)
            continue
        # What a person decided spreads as the identity says; a machine's guess only
        # when it is no closed-class or common word.
        decided = bool(set(span.sources) & PEOPLE)
        cued = bool(set(span.sources) & CONFIDENT_SOURCES)
        if not (decided or _spreadable(span.text, cued)) or dominant.get(name_key(span.text), label) != label:
            # The whole form does not spread; a person's parts still may ("Judge Smith").
            if label != "PERSON":
                continue
        else:
            forms.setdefault(label, []).append((span.text, span.label))
        if label == "PERSON":
            for part in name_parts(span.text):
                if (decided or _spreadable(part, cued)) and dominant.get(name_key(part), label) == label:
                    forms.setdefault(label, []).append((part, "PERSON"))
    found: list[Candidate] = []
    for label in sorted(forms):
        identity = NameIdentity(forms[label])

        def blocked(start: int, end: int, label: str = label) -> bool:
            return covered[label].overlaps(start, end) or extents.inside_longer(start, end)

        for occurrence in identity.find(text, blocked, covered[label].end_of_interval_at):
            start, end = occurrence.start, occurrence.end
            if occurrence.kind == "spelled" and extents.overlaps(start, end):
                continue  # the spelling itself, already a span
            found_label = label if occurrence.kind != "spelled" else "SPELLED_NAME"
            found.append(Candidate(start, end, found_label, text[start:end], (SOURCE,), SCORE, f"propagation:{label}"))
            covered[label].add(start, end)
    return sorted(found, key=lambda c: (c.start, c.end))
