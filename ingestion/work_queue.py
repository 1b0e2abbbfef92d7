"""The one work queue: claiming a row for a task delivery, the holder's heartbeat,
taking over from a lost worker, counting attempts, the poison limit, handing a
claim back, and the sweep that re-queues what the broker lost.

Four tables are queues: documents (extraction, then pre-annotation), re-annotation
runs, export batches and corpus-model training runs. Each is described once by a
`WorkQueue` in its own writer module (ingestion/services.py,
review/services/annotation.py, export.py, corpus_models.py), and that writer calls
these functions with it: the rules live here, once; the rows are still written only
on behalf of their one writer.

The row is the truth, not the broker. Every state change is one conditional
UPDATE (the same on SQLite and PostgreSQL):

- waiting → running: a claim by one task delivery (`claimed_by`), counting an
  attempt. A row held by another delivery is taken over only when its holder is
  lost (below) or when the same delivery comes back (Celery's acks_late with
  reject-on-worker-lost redelivers the message of a killed pool process).
- a holder is alive while it beats: a thread of the worker stamps `heartbeat_at`
  every WORKER_HEARTBEAT_SECONDS while the task runs, whatever it is doing (a
  step with no progress to report too). A holder silent for WORKER_LOST_AFTER
  seconds is lost: its worker died with the message in hand (the whole worker
  killed, the filesystem broker's message gone, Redis's unacked message not due
  back for an hour).
- a lost holder's row goes back to waiting (the sweeper re-queues it, or the
  admin's "again" does at once), or fails with the reason once it took
  TASK_MAX_ATTEMPTS workers with it.
- a row waiting for longer than QUEUED_TIMEOUT_MINUTES lost its message (a broker
  outage): the sweeper queues it again. A duplicate message is harmless: the
  claim is conditional."""

import logging
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import DatabaseError, connections, models, transaction
from django.db.models import F, Q, QuerySet
from django.utils import timezone

from ingestion.task_policy import TRANSIENT_ERRORS

logger = logging.getLogger(__name__)

# Kept word for word: it is what reviewers have been shown since issue 15.
WORKER_DIED = "the worker ran out of memory on this file"


@dataclass(frozen=True)
class WorkQueue:
    """One table as a queue, described by its writer.

    `waiting` and `running` are the status values of a row waiting for a worker
    and of one held by a worker; when they are the same (a document waiting for
    annotation and one being annotated are both "annotating"), the claim time
    tells them apart. `failed` gives the fields a row that failed gets, from the
    message and the time."""

    model: type[models.Model]
    waiting: str
    running: str
    failure: str  # what the failure message starts with, e.g. "Export failed"
    failed: Callable[[str, datetime], dict[str, Any]]
    scope: Q = field(default_factory=Q)  # the rows of the table that are this queue
    claimed_field: str = "started_at"  # when the current holder claimed it
    created_field: str = "created_at"  # a row that never had queued_at waits since then
    on_claim: dict[str, Any] = field(default_factory=dict)  # reset for each attempt (progress)
    touch: tuple[str, ...] = ()  # set to now on every write (update() skips auto_now)

    def rows(self) -> QuerySet:
        return self.model._default_manager.filter(self.scope)

    def waiting_q(self) -> Q:
        if self.waiting == self.running:
            return Q(status=self.waiting, **{f"{self.claimed_field}__isnull": True})
        return Q(status=self.waiting)

    def running_q(self) -> Q:
        if self.waiting == self.running:
            return Q(status=self.running, **{f"{self.claimed_field}__isnull": False})
        return Q(status=self.running)

    def stamp(self, now: datetime, **values: Any) -> dict[str, Any]:
        return {**values, **{name: now for name in self.touch}}


def lost_cutoff() -> datetime:
    """The one stale cutoff: a holder not heard from since then is lost."""
    return timezone.now() - timedelta(seconds=settings.WORKER_LOST_AFTER)


def heartbeat_interval() -> float:
    # At least three beats fit in WORKER_LOST_AFTER, so one slow write (a busy
    # database) does not make a live holder look lost.
    return max(0.05, min(float(settings.WORKER_HEARTBEAT_SECONDS), settings.WORKER_LOST_AFTER / 3))


