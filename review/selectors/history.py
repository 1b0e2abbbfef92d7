"""Reads for a document's history page and the corpus statistics: what reviewers
changed against what the machine proposed, and what the machine filtered."""

from dataclasses import dataclass

from django.conf import settings

from ingestion.models import Corpus, Document
from review.models import DocumentDetection, ReviewEvent, Span, SpanStatus
from review.selectors.document import Places, line_starts


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


@dataclass(frozen=True)
class FilteredCandidate:
    """A candidate a recognizer proposed and the pipeline dropped."""

    start: int
    end: int
    text: str
    label: str
    sources: list[str]
    reason: str
    place: str  # page:line as printed (the review page's side panel's), else the text's line


def detection_summary(document: Document) -> dict | None:
    """What the machine filtered and why (one query): the counts per reason, the
    timed-out patterns, and the first REVIEW_HISTORY_FILTERED_MAX filtered
    candidates with their text (read from the document's text: the record keeps
    offsets only) under "candidates", and how many more there are under "more"."""
    row = (
        DocumentDetection.objects.filter(document_id=document.pk)
        .values("filtered_counts", "timed_out", "filtered")
        .first()
    )
    if row is None:
        return None
    limit = settings.REVIEW_HISTORY_FILTERED_MAX
    filtered = row.pop("filtered") or []
    shown = filtered[:limit]
    place = Places(document.text, line_starts(document.text, document.layout) if shown else {})
    row["candidates"] = [
        FilteredCandidate(start, end, document.text[start:end], label, list(sources), reason, place(start))
        for start, end, label, sources, reason in shown
    ]
    row["more"] = max(0, len(filtered) - limit)
    return row


def corpus_diff(corpus: Corpus) -> tuple[dict, int]:
    """Machine vs final over the whole corpus, and its number of spans (two queries)."""
    spans = list(
        Span.objects.filter(document__corpus=corpus).only(
            "id", "start", "end", "label", "status", "sources", "created_by_id", "reject_reason"
        )
    )
    events = list(
        ReviewEvent.objects.filter(document__corpus=corpus, span__isnull=False)
        .only("id", "span_id", "before")
        .order_by("id")
    )
    return machine_vs_final(spans, first_befores(events)), len(spans)
