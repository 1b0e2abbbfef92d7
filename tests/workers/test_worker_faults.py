"""Issue 15, finding 4, with a real worker on each stack: its pool process is
killed with SIGKILL in the middle of a pre-annotation, as the kernel's OOM killer
does. Today the document stayed "annotating" forever (the message was acked).
Now the message comes back (acks_late, reject-on-worker-lost), the redelivery
takes the claim over, and the second death fails the document with the reason."""

import os
import signal
from pathlib import Path

import pytest

from ingestion.models import Document
from review.services.uploads import ingest_document
from tests.conftest import DEMO_TEXT
from tests.worker_support import children as _children
from tests.worker_support import wait_for

ROOT = Path(__file__).resolve().parents[2]


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
