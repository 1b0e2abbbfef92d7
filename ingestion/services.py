"""The one writer of Corpus and Document rows: storing uploads, extracting their
text, and every change of a document's status or span revision (the review app
asks for those through the functions at the end of this module).

Nothing here queues work: the caller (review.services.uploads, the command line)
decides when a stored document is extracted and annotated.

One document's machine path comes in by two doors: `upload_ingest` (the upload)
and `document_step_run` (a worker's step: extraction, then annotation, whose work
the review app hands in). The rest of that path is private to this module
(tests/project/test_document_path.py keeps it so)."""

import hashlib
import logging
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import PurePath
from typing import Any, BinaryIO

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.core.files.base import ContentFile, File
from django.db import IntegrityError, transaction
from django.db.models import Case, F, Value, When
from django.utils import timezone

from ingestion import work_queue
from ingestion.models import Corpus, Document, DocumentStatus
from ingestion.storage import private_storage
from ingestion.task_policy import TRANSIENT_ERRORS
from ingestion.upload_handlers import too_large
from ingestion.work_queue import TakeBack, WorkQueue
from pipelines.detection.languages import DEFAULT_LANGUAGE
from pipelines.detection.languages import language as language_of
from pipelines.extraction.bulk import BulkLimits, CsvOptions, UploadBudget, iter_upload
from pipelines.extraction.extract import SUPPORTED_EXTENSIONS, extract
from pipelines.extraction.limits import ExtractionLimits
from pipelines.extraction.text import ExtractionError

logger = logging.getLogger(__name__)


class IngestError(Exception):
    """A file refused at upload; the message is shown to the user as is."""


def corpus_save(corpus: Corpus) -> None:
    """A corpus edited in the Django admin (name, description, second review)."""
    corpus.save()


class CorpusNameTaken(Exception):
    """Another corpus has this name: corpus names are unique (the command line
    finds a corpus by its name)."""


def corpus_settings_update(corpus_id: int, *, name: str, description: str) -> None:
    """A corpus's name and description, as review.services.corpora.corpus_settings_change
    validated, permitted and audits them. The unique index has the last word: a
    name another corpus took meanwhile raises CorpusNameTaken, nothing written."""
    try:
        # A savepoint: the caller's transaction goes on after a refused name.
        with transaction.atomic():
            Corpus.objects.filter(pk=corpus_id).update(name=name, description=description)
    except IntegrityError as exc:
        raise CorpusNameTaken(name) from exc


def corpus_create(
    *,
    name: str,
    user: AbstractBaseUser | None,
    description: str = "",
    require_second_review: bool = False,
    language: str = DEFAULT_LANGUAGE,
) -> Corpus:
    """The corpus row alone; review.services.corpora.corpus_create also makes its
    creator the corpus admin. An unknown language raises LanguageError."""
    language_of(language)
    return Corpus.objects.create(
        name=name.strip(),
        description=description,
        created_by=user,
        require_second_review=require_second_review,
        language=language,
    )


# A PDF's "%PDF-" header may follow up to 1,024 bytes of junk (the PDF specification's
# allowance, which readers honour); without one no reader can open the file.
PDF_HEADER_WINDOW = 1024


def _validate_upload(name: str, size: int, head: bytes = b"") -> None:
    if PurePath(name).suffix.lower() not in SUPPORTED_EXTENSIONS:
        raise IngestError(
            f"{name}: unsupported file type; use one of {', '.join(SUPPORTED_EXTENSIONS)} (or a .zip or .csv of them)."
        )
    if not size:
        raise IngestError(f"{name}: the file is empty.")
    if size > settings.MAX_UPLOAD_BYTES:
        raise IngestError(f"{name}: {too_large(size)}")
    # Refused now, in the upload's answer, rather than failing in the worker later.
    if PurePath(name).suffix.lower() == ".pdf" and b"%PDF-" not in head:
        raise IngestError(f"{name}: not a PDF (no PDF header in its first bytes); was another file saved as .pdf?")


def _head(data: bytes | BinaryIO) -> bytes:
    if isinstance(data, bytes):
        return data[:PDF_HEADER_WINDOW]
    data.seek(0)
    head = data.read(PDF_HEADER_WINDOW)
    data.seek(0)
    return head


