from celery import shared_task

from anonymizer_site.task_policy import TASK_OPTIONS
from pipelines.services import document_annotate, document_reannotate, export_run


@shared_task(**TASK_OPTIONS)
def annotate_document(document_id: int) -> None:
    document_annotate(document_id=document_id)


@shared_task(**TASK_OPTIONS)
def reannotate_document(run_id: int) -> None:
    document_reannotate(run_id=run_id)


@shared_task(**TASK_OPTIONS)
def export_batch(batch_id: int) -> None:
    export_run(batch_id=batch_id)
