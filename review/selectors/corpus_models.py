"""Reads for a corpus's models page (issue 17): its versions with their scores
(one query), the latest activations and rollbacks (one query), and the base model."""

from dataclasses import dataclass

from review.models import CorpusModelEvent, CorpusModelVersion
from review.models.corpus_models import RUNNING_MODEL_STATUSES, ModelStatus
from review.services.corpus_models import corpus_base_model

# Versions and events listed on the page (the newest first).
PAGE_ROWS = 100


@dataclass(frozen=True)
class ModelsPage:
    versions: list
    events: list
    base_model: str
    running: bool
    active: CorpusModelVersion | None


def models_page(corpus_id: int) -> ModelsPage:
    versions = list(
        CorpusModelVersion.objects.filter(corpus_id=corpus_id)
        .select_related("activated_by", "requested_by")
        .order_by("-version")[:PAGE_ROWS]
    )
    events = list(
        CorpusModelEvent.objects.filter(corpus_id=corpus_id)
        .select_related("user", "version", "previous")
        .order_by("-created_at", "-id")[:PAGE_ROWS]
    )
    return ModelsPage(
        versions=versions,
        events=events,
        base_model=corpus_base_model(corpus_id),
        running=any(v.status in RUNNING_MODEL_STATUSES for v in versions),
        active=next((v for v in versions if v.status == ModelStatus.ACTIVE), None),
    )