def _digest_and_size(data: bytes | BinaryIO) -> tuple[str, int]:
    if isinstance(data, bytes):
        return hashlib.sha256(data).hexdigest(), len(data)
    data.seek(0)
    digest, size = hashlib.sha256(), 0
    while chunk := data.read(1024 * 1024):
        digest.update(chunk)
        size += len(chunk)
    data.seek(0)
    return digest.hexdigest(), size


def document_ingest(
    *, corpus: Corpus, name: str, data: bytes | BinaryIO, user: AbstractBaseUser | None
) -> tuple[Document, bool]:
    """Store the original privately. Returns (document, created); a file already in
    the corpus (same sha256) is not stored twice. `data` may be a file (an upload
    spooled to disk): it is hashed and copied a megabyte at a time."""
    digest, size = _digest_and_size(data)
    _validate_upload(name, size, _head(data))
    existing = Document.objects.filter(corpus=corpus, sha256=digest).first()
    if existing is not None:
        return existing, False
    try:
        with transaction.atomic():
            document = Document(
                corpus=corpus,
                name=PurePath(name).name[:255],
                sha256=digest,
                size=size,
                uploaded_by=user,
                queued_at=timezone.now(),
            )
            # Stored under a generated name: upload names often hold a person's name,
            # and some are too long for the file system. The name is kept on the row.
            content = ContentFile(data) if isinstance(data, bytes) else File(data)
            document.original.save(f"{uuid.uuid4().hex}{PurePath(name).suffix.lower()[:10]}", content, save=False)
            # A failed insert must not leave the file behind.
            stored = document.original.name
            try:
                document.save()
            except Exception:
                private_storage().delete(stored)
                raise
    except IntegrityError:
        # Lost a race with an identical upload: theirs is the document.
        return Document.objects.get(corpus=corpus, sha256=digest), False
    return document, True


def extraction_limits() -> ExtractionLimits:
    return ExtractionLimits(
        max_pdf_pages=settings.MAX_PDF_PAGES,
        max_pdf_stream_bytes=settings.MAX_PDF_STREAM_BYTES,
        max_pdf_inflated_bytes=settings.MAX_PDF_INFLATED_MB * 1024 * 1024,
        max_pdf_parse_memory_bytes=settings.MAX_PDF_PARSE_MEMORY_MB * 1024 * 1024,
        max_pdf_parse_seconds=settings.MAX_PDF_PARSE_SECONDS,
        max_document_chars=settings.MAX_DOCUMENT_CHARS,
    )


def bulk_limits() -> BulkLimits:
    return BulkLimits.for_file_limit(
        settings.MAX_UPLOAD_BYTES,
        max_members=settings.MAX_UPLOAD_DOCUMENTS,
        max_cell_chars=min(settings.MAX_CSV_CELL_CHARS, settings.MAX_DOCUMENT_CHARS),
    )


EXTRACTION_FAILED = "Text extraction failed"
ANNOTATION_FAILED = "Pre-annotation failed"


def _document_failed(message: str, now: datetime) -> dict:
    return {
        "status": DocumentStatus.FAILED,
        "error_message": message,
        "claimed_at": None,
        "claimed_by": "",
        "heartbeat_at": None,
    }


# A document is a queue twice over: waiting for extraction, then for annotation
# (one status for waiting and running: the claim time tells them apart). The
# rules are ingestion.work_queue's; these are the rows they apply to.
EXTRACTION = WorkQueue(
    model=Document,
    waiting=DocumentStatus.UPLOADED,
    running=DocumentStatus.EXTRACTING,
    failure=EXTRACTION_FAILED,
    failed=_document_failed,
    claimed_field="claimed_at",
    created_field="updated_at",
    touch=("updated_at",),
)
ANNOTATION = WorkQueue(
    model=Document,
    waiting=DocumentStatus.ANNOTATING,
    running=DocumentStatus.ANNOTATING,
    failure=ANNOTATION_FAILED,
    failed=_document_failed,
    claimed_field="claimed_at",
    created_field="updated_at",
    touch=("updated_at",),
)


@dataclass(frozen=True)
class StepOutcome:
    """What a step's work came to. The document's row is written here, by its one
    writer, and only after the work: `moves_to` a status (with `values`, in the
    same UPDATE), or `failure` shown to the reviewer, or neither (nothing to do:
    the document was no longer waiting). `then` is the caller's own writes (the
    spans of an annotation): after a move, in its transaction and only if this
    delivery still held the step; after a failure, once the document failed."""

    moves_to: str = ""
    failure: str = ""
    values: dict[str, Any] = field(default_factory=dict)
    then: Callable[[], None] | None = None


