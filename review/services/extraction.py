"""What happens to an uploaded document first: its text extracted (ingestion),
then its pre-annotation queued (`annotation.py` runs it)."""

from ingestion.models import Document, DocumentStatus
from ingestion.services import EXTRACTION, document_step_run
from review.services import jobs


def document_extract_then_queue(*, document_id: int) -> bool:
    """Extract an uploaded document's text (ingestion), then queue its
    pre-annotation. Also when this is a redelivery after a crash between the
    extraction and the queueing: a document waiting for annotation always gets
    its (idempotent) task. Returns whether annotation was queued."""
    extracted = document_step_run(EXTRACTION, document_id, jobs.current_delivery())
    waiting = Document.objects.filter(pk=document_id, status=DocumentStatus.ANNOTATING, claimed_at__isnull=True)
    if extracted or waiting.exists():
        jobs.enqueue(jobs.ANNOTATE, document_id)
        return True
    return False
