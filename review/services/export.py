"""Export of a corpus: approved spans → pseudonymized files in a zip, written by
the engine (pipelines.export) one document at a time. The one writer of
ExportBatch rows (and, through pseudonym_store, of PseudonymMap rows)."""

import json
import logging
from dataclasses import asdict, dataclass, field
from datetime import datetime
from pathlib import Path

from django.contrib.auth.models import AbstractBaseUser
from django.db import DatabaseError, transaction
from django.db.models import Count, F
from django.utils import timezone

from ingestion import work_queue
from ingestion.models import Corpus, Document
from ingestion.storage import private_storage
from ingestion.work_queue import Swept, WorkQueue
from pipelines.candidate import Candidate
from pipelines.export.gate import LeakError
from pipelines.export.leak_check import MANIFEST
from pipelines.export.quasi import QuasiFlag
from pipelines.export.writer import ExportDocument, ExportWriter, render_document
from pipelines.extraction.transcript_layout import Locator
from pipelines.labels import DIRECT_IDENTIFIER_LABELS
from pipelines.pseudonymize.counters import NumberedMap
from pipelines.pseudonymize.engine import PseudonymizationConfig
from review.models import (
    SCOPE_STATUSES,
    Consistency,
    ExportBatch,
    ExportScope,
    ExportStatus,
    ReviewEvent,
    Span,
    SpanStatus,
)
from review.services import jobs
from review.services.pseudonym_store import corpus_secret, load_map, save_map

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class ExportOptions:
    scope: str = ExportScope.APPROVED
    accept_pending: bool = False
    strategy: str = "placeholder"
    per_label: dict[str, str] = field(default_factory=dict)
    person_numbering: str = "part"
    consistency: str = Consistency.DOCUMENT
    include_index: bool = True
    keep_stems: bool = False

    def validate(self) -> None:
        """Raise ValueError with a message for the user on any invalid option."""
        if self.scope not in SCOPE_STATUSES:
            raise ValueError(f"unknown scope {self.scope!r}")
        if self.consistency not in Consistency.values:
            raise ValueError(f"unknown consistency {self.consistency!r}")
        PseudonymizationConfig(self.strategy, dict(self.per_label), self.person_numbering)


@transaction.atomic
def export_create(
    *, corpus: Corpus, user: AbstractBaseUser | None, options: ExportOptions | None = None, queue: bool = True
) -> ExportBatch:
    """A new export batch of the corpus, queued for a worker unless `queue` is
    False (the command line runs it in-process with `export_run`)."""
    options = options or ExportOptions()
    options.validate()
    batch = ExportBatch.objects.create(corpus=corpus, created_by=user, queued_at=timezone.now(), **asdict(options))
    if queue:
        jobs.enqueue_on_commit(jobs.EXPORT, batch.pk)
    return batch


# Documents fetched at a time: each may hold MAX_DOCUMENT_CHARS (3,000,000)
# characters, and the export holds one document at a time.
EXPORT_FETCH = 1


def _export_documents(batch: ExportBatch):
    return (
        Document.objects.filter(corpus_id=batch.corpus_id, status__in=SCOPE_STATUSES[batch.scope])
        .order_by("id")
        .iterator(chunk_size=EXPORT_FETCH)
    )


def _pending_left(batch: ExportBatch) -> dict[str, int]:
    """How many direct-identifier spans of the batch's documents are still pending,
    and in how many documents: written as they are unless pending spans are treated
    as accepted (then none is left). One query."""
    if batch.accept_pending:
        return {"spans": 0, "documents": 0}
    pending = Span.objects.filter(
        document__corpus_id=batch.corpus_id,
        document__status__in=SCOPE_STATUSES[batch.scope],
        status=SpanStatus.PENDING,
        label__in=DIRECT_IDENTIFIER_LABELS,
    )
    return pending.aggregate(spans=Count("pk"), documents=Count("document_id", distinct=True))


