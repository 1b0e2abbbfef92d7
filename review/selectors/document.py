"""Reads for the review page: the text cut into segments, the legend, the side
panel's entity groups and filters, the preview."""

import bisect
import functools
import json
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import NamedTuple

from django.db import connection
from django.db.models import TextField
from django.db.models.functions import Cast

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
    # The printed lines that start inside a span or a muted candidate (a name a
    # line broke, "Bob⏎McCulloch"): (offset, (page, line)) each, so that the
    # line keeps its gutter number and its #L anchor inside the mark.
    inner_lines: tuple[tuple[int, tuple[int, int]], ...] = ()


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


class SpanRow(NamedTuple):
    """A span as the review page reads it, without a model instance: on a
    500-page transcript (7,500 spans) the instances cost ~150 ms of the page and
    of each decision, the rows ~15 ms. The attributes are the model's, so the
    selectors and the services' planning helpers (siblings, link_choices) take
    either. A tuple of plain values, which the garbage collector stops tracking:
    7,500 tracked objects per request made its full collections cost more than
    the rest of a decision."""

    pk: int
    start: int
    end: int
    text: str
    label: str
    status: str
    entity: str
    version: int
    score: float
    sources: tuple[str, ...]
    reject_reason: str
    rule: str
    created_by_id: int | None


# The columns of a row, in SpanRow's order after `pk`; `sources` is read as its
# JSON text and parsed once per distinct value (a document has a few dozen),
# not once per span through the JSON field (~5 µs a row).
_ROW_COLUMNS = (
    "start",
    "end",
    "text",
    "label",
    "status",
    "entity",
    "version",
    "score",
    "raw_sources",
    "reject_reason",
    "rule",
    "created_by_id",
)


@functools.lru_cache(maxsize=1024)
def _sources(raw: str | list | None) -> tuple[str, ...]:
    return tuple(json.loads(raw)) if raw else ()


def span_rows(document_id: int) -> list[SpanRow]:
    """The document's spans in text order, as rows (one query)."""
    rows = (
        Span.objects.filter(document_id=document_id)
        .order_by("start", "end")
        .annotate(raw_sources=Cast("sources", TextField()))
        .values_list("id", *_ROW_COLUMNS)
    )
    return [SpanRow(*row[:9], _sources(row[9]), *row[10:]) for row in rows]


class PanelRow(NamedTuple):
    """What the span panel reads of the document's other spans: apply-to-all's
    count of pending occurrences and the entities to link to (siblings,
    link_choices). Seven columns read in ~10 ms for 7,500 spans."""

    pk: int
    start: int
    end: int
    text: str
    label: str
    status: str
    entity: str


def panel_rows(document_id: int) -> list[PanelRow]:
    """The document's spans in text order, as the panel reads them (one query)."""
    rows = Span.objects.filter(document_id=document_id).order_by("start", "end")
    return list(map(PanelRow._make, rows.values_list("id", "start", "end", "text", "label", "status", "entity")))


def as_spans(document: Document, rows: list[SpanRow]) -> list[Span]:
    """Model instances of some rows, without a query: what the services plan and
    write from (their versions are the rows', so the write is as conditional as
    with instances read by the ORM). The time stamps are deferred, as with
    `.defer()`: nothing here reads them."""
    fields = [f.attname for f in Span._meta.concrete_fields if f.attname not in ("created_at", "updated_at")]
    spans = []
    for row in rows:
        values = {name: getattr(row, name, None) for name in fields}
        values.update(id=row.pk, document_id=document.pk, sources=list(row.sources))
        span = Span.from_db(connection.alias, fields, [values[name] for name in fields])
        span.document = document
        spans.append(span)
    return spans


