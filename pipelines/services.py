"""Django glue for the engine: annotation of a document, export of a corpus."""

import logging
from bisect import bisect_left
from dataclasses import asdict, dataclass, field
from datetime import timedelta
from pathlib import Path

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db import DatabaseError, transaction
from django.db.models import F, Q
from django.utils import timezone

from anonymizer_site.task_policy import TRANSIENT_ERRORS
from ingestion.models import Corpus, Document, DocumentStatus
from ingestion.services import document_fail
from ingestion.storage import private_storage
from pipelines.candidate import Candidate
from pipelines.detection.config import DEFAULT as DEFAULT_SETTINGS
from pipelines.detection.config import ConfigError
from pipelines.detection.config import DetectionConfig as DetectionSettings
from pipelines.detection.pipeline import DetectionResult, Progress, detect_text
from pipelines.export.writer import ExportDocument, ExportWriter, LeakError, render_document
from pipelines.extraction.transcript_layout import Locator
from pipelines.models import (
    ACTIVE_RUN_STATUSES,
    SCOPE_STATUSES,
    AnnotationRun,
    Consistency,
    DetectionConfig,
    DetectionConfigChange,
    DocumentDetection,
    ExportBatch,
    ExportScope,
    ExportStatus,
    RunKind,
    RunStatus,
)
from pipelines.pseudonym_store import corpus_secret, load_map, save_map
from pipelines.pseudonymize.counters import NumberedMap
from pipelines.pseudonymize.engine import PseudonymizationConfig
from review.models import ReviewEvent, Span, SpanStatus

logger = logging.getLogger(__name__)


def corpus_detection_settings(corpus_id: int) -> DetectionSettings:
    """The corpus's detection configuration, or the default pipeline's."""
    data = DetectionConfig.objects.filter(corpus_id=corpus_id).values_list("data", flat=True).first()
    return DetectionSettings.from_dict(data)


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


def _finish_run(run_id: int, status: str, **values) -> None:
    AnnotationRun.objects.filter(pk=run_id).update(status=status, finished_at=timezone.now(), **values)


def _span_rows(document_id: int, candidates: list[Candidate]) -> list[Span]:
    return [
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
        for c in candidates
    ]


def document_annotate(*, document_id: int) -> bool:
    """Run the corpus's detection pipeline and store its spans as pending, with
    what was filtered and why. Progress is kept on the document's pre-annotation
    run. Idempotent: a document that is no longer waiting for annotation is left
    alone."""
    document = Document.objects.filter(pk=document_id, status=DocumentStatus.ANNOTATING).first()
    if document is None:
        return False
    try:
        config = corpus_detection_settings(document.corpus_id)
    except ConfigError as exc:
        document_fail(document=document, message=f"{ANNOTATION_FAILED}: invalid detection configuration ({exc}).")
        return False
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
            "counts": {},
            "message": "",
        },
    )
    try:
        result = detect_text(
            document.text, settings.SPACY_MODEL, document.metadata, config, progress=_progress_writer(run.pk)
        )
    except Exception as exc:
        logger.exception("annotation of document %s failed", document_id)
        message = f"{ANNOTATION_FAILED} ({type(exc).__name__})."
        document_fail(document=document, message=message)
        _finish_run(run.pk, RunStatus.FAILED, message=message)
        return False
    if result.timed_out:
        logger.warning(
            "document %s: %d corpus pattern(s) timed out and were skipped", document_id, len(result.timed_out)
        )
    with transaction.atomic():
        locked = Document.objects.select_for_update().filter(pk=document_id, status=DocumentStatus.ANNOTATING)
        if not locked.exists():
            return False
        Span.objects.bulk_create(_span_rows(document_id, result.spans), ignore_conflicts=True)
        DocumentDetection.objects.update_or_create(document_id=document_id, defaults=_detection_record(config, result))
        locked.update(status=DocumentStatus.READY, updated_at=timezone.now())
        _finish_run(run.pk, RunStatus.DONE, done=F("total"), counts={"added": len(result.spans)})
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
    # configuration that no longer validated: running it again is the fix.
    return (
        document.status == DocumentStatus.FAILED
        and document.error_message.startswith(ANNOTATION_FAILED)
        and Document.objects.filter(pk=document.pk).exclude(text="").exists()
    )


def _enqueue_runs(run_ids: list[int]) -> None:
    from pipelines.tasks import reannotate_document

    for run_id in run_ids:
        reannotate_document.delay(run_id)


def _enqueue_annotations(document_ids: list[int]) -> None:
    from pipelines.tasks import annotate_document

    for document_id in document_ids:
        annotate_document.delay(document_id)