StepWork = Callable[[int], StepOutcome]


def document_step_run(
    queue: WorkQueue,
    document_id: int,
    delivery: str | None = None,
    *,
    work: StepWork | None = None,
    on_poisoned: Callable[[], None] | None = None,
) -> bool:
    """A worker runs one step of a document, EXTRACTION or ANNOTATION: the one way
    in for both tasks. The step is held through the work queue (claimed, kept
    alive, handed back on a transient error: work_queue.step); the work runs only
    if this delivery took it, and its outcome is written only if it still holds
    it. Extraction's work is this module's (`work` left out); annotation's is the
    caller's. Idempotent: False when the document is not waiting for this step
    (done, or claimed by a live worker) or the step did not move it on.

    A claim by a worker that died (a redelivery of the same message, or a holder
    silent for WORKER_LOST_AFTER) is taken over, so a crash in the middle of a
    batch loses no file; a document that killed its worker TASK_MAX_ATTEMPTS
    times fails instead of killing another (then `on_poisoned` runs)."""
    if work is None:
        if queue is not EXTRACTION:
            raise TypeError("only extraction's work is this module's: pass the step's work")
        work = _extract
    delivery = delivery or uuid.uuid4().hex
    with work_queue.step(queue, document_id, delivery) as claim:
        if claim.poisoned and on_poisoned is not None:
            on_poisoned()
        return claim.taken and _step_end(queue, document_id, delivery, work(document_id))


def _step_end(queue: WorkQueue, document_id: int, delivery: str, outcome: StepOutcome) -> bool:
    if outcome.failure:
        _document_fail(document_id, outcome.failure)
        if outcome.then is not None:
            outcome.then()
        return False
    if not outcome.moves_to:
        return False
    with transaction.atomic():
        # First, in the same transaction: the document moves on only while this
        # delivery still holds its step (a worker taken over as lost writes
        # nothing), and the UPDATE locks the row, as `document_lock` does, before
        # the caller's writes (every span writer takes that lock first).
        moved = work_queue.finish(
            queue, document_id, delivery, status=outcome.moves_to, claimed_at=None, attempts=0, **outcome.values
        )
        if moved and outcome.then is not None:
            outcome.then()
    return moved


def document_take_back(queue: WorkQueue, document_id: int) -> TakeBack:
    """An admin asks for the step again: a lost worker's claim is taken back at
    once (see work_queue.take_back)."""
    return work_queue.take_back(queue, document_id)


def _extract(document_id: int) -> StepOutcome:
    """Extraction's work: the text of the uploaded original, then the document
    waits for annotation, a step of its own with its own attempts."""
    document = Document.objects.get(pk=document_id)
    try:
        if document.size > settings.MAX_UPLOAD_BYTES:
            raise ExtractionError(too_large(document.size))
        with document.original.open("rb") as handle:
            data = handle.read(settings.MAX_UPLOAD_BYTES + 1)
        extraction = extract(document.name, data, extraction_limits())
        del data
    except TRANSIENT_ERRORS:
        raise  # the step hands the claim back; the automatic retry takes it again
    except ExtractionError as exc:
        return StepOutcome(failure=str(exc))
    except Exception:
        logger.exception("extraction of document %s failed", document_id)
        # The exception is in the log; the reviewer gets what happened and what to do.
        return StepOutcome(
            failure="The text of this file could not be extracted (an unexpected error, logged for the "
            "administrator). Check that the file opens on your computer, then upload it again."
        )
    document.set_text(extraction.text)
    return StepOutcome(
        moves_to=DocumentStatus.ANNOTATING,
        values={
            "text": document.text,
            # Saved with the text, in one write: the layout's offsets are only valid for it.
            "layout": [list(entry) for entry in extraction.layout],
            "metadata": extraction.metadata,
            "queued_at": timezone.now(),
        },
    )


