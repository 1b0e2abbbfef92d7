"""The one writer of DashboardCount rows: the corpus dashboard's counts, kept per
document so that the dashboard sums a few rows per document instead of counting
every span and review event of the corpus on each view (issue 29).

`document_counted(document_id)` counts one document again: one DELETE of its
rows and one INSERT … SELECT that groups its spans and review events. The span
writer (review/services/spans.py) calls it at the end of every write to a
document's spans or span events, inside the same transaction and under the
document's row lock, so the rows can never disagree with what they count: a
write that rolls back takes its recount with it. Recounting the whole document
rather than applying deltas keeps it simple and exact (an undo, a re-annotation
or a bulk reject need no delta logic of their own); it costs two statements per
write and one GROUP BY over the document's spans and events, an index range.

Deleting a document or a corpus deletes its rows (foreign keys, CASCADE).

`recount()` gives the rows a full count of every document would write, and
`rebuild()` writes them (`manage.py dashboard_counts --check / --rebuild`).
"""

import json
from collections import Counter
from collections.abc import Iterable

from django.db import connection
from django.db.models import BooleanField, Count, Exists, ExpressionWrapper, F, Func, OuterRef, Q, QuerySet

from ingestion.models import Document
from pipelines.labels import DIRECT_IDENTIFIER_LABELS
from review.models import CountKind, DashboardCount, ReviewAction, ReviewEvent, Span, SpanStatus

# Review events that decide a span: each one is a reviewer's decision about
# whether (and as what) a stretch of text is anonymized. A supersede is the
# rejection of a suggestion that an added or resized span replaces, in the same
# operation. Links, undo/redo and workflow steps decide no span.
DECISION_ACTIONS: tuple[str, ...] = (
    ReviewAction.ACCEPT,
    ReviewAction.REJECT,
    ReviewAction.RELABEL,
    ReviewAction.ADD,
    ReviewAction.SUPERSEDE,
    ReviewAction.RESIZE,
)

# Score reliability: ten bins of 0.1; scores are in [0, 1] (the ensemble's
# noisy-or), the last bin takes 1.0 itself.
SCORE_BINS = 10
BINS: tuple[str, ...] = tuple(f"bin{i}" for i in range(SCORE_BINS))

# The table's columns in the order of the INSERT, and what a kind that does not
# use a column puts there.
COLUMNS: tuple[str, ...] = (
    "corpus_id",
    "document_id",
    "kind",
    "label",
    "status",
    "sources",
    "added",
    "user_id",
    "hour",
    "n",
    *BINS,
    "operations",
    "spans",
    "unreviewed",
)
_DEFAULTS: dict[str, str] = {
    "label": "''",
    "status": "''",
    "sources": "NULL",
    "added": "FALSE",
    # Typed: PostgreSQL types a UNION's column from its first branches, and two
    # untyped NULLs there would make it text.
    "user_id": "CAST(NULL AS integer)",
    "hour": "''",
    **{name: "0" for name in ("n", *BINS, "operations", "spans", "unreviewed")},
}


class ClockHour(Func):
    """The clock hour (UTC) of a timestamp as text, "YYYY-MM-DD HH": on SQLite,
    where timestamps are ISO text in UTC, its first 13 characters; on
    PostgreSQL to_char in UTC. Native SQL on both (Django's TruncHour runs a
    Python function per row on SQLite)."""

    def as_sqlite(self, compiler, connection, **extra):
        return self.as_sql(compiler, connection, template="substr(%(expressions)s, 1, 13)", **extra)

    def as_postgresql(self, compiler, connection, **extra):
        template = "to_char(%(expressions)s AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24')"
        return self.as_sql(compiler, connection, template=template, **extra)

    def as_sql(self, compiler, connection, template=None, **extra):
        if template is None:  # any other database: the portable way
            template = "substr(CAST(%(expressions)s AS varchar(32)), 1, 13)"
        return super().as_sql(compiler, connection, template=template, **extra)


def _bins() -> dict:
    """One conditional count per score bin: [i/10, (i+1)/10), the last one closed."""
    counts = {}
    for i in range(SCORE_BINS):
        condition = Q()
        if i > 0:
            condition &= Q(score__gte=i / SCORE_BINS)
        if i < SCORE_BINS - 1:
            condition &= Q(score__lt=(i + 1) / SCORE_BINS)
        counts[BINS[i]] = Count("pk", filter=condition)
    return counts


