"""Reviewer decisions. Each one writes its spans and their audit events atomically.

Every public service is one reviewer *operation*: its events share one `bulk_id`,
so an apply-to-all or a bulk decision is shown and undone as one. Writes to
existing spans are conditional on the version the reviewer saw, so two reviewers
never silently overwrite each other. A decision is planned in memory and written
by `_apply`: on PostgreSQL as one statement (review/bulk_sql.py), elsewhere with
the ORM (`_update`) inside a transaction.
"""

import copy
import functools
import re
import uuid
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import timedelta
from typing import ParamSpec, TypeVar

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.db.models import Case, F, Max, OuterRef, Q, Subquery, Value, When
from django.utils import timezone

from ingestion.models import Corpus, Document, DocumentStatus
from review import bulk_sql
from review.models import Assignment, RejectReason, ReviewAction, ReviewEvent, Span, SpanStatus

LABEL_RE = re.compile(r"[A-Z][A-Z0-9_]{0,39}")


class ReviewError(Exception):
    """A decision that cannot be applied; the message is shown to the reviewer."""


class StaleSpan(ReviewError):
    """Someone changed the span after this reviewer saw it; nothing was written."""


STALE = "Someone else changed some of these spans meanwhile. Nothing was applied; refreshed."
CONFLICT = "Someone else made a span with the same boundaries and label meanwhile. Nothing was applied; refreshed."
APPROVED = "This document is approved: its spans can no longer change."


@dataclass
class Outcome:
    """What one operation did: the spans it changed (first the one acted on)."""

    bulk_id: uuid.UUID
    changed: list[Span] = field(default_factory=list)
    message: str = ""


def normalize(text: str) -> str:
    """Occurrences of one entity: same text up to case and whitespace."""
    return " ".join(text.split()).casefold()


def siblings(span: Span, spans: Iterable[Span]) -> list[Span]:
    """The other pending occurrences of the span's text, which apply-to-all touches.
    Decided spans are never overridden by apply-to-all."""
    key = normalize(span.text)
    return [s for s in spans if s.pk != span.pk and s.status == SpanStatus.PENDING and normalize(s.text) == key]


def _clean_label(label: str) -> str:
    label = label.strip().upper()
    if not LABEL_RE.fullmatch(label):
        raise ReviewError("A label is capital letters, digits and underscores.")
    return label


def _clean_reason(reason: str) -> str:
    if reason and reason not in RejectReason.values:
        raise ReviewError("Unknown reject reason.")
    return reason


def _check_version(span: Span, version: int | None) -> None:
    if version is not None and version != span.version:
        raise StaleSpan(
            f"“{span.text}” was changed by someone else (it is now {span.status}, {span.label}). "
            "Your action was not applied; the text has been refreshed."
        )


def _update(spans: list[Span], **values) -> None:
    """One UPDATE for all the spans, conditional on the versions that were read.

    If any row moved on meanwhile, fewer rows match and the whole operation is
    rolled back: nothing is overwritten.
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


def _event_rows(*, spans: Iterable[Span], befores: dict, user, action: str, bulk_id: uuid.UUID) -> list[ReviewEvent]:
    return [
        ReviewEvent(
            document_id=s.document_id,
            span=s,
            user=user,
            action=action,
            before=befores.get(s.pk),
            after=s.snapshot(),
            bulk_id=bulk_id,
        )
        for s in spans
    ]


def _check_open(document: Document) -> None:
    """As read: the write checks it again under the document's lock."""
    if document.status == DocumentStatus.APPROVED:
        raise ReviewError(APPROVED)


def _lock_document(document: Document) -> int:
    """ORM path: lock the document's row (before any span's, as everywhere),
    refuse if it is approved by now, and return its latest `spans_revision`.
    NO KEY UPDATE, as an UPDATE takes: it does not block the deferred foreign key
    check (KEY SHARE) of a transaction inserting a span, which would deadlock
    with this one waiting on that span's unique key."""
    row = (
        Document.objects.select_for_update(no_key=True)
        .filter(pk=document.pk)
        .values_list("status", "spans_revision")
        .first()
    )
    if row is None:
        raise StaleSpan(STALE)
    document.status = row[0]
    _check_open(document)
    return row[1]


