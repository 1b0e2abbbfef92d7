"""Retry policy shared by every task: only transient infrastructure errors retry.

A bad file or a detection bug is recorded on the document by the service and
never retried; a dropped database connection or broker hiccup is.
"""

from django.db import InterfaceError, OperationalError

TRANSIENT_ERRORS: tuple[type[BaseException], ...] = (OperationalError, InterfaceError, ConnectionError)

TASK_OPTIONS: dict = {
    "acks_late": True,
    "autoretry_for": TRANSIENT_ERRORS,
    "retry_backoff": 2,
    "retry_backoff_max": 60,
    "max_retries": 5,
}
