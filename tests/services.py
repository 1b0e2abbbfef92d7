"""Reaching the real services. Under CI=true a missing service fails the test;
elsewhere it skips, so a laptop without Redis can still run the rest."""

import os

import pytest
import redis
from django.conf import settings


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
