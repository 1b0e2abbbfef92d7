"""Reads about exports."""

from django.db.models import QuerySet

from ingestion.models import Corpus
from review.models import ExportBatch, ExportStatus


def corpus_exports(corpus: Corpus, limit: int = 20) -> QuerySet[ExportBatch]:
    return ExportBatch.objects.filter(corpus=corpus).select_related("created_by").order_by("-created_at")[:limit]


def any_export_running(exports: list[ExportBatch]) -> bool:
    return any(e.status in (ExportStatus.QUEUED, ExportStatus.RUNNING) for e in exports)