@transaction.atomic
def document_reannotate_request(*, document: Document, user: AbstractBaseUser) -> AnnotationRun | None:
    """Queue a new machine pass over an annotated document with the corpus's
    current configuration (see `document_reannotate`). A document whose
    pre-annotation failed is pre-annotated again instead (returns None). Asking
    twice while a run is queued or running returns that run."""
    # Serializes requests for this document (two clicks, or a corpus-wide request):
    # the check for an active run below then holds.
    Document.objects.select_for_update().filter(pk=document.pk).exists()
    if document.status not in REANNOTATABLE_STATUSES:
        if _retryable_failure(document):
            Document.objects.filter(pk=document.pk, status=DocumentStatus.FAILED).update(
                status=DocumentStatus.ANNOTATING, error_message="", updated_at=timezone.now()
            )
            transaction.on_commit(lambda: _enqueue_annotations([document.pk]))
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
    run = AnnotationRun.objects.create(document=document, kind=RunKind.REANNOTATE, requested_by=user)
    transaction.on_commit(lambda: _enqueue_runs([run.pk]))
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
        [AnnotationRun(document_id=pk, kind=RunKind.REANNOTATE, requested_by=user) for pk in sorted(eligible - busy)]
    )
    failed = documents.filter(status=DocumentStatus.FAILED, error_message__startswith=ANNOTATION_FAILED).exclude(
        text=""
    )
    retried = list(failed.values_list("pk", flat=True))
    if retried:
        Document.objects.filter(pk__in=retried, status=DocumentStatus.FAILED).update(
            status=DocumentStatus.ANNOTATING, error_message="", updated_at=timezone.now()
        )
    run_ids = [run.pk for run in runs]
    transaction.on_commit(lambda: (_enqueue_runs(run_ids), _enqueue_annotations(retried)))
    total = documents.count()
    return CorpusReannotation(
        queued=len(runs),
        retried=len(retried),
        already_queued=len(eligible & busy),
        not_eligible=total - len(eligible) - len(retried),
    )


def _claim_run(run_id: int) -> bool:
    """Claim a queued re-annotation, or take over one whose worker died (running
    for longer than the task's hard time limit): one conditional UPDATE."""
    stale = timezone.now() - timedelta(seconds=settings.CELERY_TASK_TIME_LIMIT)
    return bool(
        AnnotationRun.objects.filter(pk=run_id, kind=RunKind.REANNOTATE)
        .filter(Q(status=RunStatus.QUEUED) | Q(status=RunStatus.RUNNING, started_at__lt=stale))
        .update(status=RunStatus.RUNNING, started_at=timezone.now(), done=0)
    )


def _is_human(span: Span) -> bool:
    """A span a person decided or made: accepted, rejected (and so relabelled or
    resized, which accept), added, or linked to an entity."""
    return span.status != SpanStatus.PENDING or span.created_by_id is not None or bool(span.entity)


def _overlap_test(spans: list[Span]):
    """`overlaps(start, end)` against the given spans, in O(log n): spans sorted by
    start, with the running maximum of their ends."""
    ordered = sorted((s.start, s.end) for s in spans)
    starts = [start for start, _ in ordered]
    reach: list[int] = []
    for _, end in ordered:
        reach.append(max(end, reach[-1]) if reach else end)

    def overlaps(start: int, end: int) -> bool:
        i = bisect_left(starts, end)  # spans that start before `end`
        return i > 0 and reach[i - 1] > start

    return overlaps


def document_reannotate(*, run_id: int) -> bool:
    """Run the corpus's current configuration over a document again, keeping the
    reviewers' work: spans a person decided, added or linked stay as they are and
    no new candidate overlapping one is added; pending machine spans are replaced
    by the new run's (those the new run finds again keep their row, so an open
    review page and the audit still point at them). A reviewed document that gets
    pending spans back is in review again. Idempotent: only a queued run is run."""
    if not _claim_run(run_id):
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
    AnnotationRun.objects.filter(pk=run_id).update(total=len(document.text), config=config.to_dict())
    try:
        result = detect_text(
            document.text, settings.SPACY_MODEL, document.metadata, config, progress=_progress_writer(run_id)
        )
    except Exception as exc:
        logger.exception("re-annotation run %s of document %s failed", run_id, document.pk)
        _finish_run(run_id, RunStatus.FAILED, message=f"Re-annotation failed ({type(exc).__name__}).")
        return False
    try:
        return _store_reannotation(run_id, document.pk, config, result)
    except TRANSIENT_ERRORS:
        # The task is retried (task_policy): hand the run back so the retry can
        # claim it again instead of finding it "running" and leaving it there.
        AnnotationRun.objects.filter(pk=run_id, status=RunStatus.RUNNING).update(status=RunStatus.QUEUED)
        raise


