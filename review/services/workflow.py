"""A document's review workflow: ready → in review → reviewed → (second review) →
approved. Status changes go through ingestion.services (the Document writer),
each with its audit event."""

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction

from ingestion.models import Document, DocumentStatus
from ingestion.services import document_move
from review.errors import ReviewError
from review.models import ReviewAction, ReviewEvent, Span, SpanStatus
from review.services import audit
from review.services.corpus_memory import corpus_memory_learn
from review.services.corpus_models import corpus_training_maybe_start


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
    audit.record_step(
        document_id=document.pk,
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
    # Its decisions join the corpus's memory (issue 17), in the same transaction.
    corpus_memory_learn(document_id=document.pk, corpus_id=document.corpus_id)
    # Every CORPUS_TRAINING_EVERY_N_APPROVED documents, a corpus model run (issue 17).
    corpus_training_maybe_start(corpus_id=document.corpus_id)


def _move(document: Document, status: str, *, user: AbstractBaseUser, action: str) -> None:
    if not document_move(document.pk, from_statuses=(document.status,), to=status):
        raise ReviewError("The document changed meanwhile; reload the page.")
    audit.record_step(
        document_id=document.pk, user=user, action=action, before={"status": document.status}, after={"status": status}
    )
    document.status = status
