"""The corpus queue: who holds which document for review (the one writer of
Assignment rows)."""

from datetime import timedelta

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import Count, Max, OuterRef, Q, Subquery
from django.db.models.functions import Coalesce
from django.utils import timezone

from ingestion.models import Corpus, Document, DocumentStatus
from review.models import Assignment, ReviewEvent, Span, SpanStatus

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


def _pending_count(**filters) -> Coalesce:
    counted = (
        Span.objects.filter(document_id=OuterRef("pk"), status=SpanStatus.PENDING, **filters)
        .order_by()
        .values("document_id")
        .annotate(n=Count("id"))
        .values("n")
    )
    return Coalesce(Subquery(counted), 0)


@transaction.atomic
def next_document(*, corpus: Corpus, user: AbstractBaseUser) -> Document | None:
    """The document this reviewer holds, else the riskiest unassigned one waiting
    for review (the queue page's order: most low-score pending spans, then most
    pending, then the oldest), assigned to them. Rows another reviewer is claiming right now
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
        # The queue page's order (riskiest first), as correlated subqueries: a
        # GROUP BY cannot be locked FOR UPDATE.
        .annotate(low_score=_pending_count(score__lt=settings.REVIEW_QUEUE_LOW_SCORE), pending=_pending_count())
        .order_by("-low_score", "-pending", "created_at", "id")
        .first()
    )
    if document is not None:
        Assignment.objects.create(document=document, user=user)
    return document


def assignment_release(assignment: Assignment) -> None:
    """An assignment released by hand (the Django admin): the document goes back to the queue."""
    assignment.delete()
