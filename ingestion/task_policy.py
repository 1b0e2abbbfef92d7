"""Retry policy shared by every task: only transient infrastructure errors retry.

A bad file or a detection bug is recorded on the document by the service and
never retried; a dropped database connection or broker hiccup is.
"""

from django.db import InterfaceError, OperationalError

TRANSIENT_ERRORS: tuple[type[BaseException], ...] = (OperationalError, InterfaceError, ConnectionError)

TASK_OPTIONS: dict = {
    "acks_late": True,
    # A worker killed mid-task (out of memory, SIGKILL) puts the message back
    # instead of losing it; the services' claims count such deaths per document
    # and stop at TASK_MAX_ATTEMPTS (ingestion/work_queue.py).
    "reject_on_worker_lost": True,
    "autoretry_for": TRANSIENT_ERRORS,
    "retry_backoff": 2,
    "retry_backoff_max": 60,
    "max_retries": 5,
}


# --- fairness between corpora ----------------------------------------------------------

# The document tasks (review/services/jobs.py names them; ingestion sits below
# review, so the names are repeated here and a test checks that they agree).
DOCUMENT_TASKS = frozenset({"review.extract_document", "review.annotate_document"})
# Priorities 0 (first) to 9 (last). Redis keeps one list per step
# (CELERY_BROKER_TRANSPORT_OPTIONS["priority_steps"]) and a worker takes from the
# first non-empty one; the filesystem broker of the embedded stack has one list.
LOWEST_PRIORITY = 9


def document_priority(backlog: int) -> int:
    """A document's priority from how many documents of its corpus are waiting or
    running (itself included): 0 for a corpus's only one, one step lower each time
    the backlog doubles. A single document of one corpus thus goes ahead of
    another corpus's upload of 1,000 (priority 9 for most of them), two large
    uploads interleave, and within one corpus the order stays first come, first
    served."""
    return min(LOWEST_PRIORITY, max(0, backlog.bit_length() - 1))


def fair_priority(
    name: str, args: tuple, kwargs: dict, options: dict, task: object = None, **kw: object
) -> dict | None:
    """Celery router (CELERY_TASK_ROUTES): the priority of a document task, from its
    corpus's backlog at the moment it is queued. One indexed count per task."""
    if name not in DOCUMENT_TASKS or not args or options.get("priority") is not None:
        return None
    from django.db import DatabaseError
    from django.db.models import Subquery

    from ingestion.models import IN_PROGRESS_STATUSES, Document

    corpus = Document.objects.filter(pk=args[0]).values("corpus_id")[:1]
    try:
        backlog = Document.objects.filter(
            corpus_id=Subquery(corpus),
            status__in=IN_PROGRESS_STATUSES,
        ).count()
    except DatabaseError:
        return None  # queued all the same, first come first served
    # The queue too: a route without one would be sent to the default queue the
    # app had when it started, not the one configured now (a test's own queue).
    from celery import current_app

    return {"queue": current_app.conf.task_default_queue, "priority": document_priority(backlog)}
