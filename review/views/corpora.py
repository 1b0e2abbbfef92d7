"""The corpus list, a corpus's page (documents and their progress, exports, the
upload and export forms), its settings (name, description) and uploads."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.template.defaultfilters import pluralize
from django.urls import reverse
from django.utils.html import format_html
from django.views.decorators.http import require_http_methods, require_POST
from django.views.decorators.vary import vary_on_headers

from ingestion.models import DocumentStatus
from ingestion.services import UploadResult
from ingestion.upload_handlers import refused_uploads, too_large
from pipelines.detection.languages import name_of as language_name
from review.access import Need, can_administer, corpus_for, document_for, staff_for
from review.forms import CorpusForm, CorpusSettingsForm, ExportForm, UploadForm
from review.selectors.corpora import any_in_progress, corpus_documents, corpus_settings_changes
from review.selectors.corpora import corpus_list as corpora_of
from review.selectors.exports import any_export_running, corpus_exports
from review.services.corpora import CorpusSettingsError, corpus_create, corpus_settings_change
from review.services.deletion import document_delete as delete_document
from review.services.uploads import upload, upload_budget


@login_required
@require_http_methods(["GET", "POST"])
def corpus_list(request: HttpRequest) -> HttpResponse:
    form = CorpusForm(request.POST or None)
    if request.method == "POST":
        staff_for(request.user, "Only staff can create corpora.")
        if form.is_valid():
            corpus = corpus_create(
                name=form.cleaned_data["name"],
                description=form.cleaned_data["description"],
                require_second_review=form.cleaned_data["require_second_review"],
                language=form.cleaned_data["language"],
                user=request.user,
            )
            return redirect("corpus_detail", pk=corpus.pk)
    corpora = corpora_of(request.user)
    return render(request, "review/corpus_list.html", {"corpora": corpora, "form": form})


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
    corpus, role = corpus_for(request.user, pk)
    context = _documents_context(corpus, role)
    if request.htmx:
        return render(request, "review/corpus_detail.html#documents", context)
    context["export_form"] = ExportForm()
    context["exports"] = list(corpus_exports(corpus))
    context["exports_polling"] = any_export_running(context["exports"])
    context["upload_form"] = UploadForm()
    context["language_name"] = language_name(corpus.language)
    return render(request, "review/corpus_detail.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def corpus_settings(request: HttpRequest, pk: int) -> HttpResponse:
    """Corpus admins rename the corpus and edit its description; every change is
    listed (who, when, before → after)."""
    corpus, role = corpus_for(request.user, pk, Need.ADMIN)
    form = CorpusSettingsForm(request.POST or None, initial={"name": corpus.name, "description": corpus.description})
    if request.method == "POST" and form.is_valid():
        before = corpus.name
        try:
            change = corpus_settings_change(
                corpus=corpus,
                user=request.user,
                role=role,
                name=form.cleaned_data["name"],
                description=form.cleaned_data["description"],
            )
        except CorpusSettingsError as exc:
            form.add_error(exc.field, str(exc))
        else:
            if change is None:
                messages.info(request, "Nothing changed.")
            elif corpus.name != before:
                # The usual reason to rename: an export blocked by the old name.
                messages.success(
                    request,
                    format_html(
                        "Corpus renamed to “{}”. Exports from now on carry this name in their manifest: "
                        '<a href="{}#exports">run the export again</a> if the old name blocked it.',
                        corpus.name,
                        reverse("corpus_detail", args=[corpus.pk]),
                    ),
                )
            else:
                messages.success(request, "Description saved.")
            return redirect("corpus_settings", pk=corpus.pk)
    return render(
        request,
        "review/corpus_settings.html",
        {
            "corpus": corpus,
            "form": form,
            "changes": list(corpus_settings_changes(corpus)),
            "language_name": language_name(corpus.language),
        },
    )


@login_required
@require_POST
def document_upload(request: HttpRequest, pk: int) -> HttpResponse:
    corpus, _role = corpus_for(request.user, pk, Need.ADMIN)
    form = UploadForm(request.POST, request.FILES)
    # Files dropped while they arrived (over MAX_UPLOAD_BYTES) fail alone, by name.
    results: list[UploadResult] = [
        UploadResult(name, None, False, f"{name}: {too_large(size)}") for name, size in refused_uploads(request)
    ]
    if not form.is_valid():
        if not results:
            for errors in form.errors.values():
                for error in errors:
                    messages.error(request, error)
            return redirect("corpus_detail", pk=corpus.pk)
        _report_upload(request, results)
        return redirect("corpus_detail", pk=corpus.pk)
    budget = upload_budget(request.user)
    # Each file, and each item of a zip or CSV, succeeds or fails on its own. The
    # files are streamed from where Django spooled them, never read whole.
    for file in form.cleaned_data["files"]:
        results += upload(
            corpus=corpus,
            name=file.name,
            data=file.file,
            user=request.user,
            csv_options=form.csv_options(),
            budget=budget,
        )
        file.close()
    _report_upload(request, results)
    return redirect("corpus_detail", pk=corpus.pk)


@login_required
@require_POST
def document_delete(request: HttpRequest, pk: int) -> HttpResponse:
    """A corpus admin deletes a document that failed (a file that is not a
    transcript, say) from the corpus page, with its original. Others, reviewed or
    not, stay: deleting them is the admin site's, which says what else goes."""
    document, _role = document_for(request.user, pk, Need.ADMIN)
    if document.status != DocumentStatus.FAILED:
        messages.error(request, f"“{document.name}” did not fail: only a failed document is deleted from here.")
    else:
        delete_document(document=document)
        messages.success(request, f"“{document.name}” deleted.")
    return redirect("corpus_detail", pk=document.corpus_id)


# Past this many, a page of messages stops being read; the summary still counts them all.
MAX_FAILURE_MESSAGES = 100


def _report_upload(request: HttpRequest, results: list[UploadResult]) -> None:
    failed = [r for r in results if r.error is not None]
    duplicates = [r for r in results if r.document is not None and not r.created]
    added = len(results) - len(failed) - len(duplicates)
    for result in failed[:MAX_FAILURE_MESSAGES]:
        messages.error(request, result.error)
    if len(failed) > MAX_FAILURE_MESSAGES:
        messages.error(request, f"…and {len(failed) - MAX_FAILURE_MESSAGES} more files failed.")
    for result in duplicates:
        # Linked, so the reviewer lands on the copy that is already there.
        messages.warning(
            request,
            format_html(
                '{}: already in this corpus as <a href="{}">“{}”</a>; not stored twice.',
                result.name,
                reverse("document_review", args=[result.document.pk]),
                result.document.name,
            ),
        )
    summary = [f"{added} document{pluralize(added)} added"]
    if failed:
        summary.append(f"{len(failed)} failed")
    if duplicates:
        summary.append(f"{len(duplicates)} duplicate{pluralize(len(duplicates))}")
    messages.add_message(request, messages.WARNING if failed else messages.SUCCESS, ", ".join(summary) + ".")
