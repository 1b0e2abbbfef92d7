"""Uploads: files (zips and CSVs of many documents included) stored by
ingestion, then queued for extraction and pre-annotation."""

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser

from ingestion.models import Corpus, Document
from ingestion.services import UploadResult, document_ingest, upload_ingest
from pipelines.extraction.bulk import BulkLimits, CsvOptions
from review.services import jobs


def upload(
    *,
    corpus: Corpus,
    name: str,
    data: bytes,
    user: AbstractBaseUser | None,
    csv_options: CsvOptions | None = None,
    queue: bool = True,
    limits: BulkLimits | None = None,
) -> list[UploadResult]:
    """Store one uploaded file's documents, each succeeding or failing alone, and
    queue the new ones for extraction (then pre-annotation). `queue=False` leaves
    the processing to the caller (the command line without a worker)."""
    results = upload_ingest(
        corpus=corpus,
        name=name,
        data=data,
        user=user,
        csv_options=csv_options,
        limits=limits or BulkLimits.for_file_limit(settings.MAX_UPLOAD_BYTES),
    )
    if queue:
        jobs.enqueue_on_commit(jobs.EXTRACT, *(r.document.pk for r in results if r.document is not None and r.created))
    return results


def ingest_document(
    *, corpus: Corpus, name: str, data: bytes, user: AbstractBaseUser | None, queue: bool = True
) -> tuple[Document, bool]:
    """One file stored as one document (see ingestion.services.document_ingest),
    queued for extraction when it is new. Returns (document, created)."""
    document, created = document_ingest(corpus=corpus, name=name, data=data, user=user)
    if queue and created:
        jobs.enqueue_on_commit(jobs.EXTRACT, document.pk)
    return document, created