def _document_written(document: Document, *, bump: bool) -> None:
    """ORM path, the document's row already locked: put it in review (see
    bulk_sql.REOPENED_BY_A_DECISION) and bump `spans_revision` if `bump`."""
    reopen = document.status in bulk_sql.REOPENED_BY_A_DECISION
    if not (reopen or bump):
        return
    Document.objects.filter(pk=document.pk).update(
        status=Case(
            When(status__in=bulk_sql.REOPENED_BY_A_DECISION, then=Value(DocumentStatus.IN_REVIEW)),
            default=F("status"),
        ),
        spans_revision=F("spans_revision") + (1 if bump else 0),
        updated_at=timezone.now(),
    )
    if reopen:
        document.status = DocumentStatus.IN_REVIEW
    if bump:
        document.spans_revision += 1


def _after_write(document: Document, written: bulk_sql.Written, *, bump: bool) -> None:
    """PostgreSQL path: why nothing was written, or the document as it is now."""
    if written.conflict:
        raise StaleSpan(CONFLICT)
    if written.document_status is not None:
        document.status = written.document_status
    if not written.written:
        _check_open(document)
        raise StaleSpan(STALE)
    if bump:
        document.spans_revision += 1


P = ParamSpec("P")
R = TypeVar("R")


def _atomic(fn: Callable[P, R]) -> Callable[P, R]:
    """In a transaction; a unique key taken meanwhile (a span another reviewer
    made at the same offsets) is refused as stale. Caught outside the atomic
    block, which has rolled back (or back to its savepoint) by then."""

    @functools.wraps(fn)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            with transaction.atomic(using=bulk_sql.using()):
                return fn(*args, **kwargs)
        except IntegrityError as exc:
            raise StaleSpan(CONFLICT) from exc

    return wrapper


def _operation(fn: Callable[P, R]) -> Callable[P, R]:
    """The writes of one reviewer operation are atomic. On PostgreSQL they are a
    single statement (review.bulk_sql), atomic by itself, so the operation opens
    no transaction: that keeps a decision round trip within its query budget.
    Elsewhere (SQLite) the ORM writes several statements, in a transaction (see
    _atomic) that locks the document's row before anything else."""
    in_transaction = _atomic(fn)

    @functools.wraps(fn)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        if bulk_sql.available():
            return fn(*args, **kwargs)
        return in_transaction(*args, **kwargs)

    return wrapper


Change = bulk_sql.Change


def _snapshot_with(span: Span, values: dict) -> dict:
    changed = copy.copy(span)
    for name, value in values.items():
        setattr(changed, name, value)
    return changed.snapshot()


