"""A reviewer operation written as ONE SQL statement on PostgreSQL.

Why: a decision round trip (apply-to-all over 20 occurrences included) is pinned
at ≤ 6 queries. Through the ORM an operation is an UPDATE of its spans, an INSERT
of their events and perhaps the document's move to "in review", inside a
transaction: SAVEPOINT/RELEASE around them in a test, BEGIN/COMMIT round trips in
production. Here the whole operation is one statement of data-modifying CTEs, and
a single statement is atomic by itself, so no transaction is opened at all.

The version guard cannot be "UPDATE … WHERE version = seen, then count the rows":
a statement cannot undo half of itself without failing, and a failed statement
aborts the caller's transaction. So the first CTE locks the rows the operation
depends on (`SELECT … FOR NO KEY UPDATE`, which under READ COMMITTED waits for and
re-reads a row another transaction changed) and every write is conditional on all
of them being exactly as read. If one is not, the statement writes nothing and
says so, and the caller raises StaleSpan.

Rows inserted or moved by a concurrent transaction are invisible to that guard:
the statement's snapshot predates them, and a row lock only re-reads rows it
found. So every statement also locks the document's row first (the same order as
everyone who locks both: document, then spans by id). A row lock waits for and
re-reads the latest committed row, so the statement sees the document's latest
status (no decision lands on an approved document) and `spans_revision`, which
every write that makes a span appear over text bumps: an add, resize or relabel
(which depend on nothing appearing over their text) checks it.

Table and column names come from the models' `_meta`. Other databases (SQLite,
the embedded default) never get here: services write there with the ORM, inside
a transaction.
"""

import json
import uuid
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime

from django.db import IntegrityError, connections, router
from django.db.models import JSONField, Model

from ingestion.models import Document, DocumentStatus
from review.models import ReviewAction, ReviewEvent, Span

# A decision on a document that is ready or reviewed puts it (back) in review.
REOPENED_BY_A_DECISION = (DocumentStatus.READY, DocumentStatus.REVIEWED)


def using() -> str:
    return router.db_for_write(Span)


def available() -> bool:
    return connections[using()].vendor == "postgresql"


@dataclass
class Change:
    """Existing spans that all get the same `values` (field name → value), audited as `action`."""

    spans: list[Span]
    values: dict
    action: str = ""


@dataclass
class Event:
    """One audit row: `span` is an existing span or one of the spans created."""

    span: Span
    action: str
    before: dict | None
    after: dict | None


@dataclass
class Written:
    """What a statement did. `written` False: nothing at all, because a span or
    the document moved on (`conflict`: a unique key was taken meanwhile).
    `document_status` is the document's latest, after the write."""

    written: bool
    document_status: str | None = None
    conflict: bool = False
    ids: dict[tuple[int, int, str], int] = field(default_factory=dict)


def check_disjoint(changes: Iterable[Change]) -> None:
    """A span gets one set of values per operation: two would be written in an
    undefined order (and audited twice)."""
    seen: set[int] = set()
    for change in changes:
        pks = {s.pk for s in change.spans}
        if pks & seen:
            raise ValueError(f"spans {sorted(pks & seen)} are in two changes of one operation")
        seen |= pks


def _q(name: str) -> str:
    return connections[using()].ops.quote_name(name)


def _col(model: type[Model], name: str) -> str:
    return _q(model._meta.get_field(name).column)


def _db_value(field, value):
    if isinstance(field, JSONField):
        return None if value is None else json.dumps(value, cls=field.encoder)
    return field.get_db_prep_save(value, connections[using()])


def _json(value: dict | None) -> str | None:
    # As ReviewEvent's JSONField stores them (no encoder: plain json.dumps).
    return None if value is None else json.dumps(value)


EVENT_COLUMNS = ["document", "span", "user", "action", "before", "after", "bulk_id", "undoes", "created_at"]


