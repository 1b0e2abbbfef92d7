"""Pre-annotation and re-annotation of documents: the engine's detection pipeline
run with the corpus's configuration, its spans stored through the span service,
its progress and audit on AnnotationRun (the one writer of AnnotationRun,
DocumentDetection, DetectionConfig and DetectionConfigChange rows)."""

import logging
from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db import DatabaseError, transaction
from django.db.models import F, Q
from django.utils import timezone

from ingestion.models import Corpus, Document, DocumentStatus
from ingestion.services import (
    WORKER_DIED,
    document_claim,
    document_extract,
    document_fail,
    document_lock,
    document_move,
    document_release,
    document_spans_changed,
    documents_annotate_again,
)
from ingestion.task_policy import TRANSIENT_ERRORS
from pipelines.detection.config import DEFAULT as DEFAULT_SETTINGS
from pipelines.detection.config import ConfigError
from pipelines.detection.config import DetectionConfig as DetectionSettings
from pipelines.detection.pipeline import DetectionResult, Progress, detect_text
from pipelines.detection.recognizers.corpus_patterns import check_patterns
from review.models import (
    ACTIVE_RUN_STATUSES,
    AnnotationRun,
    DetectionConfig,
    DetectionConfigChange,
    DocumentDetection,
    RunKind,
    RunStatus,
)
from review.services import jobs
from review.services.corpus_memory import corpus_memory
from review.services.corpus_models import ModelChoice, detection_model
from review.services.quasi import store_quasi
from review.services.spans import replace_machine_spans, store_machine_spans

logger = logging.getLogger(__name__)


def corpus_detection_settings(corpus_id: int) -> DetectionSettings:
    """The corpus's detection configuration, or the default pipeline's. Its
    patterns are checked against the limits before anything compiles them: a
    configuration stored before a limit existed fails with a message instead of
    taking the worker's memory."""
    data = DetectionConfig.objects.filter(corpus_id=corpus_id).values_list("data", flat=True).first()
    check_pattern_limits(data)
    return DetectionSettings.from_dict(data)


def check_pattern_limits(data: dict | None) -> None:
    """Raise ConfigError if a configuration's corpus patterns break a limit
    (MAX_CORPUS_PATTERNS, MAX_PATTERN_LENGTH, MAX_PATTERN_PROGRAM_SIZE)."""
    patterns = data.get("patterns") if isinstance(data, dict) else None
    if not isinstance(patterns, list):
        return  # from_dict reports a malformed configuration
    texts = [str(p.get("pattern", "")) for p in patterns if isinstance(p, dict)]
    errors = check_patterns(texts)
    if errors:
        raise ConfigError("; ".join(errors))


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


