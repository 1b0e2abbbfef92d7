"""Starting an export, its list on the corpus page (polled) and its download."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import FileResponse, Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST
from django.views.decorators.vary import vary_on_headers

from review.access import can_administer, get_corpus
from review.forms import ExportForm
from review.selectors.exports import any_export_running, corpus_exports, finished_export
from review.services.export import export_create


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
        # The corpus page polls the fragment; a direct visit (a bookmark, a
        # copied link) gets it in a page of its own, styled.
        "review/corpus_detail.html#exports" if request.htmx else "review/corpus_exports.html",
        {
            "corpus": corpus,
            "exports": exports,
            "exports_polling": any_export_running(exports),
            "is_admin": can_administer(role),
        },
    )


@login_required
def export_download(request: HttpRequest, pk: int) -> FileResponse:
    batch = finished_export(pk)
    if batch is None:
        raise Http404("No such export")
    _corpus, role = get_corpus(request.user, batch.corpus_id)
    if not can_administer(role):
        raise Http404("No such export")
    return FileResponse(
        batch.file.open("rb"), as_attachment=True, filename=f"{batch.corpus.name}-export-{batch.pk}.zip"
    )
