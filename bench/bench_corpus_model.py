"""Learning from review, corpus model (issue 17): does a NER fine-tuned on the earlier,
approved part of a real transcript make fewer false alarms on the later part?

The split and the reviewer are bench/bench_learning.py's (the corpus-memory bench):
each real-transcript gold document (Ferguson volume I, the demo hearing) is cut at
page breaks into parts, never inside a gold span; the first half is uploaded,
pre-annotated, reviewed as a reviewer following the gold would, and approved, through
the services, in a scratch database. Then a corpus model is trained through the
training service (review/services/corpus_training.py, the Celery task's service:
its own held-out documents are the most recently approved earlier parts), and the
later parts are detected by the full default pipeline twice, with no corpus memory so
that the figures are the model's alone: with the base model ("before") and with the
candidate ("after"), whatever the activation rule decided. Scored with
evaluation/realgold.py (the shared scorer's figures).

    OMP_NUM_THREADS=1 nice -n 5 .venv/bin/python bench/bench_corpus_model.py

BENCH_CORPUS_MODEL_STEPS (default 60) and BENCH_CORPUS_MODEL_SECONDS (default 300)
bound each training run.
"""

import json
import os
import sys
import time
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
os.environ.setdefault("OMP_NUM_THREADS", "1")

import bench_learning as learning  # noqa: E402  (sets up Django on a scratch database)
from django.conf import settings  # noqa: E402
from django.contrib.auth import get_user_model  # noqa: E402
from django.core.management import call_command  # noqa: E402

from evaluation.realgold import read_gold  # noqa: E402
from ingestion.models import Corpus  # noqa: E402
from pipelines.detection.config import RULE_NAMES, DetectionConfig  # noqa: E402
from pipelines.detection.pipeline import detect_text  # noqa: E402
from pipelines.training import directory_size, load_full, predict_spans  # noqa: E402
from review.models import AnnotationRun, CorpusMembership, CorpusModelVersion, Role, RunKind  # noqa: E402
from review.services.annotation import document_reannotate_request  # noqa: E402
from review.services.corpus_models import corpus_model_rollback, corpus_training_start, model_directory  # noqa: E402
from review.services.corpus_training import corpus_model_train  # noqa: E402
from review.services.workflow import document_approve  # noqa: E402

STEPS = int(os.environ.get("BENCH_CORPUS_MODEL_STEPS", "200"))
# The default pipeline, and the pipeline with its hand-written precision filters off
# (they were written while reading this very gold: with them off, the pipeline stands
# for a corpus whose false alarms no rule knows yet), both with the NER swapped; and
# the NER alone (names, places, organizations).
VARIANTS = {
    "default": DetectionConfig(),
    "filters off": DetectionConfig(disabled_filters=frozenset(RULE_NAMES)),
}
SECONDS = float(os.environ.get("BENCH_CORPUS_MODEL_SECONDS", "300"))