def _document_fail(document_id: int, message: str) -> None:
    now = timezone.now()
    Document.objects.filter(pk=document_id).update(**_document_failed(message, now), updated_at=now)


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
    data: bytes | BinaryIO,
    user: AbstractBaseUser | None,
    csv_options: CsvOptions | None = None,
    limits: BulkLimits | None = None,
    budget: UploadBudget | None = None,
    on_stored: Callable[[Document], None] | None = None,
    on_waiting: Callable[[list[int]], None] | None = None,
) -> list[UploadResult]:
    """Ingest one uploaded file, which may be a zip or a CSV of many documents. Each
    item succeeds or fails on its own: one bad item never stops the others. Items
    are read and stored one at a time; `budget` is shared by every file of one
    upload (MAX_UPLOAD_DOCUMENTS). `on_stored` is called with each new document as
    soon as it is committed, so a request that dies halfway has still handed on
    every document it stored. `on_waiting` is called once, at the end, with the
    documents uploaded again while they still wait for extraction (the broker was
    down the first time): their wait restarts here and the caller queues them
    again, so a retry is never a dead end."""
    limits = limits or bulk_limits()
    results: list[UploadResult] = []
    # Archives and CSVs are expanded first, so each item is validated as a file of its own.
    for item in iter_upload(name, data, limits, csv_options, budget):
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
        if created and on_stored is not None:
            on_stored(document)
    if on_waiting is not None:
        _requeue_waiting_duplicates(results, on_waiting)
    return results


def _requeue_waiting_duplicates(results: list[UploadResult], on_waiting: Callable[[list[int]], None]) -> None:
    waiting = [
        r.document.pk
        for r in results
        if r.document is not None and not r.created and r.document.status == DocumentStatus.UPLOADED
    ]
    if waiting:
        work_queue.requeued(EXTRACTION, waiting)
        on_waiting(waiting)


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
    conditional UPDATE: False when someone moved it meanwhile). A step's claim
    ends with the move."""
    return bool(
        Document.objects.filter(pk=document_id, status__in=from_statuses).update(
            status=to, updated_at=timezone.now(), claimed_at=None, claimed_by="", heartbeat_at=None, attempts=0
        )
    )


def documents_annotate_again(document_ids: list[int]) -> None:
    """Documents whose pre-annotation failed wait for annotation again (their text
    is extracted; only the machine pass failed). An admin's explicit request: the
    attempts start over."""
    now = timezone.now()
    Document.objects.filter(pk__in=document_ids, status=DocumentStatus.FAILED).update(
        status=DocumentStatus.ANNOTATING,
        error_message="",
        updated_at=now,
        queued_at=now,
        claimed_at=None,
        claimed_by="",
        heartbeat_at=None,
        attempts=0,
    )


# --- the sweeper's part: documents the queue lost or a worker left ----------------------


@dataclass(frozen=True)
class DocumentSweep:
    extract: list[int]  # waiting for extraction again: queue them
    annotate: list[int]  # waiting for annotation again: queue them
    failed: list[int]  # took TASK_MAX_ATTEMPTS workers with them
    failed_annotation: list[int]  # those of `failed` that were being annotated
    live: int  # held by workers heard from within WORKER_LOST_AFTER


def documents_sweep(*, queued_before: datetime) -> DocumentSweep:
    """Both of a document's steps through the work queue's sweep (see
    ingestion.work_queue.sweep): lost workers' documents wait again or fail,
    documents whose message was lost are returned to be queued."""
    extraction = work_queue.sweep(EXTRACTION, queued_before=queued_before)
    annotation = work_queue.sweep(ANNOTATION, queued_before=queued_before)
    return DocumentSweep(
        extract=extraction.requeue,
        annotate=annotation.requeue,
        failed=extraction.failed + annotation.failed,
        failed_annotation=annotation.failed,
        live=extraction.live + annotation.live,
    )


# --- deletion: rows and their files ---------------------------------------------------


def document_delete(*, document: Document) -> None:
    """Delete a document and its original. The file goes once the transaction
    commits: a rolled-back delete keeps both."""
    name = document.original.name
    document.delete()
    _delete_files_on_commit([name])


def corpus_delete(*, corpus: Corpus) -> None:
    """Delete a corpus, its documents and their originals (its exports are the
    export service's: review.services.deletion deletes them first)."""
    names = list(Document.objects.filter(corpus=corpus).values_list("original", flat=True))
    corpus.delete()
    _delete_files_on_commit(names)


def _delete_files_on_commit(names: list[str]) -> None:
    def delete() -> None:
        storage = private_storage()
        for name in names:
            if name:
                storage.delete(name)

    transaction.on_commit(delete)
