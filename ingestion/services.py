"""The one writer of Corpus and Document rows: storing uploads, extracting their
text, and every change of a document's status or span revision (the review app
asks for those through the functions at the end of this module).

Nothing here queues work: the caller (review.services.uploads, the command line)
decides when a stored document is extracted and annotated."""

import hashlib
import logging
import uuid
from dataclasses import dataclass
from datetime import timedelta
from pathlib import PurePath

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.core.files.base import ContentFile
from django.db import IntegrityError, transaction
from django.db.models import Case, F, Q, Value, When
from django.utils import timezone

from ingestion.models import Corpus, Document, DocumentStatus
from ingestion.task_policy import TRANSIENT_ERRORS
from pipelines.extraction.bulk import BulkLimits, CsvOptions, expand_upload
from pipelines.extraction.extract import SUPPORTED_EXTENSIONS, extract
from pipelines.extraction.text import ExtractionError

logger = logging.getLogger(__name__)


class IngestError(Exception):
    """A file refused at upload; the message is shown to the user as is."""


def corpus_create(
    *, name: str, user: AbstractBaseUser | None, description: str = "", require_second_review: bool = False
) -> Corpus:
    """The corpus row alone; review.services.corpora.corpus_create also makes its
    creator the corpus admin."""
    return Corpus.objects.create(
        name=name.strip(), description=description, created_by=user, require_second_review=require_second_review
    )


def _validate_upload(name: str, data: bytes) -> None:
    if PurePath(name).suffix.lower() not in SUPPORTED_EXTENSIONS:
        raise IngestError(
            f"{name}: unsupported file type; use one of {', '.join(SUPPORTED_EXTENSIONS)} (or a .zip or .csv of them)."
        )
    if not data:
        raise IngestError(f"{name}: the file is empty.")
    if len(data) > settings.MAX_UPLOAD_BYTES:
        raise IngestError(f"{name}: the file is larger than the limit of {_size(settings.MAX_UPLOAD_BYTES)}.")


def _size(n: int) -> str:
    return f"{n / (1024 * 1024):.0f} MB" if n >= 1024 * 1024 else f"{n:,} bytes"


def document_ingest(*, corpus: Corpus, name: str, data: bytes, user: AbstractBaseUser | None) -> tuple[Document, bool]:
    """Store the original privately. Returns (document, created); a file already in
    the corpus (same sha256) is not stored twice."""
    _validate_upload(name, data)
    digest = hashlib.sha256(data).hexdigest()
    existing = Document.objects.filter(corpus=corpus, sha256=digest).first()
    if existing is not None:
        return existing, False
    try:
        with transaction.atomic():
            document = Document(
                corpus=corpus, name=PurePath(name).name[:255], sha256=digest, size=len(data), uploaded_by=user
            )
            # Stored under a generated name: upload names often hold a person's name,
            # and some are too long for the file system. The name is kept on the row.
            document.original.save(
                f"{uuid.uuid4().hex}{PurePath(name).suffix.lower()[:10]}", ContentFile(data), save=False
            )
            document.save()
    except IntegrityError:
        # Lost a race with an identical upload: theirs is the document.
        return Document.objects.get(corpus=corpus, sha256=digest), False
    return document, True


def document_extract(*, document_id: int) -> bool:
    """Extract the text of an uploaded document. Idempotent: returns False when the
    document is not waiting for extraction (already done, or claimed elsewhere).

    A claim older than the task's hard time limit belongs to a worker that died
    (acks_late redelivers its message): it is taken over, so a crash in the middle
    of a batch loses no file."""
    stale = timezone.now() - timedelta(seconds=settings.CELERY_TASK_TIME_LIMIT)
    claimed = (
        Document.objects.filter(pk=document_id)
        .filter(Q(status=DocumentStatus.UPLOADED) | Q(status=DocumentStatus.EXTRACTING, updated_at__lt=stale))
        .update(status=DocumentStatus.EXTRACTING, updated_at=timezone.now())
    )
    if not claimed:
        return False
    document = Document.objects.get(pk=document_id)
    try:
        with document.original.open("rb") as handle:
            data = handle.read()
        extraction = extract(document.name, data, settings.MAX_PDF_PAGES)
    except TRANSIENT_ERRORS:
        # Give the claim back so the automatic retry can take it again.
        Document.objects.filter(pk=document_id).update(status=DocumentStatus.UPLOADED)
        raise
    except ExtractionError as exc:
        document_fail(document=document, message=str(exc))
        return False
    except Exception as exc:
        logger.exception("extraction of document %s failed", document_id)
        document_fail(document=document, message=f"Text extraction failed unexpectedly ({type(exc).__name__}).")
        return False
    document.set_text(extraction.text)
    # Saved with the text, in one write: the layout's offsets are only valid for it.
    document.layout = [list(entry) for entry in extraction.layout]
    document.metadata = extraction.metadata
    document.status = DocumentStatus.ANNOTATING
    try:
        document.save(update_fields=["text", "layout", "metadata", "status", "updated_at"])
    except TRANSIENT_ERRORS:
        Document.objects.filter(pk=document_id).update(status=DocumentStatus.UPLOADED)
        raise
    return True


