"""A real Celery worker process, on each stack (PostgreSQL + Redis, SQLite + the
filesystem broker): ingest → spans → export."""

import io
import zipfile
from pathlib import Path

import pytest

from anonymizer_site.celery import app as celery_app
from ingestion.models import Document
from review.models import ExportBatch
from review.services.export import ExportOptions, export_create
from review.services.uploads import ingest_document
from tests.conftest import DEMO_TEXT
from tests.worker_support import wait_for

ROOT = Path(__file__).resolve().parents[2]


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