_SPAN_FIELDS = ("pk", "start", "end", "label", "text", "sources", "score", "rule", "entity", "status")


def _export_document(document: Document, accept_pending: bool, language: str = "en") -> ExportDocument:
    statuses = [SpanStatus.ACCEPTED, SpanStatus.PENDING] if accept_pending else [SpanStatus.ACCEPTED]
    # Rows, not model instances: a long document has a hundred thousand spans.
    rows = list(
        document.spans.filter(status__in=statuses).order_by("start").values_list(*_SPAN_FIELDS, "created_by__username")
    )
    # Who decided each span: the last reviewer event on it, in the same query count
    # for every document (one query).
    reviewers = dict(
        ReviewEvent.objects.filter(span__document_id=document.pk, span__status__in=statuses)
        .order_by("span_id", "created_at", "id")
        .values_list("span_id", "user__username")
    )
    # Exports cite where each span was in the original: PDF page and line.
    where = Locator(document.layout).locate
    # The quasi-identifier flags and their decisions (issue 18): one query.
    flags = document.quasi_identifiers.order_by("start", "end").values_list(
        "start", "end", "category", "decision", "generalised"
    )
    return ExportDocument(
        id=document.pk,
        name=document.name,
        text=document.text,
        spans=[
            Candidate(start, end, label, text, tuple(sources), score, rule, entity)
            for _pk, start, end, label, text, sources, score, rule, entity, _status, _by in rows
        ],
        span_meta={
            (start, end, label): {
                "status": status,
                "added_by": added_by,
                "reviewer": reviewers.get(pk),
                "page_line": where(start),
            }
            for pk, start, end, label, _text, _sources, _score, _rule, _entity, status, added_by in rows
        },
        quasi=[QuasiFlag(*row) for row in flags],
        language=language,
    )


# What each manifest setting is, in the words of a leak report; the corpus name is
# the settings' one free text, so the one a name can reach.
MANIFEST_SETTINGS = {"corpus": "the corpus name"}


def manifest_setting_at(settings: dict, offset: int) -> str | None:
    """The key of the setting whose entry holds character `offset` of `settings` as
    the leak gate reads them: `json.dumps(settings, ensure_ascii=False)`, what
    pipelines/export/writer.py hands the gate (tests/export/test_corpus_name_leak.py
    runs the real gate to keep the two in step). The gate's findings carry that
    offset and no text; this names the setting for the report, never its value.
    None when the offset is in no entry (a brace, a separator)."""
    position = len("{")
    for key, value in settings.items():
        entry = f"{json.dumps(key, ensure_ascii=False)}: {json.dumps(value, ensure_ascii=False)}"
        if position <= offset < position + len(entry):
            return key
        position += len(entry) + len(", ")
    return None


def _with_settings(report: list[dict], settings: dict) -> list[dict]:
    """The gate's report, each manifest finding with the key of the setting it is
    in (`setting`): the export's settings are known here, not after a rename."""
    return [
        {**row, "setting": manifest_setting_at(settings, row["output_offset"])} if row["where"] == MANIFEST else row
        for row in report
    ]


def settings_advice(setting: str | None) -> str:
    """What to do about an accepted name in the manifest's `setting` (its key;
    None when unknown). Names the setting, never its value."""
    if setting == "corpus" or setting is None:
        where = "The corpus name" if setting else "A setting of the export (the corpus name is their one free text)"
        return f"{where} holds an accepted name, and the manifest carries it: rename the corpus, then export again."
    return f"The export setting “{setting}” holds an accepted name: export again with other options."


def _leak_message(decision_text: str, report: list[dict]) -> str:
    message = f"Leak check failed: {decision_text}. Nothing was written."
    settings = {row.get("setting") for row in report if row["where"] == MANIFEST}
    # One sentence per setting, beside the gate's reasons: the report's own words
    # ("in the manifest's settings") do not say which one, nor what to do.
    return " ".join([message, *(settings_advice(setting) for setting in sorted(settings, key=str))])


