"""Issue 15, findings 4 and 5: work is never stuck.

4. A worker killed mid-task (out of memory, SIGKILL) left its document
   "annotating" forever, and re-annotation was refused. Now a claim records the
   task delivery: the same message redelivered (acks_late, reject-on-worker-lost)
   takes over, each claim counts an attempt, and a document that killed its
   worker TASK_MAX_ATTEMPTS (2) times fails with "the worker ran out of memory on
   this file". A sweeper re-queues what waited or ran too long.
5. A broker outage: an upload was committed but never queued (and its retry
   refused as a duplicate); an export returned a 500 and stayed "queued" forever.
   Now queueing never fails a request, the row is the truth, and the sweeper
   queues the rows again when the broker is back."""

import datetime as dt

import pytest
from django.contrib.messages import get_messages
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import timezone

from anonymizer_site.celery import app as celery_app
from ingestion.models import Document
from ingestion.services import EXTRACTION, document_step_run
from review.models import AnnotationRun, ExportBatch, RunKind
from review.services import jobs
from review.services.annotation import ReannotateError, document_annotate, document_reannotate_request
from review.services.sweeper import sweep
from review.services.uploads import ingest_document
from tests.conftest import DEMO_TEXT

WORKER_DIED = "the worker ran out of memory on this file"


class WorkerKilled(BaseException):
    """What a SIGKILL looks like from inside: nothing after it runs."""


@pytest.fixture
def waiting_for_annotation(corpus, admin_user):
    document, _ = ingest_document(corpus=corpus, name="h.txt", data=DEMO_TEXT.encode(), user=admin_user, queue=False)
    assert document_step_run(EXTRACTION, document.pk)
    document.refresh_from_db()
    assert document.status == "annotating" and document.claimed_at is None
    return document


def _kill_the_worker(monkeypatch):
    def killed(*args, **kwargs):
        raise WorkerKilled

    monkeypatch.setattr("review.services.annotation.detect_text", killed)


@pytest.mark.django_db
def test_a_document_that_killed_its_worker_twice_fails_with_the_reason(waiting_for_annotation, monkeypatch):
    document = waiting_for_annotation
    _kill_the_worker(monkeypatch)
    with pytest.raises(WorkerKilled):
        document_annotate(document_id=document.pk, delivery="message-1")
    document.refresh_from_db()
    assert (document.status, document.claimed_by, document.attempts) == ("annotating", "message-1", 1)
    # Another copy of the message while the first worker may still be alive: left alone.
    assert document_annotate(document_id=document.pk, delivery="message-2") is False
    # The same message, redelivered after its worker died: taken over at once.
    with pytest.raises(WorkerKilled):
        document_annotate(document_id=document.pk, delivery="message-1")
    document.refresh_from_db()
    assert document.attempts == 2
    # Its third delivery does not kill a third worker.
    assert document_annotate(document_id=document.pk, delivery="message-1") is False
    document.refresh_from_db()
    assert document.status == "failed"
    assert document.error_message == f"Pre-annotation failed: {WORKER_DIED} (it stopped the worker 2 times)."
    run = AnnotationRun.objects.get(document=document, kind=RunKind.ANNOTATE)
    assert run.status == "failed" and WORKER_DIED in run.message


@pytest.mark.django_db
def test_a_redelivery_after_one_death_finishes_the_work(waiting_for_annotation, monkeypatch):
    document = waiting_for_annotation
    with monkeypatch.context() as patch:
        _kill_the_worker(patch)
        with pytest.raises(WorkerKilled):
            document_annotate(document_id=document.pk, delivery="message-1")
    assert document_annotate(document_id=document.pk, delivery="message-1") is True
    document.refresh_from_db()
    assert (document.status, document.claimed_at, document.attempts) == ("ready", None, 0)
    assert document.spans.exists()


