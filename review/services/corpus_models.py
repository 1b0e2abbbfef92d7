"""A corpus's own NER models (issue 17): versions, the active one, training runs."""

from dataclasses import dataclass, replace

from django.conf import settings

from pipelines.detection.config import DetectionConfig as DetectionSettings


@dataclass(frozen=True)
class ModelChoice:
    # The configuration detection runs with (its `model` set to what loads).
    config: DetectionSettings
    # What the annotation run records as the model it used.
    record: str


def detection_model(corpus_id: int, config: DetectionSettings) -> ModelChoice:
    """The model a document of this corpus is annotated with: the corpus's
    configured base model, or the site's SPACY_MODEL."""
    model = config.model or settings.SPACY_MODEL
    return ModelChoice(replace(config, model=model), model)