ANNOTATION_FAILED = "Pre-annotation failed"


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
    alone. The document is claimed first (see ingestion.services.document_claim):
    a redelivery after the worker died takes over, and a document that killed
    its worker TASK_MAX_ATTEMPTS times fails instead of killing another."""
    claim = document_claim(
        document_id,
        waiting=DocumentStatus.ANNOTATING,
        running=DocumentStatus.ANNOTATING,
        delivery=delivery or jobs.current_delivery(),
        failure=ANNOTATION_FAILED,
    )
    if claim.poisoned:
        AnnotationRun.objects.filter(document_id=document_id, kind=RunKind.ANNOTATE).update(
            status=RunStatus.FAILED, finished_at=timezone.now(), message=f"{ANNOTATION_FAILED}: {WORKER_DIED}."
        )
    if not claim.taken:
        return False
    document = Document.objects.filter(pk=document_id, status=DocumentStatus.ANNOTATING).first()
    if document is None:
        return False
    try:
        config = corpus_detection_settings(document.corpus_id)
    except ConfigError as exc:
        document_fail(document=document, message=f"{ANNOTATION_FAILED}: invalid detection configuration ({exc}).")
        return False
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
        document_fail(document=document, message=message)
        _finish_run(run.pk, RunStatus.FAILED, message=message)
        return False
    if result.timed_out:
        logger.warning(
            "document %s: %d corpus pattern(s) timed out and were skipped", document_id, len(result.timed_out)
        )
    try:
        return _store_annotation(document_id, run.pk, config, result)
    except TRANSIENT_ERRORS:
        document_release(document_id, running=DocumentStatus.ANNOTATING, waiting=DocumentStatus.ANNOTATING)
        raise


def _store_annotation(document_id: int, run_id: int, config: DetectionSettings, result: DetectionResult) -> bool:
    with transaction.atomic():
        row = document_lock(document_id)
        if row is None or row[0] != DocumentStatus.ANNOTATING:
            return False
        added = store_machine_spans(document_id, result.spans)
        store_quasi(document_id, result.quasi)
        DocumentDetection.objects.update_or_create(document_id=document_id, defaults=_detection_record(config, result))
        document_move(document_id, from_statuses=(DocumentStatus.ANNOTATING,), to=DocumentStatus.READY)
        _finish_run(run_id, RunStatus.DONE, done=F("total"), counts={"added": added})
    return True


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


def _waiting_for_annotation(document: Document) -> bool:
    # Already queued (or its worker died and the sweeper will queue it again):
    # asking again queues it now; the claim keeps two workers from running it.
    return document.status == DocumentStatus.ANNOTATING


@transaction.atomic
def document_reannotate_request(*, document: Document, user: AbstractBaseUser) -> AnnotationRun | None:
    """Queue a new machine pass over an annotated document with the corpus's
    current configuration (see `document_reannotate`). A document whose
    pre-annotation failed is pre-annotated again instead (returns None). Asking
    twice while a run is queued or running returns that run."""
    # Serializes requests for this document (two clicks, or a corpus-wide request):
    # the check for an active run below then holds.
    document_lock(document.pk)
    if document.status not in REANNOTATABLE_STATUSES:
        if _retryable_failure(document):
            documents_annotate_again([document.pk])
            jobs.enqueue_on_commit(jobs.ANNOTATE, document.pk)
            return None
        if _waiting_for_annotation(document):
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


def _claim_run(run_id: int, delivery: str) -> bool:
    """Claim a queued re-annotation, or take over one whose worker died (this
    delivery's own claim, redelivered; or running for longer than the task's hard
    time limit): one conditional UPDATE. A run that killed its worker
    TASK_MAX_ATTEMPTS times fails (the document keeps its spans)."""
    stale = timezone.now() - timedelta(seconds=settings.CELERY_TASK_TIME_LIMIT + 60)
    runs = AnnotationRun.objects.filter(pk=run_id, kind=RunKind.REANNOTATE)
    abandoned = Q(status=RunStatus.RUNNING) & (Q(claimed_by=delivery) | Q(started_at__lt=stale))
    if (
        runs.filter(Q(status=RunStatus.QUEUED) | abandoned)
        .filter(attempts__lt=settings.TASK_MAX_ATTEMPTS)
        .update(
            status=RunStatus.RUNNING,
            started_at=timezone.now(),
            done=0,
            claimed_by=delivery[:64],
            attempts=F("attempts") + 1,
        )
    ):
        return True
    runs.filter(abandoned).update(
        status=RunStatus.FAILED, finished_at=timezone.now(), message=f"Re-annotation failed: {WORKER_DIED}."
    )
    return False


def runs_sweep(*, queued_before) -> list[int]:
    """Re-annotations waiting since before `queued_before` (their message was lost)
    and those whose worker died (running past the hard time limit) are queued
    again, or failed at TASK_MAX_ATTEMPTS. Returns the runs to queue."""
    now = timezone.now()
    stale = now - timedelta(seconds=settings.CELERY_TASK_TIME_LIMIT + 60)
    dead = AnnotationRun.objects.filter(kind=RunKind.REANNOTATE, status=RunStatus.RUNNING, started_at__lt=stale)
    dead.filter(attempts__gte=settings.TASK_MAX_ATTEMPTS).update(
        status=RunStatus.FAILED, finished_at=now, message=f"Re-annotation failed: {WORKER_DIED}."
    )
    dead.update(status=RunStatus.QUEUED, claimed_by="", queued_at=queued_before - timedelta(seconds=1))
    lost = AnnotationRun.objects.filter(kind=RunKind.REANNOTATE, status=RunStatus.QUEUED).filter(
        Q(queued_at__lt=queued_before) | Q(queued_at__isnull=True, created_at__lt=queued_before)
    )
    ids = list(lost.values_list("pk", flat=True)[:1000])
    AnnotationRun.objects.filter(pk__in=ids).update(queued_at=now)
    return ids


def document_reannotate(*, run_id: int) -> bool:
    """Run the corpus's current configuration over a document again, keeping the
    reviewers' work: spans a person decided, added or linked stay as they are and
    no new candidate overlapping one is added; pending machine spans are replaced
    by the new run's (those the new run finds again keep their row, so an open
    review page and the audit still point at them). A reviewed document that gets
    pending spans back is in review again. Idempotent: only a queued run is run."""
    if not _claim_run(run_id, jobs.current_delivery()):
        return False
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
    try:
        return _store_reannotation(run_id, document.pk, config, result)
    except TRANSIENT_ERRORS:
        # The task is retried (task_policy): hand the run back so the retry can
        # claim it again instead of finding it "running" and leaving it there.
        AnnotationRun.objects.filter(pk=run_id, status=RunStatus.RUNNING).update(
            status=RunStatus.QUEUED, claimed_by="", attempts=F("attempts") - 1
        )
        raise


@transaction.atomic
def _store_reannotation(run_id: int, document_id: int, config: DetectionSettings, result: DetectionResult) -> bool:
    row = document_lock(document_id)
    claimed = AnnotationRun.objects.select_for_update().filter(pk=run_id, status=RunStatus.RUNNING).exists()
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


@transaction.atomic
def detection_config_save(
    *, corpus: Corpus, user: AbstractBaseUser, config: DetectionSettings
) -> DetectionConfigChange | None:
    """Store a corpus's detection configuration, and record the change (who,
    before, after) when there is one; documents annotated from now on use it (those
    already annotated keep their spans until re-annotated). Returns the change, or
    None when the configuration was already this one."""
    after = config.to_dict()
    check_pattern_limits(after)
    stored = DetectionConfig.objects.select_for_update().filter(corpus=corpus).first()
    before = stored.data if stored is not None else None
    if stored is None:
        DetectionConfig.objects.create(corpus=corpus, data=after, updated_by=user)
    elif before != after:
        stored.data, stored.updated_by = after, user
        stored.save(update_fields=["data", "updated_by", "updated_at"])
    if (before if before is not None else DEFAULT_SETTINGS.to_dict()) == after:
        return None
    return DetectionConfigChange.objects.create(corpus=corpus, user=user, before=before, after=after)


def document_extract_then_queue(*, document_id: int) -> bool:
    """Extract an uploaded document's text (ingestion), then queue its
    pre-annotation. Also when this is a redelivery after a crash between the
    extraction and the queueing: a document waiting for annotation always gets
    its (idempotent) task. Returns whether annotation was queued."""
    extracted = document_extract(document_id=document_id, delivery=jobs.current_delivery())
    waiting = Document.objects.filter(pk=document_id, status=DocumentStatus.ANNOTATING, claimed_at__isnull=True)
    if extracted or waiting.exists():
        jobs.enqueue(jobs.ANNOTATE, document_id)
        return True
    return False