def _fail(batch: ExportBatch, message: str, report: list | None = None) -> None:
    batch.status = ExportStatus.FAILED
    batch.error_message = message
    batch.report = report or []
    batch.finished_at = timezone.now()
    batch.save(update_fields=["status", "error_message", "report", "finished_at"])


EXPORT_FAILED = "Export failed"

# Export batches are a queue (ingestion.work_queue has the rules).
EXPORTS = WorkQueue(
    model=ExportBatch,
    waiting=ExportStatus.QUEUED,
    running=ExportStatus.RUNNING,
    failure=EXPORT_FAILED,
    failed=lambda message, now: {"status": ExportStatus.FAILED, "finished_at": now, "error_message": message},
    on_claim={"done": 0},
)


@transaction.atomic
def _claim_export(batch_id: int, delivery: str) -> bool:
    """Claim a queued batch, or take over one whose worker was lost (see
    ingestion.work_queue.claim). A corpus-wide export waits for no other: it
    fails fast while another one of the same corpus runs, since both would hand
    out numbers from the same stored map."""
    consistency = ExportBatch.objects.filter(pk=batch_id).values_list("corpus_id", "consistency").first()
    if consistency is None:
        return False
    corpus_id, corpus_wide = consistency[0], consistency[1] == Consistency.CORPUS
    if corpus_wide:
        Corpus.objects.select_for_update().filter(pk=corpus_id).first()  # serializes the check below
    if not work_queue.claim(EXPORTS, batch_id, delivery).taken:
        return False
    if corpus_wide:
        busy = (
            ExportBatch.objects.filter(corpus_id=corpus_id, consistency=Consistency.CORPUS)
            .filter(work_queue.live_q(EXPORTS))
            .exclude(pk=batch_id)
            .exists()
        )
        if busy:
            _fail(
                ExportBatch.objects.get(pk=batch_id),
                "Another corpus-wide export of this corpus is running; start this one when it has finished.",
            )
            return False
    return True


def batches_sweep(*, queued_before: datetime) -> Swept:
    """Batches whose worker is lost or whose message was lost (the broker was down
    when they were started), through the work queue's sweep."""
    return work_queue.sweep(EXPORTS, queued_before=queued_before)


def export_delete(*, batch: ExportBatch) -> None:
    """Delete an export batch and its zip (once the transaction commits)."""
    name = batch.file.name
    batch.delete()
    _delete_on_commit([name])


def exports_delete_files(*, corpus_id: int, since: datetime | None = None, reason: str) -> int:
    """Delete the zips of a corpus's exports (those made after `since`, when given:
    the ones that may contain a deleted document), keeping each batch's record
    with `reason`. Returns how many zips go."""
    batches = ExportBatch.objects.filter(corpus_id=corpus_id).exclude(file="")
    if since is not None:
        batches = batches.filter(created_at__gte=since)
    names = list(batches.values_list("file", flat=True))
    batches.update(file="", error_message=reason)
    _delete_on_commit(names)
    return len(names)


def _delete_on_commit(names: list[str]) -> None:
    def delete() -> None:
        storage = private_storage()
        for name in names:
            if name:
                storage.delete(name)

    transaction.on_commit(delete)


def _add_document(
    writer: ExportWriter, document: Document, batch: ExportBatch, config: PseudonymizationConfig, numbers: NumberedMap
) -> str | None:
    """Render one document and hand it to the writer. A document that cannot be
    rendered (any error but the gate's, which only `close` raises) fails alone:
    nothing of it is written, the manifest names it by id, and the problem is
    returned for the batch's message. None when it was added."""
    try:
        output = render_document(
            _export_document(document, batch.accept_pending, batch.corpus.language),
            config,
            numbers,
            keep_stem=batch.keep_stems,
        )
        writer.add(output)
    except DatabaseError:
        raise  # the database, not the document: the export fails as a whole
    except Exception as exc:
        logger.exception("export %s: document %s failed", batch.pk, document.pk)
        writer.skip(document.pk, type(exc).__name__)
        return f"document {document.pk} ({document.name}: {type(exc).__name__}: {str(exc)[:200]})"
    return None


