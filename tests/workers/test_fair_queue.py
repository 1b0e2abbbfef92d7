"""Fairness between corpora: a document task's priority falls as its corpus's
backlog doubles, so one corpus's large upload does not make another corpus's
single document wait for it (shown with real workers in tests/workers/test_worker_hosts.py)."""

import uuid

import pytest

from anonymizer_site.celery import app as celery_app
from ingestion.models import Corpus, Document, DocumentStatus
from ingestion.task_policy import DOCUMENT_TASKS, LOWEST_PRIORITY, document_priority
from review.services import jobs


def test_the_router_knows_the_document_tasks_by_their_queued_names():
    assert {jobs.EXTRACT, jobs.ANNOTATE} == DOCUMENT_TASKS


@pytest.mark.parametrize(
    ("backlog", "priority"), [(0, 0), (1, 0), (2, 1), (3, 1), (4, 2), (8, 3), (100, 6), (512, 9), (1000, 9)]
)
def test_priority_falls_one_step_each_time_the_backlog_doubles(backlog, priority):
    assert document_priority(backlog) == priority
    assert 0 <= document_priority(backlog) <= LOWEST_PRIORITY


def _documents(corpus: Corpus, count: int, status: str = DocumentStatus.UPLOADED) -> list[int]:
    rows = Document.objects.bulk_create(
        [Document(corpus=corpus, name=f"{n}.txt", sha256=uuid.uuid4().hex, status=status) for n in range(count)]
    )
    return [d.pk for d in rows]


@pytest.mark.django_db
def test_a_single_document_is_routed_ahead_of_another_corpus_s_large_upload(django_assert_num_queries):
    bulk = _documents(Corpus.objects.create(name="bulk"), 1000)
    (single,) = _documents(Corpus.objects.create(name="single"), 1)
    router = celery_app.amqp.router
    with django_assert_num_queries(1):  # one count per queued task
        late = router.route({}, jobs.ANNOTATE, (bulk[-1],))
    early = router.route({}, jobs.EXTRACT, (single,))
    assert late["priority"] == LOWEST_PRIORITY and early["priority"] == 0
    assert late["queue"].name == early["queue"].name == celery_app.conf.task_default_queue


@pytest.mark.django_db
def test_finished_documents_are_no_backlog_and_other_tasks_are_not_routed():
    corpus = Corpus.objects.create(name="done")
    _documents(corpus, 50, DocumentStatus.READY)
    (waiting,) = _documents(corpus, 1)
    router = celery_app.amqp.router
    assert router.route({}, jobs.ANNOTATE, (waiting,))["priority"] == 0
    assert "priority" not in router.route({}, jobs.EXPORT, (1,))
    assert "priority" not in router.route({}, jobs.SWEEP, ())


def test_redis_keeps_one_list_per_priority():
    from django.conf import settings

    if settings.CELERY_BROKER_URL.startswith("redis://"):
        assert settings.CELERY_BROKER_TRANSPORT_OPTIONS["priority_steps"] == list(range(LOWEST_PRIORITY + 1))
    assert settings.CELERY_TASK_ROUTES == ("ingestion.task_policy.fair_priority",)
