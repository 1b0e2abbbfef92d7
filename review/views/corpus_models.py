"""A corpus's own models (issue 17): versions with base vs candidate scores on their
held-out documents; a corpus admin starts a training run, activates any earlier
version (rollback) or goes back to the base model, each audited."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from review.access import Need, corpus_for
from review.errors import ReviewError
from review.selectors.corpus_models import models_page
from review.services.corpus_models import corpus_model_deactivate, corpus_model_rollback, corpus_training_start


@login_required
def corpus_models(request: HttpRequest, pk: int) -> HttpResponse:
    corpus, _role = corpus_for(request.user, pk, Need.ADMIN)
    return render(request, "review/corpus_models.html", {"corpus": corpus, "page": models_page(corpus.pk)})


@login_required
@require_POST
def corpus_model_train(request: HttpRequest, pk: int) -> HttpResponse:
    corpus, _role = corpus_for(request.user, pk, Need.ADMIN)
    try:
        version = corpus_training_start(corpus_id=corpus.pk, user=request.user)
    except ReviewError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, f"Training of version {version.version} queued.")
    return redirect("corpus_models", pk=corpus.pk)


@login_required
@require_POST
def corpus_model_activate(request: HttpRequest, pk: int, version: int) -> HttpResponse:
    corpus, _role = corpus_for(request.user, pk, Need.ADMIN)
    try:
        chosen = corpus_model_rollback(corpus_id=corpus.pk, version_id=version, user=request.user)
    except ReviewError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, f"Version {chosen.version} is now the corpus's model.")
    return redirect("corpus_models", pk=corpus.pk)


@login_required
@require_POST
def corpus_model_use_base(request: HttpRequest, pk: int) -> HttpResponse:
    corpus, _role = corpus_for(request.user, pk, Need.ADMIN)
    try:
        corpus_model_deactivate(corpus_id=corpus.pk, user=request.user)
    except ReviewError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, "The base model is used again.")
    return redirect("corpus_models", pk=corpus.pk)
