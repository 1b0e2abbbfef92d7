"""A corpus model's training run (issue 17), run by the `review.train_corpus_model`
task with the version's id.

1. The corpus's approved documents, in approval order; the most recently approved
   CORPUS_TRAINING_HOLDOUT_FRACTION (at least CORPUS_TRAINING_MIN_HOLDOUT) are held out.
2. Each document becomes training examples, one per window of at most
   CORPUS_TRAINING_EXAMPLE_CHARS characters cut at line ends, each the training-data
   export's document (`pipelines.export.formats.training_doc`, the DocBin/CoNLL
   export): accepted spans are entities, rejected spans explicit `O` negatives (see
   `pipelines.training`). A document whose examples fail is left out of the run and
   named in its message; the run goes on without it.
3. The base model's NER is fine-tuned on them, with rehearsal on the base model's own
   predictions over unrelated text, for at most CORPUS_TRAINING_MAX_STEPS batches or
   CORPUS_TRAINING_TIME_LIMIT_SECONDS.
4. Base and candidate are scored on the held-out documents; the version directory
   gets the model, `meta.json`, `config.cfg` (training/config.cfg set to this run) and
   `train.spacy` / `dev.spacy`, so that `spacy train` reproduces it outside the app.
5. `corpus_model_finish` activates it or refuses it by the rule.
"""

import logging
import os
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from django.conf import settings
from django.db import DatabaseError
from django.db.models import Max, Q
from django.utils import timezone

from ingestion.models import Document, DocumentStatus
from pipelines import training
from pipelines.detection.models.catalog import corpus_trainable
from review.models import CorpusModelVersion, ReviewAction, Span, SpanStatus
from review.services import corpus_models, jobs
from review.services.spans import to_candidate

if TYPE_CHECKING:  # spaCy is imported by the engine where a model is trained
    from spacy.language import Language
    from spacy.tokens import Doc

logger = logging.getLogger(__name__)
CONFIG_TEMPLATE = Path(settings.BASE_DIR) / "training" / "config.cfg"
# Left-out documents named in a run's message (the rest counted; meta.json and the
# version's config list them all).
NAMED_LEFT_OUT = 10


def approved_in_order(corpus_id: int) -> list[int]:
    """The corpus's approved documents, the earliest approved first (the time of
    their last approval event; the id breaks ties and stands in when none)."""
    rows = (
        Document.objects.filter(corpus_id=corpus_id, status=DocumentStatus.APPROVED)
        .annotate(approved_at=Max("review_events__created_at", filter=Q(review_events__action=ReviewAction.APPROVE)))
        .values_list("pk", "approved_at")
    )
    return [pk for pk, _ in sorted(rows, key=lambda r: (r[1] is not None, r[1] or 0, r[0]))]


def split_heldout(document_ids: list[int]) -> tuple[list[int], list[int]]:
    """(train, held out): the most recently approved fraction is held out."""
    n = len(document_ids)
    held = max(settings.CORPUS_TRAINING_MIN_HOLDOUT, round(n * settings.CORPUS_TRAINING_HOLDOUT_FRACTION))
    held = min(held, n - 1)
    return document_ids[: n - held], document_ids[n - held :]


def reviewed_texts(document_ids: list[int]) -> list[training.ReviewedText]:
    """Approved documents with their accepted and rejected spans: two queries."""
    texts = dict(Document.objects.filter(pk__in=document_ids).values_list("pk", "text"))
    accepted: dict[int, list] = {pk: [] for pk in document_ids}
    rejected: dict[int, list] = {pk: [] for pk in document_ids}
    for span in Span.objects.filter(
        document_id__in=document_ids, status__in=[SpanStatus.ACCEPTED, SpanStatus.REJECTED]
    ).order_by("document_id", "start"):
        (accepted if span.status == SpanStatus.ACCEPTED else rejected)[span.document_id].append(to_candidate(span))
    return [training.ReviewedText(pk, texts[pk], accepted[pk], rejected[pk]) for pk in document_ids]


def _progress(version_id: int, delivery: str):
    every = max(1, settings.CORPUS_TRAINING_PROGRESS_EVERY)

    def report(done: int, total: int) -> None:
        # Every Nth step: progress is for display, not worth a write per batch.
        if done % every and done != total:
            return
        try:
            corpus_models.corpus_model_progress(version_id=version_id, delivery=delivery, done=done, total=total)
        except DatabaseError:
            logger.warning("progress of corpus model %s not saved", version_id, exc_info=True)

    return report