def _silent_since(queue: WorkQueue, cutoff: datetime) -> Q:
    # A row claimed before heartbeats existed has none: its claim time stands in,
    # or, with none either, the time the row was made.
    claimed, created = queue.claimed_field, queue.created_field
    return Q(heartbeat_at__lt=cutoff) | Q(
        Q(**{f"{claimed}__lt": cutoff}) | Q(**{f"{claimed}__isnull": True, f"{created}__lt": cutoff}),
        heartbeat_at__isnull=True,
    )


def lost_q(queue: WorkQueue) -> Q:
    """Rows held by a worker that is lost."""
    return queue.running_q() & _silent_since(queue, lost_cutoff())


def live_q(queue: WorkQueue) -> Q:
    """Rows held by a worker that is alive."""
    return queue.running_q() & ~_silent_since(queue, lost_cutoff())


def poison_message(queue: WorkQueue) -> str:
    return f"{queue.failure}: {WORKER_DIED} (it stopped the worker {settings.TASK_MAX_ATTEMPTS} times)."


@dataclass(frozen=True)
class Claim:
    """`taken` when this delivery may run the row; `poisoned` when the row failed
    instead (it had taken TASK_MAX_ATTEMPTS workers with it)."""

    taken: bool
    poisoned: bool = False


def claim(queue: WorkQueue, pk: int, delivery: str) -> Claim:
    """Take the row for this task delivery, with one conditional UPDATE: it waits
    for a worker; or this very delivery held it (redelivered after its worker
    died); or its holder is lost. Each claim counts an attempt; a row that would
    be claimed a (TASK_MAX_ATTEMPTS + 1)th time fails with the reason instead."""
    limit = settings.TASK_MAX_ATTEMPTS
    now = timezone.now()
    takeable = queue.waiting_q() | (
        queue.running_q() & (Q(claimed_by=delivery[:64]) | _silent_since(queue, lost_cutoff()))
    )
    row = queue.rows().filter(pk=pk)
    values = queue.stamp(
        now,
        status=queue.running,
        claimed_by=delivery[:64],
        heartbeat_at=now,
        attempts=F("attempts") + 1,
        **{queue.claimed_field: now},
        **queue.on_claim,
    )
    if row.filter(takeable, attempts__lt=limit).update(**values):
        return Claim(taken=True)
    poisoned = row.filter(takeable, attempts__gte=limit).update(
        **queue.stamp(now, **queue.failed(poison_message(queue), now))
    )
    return Claim(taken=False, poisoned=bool(poisoned))


def held(queue: WorkQueue, pk: int, delivery: str) -> QuerySet:
    """The row while this delivery still holds it: a finishing write filtered by
    this does nothing once the row was taken over (its holder looked lost)."""
    return queue.rows().filter(queue.running_q(), pk=pk, claimed_by=delivery[:64])


def release(queue: WorkQueue, pk: int, delivery: str) -> bool:
    """Hand a claim back (a transient error: the task's retry takes it again). No
    worker died, so the attempt does not count."""
    now = timezone.now()
    return bool(
        held(queue, pk, delivery).update(
            **queue.stamp(now, **_waiting_values(queue, queued_at=now), attempts=F("attempts") - 1)
        )
    )


def _waiting_values(queue: WorkQueue, *, queued_at: datetime) -> dict[str, Any]:
    return {
        "status": queue.waiting,
        "claimed_by": "",
        "heartbeat_at": None,
        "queued_at": queued_at,
        queue.claimed_field: None,
    }


def beat(queue: WorkQueue, pk: int, delivery: str) -> bool:
    """The holder is alive. False once the row is no longer this delivery's."""
    return bool(held(queue, pk, delivery).update(heartbeat_at=timezone.now()))


