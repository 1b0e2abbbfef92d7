"""The sweeper: nothing stays queued or running forever.

Run every SWEEP_INTERVAL_SECONDS by Celery beat (task `review.sweep`, in
review/tasks.py) and by `manage.py sweep`. The database row is the truth, not the
broker. The rules are the one work queue's (ingestion/work_queue.py): a row whose
worker fell silent for WORKER_LOST_AFTER seconds is taken back and queued again,
or failed once it took TASK_MAX_ATTEMPTS workers with it; a row that waited
QUEUED_TIMEOUT_MINUTES for a worker (its message lost to a broker outage) is
queued again. Each table is written by its own service; this module only asks
them and queues."""

import logging
from dataclasses import asdict, dataclass
from datetime import timedelta

from django.conf import settings
from django.utils import timezone

from ingestion.services import documents_sweep
from review.services import jobs
from review.services.annotation import pre_annotation_runs_swept, runs_sweep
from review.services.corpus_models import TRAIN_TASK, corpus_models_sweep
from review.services.export import batches_sweep

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class SweepReport:
    extract: int
    annotate: int
    reannotate: int
    export: int
    train: int
    failed_documents: int
    failed_runs: int  # re-annotations, exports and training runs
    live: int  # held by workers heard from within WORKER_LOST_AFTER: left to them
    queued: bool

    def to_dict(self) -> dict:
        return asdict(self)

    def summary(self) -> str:
        """What a person running `manage.py sweep` reads."""
        requeued = self.extract + self.annotate + self.reannotate + self.export + self.train
        parts = [f"{requeued} queued again" + ("" if self.queued else " in the database (the broker is down)")]
        parts.append(f"{self.failed_documents + self.failed_runs} failed at TASK_MAX_ATTEMPTS")
        if self.live:
            parts.append(
                f"{self.live} held by a live worker (heard from within WORKER_LOST_AFTER="
                f"{settings.WORKER_LOST_AFTER} s): left to it"
            )
        return "; ".join(parts) + "."


def sweep() -> SweepReport:
    queued_before = timezone.now() - timedelta(minutes=settings.QUEUED_TIMEOUT_MINUTES)
    documents = documents_sweep(queued_before=queued_before)
    pre_annotation_runs_swept(failed=documents.failed_annotation, requeued=documents.annotate)
    runs = runs_sweep(queued_before=queued_before)
    batches = batches_sweep(queued_before=queued_before)
    training = corpus_models_sweep(queued_before=queued_before)
    # If the broker is still down these stay queued in the database, and the
    # next sweep tries again.
    queued = all(
        [
            jobs.enqueue(jobs.EXTRACT, *documents.extract),
            jobs.enqueue(jobs.ANNOTATE, *documents.annotate),
            jobs.enqueue(jobs.REANNOTATE, *runs.requeue),
            jobs.enqueue(jobs.EXPORT, *batches.requeue),
            jobs.enqueue(TRAIN_TASK, *training.requeue),
        ]
    )
    report = SweepReport(
        extract=len(documents.extract),
        annotate=len(documents.annotate),
        reannotate=len(runs.requeue),
        export=len(batches.requeue),
        train=len(training.requeue),
        failed_documents=len(documents.failed),
        failed_runs=len(runs.failed) + len(batches.failed) + len(training.failed),
        live=documents.live + runs.live + batches.live + training.live,
        queued=queued,
    )
    if any(value for key, value in report.to_dict().items() if key not in ("live", "queued")):
        logger.warning("sweeper: %s", report.to_dict())
    return report
