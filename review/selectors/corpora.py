"""Reads for the corpus list and a corpus's page."""

from django.db.models import BooleanField, Case, Count, Q, QuerySet, Value, When

from ingestion.models import IN_PROGRESS_STATUSES, Corpus, Document, DocumentStatus
from review.access import corpora_for_user
from review.models import CorpusSettingsChange, SpanStatus
from review.selectors.runs import active_run_annotations


def corpus_documents(corpus: Corpus) -> QuerySet[Document]:
    """Documents with their span counts, in one query (no per-row count)."""
    return (
        Document.objects.filter(corpus=corpus)
        # The corpus page polls every 2 s: never load texts, layout maps or headers.
        .defer("text", "layout", "metadata")
        .annotate(
            span_count=Count("spans", filter=~Q(spans__status=SpanStatus.REJECTED)),
            pending_count=Count("spans", filter=Q(spans__status=SpanStatus.PENDING)),
            # Whether extraction gave text (without loading it): only then can a
            # failed document be pre-annotated again; otherwise the file is the problem.
            has_text=Case(When(text="", then=Value(False)), default=Value(True), output_field=BooleanField()),
            # Progress of a pre-annotation or re-annotation under way.
            **active_run_annotations(),
        )
        .order_by("created_at", "id")
    )


def any_in_progress(documents: list[Document]) -> bool:
    return any(d.status in IN_PROGRESS_STATUSES or getattr(d, "run_kind", None) for d in documents)


def corpus_list(user) -> QuerySet[Corpus]:
    """The corpora this user can see, each with its number of documents (one query)."""
    return corpora_for_user(user).annotate(document_count=Count("documents", distinct=True))


def corpus_settings_changes(corpus: Corpus, limit: int = 20) -> QuerySet[CorpusSettingsChange]:
    """The latest renames and description changes, with who made them (one query)."""
    return (
        CorpusSettingsChange.objects.filter(corpus=corpus).select_related("user").order_by("-created_at", "-id")[:limit]
    )


def corpus_named(name: str) -> Corpus | None:
    return Corpus.objects.filter(name=name).first()


def any_still_in_progress(document_ids: list[int]) -> bool:
    return Document.objects.filter(pk__in=document_ids, status__in=IN_PROGRESS_STATUSES).exists()


def documents_failed(document_ids: list[int]) -> list[tuple[str, str]]:
    """(name, error message) of those that failed, in id order."""
    return list(
        Document.objects.filter(pk__in=document_ids, status=DocumentStatus.FAILED)
        .order_by("id")
        .values_list("name", "error_message")
    )


def documents_summary(document_ids: list[int]) -> list[dict]:
    """id, name, status and number of live spans of each document, in id order."""
    return list(
        Document.objects.filter(pk__in=document_ids)
        .annotate(span_count=Count("spans", filter=~Q(spans__status=SpanStatus.REJECTED)))
        .values("id", "name", "status", "span_count")
        .order_by("id")
    )
