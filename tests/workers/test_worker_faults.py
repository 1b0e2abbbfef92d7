"""Issue 15, finding 4, with a real worker on each stack: its pool process is
killed with SIGKILL in the middle of a pre-annotation, as the kernel's OOM killer
does. Today the document stayed "annotating" forever (the message was acked).
Now the message comes back (acks_late, reject-on-worker-lost), the redelivery
takes the claim over, and the second death fails the document with the reason."""

import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
from django.db import connection

from anonymizer_site.celery import app as celery_app
from ingestion.models import Document
from review.services.uploads import ingest_document
from tests.conftest import DEMO_TEXT
from tests.services import require_broker

ROOT = Path(__file__).resolve().parents[2]


def wait_for(predicate, timeout: float = 180.0, what: str = "condition"):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")


def _children(pid: int) -> list[int]:
    # Any thread of the worker may have forked the pool process: read them all.
    found = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            found += [int(child) for child in (task / "children").read_text().split()]
        except OSError:
            continue  # the thread ended meanwhile
    return found


@pytest.fixture
def prefork_worker(settings, tmp_path):
    """A worker whose tasks run in a pool process (prefork, one): killing that
    process is what an out-of-memory kill does; the worker itself survives."""
    broker = require_broker()
    queue = f"test-{uuid.uuid4().hex[:8]}"
    db = connection.settings_dict
    if connection.vendor == "postgresql":
        database_url = f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}"
    else:
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
            "--pool=prefork",
            "--concurrency=1",
            "--loglevel=info",
            "--without-gossip",
            "--without-mingle",
        ],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    previous = (celery_app.conf.task_always_eager, celery_app.conf.task_default_queue)
    celery_app.conf.task_always_eager = False
    celery_app.conf.task_default_queue = queue
    try:
        yield process
    finally:
        celery_app.conf.task_always_eager, celery_app.conf.task_default_queue = previous
        process.terminate()
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
        log.seek(0)
        print(log.read()[-4000:])
        log.close()


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_a_pool_process_killed_twice_fails_the_document_with_the_reason(prefork_worker, corpus, admin_user):
    document, _ = ingest_document(corpus=corpus, name="h.txt", data=(DEMO_TEXT * 200).encode(), user=admin_user)

    def claimed(attempt: int):
        row = Document.objects.filter(pk=document.pk).values("status", "claimed_at", "attempts").get()
        if row["status"] == "failed":
            raise AssertionError(f"failed early: {Document.objects.get(pk=document.pk).error_message}")
        return row["status"] == "annotating" and row["claimed_at"] is not None and row["attempts"] == attempt

    for attempt in (1, 2):
        wait_for(lambda attempt=attempt: claimed(attempt), what=f"annotation claim {attempt}")
        (child,) = wait_for(lambda: _children(prefork_worker.pid), what="the pool process")
        os.kill(child, signal.SIGKILL)
    wait_for(lambda: Document.objects.get(pk=document.pk).status == "failed", what="the poison limit")
    document.refresh_from_db()
    assert document.error_message == (
        "Pre-annotation failed: the worker ran out of memory on this file (it stopped the worker 2 times)."
    )
    assert prefork_worker.poll() is None  # the worker itself is alive and goes on
