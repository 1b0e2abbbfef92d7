"""Who may do what in a corpus."""

from django.conf import settings
from django.db import models

from ingestion.models import Corpus


class Role(models.TextChoices):
    ADMIN = "admin", "Corpus admin"
    REVIEWER = "reviewer", "Reviewer"
    AUDITOR = "auditor", "Auditor"


class CorpusMembership(models.Model):
    corpus = models.ForeignKey(Corpus, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="corpus_memberships")
    role = models.CharField(max_length=20, choices=Role.choices, default=Role.REVIEWER)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["corpus", "user"], name="membership_unique_corpus_user")]

    def __str__(self) -> str:
        return f"{self.user} in {self.corpus} ({self.role})"
