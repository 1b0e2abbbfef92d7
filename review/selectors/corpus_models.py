"""Reads for a corpus's models page (issue 17): its versions with their scores
(one query), the latest activations and rollbacks (one query), and the base model."""

from dataclasses import dataclass

from django.conf import settings

from review.models import CorpusModelEvent, CorpusModelVersion
from review.models.corpus_models import RUNNING_MODEL_STATUSES, ModelStatus
from review.services.corpus_models import active_fits, corpus_base_model, corpus_training_base


@dataclass(frozen=True)
class ModelsPage:
    versions: list
    events: list
    base_model: str
    # What a run fine-tunes: base_model, or another NER when base_model's names
    # come from an encoder (corpus_models.corpus_training_base).
    trains_from: str
    running: bool
    active: CorpusModelVersion | None


def models_page(corpus_id: int) -> ModelsPage:
    # At most CORPUS_MODELS_PAGE_ROWS versions and events (the newest first).
    rows = settings.CORPUS_MODELS_PAGE_ROWS
    versions = list(
        CorpusModelVersion.objects.filter(corpus_id=corpus_id)
        .select_related("activated_by", "requested_by")
        .order_by("-version")[:rows]
    )
    events = list(
        CorpusModelEvent.objects.filter(corpus_id=corpus_id)
        .select_related("user", "version", "previous")
        .order_by("-created_at", "-id")[:rows]
    )
    base = corpus_base_model(corpus_id)
    return ModelsPage(
        versions=versions,
        events=events,
        base_model=base,
        trains_from=corpus_training_base(base),
        running=any(v.status in RUNNING_MODEL_STATUSES for v in versions),
        # "In use" only when detection uses it (corpus_models.detection_model's rule).
        active=next((v for v in versions if v.status == ModelStatus.ACTIVE and active_fits(v, base)), None),
    )
