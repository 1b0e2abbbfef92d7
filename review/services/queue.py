"""The corpus queue: who holds which document for review (the one writer of
Assignment rows)."""

from datetime import timedelta

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import Max, OuterRef, Q, Subquery
from django.utils import timezone

from ingestion.models import Corpus, Document, DocumentStatus
from review.models import Assignment, ReviewEvent

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


def assignment_release(assignment: Assignment) -> None:
    """An assignment released by hand (the Django admin): the document goes back to the queue."""
    assignment.delete()