@transaction.atomic
def _store_reannotation(run_id: int, document_id: int, config: DetectionSettings, result: DetectionResult) -> bool:
    locked = Document.objects.select_for_update().only("id", "status").get(pk=document_id)
    claimed = AnnotationRun.objects.select_for_update().filter(pk=run_id, status=RunStatus.RUNNING).exists()
    if not claimed:
        return False
    if locked.status not in REANNOTATABLE_STATUSES:
        _finish_run(run_id, RunStatus.SKIPPED, message=f"The document is {locked.get_status_display().lower()}.")
        return False
    counts = _apply_reannotation(document_id, result.spans)
    # New spans appeared: a reviewer's add or resize planned against the old ones
    # must now be refused as stale (review/bulk_sql.py checks this revision).
    Document.objects.filter(pk=document_id).update(spans_revision=F("spans_revision") + 1)
    DocumentDetection.objects.update_or_create(document_id=document_id, defaults=_detection_record(config, result))
    if locked.status == DocumentStatus.REVIEWED and counts["added"] + counts["unchanged"]:
        Document.objects.filter(pk=document_id).update(status=DocumentStatus.IN_REVIEW, updated_at=timezone.now())
        counts["status"] = [DocumentStatus.REVIEWED, DocumentStatus.IN_REVIEW]
    _finish_run(run_id, RunStatus.DONE, done=F("total"), counts=counts)
    return True


def _apply_reannotation(document_id: int, candidates: list[Candidate]) -> dict:
    # Locked so that a reviewer's decision cannot land between reading a pending
    # span and deleting it: the decision waits, then finds the span gone (and is
    # refused as stale) or lands first and is preserved.
    spans = list(Span.objects.select_for_update().filter(document_id=document_id))
    preserved = [s for s in spans if _is_human(s)]
    machine = {(s.start, s.end, s.label): s for s in spans if not _is_human(s)}
    overlaps_preserved = _overlap_test(preserved)
    new: dict[tuple[int, int, str], Candidate] = {}
    skipped = 0
    for c in candidates:
        if overlaps_preserved(c.start, c.end):
            skipped += 1
        else:
            new[(c.start, c.end, c.label)] = c
    removed = [s.pk for key, s in machine.items() if key not in new]
    changed = []
    for key, span in machine.items():
        c = new.get(key)
        if c is not None and (span.sources, span.score, span.rule) != (list(c.sources), round(c.score, 4), c.rule):
            span.sources, span.score, span.rule = list(c.sources), round(c.score, 4), c.rule
            changed.append(span)
    added = [c for key, c in new.items() if key not in machine]
    if removed:
        Span.objects.filter(pk__in=removed).delete()
    if changed:
        Span.objects.bulk_update(changed, ["sources", "score", "rule"], batch_size=1000)
    Span.objects.bulk_create(_span_rows(document_id, added), ignore_conflicts=True)
    return {
        "added": len(added),
        "removed": len(removed),
        "unchanged": len(new) - len(added),
        "preserved": len(preserved),
        "skipped_overlap": skipped,
    }


@dataclass(frozen=True)
class ExportOptions:
    scope: str = ExportScope.APPROVED
    accept_pending: bool = False
    strategy: str = "placeholder"
    per_label: dict[str, str] = field(default_factory=dict)
    person_numbering: str = "part"
    consistency: str = Consistency.DOCUMENT
    include_index: bool = True

    def validate(self) -> None:
        """Raise ValueError with a message for the user on any invalid option."""
        if self.scope not in SCOPE_STATUSES:
            raise ValueError(f"unknown scope {self.scope!r}")
        if self.consistency not in Consistency.values:
            raise ValueError(f"unknown consistency {self.consistency!r}")
        PseudonymizationConfig(self.strategy, dict(self.per_label), self.person_numbering)


@transaction.atomic
def export_create(
    *, corpus: Corpus, user: AbstractBaseUser | None, options: ExportOptions | None = None
) -> ExportBatch:
    from pipelines.tasks import export_batch

    options = options or ExportOptions()
    options.validate()
    batch = ExportBatch.objects.create(corpus=corpus, created_by=user, **asdict(options))
    transaction.on_commit(lambda: export_batch.delay(batch.pk))
    return batch


def _export_documents(batch: ExportBatch):
    return (
        Document.objects.filter(corpus_id=batch.corpus_id, status__in=SCOPE_STATUSES[batch.scope])
        .order_by("id")
        .iterator(chunk_size=50)
    )