def name_group(rows: list[SpanRow], span: Span, text: str, words: NameWords | None = None) -> list[SpanRow]:
    """The rows a decision on `span` plans from: the occurrences of its name
    (the name identity's key in the corpus language's `words`, any status:
    apply-to-all's candidates) and every row over their text (relabelling checks
    the new label is free there)."""
    key = same_name_key(span, text, words)
    named = [r for r in rows if r.pk == span.pk or same_name_key(r, text, words) == key]
    taken = _Taken(named)
    return [r for r in rows if r.pk == span.pk or taken.touches(r.start, r.end)]


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
    where a printed line starts, so the gutter can show page and line; a line
    that starts inside a span or a candidate is in its segment's `inner_lines`.
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

    def inside(start: int, end: int) -> tuple[tuple[int, tuple[int, int]], ...]:
        i = bisect.bisect_right(cuts, start)
        j = bisect.bisect_left(cuts, end, lo=i)
        return tuple((at, lines[at]) for at in cuts[i:j])

    cursor = 0
    items: list[Span | Muted] = sorted([*shown, *shown_muted], key=lambda item: item.start)
    for item in items:
        if item.start < cursor:  # defensive: never render text twice
            continue
        if item.start > cursor:
            plain(cursor, item.start)
        piece = text[item.start : item.end]
        line, inner = lines.get(item.start), inside(item.start, item.end)
        if isinstance(item, Muted):
            result.append(Segment(item.start, piece, line=line, muted=item, inner_lines=inner))
        else:
            result.append(Segment(item.start, piece, item, line=line, inner_lines=inner))
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


def tally(spans: list) -> Counter:
    """(label, status) → number of spans: what the legend and the counts are made of."""
    return Counter((s.label, s.status) for s in spans)


def legend(spans: list[Span], counted: Counter | None = None) -> list[LegendRow]:
    """`counted`: the spans' `tally`, when the caller has it."""
    counted = tally(spans) if counted is None else counted
    totals, pending = Counter(), Counter()
    for (label, status), n in counted.items():
        if status != SpanStatus.REJECTED:
            totals[label] += n
        if status == SpanStatus.PENDING:
            pending[label] += n
    labels = [*CANONICAL_LABELS, *sorted(set(totals) - set(CANONICAL_LABELS))]
    return [LegendRow(lb, label_colour(lb), totals.get(lb, 0), pending.get(lb, 0)) for lb in labels]


def status_counts(spans: list[Span], counted: Counter | None = None) -> dict[str, int]:
    counted = tally(spans) if counted is None else counted
    counts = Counter()
    for (_label, status), n in counted.items():
        counts[status] += n
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


class LineIndex:
    """`line_starts(text, layout).get(offset)`, for the few offsets a decision's
    answer places (its entities' occurrences), without building the map of
    every line (25 ms on a 500-page transcript). The layout is searched as
    stored when it is in order, as extraction writes it."""

    def __init__(self, text: str, layout: list) -> None:
        self.text = text
        self.entries = layout or []
        if any(a > b for a, b in zip(self.entries, self.entries[1:], strict=False)):
            self.entries = sorted([int(v) for v in e[:4]] for e in self.entries)

    def __bool__(self) -> bool:
        return bool(self.entries)

    def get(self, offset: int, default: tuple[int, int] | None = None) -> tuple[int, int] | None:
        if not 0 <= offset < len(self.text) or (offset and self.text[offset - 1] != "\n"):
            return default  # only a line's first character is a key
        i = bisect.bisect_right(self.entries, offset, key=lambda e: int(e[0])) - 1
        if i >= 0 and int(self.entries[i][0]) <= offset < int(self.entries[i][1]):
            return (int(self.entries[i][2]), int(self.entries[i][3]))
        return default


class Places:
    """Offset → "p<page>:<line>" from the layout's line starts (`line_starts`),
    else the text's own line number."""

    def __init__(self, text: str, lines: "dict[int, tuple[int, int]] | LineIndex | None") -> None:
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


