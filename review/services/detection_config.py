"""A corpus's detection configuration: the one writer of DetectionConfig and
DetectionConfigChange rows (who changed what, before and after)."""

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction

from ingestion.models import Corpus
from pipelines.detection.config import DEFAULT as DEFAULT_SETTINGS
from pipelines.detection.config import ConfigError
from pipelines.detection.config import DetectionConfig as DetectionSettings
from pipelines.detection.recognizers.corpus_patterns import check_patterns
from review.models import DetectionConfig, DetectionConfigChange


def corpus_detection_settings(corpus_id: int) -> DetectionSettings:
    """The corpus's detection configuration, or the default pipeline's. Its
    patterns are checked against the limits before anything compiles them: a
    configuration stored before a limit existed fails with a message instead of
    taking the worker's memory."""
    data = DetectionConfig.objects.filter(corpus_id=corpus_id).values_list("data", flat=True).first()
    check_pattern_limits(data)
    return DetectionSettings.from_dict(data)


def check_pattern_limits(data: dict | None) -> None:
    """Raise ConfigError if a configuration's corpus patterns break a limit
    (MAX_CORPUS_PATTERNS, MAX_PATTERN_LENGTH, MAX_PATTERN_PROGRAM_SIZE)."""
    patterns = data.get("patterns") if isinstance(data, dict) else None
    if not isinstance(patterns, list):
        return  # from_dict reports a malformed configuration
    texts = [str(p.get("pattern", "")) for p in patterns if isinstance(p, dict)]
    errors = check_patterns(texts)
    if errors:
        raise ConfigError("; ".join(errors))


@transaction.atomic
def detection_config_save(
    *, corpus: Corpus, user: AbstractBaseUser, config: DetectionSettings
) -> DetectionConfigChange | None:
    """Store a corpus's detection configuration, and record the change (who,
    before, after) when there is one; documents annotated from now on use it (those
    already annotated keep their spans until re-annotated). Returns the change, or
    None when the configuration was already this one."""
    after = config.to_dict()
    check_pattern_limits(after)
    stored = DetectionConfig.objects.select_for_update().filter(corpus=corpus).first()
    before = stored.data if stored is not None else None
    if stored is None:
        DetectionConfig.objects.create(corpus=corpus, data=after, updated_by=user)
    elif before != after:
        stored.data, stored.updated_by = after, user
        stored.save(update_fields=["data", "updated_by", "updated_at"])
    if (before if before is not None else DEFAULT_SETTINGS.to_dict()) == after:
        return None
    return DetectionConfigChange.objects.create(corpus=corpus, user=user, before=before, after=after)