def _document_ctes(params: dict, *, document: Document, revision: bool, bump: bool, condition: str) -> list[str]:
    """`doc`: the document's row, locked (the latest committed version); `docw`:
    its write if `condition` (the operation was written): put in review (see
    REOPENED_BY_A_DECISION, from its latest status) and `spans_revision` bumped if
    `bump`. DOC_OK says whether the operation may write at all."""
    table, pk = _q(Document._meta.db_table), _col(Document, "id")
    status, rev = _col(Document, "status"), _col(Document, "spans_revision")
    params.update(
        document=document.pk,
        approved=str(DocumentStatus.APPROVED),
        reopened=[str(s) for s in REOPENED_BY_A_DECISION],
        in_review=str(DocumentStatus.IN_REVIEW),
        bump=1 if bump else 0,
        revision=document.spans_revision if revision else None,
    )
    return [
        f"doc AS MATERIALIZED (SELECT {status} AS status, {rev} AS revision FROM {table} "
        f"WHERE {pk} = %(document)s FOR NO KEY UPDATE)",
        f"docw AS (UPDATE {table} SET {status} = CASE WHEN {status} = ANY(%(reopened)s) THEN %(in_review)s "
        f"ELSE {status} END, {rev} = {rev} + %(bump)s, {_col(Document, 'updated_at')} = %(now)s "
        f"WHERE {pk} = %(document)s AND ({status} = ANY(%(reopened)s) OR %(bump)s = 1) AND {condition} "
        f"RETURNING {status} AS status)",
    ]


# Whether the operation may write, from the locked row: not approved, and (for
# an operation that depends on no span appearing) at the revision it was planned at.
DOC_OK = (
    "EXISTS (SELECT 1 FROM doc WHERE doc.status <> %(approved)s "
    "AND (%(revision)s::int IS NULL OR doc.revision = %(revision)s::int))"
)
DOC_STATUS = "coalesce((SELECT status FROM docw), (SELECT status FROM doc))"


def _execute(sql: str, params: dict) -> list[tuple] | None:
    """Run the statement; None if it hit a unique key taken meanwhile (by a
    transaction that committed after the statement's snapshot, so the guard
    could not see it). A single statement in autocommit mode is all or nothing,
    so catching the error is safe. Inside a caller's transaction it has aborted
    that transaction, which only the caller can roll back: it propagates."""
    connection = connections[using()]
    try:
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
            return cursor.fetchall()
    except IntegrityError:
        if connection.in_atomic_block:
            raise
        return None


