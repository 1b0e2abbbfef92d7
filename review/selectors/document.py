"""Reads for the review page: the text cut into segments, the legend, the side
panel's entity groups and filters, the preview."""

import bisect
import re
from collections import Counter
from dataclasses import dataclass, field

from ingestion.models import Document
from pipelines.labels import CANONICAL_LABELS, label_colour
from pipelines.names import NameWords
from pipelines.pseudonymize.engine import pseudonymize
from review.models import Span, SpanStatus
from review.services.spans import to_candidate
from review.text import same_name_key


@dataclass(frozen=True)
class Muted:
    """A candidate a filter dropped that names something identifying: shown muted
    in the text with the filter's reason, so a reviewer can take it with one key
    ("I'm 40 -- 42" dropped as no calendar date, "St. Louis Delivery Service"
    dropped for crossing a line)."""

    start: int
    end: int
    label: str
    reason: str


@dataclass(frozen=True)
class Segment:
    start: int
    text: str
    span: Span | None = None
    # (page, line) where the text line starting here was printed (layout map).
    line: tuple[int, int] | None = None
    muted: Muted | None = None


# The identifying categories a dropped candidate is shown for (names, ages, dates,
# places, organizations, identifiers); what the filters drop of other labels
# (a time word, a duration) stays on the history page only.
MUTED_LABELS = frozenset({"PERSON", "SPELLED_NAME", "AGE", "DATE", "LOCATION", "ORGANIZATION", "ID"})


# What the corpus itself decided against stays hidden: its deny list, what its
# reviewers rejected (the memory's suppressions) and its vote.
_NOT_SHOWN_REASONS = ("deny list", "corpus-suppression", "fewer than")


def muted_candidates(document: Document, spans: list[Span], limit: int) -> list[Muted]:
    """The filtered candidates of the last machine pass in the identifying
    categories (one query) that no span touches, one per stretch of text, at most
    `limit` (REVIEW_MUTED_MAX), in text order. Those the corpus's own deny list,
    memory or vote dropped are not shown."""
    from review.models import DocumentDetection

    filtered = DocumentDetection.objects.filter(document_id=document.pk).values_list("filtered", flat=True).first()
    taken = _Taken(spans)
    muted: list[Muted] = []
    seen: set[tuple[int, int]] = set()
    for start, end, label, _sources, reason in filtered or []:
        if len(muted) >= limit:
            break
        start, end = int(start), int(end)
        if label not in MUTED_LABELS or (start, end) in seen or reason.startswith(_NOT_SHOWN_REASONS):
            continue
        if not document.text[start:end].strip() or taken.touches(start, end):
            continue
        seen.add((start, end))
        muted.append(Muted(start, end, label, reason))
    return muted


class _Taken:
    """Does any span (of any status) touch [a, b)? With the spans sorted by start,
    one does iff the largest end among those starting before b is past a."""

    def __init__(self, spans: list[Span]) -> None:
        taken = sorted((s.start, s.end) for s in spans)
        self.starts = [a for a, _ in taken]
        self.reach: list[int] = []
        for _a, b in taken:
            self.reach.append(max(b, self.reach[-1]) if self.reach else b)

    def touches(self, start: int, end: int) -> bool:
        i = bisect.bisect_left(self.starts, end)
        return i > 0 and self.reach[i - 1] > start


def document_spans(document: Document) -> list[Span]:
    return list(Span.objects.filter(document=document).order_by("start", "end"))


def line_starts(text: str, layout: list) -> dict[int, tuple[int, int]]:
    """Offset of each text line's first character → the (page, line) it was
    printed on, from the layout map. Empty when the document has no layout."""
    if not layout:
        return {}
    entries = sorted((int(e[0]), int(e[1]), int(e[2]), int(e[3])) for e in layout)
    entry_starts = [e[0] for e in entries]
    result = {}
    offset = 0
    while offset < len(text):
        i = bisect.bisect_right(entry_starts, offset) - 1
        if i >= 0 and entries[i][0] <= offset < entries[i][1]:
            result[offset] = (entries[i][2], entries[i][3])
        newline = text.find("\n", offset)
        if newline < 0:
            break
        offset = newline + 1
    return result