def _export_document(document: Document, accept_pending: bool) -> ExportDocument:
    statuses = [SpanStatus.ACCEPTED, SpanStatus.PENDING] if accept_pending else [SpanStatus.ACCEPTED]
    spans = list(document.spans.filter(status__in=statuses).select_related("created_by").order_by("start"))
    # Who decided each span: the last reviewer event on it, in the same query count
    # for every document (one query).
    reviewers = dict(
        ReviewEvent.objects.filter(span__in=spans)
        .order_by("span_id", "created_at", "id")
        .values_list("span_id", "user__username")
    )
    # Exports cite where each span was in the original: PDF page and line.
    where = Locator(document.layout).locate
    return ExportDocument(
        id=document.pk,
        name=document.name,
        text=document.text,
        spans=[Candidate(s.start, s.end, s.label, s.text, tuple(s.sources), s.score, s.rule, s.entity) for s in spans],
        span_meta={
            (s.start, s.end, s.label): {
                "status": s.status,
                "added_by": s.created_by.get_username() if s.created_by else None,
                "reviewer": reviewers.get(s.pk),
                "page_line": where(s.start),
            }
            for s in spans
        },
    )


def _fail(batch: ExportBatch, message: str, report: list | None = None) -> None:
    batch.status = ExportStatus.FAILED
    batch.error_message = message
    batch.report = report or []
    batch.finished_at = timezone.now()
    batch.save(update_fields=["status", "error_message", "report", "finished_at"])


@transaction.atomic
def _claim_export(batch_id: int) -> bool:
    """Claim a queued batch, or take over one whose worker died (running for longer
    than the task's hard time limit). A corpus-wide export waits for no other: it
    fails fast while another one of the same corpus runs, since both would hand out
    numbers from the same stored map."""
    batch = ExportBatch.objects.select_for_update().select_related("corpus").filter(pk=batch_id).first()
    stale = timezone.now() - timedelta(seconds=settings.CELERY_TASK_TIME_LIMIT)
    if batch is None or not (
        batch.status == ExportStatus.QUEUED or (batch.status == ExportStatus.RUNNING and batch.created_at < stale)
    ):
        return False
    if batch.consistency == Consistency.CORPUS:
        Corpus.objects.select_for_update().filter(pk=batch.corpus_id).first()  # serializes the check below
        busy = (
            ExportBatch.objects.filter(
                corpus_id=batch.corpus_id,
                consistency=Consistency.CORPUS,
                status=ExportStatus.RUNNING,
                created_at__gte=stale,
            )
            .exclude(pk=batch.pk)
            .exists()
        )
        if busy:
            _fail(batch, "Another corpus-wide export of this corpus is running; start this one when it has finished.")
            return False
    batch.status = ExportStatus.RUNNING
    batch.save(update_fields=["status"])
    return True


def export_run(*, batch_id: int) -> bool:
    """Build the zip for a batch, streaming documents one at a time into a file in
    private storage. Idempotent: only a queued batch is run."""
    if not _claim_export(batch_id):
        return False
    batch = ExportBatch.objects.select_related("corpus").get(pk=batch_id)
    total = Document.objects.filter(corpus_id=batch.corpus_id, status__in=SCOPE_STATUSES[batch.scope]).count()
    ExportBatch.objects.filter(pk=batch_id).update(total=total)
    if total == 0:
        _fail(batch, f"No document matches “{batch.get_scope_display()}”: approve documents, or choose another scope.")
        return False
    config = PseudonymizationConfig(
        batch.strategy, dict(batch.per_label), batch.person_numbering, secret=corpus_secret(batch.corpus)
    )
    corpus_wide = batch.consistency == Consistency.CORPUS
    shared_numbers = load_map(batch.corpus) if corpus_wide else None
    relative = f"exports/corpus{batch.corpus_id}_export{batch.pk}.zip"
    path = Path(private_storage().path(relative))
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        with open(path, "wb") as target:
            writer = ExportWriter(target, batch.settings_summary(), include_index=batch.include_index)
            try:
                for n, document in enumerate(_export_documents(batch), start=1):
                    numbers = shared_numbers if corpus_wide else NumberedMap()
                    writer.add(render_document(_export_document(document, batch.accept_pending), config, numbers))
                    ExportBatch.objects.filter(pk=batch_id).update(done=n)
            finally:
                writer.close()
    except LeakError as exc:
        path.unlink(missing_ok=True)
        _fail(batch, f"Leak check failed: {exc}. Nothing was written.", exc.report())
        return False
    except Exception as exc:
        logger.exception("export %s failed", batch_id)
        path.unlink(missing_ok=True)
        _fail(batch, f"Export failed ({type(exc).__name__}: {exc}).")
        return False
    if corpus_wide:
        save_map(batch.corpus, shared_numbers)
    batch.file.name = relative
    batch.status = ExportStatus.DONE
    batch.finished_at = timezone.now()
    batch.save(update_fields=["file", "status", "finished_at"])
    ExportBatch.objects.filter(pk=batch_id).update(done=F("total"))
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