def write(
    *,
    document: Document,
    user_id: int | None,
    bulk_id: uuid.UUID,
    now: datetime,
    expected: Iterable[Span],
    regions: Iterable[tuple[int, int]] = (),
    updates: Iterable[Change] = (),
    creates: Iterable[Span] = (),
    events: Iterable[Event] = (),
    check_revision: bool = False,
    bump_revision: bool = False,
) -> Written:
    """Apply one operation, all or nothing, in one statement.

    `expected` are the spans, as read, that the operation depends on; with
    `regions` ([start, end) ranges of the text) every span of the document over
    them must be among `expected` too, so that one added meanwhile is noticed.
    With `check_revision`, the document must still be at the `spans_revision`
    it was read with (nothing inserted or moved over any text since, even by a
    transaction that commits while this statement runs). The document must not
    be approved, and is put in review (see REOPENED_BY_A_DECISION).
    """
    span_t, event_t = _q(Span._meta.db_table), _q(ReviewEvent._meta.db_table)
    connection = connections[using()]

    def s(name: str) -> str:
        return _col(Span, name)

    expected = list(expected)
    regions, creates, events = list(regions), list(creates), list(events)
    updates = [u for u in updates if u.spans]
    check_disjoint(updates)
    params: dict = {
        "now": now,
        "n": len(expected),
        "guard_ids": [x.pk for x in expected],
        "guard_versions": [x.version for x in expected],
    }
    doc, docw = _document_ctes(
        params, document=document, revision=check_revision, bump=bump_revision, condition="(SELECT ok FROM ok)"
    )
    ctes = [doc]
    guarded = f"g.{s('id')} = ANY(%(guard_ids)s::bigint[])"
    if regions:
        # One multirange (PostgreSQL ≥ 14) of the regions: each span is tested
        # against it by binary search, not against every region in turn.
        params["lo"], params["hi"] = [r[0] for r in regions], [r[1] for r in regions]
        ctes.append(
            "regions AS (SELECT range_agg(int4range(lo, hi)) AS r "
            "FROM unnest(%(lo)s::int[], %(hi)s::int[]) AS x(lo, hi))"
        )
        guarded = (
            f"g.{s('document')} = %(document)s AND ({guarded} "
            f"OR int4range(g.{s('start')}, g.{s('end')}) && (SELECT r FROM regions))"
        )
    # The document's row first (the uncorrelated EXISTS runs before the scan),
    # then the spans in id order: two operations over the same rows queue up
    # rather than deadlock.
    ctes += [
        f"guard AS (SELECT g.{s('id')} AS id, g.{s('version')} AS version FROM {span_t} g "
        f"WHERE EXISTS (SELECT 1 FROM doc) AND {guarded} ORDER BY g.{s('id')} FOR NO KEY UPDATE)",
        "ok AS (SELECT count(*) = %(n)s AND count(x.id) = %(n)s AND " + DOC_OK + " AS ok FROM guard "
        "LEFT JOIN unnest(%(guard_ids)s::bigint[], %(guard_versions)s::int[]) AS x(id, version) "
        "ON x.id = guard.id AND x.version = guard.version)",
    ]
    for i, update in enumerate(updates):
        sets = []
        for name, value in update.values.items():
            field_ = Span._meta.get_field(name)
            params[f"u{i}_{name}"] = _db_value(field_, value)
            sets.append(f"{_q(field_.column)} = %(u{i}_{name})s")
        params[f"u{i}_ids"] = [x.pk for x in update.spans]
        params[f"u{i}_versions"] = [x.version for x in update.spans]
        ctes.append(
            f"u{i} AS (UPDATE {span_t} SET {', '.join(sets)}, {s('version')} = {span_t}.{s('version')} + 1, "
            f"{s('updated_at')} = %(now)s "
            f"FROM unnest(%(u{i}_ids)s::bigint[], %(u{i}_versions)s::int[]) AS t(id, version) "
            f"WHERE {span_t}.{s('id')} = t.id AND {span_t}.{s('version')} = t.version AND (SELECT ok FROM ok))"
        )
    if creates:
        fields = [f for f in Span._meta.concrete_fields if not f.primary_key]
        for n, field_ in enumerate(fields):
            params[f"c{n}"] = [_db_value(field_, getattr(x, field_.attname)) for x in creates]
        arrays = ", ".join(f"%(c{n})s::{field_.db_type(connection)}[]" for n, field_ in enumerate(fields))
        ctes.append(
            f"new AS (INSERT INTO {span_t} ({', '.join(_q(f.column) for f in fields)}) "
            f"SELECT {', '.join(f'c.c{n}' for n in range(len(fields)))} "
            f"FROM unnest({arrays}) WITH ORDINALITY AS c({', '.join(f'c{n}' for n in range(len(fields)))}, ord) "
            "WHERE (SELECT ok FROM ok) ORDER BY c.ord "
            f"RETURNING {s('id')} AS id, {s('start')} AS lo, {s('end')} AS hi, {s('label')} AS label)"
        )
    if events:
        params.update(
            user=user_id,
            bulk_id=bulk_id,
            e_span=[e.span.pk for e in events],
            e_lo=[e.span.start for e in events],
            e_hi=[e.span.end for e in events],
            e_label=[e.span.label for e in events],
            e_action=[str(e.action) for e in events],
            e_before=[_json(e.before) for e in events],
            e_after=[_json(e.after) for e in events],
        )
        span_id, join = "x.span_id", ""
        if creates:
            # A created span's event finds its new id by the span's unique key.
            span_id = "coalesce(x.span_id, new.id)"
            join = "LEFT JOIN new ON x.span_id IS NULL AND (new.lo, new.hi, new.label) = (x.lo, x.hi, x.label) "
        ctes.append(
            f"logged AS (INSERT INTO {event_t} ({', '.join(_col(ReviewEvent, c) for c in EVENT_COLUMNS)}) "
            f"SELECT %(document)s, {span_id}, %(user)s, x.action, x.before, x.after, %(bulk_id)s, NULL, %(now)s "
            "FROM unnest(%(e_span)s::bigint[], %(e_lo)s::int[], %(e_hi)s::int[], %(e_label)s::text[], "
            "%(e_action)s::text[], %(e_before)s::jsonb[], %(e_after)s::jsonb[]) "
            "WITH ORDINALITY AS x(span_id, lo, hi, label, action, before, after, ord) "
            f"{join}WHERE (SELECT ok FROM ok) ORDER BY x.ord)"
        )
    ctes.append(docw)
    # One row (ok, no new span) or one row per created span, with its new id.
    final = f"SELECT ok.ok, {DOC_STATUS}"
    final += ", new.id, new.lo, new.hi, new.label FROM ok LEFT JOIN new ON true" if creates else " FROM ok"
    rows = _execute(f"WITH {', '.join(ctes)} {final}", params)
    if rows is None:
        return Written(written=False, conflict=True)
    ok, status = rows[0][0], rows[0][1]
    if not ok:
        return Written(written=False, document_status=status)
    ids = {(row[3], row[4], row[5]): row[2] for row in rows if len(row) > 2 and row[2] is not None}
    return Written(written=True, document_status=status, ids=ids)