def _failed_message(failed: list[str], total: int) -> str:
    if not failed:
        return ""
    written = total - len(failed)
    return (
        f"{len(failed)} of {total} document(s) could not be exported and are not in the zip (the other "
        f"{written} are): " + "; ".join(failed)
    )


def export_run(*, batch_id: int) -> bool:
    """Build the zip for a batch, streaming documents one at a time into a file in
    private storage. Idempotent: only a queued batch is run (or one whose worker
    was lost)."""
    delivery = jobs.current_delivery()
    if not _claim_export(batch_id, delivery):
        return False
    with work_queue.heartbeat(EXPORTS, batch_id, delivery):
        return _export(batch_id, delivery)


def _export(batch_id: int, delivery: str) -> bool:
    batch = ExportBatch.objects.select_related("corpus").get(pk=batch_id)
    total = Document.objects.filter(corpus_id=batch.corpus_id, status__in=SCOPE_STATUSES[batch.scope]).count()
    ExportBatch.objects.filter(pk=batch_id).update(total=total)
    if total == 0:
        _fail(batch, f"No document matches “{batch.get_scope_display()}”: approve documents, or choose another scope.")
        return False
    left = _pending_left(batch)
    config = PseudonymizationConfig(
        batch.strategy, dict(batch.per_label), batch.person_numbering, secret=corpus_secret(batch.corpus)
    )
    corpus_wide = batch.consistency == Consistency.CORPUS
    shared_numbers = load_map(batch.corpus) if corpus_wide else None
    relative = f"exports/corpus{batch.corpus_id}_export{batch.pk}.zip"
    path = Path(private_storage().path(relative))
    path.parent.mkdir(parents=True, exist_ok=True)
    failed: list[str] = []
    summary = {**batch.settings_summary(), "pending_direct_identifiers_left": left["spans"]}
    try:
        with open(path, "wb") as target:
            writer = ExportWriter(target, summary, include_index=batch.include_index)
            try:
                for n, document in enumerate(_export_documents(batch), start=1):
                    numbers = shared_numbers if corpus_wide else NumberedMap()
                    if problem := _add_document(writer, document, batch, config, numbers):
                        failed.append(problem)
                    ExportBatch.objects.filter(pk=batch_id).update(done=n)
            finally:
                writer.close()
    except LeakError as exc:
        # The gate decided (pipelines.export.gate); this only reports its decision.
        path.unlink(missing_ok=True)
        report = _with_settings(exc.decision.report(), summary)
        _fail(batch, _leak_message(exc.decision.explain(), report), report)
        return False
    except Exception as exc:
        logger.exception("export %s failed", batch_id)
        path.unlink(missing_ok=True)
        _fail(batch, f"Export failed ({type(exc).__name__}: {exc}).")
        return False
    if failed and len(failed) == total:
        path.unlink(missing_ok=True)
        _fail(batch, "No document could be exported: " + "; ".join(failed))
        return False
    with transaction.atomic():
        # Only while this delivery still holds the batch: a worker taken over as
        # lost must not write over its successor (nor its numbers into the map).
        done = work_queue.held(EXPORTS, batch_id, delivery).update(
            file=relative,
            status=ExportStatus.DONE,
            finished_at=timezone.now(),
            pending_left=left["spans"],
            pending_documents=left["documents"],
            error_message=_failed_message(failed, total),
            done=F("total"),
        )
        if done and corpus_wide:
            save_map(batch.corpus, shared_numbers)
    return bool(done)
