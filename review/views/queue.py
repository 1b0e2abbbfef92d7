"""The corpus queue: documents waiting for review, and "give me the next one"."""

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_POST

from review.access import Need, can_review, corpus_for
from review.selectors.queue import queue_counts, queue_documents, review_rate
from review.services.queue import idle_cutoff, next_document


@login_required
@require_GET
def corpus_queue(request: HttpRequest, pk: int) -> HttpResponse:
    corpus, role = corpus_for(request.user, pk)
    status = request.GET.get("status", "")
    mine = request.GET.get("mine") == "on"
    documents = queue_documents(corpus, status=status, mine_only=mine, user=request.user)
    rate = review_rate(corpus)
    for document in documents:
        document.minutes_left = rate.minutes_for(document.pending)
    return render(
        request,
        "review/corpus_queue.html",
        {
            "corpus": corpus,
            "can_review": can_review(role),
            "documents": documents,
            "rate": rate,
            "minutes_left": rate.minutes_for(sum(d.pending for d in documents)),
            "low_score": settings.REVIEW_QUEUE_LOW_SCORE,
            "counts": queue_counts(corpus),
            "status": status,
            "mine": mine,
            "idle_cutoff": idle_cutoff(),
        },
    )


@login_required
@require_POST
def queue_next(request: HttpRequest, pk: int) -> HttpResponse:
    corpus, _role = corpus_for(request.user, pk, Need.REVIEW)
    document = next_document(corpus=corpus, user=request.user)
    if document is None:
        messages.info(request, "No document is waiting for review.")
        return redirect("corpus_queue", corpus.pk)
    return redirect("document_review", document.pk)
