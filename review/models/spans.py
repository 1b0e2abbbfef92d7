"""Spans, the reviewers' audit trail and document assignments."""

from django.conf import settings
from django.db import models
from django.db.models import F, Q

from ingestion.models import Document
from review.models.append_only import AppendOnlyModel


class SpanStatus(models.TextChoices):
    PENDING = "pending", "Pending"
    ACCEPTED = "accepted", "Accepted"
    REJECTED = "rejected", "Rejected"


class RejectReason(models.TextChoices):
    NOT_IDENTIFYING = "not_identifying", "Not identifying"
    PUBLIC_OFFICIAL = "public_official", "Public official"
    NOT_A_PERSON = "not_a_person", "Organization, not a person"
    FALSE_POSITIVE = "false_positive", "False positive"
    OTHER = "other", "Other"


class Span(models.Model):
    document = models.ForeignKey(Document, on_delete=models.CASCADE, related_name="spans")
    start = models.PositiveIntegerField()
    end = models.PositiveIntegerField()
    label = models.CharField(max_length=40)
    text = models.TextField()
    status = models.CharField(max_length=10, choices=SpanStatus.choices, default=SpanStatus.PENDING)
    sources = models.JSONField(default=list)
    score = models.FloatField(default=0.0)
    rule = models.TextField(blank=True)
    reject_reason = models.CharField(max_length=20, choices=RejectReason.choices, blank=True)
    # Bumped with F() on every change; an action carries the version it saw, so a
    # stale one is refused instead of overwriting another reviewer's decision.
    version = models.PositiveIntegerField(default=1)
    # Entity linking: spans sharing a non-empty entity are one person (or thing),
    # "Mr. Smith", "John Smith" and "SMITH" alike, and share one pseudonym.
    entity = models.CharField(max_length=32, blank=True, default="")
    # None: found by the machine; otherwise the reviewer who added it.
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["start", "end"]
        constraints = [
            models.CheckConstraint(condition=Q(start__lt=F("end")), name="span_start_before_end"),
            models.UniqueConstraint(
                fields=["document", "start", "end", "label"], name="span_unique_document_offsets_label"
            ),
        ]
        indexes = [
            # review page and export: a document's spans in reading order
            models.Index(fields=["document", "start"], name="span_document_start_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.label} {self.start}-{self.end}"

    def snapshot(self) -> dict:
        return {
            "start": self.start,
            "end": self.end,
            "label": self.label,
            "status": self.status,
            "reason": self.reject_reason,
            "entity": self.entity,
        }

    @property
    def is_human(self) -> bool:
        return self.created_by_id is not None


class ReviewAction(models.TextChoices):
    ACCEPT = "accept", "Accept"
    REJECT = "reject", "Reject"
    RELABEL = "relabel", "Relabel"
    ADD = "add", "Add"
    SUPERSEDE = "supersede", "Superseded by an added span"
    RESIZE = "resize", "Resize"
    DELETE = "delete", "Delete"
    LINK = "link", "Link to an entity"
    UNDO = "undo", "Undo"
    REDO = "redo", "Redo"
    MARK_REVIEWED = "mark_reviewed", "Mark reviewed"
    SECOND_REVIEW = "second_review", "Second review"
    APPROVE = "approve", "Approve"


class ReviewEvent(AppendOnlyModel):
    append_only_name = "review events"

    """Audit trail: one row per decision, never updated or deleted."""

    document = models.ForeignKey(Document, on_delete=models.CASCADE, related_name="review_events")
    span = models.ForeignKey(Span, null=True, on_delete=models.SET_NULL, related_name="events")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    action = models.CharField(max_length=20, choices=ReviewAction.choices)
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)
    # One id per reviewer operation: every event of an apply-to-all or bulk action
    # shares it, so the operation is shown and undone as one.
    bulk_id = models.UUIDField(null=True, blank=True)
    # On an undo event: the operation it reverted.
    undoes = models.UUIDField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "id"]
        indexes = [
            # document history page
            models.Index(fields=["document", "created_at"], name="reviewevent_document_idx"),
            # undo: the events of one operation
            models.Index(fields=["bulk_id"], name="reviewevent_bulk_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.action} by {self.user_id} at {self.created_at:%Y-%m-%d %H:%M}"


class Assignment(models.Model):
    """Who holds a document for review. An assignment with no review activity for
    REVIEW_IDLE_MINUTES is released when someone next asks for a document."""

    document = models.OneToOneField(Document, on_delete=models.CASCADE, related_name="assignment")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="review_assignments")
    assigned_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        indexes = [
            # "next document": the document a reviewer already holds
            models.Index(fields=["user", "assigned_at"], name="assignment_user_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.document} → {self.user}"
