"""Queueing background work. Services queue tasks by name, after their
transaction commits, so that no service imports the tasks module (which imports
the services): the dependency stays one-way, tasks → services."""

from celery import current_app
from django.db import transaction

EXTRACT = "review.extract_document"
ANNOTATE = "review.annotate_document"
REANNOTATE = "review.reannotate_document"
EXPORT = "review.export_batch"


def enqueue_on_commit(task: str, *ids: int) -> None:
    """Once the caller's transaction commits (at once outside one), one task per id:
    a task never runs before the rows it reads are committed."""
    if not ids:
        return
    transaction.on_commit(lambda: enqueue(task, *ids))


def enqueue(task: str, *ids: int) -> None:
    for pk in ids:
        current_app.signature(task, args=(pk,)).delay()
