"""Each run of the suite is on the stack it says it is on: `make test` runs it on
PostgreSQL + Redis and on the embedded default (SQLite + filesystem broker)."""

import pytest
from django.conf import settings
from django.db import connection

from tests.services import EMBEDDED, SERVICES, require_broker, stack


@pytest.mark.django_db
def test_the_database_is_the_stacks():
    expected = {SERVICES: "postgresql", EMBEDDED: "sqlite"}[stack()]
    assert connection.vendor == expected, f"the {stack()} stack runs on {expected}, not {connection.vendor}"
    with connection.cursor() as cursor:
        cursor.execute("select 1")
        assert cursor.fetchone() == (1,)


def test_the_broker_is_the_stacks():
    url = require_broker()
    if stack() == SERVICES:
        import redis

        assert redis.Redis.from_url(url).ping()
    else:
        folders = settings.CELERY_BROKER_TRANSPORT_OPTIONS
        assert folders["data_folder_in"] == folders["data_folder_out"]


def test_a_ci_run_declares_its_stack():
    """Under CI the stack comes from `make test` (ANONYMIZER_STACK), never from
    whatever the settings fell back to: a run that silently lands on SQLite
    instead of PostgreSQL fails here."""
    import os

    if os.environ.get("CI"):
        assert os.environ.get("ANONYMIZER_STACK") in (SERVICES, EMBEDDED), "run the suite through make test"
    assert stack() in (SERVICES, EMBEDDED)
