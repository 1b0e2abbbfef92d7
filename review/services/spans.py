"""The one writer of Span rows: machine spans from annotation and re-annotation,
and every reviewer operation (decisions, additions, resizes, links, deletions,
undo and redo).

A reviewer operation is planned in memory by its service (decisions.py, undo.py)
and written here by `write`, inside one transaction (see `operation`):

1. the document's row is locked first and must not be approved (nor, for an
   operation that depends on no span appearing over its text, have a newer
   `spans_revision` than the one the plan was made from);
2. the spans the operation depends on are locked, in id order, and must still
   be at the versions read;
3. one UPDATE per group of spans getting the same values (conditional on their
   versions), one INSERT of new spans, one INSERT of the audit events, and the
   document put in review.

If anything moved on meanwhile, the whole transaction rolls back and the caller
gets `StaleSpan`: nothing is ever silently overwritten. The same code runs on
PostgreSQL and on SQLite (where the transaction takes the database's write lock).

Conversions between the engine's `Candidate` and the row are explicit here
(`to_candidate`, `machine_rows`).
"""

import functools
import uuid
from bisect import bisect_left
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import ParamSpec, TypeVar

from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.db.models import F, Q
from django.utils import timezone

from ingestion.models import Document, DocumentStatus
from ingestion.services import document_lock, document_spans_changed
from pipelines.candidate import Candidate
from review.errors import APPROVED, CONFLICT, STALE, ReviewError, StaleSpan
from review.models import ReviewAction, ReviewEvent, Span, SpanStatus
from review.services import audit, dashboard_counts

# A decision on a document that is ready or reviewed puts it (back) in review.
REOPENED_BY_A_DECISION = (DocumentStatus.READY, DocumentStatus.REVIEWED)

# --- the engine's candidate and the row ---------------------------------------------------


def to_candidate(span: Span) -> Candidate:
    return Candidate(
        span.start, span.end, span.label, span.text, tuple(span.sources), span.score, span.rule, span.entity
    )


def machine_rows(document_id: int, candidates: Iterable[Candidate]) -> list[Span]:
    """Unsaved pending rows for the machine's candidates (scores kept to 4 places)."""
    return [
        Span(
            document_id=document_id,
            start=c.start,
            end=c.end,
            label=c.label,
            text=c.text,
            sources=list(c.sources),
            score=round(c.score, 4),
            rule=c.rule,
        )
        for c in candidates
    ]


def holds_human_work(span: Span) -> bool:
    """A span a person decided or made: accepted, rejected (and so relabelled or
    resized, which accept), added, or linked to an entity. Re-annotation never
    touches these."""
    return span.status != SpanStatus.PENDING or span.created_by_id is not None or bool(span.entity)


# --- machine spans --------------------------------------------------------------------------


def store_machine_spans(document_id: int, candidates: Iterable[Candidate]) -> int:
    """A first annotation's spans, pending, in one INSERT. A span already there (a
    redelivered task) is skipped by the unique key."""
    rows = machine_rows(document_id, candidates)
    Span.objects.bulk_create(rows, ignore_conflicts=True)
    dashboard_counts.document_counted(document_id)
    return len(rows)


def _overlap_test(intervals: Iterable[tuple[int, int]]) -> Callable[[int, int], bool]:
    """`overlaps(start, end)` against the given [start, end) intervals, in
    O(log n): intervals sorted by start, with the running maximum of their ends."""
    ordered = sorted(intervals)
    starts = [start for start, _ in ordered]
    reach: list[int] = []
    for _, end in ordered:
        reach.append(max(end, reach[-1]) if reach else end)

    def overlaps(start: int, end: int) -> bool:
        i = bisect_left(starts, end)  # spans that start before `end`
        return i > 0 and reach[i - 1] > start

    return overlaps