def _apply(
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
    """Write one planned operation: the `changes`, the `created` spans (audited
    as added), their events, and the document put in review.

    Every changed span must still be at the version read, and so must the
    spans it `depends` on and, with `regions`, every span of the document over
    them (as in `read`, the spans the operation was planned from); with
    `check_revision` nothing may have been added or moved over any text since
    the document was read (see Document.spans_revision). Else StaleSpan and
    nothing is written. An approved document is refused under its lock.
    `bump_revision`: this operation adds or moves spans.
    """
    changes = [c for c in changes if c.spans]
    bulk_sql.check_disjoint(changes)
    created = created or []
    befores = {s.pk: s.snapshot() for c in changes for s in c.spans}
    expected: dict[int, Span] = {s.pk: s for s in depends}
    if regions:
        expected.update(
            (s.pk, s) for s in read or [] if s.pk is not None and any(s.start < hi and lo < s.end for lo, hi in regions)
        )
    if not bulk_sql.available():
        # Inside the operation's transaction (see _operation), which rolls all
        # of it back if a span moved on.
        revision = _lock_document(document)
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
        for change in changes:
            _update(change.spans, **change.values)
        if created:
            Span.objects.bulk_create(created)
        common = {"befores": befores, "user": user, "bulk_id": bulk_id}
        ReviewEvent.objects.bulk_create(
            [
                *(e for c in changes for e in _event_rows(spans=c.spans, action=c.action, **common)),
                *_event_rows(spans=created, action=ReviewAction.ADD, **common),
            ]
        )
        _document_written(document, bump=bump_revision)
        return
    now = timezone.now()
    for span in created:
        span.created_at = span.updated_at = now
    events = [
        bulk_sql.Event(span=s, action=c.action, before=befores[s.pk], after=_snapshot_with(s, c.values))
        for c in changes
        for s in c.spans
    ]
    events += [bulk_sql.Event(span=s, action=ReviewAction.ADD, before=None, after=s.snapshot()) for s in created]
    expected.update((s.pk, s) for c in changes for s in c.spans)
    written = bulk_sql.write(
        document=document,
        user_id=user.pk,
        bulk_id=bulk_id,
        now=now,
        expected=expected.values(),
        regions=regions or [],
        updates=changes,
        creates=created,
        events=events,
        check_revision=check_revision,
        bump_revision=bump_revision,
    )
    _after_write(document, written, bump=bump_revision)
    for change in changes:
        for span in change.spans:
            for name, value in change.values.items():
                setattr(span, name, value)
            span.version += 1
            span.updated_at = now
    for span in created:
        span.pk = written.ids[(span.start, span.end, span.label)]
        span._state.adding, span._state.db = False, bulk_sql.using()


def _read_spans(document: Document, **filters) -> list[Span]:
    """The document's spans, for a caller that did not read them. The revision
    checked by the write must be no newer than the spans planned from: the
    document may have been read long before, so it is read again first."""
    document.spans_revision = Document.objects.filter(pk=document.pk).values_list("spans_revision", flat=True).get()
    return list(Span.objects.filter(document_id=document.pk, **filters))


def _decide(
    *,
    span: Span,
    user: AbstractBaseUser,
    action: str,
    values: dict,
    version: int | None,
    all_occurrences: bool,
    spans: list[Span] | None,
    targets: list[Span] | None = None,
    **guard,
) -> Outcome:
    """`guard`: what else the write checks (see _apply)."""
    _check_open(span.document)
    _check_version(span, version)
    if targets is None:
        if spans is None:
            spans = list(Span.objects.filter(document_id=span.document_id, status=SpanStatus.PENDING))
        targets = [span, *(siblings(span, spans) if all_occurrences else [])]
    outcome = Outcome(bulk_id=uuid.uuid4(), changed=targets)
    _apply(
        document=span.document, user=user, bulk_id=outcome.bulk_id, changes=[Change(targets, values, action)], **guard
    )
    others = len(targets) - 1
    outcome.message = f"{action.capitalize()}: “{span.text}”" + (
        f" and {others} other occurrence{'s' if others != 1 else ''}." if others else "."
    )
    return outcome


def _same_object(span: Span, spans: list[Span] | None) -> Span:
    """The caller's list may hold its own copy of the span: act on that one, so
    the list it re-renders from shows the change."""
    if spans is None:
        return span
    for i, other in enumerate(spans):
        if other.pk == span.pk:
            spans[i] = span
    return span


@_operation
def span_accept(
    *,
    span: Span,
    user: AbstractBaseUser,
    version: int | None = None,
    all_occurrences: bool = True,
    spans: list[Span] | None = None,
) -> Outcome:
    span = _same_object(span, spans)
    return _decide(
        span=span,
        user=user,
        action=ReviewAction.ACCEPT,
        values={"status": SpanStatus.ACCEPTED, "reject_reason": ""},
        version=version,
        all_occurrences=all_occurrences,
        spans=spans,
    )


@_operation
def span_reject(
    *,
    span: Span,
    user: AbstractBaseUser,
    reason: str = "",
    version: int | None = None,
    all_occurrences: bool = True,
    spans: list[Span] | None = None,
) -> Outcome:
    span = _same_object(span, spans)
    return _decide(
        span=span,
        user=user,
        action=ReviewAction.REJECT,
        values={"status": SpanStatus.REJECTED, "reject_reason": _clean_reason(reason)},
        version=version,
        all_occurrences=all_occurrences,
        spans=spans,
    )


@_operation
def span_relabel(
    *,
    span: Span,
    user: AbstractBaseUser,
    label: str,
    version: int | None = None,
    all_occurrences: bool = True,
    spans: list[Span] | None = None,
) -> Outcome:
    """Relabelling is a decision about the span: it is accepted under its new label."""
    label = _clean_label(label)
    span = _same_object(span, spans)
    if label == span.label:
        # Choosing the label a span already has confirms it.
        return span_accept(span=span, user=user, version=version, all_occurrences=all_occurrences, spans=spans)
    if spans is None:
        spans = _read_spans(span.document)
    taken = {(s.start, s.end) for s in spans if s.label == label}
    if (span.start, span.end) in taken:
        raise ReviewError(f"This text already has a {label} span.")
    targets = [span]
    if all_occurrences:
        targets += [s for s in siblings(span, spans) if (s.start, s.end) not in taken]
    return _decide(
        span=span,
        user=user,
        action=ReviewAction.RELABEL,
        values={"label": label, "status": SpanStatus.ACCEPTED, "reject_reason": ""},
        version=version,
        all_occurrences=all_occurrences,
        spans=spans,
        targets=targets,
        # The new key of each target must still be free: no span may have
        # appeared at these offsets (the revision), or changed there.
        read=spans,
        regions=[(t.start, t.end) for t in targets],
        check_revision=True,
    )


@_operation
def span_link(
    *,
    span: Span,
    target: Span,
    user: AbstractBaseUser,
    version: int | None = None,
    spans: list[Span] | None = None,
) -> Outcome:
    """Link a span, with every live occurrence of its text, to the entity of
    `target` (another variant of the same person: "Mr. Smith" → "John Smith"), so
    that they share one pseudonym. Undoable as one operation."""
    _check_open(span.document)
    _check_version(span, version)
    if target.document_id != span.document_id or target.pk == span.pk:
        raise ReviewError("Link a span to another span of the same document.")
    if target.label != span.label:
        raise ReviewError(f"Only spans of the same label can be one entity ({span.label} ≠ {target.label}).")
    if spans is None:
        spans = list(Span.objects.filter(document_id=span.document_id))
    live = [s for s in spans if s.status != SpanStatus.REJECTED and s.label == span.label]

    def group(of: Span) -> list[Span]:
        key = normalize(of.text)
        return [s for s in live if s.pk == of.pk or (normalize(s.text) == key) or (of.entity and s.entity == of.entity)]

    entity = target.entity or uuid.uuid4().hex
    members = {s.pk: s for s in [*group(span), *group(target)]}
    members[span.pk] = _same_object(span, spans)
    changed = [s for s in members.values() if s.entity != entity]
    if not changed:
        return Outcome(bulk_id=uuid.uuid4(), message="Already linked.")
    outcome = Outcome(bulk_id=uuid.uuid4(), changed=changed)
    link = Change(changed, {"entity": entity}, ReviewAction.LINK)
    # Every member and the target, changed or not, as read: one re-linked
    # meanwhile would otherwise be silently left out of the entity.
    _apply(
        document=span.document,
        user=user,
        bulk_id=outcome.bulk_id,
        changes=[link],
        depends=[*members.values(), target],
    )
    outcome.message = f"Linked “{span.text}” to “{target.text}”: {len(members)} spans are now one entity."
    return outcome


def link_choices(span: Span, spans: list[Span]) -> list[Span]:
    """One representative span per other entity of the same label: what the panel
    offers as "same entity as…"."""
    own = normalize(span.text)
    seen: set[str] = set()
    choices = []
    for s in spans:
        if s.label != span.label or s.status == SpanStatus.REJECTED or normalize(s.text) == own:
            continue
        if span.entity and s.entity == span.entity:
            continue
        key = s.entity or normalize(s.text)
        if key not in seen:
            seen.add(key)
            choices.append(s)
    return choices


def _trim(text: str, start: int, end: int) -> tuple[int, int]:
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return start, end


def word_step(text: str, start: int, end: int, *, edge: str, grow: bool) -> tuple[int, int]:
    """Move one edge of `[start, end)` by one word (or one punctuation mark).

    Growing never crosses a line break: a line is one utterance, and a name does
    not continue into the next speaker's turn.
    """
    if edge == "end" and grow:
        i = end
        while i < len(text) and text[i] in " \t":
            i += 1
        if i >= len(text) or text[i] == "\n":
            raise ReviewError("Nothing to extend into on this line.")
        j = i + 1
        if text[i].isalnum():
            while j < len(text) and (text[j].isalnum() or text[j] in "'’-"):
                j += 1
        return start, j
    if edge == "start" and grow:
        i = start
        while i > 0 and text[i - 1] in " \t":
            i -= 1
        if i == 0 or text[i - 1] == "\n":
            raise ReviewError("Nothing to extend into on this line.")
        j = i - 1
        if text[j].isalnum():
            while j > 0 and (text[j - 1].isalnum() or text[j - 1] in "'’-"):
                j -= 1
        return j, end
    if edge == "end":
        i = end - 1
        if text[i].isalnum():
            while i > start and (text[i - 1].isalnum() or text[i - 1] in "'’-"):
                i -= 1
        new_start, new_end = _trim(text, start, i)
    elif edge == "start":
        i = start + 1
        if text[start].isalnum():
            while i < end and (text[i].isalnum() or text[i] in "'’-"):
                i += 1
        new_start, new_end = _trim(text, i, end)
    else:
        raise ReviewError("Unknown edge.")
    if new_start >= new_end:
        raise ReviewError("A span cannot be shorter than one word; reject it instead.")
    return new_start, new_end


@_operation
def span_resize(
    *,
    span: Span,
    user: AbstractBaseUser,
    start: int,
    end: int,
    version: int | None = None,
    spans: list[Span] | None = None,
) -> Outcome:
    """Give the span new boundaries (and accept it). Pending suggestions the new
    boundaries overlap are superseded; an accepted span in the way is an error."""
    span = _same_object(span, spans)
    _check_open(span.document)
    _check_version(span, version)
    text = span.document.text
    if not (0 <= start < end <= len(text)):
        raise ReviewError("The new boundaries are outside the document.")
    start, end = _trim(text, start, end)
    if start >= end:
        raise ReviewError("The selection is empty.")
    if spans is None:
        spans = _read_spans(span.document)
    others = [s for s in spans if s.pk != span.pk]
    if any((s.start, s.end, s.label) == (start, end, span.label) for s in others):
        raise ReviewError(f"A {span.label} span with these boundaries already exists.")
    overlapping = [s for s in others if s.status != SpanStatus.REJECTED and s.start < end and start < s.end]
    if any(s.status == SpanStatus.ACCEPTED for s in overlapping):
        raise ReviewError("The new boundaries overlap an accepted span; reject or shrink that one first.")
    outcome = Outcome(bulk_id=uuid.uuid4(), changed=[span, *overlapping])
    resized = {"start": start, "end": end, "text": text[start:end], "status": SpanStatus.ACCEPTED, "reject_reason": ""}
    _apply(
        document=span.document,
        user=user,
        bulk_id=outcome.bulk_id,
        changes=[
            Change(overlapping, {"status": SpanStatus.REJECTED}, ReviewAction.SUPERSEDE),
            Change([span], resized, ReviewAction.RESIZE),
        ],
        # The new extent was checked against every span there: none may appear meanwhile.
        read=spans,
        regions=[(start, end)],
        check_revision=True,
        bump_revision=True,
    )
    outcome.message = f"Resized to “{span.text}”."
    return outcome


@_operation
def span_delete(*, span: Span, user: AbstractBaseUser, version: int | None = None) -> Outcome:
    """Delete a span a reviewer added. Machine suggestions are rejected, never
    deleted, so that the diff keeps what the machine proposed."""
    if not span.is_human:
        raise ReviewError("Only spans added by a reviewer can be deleted; reject a suggestion instead.")
    _check_open(span.document)
    _check_version(span, version)
    outcome = Outcome(bulk_id=uuid.uuid4(), message=f"Deleted “{span.text}”.")
    document = span.document
    if bulk_sql.available():
        written = bulk_sql.delete(span=span, user_id=user.pk, bulk_id=outcome.bulk_id, now=timezone.now())
        _after_write(document, written, bump=False)
        return outcome
    _lock_document(document)
    ReviewEvent.objects.create(
        document_id=span.document_id,
        span=None,
        user=user,
        action=ReviewAction.DELETE,
        before=span.snapshot(),
        after=None,
        bulk_id=outcome.bulk_id,
    )
    deleted, _ = Span.objects.filter(pk=span.pk, version=span.version).delete()
    if not deleted:
        raise StaleSpan(STALE)
    _document_written(document, bump=False)
    return outcome


def _matches(span: Span, *, label: str, source: str, score_min: float | None, score_max: float | None) -> bool:
    return (
        (not label or span.label == label)
        and (not source or source in span.sources)
        and (score_min is None or span.score >= score_min)
        and (score_max is None or span.score < score_max)
    )


def bulk_candidates(
    document: Document,
    *,
    label: str = "",
    source: str = "",
    score_min: float | None = None,
    score_max: float | None = None,
) -> list[Span]:
    """Pending spans matching a bulk filter. Filtered in Python: `sources` is a JSON
    list, and containment lookups are not portable to SQLite."""
    pending = Span.objects.filter(document=document, status=SpanStatus.PENDING)
    if label:
        pending = pending.filter(label=label)
    return [s for s in pending if _matches(s, label=label, source=source, score_min=score_min, score_max=score_max)]


@_operation
def bulk_decide(
    *,
    document: Document,
    user: AbstractBaseUser,
    action: str,
    label: str = "",
    source: str = "",
    score_min: float | None = None,
    score_max: float | None = None,
    reason: str = "",
) -> Outcome:
    """Accept or reject every pending span of a label, a source and/or a score
    range, as one audited operation that can be undone as one."""
    if action == "accept":
        values, event = {"status": SpanStatus.ACCEPTED, "reject_reason": ""}, ReviewAction.ACCEPT
    elif action == "reject":
        values, event = {"status": SpanStatus.REJECTED, "reject_reason": _clean_reason(reason)}, ReviewAction.REJECT
    else:
        raise ReviewError("Unknown bulk action.")
    _check_open(document)
    targets = bulk_candidates(document, label=label, source=source, score_min=score_min, score_max=score_max)
    if not targets:
        raise ReviewError("No pending span matches.")
    outcome = Outcome(bulk_id=uuid.uuid4(), changed=targets)
    _apply(document=document, user=user, bulk_id=outcome.bulk_id, changes=[Change(targets, values, event)])
    verb = "Accepted" if action == "accept" else "Rejected"
    outcome.message = f"{verb} {len(targets)} pending span{'s' if len(targets) != 1 else ''}."
    return outcome


def _reverted(action: str):
    """Ops this action already reverted (undo: reverted ops; redo: redone undos)."""
    return ReviewEvent.objects.filter(action=action, undoes__isnull=False).values("undoes")


@_atomic
def undo_last(*, document: Document, user: AbstractBaseUser) -> Outcome:
    """Revert this user's last operation on the document that is not undone yet.

    Each span must still be as the operation left it; if someone changed it
    since, the undo is refused rather than overwriting their decision.
    """
    _check_open(document)
    last = (
        ReviewEvent.objects.filter(document=document, user=user, bulk_id__isnull=False)
        .exclude(action=ReviewAction.UNDO)
        .exclude(bulk_id__in=_reverted(ReviewAction.UNDO).filter(document=document))
        .order_by("-created_at", "-id")
        .first()
    )
    if last is None:
        raise ReviewError("Nothing to undo.")
    outcome = _revert(document=document, user=user, bulk_id=last.bulk_id, action=ReviewAction.UNDO)
    n = len(outcome.changed)
    outcome.message = f"Undone: {last.get_action_display().lower()} ({n} span{'s' if n != 1 else ''})."
    return outcome


@_atomic
def redo_last(*, document: Document, user: AbstractBaseUser) -> Outcome:
    """Re-apply this user's last undone operation, as long as they have made no
    new decision on the document since their undos."""
    _check_open(document)
    mine = ReviewEvent.objects.filter(document=document, user=user, bulk_id__isnull=False)
    last_new = mine.exclude(action__in=[ReviewAction.UNDO, ReviewAction.REDO]).order_by("-created_at", "-id").first()
    undos = mine.filter(action=ReviewAction.UNDO).exclude(
        bulk_id__in=_reverted(ReviewAction.REDO).filter(document=document)
    )
    if last_new is not None:
        undos = undos.filter(id__gt=last_new.id)
    last = undos.order_by("-created_at", "-id").first()
    if last is None:
        raise ReviewError("Nothing to redo.")
    outcome = _revert(document=document, user=user, bulk_id=last.bulk_id, action=ReviewAction.REDO)
    n = len(outcome.changed)
    outcome.message = f"Redone ({n} span{'s' if n != 1 else ''})."
    return outcome


def _revert(*, document: Document, user: AbstractBaseUser, bulk_id: uuid.UUID, action: str) -> Outcome:
    """Put every span of operation `bulk_id` back as it was before it. A span the
    operation created is deleted, one it deleted is created again."""
    # The document's row first, then the spans in id order, as every writer
    # locks them (review/bulk_sql.py): two writers queue up, never deadlock.
    _lock_document(document)
    events = list(ReviewEvent.objects.filter(bulk_id=bulk_id).order_by("-id"))
    span_ids = [e.span_id for e in events if e.span_id]
    live = {s.pk: s for s in Span.objects.select_for_update(no_key=True).filter(pk__in=span_ids).order_by("pk")}
    moved = False  # a span re-created or given other boundaries: see Document.spans_revision
    outcome = Outcome(bulk_id=uuid.uuid4())
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
                bulk_id=outcome.bulk_id,
                undoes=event.bulk_id,
            )
        )

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
            outcome.changed.append(span)
            moved = True
            continue
        span = live.get(event.span_id)
        if span is None or any(span.snapshot().get(k) != v for k, v in event.after.items()):
            raise StaleSpan("These spans were changed since; nothing was changed.")
        outcome.changed.append(span)
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
        _update([span for span, _ in pairs], label=label, status=status, reject_reason=reason, entity=entity)
        for span, event in pairs:
            record(span, event, event.after, span.snapshot())
    ReviewEvent.objects.bulk_create(records)
    _document_written(document, bump=moved)
    return outcome


