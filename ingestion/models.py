from django.conf import settings
from django.db import models

from ingestion.storage import private_storage


class Corpus(models.Model):
    name = models.CharField(max_length=200, unique=True)
    description = models.TextField(blank=True)
    # Four eyes: approval then also needs a second reviewer's confirmation.
    require_second_review = models.BooleanField(
        default=False, help_text="Approval needs a second reviewer to confirm a reviewed document."
    )
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    # The language of its documents (a code of pipelines/detection/languages/),
    # chosen at creation: detection loads that language's pipeline. No choices
    # here, so that a new language file needs no migration; the form offers them.
    language = models.CharField(max_length=8, default="en")

    class Meta:
        ordering = ["name"]
        verbose_name_plural = "corpora"

    def __str__(self) -> str:
        return self.name


class DocumentStatus(models.TextChoices):
    UPLOADED = "uploaded", "Uploaded"
    EXTRACTING = "extracting", "Extracting text"
    ANNOTATING = "annotating", "Annotating"
    READY = "ready", "Ready for review"
    IN_REVIEW = "in_review", "In review"
    REVIEWED = "reviewed", "Reviewed"
    APPROVED = "approved", "Approved"
    FAILED = "failed", "Failed"


IN_PROGRESS_STATUSES = (DocumentStatus.UPLOADED, DocumentStatus.EXTRACTING, DocumentStatus.ANNOTATING)
# Annotated documents: they have spans a reviewer can open.
REVIEWABLE_STATUSES = (DocumentStatus.READY, DocumentStatus.IN_REVIEW, DocumentStatus.REVIEWED, DocumentStatus.APPROVED)


class TextAlreadySet(Exception):
    pass


class Document(models.Model):
    corpus = models.ForeignKey(Corpus, on_delete=models.CASCADE, related_name="documents")
    name = models.CharField(max_length=255)
    original = models.FileField(storage=private_storage, upload_to="originals/%Y/%m/")
    sha256 = models.CharField(max_length=64)
    size = models.PositiveBigIntegerField(default=0)
    # Offsets are the contract: once set, the text never changes (see set_text).
    text = models.TextField(blank=True)
    # [[start, end, page, line], …] over `text`: where each character range was
    # printed (see pipelines.extraction.transcript_layout). Set together with the text.
    layout = models.JSONField(default=list, blank=True)
    # The first-page header of a transcript (pipelines.extraction.header.parse_header).
    metadata = models.JSONField(default=dict, blank=True)
    status = models.CharField(max_length=20, choices=DocumentStatus.choices, default=DocumentStatus.UPLOADED)
    # Bumped by every review write that makes a span cover text it did not cover
    # (an add, a resize, an undo or redo that re-creates or moves one), under this
    # row's lock. An add, resize or relabel checks it under the same lock: its
    # plan depends on no span appearing over its text, and a row inserted or moved
    # meanwhile is invisible to a version check (review/services/spans.py).
    spans_revision = models.PositiveIntegerField(default=0)
    error_message = models.TextField(blank=True)
    # The work queue's bookkeeping. The row is the truth, not the broker: a step
    # waiting since `queued_at` with no worker on it is queued again by the
    # sweeper (a message lost to a broker outage or a killed worker).
    queued_at = models.DateTimeField(null=True, blank=True)
    # When a worker took the current step (extraction or annotation), and which
    # task delivery did: a redelivery of the same message means its worker died.
    claimed_at = models.DateTimeField(null=True, blank=True)
    claimed_by = models.CharField(max_length=64, blank=True)
    # The holder's last sign of life (ingestion.work_queue): silent for
    # WORKER_LOST_AFTER seconds, its worker is lost and the step is taken over.
    heartbeat_at = models.DateTimeField(null=True, blank=True)
    # Claims of the current step that never finished (the worker died on it); at
    # TASK_MAX_ATTEMPTS the document fails instead of killing another worker.
    attempts = models.PositiveSmallIntegerField(default=0)
    uploaded_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["created_at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["corpus", "sha256"], name="document_unique_sha256_per_corpus"),
        ]
        indexes = [
            # corpus page: documents of a corpus by status (progress polling)
            models.Index(fields=["corpus", "status"], name="document_corpus_status_idx"),
            # the sweeper: documents waiting or claimed, by status
            models.Index(fields=["status", "queued_at"], name="document_status_queued_idx"),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def is_in_progress(self) -> bool:
        return self.status in IN_PROGRESS_STATUSES

    @property
    def waiting_for_worker(self) -> bool:
        """Queued and no worker has taken it yet (a broker outage looks like this)."""
        return self.status in (DocumentStatus.UPLOADED, DocumentStatus.ANNOTATING) and self.claimed_at is None

    @property
    def status_label(self) -> str:
        if self.waiting_for_worker:
            return "Queued, waiting for a worker"
        return self.get_status_display()

    @property
    def is_reviewable(self) -> bool:
        return self.status in REVIEWABLE_STATUSES

    def set_text(self, text: str) -> None:
        """Set the text exactly once; spans' offsets depend on it never changing."""
        if self.text and self.text != text:
            raise TextAlreadySet(f"document {self.pk} already has text")
        self.text = text
