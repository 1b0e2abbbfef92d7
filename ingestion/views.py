from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db.models import Count
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods, require_POST
from django.views.decorators.vary import vary_on_headers

from ingestion.forms import CorpusForm, UploadForm
from ingestion.selectors import any_in_progress, corpus_documents
from ingestion.services import IngestError, corpus_create, document_ingest
from pipelines.selectors import any_export_running, corpus_exports
from review.access import can_administer, corpora_for_user, get_corpus


@login_required
@require_http_methods(["GET", "POST"])
def corpus_list(request: HttpRequest) -> HttpResponse:
    form = CorpusForm(request.POST or None)
    if request.method == "POST":
        if not request.user.is_staff:
            raise PermissionDenied("Only staff can create corpora.")
        if form.is_valid():
            corpus = corpus_create(
                name=form.cleaned_data["name"], description=form.cleaned_data["description"], user=request.user
            )
            return redirect("corpus_detail", pk=corpus.pk)
    corpora = corpora_for_user(request.user).annotate(document_count=Count("documents", distinct=True))
    return render(request, "ingestion/corpus_list.html", {"corpora": corpora, "form": form})


def _documents_context(corpus, role) -> dict:
    documents = list(corpus_documents(corpus))
    return {
        "corpus": corpus,
        "role": role,
        "documents": documents,
        "polling": any_in_progress(documents),
        "is_admin": can_administer(role),
    }


@login_required
@vary_on_headers("HX-Request")
def corpus_detail(request: HttpRequest, pk: int) -> HttpResponse:
    corpus, role = get_corpus(request.user, pk)
    context = _documents_context(corpus, role)
    if request.htmx:
        return render(request, "ingestion/corpus_detail.html#documents", context)
    context["exports"] = list(corpus_exports(corpus))
    context["exports_polling"] = any_export_running(context["exports"])
    context["upload_form"] = UploadForm()
    return render(request, "ingestion/corpus_detail.html", context)


@login_required
@require_POST
def document_upload(request: HttpRequest, pk: int) -> HttpResponse:
    corpus, role = get_corpus(request.user, pk)
    if not can_administer(role):
        raise PermissionDenied("Only corpus admins can upload.")
    files = request.FILES.getlist("files")
    if not files:
        messages.error(request, "Choose at least one file.")
    # Each file succeeds or fails on its own: one bad file never stops the others.
    for upload in files:
        try:
            document, created = document_ingest(corpus=corpus, name=upload.name, data=upload.read(), user=request.user)
        except IngestError as exc:
            messages.error(request, str(exc))
            continue
        if created:
            messages.success(request, f"{upload.name}: uploaded; pre-annotation queued.")
        else:
            messages.warning(request, f"{upload.name}: already in this corpus as “{document.name}”; not stored twice.")
    return redirect("corpus_detail", pk=corpus.pk)