def marks_in_place(changed: list[Span], read: list[SpanRow]) -> bool:
    """Can the changed spans' marks be swapped in one by one? Yes when no other
    span overlaps any of them (`read`: the rows planned from, which hold every
    row over their text): then each stays shown, where it was, whatever its new
    status. Else which of two overlapping spans the text shows may change, and
    the transcript is rendered again."""
    changed_pks = {s.pk for s in changed}
    others = _Taken([r for r in read if r.pk not in changed_pks])
    return not any(others.touches(s.start, s.end) for s in changed)


def _pending_count(rows: list, label: str, filters: Filters) -> int:
    return sum(1 for r in rows if r.label == label and r.status == SpanStatus.PENDING and filters.keep(r))


@dataclass
class InPlaceUpdate:
    """What an accept, reject or relabel changes on the page besides the marks:
    the legend and counts, and either the side panel's entities holding a
    changed span (with their group's pending count: `group_actions`, label → n),
    or, when the grouping itself may change (a relabel, or the "pending only"
    filter), the whole entity list (`groups`)."""

    legend: list[LegendRow]
    counts: dict[str, int]
    entity_updates: list[tuple[LabelGroup, Entity]] = field(default_factory=list)
    group_actions: list[tuple[str, int]] = field(default_factory=list)
    groups: list[LabelGroup] | None = None


def in_place_update(
    before: list[SpanRow],
    changed: list[Span],
    filters: Filters,
    text: str,
    lines: "dict[int, tuple[int, int]] | LineIndex",
    *,
    regroup: bool,
    words: NameWords | None = None,
) -> tuple[list, InPlaceUpdate]:
    """The document's rows after the decision (`before` with the `changed`
    spans in their place) and what to swap in (see InPlaceUpdate)."""
    by_pk = {s.pk: s for s in changed}
    after = [by_pk.get(r.pk, r) for r in before]
    counted = tally(after)
    update = InPlaceUpdate(legend(after, counted), status_counts(after, counted))
    if regroup or filters.pending:
        update.groups = entity_groups(after, filters, text, lines, words)
        return after, update
    affected = {(s.label, same_name_key(s, text, words)) for s in changed if filters.keep(s)}
    labels = {label for label, _ in affected}
    touched = [r for r in after if r.label in labels and (r.label, same_name_key(r, text, words)) in affected]
    # The counts before, from those after and what changed (no other pass).
    counted_before = counted.copy()
    for row in before:
        if row.pk in by_pk:
            counted_before[(by_pk[row.pk].label, by_pk[row.pk].status)] -= 1
            counted_before[(row.label, row.status)] += 1
    unfiltered = filters == Filters()
    for group in entity_groups(touched, filters, text, lines, words):
        update.entity_updates += [(group, entity) for entity in group.entities]
        key = (group.label, SpanStatus.PENDING)
        was = counted_before[key] if unfiltered else _pending_count(before, group.label, filters)
        if was:  # the group's actions are on the page: update or remove them
            now = counted[key] if unfiltered else _pending_count(after, group.label, filters)
            update.group_actions.append((group.label, now))
    return after, update


def bulk_count(
    document: Document,
    *,
    label: str = "",
    source: str = "",
    score_min: float | None = None,
    score_max: float | None = None,
) -> int:
    """How many spans `bulk_candidates` (review.services.decisions) would decide,
    without reading them: the bulk form shows it after every decision. Counted
    in SQL; only a source filter reads the `sources` of the pending spans (a
    JSON list, whose containment lookups are not portable to SQLite)."""
    pending = Span.objects.filter(document=document, status=SpanStatus.PENDING)
    if label:
        pending = pending.filter(label=label)
    if score_min is not None:
        pending = pending.filter(score__gte=score_min)
    if score_max is not None:
        pending = pending.filter(score__lt=score_max)
    if not source:
        return pending.count()
    raw = pending.annotate(raw_sources=Cast("sources", TextField())).values_list("raw_sources", flat=True)
    return sum(1 for value in raw if source in _sources(value))


def accepted_spans(document: Document) -> list[Span]:
    return list(Span.objects.filter(document=document, status=SpanStatus.ACCEPTED).order_by("start"))
