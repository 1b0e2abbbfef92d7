"""Reads for the review page."""

from collections import Counter
from dataclasses import dataclass

from ingestion.models import Document
from pipelines.labels import CANONICAL_LABELS, label_colour
from review.models import Span, SpanStatus


@dataclass(frozen=True)
class Segment:
    start: int
    text: str
    span: Span | None = None


def document_spans(document: Document) -> list[Span]:
    return list(Span.objects.filter(document=document).order_by("start", "end"))


def segments(text: str, spans: list[Span]) -> list[Segment]:
    """The text cut into plain runs and highlighted spans, in one pass.

    Live spans (pending, accepted) never overlap; a rejected span is shown only
    where no live span covers its text, so a superseded suggestion stays visible
    without hiding the decision that replaced it.
    """
    live = [s for s in spans if s.status != SpanStatus.REJECTED]
    shown = list(live)
    for rejected in (s for s in spans if s.status == SpanStatus.REJECTED):
        if not any(rejected.start < s.end and s.start < rejected.end for s in shown):
            shown.append(rejected)
    shown.sort(key=lambda s: s.start)
    result: list[Segment] = []
    cursor = 0
    for span in shown:
        if span.start < cursor:  # defensive: never render text twice
            continue
        if span.start > cursor:
            result.append(Segment(cursor, text[cursor : span.start]))
        result.append(Segment(span.start, text[span.start : span.end], span))
        cursor = span.end
    if cursor < len(text):
        result.append(Segment(cursor, text[cursor:]))
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
