from celery import shared_task

from anonymizer_site.task_policy import TASK_OPTIONS
from ingestion.services import document_extract


@shared_task(**TASK_OPTIONS)
def extract_document(document_id: int) -> None:
    if document_extract(document_id=document_id):
        from pipelines.tasks import annotate_document

        annotate_document.delay(document_id)