def run_document(doc, admin, reviewer) -> dict:
    corpus = Corpus.objects.create(name=f"corpus-model-{doc.id}-{os.getpid()}")
    CorpusMembership.objects.create(corpus=corpus, user=admin, role=Role.ADMIN)
    CorpusMembership.objects.create(corpus=corpus, user=reviewer, role=Role.REVIEWER)
    parts = [learning.part_gold(doc, n, s, e) for n, (s, e) in enumerate(learning.cuts(doc, learning.PARTS[doc.id]), 1)]
    half = len(parts) // 2
    earlier, later = parts[:half], parts[half:]
    # The later parts are in the corpus from the start (pre-annotated with the base).
    later_docs = {gold.id: learning.upload(corpus, admin, gold) for gold in later}
    for gold in earlier:
        document = learning.upload(corpus, admin, gold)
        learning.review_as_gold(document, gold, reviewer)
        document.refresh_from_db()
        document_approve(document=document, user=admin)
    started = time.monotonic()
    # Celery is eager here: the task runs when the start's transaction commits (the
    # second call finds the run taken and returns, as a duplicate message would).
    version = corpus_training_start(corpus_id=corpus.pk, user=admin)
    corpus_model_train(version_id=version.pk)
    seconds = time.monotonic() - started
    version.refresh_from_db()
    if not version.path:
        raise SystemExit(f"{doc.id}: training failed: {version.message}")
    model = str(model_directory(version) / "model")
    runs = {}
    for variant, config in VARIANTS.items():
        before = {g.id: detect_text(g.text, settings.SPACY_MODEL, config=config).spans for g in later}
        tuned = replace(config, model=model)
        after = {g.id: detect_text(g.text, model, config=tuned).spans for g in later}
        runs[variant] = (learning.figures(later, before), learning.figures(later, after))
    # Through the app: the admin activates the version whatever the rule said (the
    # rollback action), the later parts are re-annotated by the service, with the
    # corpus memory and the corpus model together, and each run records its model.
    status = version.status
    if version.status != "active":
        corpus_model_rollback(corpus_id=corpus.pk, version_id=version.pk, user=admin)
    for document in later_docs.values():
        document_reannotate_request(document=document, user=admin)
    recorded = sorted(
        set(
            AnnotationRun.objects.filter(
                document_id__in=[d.pk for d in later_docs.values()], kind=RunKind.REANNOTATE
            ).values_list("model", flat=True)
        )
    )
    runs["services: memory + corpus model"] = (
        runs["default"][0],
        learning.figures(later, {gid: learning.predictions(d) for gid, d in later_docs.items()}),
    )
    base_nlp, tuned_nlp = load_full(settings.SPACY_MODEL), load_full(model)
    runs["NER alone"] = (
        learning.figures(later, {g.id: predict_spans(base_nlp, g.text) for g in later}),
        learning.figures(later, {g.id: predict_spans(tuned_nlp, g.text) for g in later}),
    )
    return {
        "id": doc.id,
        "earlier": len(earlier),
        "later": (len(later), sum(len(g.text) for g in later), sum(len(g.counted) for g in later)),
        "version": version,
        "seconds": round(seconds, 1),
        "size_mb": round(directory_size(Path(model)) / 1e6, 1),
        "runs": runs,
        "status": status,
        "recorded": recorded,
    }


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def main() -> None:
    settings.CORPUS_TRAINING_MAX_STEPS = STEPS
    settings.CORPUS_TRAINING_TIME_LIMIT_SECONDS = SECONDS
    settings.CORPUS_TRAINING_EVERY_N_APPROVED = 0
    call_command("migrate", verbosity=0)
    stamp = os.getpid()
    admin = get_user_model().objects.create_user(f"cm-admin-{stamp}", password="x")
    reviewer = get_user_model().objects.create_user(f"cm-reviewer-{stamp}", password="x")
    docs = [doc for doc in read_gold() if doc.id in learning.PARTS]
    results = [run_document(doc, admin, reviewer) for doc in docs]
    rows = [
        "| gold (later part) | pipeline | model | proposals | false positives | misses | PERSON P / R (exact) "
        "| leak recall | actions (per decided span) |",
        "|---|---|---|---:|---:|---:|---|---:|---|",
    ]
    for r in results:
        v: CorpusModelVersion = r["version"]
        print(
            f"{r['id']}: {r['earlier']} earlier parts ({len(v.train_documents)} trained on, "
            f"{len(v.heldout_documents)} held out), later {r['later'][0]} parts, {r['later'][1]} chars, "
            f"{r['later'][2]} gold spans"
        )
        print(
            f"  v{v.version} {r['status']} (re-annotation runs recorded {r['recorded']}): "
            f"{v.config.get('steps')} steps, fine-tuning {v.config.get('seconds')} s, "
            f"whole run {r['seconds']} s (service), "
            f"model {r['size_mb']} MB; held-out: {json.dumps(v.metrics)}"
        )
        for variant, pair in r["runs"].items():
            for run, f in zip(("base", "corpus model"), pair, strict=True):
                shown = {k: val for k, val in f.items() if k != "top_false_positives"}
                print(f"  {variant} / {run}: {json.dumps(shown)}")
                print(f"    false positives: {f['top_false_positives']}")
                rows.append(
                    f"| {r['id']} | {variant} | {run} | {f['proposals']} | {f['false_positives']} | {f['misses']} "
                    f"| {_pct(f['person_precision'])} / {_pct(f['person_recall'])} | {_pct(f['leak_recall'])} "
                    f"| {f['actions']} ({f['actions_per_span']:.2f}) |"
                )
    print("\n".join(rows))
    for variant in [*VARIANTS, "services: memory + corpus model", "NER alone"]:
        fp = [sum(r["runs"][variant][i]["false_positives"] for r in results) for i in (0, 1)]
        missed = [sum(r["runs"][variant][i]["misses"] for r in results) for i in (0, 1)]
        print(
            f"{variant}: false positives on the later parts {fp[0]} → {fp[1]}"
            f" ({_pct((fp[0] - fp[1]) / fp[0]) if fp[0] else 'n/a'} fewer); misses {missed[0]} → {missed[1]}"
        )
    print(f"base {settings.SPACY_MODEL}, steps ≤ {STEPS}, ≤ {SECONDS:g} s, {datetime.now(UTC):%Y-%m-%d %H:%M} UTC")


if __name__ == "__main__":
    main()