@pytest.mark.django_db
def test_a_stuck_document_can_be_asked_for_again(
    waiting_for_annotation, admin_user, monkeypatch, django_capture_on_commit_callbacks, settings
):
    """Today: "annotating" forever, and the admin's re-annotation was refused."""
    document = waiting_for_annotation
    _kill_the_worker(monkeypatch)
    with pytest.raises(WorkerKilled):
        document_annotate(document_id=document.pk, delivery="message-1")
    queued = []
    monkeypatch.setattr(jobs, "enqueue", lambda task, *ids: queued.append((task, ids)) or True)
    document.refresh_from_db()
    # Its worker was heard from just now: nothing is queued, and the admin is told why.
    with pytest.raises(ReannotateError, match=r"heard from \d+ s ago: nothing was queued.*WORKER_LOST_AFTER"):
        document_reannotate_request(document=document, user=admin_user)
    assert queued == []
    # Silent for WORKER_LOST_AFTER: its worker is lost, and asking again takes it back at once.
    lost = timezone.now() - dt.timedelta(seconds=settings.WORKER_LOST_AFTER + 1)
    Document.objects.filter(pk=document.pk).update(heartbeat_at=lost)
    with django_capture_on_commit_callbacks(execute=True):
        assert document_reannotate_request(document=document, user=admin_user) is None
    assert queued == [(jobs.ANNOTATE, (document.pk,))]
    document.refresh_from_db()
    assert (document.status, document.claimed_at, document.claimed_by) == ("annotating", None, "")
    assert AnnotationRun.objects.get(document=document, kind=RunKind.ANNOTATE).status == "queued"
    # The queued message takes it (a second attempt) and finishes the work.
    monkeypatch.undo()
    assert document_annotate(document_id=document.pk, delivery="message-2") is True
    document.refresh_from_db()
    assert document.status == "ready"


def _old(minutes: int = 0, seconds: int = 0) -> dt.datetime:
    return timezone.now() - dt.timedelta(minutes=minutes, seconds=seconds)


@pytest.mark.django_db
def test_the_sweeper_requeues_what_waited_or_ran_too_long_and_fails_what_killed_twice(
    corpus, admin_user, settings, monkeypatch
):
    queued: list[tuple[str, tuple[int, ...]]] = []
    monkeypatch.setattr(jobs, "enqueue", lambda task, *ids: queued.append((task, ids)) or True)
    dead = settings.CELERY_TASK_TIME_LIMIT + 120

    def document(name: str, **fields) -> Document:
        made, _ = ingest_document(corpus=corpus, name=name, data=name.encode() * 3, user=admin_user, queue=False)
        Document.objects.filter(pk=made.pk).update(**fields)
        return made

    lost = document("lost.txt", queued_at=_old(minutes=settings.QUEUED_TIMEOUT_MINUTES + 1))
    fresh = document("fresh.txt", queued_at=_old(minutes=1))
    orphan = document("orphan.txt", status="extracting", claimed_at=_old(seconds=dead), attempts=1)
    poison = document(
        "poison.txt", status="annotating", text="x", claimed_at=_old(seconds=dead), attempts=settings.TASK_MAX_ATTEMPTS
    )
    alive = document("alive.txt", status="annotating", text="x", claimed_at=_old(minutes=1), attempts=1)
    batch = ExportBatch.objects.create(corpus=corpus, queued_at=_old(minutes=settings.QUEUED_TIMEOUT_MINUTES + 1))
    stuck = ExportBatch.objects.create(corpus=corpus, status="running", started_at=_old(seconds=dead), attempts=2)

    report = sweep()

    assert dict(queued)[jobs.EXTRACT] == tuple(sorted([lost.pk, orphan.pk]))
    assert dict(queued)[jobs.EXPORT] == (batch.pk,)
    assert report.failed_documents == 1 and report.queued
    states = dict(Document.objects.values_list("name", "status"))
    assert states == {
        "lost.txt": "uploaded",
        "fresh.txt": "uploaded",
        "orphan.txt": "uploaded",
        "poison.txt": "failed",
        "alive.txt": "annotating",
    }
    assert WORKER_DIED in Document.objects.get(pk=poison.pk).error_message
    assert fresh.pk not in dict(queued)[jobs.EXTRACT] and alive.pk not in dict(queued).get(jobs.ANNOTATE, ())
    stuck.refresh_from_db()
    assert stuck.status == "failed" and WORKER_DIED in stuck.error_message
    # Requeued rows wait again from now: the next sweep does not queue them twice.
    queued.clear()
    sweep()
    assert not any(ids for _, ids in queued), queued


