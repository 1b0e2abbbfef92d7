"""Reads for the corpus queue."""

from django.db.models import Count, Max, OuterRef, Q, Subquery

from ingestion.models import Corpus, Document, DocumentStatus
from review.models import ReviewEvent, SpanStatus


def queue_documents(corpus: Corpus, *, status: str = "", mine_only: bool = False, user=None) -> list[Document]:
    """The corpus queue: each document with its span counts, holder and last
    review activity, in one query."""
    last_event = (
        ReviewEvent.objects.filter(document_id=OuterRef("pk"))
        .values("document_id")
        .annotate(last=Max("created_at"))
        .values("last")
    )
    documents = (
        Document.objects.filter(corpus=corpus)
        .select_related("assignment__user")
        .defer("text", "layout", "metadata")
        .annotate(
            total=Count("spans"),
            pending=Count("spans", filter=Q(spans__status=SpanStatus.PENDING)),
            last_activity=Subquery(last_event),
        )
        .order_by("created_at", "id")
    )
    if status:
        documents = documents.filter(status=status)
    if mine_only and user is not None:
        documents = documents.filter(assignment__user=user)
    return list(documents)


def queue_counts(corpus: Corpus) -> list[tuple[str, str, int]]:
    counts = dict(Document.objects.filter(corpus=corpus).values_list("status").annotate(n=Count("id")))
    return [(value, label, counts.get(value, 0)) for value, label in DocumentStatus.choices]
