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
depends on (`SELECT … FOR UPDATE`, which under READ COMMITTED waits for and
re-reads a row another transaction changed) and every write is conditional on all
of them being exactly as read. If one is not, the statement writes nothing and
says so, and the caller raises StaleSpan.

Table and column names come from the models' `_meta`. Other databases (SQLite,
the embedded default) never get here: services write there with the ORM, inside
a transaction.
"""

import json
import uuid
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from django.db import connection
from django.db.models import JSONField, Model

from ingestion.models import Document
from review.models import ReviewAction, ReviewEvent, Span


def available() -> bool:
    return connection.vendor == "postgresql"


@dataclass
class Update:
    """Existing spans that all get the same `values` (field name → value)."""

    spans: list[Span]
    values: dict


@dataclass
class Event:
    """One audit row: `span` is an existing span or one of the spans created."""

    span: Span
    action: str
    before: dict | None
    after: dict | None


def _q(name: str) -> str:
    return connection.ops.quote_name(name)


def _col(model: type[Model], name: str) -> str:
    return _q(model._meta.get_field(name).column)


def _db_value(field, value):
    if isinstance(field, JSONField):
        return None if value is None else json.dumps(value, cls=field.encoder)
    return field.get_db_prep_save(value, connection)


def _json(value: dict | None) -> str | None:
    # As ReviewEvent's JSONField stores them (no encoder: plain json.dumps).
    return None if value is None else json.dumps(value)


EVENT_COLUMNS = ["document", "span", "user", "action", "before", "after", "bulk_id", "undoes", "created_at"]


def _move_document(condition: str) -> str:
    """The first decision puts a document in review (services._started), here
    in the same statement, only if `condition` (the operation was written)."""
    status = _col(Document, "status")
    return (
        f"moved AS (UPDATE {_q(Document._meta.db_table)} SET {status} = %(doc_status)s, "
        f"{_col(Document, 'updated_at')} = %(now)s "
        f"WHERE {_col(Document, 'id')} = %(document)s AND {status} = %(doc_seen)s AND {condition})"
    )


def write(
    *,
    document: Document,
    user_id: int | None,
    bulk_id: uuid.UUID,
    now: datetime,
    expected: Iterable[Span],
    regions: Iterable[tuple[int, int]] = (),
    updates: Iterable[Update] = (),
    creates: Iterable[Span] = (),
    events: Iterable[Event] = (),
    document_status: str | None = None,
) -> dict[tuple[int, int, str], int] | None:
    """Apply one operation, all or nothing, in one statement.

    `expected` are the spans, as read, that the operation depends on; with
    `regions` ([start, end) ranges of the text) every span of the document over
    them must be among `expected` too, so that one added meanwhile is noticed.
    `document_status` moves the document, from the status it was read with.
    Returns None (nothing written) if any of that moved on; otherwise the ids of
    the created spans by (start, end, label).
    """
    span_t, event_t = _q(Span._meta.db_table), _q(ReviewEvent._meta.db_table)

    def s(name: str) -> str:
        return _col(Span, name)

    expected = list(expected)
    regions, updates, creates, events = list(regions), list(updates), list(creates), list(events)
    params: dict = {
        "document": document.pk,
        "now": now,
        "n": len(expected),
        "guard_ids": [x.pk for x in expected],
        "guard_versions": [x.version for x in expected],
    }
    ctes = []
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
    # Locked in id order, so that two operations over the same rows queue up
    # rather than deadlock.
    ctes += [
        f"guard AS (SELECT g.{s('id')} AS id, g.{s('version')} AS version FROM {span_t} g "
        f"WHERE {guarded} ORDER BY g.{s('id')} FOR UPDATE)",
        "ok AS (SELECT count(*) = %(n)s AND count(x.id) = %(n)s AS ok FROM guard "
        "LEFT JOIN unnest(%(guard_ids)s::bigint[], %(guard_versions)s::int[]) AS x(id, version) "
        "ON x.id = guard.id AND x.version = guard.version)",
    ]
    for i, update in enumerate(u for u in updates if u.spans):
        sets = []
        for name, value in update.values.items():
            field = Span._meta.get_field(name)
            params[f"u{i}_{name}"] = _db_value(field, value)
            sets.append(f"{_q(field.column)} = %(u{i}_{name})s")
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
        for n, field in enumerate(fields):
            params[f"c{n}"] = [_db_value(field, getattr(x, field.attname)) for x in creates]
        arrays = ", ".join(f"%(c{n})s::{field.db_type(connection)}[]" for n, field in enumerate(fields))
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
    if document_status is not None:
        params.update(doc_status=document_status, doc_seen=document.status)
        ctes.append(_move_document("(SELECT ok FROM ok)"))
    # One row (ok, no new span) or one row per created span, with its new id.
    final = (
        "SELECT ok.ok, new.id, new.lo, new.hi, new.label FROM ok LEFT JOIN new ON true"
        if creates
        else "SELECT ok.ok FROM ok"
    )
    with connection.cursor() as cursor:
        cursor.execute(f"WITH {', '.join(ctes)} {final}", params)
        rows = cursor.fetchall()
    if not rows[0][0]:
        return None
    return {(row[2], row[3], row[4]): row[1] for row in rows if len(row) > 1 and row[1] is not None}


def delete(
    *, span: Span, user_id: int | None, bulk_id: uuid.UUID, now: datetime, document_status: str | None = None
) -> bool:
    """Delete `span` if it is still at the version read, with its DELETE event
    (and the document's move to `document_status`), in one statement. Its older
    events keep their row with no span, as Django's SET_NULL does through the
    ORM. False if the span moved on: nothing was written."""
    span_t, event_t = _q(Span._meta.db_table), _q(ReviewEvent._meta.db_table)
    span_id, version, e_span = _col(Span, "id"), _col(Span, "version"), _col(ReviewEvent, "span")
    ctes = [
        f"gone AS (DELETE FROM {span_t} WHERE {span_id} = %(id)s AND {version} = %(version)s "
        f"RETURNING {span_id} AS id)",
        f"orphaned AS (UPDATE {event_t} SET {e_span} = NULL WHERE {e_span} IN (SELECT id FROM gone))",
        f"logged AS (INSERT INTO {event_t} ({', '.join(_col(ReviewEvent, c) for c in EVENT_COLUMNS)}) "
        "SELECT %(document)s, NULL, %(user)s, %(action)s, %(before)s::jsonb, NULL, %(bulk_id)s, NULL, %(now)s "
        "FROM gone)",
    ]
    params = {
        "id": span.pk,
        "version": span.version,
        "document": span.document_id,
        "user": user_id,
        "action": str(ReviewAction.DELETE),
        "before": _json(span.snapshot()),
        "bulk_id": bulk_id,
        "now": now,
    }
    if document_status is not None:
        params.update(doc_status=document_status, doc_seen=span.document.status)
        ctes.append(_move_document("EXISTS (SELECT 1 FROM gone)"))
    with connection.cursor() as cursor:
        cursor.execute(f"WITH {', '.join(ctes)} SELECT count(*) FROM gone", params)
        return cursor.fetchone()[0] == 1
