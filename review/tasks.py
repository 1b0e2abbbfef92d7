"""Celery tasks: each takes an id, calls one service, and is idempotent (the
services claim their work with a conditional UPDATE). Named explicitly, because
services queue them by name (review/services/jobs.py)."""

from celery import shared_task

from anonymizer_site.task_policy import TASK_OPTIONS
from review.services import jobs
from review.services.annotation import document_annotate, document_extract_then_queue, document_reannotate
from review.services.export import export_run


@shared_task(name=jobs.EXTRACT, **TASK_OPTIONS)
def extract_document(document_id: int) -> None:
    document_extract_then_queue(document_id=document_id)


@shared_task(name=jobs.ANNOTATE, **TASK_OPTIONS)
def annotate_document(document_id: int) -> None:
    document_annotate(document_id=document_id)


@shared_task(name=jobs.REANNOTATE, **TASK_OPTIONS)
def reannotate_document(run_id: int) -> None:
    document_reannotate(run_id=run_id)


@shared_task(name=jobs.EXPORT, **TASK_OPTIONS)
def export_batch(batch_id: int) -> None:
    export_run(batch_id=batch_id)
