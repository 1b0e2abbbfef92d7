"""Reviewer decisions: accept, reject, relabel, link, resize, delete, add, and
bulk decisions. Each is one operation: planned here in memory from the spans the
caller read, then written by `spans.write` in one transaction, with its audit
events sharing one `bulk_id` (so an apply-to-all or a bulk decision is shown and
undone as one). Writes to existing spans are conditional on the version the
reviewer saw, so two reviewers never silently overwrite each other.
"""

import re
import uuid
from collections.abc import Iterable
from dataclasses import dataclass, field

from django.contrib.auth.models import AbstractBaseUser

from ingestion.models import Document
from review.errors import ReviewError, StaleSpan
from review.models import RejectReason, ReviewAction, Span, SpanStatus
from review.services.spans import Change, check_open, delete_added, operation, write
from review.text import document_text, name_occurrences, same_name_key, span_words, trim, words_of

LABEL_RE = re.compile(r"[A-Z][A-Z0-9_]{0,39}")


@dataclass
class Outcome:
    """What one operation did: the spans it changed (first the one acted on)."""

    bulk_id: uuid.UUID
    changed: list[Span] = field(default_factory=list)
    message: str = ""


def siblings(span: Span, spans: Iterable[Span], text: str | None = None) -> list[Span]:
    """The other pending occurrences of the span's name (the name identity's key:
    "Young" and "YOUNG", never the adjective "young"), which apply-to-all touches.
    Decided spans are never overridden by apply-to-all. `text`, the document's,
    lets a lower-case word's context count ("Mr. young"); by default it is the
    span's loaded document's."""
    text = text if text is not None else document_text(span)
    words = span_words(span)
    key = same_name_key(span, text, words)
    return [
        s for s in spans if s.pk != span.pk and s.status == SpanStatus.PENDING and same_name_key(s, text, words) == key
    ]


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
    """`guard`: what else the write checks (`depends`, `read`, `regions`, `check_revision`: see spans.write)."""
    check_open(span.document)
    _check_version(span, version)
    if targets is None:
        if spans is None:
            spans = list(Span.objects.filter(document_id=span.document_id, status=SpanStatus.PENDING))
        targets = [span, *(siblings(span, spans) if all_occurrences else [])]
    outcome = Outcome(bulk_id=uuid.uuid4(), changed=targets)
    write(
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


@operation
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


@operation
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


@operation
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


@operation
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
    check_open(span.document)
    _check_version(span, version)
    if target.document_id != span.document_id or target.pk == span.pk:
        raise ReviewError("Link a span to another span of the same document.")
    if target.label != span.label:
        raise ReviewError(f"Only spans of the same label can be one entity ({span.label} ≠ {target.label}).")
    if spans is None:
        spans = list(Span.objects.filter(document_id=span.document_id))
    live = [s for s in spans if s.status != SpanStatus.REJECTED and s.label == span.label]

    text = document_text(span)
    words = span_words(span)

    def group(of: Span) -> list[Span]:
        key = same_name_key(of, text, words)
        return [
            s
            for s in live
            if s.pk == of.pk or same_name_key(s, text, words) == key or (of.entity and s.entity == of.entity)
        ]

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
    write(
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
    text = document_text(span)
    words = span_words(span)
    own = same_name_key(span, text, words)
    seen: set[str] = set()
    choices = []
    for s in spans:
        if s.label != span.label or s.status == SpanStatus.REJECTED or same_name_key(s, text, words) == own:
            continue
        if span.entity and s.entity == span.entity:
            continue
        key = s.entity or same_name_key(s, text, words)
        if key not in seen:
            seen.add(key)
            choices.append(s)
    return choices


@operation
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
    check_open(span.document)
    _check_version(span, version)
    text = span.document.text
    if not (0 <= start < end <= len(text)):
        raise ReviewError("The new boundaries are outside the document.")
    start, end = trim(text, start, end)
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
    write(
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


@operation
def span_delete(*, span: Span, user: AbstractBaseUser, version: int | None = None) -> Outcome:
    """Delete a span a reviewer added. Machine suggestions are rejected, never
    deleted, so that the diff keeps what the machine proposed."""
    if not span.is_human:
        raise ReviewError("Only spans added by a reviewer can be deleted; reject a suggestion instead.")
    check_open(span.document)
    _check_version(span, version)
    outcome = Outcome(bulk_id=uuid.uuid4(), message=f"Deleted “{span.text}”.")
    delete_added(span=span, user=user, bulk_id=outcome.bulk_id)
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


@operation
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
    check_open(document)
    targets = bulk_candidates(document, label=label, source=source, score_min=score_min, score_max=score_max)
    if not targets:
        raise ReviewError("No pending span matches.")
    outcome = Outcome(bulk_id=uuid.uuid4(), changed=targets)
    write(document=document, user=user, bulk_id=outcome.bulk_id, changes=[Change(targets, values, event)])
    verb = "Accepted" if action == "accept" else "Rejected"
    outcome.message = f"{verb} {len(targets)} pending span{'s' if len(targets) != 1 else ''}."
    return outcome


@operation
def group_decide(
    *,
    document: Document,
    user: AbstractBaseUser,
    action: str,
    targets: list[Span],
    name: str,
    expected: int | None = None,
    reason: str = "",
) -> Outcome:
    """Accept or reject the pending spans of one side-panel group (an entity or a
    whole label, as the panel showed it), as one audited operation undone as one
    (one `bulk_id`, like a bulk decision). `name` says what the group is, for the
    message. `expected`: the count the reviewer's button showed; a group that has
    changed since is refused rather than deciding spans they did not see. Every
    span is written only if still at the version read (else StaleSpan)."""
    if action == "accept":
        values, event = {"status": SpanStatus.ACCEPTED, "reject_reason": ""}, ReviewAction.ACCEPT
    elif action == "reject":
        values, event = {"status": SpanStatus.REJECTED, "reject_reason": _clean_reason(reason)}, ReviewAction.REJECT
    else:
        raise ReviewError("Unknown action: accept or reject.")
    check_open(document)
    targets = [s for s in targets if s.status == SpanStatus.PENDING and s.document_id == document.pk]
    if not targets:
        raise ReviewError(f"{name}: no pending span left to decide.")
    if expected is not None and expected != len(targets):
        raise StaleSpan(
            f"{name} now has {len(targets)} pending span{'s' if len(targets) != 1 else ''}, not {expected}: "
            "nothing was decided; the side panel has been refreshed."
        )
    outcome = Outcome(bulk_id=uuid.uuid4(), changed=targets)
    write(document=document, user=user, bulk_id=outcome.bulk_id, changes=[Change(targets, values, event)])
    verb = "Accepted" if action == "accept" else "Rejected"
    n = len(targets)
    outcome.message = f"{verb} {n} pending span{'s' if n != 1 else ''} of {name}."
    return outcome


@operation
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
    `spans.write`, in a number of statements that does not grow with the occurrences.

    `spans`, the document's spans if the caller has them, is updated in place
    (the new spans included), so the caller can re-render from it.
    """
    label = _clean_label(label)
    check_open(document)
    text = document.text
    if not (0 <= start < end <= len(text)):
        raise ReviewError("The selection is outside the document.")
    start, end = trim(text, start, end)
    if start >= end:
        raise ReviewError("The selection is empty.")
    # Planned from the spans as read, without a lock: the write checks that every
    # span over the occurrences is still as read, and that none was added or moved
    # since the document was read (its spans_revision).
    spans = _read_spans(document) if spans is None else spans
    by_key = {(s.start, s.end, s.label): s for s in spans}
    live = [s for s in spans if s.status != SpanStatus.REJECTED]
    occurrences = name_occurrences(text, start, end, label, words_of(document)) if all_occurrences else [(start, end)]
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
    write(
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
