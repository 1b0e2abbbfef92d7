"""Reviewer decisions. Each one writes the span and its audit event atomically."""

import re

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction

from ingestion.models import Document
from review.models import ReviewAction, ReviewEvent, Span, SpanStatus


class ReviewError(Exception):
    """A decision that cannot be applied; the message is shown to the reviewer."""


def _record(*, span: Span, user: AbstractBaseUser, action: str, before: dict | None) -> None:
    ReviewEvent.objects.create(
        document_id=span.document_id, span=span, user=user, action=action, before=before, after=span.snapshot()
    )


def _set_status(*, span: Span, user: AbstractBaseUser, status: str, action: str) -> Span:
    before = span.snapshot()
    span.status = status
    span.save(update_fields=["status", "updated_at"])
    _record(span=span, user=user, action=action, before=before)
    return span


@transaction.atomic
def span_accept(*, span: Span, user: AbstractBaseUser) -> Span:
    return _set_status(span=span, user=user, status=SpanStatus.ACCEPTED, action=ReviewAction.ACCEPT)


@transaction.atomic
def span_reject(*, span: Span, user: AbstractBaseUser) -> Span:
    return _set_status(span=span, user=user, status=SpanStatus.REJECTED, action=ReviewAction.REJECT)


@transaction.atomic
def span_relabel(*, span: Span, user: AbstractBaseUser, label: str) -> Span:
    label = label.strip().upper()
    if not re.fullmatch(r"[A-Z][A-Z0-9_]{0,39}", label):
        raise ReviewError("A label is capital letters, digits and underscores.")
    if label == span.label:
        # Choosing the label a span already has confirms it.
        return span if span.status == SpanStatus.ACCEPTED else span_accept(span=span, user=user)
    if Span.objects.filter(document_id=span.document_id, start=span.start, end=span.end, label=label).exists():
        raise ReviewError(f"This text already has a {label} span.")
    before = span.snapshot()
    span.label = label
    # Relabelling is a decision about the span: it is accepted under its new label.
    span.status = SpanStatus.ACCEPTED
    span.save(update_fields=["label", "status", "updated_at"])
    _record(span=span, user=user, action=ReviewAction.RELABEL, before=before)
    return span


def _trim(text: str, start: int, end: int) -> tuple[int, int]:
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return start, end


def _occurrences(text: str, needle: str) -> list[tuple[int, int]]:
    pattern = re.compile(r"(?<!\w)" + re.escape(needle) + r"(?!\w)")
    return [m.span() for m in pattern.finditer(text)]


def _add_one(
    *, document: Document, user: AbstractBaseUser, start: int, end: int, label: str, live: list[Span]
) -> Span | None:
    overlapping = [s for s in live if s.start < end and start < s.end]
    same = next((s for s in overlapping if (s.start, s.end, s.label) == (start, end, label)), None)
    if same is not None:
        return span_accept(span=same, user=user) if same.status != SpanStatus.ACCEPTED else same
    for other in overlapping:
        _set_status(span=other, user=user, status=SpanStatus.REJECTED, action=ReviewAction.SUPERSEDE)
        live.remove(other)
    span, created = Span.objects.get_or_create(
        document=document,
        start=start,
        end=end,
        label=label,
        defaults={
            "text": document.text[start:end],
            "status": SpanStatus.ACCEPTED,
            "sources": ["human"],
            "score": 1.0,
            "rule": "human",
            "created_by": user,
        },
    )
    if created:
        _record(span=span, user=user, action=ReviewAction.ADD, before=None)
    else:  # a rejected span with these offsets: the reviewer changed their mind
        _set_status(span=span, user=user, status=SpanStatus.ACCEPTED, action=ReviewAction.ACCEPT)
    live.append(span)
    return span


@transaction.atomic
def span_add(
    *, document: Document, user: AbstractBaseUser, start: int, end: int, label: str, all_occurrences: bool = True
) -> list[Span]:
    """Add an accepted span from a reviewer's selection. Spans it overlaps are
    superseded (rejected, audited). With `all_occurrences`, every other occurrence
    of the same text that no live span touches is added as well."""
    label = label.strip().upper()
    if not re.fullmatch(r"[A-Z][A-Z0-9_]{0,39}", label):
        raise ReviewError("A label is capital letters, digits and underscores.")
    text = document.text
    if not (0 <= start < end <= len(text)):
        raise ReviewError("The selection is outside the document.")
    start, end = _trim(text, start, end)
    if start >= end:
        raise ReviewError("The selection is empty.")
    live = list(document.spans.exclude(status=SpanStatus.REJECTED).select_for_update())
    added = [_add_one(document=document, user=user, start=start, end=end, label=label, live=live)]
    if all_occurrences:
        for o_start, o_end in _occurrences(text, text[start:end]):
            if (o_start, o_end) == (start, end):
                continue
            # Pending machine suggestions there are superseded; a human decision
            # (an accepted span) elsewhere in the text is never overridden.
            decided = [s for s in live if s.start < o_end and o_start < s.end and s.status == SpanStatus.ACCEPTED]
            if any((s.start, s.end, s.label) != (o_start, o_end, label) for s in decided):
                continue
            added.append(_add_one(document=document, user=user, start=o_start, end=o_end, label=label, live=live))
    return [s for s in added if s is not None]
