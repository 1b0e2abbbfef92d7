"""`make test` runs on the real services; under CI a missing one is a failure."""

import os

import pytest
from django.db import connection

from tests.services import require_redis


@pytest.mark.django_db
def test_database_is_postgresql():
    if connection.vendor != "postgresql":
        if os.environ.get("CI"):
            pytest.fail("CI must run on PostgreSQL: set DATABASE_URL (make test does)")
        pytest.skip("not on PostgreSQL")
    with connection.cursor() as cursor:
        cursor.execute("select 1")
        assert cursor.fetchone() == (1,)


def test_redis_answers():
    import redis

    assert redis.Redis.from_url(require_redis()).ping()