def _occurrences(text: str, needle: str) -> list[tuple[int, int]]:
    pattern = re.compile(r"(?<!\w)" + re.escape(needle) + r"(?!\w)")
    return [m.span() for m in pattern.finditer(text)]


@_operation
def span_add(
    *,
    document: Document,
    user: AbstractBaseUser,
    start: int,
    end: int,
    label: str,
    all_occurrences: bool = True,
    spans: list[Span] | None = None,
) -> list[Span]:
    """Add an accepted span from a reviewer's selection, as one undoable operation.

    Live spans the selection overlaps are superseded (rejected, audited). With
    `all_occurrences`, every other occurrence of the same text is added as well:
    pending suggestions there are superseded, but a human decision (an accepted
    span) elsewhere is never overridden. Planned in memory, then written by
    `_apply`, in a number of statements that does not grow with the occurrences.

    `spans`, the document's spans if the caller has them, is updated in place
    (the new spans included), so the caller can re-render from it.
    """
    label = _clean_label(label)
    _check_open(document)
    text = document.text
    if not (0 <= start < end <= len(text)):
        raise ReviewError("The selection is outside the document.")
    start, end = _trim(text, start, end)
    if start >= end:
        raise ReviewError("The selection is empty.")
    if bulk_sql.available():
        # Read without a lock: the write checks that every span over the
        # occurrences is still as read, and that none was added or moved since
        # the document was read (its spans_revision).
        spans = _read_spans(document) if spans is None else spans
    else:
        # Locked until the write, the document's row first (SQLite: the
        # transaction's write lock); the caller's list is refreshed in place, so
        # it shows what was planned from.
        document.spans_revision = _lock_document(document)
        locked = sorted(document.spans.select_for_update(no_key=True).order_by("pk"), key=lambda s: (s.start, s.end))
        if spans is None:
            spans = locked
        else:
            spans[:] = locked
    by_key = {(s.start, s.end, s.label): s for s in spans}
    live = [s for s in spans if s.status != SpanStatus.REJECTED]
    occurrences = [(start, end)]
    if all_occurrences:
        occurrences += [o for o in _occurrences(text, text[start:end]) if o != (start, end)]
    to_accept: dict[int, Span] = {}
    to_supersede: dict[int, Span] = {}
    to_create: list[Span] = []
    result: list[Span] = []
    taken: list[tuple[int, int]] = []
    for n, (o_start, o_end) in enumerate(occurrences):
        # An occurrence overlapping one already taken ("Ha Ha" twice in "Ha Ha
        # Ha") is left out: its span would overlap an accepted one, and a span
        # there could end up both superseded and accepted.
        if any(lo < o_end and o_start < hi for lo, hi in taken):
            continue
        overlapping = [s for s in live if s.start < o_end and o_start < s.end and s.pk not in to_supersede]
        if n > 0 and any(
            s.status == SpanStatus.ACCEPTED and (s.start, s.end, s.label) != (o_start, o_end, label)
            for s in overlapping
        ):
            continue
        taken.append((o_start, o_end))
        existing = by_key.get((o_start, o_end, label))
        for other in overlapping:
            if other is not existing:
                to_supersede[other.pk] = other
        if existing is not None:
            if existing.status != SpanStatus.ACCEPTED:
                to_accept[existing.pk] = existing
            result.append(existing)
            continue
        span = Span(
            document=document,
            start=o_start,
            end=o_end,
            label=label,
            text=text[o_start:o_end],
            status=SpanStatus.ACCEPTED,
            sources=["human"],
            score=1.0,
            rule="human",
            created_by=user,
        )
        to_create.append(span)
        result.append(span)
    rejected = {"status": SpanStatus.REJECTED, "reject_reason": ""}
    accepted = {"status": SpanStatus.ACCEPTED, "reject_reason": ""}
    _apply(
        document=document,
        user=user,
        bulk_id=uuid.uuid4(),
        changes=[
            Change(list(to_supersede.values()), rejected, ReviewAction.SUPERSEDE),
            Change(list(to_accept.values()), accepted, ReviewAction.ACCEPT),
        ],
        created=to_create,
        read=spans,
        regions=occurrences,
        check_revision=True,
        bump_revision=True,
    )
    spans.extend(to_create)
    spans.sort(key=lambda s: (s.start, s.end))
    return result