def _groups(documents: Q) -> dict[str, QuerySet]:
    """Per kind, the GROUP BY that counts the documents matching `documents` (a
    condition on `document_id`). Each yields the columns it names; the others
    take their default (see _select)."""
    spans = Span.objects.filter(documents)
    events = ReviewEvent.objects.filter(documents, user__isnull=False, action__in=DECISION_ACTIONS)
    rejected_by_a_reviewer = ReviewEvent.objects.filter(
        span_id=OuterRef("pk"), after__status=SpanStatus.REJECTED
    ).order_by()
    pending = Q(status=SpanStatus.PENDING)
    # A rejection no review event made: a status written outside the workflow.
    unreviewed = Q(status=SpanStatus.REJECTED) & ~Exists(rejected_by_a_reviewer)
    return {
        CountKind.SPANS: spans.annotate(
            corpus_id=F("document__corpus_id"),
            added=ExpressionWrapper(Q(created_by__isnull=False), output_field=BooleanField()),
        )
        .values("corpus_id", "document_id", "label", "status", "sources", "added")
        .annotate(n=Count("pk"), **_bins())
        .order_by(),
        CountKind.RISK: spans.filter(
            created_by__isnull=True,
            label__in=DIRECT_IDENTIFIER_LABELS,
            status__in=(SpanStatus.PENDING, SpanStatus.REJECTED),
        )
        .filter(pending | unreviewed)
        .annotate(corpus_id=F("document__corpus_id"))
        .values("corpus_id", "document_id")
        .annotate(n=Count("pk", filter=pending), unreviewed=Count("pk", filter=~pending))
        .order_by(),
        CountKind.WORK: events.annotate(corpus_id=F("document__corpus_id"))
        .values("corpus_id", "document_id", "user_id")
        .annotate(
            n=Count("pk"),
            operations=Count("bulk_id", distinct=True),
            spans=Count("span_id", distinct=True),
        )
        .order_by(),
        CountKind.HOUR: events.annotate(corpus_id=F("document__corpus_id"), hour=ClockHour("created_at"))
        .values("corpus_id", "document_id", "user_id", "hour")
        .annotate(n=Count("pk"))
        .order_by(),
    }


def _select(documents: Q) -> tuple[str, list]:
    """One SELECT (a UNION ALL of the kinds) whose rows are the table's rows for
    the matching documents, its columns in COLUMNS order. Each kind's GROUP BY
    is wrapped and its columns picked by their aliases, so the order Django
    gives a values() query does not matter."""
    parts, params = [], []
    for kind, queryset in _groups(documents).items():
        sql, kind_params = queryset.query.sql_with_params()
        names = set(queryset.query.values_select) | set(queryset.query.annotation_select)
        picked = []
        for column in COLUMNS:
            if column == "kind":
                picked.append(f"'{kind.value}'")
            elif column in names:
                picked.append(connection.ops.quote_name(column))
            else:
                picked.append(_DEFAULTS[column])
        parts.append(f"SELECT {', '.join(picked)} FROM ({sql}) {connection.ops.quote_name('g_' + kind.value)}")
        params.extend(kind_params)
    return " UNION ALL ".join(parts), params


def _write(documents: Q) -> None:
    table = connection.ops.quote_name(DashboardCount._meta.db_table)
    columns = ", ".join(connection.ops.quote_name(c) for c in COLUMNS)
    sql, params = _select(documents)
    with connection.cursor() as cursor:
        cursor.execute(f"INSERT INTO {table} ({columns}) {sql}", params)


def document_counted(document_id: int) -> None:
    """Count one document again (inside the caller's transaction, the document's
    row locked by it): its rows deleted, then written from its spans and events."""
    DashboardCount.objects.filter(document_id=document_id).delete()
    _write(Q(document_id=document_id))


def _fresh_statistics() -> None:
    """PostgreSQL plans the recount's joins from its table statistics; right after a
    large import (before autovacuum has run) they say the tables are empty, and the
    plan it picks is quadratic in documents (a 10,000-document rebuild ran for over
    ten minutes; with ANALYZE first, 1,000 documents took 9.6 s instead of 17-20 s:
    BENCHMARKS.md). SQLite's planner needs none."""
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        for model in (Span, ReviewEvent, Document):
            cursor.execute(f"ANALYZE {connection.ops.quote_name(model._meta.db_table)}")


def rebuild(corpus_id: int | None = None) -> None:
    """Count every document (of one corpus) again from scratch."""
    _fresh_statistics()
    if corpus_id is None:
        DashboardCount.objects.all().delete()
        _write(Q())
    else:
        DashboardCount.objects.filter(corpus_id=corpus_id).delete()
        _write(Q(document__corpus_id=corpus_id))


# --- the check --------------------------------------------------------------------


def _key(row: Iterable) -> tuple:
    """A row as a comparable tuple (sources as their JSON list, whatever the database
    hands back: a list on PostgreSQL, text on SQLite through a cursor)."""
    values = list(row)
    i = COLUMNS.index("sources")
    if isinstance(values[i], str):
        values[i] = json.loads(values[i])
    if values[i] is not None:
        values[i] = tuple(values[i])
    i = COLUMNS.index("added")
    values[i] = bool(values[i])
    return tuple(values)


def differences(corpus_id: int | None = None) -> tuple[Counter, Counter]:
    """(kept but not counted, counted but not kept): the stored rows against a full
    recount, as multisets of rows; both empty when the counts are right."""
    documents = Q() if corpus_id is None else Q(document__corpus_id=corpus_id)
    sql, params = _select(documents)
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        counted = Counter(_key(r) for r in cursor.fetchall())
    kept_rows = (
        DashboardCount.objects.all() if corpus_id is None else DashboardCount.objects.filter(corpus_id=corpus_id)
    )
    kept = Counter(_key(r) for r in kept_rows.values_list(*COLUMNS))
    return kept - counted, counted - kept
