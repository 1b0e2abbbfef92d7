"""Reads for the review page."""

import bisect
from collections import Counter
from dataclasses import dataclass

from django.db.models import Count, Max, OuterRef, Q, Subquery

from ingestion.models import Corpus, Document, DocumentStatus
from pipelines.candidate import Candidate
from pipelines.labels import CANONICAL_LABELS, label_colour
from pipelines.pseudonymize.engine import pseudonymize
from review.models import ReviewEvent, Span, SpanStatus
from review.services import normalize


@dataclass(frozen=True)
class Segment:
    start: int
    text: str
    span: Span | None = None
    # (page, line) where the text line starting here was printed (layout map).
    line: tuple[int, int] | None = None


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


def segments(text: str, spans: list[Span], lines: dict[int, tuple[int, int]] | None = None) -> list[Segment]:
    """The text cut into plain runs and highlighted spans, in one pass.

    Live spans (pending, accepted) never overlap; a rejected span is shown only
    where no live span covers its text, so a superseded suggestion stays visible
    without hiding the decision that replaced it. With `lines`, plain runs are
    also cut where a printed line starts, so the gutter can show page and line.
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
    for span in shown:
        if span.start < cursor:  # defensive: never render text twice
            continue
        if span.start > cursor:
            plain(cursor, span.start)
        result.append(Segment(span.start, text[span.start : span.end], span, line=lines.get(span.start)))
        cursor = span.end
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

    @property
    def counts(self) -> dict[str, int]:
        counts = Counter(s.status for s in self.spans)
        return {status: counts.get(status, 0) for status in SpanStatus.values}


@dataclass
class LabelGroup:
    label: str
    colour: str
    entities: list[Entity]

    @property
    def total(self) -> int:
        return sum(len(e.spans) for e in self.entities)


def entity_groups(spans: list[Span], filters: Filters) -> list[LabelGroup]:
    """Label → entity (same normalized text) → occurrences, from the page's one
    span query. Entities are sorted by their number of occurrences, most first."""
    by_label: dict[str, dict[str, Entity]] = {}
    for span in spans:
        if not filters.keep(span):
            continue
        entities = by_label.setdefault(span.label, {})
        key = normalize(span.text)
        if key not in entities:
            entities[key] = Entity(span.text, [])
        entities[key].spans.append(span)
    order = {label: i for i, label in enumerate(CANONICAL_LABELS)}
    return [
        LabelGroup(label, label_colour(label), sorted(entities.values(), key=lambda e: (-len(e.spans), e.text)))
        for label, entities in sorted(by_label.items(), key=lambda kv: (order.get(kv[0], len(order)), kv[0]))
    ]


def sources(spans: list[Span]) -> list[str]:
    return sorted({source for s in spans for source in s.sources})


def preview_text(text: str, spans: list[Span]) -> str:
    """The text as the export will write it with the current decisions: accepted
    spans only (pending ones stay as they are, like an export without
    --accept-pending)."""
    accepted = [
        Candidate(s.start, s.end, s.label, s.text, tuple(s.sources), s.score, s.rule, s.entity)
        for s in spans
        if s.status == SpanStatus.ACCEPTED
    ]
    return pseudonymize(text, accepted).text


@dataclass
class DiffRow:
    key: str
    added: int = 0
    rejected: int = 0
    relabelled: int = 0
    resized: int = 0
    kept: int = 0


def machine_vs_final(spans: list[Span], first_before: dict[int, dict]) -> dict:
    """What reviewers changed: spans the machine missed (added by a human),
    over-detections (rejected), relabels and resizes, per label and per source.
    `first_before` maps a span id to its state before its first review event,
    i.e. as the machine proposed it."""
    per_label: dict[str, DiffRow] = {}
    per_source: dict[str, DiffRow] = {}
    changes = []

    def bump(span: Span, what: str, label: str) -> None:
        rows = [per_label.setdefault(label, DiffRow(label))]
        rows += [per_source.setdefault(src, DiffRow(src)) for src in span.sources]
        for row in rows:
            setattr(row, what, getattr(row, what) + 1)

    for span in spans:
        machine = first_before.get(span.pk)
        if span.is_human:
            if span.status == SpanStatus.ACCEPTED:
                bump(span, "added", span.label)
                changes.append(("added", span, None))
            continue
        original_label = machine["label"] if machine else span.label
        if span.status == SpanStatus.REJECTED:
            bump(span, "rejected", original_label)
            changes.append(("rejected", span, machine))
            continue
        if machine and machine["label"] != span.label:
            bump(span, "relabelled", original_label)
            changes.append(("relabelled", span, machine))
        if machine and (machine["start"], machine["end"]) != (span.start, span.end):
            bump(span, "resized", original_label)
            changes.append(("resized", span, machine))
        if span.status == SpanStatus.ACCEPTED and (not machine or machine["label"] == span.label):
            bump(span, "kept", span.label)
    return {
        "per_label": sorted(per_label.values(), key=lambda r: r.key),
        "per_source": sorted(per_source.values(), key=lambda r: r.key),
        "changes": changes,
    }


def document_events(document: Document) -> list[ReviewEvent]:
    return list(ReviewEvent.objects.filter(document=document).select_related("user").order_by("created_at", "id"))


def first_befores(events: list[ReviewEvent]) -> dict[int, dict]:
    result: dict[int, dict] = {}
    for event in events:
        if event.span_id and event.span_id not in result and event.before:
            result[event.span_id] = event.before
    return result


def queue_documents(corpus: Corpus, *, status: str = "", mine_only: bool = False, user=None) -> list[Document]:
    """The corpus queue: each document with its span counts, holder and last
    review activity, in one query."""
    last_event = (
        ReviewEvent.objects.filter(document_id=OuterRef("pk"))
        .values("document_id")
        .annotate(last=Max("created_at"))
        .values("last")
    )
    documents = (
        Document.objects.filter(corpus=corpus)
        .select_related("assignment__user")
        .defer("text", "layout", "metadata")
        .annotate(
            total=Count("spans"),
            pending=Count("spans", filter=Q(spans__status=SpanStatus.PENDING)),
            last_activity=Subquery(last_event),
        )
        .order_by("created_at", "id")
    )
    if status:
        documents = documents.filter(status=status)
    if mine_only and user is not None:
        documents = documents.filter(assignment__user=user)
    return list(documents)


def queue_counts(corpus: Corpus) -> list[tuple[str, str, int]]:
    counts = dict(Document.objects.filter(corpus=corpus).values_list("status").annotate(n=Count("id")))
    return [(value, label, counts.get(value, 0)) for value, label in DocumentStatus.choices]
