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
