"""The sweeper: nothing stays queued or running forever.

Run every SWEEP_INTERVAL_SECONDS by Celery beat (task `review.sweep`) and by
`manage.py sweep`. The database row is the truth, not the broker: a document,
re-annotation or export batch that has waited QUEUED_TIMEOUT_MINUTES for a
worker (its message was lost to a broker outage, or to a worker killed with the
filesystem broker's message in hand) is queued again; one claimed by a worker
for longer than the task's hard time limit belongs to a dead worker and is
queued again, or failed once it killed TASK_MAX_ATTEMPTS workers. Each table is
written by its own service; this module only asks them and queues."""

import logging
from dataclasses import asdict, dataclass
from datetime import timedelta

from django.conf import settings
from django.utils import timezone

from ingestion.services import documents_sweep
from review.services import jobs
from review.services.annotation import runs_sweep
from review.services.export import batches_sweep

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class SweepReport:
    extract: int
    annotate: int
    reannotate: int
    export: int
    failed_documents: int
    queued: bool

    def to_dict(self) -> dict:
        return asdict(self)


def sweep() -> SweepReport:
    queued_before = timezone.now() - timedelta(minutes=settings.QUEUED_TIMEOUT_MINUTES)
    documents = documents_sweep(queued_before=queued_before)
    runs = runs_sweep(queued_before=queued_before)
    batches = batches_sweep(queued_before=queued_before)
    # If the broker is still down these stay queued in the database, and the
    # next sweep tries again.
    queued = all(
        [
            jobs.enqueue(jobs.EXTRACT, *documents.extract),
            jobs.enqueue(jobs.ANNOTATE, *documents.annotate),
            jobs.enqueue(jobs.REANNOTATE, *runs),
            jobs.enqueue(jobs.EXPORT, *batches),
        ]
    )
    report = SweepReport(
        len(documents.extract), len(documents.annotate), len(runs), len(batches), documents.failed, queued
    )
    if any((report.extract, report.annotate, report.reannotate, report.export, report.failed_documents)):
        logger.warning("sweeper: %s", report.to_dict())
    return report