def replace_machine_spans(document_id: int, candidates: Iterable[Candidate]) -> dict[str, int]:
    """Re-annotation, inside the caller's transaction with the document's row
    locked: spans holding human work stay as they are and no candidate overlapping
    one is added; pending machine spans are replaced by the new candidates (those
    found again keep their row, so an open review page and the audit still point
    at them). Returns what changed."""
    # Locked so that a reviewer's decision cannot land between reading a pending
    # span and deleting it: the decision waits, then finds the span gone (and is
    # refused as stale) or lands first and is preserved.
    spans = list(Span.objects.select_for_update(no_key=True).filter(document_id=document_id).order_by("pk"))
    preserved = [s for s in spans if holds_human_work(s)]
    machine = {(s.start, s.end, s.label): s for s in spans if not holds_human_work(s)}
    overlaps_preserved = _overlap_test((s.start, s.end) for s in preserved)
    new: dict[tuple[int, int, str], Candidate] = {}
    skipped = 0
    for c in candidates:
        if overlaps_preserved(c.start, c.end):
            skipped += 1
        else:
            new[(c.start, c.end, c.label)] = c
    removed = [s.pk for key, s in machine.items() if key not in new]
    changed = []
    for key, span in machine.items():
        c = new.get(key)
        if c is not None and (span.sources, span.score, span.rule) != (list(c.sources), round(c.score, 4), c.rule):
            span.sources, span.score, span.rule = list(c.sources), round(c.score, 4), c.rule
            changed.append(span)
    added = [c for key, c in new.items() if key not in machine]
    if removed:
        Span.objects.filter(pk__in=removed).delete()
    if changed:
        Span.objects.bulk_update(changed, ["sources", "score", "rule"], batch_size=1000)
    Span.objects.bulk_create(machine_rows(document_id, added), ignore_conflicts=True)
    dashboard_counts.document_counted(document_id)
    return {
        "added": len(added),
        "removed": len(removed),
        "unchanged": len(new) - len(added),
        "preserved": len(preserved),
        "skipped_overlap": skipped,
    }


# --- reviewer operations --------------------------------------------------------------------

P = ParamSpec("P")
R = TypeVar("R")


def operation(fn: Callable[P, R]) -> Callable[P, R]:
    """The writes of one reviewer operation, in one transaction. A unique key taken
    meanwhile (a span another reviewer made at the same offsets) is refused as
    stale; it is caught outside the atomic block, which has rolled back (or back
    to its savepoint) by then."""

    @functools.wraps(fn)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            with transaction.atomic():
                return fn(*args, **kwargs)
        except IntegrityError as exc:
            raise StaleSpan(CONFLICT) from exc

    return wrapper


def check_open(document: Document) -> None:
    """As read: `write` checks it again under the document's lock."""
    if document.status == DocumentStatus.APPROVED:
        raise ReviewError(APPROVED)


def lock(document: Document) -> int:
    """Lock the document's row (before any span's, as everywhere), refuse if it is
    approved by now, and return its latest `spans_revision`."""
    row = document_lock(document.pk)
    if row is None:
        raise StaleSpan(STALE)
    document.status = row[0]
    check_open(document)
    return row[1]


def document_written(document: Document, *, bump: bool) -> None:
    """The document's row already locked: put it in review and bump its revision
    if `bump`; no statement when neither is needed (the usual decision)."""
    reopen = document.status in REOPENED_BY_A_DECISION
    if not (reopen or bump):
        return
    document_spans_changed(document.pk, reopen=REOPENED_BY_A_DECISION, bump=bump)
    if reopen:
        document.status = DocumentStatus.IN_REVIEW
    if bump:
        document.spans_revision += 1


@dataclass
class Change:
    """Existing spans that all get the same `values` (field name → value), audited as `action`."""

    spans: list[Span]
    values: dict
    action: str = ""


def check_disjoint(changes: Iterable[Change]) -> None:
    """A span gets one set of values per operation: two would be written in an
    undefined order (and audited twice)."""
    seen: set[int] = set()
    for change in changes:
        pks = {s.pk for s in change.spans}
        if pks & seen:
            raise ValueError(f"spans {sorted(pks & seen)} are in two changes of one operation")
        seen |= pks


def update_versioned(spans: list[Span], **values) -> None:
    """One UPDATE for all the spans, conditional on the versions that were read.

    If any row moved on meanwhile, fewer rows match and the caller's transaction
    is rolled back by the StaleSpan raised here: nothing is overwritten.
    """
    by_version: dict[int, list[int]] = defaultdict(list)
    for span in spans:
        by_version[span.version].append(span.pk)
    condition = Q()
    for version, pks in by_version.items():
        condition |= Q(version=version, pk__in=pks)
    now = timezone.now()
    updated = Span.objects.filter(condition).update(**values, version=F("version") + 1, updated_at=now)
    if updated != len(spans):
        raise StaleSpan(STALE)
    for span in spans:
        for name, value in values.items():
            setattr(span, name, value)
        span.version += 1
        span.updated_at = now


