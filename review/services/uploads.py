"""Uploads: files (zips and CSVs of many documents included) stored by
ingestion, then queued for extraction and pre-annotation."""

from datetime import timedelta
from typing import BinaryIO

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.utils import timezone

from ingestion.models import Corpus, Document
from ingestion.services import UploadResult, document_ingest, upload_ingest
from pipelines.extraction.bulk import BulkLimits, CsvOptions, UploadBudget
from review.services import jobs


def upload_budget(user: AbstractBaseUser | None = None) -> UploadBudget:
    """One per upload (every file of one form post shares it): MAX_UPLOAD_DOCUMENTS,
    less what the same user stored in the last UPLOAD_BUDGET_WINDOW_SECONDS, so
    that the cap is not passed by uploading again straight away. Counted from the
    documents themselves (every store writes one row), so no second counter can
    drift; two uploads racing in the same second may each see the other's
    documents missing, and pass the cap by at most what the later one holds."""
    window = settings.UPLOAD_BUDGET_WINDOW_SECONDS
    recent = 0
    if user is not None and user.is_authenticated and window > 0:
        since = timezone.now() - timedelta(seconds=window)
        recent = Document.objects.filter(uploaded_by=user, created_at__gte=since).count()
    return UploadBudget(settings.MAX_UPLOAD_DOCUMENTS, recent=recent, window_seconds=window)


def upload(
    *,
    corpus: Corpus,
    name: str,
    data: bytes | BinaryIO,
    user: AbstractBaseUser | None,
    csv_options: CsvOptions | None = None,
    queue: bool = True,
    limits: BulkLimits | None = None,
    budget: UploadBudget | None = None,
) -> list[UploadResult]:
    """Store one uploaded file's documents, each succeeding or failing alone, and
    queue the new ones for extraction (then pre-annotation). `queue=False` leaves
    the processing to the caller (the command line without a worker). `data` may
    be a file (an upload spooled to disk), read a piece at a time."""
    return upload_ingest(
        corpus=corpus,
        name=name,
        data=data,
        user=user,
        csv_options=csv_options,
        limits=limits,
        budget=budget,
        # Each new document is queued as soon as it is stored, not after the whole
        # upload: a request killed halfway loses none of what it stored.
        on_stored=(lambda document: jobs.enqueue_on_commit(jobs.EXTRACT, document.pk)) if queue else None,
        # A file uploaded again while it still waits for a worker (the broker was
        # down the first time) is queued again.
        on_waiting=(lambda waiting: jobs.enqueue_on_commit(jobs.EXTRACT, *waiting)) if queue else None,
    )


def ingest_document(
    *, corpus: Corpus, name: str, data: bytes | BinaryIO, user: AbstractBaseUser | None, queue: bool = True
) -> tuple[Document, bool]:
    """One file stored as one document (see ingestion.services.document_ingest),
    queued for extraction when it is new. Returns (document, created)."""
    document, created = document_ingest(corpus=corpus, name=name, data=data, user=user)
    if queue and created:
        jobs.enqueue_on_commit(jobs.EXTRACT, document.pk)
    return document, created