@contextmanager
def heartbeat(queue: WorkQueue, pk: int, delivery: str) -> Iterator[None]:
    """Beat for the row from a thread while the block runs: the holder stays
    alive through steps that report no progress (extraction, loading a model,
    training, judging), and stops beating the moment its process dies."""
    stop = threading.Event()

    def run() -> None:
        try:
            while not stop.wait(heartbeat_interval()):
                try:
                    if not beat(queue, pk, delivery):
                        return  # taken over or finished: nothing left to keep alive
                except DatabaseError:
                    # One missed beat is allowed for (three fit in WORKER_LOST_AFTER).
                    logger.warning("heartbeat of %s %s not saved", queue.model.__name__, pk, exc_info=True)
        finally:
            connections.close_all()  # this thread's own connections

    thread = threading.Thread(target=run, name=f"heartbeat-{queue.model.__name__}-{pk}", daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join(timeout=5)


@contextmanager
def step(queue: WorkQueue, pk: int, delivery: str) -> Iterator[Claim]:
    """A task's whole hold on a row: claim it; while the block runs, beat; on a
    transient error (the task's retry comes next) hand it back. The block runs
    the work only if the claim was `taken`."""
    taken = claim(queue, pk, delivery)
    if not taken.taken:
        yield taken
        return
    with heartbeat(queue, pk, delivery):
        try:
            yield taken
        except TRANSIENT_ERRORS:
            release(queue, pk, delivery)
            raise


def finish(queue: WorkQueue, pk: int, delivery: str, **values: Any) -> bool:
    """The holder's last write: the row leaves the queue with `values`, only if
    this delivery still holds it (False: it was taken over meanwhile)."""
    now = timezone.now()
    return bool(held(queue, pk, delivery).update(**queue.stamp(now, claimed_by="", heartbeat_at=None, **values)))


@dataclass(frozen=True)
class TakeBack:
    """What asking for a row's work again found: `requeued` (it waits for a worker
    now), `failed` (its lost holder was its TASK_MAX_ATTEMPTS-th), `live` (a
    worker holds it and was heard from `silent_for` seconds ago), `waiting` (no
    worker has it yet), or `idle` (it is not in this queue)."""

    state: str
    silent_for: int = 0


def take_back(queue: WorkQueue, pk: int) -> TakeBack:
    """At once, what the sweeper would do for this row: a lost holder's row waits
    again (or fails at the poison limit); a live holder's is left to it."""
    now = timezone.now()
    row = queue.rows().filter(pk=pk)
    lost = row.filter(lost_q(queue))
    if lost.filter(attempts__gte=settings.TASK_MAX_ATTEMPTS).update(
        **queue.stamp(now, **queue.failed(poison_message(queue), now))
    ):
        return TakeBack("failed")
    if lost.update(**queue.stamp(now, **_waiting_values(queue, queued_at=now))):
        return TakeBack("requeued")
    if row.filter(queue.waiting_q()).update(**queue.stamp(now, queued_at=now)):
        return TakeBack("waiting")
    heard = row.filter(queue.running_q()).values_list("heartbeat_at", queue.claimed_field).first()
    if heard is not None:
        last = heard[0] or heard[1] or now
        return TakeBack("live", max(0, int((now - last).total_seconds())))
    return TakeBack("idle")


@dataclass(frozen=True)
class Swept:
    requeue: list[int]  # waiting for a worker again: queue them
    failed: list[int]  # their lost holder was their TASK_MAX_ATTEMPTS-th
    live: int  # held by a worker heard from within WORKER_LOST_AFTER


def sweep(queue: WorkQueue, *, queued_before: datetime, scope: Q | None = None) -> Swept:
    """Rows whose holder is lost wait again (or fail at the poison limit); rows
    waiting since before `queued_before` lost their message. Both are returned to
    be queued, their wait restarted so the next sweep does not queue them twice."""
    now = timezone.now()
    rows = queue.rows().filter(scope or Q())
    lost = rows.filter(lost_q(queue))
    poisoned = lost.filter(attempts__gte=settings.TASK_MAX_ATTEMPTS)
    failed = list(poisoned.values_list("pk", flat=True))
    rows.filter(pk__in=failed).filter(lost_q(queue)).update(
        **queue.stamp(now, **queue.failed(poison_message(queue), now))
    )
    # Waiting again, and long enough that the query below queues it now.
    lost.update(**queue.stamp(now, **_waiting_values(queue, queued_at=queued_before - timedelta(seconds=1))))
    waited = Q(queued_at__lt=queued_before) | Q(queued_at__isnull=True, **{f"{queue.created_field}__lt": queued_before})
    with transaction.atomic():
        # Two sweepers at once (beat and `manage.py sweep`) share the rows out.
        requeue = list(
            rows.select_for_update(skip_locked=True)
            .filter(queue.waiting_q(), waited)
            .order_by("pk")
            .values_list("pk", flat=True)[:1000]
        )
        queue.rows().filter(pk__in=requeue).update(**queue.stamp(now, queued_at=now))
    return Swept(requeue, failed, rows.filter(live_q(queue)).count())


def requeued(queue: WorkQueue, pks: list[int]) -> None:
    """Their work was queued again by someone else (a duplicate upload of a
    waiting document): their wait restarts."""
    now = timezone.now()
    queue.rows().filter(pk__in=pks).update(**queue.stamp(now, queued_at=now))
