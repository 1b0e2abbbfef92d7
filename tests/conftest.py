import os

import pytest
from django.contrib.auth import get_user_model

from anonymizer_site.celery import app as celery_app
from ingestion.models import Corpus
from review.models import CorpusMembership, Role

# Playwright's sync API runs an event loop in the test thread; the ORM calls the
# tests make around it are still synchronous and safe.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


def pytest_configure(config):
    """Passwords hashed with MD5 in the test process: Django's default PBKDF2 takes
    about 0.2 s a hash on the 2-core VM, once for each user a test creates and once
    for each password login, hundreds of times over a run. No test is about the
    hash's strength (the product keeps Django's default hashers); the defaults stay
    listed after it, so a stored PBKDF2 hash still checks."""
    from django.conf import global_settings, settings
    from django.contrib.auth.hashers import get_hashers, get_hashers_by_algorithm

    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher", *global_settings.PASSWORD_HASHERS]
    get_hashers.cache_clear()  # as Django's setting_changed receiver does
    get_hashers_by_algorithm.cache_clear()


DEMO_TEXT = """PRESIDING COMMISSIONER HARTWELL: Good morning. This hearing is for Marcus Delgado, CDCR number K-48213.
INMATE DELGADO: Marcus Delgado, D-E-L-G-A-D-O. I was 19 years old in 1998.
PRESIDING COMMISSIONER HARTWELL: Thank you, Mr. Delgado. Call (559) 555-0147 on March 14, 2023.
"""


@pytest.fixture(autouse=True)
def _private_storage(settings, tmp_path):
    settings.PRIVATE_STORAGE_ROOT = tmp_path / "private"


@pytest.fixture(autouse=True)
def _eager_celery():
    """Tasks run in-process by default; the worker test turns this off."""
    previous = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = True
    yield
    celery_app.conf.task_always_eager = previous


@pytest.fixture
def make_user(db):
    def make(username: str, **extra):
        return get_user_model().objects.create_user(username, f"{username}@example.org", "pw-" + username, **extra)

    return make


@pytest.fixture
def corpus(db):
    return Corpus.objects.create(name="Hearings")


@pytest.fixture
def admin_user(make_user, corpus):
    user = make_user("owner", is_staff=True)
    CorpusMembership.objects.create(corpus=corpus, user=user, role=Role.ADMIN)
    return user


@pytest.fixture
def reviewer(make_user, corpus):
    user = make_user("reviewer")
    CorpusMembership.objects.create(corpus=corpus, user=user, role=Role.REVIEWER)
    return user


@pytest.fixture
def auditor(make_user, corpus):
    user = make_user("auditor")
    CorpusMembership.objects.create(corpus=corpus, user=user, role=Role.AUDITOR)
    return user


@pytest.fixture
def stranger(make_user):
    """A reviewer of another corpus."""
    user = make_user("stranger")
    other = Corpus.objects.create(name="Other")
    CorpusMembership.objects.create(corpus=other, user=user, role=Role.REVIEWER)
    return user


@pytest.fixture
def annotated_document(corpus, admin_user, django_capture_on_commit_callbacks):
    from review.services.uploads import ingest_document

    with django_capture_on_commit_callbacks(execute=True):
        document, _ = ingest_document(corpus=corpus, name="hearing.txt", data=DEMO_TEXT.encode(), user=admin_user)
    document.refresh_from_db()
    assert document.status == "ready", document.error_message
    return document


@pytest.fixture(scope="session", autouse=True)
def _drop_stray_connections(django_db_setup, django_db_blocker):
    """Before the test database is dropped, end the sessions that the live-server
    thread or a worker subprocess may still hold on it, so the next run starts
    from a clean database instead of finding this one in use."""
    yield
    from django.db import DatabaseError, connection

    if connection.vendor != "postgresql" or not str(connection.settings_dict["NAME"]).startswith("test_"):
        return
    try:
        with django_db_blocker.unblock(), connection.cursor() as cursor:
            cursor.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                "WHERE datname = current_database() AND pid <> pg_backend_pid()"
            )
    except DatabaseError:
        pass  # nothing to clean: the database was never reached


@pytest.fixture
def worker(settings, tmp_path):
    """A real worker (solo pool) on a queue of its own (tests/worker_support.py)."""
    from tests.worker_support import running_worker

    with running_worker(settings, tmp_path) as process:
        yield process


@pytest.fixture
def prefork_worker(settings, tmp_path):
    """A worker whose tasks run in a pool process (prefork, one): killing that
    process is what an out-of-memory kill does; the worker itself survives."""
    from tests.worker_support import running_worker

    with running_worker(settings, tmp_path, pool="prefork") as process:
        yield process