@transaction.atomic
def document_mark_reviewed(*, document: Document, user: AbstractBaseUser) -> None:
    """A reviewer finishes a document: only when no span is pending."""
    if document.status not in (DocumentStatus.READY, DocumentStatus.IN_REVIEW):
        raise ReviewError(f"A document that is “{document.get_status_display()}” cannot be marked reviewed.")
    pending = Span.objects.filter(document=document, status=SpanStatus.PENDING).count()
    if pending:
        raise ReviewError(f"{pending} span{'s are' if pending != 1 else ' is'} still pending.")
    _move(document, DocumentStatus.REVIEWED, user=user, action=ReviewAction.MARK_REVIEWED)


def _last_marked_by(document: Document) -> int | None:
    return (
        ReviewEvent.objects.filter(document=document, action=ReviewAction.MARK_REVIEWED)
        .order_by("-created_at", "-id")
        .values_list("user_id", flat=True)
        .first()
    )


def second_review_done(document: Document) -> bool:
    """Whether someone other than the reviewer who last marked the document
    reviewed has confirmed it since."""
    marked = (
        ReviewEvent.objects.filter(document=document, action=ReviewAction.MARK_REVIEWED)
        .order_by("-created_at", "-id")
        .first()
    )
    if marked is None:
        return False
    return (
        ReviewEvent.objects.filter(document=document, action=ReviewAction.SECOND_REVIEW, id__gt=marked.id)
        .exclude(user_id=marked.user_id)
        .exists()
    )


