"""What happened to a document (its audit trail, machine vs final, what the
machine filtered) and to a corpus (machine vs final over every document)."""

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from review.access import corpus_for, document_for
from review.selectors.document import document_spans
from review.selectors.history import corpus_diff, detection_summary, document_events, first_befores, machine_vs_final


@login_required
@require_GET
def document_history(request: HttpRequest, pk: int) -> HttpResponse:
    document, role = document_for(request.user, pk)
    events = document_events(document)
    spans = document_spans(document)
    detection = detection_summary(document)
    return render(
        request,
        "review/document_history.html",
        {
            "document": document,
            "role": role,
            "events": events,
            "diff": machine_vs_final(spans, first_befores(events)),
            "detection": detection,
        },
    )


@login_required
@require_GET
def corpus_stats(request: HttpRequest, pk: int) -> HttpResponse:
    """Machine vs final over the whole corpus: which label and which recognizer
    misses (spans reviewers added) or over-fires (spans they rejected)."""
    corpus, _role = corpus_for(request.user, pk)
    diff, count = corpus_diff(corpus)
    return render(request, "review/corpus_stats.html", {"corpus": corpus, "diff": diff, "spans": count})
