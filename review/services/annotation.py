"""Pre-annotation and re-annotation of documents: the engine's detection pipeline
run with the corpus's configuration (`detection_config.py`), its spans stored
through the span service, its progress and audit on AnnotationRun. The one writer
of AnnotationRun and DocumentDetection rows: a first annotation and a
re-annotation are the same run's two kinds, over the same tables."""

import logging
from dataclasses import dataclass
from datetime import datetime

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db import DatabaseError, transaction
from django.db.models import F, Q
from django.utils import timezone

from ingestion import work_queue
from ingestion.models import Corpus, Document, DocumentStatus
from ingestion.services import (
    ANNOTATION,
    ANNOTATION_FAILED,
    EXTRACTION,
    StepOutcome,
    document_lock,
    document_spans_changed,
    document_step_run,
    document_take_back,
    documents_annotate_again,
)
from ingestion.work_queue import WORKER_DIED, Swept, WorkQueue
from pipelines.detection.config import ConfigError
from pipelines.detection.config import DetectionConfig as DetectionSettings
from pipelines.detection.pipeline import DetectionResult, Progress, detect_text
from review.models import (
    ACTIVE_RUN_STATUSES,
    AnnotationRun,
    DocumentDetection,
    RunKind,
    RunStatus,
)
from review.services import jobs
from review.services.corpus_memory import corpus_memory
from review.services.corpus_models import ModelChoice, detection_model
from review.services.detection_config import corpus_detection_settings
from review.services.quasi import store_quasi
from review.services.spans import replace_machine_spans, store_machine_spans

logger = logging.getLogger(__name__)


def _detection_record(config: DetectionSettings, result: DetectionResult) -> dict:
    filtered = sorted(result.filtered, key=lambda f: (f.candidate.start, f.candidate.end))
    counts: dict[str, int] = {}
    for f in filtered:
        counts[f.reason] = counts.get(f.reason, 0) + 1
    return {
        "config": config.to_dict(),
        "filtered": [
            [f.candidate.start, f.candidate.end, f.candidate.label, list(f.candidate.sources), f.reason]
            for f in filtered
        ],
        "filtered_counts": dict(sorted(counts.items(), key=lambda item: (-item[1], item[0]))),
        "timed_out": result.timed_out,
    }


REANNOTATION_FAILED = "Re-annotation failed"

# Re-annotation runs are a queue (ingestion.work_queue has the rules): the
# pre-annotation record of a document is not, its document is.
REANNOTATION = WorkQueue(
    model=AnnotationRun,
    scope=Q(kind=RunKind.REANNOTATE),
    waiting=RunStatus.QUEUED,
    running=RunStatus.RUNNING,
    failure=REANNOTATION_FAILED,
    failed=lambda message, now: {"status": RunStatus.FAILED, "finished_at": now, "message": message},
    on_claim={"done": 0},
)


def _progress_writer(run_id: int) -> Progress:
    # Outside any transaction: each chunk's UPDATE is committed at once, for the
    # page that polls it. One UPDATE per chunk, ~20k characters.
    def report(done: int, total: int) -> None:
        try:
            AnnotationRun.objects.filter(pk=run_id).update(done=done, total=total)
        except DatabaseError:
            # Progress is for display: a lost update must not fail the run (the
            # final write goes through the normal, retried path).
            logger.warning("progress of annotation run %s not saved", run_id, exc_info=True)

    return report


def _language(document: Document) -> str:
    return Corpus.objects.filter(pk=document.corpus_id).values_list("language", flat=True).first() or "en"


def _detect(document: Document, choice: ModelChoice, run_id: int, language: str) -> DetectionResult:
    """One machine pass over the document with its corpus's model, memory and language."""
    return detect_text(
        document.text,
        settings.SPACY_MODEL,
        document.metadata,
        choice.config,
        progress=_progress_writer(run_id),
        memory=corpus_memory(document.corpus_id),
        language_code=language,
    )


def _finish_run(run_id: int, status: str, **values) -> None:
    AnnotationRun.objects.filter(pk=run_id).update(status=status, finished_at=timezone.now(), **values)


def document_annotate(*, document_id: int, delivery: str | None = None) -> bool:
    """Run the corpus's detection pipeline and store its spans as pending, with
    what was filtered and why. Progress is kept on the document's pre-annotation
    run. Idempotent: a document that is no longer waiting for annotation is left
    alone. The document's step is run through ingestion.services.document_step_run
    (the one work queue's rules): a redelivery after the worker died, or a
    delivery after its worker fell silent for WORKER_LOST_AFTER, takes over, and
    a document that killed its worker TASK_MAX_ATTEMPTS times fails instead of
    killing another."""
    return document_step_run(
        ANNOTATION,
        document_id,
        delivery or jobs.current_delivery(),
        work=_annotate,
        on_poisoned=lambda: pre_annotation_runs_swept(failed=[document_id], requeued=[]),
    )


