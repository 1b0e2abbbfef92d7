"""Reads about machine passes: annotation runs and their progress, detection
configuration changes."""

from django.db.models import Case, F, IntegerField, OuterRef, QuerySet, Subquery, Value, When

from ingestion.models import Corpus, Document
from review.models import ACTIVE_RUN_STATUSES, AnnotationRun, DetectionConfigChange


def config_changes(corpus: Corpus, limit: int = 10) -> QuerySet[DetectionConfigChange]:
    return (
        DetectionConfigChange.objects.filter(corpus=corpus)
        .select_related("user")
        .order_by("-created_at", "-id")[:limit]
    )


def document_runs(document: Document, limit: int = 20) -> QuerySet[AnnotationRun]:
    return (
        AnnotationRun.objects.filter(document=document)
        .select_related("requested_by")
        .defer("config")
        .order_by("-created_at", "-id")[:limit]
    )


def active_run_annotations() -> dict:
    """Annotations for a Document queryset: the kind and percent of its latest
    queued or running machine pass (None when there is none), as subqueries of the
    same query, so a polled list of documents costs no query per row."""
    active = AnnotationRun.objects.filter(document=OuterRef("pk"), status__in=ACTIVE_RUN_STATUSES).order_by(
        "-created_at", "-id"
    )
    percent = active.annotate(
        percent=Case(When(total=0, then=Value(0)), default=F("done") * 100 / F("total"), output_field=IntegerField())
    )
    return {"run_kind": Subquery(active.values("kind")[:1]), "run_percent": Subquery(percent.values("percent")[:1])}
