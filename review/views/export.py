"""Starting an export, its list on the corpus page (polled) and its download."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import FileResponse, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST
from django.views.decorators.vary import vary_on_headers

from review.access import Need, corpus_for, export_for
from review.forms import ExportForm
from review.models import ExportStatus
from review.selectors.exports import any_export_running, corpus_exports
from review.services.export import export_create


@login_required
@require_POST
def export_start(request: HttpRequest, pk: int) -> HttpResponse:
    corpus, _role = corpus_for(request.user, pk, Need.ADMIN)
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
    # Export history (and leak reports) are for corpus admins, as on the page.
    corpus, _role = corpus_for(request.user, pk, Need.ADMIN)
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
            "is_admin": True,
        },
    )


@login_required
def export_download(request: HttpRequest, pk: int) -> FileResponse:
    batch, _role = export_for(request.user, pk, ExportStatus.DONE)
    return FileResponse(
        batch.file.open("rb"), as_attachment=True, filename=f"{batch.corpus.name}-export-{batch.pk}.zip"
    )
