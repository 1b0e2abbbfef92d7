"""Reads for a corpus's dashboard: how the corpus is going and where the machine
fails. Documents by status over time, spans accepted, rejected and added per
label and per source, score reliability, reviewer throughput and the residual
risk of an export. The numbers only: the charts and their English summaries
are drawn by the view layer (review/views/dashboard_charts.py).

Spans and review events are not counted here: their counts are kept per
document in DashboardCount (written by review/services/dashboard_counts.py in
the transaction of every span write), and the dashboard sums those rows over
the corpus, a few dozen per document instead of hundreds of spans and events.
The page costs the same queries (six after the access check) for ten
documents as for a thousand (tests/review/test_dashboard.py pins the count;
BENCHMARKS.md has the timing). Nothing here is read lazily: the template gets
plain numbers and runs no query.
"""

import bisect
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.contrib.auth import get_user_model
from django.db.models import Case, Count, Max, OuterRef, Q, Subquery, Sum, When
from django.utils import timezone

from ingestion.models import IN_PROGRESS_STATUSES, REVIEWABLE_STATUSES, Corpus, Document, DocumentStatus
from review.models import AnnotationRun, CountKind, DashboardCount, ReviewAction, ReviewEvent, RunKind, SpanStatus
from review.selectors.quasi import left_in_approved
from review.services.dashboard_counts import BINS, SCORE_BINS

# The Text Anonymization Benchmark's quasi-identifier categories, in its order.
QUASI_IDENTIFIER_CATEGORIES: tuple[tuple[str, str], ...] = (
    ("DEM", "Demographic (age, nationality, profession…)"),
    ("DATETIME", "Dates and times"),
    ("LOC", "Places"),
    ("QUANTITY", "Quantities (amounts, durations…)"),
    ("MISC", "Other identifying details"),
    ("RELATION", "Relations (family, acquaintances)"),
)

# Documents by status over time: the periods tried, finest first; the first that
# covers the corpus's life in at most MAX_POINTS points is used.
PERIODS: tuple[str, ...] = ("hour", "day", "week", "month", "quarter", "year")
MAX_POINTS = 60

# The statuses the timeline draws, in workflow order. Uploaded, extracting and
# annotating are one "processing" stage: they last seconds to minutes.
PROCESSING = "processing"
TIMELINE_STATUSES: tuple[tuple[str, str], ...] = (
    (PROCESSING, "Processing"),
    (DocumentStatus.READY.value, "Ready for review"),
    (DocumentStatus.IN_REVIEW.value, "In review"),
    (DocumentStatus.REVIEWED.value, "Reviewed"),
    (DocumentStatus.APPROVED.value, "Approved"),
    (DocumentStatus.FAILED.value, "Failed"),
)
# How far along the workflow each current status is (failed is apart).
_STAGE = {
    **{s: 0 for s in IN_PROGRESS_STATUSES},
    DocumentStatus.READY: 1,
    DocumentStatus.IN_REVIEW: 2,
    DocumentStatus.REVIEWED: 3,
    DocumentStatus.APPROVED: 4,
}


# --- documents by status over time ------------------------------------------


@dataclass
class Timeline:
    """How many documents were in each status at the end of each period (the last
    one: now). `counts[key][i]` for period `i`."""

    period: str = "day"
    points: list[str] = field(default_factory=list)
    counts: dict[str, list[int]] = field(default_factory=dict)

    @property
    def now(self) -> dict[str, int]:
        return {key: values[-1] for key, values in self.counts.items()} if self.points else {}

    @property
    def rows(self) -> list[tuple[str, list[int]]]:
        """The table: one row per period, one column per status (TIMELINE_STATUSES)."""
        keys = [key for key, _ in TIMELINE_STATUSES]
        return [(point, [self.counts[k][i] for k in keys]) for i, point in enumerate(self.points)]


def _share(part: int, whole: int) -> float | None:
    return round(100 * part / whole, 1) if whole else None


