"""The leak search: where an accepted name survives in a string. The gate that
decides from it whether an export may be written is `pipelines.export.gate`.

"The same name" is the name identity's (`pipelines.names`), the one propagation
and apply-to-all use: case variants under its case policy, possessives, name
parts, joined, hyphenated, line-broken, spelled and spaced forms. A one-word name
that is also a common word is a leak in capitals or title case ("Hope", "HOPE"),
not as the word ("I hope"), unless a name context says so ("Mr. hope").

A `Leak` carries labels and offsets only, never the original text, so it can be
logged and shown safely.
"""

from bisect import bisect_right
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from pipelines.candidate import Candidate
from pipelines.names import NameIdentity, NameWords, form_key

TEXT = "text"
MEMBER = "member"
MANIFEST = "manifest"


@dataclass(frozen=True, slots=True)
class Leak:
    label: str
    # Offsets in the original text: of the residual occurrence itself when it was
    # found in the document's text, else of the accepted span whose name it is.
    span_start: int
    span_end: int
    # Where in the output (the text, the member name, the manifest) it was found.
    output_offset: int
    where: str = TEXT


def identity_of(
    spans: Iterable[Candidate], words: NameWords | None = None
) -> tuple[NameIdentity, dict[str, Candidate]]:
    """The identity of the spans' names, and for each name (its key) the first
    span that carries it. `words`: the document's language's (English by default)."""
    spans = sorted(spans, key=lambda s: (s.start, s.end))
    first: dict[str, Candidate] = {}
    for span in spans:
        first.setdefault(form_key(span.text, span.label, words), span)
    return NameIdentity.from_spans(spans, words), first


class Regions:
    """Sorted disjoint regions of a text that a search skips: the output regions the
    export generated (never a leak), or the spans already taken (never completed)."""

    def __init__(self, regions: Sequence[tuple[int, int]]) -> None:
        ordered = sorted(regions)
        self.starts = [s for s, _ in ordered]
        self.ends = [e for _, e in ordered]

    def overlaps(self, start: int, end: int) -> bool:
        i = bisect_right(self.starts, end - 1)
        return i > 0 and self.ends[i - 1] > start

    def end_at(self, position: int) -> int | None:
        i = bisect_right(self.starts, position) - 1
        return self.ends[i] if i >= 0 and self.ends[i] > position else None


def residuals(
    output: str,
    identity: NameIdentity,
    first: dict[str, Candidate],
    generated: Sequence[tuple[int, int]] = (),
    where: str = TEXT,
) -> list[Leak]:
    """Every occurrence of a name of `identity` in `output`, outside `generated`."""
    regions = Regions(generated)
    leaks = []
    for occurrence in identity.find(output, regions.overlaps, regions.end_at):
        span = first.get(occurrence.key)
        start, end = (span.start, span.end) if span is not None else (-1, -1)
        leaks.append(Leak(occurrence.label, start, end, occurrence.start, where))
    return leaks


def find_leaks(output: str, spans: Iterable[Candidate], generated: Sequence[tuple[int, int]] = ()) -> list[Leak]:
    """The names of `spans` that survive in `output` (outside `generated`)."""
    identity, first = identity_of(spans)
    return residuals(output, identity, first, generated)
