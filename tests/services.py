"""Which stack the suite runs on, and reaching its services.

`make test` runs the whole suite twice (see the Makefile): ANONYMIZER_STACK=services
on PostgreSQL and Redis, then ANONYMIZER_STACK=embedded on SQLite and the
filesystem broker, what `make run` gives a new user. Under CI=true a service
the stack needs and cannot reach fails the test; elsewhere it skips, so a
laptop without Redis can still run the rest."""

import os

import pytest
import redis
from django.conf import settings
from django.db import connection

SERVICES, EMBEDDED = "services", "embedded"


def stack() -> str:
    """The stack this run is meant to be on (unset: whatever the settings give)."""
    declared = os.environ.get("ANONYMIZER_STACK")
    if declared:
        return declared
    return SERVICES if connection.vendor == "postgresql" else EMBEDDED


def _missing(what: str) -> None:
    if os.environ.get("CI"):
        pytest.fail(f"{what} is required under CI=true but is not available")
    pytest.skip(f"{what} is not available")


def require_redis() -> str:
    url = settings.CELERY_BROKER_URL
    if not url.startswith("redis://"):
        _missing("Redis (CELERY_BROKER_URL=redis://…)")
    try:
        redis.Redis.from_url(url, socket_connect_timeout=2).ping()
    except redis.RedisError as exc:
        _missing(f"Redis at {url} ({exc})")
    return url


def require_broker() -> str:
    """The stack's broker: Redis on the services stack, the filesystem transport
    (folders under var/broker) on the embedded one."""
    if stack() == SERVICES:
        return require_redis()
    url = settings.CELERY_BROKER_URL
    assert url.startswith("filesystem://"), f"the embedded stack runs on the filesystem broker, not {url}"
    return url
