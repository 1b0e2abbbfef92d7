"""Learning from review, corpus memory (issue 17): does approving the earlier part of a
real transcript make the machine's proposals on the later part better?

For each real-transcript gold document (evaluation/gold/*.jsonl: Ferguson volume I and
the demo hearing), one corpus of its own: the text is cut at page breaks (blank lines;
line ends in the demo, which has none) into PARTS parts, never inside a gold span; the
first half is the earlier part, the second half the later part. Everything goes through
the services, as in the app, in a scratch database (SQLite by default, or
BENCH_DATABASE_URL), Celery eager:

1. the later parts are uploaded and pre-annotated (no memory yet): "before";
2. the earlier parts are uploaded, pre-annotated and reviewed as a reviewer following
   the gold would (each proposal accepted if it overlaps a gold span of its label group,
   or a neutral one; rejected otherwise; every gold span not proposed exactly is added),
   marked reviewed and approved: the approval feeds the corpus memory;
3. the later parts are re-annotated (the re-annotation service): "after".

Scored on the later parts with evaluation/realgold.py (neutral flags honoured, the same
figures as ../shared/tools/score_spans.py, which is also run on the same files when it
is there): false positives and misses (all labels, untyped, overlap), PERSON exact
precision/recall, leak recall on name characters, and the reviewer's actions on the
later part with apply-to-all (one decision per distinct text, label and verdict, one
add per distinct missed name) per decided span.

    .venv/bin/python bench/bench_learning.py
"""

import json
import os
import subprocess
import sys
import tempfile
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
SCRATCH = tempfile.mkdtemp(prefix="bench-learning-")
os.environ["DATABASE_URL"] = os.environ.get("BENCH_DATABASE_URL", f"sqlite:///{SCRATCH}/bench.sqlite3")
os.environ["CELERY_BROKER_URL"] = "memory://"
os.environ["CELERY_TASK_ALWAYS_EAGER"] = "true"
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "anonymizer_site.settings")
os.environ.setdefault("ANONYMIZER_VAR_DIR", SCRATCH)
# Parts per gold document: the first half is approved, the second half measured.
# Ferguson volume I has 75 pages (blank lines) of about 870 characters: 12 parts are
# documents of about 6 pages. BENCH_LEARNING_PARTS=6 cuts it in 6 instead.
PARTS = {"ferguson_vol1": int(os.environ.get("BENCH_LEARNING_PARTS", "12")), "demo_hearing": 4}
SHARED_SCORER = ROOT.parent / "shared" / "tools" / "score_spans.py"

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.contrib.auth import get_user_model  # noqa: E402
from django.core.management import call_command  # noqa: E402

from evaluation.realgold import GROUP, GoldDoc, gold_report, read_gold  # noqa: E402
from ingestion.models import Corpus, Document  # noqa: E402
from pipelines.candidate import Candidate  # noqa: E402
from pipelines.detection.config import RULE_NAMES, DetectionConfig  # noqa: E402
from review.models import CorpusMembership, Role, Span, SpanStatus  # noqa: E402
from review.services.annotation import document_reannotate_request  # noqa: E402
from review.services.corpus_memory import active_suppressions, corpus_memory  # noqa: E402
from review.services.decisions import span_accept, span_add, span_reject  # noqa: E402
from review.services.detection_config import detection_config_save  # noqa: E402
from review.services.uploads import ingest_document  # noqa: E402
from review.services.workflow import document_approve, document_mark_reviewed  # noqa: E402

# The detection configurations compared, each in corpora of its own. The default
# pipeline's hand-written precision filters were written while reading this very
# gold (and its score calibration is fitted on it), so its false positives here are
# few; with the filters off, the pipeline stands for a corpus whose false alarms no
# hand-written rule knows yet, which is what the memory is for.
CONFIGS = {
    "default": DetectionConfig(),
    "filters off": DetectionConfig(disabled_filters=frozenset(RULE_NAMES)),
}


def _group(label: str) -> str:
    return GROUP.get(label, label)


def _inside_span(doc: GoldDoc, position: int) -> bool:
    return any(s < position < e for s, e, _ in doc.counted + doc.neutral)


def cuts(doc: GoldDoc, parts: int) -> list[tuple[int, int]]:
    """[start, end) of each part: cut at the page break (blank line) nearest each
    n/parts of the text, or at a line end when there is none, never inside a gold span."""
    text = doc.text
    breaks = [i + 2 for i in range(len(text) - 1) if text[i : i + 2] == "\n\n"]
    if len(breaks) < parts * 2:
        breaks = [i + 1 for i, c in enumerate(text) if c == "\n"]
    breaks = [b for b in breaks if not _inside_span(doc, b)]
    bounds = [0]
    for n in range(1, parts):
        target = len(text) * n // parts
        bounds.append(min((b for b in breaks if b > bounds[-1]), key=lambda b: abs(b - target)))
    bounds.append(len(text))
    return list(zip(bounds, bounds[1:], strict=False))