def _annotate(document_id: int) -> StepOutcome:
    """The annotation step's work, run while the step is held: what it comes to is
    written by ingestion (the document's one writer), and the spans with it."""
    document = Document.objects.filter(pk=document_id, status=DocumentStatus.ANNOTATING).first()
    if document is None:
        return StepOutcome()
    try:
        config = corpus_detection_settings(document.corpus_id)
    except ConfigError as exc:
        return StepOutcome(failure=f"{ANNOTATION_FAILED}: invalid detection configuration ({exc}).")
    language = _language(document)
    choice = detection_model(document.corpus_id, config, language)
    # A redelivered task (worker lost) or a retry after a failure reuses the row.
    run, _ = AnnotationRun.objects.update_or_create(
        document_id=document_id,
        kind=RunKind.ANNOTATE,
        defaults={
            "status": RunStatus.RUNNING,
            "started_at": timezone.now(),
            "finished_at": None,
            "done": 0,
            "total": len(document.text),
            "config": config.to_dict(),
            "model": choice.record,
            "counts": {},
            "message": "",
        },
    )
    try:
        result = _detect(document, choice, run.pk, language)
    except Exception:
        logger.exception("annotation of document %s failed", document_id)
        # The exception is logged for the administrator; the reviewer gets what to do.
        message = (
            f"{ANNOTATION_FAILED}: the machine pass stopped on an unexpected error "
            "(logged for the administrator); pre-annotating again may succeed."
        )
        return StepOutcome(failure=message, then=lambda: _finish_run(run.pk, RunStatus.FAILED, message=message))
    if result.timed_out:
        logger.warning(
            "document %s: %d corpus pattern(s) timed out and were skipped", document_id, len(result.timed_out)
        )
    # Stored once the document is ready, in the same transaction, only if this
    # delivery still held its step (a worker taken over as lost stores nothing).
    return StepOutcome(
        moves_to=DocumentStatus.READY, then=lambda: _store_annotation(document_id, run.pk, config, result)
    )


def _store_annotation(document_id: int, run_id: int, config: DetectionSettings, result: DetectionResult) -> None:
    added = store_machine_spans(document_id, result.spans)
    store_quasi(document_id, result.quasi)
    DocumentDetection.objects.update_or_create(document_id=document_id, defaults=_detection_record(config, result))
    _finish_run(run_id, RunStatus.DONE, done=F("total"), counts={"added": added})


# --- re-annotation ---------------------------------------------------------------------

# Annotated and still open. An approved document is frozen (it may already be
# exported); one that is still being extracted or annotated gets the current
# configuration anyway.
REANNOTATABLE_STATUSES = (DocumentStatus.READY, DocumentStatus.IN_REVIEW, DocumentStatus.REVIEWED)


class ReannotateError(Exception):
    """Why a document cannot be re-annotated now (shown to the admin)."""


def _retryable_failure(document: Document) -> bool:
    # Extraction worked (there is text) and only the machine pass failed, e.g. on a
    # configuration that no longer validated, or a worker that ran out of memory:
    # an admin running it again is the fix.
    return (
        document.status == DocumentStatus.FAILED
        and document.error_message.startswith(ANNOTATION_FAILED)
        and Document.objects.filter(pk=document.pk).exclude(text="").exists()
    )


# The step a document still in progress is in, and the task that runs it.
_STEPS: dict[str, tuple[WorkQueue, str, str]] = {
    DocumentStatus.UPLOADED: (EXTRACTION, jobs.EXTRACT, "extracted"),
    DocumentStatus.EXTRACTING: (EXTRACTION, jobs.EXTRACT, "extracted"),
    DocumentStatus.ANNOTATING: (ANNOTATION, jobs.ANNOTATE, "pre-annotated"),
}


