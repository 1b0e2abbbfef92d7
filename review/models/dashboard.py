"""The corpus dashboard's counts, kept per document (review/services/dashboard_counts.py
is their one writer). The dashboard sums these rows over a corpus instead of
counting its spans and review events on every view."""

from django.conf import settings
from django.db import models

from ingestion.models import Corpus, Document

# The score bins' columns (review/services/dashboard_counts.py counts them).
BIN_FIELDS: tuple[str, ...] = tuple(f"bin{i}" for i in range(10))


class CountKind(models.TextChoices):
    # (label, status, sources, added): spans, with their score bins
    SPANS = "spans", "Spans"
    # approved-document risk: direct-identifier machine spans left pending, or
    # rejected with no review event that rejected them (only rows with either)
    RISK = "risk", "Direct identifiers left"
    # (user): span decisions, distinct operations, distinct spans decided
    WORK = "work", "Reviewer work"
    # (user, clock hour UTC): decisions in that hour, for distinct active hours
    HOUR = "hour", "Reviewer active hour"


class DashboardCount(models.Model):
    """One group of a document's spans or review events, counted. Recomputed for
    the whole document in the transaction of every write to its spans or events,
    so it is exactly what a recount of the document gives (`manage.py
    dashboard_counts --check`)."""

    corpus = models.ForeignKey(Corpus, on_delete=models.CASCADE, related_name="+")
    document = models.ForeignKey(Document, on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(max_length=5, choices=CountKind.choices)
    label = models.CharField(max_length=40, blank=True, default="")
    status = models.CharField(max_length=10, blank=True, default="")
    sources = models.JSONField(null=True, blank=True)
    added = models.BooleanField(default=False)
    # The events' user; a deleted user's counts go with the user, as the full
    # count leaves out events whose user is gone.
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.CASCADE, related_name="+")
    hour = models.CharField(max_length=13, blank=True, default="")
    n = models.PositiveIntegerField(default=0)
    bin0 = models.PositiveIntegerField(default=0)
    bin1 = models.PositiveIntegerField(default=0)
    bin2 = models.PositiveIntegerField(default=0)
    bin3 = models.PositiveIntegerField(default=0)
    bin4 = models.PositiveIntegerField(default=0)
    bin5 = models.PositiveIntegerField(default=0)
    bin6 = models.PositiveIntegerField(default=0)
    bin7 = models.PositiveIntegerField(default=0)
    bin8 = models.PositiveIntegerField(default=0)
    bin9 = models.PositiveIntegerField(default=0)
    operations = models.PositiveIntegerField(default=0)
    spans = models.PositiveIntegerField(default=0)
    unreviewed = models.PositiveIntegerField(default=0)

    class Meta:
        indexes = [
            # the dashboard: a corpus's rows of one kind. Covering for the span
            # groups (review.selectors.dashboard.span_groups): its GROUP BY
            # columns lead, in order, and the summed counts follow, so SQLite
            # groups while walking the index, with no sort and no table read.
            models.Index(
                fields=["corpus", "kind", "label", "status", "sources", "added", "n", *BIN_FIELDS],
                name="dashboardcount_corpus_kind",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.kind} of document {self.document_id}: {self.n}"
