"""Export batches and the corpus-wide pseudonym maps."""

from django.conf import settings
from django.db import models

from ingestion.models import REVIEWABLE_STATUSES, Corpus, DocumentStatus
from ingestion.storage import private_storage


class ExportStatus(models.TextChoices):
    QUEUED = "queued", "Queued"
    RUNNING = "running", "Running"
    DONE = "done", "Done"
    FAILED = "failed", "Failed"


class ExportScope(models.TextChoices):
    APPROVED = "approved", "Approved documents"
    REVIEWED = "reviewed", "Reviewed and approved documents"
    ALL = "all", "All annotated documents"


# Document statuses each scope takes.
SCOPE_STATUSES: dict[str, tuple[str, ...]] = {
    ExportScope.APPROVED: (DocumentStatus.APPROVED,),
    ExportScope.REVIEWED: (DocumentStatus.APPROVED, DocumentStatus.REVIEWED),
    ExportScope.ALL: REVIEWABLE_STATUSES,
}


class Consistency(models.TextChoices):
    DOCUMENT = "document", "Per document"
    CORPUS = "corpus", "Across the corpus"


class ExportBatch(models.Model):
    corpus = models.ForeignKey(Corpus, on_delete=models.CASCADE, related_name="exports")
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    status = models.CharField(max_length=10, choices=ExportStatus.choices, default=ExportStatus.QUEUED)
    # The work queue's bookkeeping (see Document): queued again by the sweeper when
    # no worker took it; a redelivery of the claiming message means its worker died.
    queued_at = models.DateTimeField(null=True, blank=True)
    started_at = models.DateTimeField(null=True, blank=True)
    claimed_by = models.CharField(max_length=64, blank=True)
    heartbeat_at = models.DateTimeField(null=True, blank=True)
    attempts = models.PositiveSmallIntegerField(default=0)
    scope = models.CharField(max_length=10, choices=ExportScope.choices, default=ExportScope.APPROVED)
    accept_pending = models.BooleanField(default=False)
    strategy = models.CharField(max_length=20, default="placeholder")
    # label → strategy overrides, e.g. {"PERSON": "surrogate", "ORGANIZATION": "keep"}
    per_label = models.JSONField(default=dict, blank=True)
    person_numbering = models.CharField(max_length=10, default="part")
    consistency = models.CharField(max_length=10, choices=Consistency.choices, default=Consistency.DOCUMENT)
    include_index = models.BooleanField(default=True)
    # Redacted files keep their (pseudonymized) original stem instead of a neutral one.
    keep_stems = models.BooleanField(default=False)
    done = models.PositiveIntegerField(default=0)
    total = models.PositiveIntegerField(default=0)
    # Direct identifiers (names, IDs, phones…) still pending in the exported documents
    # and written as they are, because pending spans were not treated as accepted:
    # the result row says so rather than a plain "Done".
    pending_left = models.PositiveIntegerField(default=0)
    pending_documents = models.PositiveIntegerField(default=0)
    error_message = models.TextField(blank=True)
    # Leak report: labels and offsets only, never original text.
    report = models.JSONField(default=list, blank=True)
    file = models.FileField(storage=private_storage, upload_to="exports/", blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [
            # corpus page: the latest exports of a corpus
            models.Index(fields=["corpus", "-created_at"], name="exportbatch_corpus_created_idx"),
        ]

    def __str__(self) -> str:
        return f"export {self.pk} of {self.corpus}"

    @property
    def status_label(self) -> str:
        if self.status == ExportStatus.QUEUED:
            return "Queued, waiting for a worker"
        return self.get_status_display()

    def _report_rows(self) -> list[dict]:
        return [row for row in self.report or [] if isinstance(row, dict)]

    @property
    def leaks_in_text(self) -> int:
        """The leak report's residuals in a document's text: the ones it redacts."""
        return sum(1 for row in self._report_rows() if row.get("where", "text") == "text")

    @property
    def name_in_corpus_name(self) -> bool:
        """Whether the leak report has a name in the manifest's corpus name (or in
        a setting a report stored before settings were named does not say), which a
        rename of the corpus removes and no redaction can."""
        return any(
            row.get("where") == "manifest" and row.get("setting") in ("corpus", None) for row in self._report_rows()
        )

    def settings_summary(self) -> dict:
        return {
            "corpus": self.corpus.name,
            "batch": self.pk,
            "scope": self.scope,
            "accept_pending": self.accept_pending,
            "strategy": self.strategy,
            "per_label": self.per_label,
            "person_numbering": self.person_numbering,
            "consistency": self.consistency,
            "include_index": self.include_index,
            "keep_stems": self.keep_stems,
        }


class PseudonymMap(models.Model):
    """The corpus-wide placeholder numbers (original → number), encrypted at rest
    with PSEUDONYM_MAP_KEY: it is a re-identification key and never leaves the
    server in a redacted file."""

    corpus = models.OneToOneField(Corpus, on_delete=models.CASCADE, related_name="pseudonym_map")
    data = models.BinaryField()
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"pseudonym map of {self.corpus}"
