"""The one access check: every corpus-scoped object is fetched through here, so a
404 is the answer to "not yours". The caller's role comes back in the same query."""

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.core.exceptions import ObjectDoesNotExist
from django.db.models import OuterRef, QuerySet, Subquery, Value
from django.http import Http404

from ingestion.models import Corpus, Document
from review.models import CorpusMembership, Role, Span

User = AbstractBaseUser | AnonymousUser


def _role_expression(user: User, corpus_ref: str):
    if user.is_superuser:
        return Value(Role.ADMIN.value)
    return Subquery(CorpusMembership.objects.filter(corpus=OuterRef(corpus_ref), user_id=user.pk).values("role")[:1])


def corpora_for_user(user: User) -> QuerySet[Corpus]:
    corpora = Corpus.objects.annotate(role=_role_expression(user, "pk"))
    if user.is_superuser:
        return corpora
    return corpora.filter(memberships__user_id=user.pk)


def get_corpus(user: User, pk: int) -> tuple[Corpus, str]:
    corpus = corpora_for_user(user).filter(pk=pk).first()
    if corpus is None:
        raise Http404("No such corpus")
    return corpus, corpus.role


def get_document(user: User, pk: int, annotations: dict | None = None) -> tuple[Document, str]:
    """`annotations`: more of the document to read in the same query."""
    documents = Document.objects.select_related("corpus", "assignment__user").annotate(
        role=_role_expression(user, "corpus_id"), **(annotations or {})
    )
    document = documents.filter(pk=pk, role__isnull=False).first()
    if document is None:
        raise Http404("No such document")
    return document, document.role


def get_span(user: User, pk: int) -> tuple[Span, str]:
    spans = Span.objects.select_related("document", "document__corpus", "document__assignment__user").annotate(
        role=_role_expression(user, "document__corpus_id")
    )
    span = spans.filter(pk=pk, role__isnull=False).first()
    if span is None:
        raise Http404("No such span")
    return span, span.role


def can_review(role: str) -> bool:
    return role in (Role.ADMIN, Role.REVIEWER)


def can_administer(role: str) -> bool:
    return role == Role.ADMIN


def holder_conflict(document: Document, user: User, role: str) -> str | None:
    """Why this user may not change this document now, or None. Reviewers work on
    documents assigned to them (or not assigned to anyone); one held by another
    reviewer is theirs until they finish or it is released as idle. Corpus admins
    may always step in."""
    if role == Role.ADMIN:
        return None
    try:
        assignment = document.assignment
    except ObjectDoesNotExist:
        return None
    if assignment.user_id == user.pk:
        return None
    return f"This document is assigned to {assignment.user.get_username()}; take the next one from the queue."