def _spans_over(document_id: int, regions: list[tuple[int, int]]) -> set[int]:
    """Ids of the document's spans over any of the regions, as committed now. The
    document's row is locked, and every writer of its spans takes that lock
    first, so this cannot change before the caller's transaction ends. Read over
    the regions' bounding range, then tested in Python: one condition per region
    would exceed SQLite's expression depth on an add over a thousand occurrences."""
    lo, hi = min(r[0] for r in regions), max(r[1] for r in regions)
    overlaps = _overlap_test(regions)
    rows = Span.objects.filter(document_id=document_id, start__lt=hi, end__gt=lo).values_list("pk", "start", "end")
    return {pk for pk, start, end in rows if overlaps(start, end)}


def write(
    *,
    document: Document,
    user: AbstractBaseUser,
    bulk_id: uuid.UUID,
    changes: list[Change],
    created: list[Span] | None = None,
    depends: Iterable[Span] = (),
    read: list[Span] | None = None,
    regions: list[tuple[int, int]] | None = None,
    check_revision: bool = False,
    bump_revision: bool = False,
) -> None:
    """Write one planned operation (inside `operation`'s transaction): the
    `changes`, the `created` spans (audited as added), their events, and the
    document put in review.

    Every changed span must still be at the version read, and so must the spans
    it `depends` on and, with `regions`, every span of the document over them (as
    in `read`, the spans the operation was planned from); with `check_revision`
    nothing may have been added or moved over any text since the document was
    read (see Document.spans_revision). Else StaleSpan and nothing is written.
    `bump_revision`: this operation adds or moves spans.
    """
    changes = [c for c in changes if c.spans]
    check_disjoint(changes)
    created = created or []
    befores = {s.pk: s.snapshot() for c in changes for s in c.spans}
    expected: dict[int, Span] = {s.pk: s for s in depends}
    over_regions: set[int] = set()
    if regions:
        overlaps = _overlap_test(regions)
        over_regions = {s.pk for s in read or [] if s.pk is not None and overlaps(s.start, s.end)}
        expected.update((s.pk, s) for s in read or [] if s.pk in over_regions)
    revision = lock(document)
    if check_revision and revision != document.spans_revision:
        raise StaleSpan(STALE)
    document.spans_revision = revision
    unchanged = {pk: s for pk, s in expected.items() if pk not in befores}
    if unchanged:
        now = dict(
            Span.objects.select_for_update(no_key=True)
            .filter(pk__in=unchanged)
            .order_by("pk")
            .values_list("pk", "version")
        )
        if now != {pk: s.version for pk, s in unchanged.items()}:
            raise StaleSpan(STALE)
    if regions and _spans_over(document.pk, regions) != over_regions:
        # A span appeared over the text, or one there was deleted, after the plan was made.
        raise StaleSpan(STALE)
    for change in changes:
        update_versioned(change.spans, **change.values)
    if created:
        Span.objects.bulk_create(created)
    audit.record(
        [
            *(
                e
                for c in changes
                for e in audit.span_events(spans=c.spans, befores=befores, user=user, action=c.action, bulk_id=bulk_id)
            ),
            *audit.span_events(spans=created, befores={}, user=user, action=ReviewAction.ADD, bulk_id=bulk_id),
        ]
    )
    dashboard_counts.document_counted(document.pk)
    document_written(document, bump=bump_revision)


def delete_added(*, span: Span, user: AbstractBaseUser, bulk_id: uuid.UUID) -> None:
    """Delete a span a reviewer added, if still at the version read, with its
    DELETE event; its older events keep their row with no span."""
    document = span.document
    lock(document)
    audit.record(
        [
            ReviewEvent(
                document_id=span.document_id,
                span=None,
                user=user,
                action=ReviewAction.DELETE,
                before=span.snapshot(),
                after=None,
                bulk_id=bulk_id,
            )
        ]
    )
    deleted, _ = Span.objects.filter(pk=span.pk, version=span.version).delete()
    if not deleted:
        raise StaleSpan(STALE)
    dashboard_counts.document_counted(document.pk)
    document_written(document, bump=False)


