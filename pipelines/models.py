from django.conf import settings
from django.db import models

from ingestion.models import Corpus
from ingestion.storage import private_storage


class ExportStatus(models.TextChoices):
    QUEUED = "queued", "Queued"
    RUNNING = "running", "Running"
    DONE = "done", "Done"
    FAILED = "failed", "Failed"


class ExportBatch(models.Model):
    corpus = models.ForeignKey(Corpus, on_delete=models.CASCADE, related_name="exports")
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    status = models.CharField(max_length=10, choices=ExportStatus.choices, default=ExportStatus.QUEUED)
    accept_pending = models.BooleanField(default=False)
    done = models.PositiveIntegerField(default=0)
    total = models.PositiveIntegerField(default=0)
    error_message = models.TextField(blank=True)
    # Leak report: labels and offsets only, never original text.
    report = models.JSONField(default=list, blank=True)
    file = models.FileField(storage=private_storage, upload_to="exports/", blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"export {self.pk} of {self.corpus}"
