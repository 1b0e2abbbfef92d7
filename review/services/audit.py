"""The one writer of ReviewEvent rows: the append-only audit of reviewer
operations (span decisions, undo/redo, workflow steps)."""

import uuid
from collections.abc import Iterable

from django.contrib.auth.models import AbstractBaseUser

from review.models import ReviewEvent, Span


def span_events(
    *,
    spans: Iterable[Span],
    befores: dict[int, dict],
    user: AbstractBaseUser | None,
    action: str,
    bulk_id: uuid.UUID,
    undoes: uuid.UUID | None = None,
) -> list[ReviewEvent]:
    """One unsaved event per span: its state before (from `befores`, by id) and now."""
    return [
        ReviewEvent(
            document_id=s.document_id,
            span=s,
            user=user,
            action=action,
            before=befores.get(s.pk),
            after=s.snapshot(),
            bulk_id=bulk_id,
            undoes=undoes,
        )
        for s in spans
    ]


def record(events: list[ReviewEvent]) -> None:
    """Write the events of one operation: one INSERT."""
    if events:
        ReviewEvent.objects.bulk_create(events)


def record_step(*, document_id: int, user: AbstractBaseUser, action: str, before: dict, after: dict) -> None:
    """A workflow step on the whole document (mark reviewed, second review, approve)."""
    ReviewEvent.objects.create(document_id=document_id, user=user, action=action, before=before, after=after)
