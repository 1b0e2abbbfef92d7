"""The one access check. Every corpus-scoped object a view works on is fetched
through here, with what the view needs of the user, and the refusals have one
meaning everywhere:

- not a member of the object's corpus (or no such object): 404, so that a corpus
  that is not yours does not even show that it exists;
- a member whose role is not enough for what the view does: 403;
- anonymous: the views' `login_required` sends them to the login page first.

The caller's role comes back in the same query as the object, for the page to
show or hide its controls (`allowed(role, Need.REVIEW)`)."""

from enum import StrEnum
from typing import TypeVar

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.core.exceptions import ObjectDoesNotExist, PermissionDenied
from django.db.models import Model, OuterRef, QuerySet, Subquery, Value
from django.http import Http404

from ingestion.models import Corpus, Document
from review.models import CorpusMembership, ExportBatch, QuasiIdentifier, Role, Span

User = AbstractBaseUser | AnonymousUser
M = TypeVar("M", bound=Model)


class Need(StrEnum):
    """What a view needs of the user's role in the corpus."""

    READ = "read"  # any member: auditor, reviewer, corpus admin
    REVIEW = "review"  # change spans, flags and the workflow: reviewer or corpus admin
    ADMIN = "admin"  # upload, configure, export, train, delete: corpus admin


ROLES_FOR: dict[Need, frozenset[str]] = {
    Need.READ: frozenset({Role.ADMIN, Role.REVIEWER, Role.AUDITOR}),
    Need.REVIEW: frozenset({Role.ADMIN, Role.REVIEWER}),
    Need.ADMIN: frozenset({Role.ADMIN}),
}

# The 403's reason, one per need (a member can see what they are missing).
REFUSALS: dict[Need, str] = {
    Need.READ: "You are not a member of this corpus.",
    Need.REVIEW: "Read-only access: this needs the reviewer or corpus admin role.",
    Need.ADMIN: "Only corpus admins may do this.",
}


def allowed(role: str | None, need: Need) -> bool:
    return role in ROLES_FOR[need]


def can_review(role: str | None) -> bool:
    return allowed(role, Need.REVIEW)


def can_administer(role: str | None) -> bool:
    return allowed(role, Need.ADMIN)


def _role_expression(user: User, corpus_ref: str):
    if user.is_superuser:
        return Value(Role.ADMIN.value)
    return Subquery(CorpusMembership.objects.filter(corpus=OuterRef(corpus_ref), user_id=user.pk).values("role")[:1])


def _grant(found: M | None, need: Need, what: str) -> tuple[M, str]:
    """The one answer: nothing (or nothing of a corpus of yours) is a 404; yours
    but not enough is a 403."""
    role = getattr(found, "role", None)
    if found is None or role is None:
        raise Http404(f"No such {what}")
    if not allowed(role, need):
        raise PermissionDenied(REFUSALS[need])
    return found, role


def corpora_for_user(user: User) -> QuerySet[Corpus]:
    corpora = Corpus.objects.annotate(role=_role_expression(user, "pk"))
    if user.is_superuser:
        return corpora
    return corpora.filter(memberships__user_id=user.pk)


def corpus_for(user: User, pk: int, need: Need = Need.READ) -> tuple[Corpus, str]:
    return _grant(corpora_for_user(user).filter(pk=pk).first(), need, "corpus")


def document_for(user: User, pk: int, need: Need = Need.READ, annotations: dict | None = None) -> tuple[Document, str]:
    """`annotations`: more of the document to read in the same query."""
    documents = Document.objects.select_related("corpus", "assignment__user").annotate(
        role=_role_expression(user, "corpus_id"), **(annotations or {})
    )
    return _grant(documents.filter(pk=pk).first(), need, "document")


def span_for(user: User, pk: int, need: Need = Need.READ, *, layout: bool = True) -> tuple[Span, str]:
    """The span with its document. `layout=False` leaves the document's layout
    map unread (deferred): parsing it is ~10 ms on a 500-page transcript, and the
    span panel shows no place."""
    spans = Span.objects.select_related("document", "document__corpus", "document__assignment__user").annotate(
        role=_role_expression(user, "document__corpus_id")
    )
    if not layout:
        spans = spans.defer("document__layout")
    return _grant(spans.filter(pk=pk).first(), need, "span")


def flag_for(user: User, pk: int, need: Need = Need.READ) -> tuple[QuasiIdentifier, str]:
    """A quasi-identifier flag with its document (and the document's holder)."""
    flags = QuasiIdentifier.objects.select_related(
        "document", "document__corpus", "document__assignment__user"
    ).annotate(role=_role_expression(user, "document__corpus_id"))
    return _grant(flags.filter(pk=pk).first(), need, "flag")


def export_for(user: User, pk: int, status: str, need: Need = Need.ADMIN) -> tuple[ExportBatch, str]:
    """An export in `status` (a download is of a finished one, a leak report of a
    failed one; any other is a 404), with its corpus. Exports are for corpus
    admins by default: their history and leak reports name what was found."""
    batches = ExportBatch.objects.select_related("corpus").annotate(role=_role_expression(user, "corpus_id"))
    return _grant(batches.filter(pk=pk, status=status).first(), need, "export")


def staff_for(user: User, why: str) -> None:
    """What is not corpus-scoped (creating a corpus, whose admin the creator becomes)
    is for staff: anyone else logged in gets a 403."""
    if not user.is_staff:
        raise PermissionDenied(why)


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
