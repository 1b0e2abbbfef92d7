"""Scoring on the hand-checked real-transcript gold (evaluation/gold/*.jsonl),
with its neutral flags honoured as the shared scorer (../shared/tools/score_spans.py)
does: a gold span flagged "generic" or "optional" is never a miss, and a prediction
that touches one (and matches no counted span) is neither right nor wrong.

Views: PERSON (+SPELLED_NAME) and all labels untyped, exact and overlap; leak
recall (the share of alphanumeric name characters any prediction covers); the
false positives listed by text. And the score calibration: features per predicted
span, a logistic fit cross-validated across document sections, the reliability
table of the out-of-fold probabilities (`calibrate`)."""

import json
import math
import re
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path

from pipelines.candidate import Candidate
from pipelines.detection.merging import calibration
from pipelines.detection.pipeline import detect_texts

GOLD_DIR = Path(__file__).with_name("gold")
PERSONISH = frozenset({"PERSON", "SPELLED_NAME"})
GROUP = {"SPELLED_NAME": "PERSON", "DATE": "DATETIME", "TIME": "DATETIME", "DATE_TIME": "DATETIME"}
# Sections for cross-validation: documents cut at line ends every this many characters.
SECTION_CHARS = 8000


@dataclass
class GoldDoc:
    id: str
    text: str
    counted: list[tuple[int, int, str]]
    neutral: list[tuple[int, int, str]]
    # The labels this gold annotates (None: all of them). GUM's gold marks names
    # only: a predicted DATE there is neither right nor wrong.
    labels: frozenset[str] | None = None


