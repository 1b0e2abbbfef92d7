"""The machine passes over a document (annotation runs and what they filtered) and
a corpus's detection configuration with its audit."""

import json

from django.conf import settings
from django.db import models
from django.db.models import Q

from ingestion.models import Corpus
from pipelines.detection.config import DEFAULT as DEFAULT_CONFIG
from review.models.append_only import AppendOnlyModel


class DetectionConfig(models.Model):
    """A corpus's detection configuration, as `detection.config.DetectionConfig`
    JSON. No row means the default pipeline (the one `detect` runs)."""

    corpus = models.OneToOneField(Corpus, on_delete=models.CASCADE, related_name="detection_config")
    data = models.JSONField(default=dict, blank=True)
    updated_at = models.DateTimeField(auto_now=True)
    updated_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")

    def __str__(self) -> str:
        return f"detection configuration of {self.corpus}"

    def clean(self) -> None:
        """The corpus-pattern limits, checked from the patterns' text before any is
        compiled (an edit in the admin goes through this)."""
        from django.core.exceptions import ValidationError

        from pipelines.detection.recognizers.corpus_patterns import check_patterns

        patterns = (self.data or {}).get("patterns") or []
        errors = check_patterns([str(p.get("pattern", "")) for p in patterns if isinstance(p, dict)])
        if errors:
            raise ValidationError({"data": errors})


class DocumentDetection(models.Model):
    """What the machine dropped on a document, and why: every filtered candidate
    (offsets, label, sources, reason: no text, which `Document.text` holds), their
    counts per reason for display, the corpus patterns that timed out, and the
    configuration the run used."""

    document = models.OneToOneField("ingestion.Document", on_delete=models.CASCADE, related_name="detection")
    created_at = models.DateTimeField(auto_now_add=True)
    config = models.JSONField(default=dict)
    # [[start, end, label, [sources], reason], …] in text order.
    filtered = models.JSONField(default=list)
    # reason → count, precomputed so the history page reads one small field.
    filtered_counts = models.JSONField(default=dict)
    timed_out = models.JSONField(default=list)

    def __str__(self) -> str:
        return f"detection run of {self.document}"


class DetectionConfigChange(AppendOnlyModel):
    append_only_name = "detection configuration changes"

    """Audit of a corpus's detection configuration: one row per save that changed
    it, with who, when and the whole configuration before and after (None before:
    no stored configuration, i.e. the default). Append-only, like ReviewEvent."""

    corpus = models.ForeignKey(Corpus, on_delete=models.CASCADE, related_name="detection_config_changes")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField()

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [
            # detection configuration page: the latest changes of a corpus
            models.Index(fields=["corpus", "-created_at"], name="detconfchange_corpus_idx"),
        ]

    def __str__(self) -> str:
        return f"detection configuration of {self.corpus_id} changed at {self.created_at:%Y-%m-%d %H:%M}"

    def changes(self) -> list[tuple[str, str, str]]:
        """(option, before, after) for each option that differs, values as JSON ("—"
        for none); dictionaries (weights, allow list) are compared entry by entry,
        so one changed weight reads `weights.corpus: 1.5 → 3.0`, not as two whole
        dictionaries."""
        before = self.before if self.before is not None else DEFAULT_CONFIG.to_dict()
        found: list[tuple[str, str, str]] = []
        for key in sorted(set(before) | set(self.after)):
            old, new = before.get(key), self.after.get(key)
            if old == new:
                continue
            if isinstance(old, dict) and isinstance(new, dict):
                found += [
                    (f"{key}.{sub}", _shown(old.get(sub)), _shown(new.get(sub)))
                    for sub in sorted(set(old) | set(new))
                    if old.get(sub) != new.get(sub)
                ]
            else:
                found.append((key, _shown(old), _shown(new)))
        return found


def _shown(value: object) -> str:
    return "—" if value is None else json.dumps(value, ensure_ascii=False)


class RunKind(models.TextChoices):
    ANNOTATE = "annotate", "Pre-annotation"
    REANNOTATE = "reannotate", "Re-annotation"


class RunStatus(models.TextChoices):
    QUEUED = "queued", "Queued"
    RUNNING = "running", "Running"
    DONE = "done", "Done"
    FAILED = "failed", "Failed"
    SKIPPED = "skipped", "Skipped"


ACTIVE_RUN_STATUSES = (RunStatus.QUEUED, RunStatus.RUNNING)


class AnnotationRun(models.Model):
    """One machine pass over a document. While it runs, its progress (`done` of
    `total` characters, one UPDATE per chunk) is what the pages poll. A
    re-annotation a corpus admin asked for is also its audit record: who, when,
    the configuration it used and what it changed (`counts`). It is not a
    ReviewEvent: those are reviewer decisions on spans that undo reverts, and a
    machine pass must never be undone by a reviewer's `u`."""

    document = models.ForeignKey("ingestion.Document", on_delete=models.CASCADE, related_name="annotation_runs")
    kind = models.CharField(max_length=10, choices=RunKind.choices)
    status = models.CharField(max_length=10, choices=RunStatus.choices, default=RunStatus.QUEUED)
    # None for the pre-annotation that follows an upload.
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    done = models.PositiveIntegerField(default=0)
    total = models.PositiveIntegerField(default=0)
    # The detection configuration the run used.
    config = models.JSONField(default=dict, blank=True)
    # The spaCy model it ran with: a package, a directory, or a corpus model version.
    model = models.CharField(max_length=300, blank=True, default="")
    # added, removed, unchanged, preserved, skipped_overlap (re-annotation); added (pre-annotation).
    counts = models.JSONField(default=dict, blank=True)
    message = models.TextField(blank=True)
    # The work queue's bookkeeping for re-annotations (see Document).
    queued_at = models.DateTimeField(null=True, blank=True)
    claimed_by = models.CharField(max_length=64, blank=True)
    heartbeat_at = models.DateTimeField(null=True, blank=True)
    attempts = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            # One pre-annotation record per document (a retried one reuses it).
            models.UniqueConstraint(
                fields=["document"], condition=Q(kind="annotate"), name="annotationrun_one_annotate_per_document"
            ),
            # A second click on "re-annotate" while one is queued or running adds nothing.
            models.UniqueConstraint(
                fields=["document"],
                condition=Q(kind="reannotate", status__in=["queued", "running"]),
                name="annotationrun_one_active_reannotate",
            ),
        ]
        indexes = [
            # corpus page (latest active run per document) and the document's run history
            models.Index(fields=["document", "-created_at"], name="annotationrun_document_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.kind} of document {self.document_id} ({self.status})"

    @property
    def percent(self) -> int:
        return min(100, self.done * 100 // self.total) if self.total else 0

    @property
    def is_active(self) -> bool:
        return self.status in ACTIVE_RUN_STATUSES
