from celery import shared_task

from anonymizer_site.task_policy import TASK_OPTIONS
from ingestion.models import Document, DocumentStatus
from ingestion.services import document_extract


@shared_task(**TASK_OPTIONS)
def extract_document(document_id: int) -> None:
    from pipelines.tasks import annotate_document

    extracted = document_extract(document_id=document_id)
    # Also when this is a redelivery after a crash between extraction and queueing:
    # a document waiting for annotation always gets its (idempotent) task.
    if extracted or Document.objects.filter(pk=document_id, status=DocumentStatus.ANNOTATING).exists():
        annotate_document.delay(document_id)