def corpus_model_train(*, version_id: int, delivery: str | None = None) -> bool:
    """Train, save and judge one version. Idempotent: a version that is not queued
    (or held by this delivery) is left alone."""
    delivery = delivery or jobs.current_delivery()
    if not corpus_models.corpus_model_claim(version_id=version_id, delivery=delivery):
        return False
    version = CorpusModelVersion.objects.get(pk=version_id)
    try:
        with corpus_models.corpus_model_heartbeat(version_id=version_id, delivery=delivery):
            return _train(version, delivery)
    except Exception as exc:
        logger.exception("training of corpus model %s failed", version_id)
        # The exception's text may quote the documents (a token, a span): the
        # admin sees only its type; the log above has the rest.
        corpus_models.corpus_model_fail(
            version_id=version_id,
            delivery=delivery,
            message=f"Training failed with an internal error ({type(exc).__name__}); the server log has the details.",
        )
        return False


@dataclass
class _Run:
    """One run's plan: its documents and its configuration."""

    version: CorpusModelVersion
    delivery: str
    config: dict
    train: list[training.ReviewedText]
    heldout: list[training.ReviewedText]


@dataclass
class _Prepared:
    """The run's training examples (one per chunk of each document) and the
    documents that could not be made into examples, left out with their error's type."""

    train: list[training.ReviewedText] = field(default_factory=list)
    heldout: list[training.ReviewedText] = field(default_factory=list)
    train_docs: list["Doc"] = field(default_factory=list)
    dev_docs: list["Doc"] = field(default_factory=list)
    left_out: list[tuple[int, str]] = field(default_factory=list)

    def note(self) -> str:
        """The left-out documents by id (a name may itself be personal) and error
        type (an error's text may quote the document)."""
        if not self.left_out:
            return ""
        named = ", ".join(f"document #{pk} ({error})" for pk, error in self.left_out[:NAMED_LEFT_OUT])
        if len(self.left_out) > NAMED_LEFT_OUT:
            named += f" and {len(self.left_out) - NAMED_LEFT_OUT} more"
        return f"Left out, their training examples failed: {named}; the server log has the details."


def _judge(version: CorpusModelVersion, nlp: "Language") -> "Language":
    """The model the candidate must beat: the one the corpus detects with. When that
    is an encoder model (its names not fine-tunable), the run fine-tunes another
    base's NER (corpus_models.corpus_training_base), and is judged against the
    encoder model all the same."""
    detecting = corpus_models.corpus_base_model(version.corpus_id)
    if detecting == version.base_model or corpus_trainable(detecting):
        return nlp
    return training.load_full(detecting)


def _train(version: CorpusModelVersion, delivery: str) -> bool:
    run = _plan(version, delivery)
    if run is None:
        return False
    nlp = training.load_full(version.base_model)
    prepared = _prepare(nlp, run)
    if not prepared.train_docs or not prepared.heldout:
        side = "learn from" if not prepared.train_docs else "judge on"
        message = f"Training has no document left to {side}. {prepared.note()}".strip()
        corpus_models.corpus_model_fail(version_id=version.pk, delivery=delivery, message=message)
        return False
    if prepared.left_out and not _replan(run, prepared):
        return False
    base_scores = training.evaluate(_judge(version, nlp), prepared.heldout)
    rehearsal = training.rehearsal_docs(nlp, training.rehearsal_texts())
    report = training.fine_tune(
        nlp,
        prepared.train_docs,
        rehearsal,
        max_steps=run.config["max_steps"],
        time_limit=run.config["time_limit_seconds"],
        seed=run.config["seed"],
        batch_size=run.config["batch_size"],
        dropout=run.config["dropout"],
        learn_rate=run.config["learn_rate"],
        progress=_progress(version.pk, delivery),
    )
    candidate_scores = training.evaluate(nlp, prepared.heldout)
    metrics = {"base": base_scores.to_dict(), "candidate": candidate_scores.to_dict()}
    if not _save(nlp, run, prepared, rehearsal, report, metrics):
        return False
    message = " ".join(m for m in (report.stopped, prepared.note()) if m)
    corpus_models.corpus_model_finish(version_id=version.pk, metrics=metrics, message=message, delivery=delivery)
    return True


def _plan(version: CorpusModelVersion, delivery: str) -> _Run | None:
    """The documents and configuration, recorded on the version before training
    (None: too few documents, or the run was superseded)."""
    ordered = approved_in_order(version.corpus_id)
    if len(ordered) < 2:
        corpus_models.corpus_model_fail(
            version_id=version.pk,
            delivery=delivery,
            message="Training needs at least two approved documents (one to learn from, one to judge on).",
        )
        return None
    train_ids, heldout_ids = split_heldout(ordered)
    config = {
        "max_steps": settings.CORPUS_TRAINING_MAX_STEPS,
        "time_limit_seconds": settings.CORPUS_TRAINING_TIME_LIMIT_SECONDS,
        "batch_size": settings.CORPUS_TRAINING_BATCH_SIZE,
        "dropout": settings.CORPUS_TRAINING_DROPOUT,
        "learn_rate": settings.CORPUS_TRAINING_LEARN_RATE,
        "seed": 42,
        "holdout_fraction": settings.CORPUS_TRAINING_HOLDOUT_FRACTION,
        "min_holdout": settings.CORPUS_TRAINING_MIN_HOLDOUT,
        "max_precision_loss": settings.CORPUS_MODEL_MAX_PRECISION_LOSS,
        "negatives": "rejected spans as explicit O tokens; unannotated tokens O; labels the NER lacks missing",
        "rehearsal": "base model's predictions on pipelines/rehearsal.txt",
        # One training example per window of a document, cut at line ends (chunks.py).
        "example_chars": settings.CORPUS_TRAINING_EXAMPLE_CHARS,
        "threads": os.environ.get("OMP_NUM_THREADS", ""),
    }
    if not corpus_models.corpus_model_plan(
        version_id=version.pk, delivery=delivery, train=train_ids, heldout=heldout_ids, config=config
    ):
        return None  # superseded before it started
    return _Run(version, delivery, config, reviewed_texts(train_ids), reviewed_texts(heldout_ids))


