from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET, require_POST
from django.views.decorators.vary import vary_on_headers

from pipelines.labels import CANONICAL_LABELS
from review.access import can_review, get_document, get_span
from review.selectors import document_spans, legend, segments, status_counts
from review.services import ReviewError, span_accept, span_add, span_reject, span_relabel

TEMPLATE = "review/document_review.html"


def _page_context(document, role, **extra) -> dict:
    spans = document_spans(document)
    return {
        "document": document,
        "role": role,
        "can_review": can_review(role),
        "segments": segments(document.text, spans),
        "legend": legend(spans),
        "counts": status_counts(spans),
        "labels": CANONICAL_LABELS,
        **extra,
    }


@login_required
@require_GET
def document_review(request: HttpRequest, pk: int) -> HttpResponse:
    document, role = get_document(request.user, pk)
    return render(request, TEMPLATE, _page_context(document, role))


@login_required
@require_GET
def span_panel(request: HttpRequest, pk: int) -> HttpResponse:
    span, role = get_span(request.user, pk)
    return render(
        request,
        f"{TEMPLATE}#panel",
        {"span": span, "document": span.document, "can_review": can_review(role), "labels": CANONICAL_LABELS},
    )


@login_required
@require_POST
@vary_on_headers("HX-Request")
def span_decide(request: HttpRequest, pk: int, action: str) -> HttpResponse:
    span, role = get_span(request.user, pk)
    if not can_review(role):
        raise PermissionDenied("Read-only access.")
    error = None
    try:
        if action == "accept":
            span_accept(span=span, user=request.user)
        elif action == "reject":
            span_reject(span=span, user=request.user)
        elif action == "relabel":
            span_relabel(span=span, user=request.user, label=request.POST.get("label", ""))
        else:
            raise ReviewError("Unknown action.")
    except ReviewError as exc:
        error = str(exc)
    document = span.document
    # The whole text is re-rendered: a relabel or reject can uncover a superseded
    # suggestion elsewhere, and one query renders it all.
    return render(request, f"{TEMPLATE}#decision", _page_context(document, role, span=span, error=error, oob=True))


@login_required
@require_POST
def span_create(request: HttpRequest, pk: int) -> HttpResponse:
    document, role = get_document(request.user, pk)
    if not can_review(role):
        raise PermissionDenied("Read-only access.")
    error = None
    added = []
    try:
        start = int(request.POST.get("start", ""))
        end = int(request.POST.get("end", ""))
        added = span_add(
            document=document,
            user=request.user,
            start=start,
            end=end,
            label=request.POST.get("label", ""),
            all_occurrences=request.POST.get("all") == "on",
        )
    except ValueError:
        error = "Select some text first."
    except ReviewError as exc:
        error = str(exc)
    span = added[0] if added else None
    return render(
        request,
        f"{TEMPLATE}#decision",
        _page_context(document, role, span=span, error=error, oob=True, added_count=len(added)),
    )