def delete(*, span: Span, user_id: int | None, bulk_id: uuid.UUID, now: datetime) -> Written:
    """Delete `span` if it is still at the version read, with its DELETE event
    (and the document put in review), in one statement. Its older events keep
    their row with no span, as Django's SET_NULL does through the ORM. Not
    written if the span moved on or the document is approved."""
    span_t, event_t = _q(Span._meta.db_table), _q(ReviewEvent._meta.db_table)
    span_id, version, e_span = _col(Span, "id"), _col(Span, "version"), _col(ReviewEvent, "span")
    params = {
        "id": span.pk,
        "version": span.version,
        "user": user_id,
        "action": str(ReviewAction.DELETE),
        "before": _json(span.snapshot()),
        "bulk_id": bulk_id,
        "now": now,
    }
    doc, docw = _document_ctes(
        params, document=span.document, revision=False, bump=False, condition="EXISTS (SELECT 1 FROM gone)"
    )
    ctes = [
        doc,
        # The document's row is locked by DOC_OK (a one-time filter) before the span's.
        f"gone AS (DELETE FROM {span_t} WHERE {span_id} = %(id)s AND {version} = %(version)s AND {DOC_OK} "
        f"RETURNING {span_id} AS id)",
        f"orphaned AS (UPDATE {event_t} SET {e_span} = NULL WHERE {e_span} IN (SELECT id FROM gone))",
        f"logged AS (INSERT INTO {event_t} ({', '.join(_col(ReviewEvent, c) for c in EVENT_COLUMNS)}) "
        "SELECT %(document)s, NULL, %(user)s, %(action)s, %(before)s::jsonb, NULL, %(bulk_id)s, NULL, %(now)s "
        "FROM gone)",
        docw,
    ]
    rows = _execute(f"WITH {', '.join(ctes)} SELECT (SELECT count(*) FROM gone), {DOC_STATUS}", params)
    if rows is None:
        return Written(written=False, conflict=True)
    return Written(written=rows[0][0] == 1, document_status=rows[0][1])
