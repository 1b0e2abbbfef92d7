from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import FileResponse, Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods, require_POST
from django.views.decorators.vary import vary_on_headers

from pipelines.detection.config import ConfigError
from pipelines.detection.config import DetectionConfig as DetectionSettings
from pipelines.forms import DetectionConfigForm, ExportForm
from pipelines.models import ExportBatch, ExportStatus
from pipelines.selectors import any_export_running, config_changes, corpus_exports, document_runs
from pipelines.services import (
    REANNOTATABLE_STATUSES,
    ReannotateError,
    corpus_detection_settings,
    corpus_reannotate_request,
    detection_config_save,
    document_reannotate_request,
    export_create,
)
from review.access import can_administer, get_corpus, get_document


@login_required
@require_POST
def export_start(request: HttpRequest, pk: int) -> HttpResponse:
    corpus, role = get_corpus(request.user, pk)
    if not can_administer(role):
        raise PermissionDenied("Only corpus admins can export.")
    form = ExportForm(request.POST)
    if not form.is_valid():
        messages.error(request, "Export not started: " + "; ".join(e for errs in form.errors.values() for e in errs))
        return redirect("corpus_detail", pk=corpus.pk)
    try:
        export_create(corpus=corpus, user=request.user, options=form.options())
    except ValueError as exc:
        messages.error(request, f"Export not started: {exc}")
    return redirect("corpus_detail", pk=corpus.pk)


@login_required
@vary_on_headers("HX-Request")
def export_list(request: HttpRequest, pk: int) -> HttpResponse:
    corpus, role = get_corpus(request.user, pk)
    if not can_administer(role):
        # Export history (and leak reports) are for corpus admins, as on the page.
        raise Http404("No such page")
    exports = list(corpus_exports(corpus))
    return render(
        request,
        "ingestion/corpus_detail.html#exports",
        {
            "corpus": corpus,
            "exports": exports,
            "exports_polling": any_export_running(exports),
            "is_admin": can_administer(role),
        },
    )


@login_required
def export_download(request: HttpRequest, pk: int) -> FileResponse:
    batch = ExportBatch.objects.filter(pk=pk, status=ExportStatus.DONE).select_related("corpus").first()
    if batch is None:
        raise Http404("No such export")
    _corpus, role = get_corpus(request.user, batch.corpus_id)
    if not can_administer(role):
        raise Http404("No such export")
    return FileResponse(
        batch.file.open("rb"), as_attachment=True, filename=f"{batch.corpus.name}-export-{batch.pk}.zip"
    )


@login_required
@require_http_methods(["GET", "POST"])
def detection_config(request: HttpRequest, pk: int) -> HttpResponse:
    """Corpus admins edit the corpus's detection configuration; to anyone else the
    page does not exist."""
    corpus, role = get_corpus(request.user, pk)
    if not can_administer(role):
        raise Http404("No such page")
    if request.method == "POST":
        form = DetectionConfigForm(request.POST)
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
        form = DetectionConfigForm(initial=DetectionConfigForm.initial_for(current))
    return render(
        request,
        "pipelines/detection_config.html",
        {"corpus": corpus, "form": form, "changes": list(config_changes(corpus))},
    )


@login_required
@vary_on_headers("HX-Request")
def document_annotation(request: HttpRequest, pk: int) -> HttpResponse:
    """A document's machine passes: progress while one runs (polled), and the
    history of pre-annotation and re-annotations, to every member of the corpus."""
    document, role = get_document(request.user, pk)
    runs = list(document_runs(document))
    context = {
        "document": document,
        "runs": runs,
        "active": next((run for run in runs if run.is_active), None),
        "can_reannotate": can_administer(role) and document.status in REANNOTATABLE_STATUSES,
        "is_admin": can_administer(role),
    }
    if request.htmx:
        return render(request, "pipelines/document_annotation.html#annotation", context)
    return render(request, "pipelines/document_annotation.html", context)


@login_required
@require_POST
def document_reannotate(request: HttpRequest, pk: int) -> HttpResponse:
    document, role = get_document(request.user, pk)
    if not can_administer(role):
        raise Http404("No such document")
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
    corpus, role = get_corpus(request.user, pk)
    if not can_administer(role):
        raise Http404("No such corpus")
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
