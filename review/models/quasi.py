"""Quasi-identifier flags (issue 18) and the audit of their decisions.

A flag marks a stretch of a document that names no one but may re-identify a
person in combination (an age, a date, a place, an occupation, a relation, an
event). It is never a span: an export does not replace it unless a reviewer says
so (mask, generalise) — keeping it is a decision too, and it is counted in the
residual risk.
"""

from django.conf import settings
from django.db import models
from django.db.models import F, Q

from ingestion.models import Document
from review.models.append_only import AppendOnlyModel


class QuasiCategory(models.TextChoices):
    # The Text Anonymization Benchmark's categories without ORG, plus relations.
    DEM = "DEM", "Demographics (age, occupation, nationality, religion)"
    DATETIME = "DATETIME", "Date, time or duration"
    LOC = "LOC", "Place"
    QUANTITY = "QUANTITY", "Quantity"
    MISC = "MISC", "Event or rare attribute"
    RELATION = "RELATION", "Relation"


class QuasiDecision(models.TextChoices):
    PENDING = "pending", "Pending"
    MASK = "mask", "Mask"
    GENERALISE = "generalise", "Generalise"
    KEEP = "keep", "Keep"


class QuasiIdentifier(models.Model):
    document = models.ForeignKey(Document, on_delete=models.CASCADE, related_name="quasi_identifiers")
    start = models.PositiveIntegerField()
    end = models.PositiveIntegerField()
    category = models.CharField(max_length=12, choices=QuasiCategory.choices)
    text = models.TextField()
    # The detector's rule ("age", "occupation", "kinship"…): the generaliser's hint.
    rule = models.CharField(max_length=40, blank=True)
    decision = models.CharField(max_length=12, choices=QuasiDecision.choices, default=QuasiDecision.PENDING)
    # What a "generalise" decision puts in the export instead of the text.
    generalised = models.TextField(blank=True)
    # Bumped on every decision: a decision carries the version it saw, so a stale
    # one is refused rather than overwriting another reviewer's.
    version = models.PositiveIntegerField(default=1)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    decided_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["start", "end"]
        constraints = [
            models.CheckConstraint(condition=Q(start__lt=F("end")), name="quasi_start_before_end"),
            models.UniqueConstraint(fields=["document", "start", "end"], name="quasi_unique_document_offsets"),
        ]
        indexes = [
            # the review layer and the export: a document's flags in reading order
            models.Index(fields=["document", "start"], name="quasi_document_start_idx"),
            # residual risk: kept flags per document and category
            models.Index(fields=["decision", "document"], name="quasi_decision_document_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.category} {self.start}-{self.end} ({self.decision})"

    def snapshot(self) -> dict:
        # Never the text itself: the audit trail outlives the export's masking.
        return {
            "start": self.start,
            "end": self.end,
            "category": self.category,
            "decision": self.decision,
            "generalised": self.generalised,
        }


class QuasiEvent(AppendOnlyModel):
    """Audit trail of quasi-identifier decisions: one row per decision, never changed."""

    append_only_name = "quasi-identifier events"

    document = models.ForeignKey(Document, on_delete=models.CASCADE, related_name="quasi_events")
    quasi = models.ForeignKey(QuasiIdentifier, null=True, on_delete=models.SET_NULL, related_name="events")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    before = models.JSONField()
    after = models.JSONField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "id"]
        indexes = [models.Index(fields=["document", "created_at"], name="quasievent_document_idx")]

    def __str__(self) -> str:
        return f"{self.after.get('decision')} by {self.user_id} at {self.created_at:%Y-%m-%d %H:%M}"
