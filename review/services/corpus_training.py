"""A corpus model's training run (issue 17), run by the `review.train_corpus_model`
task with the version's id.

1. The corpus's approved documents, in approval order; the most recently approved
   CORPUS_TRAINING_HOLDOUT_FRACTION (at least CORPUS_TRAINING_MIN_HOLDOUT) are held out.
2. Each document becomes the training-data export's document
   (`pipelines.export.formats.training_doc`, the DocBin/CoNLL export): accepted spans
   are entities, rejected spans explicit `O` negatives (see `pipelines.training`).
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
from pathlib import Path

from django.conf import settings
from django.db import DatabaseError
from django.db.models import Max, Q
from django.utils import timezone

from ingestion.models import Document, DocumentStatus
from pipelines import training
from review.models import CorpusModelVersion, ReviewAction, Span, SpanStatus
from review.services import corpus_models, jobs
from review.services.spans import to_candidate

logger = logging.getLogger(__name__)
CONFIG_TEMPLATE = Path(settings.BASE_DIR) / "training" / "config.cfg"


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


def _train(version: CorpusModelVersion, delivery: str) -> bool:
    ordered = approved_in_order(version.corpus_id)
    if len(ordered) < 2:
        corpus_models.corpus_model_fail(
            version_id=version.pk,
            delivery=delivery,
            message="Training needs at least two approved documents (one to learn from, one to judge on).",
        )
        return False
    train_ids, heldout_ids = split_heldout(ordered)
    train_items, heldout_items = reviewed_texts(train_ids), reviewed_texts(heldout_ids)
    max_steps = settings.CORPUS_TRAINING_MAX_STEPS
    time_limit = settings.CORPUS_TRAINING_TIME_LIMIT_SECONDS
    config = {
        "max_steps": max_steps,
        "time_limit_seconds": time_limit,
        "batch_size": settings.CORPUS_TRAINING_BATCH_SIZE,
        "dropout": settings.CORPUS_TRAINING_DROPOUT,
        "learn_rate": settings.CORPUS_TRAINING_LEARN_RATE,
        "seed": 42,
        "holdout_fraction": settings.CORPUS_TRAINING_HOLDOUT_FRACTION,
        "min_holdout": settings.CORPUS_TRAINING_MIN_HOLDOUT,
        "max_precision_loss": settings.CORPUS_MODEL_MAX_PRECISION_LOSS,
        "negatives": "rejected spans as explicit O tokens; unannotated tokens O; labels the NER lacks missing",
        "rehearsal": "base model's predictions on pipelines/rehearsal.txt",
        "threads": os.environ.get("OMP_NUM_THREADS", ""),
    }
    if not corpus_models.corpus_model_plan(
        version_id=version.pk, delivery=delivery, train=train_ids, heldout=heldout_ids, config=config
    ):
        return False  # superseded before it started

    nlp = training.load_full(version.base_model)
    base_scores = training.evaluate(nlp, heldout_items)
    train_docs = [training.reviewed_doc(nlp, item) for item in train_items]
    dev_docs = [training.reviewed_doc(nlp, item) for item in heldout_items]
    rehearsal = training.rehearsal_docs(nlp, training.rehearsal_texts())
    report = training.fine_tune(
        nlp,
        train_docs,
        rehearsal,
        max_steps=max_steps,
        time_limit=time_limit,
        seed=config["seed"],
        batch_size=config["batch_size"],
        dropout=config["dropout"],
        learn_rate=config["learn_rate"],
        progress=_progress(version.pk, delivery),
    )
    candidate_scores = training.evaluate(nlp, heldout_items)

    relative = f"corpus-{version.corpus_id}/v{version.version}"
    directory = Path(settings.CORPUS_MODELS_DIR) / relative
    if directory.exists():  # a previous delivery's partial files
        shutil.rmtree(directory)
    directory.mkdir(parents=True)
    nlp.to_disk(directory / "model")
    training.write_docbin([*train_docs, *rehearsal], directory / "train.spacy")
    training.write_docbin(dev_docs, directory / "dev.spacy")
    (directory / "config.cfg").write_text(
        training.spacy_train_config(
            CONFIG_TEMPLATE,
            base_model=version.base_model,
            max_steps=report.steps,
            vectors=bool(nlp.vocab.vectors.shape[0]),
        ),
        encoding="utf-8",
    )
    metrics = {"base": base_scores.to_dict(), "candidate": candidate_scores.to_dict()}
    meta = {
        "corpus": version.corpus_id,
        "version": version.version,
        "base_model": version.base_model,
        "created_at": timezone.now().isoformat(),
        "training_documents": train_ids,
        "heldout_documents": heldout_ids,
        "rehearsal_paragraphs": len(rehearsal),
        "configuration": config,
        "training": {"steps": report.steps, "seconds": report.seconds, "stopped": report.stopped},
        "metrics": metrics,
        "reproduce": (
            "python -m spacy train config.cfg --output out --paths.train train.spacy --paths.dev dev.spacy "
            "(train.spacy: the training documents and the rehearsal; dev.spacy: the held-out documents)"
        ),
        "size_bytes": training.directory_size(directory / "model"),
    }
    training.write_meta(directory / "meta.json", meta)
    saved = corpus_models.corpus_model_files_saved(
        version_id=version.pk,
        delivery=delivery,
        path=relative,
        steps=report.steps,
        config={**config, "steps": report.steps, "seconds": report.seconds, "size_bytes": meta["size_bytes"]},
    )
    if not saved:
        # Superseded while training (failed as stale, or a document it learnt from
        # was deleted): its files must not stay behind.
        shutil.rmtree(directory, ignore_errors=True)
        return False
    corpus_models.corpus_model_finish(version_id=version.pk, metrics=metrics, message=report.stopped, delivery=delivery)
    return True