def document_fail(*, document: Document, message: str) -> None:
    document.status = DocumentStatus.FAILED
    document.error_message = message
    document.save(update_fields=["status", "error_message", "updated_at"])


@dataclass(frozen=True)
class UploadResult:
    """The outcome of one item of an upload. `error` includes the item's name."""

    name: str
    document: Document | None
    created: bool
    error: str | None


def upload_ingest(
    *,
    corpus: Corpus,
    name: str,
    data: bytes,
    user: AbstractBaseUser | None,
    csv_options: CsvOptions | None = None,
    limits: BulkLimits | None = None,
) -> list[UploadResult]:
    """Ingest one uploaded file, which may be a zip or a CSV of many documents. Each
    item succeeds or fails on its own: one bad item never stops the others."""
    limits = limits or BulkLimits.for_file_limit(settings.MAX_UPLOAD_BYTES)
    results: list[UploadResult] = []
    # Archives and CSVs are expanded first, so each item is validated as a file of its own.
    for item in expand_upload(name, data, limits, csv_options):
        if item.error is not None or item.data is None:
            results.append(UploadResult(item.name, None, False, f"{item.name}: {item.error}"))
            continue
        try:
            document, created = document_ingest(corpus=corpus, name=item.name, data=item.data, user=user)
        except IngestError as exc:
            results.append(UploadResult(item.name, None, False, str(exc)))
            continue
        except Exception as exc:
            # Whatever goes wrong with one item (storage, a name the file system
            # refuses…) fails that item alone; the rest of the upload carries on.
            logger.exception("ingesting an upload item failed")
            results.append(
                UploadResult(item.name, None, False, f"{item.name}: could not be stored ({type(exc).__name__}).")
            )
            continue
        results.append(UploadResult(item.name, document, created, None))
    return results


# --- a document's status and span revision, for the review app --------------------------


def document_lock(document_id: int) -> tuple[str, int] | None:
    """Lock the document's row for the caller's transaction and return its latest
    (status, spans_revision), or None if it is gone. Every writer of a document's
    spans takes this lock first (then the spans, in id order), so writers queue
    up instead of deadlocking. NO KEY UPDATE, as an UPDATE takes: it does not
    block the foreign key check (KEY SHARE) of a transaction inserting a span."""
    return (
        Document.objects.select_for_update(no_key=True)
        .filter(pk=document_id)
        .values_list("status", "spans_revision")
        .first()
    )


def document_spans_changed(document_id: int, *, reopen: tuple[str, ...], bump: bool) -> None:
    """After a write to the document's spans, its row locked: a document whose
    status is in `reopen` goes (back) to "in review", and with `bump` the span
    revision moves on (spans appeared or moved over some text; see
    Document.spans_revision). One UPDATE, none when there is nothing to do is
    the caller's call."""
    Document.objects.filter(pk=document_id).update(
        status=Case(When(status__in=reopen, then=Value(DocumentStatus.IN_REVIEW)), default=F("status")),
        spans_revision=F("spans_revision") + (1 if bump else 0),
        updated_at=timezone.now(),
    )


def document_move(document_id: int, *, from_statuses: tuple[str, ...], to: str) -> bool:
    """Move the document to status `to` if it is in one of `from_statuses` (a
    conditional UPDATE: False when someone moved it meanwhile)."""
    return bool(
        Document.objects.filter(pk=document_id, status__in=from_statuses).update(status=to, updated_at=timezone.now())
    )


def documents_annotate_again(document_ids: list[int]) -> None:
    """Documents whose pre-annotation failed wait for annotation again (their text
    is extracted; only the machine pass failed)."""
    Document.objects.filter(pk__in=document_ids, status=DocumentStatus.FAILED).update(
        status=DocumentStatus.ANNOTATING, error_message="", updated_at=timezone.now()
    )