def _floor(moment: datetime, period: str) -> datetime:
    moment = timezone.localtime(moment).replace(minute=0, second=0, microsecond=0)
    if period == "hour":
        return moment
    moment = moment.replace(hour=0)
    if period == "day":
        return moment
    if period == "week":
        return moment - timedelta(days=moment.weekday())
    if period == "month":
        return moment.replace(day=1)
    if period == "quarter":
        return moment.replace(day=1, month=(moment.month - 1) // 3 * 3 + 1)
    return moment.replace(day=1, month=1)


def _next(start: datetime, period: str) -> datetime:
    if period == "hour":
        return start + timedelta(hours=1)
    if period == "day":
        return start + timedelta(days=1)
    if period == "week":
        return start + timedelta(days=7)
    months = {"month": 1, "quarter": 3, "year": 12}[period]
    month = start.month - 1 + months
    return start.replace(year=start.year + month // 12, month=month % 12 + 1)


def _point_label(start: datetime, period: str) -> str:
    if period == "hour":
        return start.strftime("%Y-%m-%d %H:00")
    if period in ("day", "week"):
        return start.strftime("%Y-%m-%d")
    if period == "month":
        return start.strftime("%Y-%m")
    if period == "quarter":
        return f"{start.year} Q{(start.month - 1) // 3 + 1}"
    return str(start.year)


def _periods(first: datetime, now: datetime) -> tuple[str, list[datetime]]:
    """The finest period that covers first…now in at most MAX_POINTS, and the start
    of each of its periods up to the one holding `now`."""
    for period in PERIODS:
        starts = [_floor(first, period)]
        while _next(starts[-1], period) <= now and len(starts) <= MAX_POINTS:
            starts.append(_next(starts[-1], period))
        if len(starts) <= MAX_POINTS:
            return period, starts
    return period, starts[-MAX_POINTS:]


def milestones(row: dict) -> list[tuple[datetime, str]]:
    """When a document entered each status it went through, reconstructed from
    what is recorded (there is no status-history table):

    - processing: its creation (the upload);
    - ready for review: the end of its pre-annotation run (AnnotationRun, kind
      "annotate"; the creation when there is no such run, e.g. an import);
    - in review: its first review event (the first decision moves a ready
      document to "in review");
    - reviewed: its last "mark reviewed" event (a document reopened by a later
      decision and marked again counts as reviewed from its last marking, and
      as in review before it);
    - approved: its "approve" event (approval is final);
    - failed: its last change (`updated_at`; a failure is the last thing that
      happens to a document).

    Only the stages up to the document's current status are used, so the last
    point of the timeline always equals today's status counts: a reviewed
    document that a re-annotation put back in review is in review, whatever its
    old "mark reviewed" event says. A stage with no recorded time (data written
    outside the workflow) takes the time of the stage before it; times never go
    backwards."""
    created = row["created_at"]
    status = row["status"]
    if status == DocumentStatus.FAILED:
        return [(created, PROCESSING), (max(created, row["updated_at"]), DocumentStatus.FAILED.value)]
    stage = _STAGE.get(status, 0)
    found = [
        (created, PROCESSING),
        (row.get("annotated_at"), DocumentStatus.READY.value),
        (row.get("first_event"), DocumentStatus.IN_REVIEW.value),
        (row.get("reviewed_at"), DocumentStatus.REVIEWED.value),
        (row.get("approved_at"), DocumentStatus.APPROVED.value),
    ][: stage + 1]
    result: list[tuple[datetime, str]] = []
    for moment, key in found:
        previous = result[-1][0] if result else created
        result.append((max(moment or previous, previous), key))
    return result


def timeline(rows: Iterable[dict], now: datetime) -> Timeline:
    """Counts per status at the end of each period, from each document's
    milestones: +1 to a status in the period a document enters it, −1 to the
    status it leaves, then running sums. Linear in documents and periods."""
    histories = [milestones(row) for row in rows]
    if not histories:
        return Timeline(counts={key: [] for key, _ in TIMELINE_STATUSES})
    first = min(h[0][0] for h in histories)
    period, starts = _periods(first, now)
    # POSIX timestamps: comparing floats, not aware datetimes of two time zones.
    ends = [_next(s, period).timestamp() for s in starts]
    deltas = {key: [0] * len(starts) for key, _ in TIMELINE_STATUSES}
    for history in histories:
        previous = None
        for moment, key in history:
            # The period holding this moment; a moment before the first shown
            # period (a very long corpus life) is counted from that first one.
            i = min(bisect.bisect_right(ends, moment.timestamp()), len(starts) - 1)
            deltas[key][i] += 1
            if previous is not None:
                deltas[previous][i] -= 1
            previous = key
    counts = {}
    for key, values in deltas.items():
        running, counts[key] = 0, []
        for value in values:
            running += value
            counts[key].append(running)
    return Timeline(period, [_point_label(s, period) for s in starts], counts)


# --- spans per label and per source, score reliability ----------------------


@dataclass
class SpanCounts:
    """Per label or per source. accepted, rejected, pending: machine spans by their
    current status; added: spans a reviewer added (accepted) — what the machine missed."""

    key: str
    accepted: int = 0
    rejected: int = 0
    pending: int = 0
    added: int = 0

    @property
    def rejected_share(self) -> float | None:
        """Over-firing: the share of decided machine spans that reviewers rejected."""
        return _share(self.rejected, self.accepted + self.rejected)

    @property
    def added_share(self) -> float | None:
        """Misses: the share of accepted spans that reviewers had to add."""
        return _share(self.added, self.accepted + self.added)


@dataclass
class ScoreBin:
    low: float
    high: float
    correct: int = 0
    wrong: int = 0
    pending: int = 0

    @property
    def name(self) -> str:
        return f"{self.low:.1f}–{self.high:.1f}"

    @property
    def decided(self) -> int:
        return self.correct + self.wrong

    @property
    def share(self) -> float | None:
        return _share(self.correct, self.decided)


def span_groups(corpus: Corpus) -> list[dict]:
    """The corpus's spans counted by (label, status, sources, added: by a reviewer,
    not the machine), with the count in each score bin: a sum over the kept
    per-document counts (DashboardCount, kind "spans"), a few dozen rows per
    document. `sources` is a JSON list: grouped by the whole list (portable to
    SQLite) and split per source in Python; there are a few dozen distinct
    lists, not thousands."""
    return list(
        DashboardCount.objects.filter(corpus=corpus, kind=CountKind.SPANS)
        .values("label", "status", "sources", "added")
        .annotate(n=Sum("n"), **{name: Sum(name) for name in BINS})
        .order_by()
    )


def span_statistics(groups: Iterable[dict]) -> tuple[list[SpanCounts], list[SpanCounts], list[ScoreBin]]:
    """Per label, per source (a span counts for every recognizer that proposed
    it; reviewer-added spans have no recognizer and appear per label only) and
    the score bins. A span counts under its current label: a relabelled
    suggestion counts as accepted under the label the reviewer gave it, as the
    export uses it. Correct, for reliability: a machine span a reviewer accepted
    (relabelled or resized included); wrong: one rejected (superseded included);
    pending spans are shown apart and do not count."""
    per_label: dict[str, SpanCounts] = {}
    per_source: dict[str, SpanCounts] = {}
    bins = [ScoreBin(i / SCORE_BINS, (i + 1) / SCORE_BINS) for i in range(SCORE_BINS)]
    for group in groups:
        n, status, label = group["n"], group["status"], group["label"]
        row = per_label.setdefault(label, SpanCounts(label))
        if group["added"]:  # by a reviewer
            if status == SpanStatus.ACCEPTED:
                row.added += n
            continue
        for counts in [row, *(per_source.setdefault(s, SpanCounts(s)) for s in group["sources"] or [])]:
            setattr(counts, status, getattr(counts, status) + n)
        what = {SpanStatus.ACCEPTED: "correct", SpanStatus.REJECTED: "wrong", SpanStatus.PENDING: "pending"}[status]
        for i, score_bin in enumerate(bins):
            setattr(score_bin, what, getattr(score_bin, what) + group[BINS[i]])
    labels = sorted(per_label.values(), key=lambda r: (-(r.accepted + r.rejected + r.pending + r.added), r.key))
    sources = sorted(per_source.values(), key=lambda r: (-(r.accepted + r.rejected + r.pending), r.key))
    return labels, sources, bins


# --- reviewer throughput -----------------------------------------------------


@dataclass
class Throughput:
    """One reviewer's work in this corpus. decisions: span decisions (one per span
    per operation: accepting a name with apply-to-all over 20 occurrences is 20);
    operations: what the reviewer did (distinct bulk ids of those decisions: the
    same accept is one); spans: distinct spans decided; active hours: clock hours
    (UTC) in which the reviewer decided at least one span. A corpus admin who
    only approved decided no span and is not listed."""

    username: str
    decisions: int = 0
    operations: int = 0
    spans: int = 0
    active_hours: int = 0

    @property
    def per_hour(self) -> float | None:
        return round(self.decisions / self.active_hours, 1) if self.active_hours else None

    @property
    def actions_per_span(self) -> float | None:
        return round(self.operations / self.spans, 3) if self.spans else None


def throughput(corpus: Corpus) -> list[Throughput]:
    """Per reviewer, from the kept counts: decisions, operations and spans summed
    over the documents (an operation and a span belong to one document), and
    active hours counted distinct over the reviewer's (document, clock hour)
    rows, since one hour can hold work on several documents. Active hours
    rather than first-to-last time: a reviewer who works an hour on Monday and
    an hour on Friday worked two hours, not a week. The username is read once
    per reviewer (a subquery after the GROUP BY)."""
    username = get_user_model().objects.filter(pk=OuterRef("user_id")).values("username")[:1]
    work = Q(kind=CountKind.WORK)
    rows = (
        DashboardCount.objects.filter(corpus=corpus, kind__in=(CountKind.WORK, CountKind.HOUR))
        .values("user_id")
        .annotate(
            decisions=Sum("n", filter=work),
            operations=Sum("operations", filter=work),
            spans=Sum("spans", filter=work),
            active_hours=Count("hour", filter=Q(kind=CountKind.HOUR), distinct=True),
        )
        .annotate(username=Subquery(username))
        .order_by()
    )
    result = [
        Throughput(r["username"], r["decisions"] or 0, r["operations"] or 0, r["spans"] or 0, r["active_hours"])
        for r in rows
    ]
    return sorted(result, key=lambda t: (-t.decisions, t.username))


# --- residual risk -----------------------------------------------------------


@dataclass(frozen=True)
class ResidualDocument:
    document_id: int
    name: str
    pending: int
    rejected_unreviewed: int

    @property
    def total(self) -> int:
        return self.pending + self.rejected_unreviewed


def direct_identifiers_left(corpus: Corpus) -> list[ResidualDocument]:
    """Approved documents that still hold direct identifiers, worst first: machine
    spans of a direct-identifier label that are pending (an export leaves their
    text as it is) or rejected although no review event ever left them rejected
    (a status written outside the review workflow). A span a reviewer rejected —
    one by one, with apply-to-all or in bulk — is a decision to keep its text
    (a public official's name…) and is not counted. Should be none: marking a
    document reviewed needs no span pending. The kept counts (DashboardCount,
    kind "risk": a row only for a document with any) of the approved documents."""
    rows = (
        DashboardCount.objects.filter(corpus=corpus, kind=CountKind.RISK, document__status=DocumentStatus.APPROVED)
        .values("document_id", "document__name")
        .annotate(pending=Sum("n"), rejected_unreviewed=Sum("unreviewed"))
        .order_by()
    )
    found = [
        ResidualDocument(r["document_id"], r["document__name"], r["pending"], r["rejected_unreviewed"]) for r in rows
    ]
    return sorted(found, key=lambda d: (-d.total, d.name, d.document_id))


@dataclass
class ResidualRisk:
    approved_documents: int
    documents: list[ResidualDocument]
    quasi_identifiers: Mapping[str, int]

    @property
    def total(self) -> int:
        return sum(d.total for d in self.documents)

    @property
    def quasi_rows(self) -> list[tuple[str, str, int]]:
        """(category, description, count) in TAB order, categories unknown to it last."""
        known = [(key, label, self.quasi_identifiers.get(key, 0)) for key, label in QUASI_IDENTIFIER_CATEGORIES]
        extra = sorted(set(self.quasi_identifiers) - {key for key, _ in QUASI_IDENTIFIER_CATEGORIES})
        return known + [(key, key, self.quasi_identifiers[key]) for key in extra]


# --- the page ------------------------------------------------------------------


@dataclass
class Dashboard:
    documents: int
    spans: int
    timeline: Timeline
    labels: list[SpanCounts]
    sources: list[SpanCounts]
    bins: list[ScoreBin]
    reviewers: list[Throughput]
    risk: ResidualRisk

    @property
    def pending(self) -> int:
        return sum(r.pending for r in self.labels)

    @property
    def total(self) -> Throughput:
        """The corpus: sums over reviewers (a span two reviewers decided counts for each)."""
        rows = self.reviewers
        return Throughput(
            "all reviewers",
            sum(r.decisions for r in rows),
            sum(r.operations for r in rows),
            sum(r.spans for r in rows),
            sum(r.active_hours for r in rows),
        )

    @property
    def reliability(self) -> ScoreBin:
        """All bins together."""
        return ScoreBin(0.0, 1.0, *(sum(getattr(b, f) for b in self.bins) for f in ("correct", "wrong", "pending")))


def document_rows(corpus: Corpus) -> list[dict]:
    """One row per document (id, name, status, times) with the times of its
    milestones (see `milestones`), in two queries that read indexes, not every
    review event:

    - the documents, each with its pre-annotation's end (one probe of the
      one-per-document unique index on annotation runs) and, for those in review
      or beyond (CASE), its first review event (one probe of the (document,
      created_at) index);
    - the workflow steps ("mark reviewed", "approve"): the only review events
      without a bulk id (span decisions always have one: review/services/audit.py),
      found through the bulk id index, one GROUP BY per document.
    """
    # order_by(): no model ordering, so the unique partial index answers alone.
    runs = AnnotationRun.objects.filter(document_id=OuterRef("pk"), kind=RunKind.ANNOTATE).order_by()
    first = ReviewEvent.objects.filter(document_id=OuterRef("pk")).order_by("created_at").values("created_at")
    in_review = (DocumentStatus.IN_REVIEW, DocumentStatus.REVIEWED, DocumentStatus.APPROVED)
    rows = list(
        Document.objects.filter(corpus=corpus)
        .values("id", "name", "status", "created_at", "updated_at")
        .annotate(
            annotated_at=Case(
                When(status__in=REVIEWABLE_STATUSES, then=Subquery(runs.values("finished_at")[:1])), default=None
            ),
            first_event=Case(When(status__in=in_review, then=Subquery(first[:1])), default=None),
        )
        .order_by()
    )
    steps = {
        r["document_id"]: r
        for r in ReviewEvent.objects.filter(
            document__corpus=corpus,
            bulk_id__isnull=True,
            action__in=(ReviewAction.MARK_REVIEWED, ReviewAction.APPROVE),
        )
        .values("document_id")
        .annotate(
            reviewed_at=Max("created_at", filter=Q(action=ReviewAction.MARK_REVIEWED)),
            approved_at=Max("created_at", filter=Q(action=ReviewAction.APPROVE)),
        )
        .order_by()
    }
    for row in rows:
        step = steps.get(row["id"], {})
        row["reviewed_at"] = step.get("reviewed_at")
        row["approved_at"] = step.get("approved_at")
    return rows


def dashboard_data(corpus: Corpus, now: datetime | None = None) -> Dashboard:
    """Everything the dashboard shows, in six queries (documents, workflow steps,
    span groups, reviewer throughput, direct identifiers left, quasi-identifiers
    left by category)."""
    rows = document_rows(corpus)
    groups = span_groups(corpus)
    labels, sources, bins = span_statistics(groups)
    approved = sum(1 for r in rows if r["status"] == DocumentStatus.APPROVED)
    left = direct_identifiers_left(corpus)
    return Dashboard(
        documents=len(rows),
        spans=sum(g["n"] for g in groups),
        timeline=timeline(rows, now or timezone.now()),
        labels=labels,
        sources=sources,
        bins=bins,
        reviewers=throughput(corpus),
        # Quasi-identifiers left as written in approved documents (kept or
        # undecided flags), by TAB category: one GROUP BY over the flags table.
        risk=ResidualRisk(approved, left, left_in_approved(corpus)),
    )