@transaction.atomic
def document_second_review(*, document: Document, user: AbstractBaseUser) -> None:
    """A second reviewer confirms a reviewed document (corpora that require it)."""
    if document.status != DocumentStatus.REVIEWED:
        raise ReviewError("Only a reviewed document gets a second review.")
    if _last_marked_by(document) == user.pk:
        raise ReviewError("The second review must be done by someone else than the first reviewer.")
    ReviewEvent.objects.create(
        document=document,
        user=user,
        action=ReviewAction.SECOND_REVIEW,
        before={"status": document.status},
        after={"status": document.status},
    )


@transaction.atomic
def document_approve(*, document: Document, user: AbstractBaseUser) -> None:
    """A corpus admin approves a reviewed document; export takes approved ones by default."""
    if document.status != DocumentStatus.REVIEWED:
        raise ReviewError("Only a reviewed document can be approved.")
    if document.corpus.require_second_review and not second_review_done(document):
        raise ReviewError("This corpus requires a second review before approval.")
    _move(document, DocumentStatus.APPROVED, user=user, action=ReviewAction.APPROVE)


def _move(document: Document, status: str, *, user: AbstractBaseUser, action: str) -> None:
    moved = Document.objects.filter(pk=document.pk, status=document.status).update(
        status=status, updated_at=timezone.now()
    )
    if not moved:
        raise ReviewError("The document changed meanwhile; reload the page.")
    ReviewEvent.objects.create(
        document=document, user=user, action=action, before={"status": document.status}, after={"status": status}
    )
    document.status = status