def part_gold(doc: GoldDoc, n: int, start: int, end: int) -> GoldDoc:
    def inside(spans):
        return [(s - start, e - start, label) for s, e, label in spans if start <= s and e <= end]

    return GoldDoc(f"{doc.id}#{n}", doc.text[start:end], inside(doc.counted), inside(doc.neutral))


def upload(corpus: Corpus, user, gold: GoldDoc) -> Document:
    document, _ = ingest_document(corpus=corpus, name=f"{gold.id}.txt", data=gold.text.encode(), user=user)
    document.refresh_from_db()
    if document.status != "ready" or document.text != gold.text:
        raise SystemExit(f"{gold.id}: {document.status} {document.error_message}")
    return document


def _right(span: Span | Candidate, gold: GoldDoc) -> bool:
    return any(
        span.start < e and s < span.end and _group(label) == _group(span.label) for s, e, label in gold.counted
    ) or any(span.start < e and s < span.end for s, e, _ in gold.neutral)


def review_as_gold(document: Document, gold: GoldDoc, reviewer) -> None:
    """Decide every proposal as the gold says, add what the machine missed, one span at a time."""
    while span := Span.objects.filter(document=document, status=SpanStatus.PENDING).order_by("start", "pk").first():
        if _right(span, gold):
            span_accept(span=span, user=reviewer, all_occurrences=False)
        else:
            span_reject(span=span, user=reviewer, reason="false_positive", all_occurrences=False)
    for start, end, label in gold.counted:
        accepted = Span.objects.filter(document=document, status=SpanStatus.ACCEPTED, start=start, end=end)
        if not any(_group(s.label) == _group(label) for s in accepted):
            document.refresh_from_db()
            span_add(document=document, user=reviewer, start=start, end=end, label=label, all_occurrences=False)
    document.refresh_from_db()
    document_mark_reviewed(document=document, user=reviewer)


def predictions(document: Document) -> list[Candidate]:
    return [
        Candidate(s.start, s.end, s.label, s.text, tuple(s.sources), s.score, s.rule)
        for s in Span.objects.filter(document=document).order_by("start", "end")
    ]


def actions(golds: list[GoldDoc], preds: dict[str, list[Candidate]]) -> tuple[int, int]:
    """(reviewer actions with apply-to-all, spans decided) to bring the later part to the gold."""
    groups: set[tuple] = set()
    adds: set[tuple] = set()
    decided = 0
    for gold in golds:
        found = preds[gold.id]
        for c in found:
            groups.add((" ".join(c.text.split()).casefold(), c.label, _right(c, gold)))
        decided += len(found)
        for s, e, label in gold.counted:
            if not any((c.start, c.end) == (s, e) and _group(c.label) == _group(label) for c in found):
                adds.add((" ".join(gold.text[s:e].split()).casefold(), label))
                decided += 1
    return len(groups) + len(adds), decided


def figures(golds: list[GoldDoc], preds: dict[str, list[Candidate]]) -> dict:
    report = gold_report(golds, preds)
    overlap = report.views["ALL untyped overlap"]
    person = report.views["PERSON exact"]
    n_actions, decided = actions(golds, preds)
    return {
        "proposals": sum(len(p) for p in preds.values()),
        "false_positives": overlap.n_pred - overlap.tp_pred,
        "misses": overlap.n_gold - overlap.tp_gold,
        "person_precision": person.tp_pred / person.n_pred if person.n_pred else 0.0,
        "person_recall": person.tp_gold / person.n_gold if person.n_gold else 0.0,
        "leak_recall": report.leak_recall,
        "actions": n_actions,
        "actions_per_span": n_actions / decided if decided else 0.0,
        "top_false_positives": report.false_positives.most_common(8),
    }


