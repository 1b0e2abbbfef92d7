from django.db.models import Count, Q, QuerySet

from ingestion.models import IN_PROGRESS_STATUSES, Corpus, Document
from pipelines.selectors import active_run_annotations
from review.models import SpanStatus


def corpus_documents(corpus: Corpus) -> QuerySet[Document]:
    """Documents with their span counts, in one query (no per-row count)."""
    return (
        Document.objects.filter(corpus=corpus)
        # The corpus page polls every 2 s: never load texts, layout maps or headers.
        .defer("text", "layout", "metadata")
        .annotate(
            span_count=Count("spans", filter=~Q(spans__status=SpanStatus.REJECTED)),
            pending_count=Count("spans", filter=Q(spans__status=SpanStatus.PENDING)),
            # Progress of a pre-annotation or re-annotation under way.
            **active_run_annotations(),
        )
        .order_by("created_at", "id")
    )


def any_in_progress(documents: list[Document]) -> bool:
    return any(d.status in IN_PROGRESS_STATUSES or getattr(d, "run_kind", None) for d in documents)
