"""A real Celery worker process, on each stack (PostgreSQL + Redis, SQLite + the
filesystem broker): ingest → spans → export."""

import io
import os
import subprocess
import sys
import time
import uuid
import zipfile
from pathlib import Path

import pytest
from django.db import connection

from anonymizer_site.celery import app as celery_app
from ingestion.models import Document
from review.models import ExportBatch
from review.services.export import ExportOptions, export_create
from review.services.uploads import ingest_document
from tests.conftest import DEMO_TEXT
from tests.services import require_broker

ROOT = Path(__file__).resolve().parents[2]


def wait_for(predicate, timeout: float = 120.0, what: str = "condition"):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.3)
    raise AssertionError(f"timed out waiting for {what}")


@pytest.fixture
def worker(settings, tmp_path):
    """A worker process on a queue of its own, sharing the test database, the
    broker and private storage: PostgreSQL + Redis, or the embedded default's
    SQLite file + filesystem broker (tests/services.py)."""
    broker = require_broker()
    queue = f"test-{uuid.uuid4().hex[:8]}"
    db = connection.settings_dict
    if connection.vendor == "postgresql":
        database_url = f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}"
    else:
        assert db["NAME"] and "memory" not in str(db["NAME"]), "the embedded test database must be a file"
        database_url = f"sqlite:///{Path(db['NAME']).resolve()}"
    env = {
        **os.environ,
        "DATABASE_URL": database_url,
        "CELERY_BROKER_URL": broker,
        "CELERY_QUEUE": queue,
        "PRIVATE_STORAGE_ROOT": str(settings.PRIVATE_STORAGE_ROOT),
    }
    log = open(tmp_path / "worker.log", "w+")  # noqa: SIM115
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "anonymizer_site",
            "worker",
            "--pool=solo",
            "--loglevel=info",
            "--without-gossip",
            "--without-mingle",
        ],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    previous = (celery_app.conf.task_always_eager, celery_app.conf.task_default_queue, celery_app.conf.broker_url)
    celery_app.conf.task_always_eager = False
    celery_app.conf.task_default_queue = queue
    try:
        yield process
    finally:
        celery_app.conf.task_always_eager, celery_app.conf.task_default_queue, _ = previous
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
        log.seek(0)
        print(log.read()[-3000:])
        log.close()


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_real_worker_annotates_and_exports(worker, corpus, admin_user):
    document, created = ingest_document(corpus=corpus, name="hearing.txt", data=DEMO_TEXT.encode(), user=admin_user)
    assert created
    wait_for(lambda: Document.objects.get(pk=document.pk).status in ("ready", "failed"), what="annotation")
    document.refresh_from_db()
    assert document.status == "ready", document.error_message
    assert document.spans.filter(label="PERSON", text="Marcus Delgado").exists()
    assert document.spans.filter(label="ID", text="K-48213").exists()

    document.spans.update(status="accepted")
    batch = export_create(corpus=corpus, user=admin_user, options=ExportOptions(scope="all"))
    wait_for(lambda: ExportBatch.objects.get(pk=batch.pk).status in ("done", "failed"), what="export")
    batch.refresh_from_db()
    assert batch.status == "done", (batch.error_message, batch.report)
    with batch.file.open("rb") as handle:
        archive = zipfile.ZipFile(io.BytesIO(handle.read()))
    redacted = archive.read(next(n for n in archive.namelist() if n.startswith("redacted/"))).decode()
    assert "Delgado" not in redacted and "K-48213" not in redacted
    assert "INMATE [PERSON_" in redacted and "[ID_1]" in redacted


def test_tasks_retry_only_transient_errors():
    from django.db import OperationalError

    from review.tasks import annotate_document, export_batch, extract_document

    for task in (extract_document, annotate_document, export_batch):
        assert task.acks_late
        assert OperationalError in task.autoretry_for
        assert ValueError not in task.autoretry_for


def test_every_queued_name_is_a_registered_task():
    """Services queue tasks by name (review/services/jobs.py): an unregistered name
    is not an error to Celery, it quietly goes to the broker and is discarded by the
    worker. Names of the previous release still run (messages queued before an upgrade)."""
    from review.services import jobs
    from review.tasks import PREVIOUS_NAMES

    names = {value for key, value in vars(jobs).items() if key.isupper() and isinstance(value, str)}
    assert names >= {jobs.EXTRACT, jobs.ANNOTATE, jobs.REANNOTATE, jobs.EXPORT}
    assert not names - set(celery_app.tasks), names - set(celery_app.tasks)
    assert not set(PREVIOUS_NAMES) - set(celery_app.tasks)