def segments(
    text: str,
    spans: list[Span],
    lines: dict[int, tuple[int, int]] | None = None,
    muted: list[Muted] | None = None,
) -> list[Segment]:
    """The text cut into plain runs and highlighted spans, in one pass.

    Live spans (pending, accepted) never overlap; a rejected span is shown only
    where no live span covers its text, so a superseded suggestion stays visible
    without hiding the decision that replaced it; a muted (filtered) candidate
    only where no span at all touches it. With `lines`, plain runs are also cut
    where a printed line starts, so the gutter can show page and line.
    """
    shown = sorted((s for s in spans if s.status != SpanStatus.REJECTED), key=lambda s: s.start)
    # Shown spans never overlap, so sorted by start they are sorted by end too:
    # a rejected span overlaps one iff it overlaps the last one starting before its end.
    starts, ends = [s.start for s in shown], [s.end for s in shown]
    for rejected in sorted((s for s in spans if s.status == SpanStatus.REJECTED), key=lambda s: s.start):
        i = bisect.bisect_left(starts, rejected.end)
        if i > 0 and ends[i - 1] > rejected.start:
            continue
        starts.insert(i, rejected.start)
        ends.insert(i, rejected.end)
        shown.insert(i, rejected)
    taken = _Taken(spans)
    shown_muted = [m for m in sorted(muted or [], key=lambda m: m.start) if not taken.touches(m.start, m.end)]
    lines = lines or {}
    cuts = sorted(lines)
    result: list[Segment] = []

    def plain(start: int, end: int) -> None:
        i = bisect.bisect_left(cuts, start)
        while start < end:
            nxt = cuts[i] if i < len(cuts) else end
            if nxt <= start:
                i += 1
                continue
            stop = min(nxt, end)
            result.append(Segment(start, text[start:stop], line=lines.get(start)))
            start = stop

    cursor = 0
    items: list[Span | Muted] = sorted([*shown, *shown_muted], key=lambda item: item.start)
    for item in items:
        if item.start < cursor:  # defensive: never render text twice
            continue
        if item.start > cursor:
            plain(cursor, item.start)
        piece = text[item.start : item.end]
        if isinstance(item, Muted):
            result.append(Segment(item.start, piece, line=lines.get(item.start), muted=item))
        else:
            result.append(Segment(item.start, piece, item, line=lines.get(item.start)))
        cursor = item.end
    if cursor < len(text):
        plain(cursor, len(text))
    return result


@dataclass(frozen=True)
class LegendRow:
    label: str
    colour: str
    total: int
    pending: int


def legend(spans: list[Span]) -> list[LegendRow]:
    totals = Counter(s.label for s in spans if s.status != SpanStatus.REJECTED)
    pending = Counter(s.label for s in spans if s.status == SpanStatus.PENDING)
    labels = [*CANONICAL_LABELS, *sorted(set(totals) - set(CANONICAL_LABELS))]
    return [LegendRow(lb, label_colour(lb), totals.get(lb, 0), pending.get(lb, 0)) for lb in labels]


def status_counts(spans: list[Span]) -> dict[str, int]:
    counts = Counter(s.status for s in spans)
    return {status: counts.get(status, 0) for status in SpanStatus.values}


@dataclass(frozen=True)
class Filters:
    """Side panel filters, from the page's query string."""

    pending: bool = False
    label: str = ""
    source: str = ""
    below: float | None = None
    single: bool = False

    @classmethod
    def from_query(cls, query) -> "Filters":
        try:
            below = float(query["below"]) if query.get("below") else None
        except ValueError:
            below = None
        return cls(
            pending=query.get("pending") == "on",
            label=query.get("label", "").strip().upper(),
            source=query.get("source", "").strip(),
            below=below,
            single=query.get("single") == "on",
        )

    def keep(self, span: Span) -> bool:
        return (
            (not self.pending or span.status == SpanStatus.PENDING)
            and (not self.label or span.label == self.label)
            and (not self.source or self.source in span.sources)
            and (self.below is None or span.score < self.below)
            and (not self.single or len(span.sources) == 1)
        )