def test_beat_runs_the_sweeper():
    from django.conf import settings

    assert settings.CELERY_BEAT_SCHEDULE["sweep"]["task"] == jobs.SWEEP == "review.sweep"
    assert "review.sweep" in celery_app.tasks
    assert celery_app.conf.task_reject_on_worker_lost is True


def test_every_task_rejects_on_worker_lost_and_acks_late():
    from review.tasks import annotate_document, export_batch, extract_document, reannotate_document

    for task in (extract_document, annotate_document, reannotate_document, export_batch):
        assert task.acks_late and task.reject_on_worker_lost


# --- 5. the broker is down ----------------------------------------------------------------

DEAD_BROKER = "redis://127.0.0.1:1/0"
EXPORT_FORM = {
    "scope": "all",
    "strategy": "placeholder",
    "person_numbering": "part",
    "consistency": "document",
    "include_index": "on",
}


@pytest.fixture
def broker_down():
    """The app publishes to a broker nobody listens on (connection refused), as
    during an outage; both stacks, since what is tested is the app's handling."""
    conf = celery_app.conf
    previous = (conf.task_always_eager, conf.broker_url, conf.broker_transport_options)
    conf.task_always_eager = False
    conf.broker_url = DEAD_BROKER
    conf.broker_transport_options = {"socket_connect_timeout": 1}
    celery_app._pool = None
    celery_app.amqp._producer_pool = None
    yield
    conf.task_always_eager, conf.broker_url, conf.broker_transport_options = previous
    celery_app._pool = None
    celery_app.amqp._producer_pool = None


@pytest.mark.django_db(transaction=True)
def test_an_upload_and_an_export_during_a_broker_outage_lose_nothing(client, corpus, admin_user, broker_down, settings):
    client.force_login(admin_user)
    url = reverse("document_upload", args=[corpus.pk])
    response = client.post(url, {"files": [SimpleUploadedFile("h.txt", DEMO_TEXT.encode())]})
    assert response.status_code == 302  # no 500
    document = Document.objects.get()
    assert document.status == "uploaded" and document.waiting_for_worker
    page = client.get(reverse("corpus_detail", args=[corpus.pk])).content.decode()
    assert "Queued, waiting for a worker" in page
    # Uploading it again is no dead end: it is queued again (still failing here).
    response = client.post(url, {"files": [SimpleUploadedFile("h.txt", DEMO_TEXT.encode())]})
    assert response.status_code == 302
    assert any("already in this corpus" in str(m) for m in get_messages(response.wsgi_request))
    Document.objects.update(status="approved")
    response = client.post(reverse("export_start", args=[corpus.pk]), EXPORT_FORM)
    assert response.status_code == 302  # no 500
    batch = ExportBatch.objects.get()
    assert batch.status == "queued"
    assert "Queued, waiting for a worker" in client.get(reverse("export_list", args=[corpus.pk])).content.decode()


@pytest.mark.django_db
def test_when_the_broker_is_back_the_sweeper_queues_the_waiting_rows(corpus, admin_user, monkeypatch, settings):
    calls = []

    def outage(task, *ids):
        calls.append(ids)
        return False

    with monkeypatch.context() as patch:
        patch.setattr(jobs, "enqueue", outage)
        document, _ = ingest_document(corpus=corpus, name="h.txt", data=DEMO_TEXT.encode(), user=admin_user)
    Document.objects.filter(pk=document.pk).update(queued_at=_old(minutes=settings.QUEUED_TIMEOUT_MINUTES + 1))
    # The broker is back (tasks run in-process here): one sweep takes it to the end.
    sweep()
    document.refresh_from_db()
    assert document.status == "ready", document.error_message
    assert document.spans.exists()
