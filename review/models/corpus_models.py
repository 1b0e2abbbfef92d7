"""A corpus's own NER models (issue 17): each training run is a version, which
becomes the corpus's active model only if it beats its base on the held-out
documents; activations and rollbacks are audited."""

from django.conf import settings
from django.db import models
from django.db.models import Q

from ingestion.models import Corpus
from review.models.append_only import AppendOnlyModel


class ModelStatus(models.TextChoices):
    QUEUED = "queued", "Queued"
    TRAINING = "training", "Training"
    READY = "ready", "Ready (not active)"
    ACTIVE = "active", "Active"
    REFUSED = "refused", "Refused (not better than its base)"
    FAILED = "failed", "Failed"
    RETIRED = "retired", "Retired"


RUNNING_MODEL_STATUSES = (ModelStatus.QUEUED, ModelStatus.TRAINING)


class CorpusModelVersion(models.Model):
    """One training run and the model it produced: progress while it trains, then
    the files (under CORPUS_MODELS_DIR), what it was trained and judged on, and the
    comparison with its base. One version per corpus is active at most."""

    corpus = models.ForeignKey(Corpus, on_delete=models.CASCADE, related_name="model_versions")
    version = models.PositiveIntegerField()
    status = models.CharField(max_length=20, choices=ModelStatus.choices, default=ModelStatus.QUEUED)
    # The model directory, relative to CORPUS_MODELS_DIR ("" until it is saved).
    path = models.CharField(max_length=300, blank=True)
    base_model = models.CharField(max_length=300)
    train_documents = models.JSONField(default=list)
    heldout_documents = models.JSONField(default=list)
    config = models.JSONField(default=dict)
    # {"base": {precision, recall, f1, leak_recall, …}, "candidate": {…}, "rule": "…"}
    metrics = models.JSONField(default=dict)
    done = models.PositiveIntegerField(default=0)
    total = models.PositiveIntegerField(default=0)
    message = models.TextField(blank=True)
    requested_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    # When a delivery claimed it: a run is stale by how long it has trained, not by
    # how long it waited in the queue behind others.
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    activated_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    activated_at = models.DateTimeField(null=True, blank=True)
    # The task delivery that holds the run (a redelivery after a lost worker takes over).
    claimed_by = models.CharField(max_length=64, blank=True)
    # The work queue's bookkeeping (ingestion.work_queue, as for Document): queued
    # again when its message was lost or its worker fell silent; failed after
    # TASK_MAX_ATTEMPTS claims whose worker died.
    queued_at = models.DateTimeField(null=True, blank=True)
    heartbeat_at = models.DateTimeField(null=True, blank=True)
    attempts = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["-version"]
        constraints = [
            models.UniqueConstraint(fields=["corpus", "version"], name="corpusmodel_version_unique"),
            models.UniqueConstraint(fields=["corpus"], condition=Q(status="active"), name="corpusmodel_one_active"),
        ]

    def __str__(self) -> str:
        return f"model v{self.version} of corpus {self.corpus_id}"

    @property
    def record(self) -> str:
        """What an annotation run records as the model it used."""
        return f"corpus-model:{self.corpus_id}:v{self.version}"


class CorpusModelEvent(AppendOnlyModel):
    """Audit of which version became active (after training, or by an admin's
    rollback), and which one it replaced. Append-only."""

    append_only_name = "corpus model events"

    corpus = models.ForeignKey(Corpus, on_delete=models.CASCADE, related_name="model_events")
    version = models.ForeignKey(CorpusModelVersion, on_delete=models.CASCADE, related_name="events")
    previous = models.ForeignKey(CorpusModelVersion, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    # "activate" (its training passed the rule), "rollback" (an admin chose it), "train" (started).
    action = models.CharField(max_length=20)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.action} v{self.version_id} of corpus {self.corpus_id}"
