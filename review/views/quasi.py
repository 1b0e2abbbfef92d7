"""Quasi-identifier flags on the review page (issue 18): the layer's list, loaded
by the page, and a reviewer's decision on one flag (mask, generalise, keep, or
back to undecided); the corpus's residual-risk page."""

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET, require_POST

from ingestion.models import DocumentStatus
from review.access import Need, can_review, corpus_for, document_for, flag_for, holder_conflict
from review.errors import ReviewError
from review.models import QuasiDecision
from review.selectors.quasi import corpus_risk, document_flags, flag_counts
from review.services.quasi import quasi_decide

FLAGS = "review/_quasi_flags.html"
# The URL's action → the decision it records ("reset": back to undecided).
ACTIONS = {
    "mask": QuasiDecision.MASK,
    "generalise": QuasiDecision.GENERALISE,
    "keep": QuasiDecision.KEEP,
    "reset": QuasiDecision.PENDING,
}


def _flags(request: HttpRequest, document, role: str, **extra) -> HttpResponse:
    rows = document_flags(document)
    # As the review page's can_edit: no decision buttons where a decision is refused.
    can_edit = can_review(role) and document.status != DocumentStatus.APPROVED
    context = {"document": document, "rows": rows, "counts": flag_counts(rows), "can_edit": can_edit}
    return render(request, FLAGS, {**context, **extra})


@login_required
@require_GET
def document_quasi(request: HttpRequest, pk: int) -> HttpResponse:
    document, role = document_for(request.user, pk)
    return _flags(request, document, role)


def _int(value: str | None) -> int | None:
    try:
        return int(value) if value not in (None, "") else None
    except ValueError:
        return None


@login_required
@require_POST
def quasi_decision(request: HttpRequest, pk: int, action: str) -> HttpResponse:
    flag, role = flag_for(request.user, pk, Need.REVIEW)
    document = flag.document
    error = message = ""
    try:
        if action not in ACTIONS:
            raise ReviewError("Unknown action: mask, generalise or keep.")
        conflict = holder_conflict(document, request.user, role)
        if conflict:
            raise ReviewError(conflict)
        outcome = quasi_decide(
            flag=flag,
            user=request.user,
            decision=ACTIONS[action],
            version=_int(request.POST.get("version")),
            generalised=request.POST.get("generalised"),
        )
        message = outcome.message
    except ReviewError as exc:  # StaleSpan included: the list is re-read below
        error = str(exc)
    # 200 with the message either way: htmx swaps the list in, error included.
    return _flags(request, document, role, error=error, message=message)


@login_required
@require_GET
def corpus_risk_page(request: HttpRequest, pk: int) -> HttpResponse:
    corpus, role = corpus_for(request.user, pk)
    return render(request, "review/residual_risk.html", {"corpus": corpus, "role": role, "risk": corpus_risk(corpus)})