def _check_room_to_revert(document_id: int, events: list[ReviewEvent], live: dict[int, Span]) -> None:
    """A span that comes back to life (re-created, moved back, or un-rejected) must
    find its text free: a span another reviewer made there since would overlap it,
    and two live spans over one text can be neither shown nor exported."""
    restored = [
        (e.before["start"], e.before["end"])
        for e in events
        if e.before is not None
        and e.before.get("status") != SpanStatus.REJECTED
        and (
            e.after is None  # deleted by the operation: re-created
            or e.after.get("status") == SpanStatus.REJECTED  # rejected by it: live again
            or (e.before["start"], e.before["end"]) != (e.after.get("start"), e.after.get("end"))  # moved back
        )
    ]
    if not restored:
        return
    overlaps = _overlap_test(restored)
    lo, hi = min(r[0] for r in restored), max(r[1] for r in restored)
    others = (
        Span.objects.filter(document_id=document_id, start__lt=hi, end__gt=lo)
        .exclude(status=SpanStatus.REJECTED)
        .exclude(pk__in=[pk for pk in live])
        .values_list("start", "end")
    )
    if any(overlaps(start, end) for start, end in others):
        raise StaleSpan("A span was added over this text since; nothing was changed.")


def revert(
    *, document: Document, user: AbstractBaseUser, bulk_id: uuid.UUID, action: str
) -> tuple[uuid.UUID, list[Span]]:
    """Put every span of operation `bulk_id` back as it was before it, audited as
    `action` (undo or redo) in a new operation: a span the operation created is
    deleted, one it deleted is created again. Each span must still be as the
    operation left it. Returns the new operation's id and the spans changed."""
    # The document's row first, then the spans in id order, as every writer
    # locks them: two writers queue up, never deadlock.
    lock(document)
    events = list(ReviewEvent.objects.filter(bulk_id=bulk_id).order_by("-id"))
    span_ids = [e.span_id for e in events if e.span_id]
    live = {s.pk: s for s in Span.objects.select_for_update(no_key=True).filter(pk__in=span_ids).order_by("pk")}
    moved = False  # a span re-created or given other boundaries: see Document.spans_revision
    new_bulk = uuid.uuid4()
    changed: list[Span] = []
    records: list[ReviewEvent] = []

    def record(span: Span | None, event: ReviewEvent, before: dict | None, after: dict | None) -> None:
        records.append(
            ReviewEvent(
                document_id=document.pk,
                span=span,
                user=user,
                action=action,
                before=before,
                after=after,
                bulk_id=new_bulk,
                undoes=event.bulk_id,
            )
        )

    _check_room_to_revert(document.pk, events, live)
    # Status/label-only changes are restored with one UPDATE per distinct old value.
    grouped: dict[tuple, list[tuple[Span, ReviewEvent]]] = defaultdict(list)
    text = document.text
    for event in events:  # newest first
        b = event.before
        if event.after is None:  # the operation deleted it
            if Span.objects.filter(document=document, start=b["start"], end=b["end"], label=b["label"]).exists():
                raise StaleSpan("A span with these boundaries was added since; nothing was changed.")
            span = Span.objects.create(
                document=document,
                start=b["start"],
                end=b["end"],
                label=b["label"],
                text=text[b["start"] : b["end"]],
                status=b["status"],
                reject_reason=b.get("reason", ""),
                sources=["human"],
                score=1.0,
                rule="human",
                created_by=event.user,
            )
            record(span, event, None, span.snapshot())
            changed.append(span)
            moved = True
            continue
        span = live.get(event.span_id)
        if span is None or any(span.snapshot().get(k) != v for k, v in event.after.items()):
            raise StaleSpan("These spans were changed since; nothing was changed.")
        changed.append(span)
        if b is None:  # the operation created it
            record(None, event, span.snapshot(), None)
            span.delete()
        elif (b["start"], b["end"]) == (span.start, span.end):
            grouped[(b["label"], b["status"], b.get("reason", ""), b.get("entity", ""))].append((span, event))
        else:
            moved = True
            span.start, span.end, span.text = b["start"], b["end"], text[b["start"] : b["end"]]
            span.label, span.status, span.reject_reason = b["label"], b["status"], b.get("reason", "")
            span.entity = b.get("entity", "")
            span.save(
                update_fields=["start", "end", "text", "label", "status", "reject_reason", "entity", "updated_at"]
            )
            Span.objects.filter(pk=span.pk).update(version=F("version") + 1)
            span.version += 1
            record(span, event, event.after, span.snapshot())
    for (label, status, reason, entity), pairs in grouped.items():
        update_versioned([span for span, _ in pairs], label=label, status=status, reject_reason=reason, entity=entity)
        for span, event in pairs:
            record(span, event, event.after, span.snapshot())
    audit.record(records)
    dashboard_counts.document_counted(document.pk)
    document_written(document, bump=moved)
    return new_bulk, changed
