"""Celery tasks: each takes an id, calls one service, and is idempotent (the
services claim their work with a conditional UPDATE). Named explicitly, because
services queue them by name (review/services/jobs.py).

The services are imported inside the tasks: this module is imported by every
process at start (review/apps.py registers the tasks), and the web server and
the command line should not pay for the engine's models and recognizers before
they need them."""

from celery import shared_task

from ingestion.task_policy import TASK_OPTIONS
from review.services import jobs


@shared_task(name=jobs.EXTRACT, **TASK_OPTIONS)
def extract_document(document_id: int) -> None:
    from review.services.extraction import document_extract_then_queue

    document_extract_then_queue(document_id=document_id)


@shared_task(name=jobs.ANNOTATE, **TASK_OPTIONS)
def annotate_document(document_id: int) -> None:
    from review.services.annotation import document_annotate

    document_annotate(document_id=document_id)


@shared_task(name=jobs.REANNOTATE, **TASK_OPTIONS)
def reannotate_document(run_id: int) -> None:
    from review.services.annotation import document_reannotate

    document_reannotate(run_id=run_id)


@shared_task(name=jobs.EXPORT, **TASK_OPTIONS)
def export_batch(batch_id: int) -> None:
    from review.services.export import export_run

    export_run(batch_id=batch_id)


@shared_task(name="review.train_corpus_model", **TASK_OPTIONS)
def train_corpus_model(version_id: int) -> None:
    # The name is review.services.corpus_models.TRAIN_TASK (a test checks they agree).
    from review.services.corpus_training import corpus_model_train

    corpus_model_train(version_id=version_id)


@shared_task(name=jobs.SWEEP, acks_late=True, ignore_result=True)
def sweep() -> None:
    # The one sweeper (review/services/sweeper.py over ingestion/work_queue.py),
    # run by beat every SWEEP_INTERVAL_SECONDS (CELERY_BEAT_SCHEDULE). It takes no
    # id; it is idempotent (every row it takes back is one conditional UPDATE).
    from review.services.sweeper import sweep as run

    run()


# The names these tasks had before the engine lost its Django app. Messages queued
# by the previous release (a broker's backlog at an upgrade, the embedded broker's
# folder) still run, instead of being discarded as unregistered. Remove after the
# next release.
PREVIOUS_NAMES = {
    "ingestion.tasks.extract_document": extract_document,
    "pipelines.tasks.annotate_document": annotate_document,
    "pipelines.tasks.reannotate_document": reannotate_document,
    "pipelines.tasks.export_batch": export_batch,
}
for _old_name, _task in PREVIOUS_NAMES.items():
    shared_task(name=_old_name, **TASK_OPTIONS)(_task.run)
