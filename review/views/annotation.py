"""A corpus's detection configuration, a document's machine passes (progress and
history), and re-annotation of a document or a whole corpus."""

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods, require_POST
from django.views.decorators.vary import vary_on_headers

from pipelines.detection.config import ConfigError
from pipelines.detection.config import DetectionConfig as DetectionSettings
from pipelines.detection.models.catalog import REGISTRY
from review.access import Need, can_administer, corpus_for, document_for
from review.forms import DetectionConfigForm
from review.selectors.runs import config_changes, document_runs
from review.services.annotation import (
    REANNOTATABLE_STATUSES,
    ReannotateError,
    corpus_reannotate_request,
    document_reannotate_request,
)
from review.services.detection_config import corpus_detection_settings, detection_config_save


def _stored_model(corpus_id: int) -> str:
    """The model the corpus's stored configuration names ("" when none or invalid)."""
    try:
        return corpus_detection_settings(corpus_id).model
    except ConfigError:
        return ""


@login_required
@require_http_methods(["GET", "POST"])
def detection_config(request: HttpRequest, pk: int) -> HttpResponse:
    """Corpus admins edit the corpus's detection configuration."""
    corpus, _role = corpus_for(request.user, pk, Need.ADMIN)
    if request.method == "POST":
        # A value that is neither empty nor a registry name is only accepted if it is
        # what is stored already (read only then: the usual save costs no query more).
        posted = request.POST.get("model", "")
        initial = {"model": _stored_model(corpus.pk)} if posted and posted not in REGISTRY else {}
        form = DetectionConfigForm(request.POST, initial=initial, site_model=settings.SPACY_MODEL)
        if form.is_valid():
            change = detection_config_save(corpus=corpus, user=request.user, config=form.config)
            if change is None:
                messages.info(request, "Nothing changed.")
            else:
                messages.success(
                    request,
                    "Detection configuration saved: documents annotated from now on use it; "
                    "re-annotate the others to apply it to them.",
                )
            return redirect("detection_config", pk=corpus.pk)
    else:
        try:
            current = corpus_detection_settings(corpus.pk)
        except ConfigError as exc:
            # A stored configuration that no longer validates (say, a pack was
            # removed) is shown as the default, with the reason, for the admin to fix.
            messages.error(request, f"The stored configuration is invalid ({exc}); showing the default.")
            current = DetectionSettings()
        form = DetectionConfigForm(initial=DetectionConfigForm.initial_for(current), site_model=settings.SPACY_MODEL)
    return render(
        request,
        "review/detection_config.html",
        {"corpus": corpus, "form": form, "changes": list(config_changes(corpus))},
    )


@login_required
@vary_on_headers("HX-Request")
def document_annotation(request: HttpRequest, pk: int) -> HttpResponse:
    """A document's machine passes: progress while one runs (polled), and the
    history of pre-annotation and re-annotations, to every member of the corpus."""
    document, role = document_for(request.user, pk)
    runs = list(document_runs(document))
    context = {
        "document": document,
        "runs": runs,
        "active": next((run for run in runs if run.is_active), None),
        "can_reannotate": can_administer(role) and document.status in REANNOTATABLE_STATUSES,
        "is_admin": can_administer(role),
    }
    if request.htmx:
        return render(request, "review/document_annotation.html#annotation", context)
    return render(request, "review/document_annotation.html", context)


@login_required
@require_POST
def document_reannotate(request: HttpRequest, pk: int) -> HttpResponse:
    document, _role = document_for(request.user, pk, Need.ADMIN)
    try:
        run = document_reannotate_request(document=document, user=request.user)
    except ReannotateError as exc:
        messages.error(request, str(exc))
    else:
        if run is None:
            messages.success(request, f"“{document.name}” is queued for pre-annotation again.")
        else:
            messages.success(
                request,
                f"“{document.name}” is queued for re-annotation: reviewers' decisions are kept, "
                "pending machine spans are replaced.",
            )
    return redirect("document_annotation", pk=document.pk)


@login_required
@require_POST
def corpus_reannotate(request: HttpRequest, pk: int) -> HttpResponse:
    corpus, _role = corpus_for(request.user, pk, Need.ADMIN)
    summary = corpus_reannotate_request(corpus=corpus, user=request.user)
    parts = [f"{summary.queued} document(s) queued for re-annotation"]
    if summary.retried:
        parts.append(f"{summary.retried} failed pre-annotation(s) queued again")
    if summary.already_queued:
        parts.append(f"{summary.already_queued} already queued")
    if summary.not_eligible:
        parts.append(f"{summary.not_eligible} left alone (approved, or not annotated yet)")
    messages.success(request, "; ".join(parts) + ".")
    return redirect("corpus_detail", pk=corpus.pk)