def _ask_again(document: Document) -> None:
    """A document still in progress asked for again (it looks stuck): what the
    sweeper would do, at once. A lost worker's step waits again and is queued; a
    step no worker took yet is queued again (a duplicate message is harmless: the
    claim is conditional); a step a live worker holds is left to it, and the
    admin is told why (ReannotateError)."""
    queue, task, doing = _STEPS[document.status]
    taken = document_take_back(queue, document.pk)
    if taken.state == "live":
        lost_after = settings.WORKER_LOST_AFTER
        raise ReannotateError(
            f"“{document.name}” is being {doing} by a worker, heard from {taken.silent_for} s ago: nothing was "
            f"queued. A worker silent for {lost_after} s (WORKER_LOST_AFTER) is taken as lost and its work is "
            f"queued again; ask again then, or let the sweeper do it."
        )
    if taken.state == "failed":
        # The lost worker was its TASK_MAX_ATTEMPTS-th; an admin's explicit
        # request starts the attempts over, as for any failed pre-annotation.
        pre_annotation_runs_swept(failed=[document.pk], requeued=[])
        if queue is EXTRACTION:
            raise ReannotateError(f"“{document.name}” failed: {work_queue.poison_message(queue)}")
        documents_annotate_again([document.pk])
    if queue is ANNOTATION:
        pre_annotation_runs_swept(failed=[], requeued=[document.pk])
    jobs.enqueue_on_commit(task, document.pk)


def document_reannotate_request(*, document: Document, user: AbstractBaseUser) -> AnnotationRun | None:
    """Queue a new machine pass over an annotated document with the corpus's
    current configuration (see `document_reannotate`). A document whose
    pre-annotation failed is pre-annotated again instead (returns None). Asking
    twice while a run is queued or running returns that run. A document still
    being extracted or pre-annotated is taken back if its worker was lost, or
    left to its live worker with the reason (`_ask_again`)."""
    if document.status in _STEPS:
        # Outside a transaction: each of its writes is one conditional UPDATE,
        # and a document it fails (the poison limit) stays failed when it
        # raises the reason.
        _ask_again(document)
        return None
    return _reannotate_request(document=document, user=user)


@transaction.atomic
def _reannotate_request(*, document: Document, user: AbstractBaseUser) -> AnnotationRun | None:
    # Serializes requests for this document (two clicks, or a corpus-wide request):
    # the check for an active run below then holds.
    document_lock(document.pk)
    if document.status not in REANNOTATABLE_STATUSES:
        if _retryable_failure(document):
            documents_annotate_again([document.pk])
            jobs.enqueue_on_commit(jobs.ANNOTATE, document.pk)
            return None
        raise ReannotateError(
            f"“{document.name}” is {document.get_status_display().lower()}: only documents ready for review, "
            "in review or reviewed can be re-annotated."
        )
    active = AnnotationRun.objects.filter(
        document=document, kind=RunKind.REANNOTATE, status__in=ACTIVE_RUN_STATUSES
    ).first()
    if active is not None:
        return active
    run = AnnotationRun.objects.create(
        document=document, kind=RunKind.REANNOTATE, requested_by=user, queued_at=timezone.now()
    )
    jobs.enqueue_on_commit(jobs.REANNOTATE, run.pk)
    return run


@dataclass(frozen=True)
class CorpusReannotation:
    queued: int
    retried: int
    already_queued: int
    not_eligible: int


@transaction.atomic
def corpus_reannotate_request(*, corpus: Corpus, user: AbstractBaseUser) -> CorpusReannotation:
    """Queue a re-annotation of every open annotated document of a corpus (one
    task per document, so the workers share them), and a new pre-annotation of
    those whose pre-annotation failed. Approved documents and documents still in
    progress are left alone."""
    documents = Document.objects.filter(corpus=corpus)
    eligible = set(documents.filter(status__in=REANNOTATABLE_STATUSES).select_for_update().values_list("pk", flat=True))
    busy = set(
        AnnotationRun.objects.filter(
            document__corpus=corpus, kind=RunKind.REANNOTATE, status__in=ACTIVE_RUN_STATUSES
        ).values_list("document_id", flat=True)
    )
    runs = AnnotationRun.objects.bulk_create(
        [
            AnnotationRun(document_id=pk, kind=RunKind.REANNOTATE, requested_by=user, queued_at=timezone.now())
            for pk in sorted(eligible - busy)
        ]
    )
    failed = documents.filter(status=DocumentStatus.FAILED, error_message__startswith=ANNOTATION_FAILED).exclude(
        text=""
    )
    retried = list(failed.values_list("pk", flat=True))
    if retried:
        documents_annotate_again(retried)
    jobs.enqueue_on_commit(jobs.REANNOTATE, *(run.pk for run in runs))
    jobs.enqueue_on_commit(jobs.ANNOTATE, *retried)
    total = documents.count()
    return CorpusReannotation(
        queued=len(runs),
        retried=len(retried),
        already_queued=len(eligible & busy),
        not_eligible=total - len(eligible) - len(retried),
    )


