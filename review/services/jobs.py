"""Queueing background work. Services queue tasks by name, after their
transaction commits, so that no service imports the tasks module (which imports
the services): the dependency stays one-way, tasks → services.

The database row is the truth, not the broker: a task that cannot be queued (the
broker is down) is logged and left to the sweeper (review/services/sweeper.py),
which queues again every row that waited too long. Queueing never fails the
request that asked for it."""

import logging
import uuid

from celery import current_app, current_task
from django.db import transaction

logger = logging.getLogger(__name__)

EXTRACT = "review.extract_document"
ANNOTATE = "review.annotate_document"
REANNOTATE = "review.reannotate_document"
EXPORT = "review.export_batch"
SWEEP = "review.sweep"


def enqueue_on_commit(task: str, *ids: int) -> None:
    """Once the caller's transaction commits (at once outside one), one task per id:
    a task never runs before the rows it reads are committed."""
    if not ids:
        return
    transaction.on_commit(lambda: enqueue(task, *ids))


def enqueue(task: str, *ids: int) -> bool:
    """Queue one task per id; False when the broker could not take them (the rows
    stay queued and the sweeper queues them again)."""
    for n, pk in enumerate(ids):
        try:
            current_app.signature(task, args=(pk,)).delay()
        except Exception as exc:  # kombu/redis raise many types for an unreachable broker
            if current_app.conf.task_always_eager:
                raise  # in-process: the task's own error, not the broker's
            logger.warning(
                "broker unavailable: %d %s task(s) stay queued in the database (%s: %s)",
                len(ids) - n,
                task,
                type(exc).__name__,
                exc,
            )
            return False
    return True


def current_delivery() -> str:
    """The id of the task delivery running now: a message redelivered after its
    worker died keeps its id, which is how a claim tells a dead holder from a
    live one. Outside a task (command line, tests), a fresh id."""
    request = getattr(current_task, "request", None) if current_task else None
    task_id = getattr(request, "id", None)
    return str(task_id) if task_id else uuid.uuid4().hex