QUEUE_STATUSES = (DocumentStatus.READY, DocumentStatus.IN_REVIEW)


def idle_cutoff():
    return timezone.now() - timedelta(minutes=settings.REVIEW_IDLE_MINUTES)


def release_idle(*, corpus: Corpus) -> int:
    """Release assignments whose holder has not decided anything on the document
    for REVIEW_IDLE_MINUTES (or since being assigned, if longer ago)."""
    cutoff = idle_cutoff()
    last_by_holder = (
        ReviewEvent.objects.filter(document_id=OuterRef("document_id"), user_id=OuterRef("user_id"))
        .values("document_id")
        .annotate(last=Max("created_at"))
        .values("last")
    )
    idle = (
        Assignment.objects.filter(document__corpus=corpus, assigned_at__lt=cutoff)
        .annotate(last=Subquery(last_by_holder))
        .filter(Q(last__isnull=True) | Q(last__lt=cutoff))
    )
    return Assignment.objects.filter(pk__in=list(idle.values_list("pk", flat=True))).delete()[0]


@transaction.atomic
def next_document(*, corpus: Corpus, user: AbstractBaseUser) -> Document | None:
    """The document this reviewer holds, else the oldest unassigned one waiting
    for review, assigned to them. Rows another reviewer is claiming right now
    are skipped, not waited for."""
    held = (
        Document.objects.filter(corpus=corpus, assignment__user=user, status__in=QUEUE_STATUSES)
        .order_by("created_at", "id")
        .first()
    )
    if held is not None:
        return held
    release_idle(corpus=corpus)
    document = (
        Document.objects.select_for_update(skip_locked=True, of=("self",))
        .filter(corpus=corpus, status__in=QUEUE_STATUSES, assignment__isnull=True)
        .order_by("created_at", "id")
        .first()
    )
    if document is not None:
        Assignment.objects.create(document=document, user=user)
    return document