def runs_sweep(*, queued_before: datetime) -> Swept:
    """Re-annotations whose worker is lost or whose message was lost, through the
    work queue's sweep (see ingestion.work_queue.sweep)."""
    return work_queue.sweep(REANNOTATION, queued_before=queued_before)


def pre_annotation_runs_swept(*, failed: list[int], requeued: list[int]) -> None:
    """The pre-annotation records of documents the work queue failed or queued
    again: the page shows why, not a run stuck at 2%."""
    now = timezone.now()
    runs = AnnotationRun.objects.filter(kind=RunKind.ANNOTATE, status__in=ACTIVE_RUN_STATUSES)
    if failed:
        runs.filter(document_id__in=failed).update(
            status=RunStatus.FAILED, finished_at=now, message=f"{ANNOTATION_FAILED}: {WORKER_DIED}."
        )
    if requeued:
        runs.filter(document_id__in=requeued, status=RunStatus.RUNNING).update(
            status=RunStatus.QUEUED, message="Its worker was lost: queued again."
        )


def document_reannotate(*, run_id: int) -> bool:
    """Run the corpus's current configuration over a document again, keeping the
    reviewers' work: spans a person decided, added or linked stay as they are and
    no new candidate overlapping one is added; pending machine spans are replaced
    by the new run's (those the new run finds again keep their row, so an open
    review page and the audit still point at them). A reviewed document that gets
    pending spans back is in review again. Idempotent: only a queued run is run
    (or one whose worker was lost: ingestion.work_queue.claim)."""
    delivery = jobs.current_delivery()
    with work_queue.step(REANNOTATION, run_id, delivery) as claim:
        return claim.taken and _reannotate(run_id, delivery)


def _reannotate(run_id: int, delivery: str) -> bool:
    run = AnnotationRun.objects.select_related("document").get(pk=run_id)
    document = run.document
    if document.status not in REANNOTATABLE_STATUSES:
        _finish_run(run_id, RunStatus.SKIPPED, message=f"The document is {document.get_status_display().lower()}.")
        return False
    try:
        config = corpus_detection_settings(document.corpus_id)
    except ConfigError as exc:
        # The document keeps its spans: only this run failed.
        _finish_run(run_id, RunStatus.FAILED, message=f"Invalid detection configuration ({exc}).")
        return False
    language = _language(document)
    choice = detection_model(document.corpus_id, config, language)
    AnnotationRun.objects.filter(pk=run_id).update(
        total=len(document.text), config=config.to_dict(), model=choice.record
    )
    try:
        result = _detect(document, choice, run_id, language)
    except Exception as exc:
        logger.exception("re-annotation run %s of document %s failed", run_id, document.pk)
        _finish_run(run_id, RunStatus.FAILED, message=f"Re-annotation failed ({type(exc).__name__}).")
        return False
    # A transient error here is retried (task_policy): the step hands the run back
    # so the retry claims it again instead of finding it "running".
    return _store_reannotation(run_id, document.pk, config, result, delivery)


@transaction.atomic
def _store_reannotation(
    run_id: int, document_id: int, config: DetectionSettings, result: DetectionResult, delivery: str
) -> bool:
    row = document_lock(document_id)
    # Still this delivery's: a worker taken over as lost stores nothing.
    claimed = work_queue.held(REANNOTATION, run_id, delivery).select_for_update().exists()
    if not claimed or row is None:
        return False
    status = row[0]
    if status not in REANNOTATABLE_STATUSES:
        label = DocumentStatus(status).label.lower()
        _finish_run(run_id, RunStatus.SKIPPED, message=f"The document is {label}.")
        return False
    counts = replace_machine_spans(document_id, result.spans)
    store_quasi(document_id, result.quasi)
    # New spans appeared: a reviewer's add or resize planned against the old ones
    # must now be refused as stale (the span service checks this revision). A
    # reviewed document with pending spans again is back in review.
    reopen = status == DocumentStatus.REVIEWED and counts["added"] + counts["unchanged"] > 0
    document_spans_changed(document_id, reopen=(DocumentStatus.REVIEWED,) if reopen else (), bump=True)
    DocumentDetection.objects.update_or_create(document_id=document_id, defaults=_detection_record(config, result))
    if reopen:
        counts["status"] = [DocumentStatus.REVIEWED, DocumentStatus.IN_REVIEW]
    _finish_run(run_id, RunStatus.DONE, done=F("total"), counts=counts)
    return True
