"""A corpus's memory (issue 17): the names its reviewers accepted and the forms they
rejected, as detection remembers them; a corpus admin removes an entry (audited)."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from review.access import Need, corpus_for
from review.errors import ReviewError
from review.selectors.memory import memory_page
from review.services.corpus_memory import memory_entry_remove


@login_required
def corpus_memory(request: HttpRequest, pk: int) -> HttpResponse:
    corpus, _role = corpus_for(request.user, pk, Need.ADMIN)
    return render(request, "review/corpus_memory.html", {"corpus": corpus, "page": memory_page(corpus.pk)})


@login_required
@require_POST
def corpus_memory_remove(request: HttpRequest, pk: int, kind: str, entry: int) -> HttpResponse:
    corpus, _role = corpus_for(request.user, pk, Need.ADMIN)
    try:
        removal = memory_entry_remove(
            corpus_id=corpus.pk, kind=kind, entry_id=entry, user=request.user, reason=request.POST.get("reason", "")
        )
    except ReviewError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, f"“{removal.form}” removed from the corpus memory.")
    return redirect("corpus_memory", pk=corpus.pk)
