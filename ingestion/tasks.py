from celery import shared_task

from ingestion.services import document_extract


@shared_task(acks_late=True)
def extract_document(document_id: int) -> None:
    if document_extract(document_id=document_id):
        from pipelines.tasks import annotate_document

        annotate_document.delay(document_id)