def read_gold(paths: Iterable[Path] | None = None) -> list[GoldDoc]:
    docs = []
    for path in sorted(paths or GOLD_DIR.glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            if not line.strip():
                continue
            d = json.loads(line)
            spans = d.get("spans", [])
            flagged = [s for s in spans if s.get("generic") or s.get("optional")]
            docs.append(
                GoldDoc(
                    d["id"],
                    d["text"],
                    [(s["start"], s["end"], s["label"]) for s in spans if s not in flagged],
                    [(s["start"], s["end"], s["label"]) for s in flagged],
                    frozenset(d["labels"]) if d.get("labels") else None,
                )
            )
    return docs


# The pronoun "I" (and "I'm", "I'll"): speech recognition that writes in lower case
# often keeps its capital.
_PRONOUN_I = re.compile(r"\bi\b")


def recased(doc: GoldDoc, case: str) -> GoldDoc:
    """`doc` with its text lower-cased, lower-cased but for the pronoun "I" (`asr`, as
    speech recognition often writes), or in capitals, for the caseless checks: every
    character keeps its offset (a text whose case mapping changes its length, "ß",
    is refused), so the spans still hold."""
    if case == "upper":
        text = doc.text.upper()
    else:
        text = doc.text.lower()
        if case == "asr":
            text = _PRONOUN_I.sub("I", text)
    if len(text) != len(doc.text):
        raise ValueError(f"{doc.id}: its {case}-case text changes length; the spans would not hold")
    return replace(doc, text=text)


def _overlaps(a: tuple[int, int], b: tuple[int, int]) -> bool:
    return a[0] < b[1] and b[0] < a[1]


def _group(label: str) -> str:
    return GROUP.get(label, label)


@dataclass
class Counts:
    tp_pred: int = 0
    n_pred: int = 0
    tp_gold: int = 0
    n_gold: int = 0

    def add(self, other: "Counts") -> None:
        self.tp_pred += other.tp_pred
        self.n_pred += other.n_pred
        self.tp_gold += other.tp_gold
        self.n_gold += other.n_gold

    @property
    def precision(self) -> float:
        return self.tp_pred / self.n_pred if self.n_pred else math.nan

    @property
    def recall(self) -> float:
        return self.tp_gold / self.n_gold if self.n_gold else math.nan


def _is_right(span: tuple[int, int, str], gold: list[tuple[int, int, str]], mode: str, typed: bool) -> bool:
    s, e, label = span
    if mode == "exact":
        return any((gs, ge) == (s, e) and (not typed or _group(gl) == _group(label)) for gs, ge, gl in gold)
    return any(_overlaps((s, e), (gs, ge)) and (not typed or _group(gl) == _group(label)) for gs, ge, gl in gold)


def score(
    gold: list[tuple[int, int, str]],
    neutral: list[tuple[int, int, str]],
    preds: list[tuple[int, int, str]],
    mode: str,
    typed: bool = False,
) -> tuple[Counts, list[tuple[int, int, str]]]:
    """Counts and the false positives, as the shared scorer counts them."""
    counts, false = Counts(), []
    for span in dict.fromkeys(preds):
        if _is_right(span, gold, mode, typed):
            counts.tp_pred += 1
            counts.n_pred += 1
        elif any(_overlaps(span[:2], n[:2]) for n in neutral):
            continue
        else:
            counts.n_pred += 1
            false.append(span)
    for span in gold:
        counts.n_gold += 1
        counts.tp_gold += _is_right(span, preds, mode, typed)
    return counts, false


@dataclass
class GoldReport:
    views: dict[str, Counts] = field(default_factory=dict)
    leak_chars: int = 0
    leak_covered: int = 0
    names: int = 0
    names_covered: int = 0
    false_positives: Counter = field(default_factory=Counter)

    @property
    def leak_recall(self) -> float:
        return self.leak_covered / self.leak_chars if self.leak_chars else math.nan


def gold_report(docs: list[GoldDoc], predictions: dict[str, list[Candidate]]) -> GoldReport:
    report = GoldReport()
    for doc in docs:
        preds = [(c.start, c.end, c.label) for c in predictions[doc.id]]
        person = [g for g in doc.counted if g[2] in PERSONISH]
        for view, gold, neutral, pred in (
            ("PERSON", person, [n for n in doc.neutral if n[2] in PERSONISH], [p for p in preds if p[2] in PERSONISH]),
            ("ALL untyped", doc.counted, doc.neutral, preds),
        ):
            for mode in ("exact", "overlap"):
                counts, false = score(gold, neutral, pred, mode)
                report.views.setdefault(f"{view} {mode}", Counts()).add(counts)
                if view == "ALL untyped" and mode == "overlap":
                    report.false_positives.update((doc.text[s:e].replace("\n", "⏎"), label) for s, e, label in false)
        covered = bytearray(len(doc.text))
        for s, e, _ in preds:
            covered[s:e] = b"\x01" * (e - s)
        for s, e, _ in person:
            chars = [i for i in range(s, e) if doc.text[i].isalnum()]
            report.leak_chars += len(chars)
            hit = sum(covered[i] for i in chars)
            report.leak_covered += hit
            report.names += 1
            report.names_covered += hit == len(chars)
    return report


# Score thresholds a reviewer acts on: "accept all >= 0.9" (BULK_ACCEPT) and one below.
SCORE_BARS = (0.9, 0.8)


@dataclass
class LabelRow:
    """One label group's typed figures: exact and overlap counts as the shared
    scorer's typed view restricted to the label (every neutral gold span stays
    neutral), and, per score bar, the spans the reviewer sees at or above it
    with the shipped score and how many of them are right (`samples`' rule)."""

    exact: Counts = field(default_factory=Counts)
    overlap: Counts = field(default_factory=Counts)
    at_bar: dict[float, list[int]] = field(default_factory=dict)  # bar -> [spans, right]


def label_report(docs: list[GoldDoc], predictions: dict[str, list[Candidate]]) -> dict[str, LabelRow]:
    rows: dict[str, LabelRow] = {}
    for doc in docs:
        spans = predictions[doc.id]
        labels = {_group(g[2]) for g in doc.counted} | {_group(c.label) for c in spans}
        for label in sorted(labels):
            row = rows.setdefault(label, LabelRow())
            gold = [g for g in doc.counted if _group(g[2]) == label]
            preds = [(c.start, c.end, c.label) for c in spans if _group(c.label) == label]
            row.exact.add(score(gold, doc.neutral, preds, "exact")[0])
            row.overlap.add(score(gold, doc.neutral, preds, "overlap")[0])
        for c in spans:
            key = (c.start, c.end, c.label)
            right = _is_right(key, doc.counted, "overlap", typed=True)
            touches = _is_right(key, doc.counted, "overlap", typed=False)
            if not right and not touches and any(_overlaps(key[:2], n[:2]) for n in doc.neutral):
                continue
            row = rows[_group(c.label)]
            for bar in SCORE_BARS:
                if c.score >= bar:
                    counts = row.at_bar.setdefault(bar, [0, 0])
                    counts[0] += 1
                    counts[1] += right
    return rows


def detect(docs: list[GoldDoc], model: str) -> dict[str, list[Candidate]]:
    """What `manage.py detect` proposes on each gold text (no header metadata),
    less the labels a gold document does not annotate."""
    results = zip(docs, detect_texts((d.text for d in docs), model), strict=True)
    return {
        doc.id: [s for s in result.spans if doc.labels is None or GROUP.get(s.label, s.label) in doc.labels]
        for doc, result in results
    }


# --- calibration -----------------------------------------------------------------------------


def sections(doc: GoldDoc) -> Iterator[tuple[int, int]]:
    """The document cut at line ends about every SECTION_CHARS characters."""
    start = 0
    while start < len(doc.text):
        end = doc.text.find("\n", start + SECTION_CHARS)
        end = len(doc.text) if end < 0 else end + 1
        yield start, end
        start = end


@dataclass
class Sample:
    group: str
    features: list[float]
    right: int
    text: str


def samples(docs: list[GoldDoc], predictions: dict[str, list[Candidate]]) -> list[Sample]:
    """One sample per predicted span that touches a counted gold span or none: right
    when it overlaps a counted gold span of its label group (a reviewer keeps it
    with its label); spans touching only neutral gold are left out."""
    out = []
    for doc in docs:
        cuts = list(sections(doc))
        named = calibration.introduced(predictions[doc.id])
        for span in predictions[doc.id]:
            key = (span.start, span.end, span.label)
            right = _is_right(key, doc.counted, "overlap", typed=True)
            touches_counted = _is_right(key, doc.counted, "overlap", typed=False)
            if not right and not touches_counted and any(_overlaps(key[:2], n[:2]) for n in doc.neutral):
                continue  # neutral for the scorer: neither right nor wrong
            part = next(n for n, (a, b) in enumerate(cuts) if a <= span.start < b)
            out.append(
                Sample(f"{doc.id}#{part}", calibration.features(span, doc.text, named=named), int(right), span.text)
            )
    return out


def fit(xs: list[list[float]], ys: list[int], l2: float = 1.0, iterations: int = 60) -> list[float]:
    """L2-regularised logistic regression by Newton's method (the bias is not
    penalised). numpy only; a handful of features and a few hundred spans."""
    import numpy as np

    x = np.asarray(xs, dtype=float)
    y = np.asarray(ys, dtype=float)
    w = np.zeros(x.shape[1])
    penalty = np.full(x.shape[1], l2)
    penalty[0] = 1e-6
    for _ in range(iterations):
        p = 1.0 / (1.0 + np.exp(-np.clip(x @ w, -30, 30)))
        gradient = x.T @ (p - y) + penalty * w
        hessian = (x * (p * (1 - p))[:, None]).T @ x + np.diag(penalty)
        step = np.linalg.solve(hessian, gradient)
        w -= step
        if float(np.abs(step).max()) < 1e-8:
            break
    return [float(v) for v in w]


def _predict(w: list[float], x: list[float]) -> float:
    z = sum(a * b for a, b in zip(w, x, strict=True))
    return 1.0 / (1.0 + math.exp(-max(min(z, 30.0), -30.0)))


BINS = ((0.0, 0.5), (0.5, 0.7), (0.7, 0.8), (0.8, 0.9), (0.9, 0.95), (0.95, 1.0001))


@dataclass
class Calibration:
    weights: list[float]
    # Out-of-fold (leave one section out): (probability, right, text) per span.
    held_out: list[tuple[float, int, str]]
    groups: int

    def reliability(self) -> list[tuple[str, int, float, float]]:
        rows = []
        for low, high in BINS:
            inside = [(p, r) for p, r, _ in self.held_out if low <= p < high]
            if inside:
                mean = sum(p for p, _ in inside) / len(inside)
                rows.append(
                    (f"{low:.2f}–{min(high, 1.0):.2f}", len(inside), mean, sum(r for _, r in inside) / len(inside))
                )
        return rows

    def at_least(self, threshold: float) -> tuple[int, float]:
        kept = [r for p, r, _ in self.held_out if p >= threshold]
        return len(kept), (sum(kept) / len(kept) if kept else math.nan)


def calibrate(all_samples: list[Sample], l2: float = 1.0) -> Calibration:
    groups = sorted({s.group for s in all_samples})
    held_out = []
    for group in groups:
        train = [s for s in all_samples if s.group != group]
        if not train:
            # A gold of one short section leaves nothing to fit a fold on: its
            # reliability is simply not reported (the fit on all of it still is).
            continue
        w = fit([s.features for s in train], [s.right for s in train], l2)
        held_out += [
            (calibration.capped(_predict(w, s.features), s.features), s.right, s.text)
            for s in all_samples
            if s.group == group
        ]
    weights = fit([s.features for s in all_samples], [s.right for s in all_samples], l2)
    return Calibration(weights, held_out, len(groups))


def calibration_model(model: str) -> str:
    """The registry name of `model` (a name, its package or its directory)."""
    from pipelines.detection.models.catalog import describe

    info = describe(model)
    if info is None:
        raise SystemExit(f"{model}: not a registry model; a calibration is fitted per registry model")
    return info.name


def parameters_path(model: str) -> Path:
    """Where the calibration fitted for `model` goes: `calibration.json` for the
    default model, `calibration.<registry name>.json` for another registry model
    (the engine reads it back by `calibration.parameters_for`)."""
    from pipelines.detection.config import DEFAULT_MODEL

    name = calibration_model(model)
    if name == DEFAULT_MODEL:
        return calibration.PARAMETERS
    return calibration.PARAMETERS.with_name(f"calibration.{name}.json")


def write_parameters(
    result: Calibration,
    path: Path = calibration.PARAMETERS,
    model: str | None = None,
    fitted_on: str = "evaluation/gold/*.jsonl",
) -> None:
    n, accuracy = result.at_least(calibration.BULK_ACCEPT)
    path.write_text(
        json.dumps(
            {
                "features": list(calibration.FEATURES),
                "weights": [round(w, 6) for w in result.weights],
                "model": model,
                "fitted_on": f"{fitted_on} (typed overlap correctness of `detect` output spans)",
                "cross_validation": {
                    "sections": result.groups,
                    "spans": len(result.held_out),
                    "held_out_at_or_above_bulk_accept": n,
                    "held_out_accuracy_at_or_above_bulk_accept": round(accuracy, 4),
                },
            },
            indent=2,
        )
        + "\n",
        encoding="utf-8",
    )
