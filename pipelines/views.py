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
from pipelines.selectors import any_export_running, corpus_exports
from pipelines.services import corpus_detection_settings, detection_config_save, export_create
from review.access import can_administer, get_corpus


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
            detection_config_save(corpus=corpus, user=request.user, config=form.config)
            messages.success(request, "Detection configuration saved: documents annotated from now on use it.")
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
    return render(request, "pipelines/detection_config.html", {"corpus": corpus, "form": form})