def _prepare(nlp: "Language", run: _Run) -> _Prepared:
    """Every document's training examples. A document that fails fails alone: it is
    left out of this run and named in its message, and the run goes on without it
    (were it fatal, every later run of the corpus would fail on it too)."""
    prepared = _Prepared()
    for items, kept, docs in (
        (run.train, prepared.train, prepared.train_docs),
        (run.heldout, prepared.heldout, prepared.dev_docs),
    ):
        for item in items:
            try:
                examples = training.reviewed_docs(nlp, item, run.config["example_chars"])
            except Exception as exc:
                logger.exception("document %s left out of corpus model %s", item.doc_id, run.version.pk)
                prepared.left_out.append((item.doc_id, type(exc).__name__))
                continue
            kept.append(item)
            docs.extend(examples)
    return prepared


def _replan(run: _Run, prepared: _Prepared) -> bool:
    """The version lists the documents it was trained and judged on, not the ones
    left out (deleting one of those has nothing of the version's to delete)."""
    run.config["left_out_documents"] = [{"document": pk, "error": error} for pk, error in prepared.left_out]
    return corpus_models.corpus_model_plan(
        version_id=run.version.pk,
        delivery=run.delivery,
        train=[i.doc_id for i in prepared.train],
        heldout=[i.doc_id for i in prepared.heldout],
        config=run.config,
    )


def _save(
    nlp: "Language",
    run: _Run,
    prepared: _Prepared,
    rehearsal: list["Doc"],
    report: training.TrainingReport,
    metrics: dict,
) -> bool:
    """The version's directory: the model, its training data, the config that
    reproduces it and meta.json. False (and no files left): superseded meanwhile."""
    version = run.version
    relative = f"corpus-{version.corpus_id}/v{version.version}"
    directory = Path(settings.CORPUS_MODELS_DIR) / relative
    if directory.exists():  # a previous delivery's partial files
        shutil.rmtree(directory)
    directory.mkdir(parents=True)
    nlp.to_disk(directory / "model")
    training.write_docbin([*prepared.train_docs, *rehearsal], directory / "train.spacy")
    training.write_docbin(prepared.dev_docs, directory / "dev.spacy")
    (directory / "config.cfg").write_text(
        training.spacy_train_config(
            CONFIG_TEMPLATE,
            base_model=version.base_model,
            max_steps=report.steps,
            vectors=bool(nlp.vocab.vectors.shape[0]),
        ),
        encoding="utf-8",
    )
    size = training.directory_size(directory / "model")
    training.write_meta(directory / "meta.json", _meta(run, prepared, len(rehearsal), report, metrics, size))
    saved = corpus_models.corpus_model_files_saved(
        version_id=version.pk,
        delivery=run.delivery,
        path=relative,
        steps=report.steps,
        config={**run.config, "steps": report.steps, "seconds": report.seconds, "size_bytes": size},
    )
    if not saved:
        # Superseded while training (failed as stale, or a document it learnt from
        # was deleted): its files must not stay behind.
        shutil.rmtree(directory, ignore_errors=True)
    return saved


def _meta(
    run: _Run, prepared: _Prepared, rehearsal: int, report: training.TrainingReport, metrics: dict, size: int
) -> dict:
    return {
        "corpus": run.version.corpus_id,
        "version": run.version.version,
        "base_model": run.version.base_model,
        "created_at": timezone.now().isoformat(),
        "training_documents": [i.doc_id for i in prepared.train],
        "heldout_documents": [i.doc_id for i in prepared.heldout],
        "left_out_documents": [{"document": pk, "error": error} for pk, error in prepared.left_out],
        "training_examples": len(prepared.train_docs),
        "rehearsal_paragraphs": rehearsal,
        "configuration": run.config,
        "training": {"steps": report.steps, "seconds": report.seconds, "stopped": report.stopped},
        "metrics": metrics,
        "reproduce": (
            "python -m spacy train config.cfg --output out --paths.train train.spacy --paths.dev dev.spacy "
            "(train.spacy: the training documents, one example per chunk, and the rehearsal; dev.spacy: the "
            "held-out documents)"
        ),
        "size_bytes": size,
    }
