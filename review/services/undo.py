"""Undo and redo of a reviewer's own operations, one operation at a time."""

from django.contrib.auth.models import AbstractBaseUser

from ingestion.models import Document
from review.errors import ReviewError
from review.models import ReviewAction, ReviewEvent
from review.services.decisions import Outcome
from review.services.spans import check_open, operation, revert


def _reverted(action: str):
    """Ops this action already reverted (undo: reverted ops; redo: redone undos)."""
    return ReviewEvent.objects.filter(action=action, undoes__isnull=False).values("undoes")


@operation
def undo_last(*, document: Document, user: AbstractBaseUser) -> Outcome:
    """Revert this user's last operation on the document that is not undone yet.

    Each span must still be as the operation left it; if someone changed it
    since, the undo is refused rather than overwriting their decision.
    """
    check_open(document)
    last = (
        ReviewEvent.objects.filter(document=document, user=user, bulk_id__isnull=False)
        .exclude(action=ReviewAction.UNDO)
        .exclude(bulk_id__in=_reverted(ReviewAction.UNDO).filter(document=document))
        .order_by("-created_at", "-id")
        .first()
    )
    if last is None:
        raise ReviewError("Nothing to undo.")
    bulk_id, changed = revert(document=document, user=user, bulk_id=last.bulk_id, action=ReviewAction.UNDO)
    outcome = Outcome(bulk_id=bulk_id, changed=changed)
    n = len(changed)
    outcome.message = f"Undone: {last.get_action_display().lower()} ({n} span{'s' if n != 1 else ''})."
    return outcome


@operation
def redo_last(*, document: Document, user: AbstractBaseUser) -> Outcome:
    """Re-apply this user's last undone operation, as long as they have made no
    new decision on the document since their undos."""
    check_open(document)
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
    bulk_id, changed = revert(document=document, user=user, bulk_id=last.bulk_id, action=ReviewAction.REDO)
    outcome = Outcome(bulk_id=bulk_id, changed=changed)
    n = len(changed)
    outcome.message = f"Redone ({n} span{'s' if n != 1 else ''})."
    return outcome
