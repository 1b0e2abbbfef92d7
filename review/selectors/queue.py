"""Reads for the corpus queue: the documents by risk, and the corpus's measured
review rate for the minutes left."""

import math
from collections import defaultdict
from dataclasses import dataclass

from django.conf import settings
from django.db.models import Count, Max, OuterRef, Q, Subquery

from ingestion.models import Corpus, Document, DocumentStatus
from review.models import ReviewAction, ReviewEvent, SpanStatus

# The audit actions that decide spans (undo, approval and the like are not review work).
DECISIONS = (
    ReviewAction.ACCEPT,
    ReviewAction.REJECT,
    ReviewAction.RELABEL,
    ReviewAction.RESIZE,
    ReviewAction.ADD,
    ReviewAction.SUPERSEDE,
)


def queue_documents(corpus: Corpus, *, status: str = "", mine_only: bool = False, user=None) -> list[Document]:
    """The corpus queue: each document with its span counts, holder and last
    review activity, in one query. Riskiest first: the most pending spans scored
    below REVIEW_QUEUE_LOW_SCORE (the machine's least sure suggestions, the likeliest
    to be wrong), then the most pending (unreviewed) spans, then the oldest."""
    last_event = (
        ReviewEvent.objects.filter(document_id=OuterRef("pk"))
        .values("document_id")
        .annotate(last=Max("created_at"))
        .values("last")
    )
    documents = (
        Document.objects.filter(corpus=corpus)
        .select_related("assignment__user")
        .defer("text", "layout", "metadata")
        .annotate(
            total=Count("spans"),
            pending=Count("spans", filter=Q(spans__status=SpanStatus.PENDING)),
            low_score=Count(
                "spans",
                filter=Q(spans__status=SpanStatus.PENDING, spans__score__lt=settings.REVIEW_QUEUE_LOW_SCORE),
            ),
            last_activity=Subquery(last_event),
        )
        .order_by("-low_score", "-pending", "created_at", "id")
    )
    if status:
        documents = documents.filter(status=status)
    if mine_only and user is not None:
        documents = documents.filter(assignment__user=user)
    return list(documents)


def queue_counts(corpus: Corpus) -> list[tuple[str, str, int]]:
    counts = dict(Document.objects.filter(corpus=corpus).values_list("status").annotate(n=Count("id")))
    return [(value, label, counts.get(value, 0)) for value, label in DocumentStatus.choices]


@dataclass(frozen=True)
class ReviewRate:
    """Spans decided per minute of review, and whether it was measured."""

    spans_per_minute: float
    measured: bool
    operations: int = 0

    def minutes_for(self, pending: int) -> int:
        return math.ceil(pending / self.spans_per_minute) if pending else 0


def review_rate(corpus: Corpus) -> ReviewRate:
    """The corpus's measured rate, from its last REVIEW_RATE_WINDOW decision events
    (one query). An operation (one bulk_id: an apply-to-all or a bulk decision is
    one reviewer action) decides its events' spans; the time it took is the pause
    since the same reviewer's previous operation, unless that pause is longer than
    REVIEW_RATE_MAX_GAP_SECONDS (a break, not review). With fewer than
    REVIEW_RATE_MIN_OPERATIONS timed operations the rate is the default setting."""
    rows = list(
        ReviewEvent.objects.filter(document__corpus=corpus, action__in=DECISIONS, user__isnull=False)
        .order_by("-created_at", "-id")
        .values_list("user_id", "bulk_id", "created_at")[: settings.REVIEW_RATE_WINDOW]
    )
    operations: dict[tuple, list] = {}
    for user_id, bulk_id, created_at in rows:
        key = (user_id, bulk_id) if bulk_id is not None else (user_id, created_at)
        entry = operations.setdefault(key, [created_at, 0])
        entry[0] = min(entry[0], created_at)
        entry[1] += 1
    by_user: dict[int, list[tuple]] = defaultdict(list)
    for (user_id, _), (at, spans) in operations.items():
        by_user[user_id].append((at, spans))
    seconds, decided, timed = 0.0, 0, 0
    for ops in by_user.values():
        ops.sort(key=lambda op: op[0])
        for (before, _), (at, spans) in zip(ops, ops[1:], strict=False):
            gap = (at - before).total_seconds()
            if 0 < gap <= settings.REVIEW_RATE_MAX_GAP_SECONDS:
                seconds += gap
                decided += spans
                timed += 1
    if timed < settings.REVIEW_RATE_MIN_OPERATIONS or seconds <= 0:
        return ReviewRate(settings.REVIEW_DEFAULT_SPANS_PER_MINUTE, measured=False, operations=timed)
    return ReviewRate(decided / (seconds / 60), measured=True, operations=timed)