@dataclass
class Entity:
    """All occurrences of one text under one label."""

    text: str
    spans: list[Span]
    # Where each span is, as a reviewer reads it: "p3:12" (printed page and
    # line, from the layout map) or "line 12" (the text's, without one).
    places: list[str] = field(default_factory=list)

    @property
    def counts(self) -> dict[str, int]:
        counts = Counter(s.status for s in self.spans)
        return {status: counts.get(status, 0) for status in SpanStatus.values}

    @property
    def pending(self) -> list[Span]:
        return [s for s in self.spans if s.status == SpanStatus.PENDING]

    @property
    def occurrences(self) -> list[tuple[Span, str]]:
        return list(zip(self.spans, self.places, strict=True))


@dataclass
class LabelGroup:
    label: str
    colour: str
    entities: list[Entity]

    @property
    def total(self) -> int:
        return sum(len(e.spans) for e in self.entities)

    @property
    def pending(self) -> list[Span]:
        return [s for e in self.entities for s in e.pending]


class Places:
    """Offset → "p<page>:<line>" from the layout's line starts (`line_starts`),
    else the text's own line number."""

    def __init__(self, text: str, lines: dict[int, tuple[int, int]] | None) -> None:
        self.text = text
        self.lines = lines or {}
        self._newlines: list[int] | None = None

    def __call__(self, offset: int) -> str:
        line_start = self.text.rfind("\n", 0, offset) + 1
        printed = self.lines.get(line_start)
        if printed:
            return f"p{printed[0]}:{printed[1]}"
        if self._newlines is None:
            self._newlines = [m.start() for m in re.finditer("\n", self.text)]
        return f"line {bisect.bisect_left(self._newlines, offset) + 1}"


def entity_groups(
    spans: list[Span],
    filters: Filters,
    text: str | None = None,
    lines: dict[int, tuple[int, int]] | None = None,
    words: NameWords | None = None,
) -> list[LabelGroup]:
    """Label → entity (the same name, as the name identity keys it: "Young" and
    "YOUNG" together, the adjective "young" apart) → occurrences, from the page's
    one span query. Entities are sorted by their number of occurrences, most first.
    `text` is the document's (a lower-case word's context); with it, each
    occurrence gets its place (page:line with `lines`, see `line_starts`).
    `words`: the corpus language's name words (review.text.words_of; English by default)."""
    by_label: dict[str, dict[str, Entity]] = {}
    place = Places(text, lines) if text is not None else None
    for span in spans:
        if not filters.keep(span):
            continue
        entities = by_label.setdefault(span.label, {})
        key = same_name_key(span, text, words)
        if key not in entities:
            entities[key] = Entity(span.text, [])
        entities[key].spans.append(span)
        entities[key].places.append(place(span.start) if place else f"@{span.start}")
    order = {label: i for i, label in enumerate(CANONICAL_LABELS)}
    return [
        LabelGroup(label, label_colour(label), sorted(entities.values(), key=lambda e: (-len(e.spans), e.text)))
        for label, entities in sorted(by_label.items(), key=lambda kv: (order.get(kv[0], len(order)), kv[0]))
    ]


def group_targets(groups: list[LabelGroup], *, label: str, span_id: int | None) -> list[Span]:
    """The pending spans a side-panel group action decides, as the panel shows
    them (its filters applied): the entity holding span `span_id`, or, without
    one, the whole label group. Empty when the group is gone."""
    group = next((g for g in groups if g.label == label), None)
    if group is None:
        return []
    if span_id is None:
        return group.pending
    entity = next((e for e in group.entities if any(s.pk == span_id for s in e.spans)), None)
    return entity.pending if entity else []


def sources(spans: list[Span]) -> list[str]:
    return sorted({source for s in spans for source in s.sources})


def preview_text(text: str, spans: list[Span]) -> str:
    """The text as the export will write it with the current decisions: accepted
    spans only (pending ones stay as they are, like an export without
    --accept-pending)."""
    accepted = [to_candidate(s) for s in spans if s.status == SpanStatus.ACCEPTED]
    return pseudonymize(text, accepted).text


def panel_spans(document_id: int) -> list[Span]:
    """The document's spans, lightly: the panel counts pending occurrences and
    lists the other entities of the same label to link to."""
    return list(
        Span.objects.filter(document_id=document_id)
        .only("id", "text", "status", "label", "entity", "start", "end")
        .order_by("start")
    )


def accepted_spans(document: Document) -> list[Span]:
    return list(Span.objects.filter(document=document, status=SpanStatus.ACCEPTED).order_by("start"))