def shared_scorer(golds: list[GoldDoc], preds: dict[str, list[Candidate]], name: str) -> dict | None:
    """The shared scorer's summary on the same files, when it is there."""
    if not SHARED_SCORER.exists():
        return None
    gold_path, pred_path = Path(SCRATCH) / f"{name}-gold.jsonl", Path(SCRATCH) / f"{name}-pred.jsonl"
    with gold_path.open("w", encoding="utf-8") as g, pred_path.open("w", encoding="utf-8") as p:
        for gold in golds:
            spans = [{"start": s, "end": e, "label": label} for s, e, label in gold.counted]
            spans += [{"start": s, "end": e, "label": label, "optional": True} for s, e, label in gold.neutral]
            spans.sort(key=lambda x: x["start"])
            g.write(json.dumps({"id": gold.id, "text": gold.text, "spans": spans}) + "\n")
            found = [{"start": c.start, "end": c.end, "label": c.label} for c in preds[gold.id]]
            p.write(json.dumps({"id": gold.id, "spans": found}) + "\n")
    out = subprocess.run(
        [sys.executable, str(SHARED_SCORER), str(gold_path), str(pred_path), "--summary-json"],
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def run_document(doc: GoldDoc, variant: str, admin, reviewer) -> dict:
    corpus = Corpus.objects.create(name=f"learning-{doc.id}-{variant}-{os.getpid()}")
    detection_config_save(corpus=corpus, user=admin, config=CONFIGS[variant])
    CorpusMembership.objects.create(corpus=corpus, user=admin, role=Role.ADMIN)
    CorpusMembership.objects.create(corpus=corpus, user=reviewer, role=Role.REVIEWER)
    parts = [part_gold(doc, n, s, e) for n, (s, e) in enumerate(cuts(doc, PARTS[doc.id]), start=1)]
    half = len(parts) // 2
    earlier, later = parts[:half], parts[half:]
    later_docs = {gold.id: upload(corpus, admin, gold) for gold in later}
    before = {gid: predictions(d) for gid, d in later_docs.items()}
    for gold in earlier:
        document = upload(corpus, admin, gold)
        review_as_gold(document, gold, reviewer)
        document.refresh_from_db()
        document_approve(document=document, user=admin)
    for document in later_docs.values():
        document_reannotate_request(document=document, user=admin)
    after = {gid: predictions(d) for gid, d in later_docs.items()}
    memory = corpus_memory(corpus.pk)
    return {
        "id": doc.id,
        "variant": variant,
        "earlier": (len(earlier), sum(len(g.text) for g in earlier), sum(len(g.counted) for g in earlier)),
        "later": (len(later), sum(len(g.text) for g in later), sum(len(g.counted) for g in later)),
        "names": len(memory.names) if memory else 0,
        "suppressions": active_suppressions(corpus.pk).count(),
        "suppressed_forms": sorted(s.form for s in (memory.suppressions if memory else ())),
        "before": figures(later, before),
        "after": figures(later, after),
        "shared_before": shared_scorer(later, before, f"{doc.id}-before"),
        "shared_after": shared_scorer(later, after, f"{doc.id}-after"),
        "remembered": sum(1 for p in after.values() for c in p if "corpus-memory" in c.sources),
    }


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def table(results: list[dict]) -> str:
    rows = [
        "| gold (later part) | configuration | run | proposals | false positives | misses | PERSON P / R (exact) "
        "| leak recall | actions (per decided span) |",
        "|---|---|---|---:|---:|---:|---|---:|---|",
    ]
    for r in results:
        for run in ("before", "after"):
            f = r[run]
            rows.append(
                f"| {r['id']} | {r['variant']} | {run} | {f['proposals']} | {f['false_positives']} | {f['misses']} "
                f"| {_pct(f['person_precision'])} / {_pct(f['person_recall'])} | {_pct(f['leak_recall'])} "
                f"| {f['actions']} ({f['actions_per_span']:.2f}) |"
            )
    return "\n".join(rows)


def main() -> None:
    call_command("migrate", verbosity=0)
    stamp = os.getpid()
    admin = get_user_model().objects.create_user(f"learning-admin-{stamp}", password="x")
    reviewer = get_user_model().objects.create_user(f"learning-reviewer-{stamp}", password="x")
    docs = [doc for doc in read_gold() if doc.id in PARTS]
    results = [run_document(doc, variant, admin, reviewer) for variant in CONFIGS for doc in docs]
    for r in results:
        print(
            f"{r['id']} ({r['variant']}): earlier {r['earlier'][0]} parts, {r['earlier'][1]} chars, "
            f"{r['earlier'][2]} gold spans; later {r['later'][0]} parts, {r['later'][1]} chars, "
            f"{r['later'][2]} gold spans"
        )
        print(
            f"  memory: {r['names']} names, {r['suppressions']} suppressions {r['suppressed_forms']}; "
            f"{r['remembered']} later spans carry corpus-memory"
        )
        for run in ("before", "after"):
            f = r[run]
            print(f"  {run}: {json.dumps({k: v for k, v in f.items() if k != 'top_false_positives'})}")
            print(f"    false positives: {f['top_false_positives']}")
            shared = r[f"shared_{run}"]
            if shared:
                print(f"    shared scorer: {json.dumps(shared)}")
    print(table(results))
    for variant in CONFIGS:
        mine = [r for r in results if r["variant"] == variant]
        fp = [sum(r[run]["false_positives"] for r in mine) for run in ("before", "after")]
        missed = [sum(r[run]["misses"] for r in mine) for run in ("before", "after")]
        fewer = _pct((fp[0] - fp[1]) / fp[0]) if fp[0] else "n/a"
        print(
            f"{variant}: false positives on the later parts {fp[0]} → {fp[1]} ({fewer} fewer); "
            f"misses {missed[0]} → {missed[1]}"
        )
    print(
        f"model {settings.SPACY_MODEL}, k = {settings.CORPUS_SUPPRESSION_MIN_DOCUMENTS}, parts {PARTS}, "
        f"{datetime.now(UTC):%Y-%m-%d %H:%M} UTC"
    )


if __name__ == "__main__":
    main()
