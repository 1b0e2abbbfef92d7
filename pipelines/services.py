"""Django glue for the engine: annotation of a document, export of a corpus."""

import io
import logging

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.core.files.base import ContentFile
from django.db import transaction
from django.utils import timezone

from ingestion.models import Corpus, Document, DocumentStatus
from ingestion.services import document_fail
from pipelines.detection.candidate import Candidate
from pipelines.detection.pipeline import detect_text
from pipelines.export.writer import ExportDocument, LeakError, render_document, write_zip
from pipelines.models import ExportBatch, ExportStatus
from review.models import Span, SpanStatus

logger = logging.getLogger(__name__)


def document_annotate(*, document_id: int) -> bool:
    """Run the detection pipeline and store its spans as pending. Idempotent: a
    document that is no longer waiting for annotation is left alone."""
    document = Document.objects.filter(pk=document_id, status=DocumentStatus.ANNOTATING).first()
    if document is None:
        return False
    try:
        result = detect_text(document.text, settings.SPACY_MODEL)
    except Exception as exc:
        logger.exception("annotation of document %s failed", document_id)
        document_fail(document=document, message=f"Pre-annotation failed ({type(exc).__name__}).")
        return False
    with transaction.atomic():
        locked = Document.objects.select_for_update().filter(pk=document_id, status=DocumentStatus.ANNOTATING)
        if not locked.exists():
            return False
        Span.objects.bulk_create(
            [
                Span(
                    document_id=document_id,
                    start=c.start,
                    end=c.end,
                    label=c.label,
                    text=c.text,
                    sources=list(c.sources),
                    score=round(c.score, 4),
                    rule=c.rule,
                )
                for c in result.spans
            ],
            ignore_conflicts=True,
        )
        locked.update(status=DocumentStatus.READY, updated_at=timezone.now())
    return True


@transaction.atomic
def export_create(*, corpus: Corpus, user: AbstractBaseUser | None, accept_pending: bool = False) -> ExportBatch:
    from pipelines.tasks import export_batch

    batch = ExportBatch.objects.create(corpus=corpus, created_by=user, accept_pending=accept_pending)
    transaction.on_commit(lambda: export_batch.delay(batch.pk))
    return batch


def _export_documents(batch: ExportBatch) -> list[Document]:
    return list(Document.objects.filter(corpus_id=batch.corpus_id, status=DocumentStatus.READY).order_by("id"))


def _spans_for_export(document: Document, accept_pending: bool) -> ExportDocument:
    statuses = [SpanStatus.ACCEPTED, SpanStatus.PENDING] if accept_pending else [SpanStatus.ACCEPTED]
    spans = list(document.spans.filter(status__in=statuses).select_related("created_by").order_by("start"))
    return ExportDocument(
        id=document.pk,
        name=document.name,
        text=document.text,
        spans=[Candidate(s.start, s.end, s.label, s.text, tuple(s.sources), s.score, s.rule) for s in spans],
        span_meta={
            (s.start, s.end, s.label): {
                "status": s.status,
                "added_by": s.created_by.get_username() if s.created_by else None,
            }
            for s in spans
        },
    )


def export_run(*, batch_id: int) -> bool:
    """Build the zip for a batch. Idempotent: only a queued batch is run."""
    claimed = ExportBatch.objects.filter(pk=batch_id, status=ExportStatus.QUEUED).update(status=ExportStatus.RUNNING)
    if not claimed:
        return False
    batch = ExportBatch.objects.get(pk=batch_id)
    documents = _export_documents(batch)
    ExportBatch.objects.filter(pk=batch_id).update(total=len(documents))
    outputs = []
    try:
        for n, document in enumerate(documents, start=1):
            outputs.append(render_document(_spans_for_export(document, batch.accept_pending)))
            ExportBatch.objects.filter(pk=batch_id).update(done=n)
        buffer = io.BytesIO()
        write_zip(
            buffer,
            outputs,
            {
                "corpus": batch.corpus.name,
                "strategy": "placeholder",
                "accept_pending": batch.accept_pending,
                "batch": batch.pk,
            },
        )
    except LeakError as exc:
        batch.status = ExportStatus.FAILED
        batch.report = exc.report()
        batch.error_message = f"Leak check failed: {exc}. Nothing was written."
        batch.finished_at = timezone.now()
        batch.save(update_fields=["status", "report", "error_message", "finished_at"])
        return False
    except Exception as exc:
        logger.exception("export %s failed", batch_id)
        batch.status = ExportStatus.FAILED
        batch.error_message = f"Export failed ({type(exc).__name__}: {exc})."
        batch.finished_at = timezone.now()
        batch.save(update_fields=["status", "error_message", "finished_at"])
        return False
    batch.file.save(f"corpus{batch.corpus_id}_export{batch.pk}.zip", ContentFile(buffer.getvalue()), save=False)
    batch.status = ExportStatus.DONE
    batch.done = len(documents)
    batch.finished_at = timezone.now()
    batch.save(update_fields=["file", "status", "done", "finished_at"])
    return True
