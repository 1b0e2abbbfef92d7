"""Precision, recall and F1 of detection against gold spans, per label and per source.

Plain Python: gold readers (CoNLL IOB, JSONL spans), label mapping, exact and
overlap matching. The `evaluate` command and `make eval` wrap it.
"""

import json
import resource
import time
from collections import defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from pipelines.detection.candidate import Candidate
from pipelines.detection.pipeline import detect_texts

# Gold tag → our label. MISC has no counterpart and is not scored.
GOLD_LABELS: dict[str, str] = {
    "PER": "PERSON",
    "PERSON": "PERSON",
    "LOC": "LOCATION",
    "GPE": "LOCATION",
    "LOCATION": "LOCATION",
    "ORG": "ORGANIZATION",
    "ORGANIZATION": "ORGANIZATION",
}


@dataclass(frozen=True)
class GoldSpan:
    start: int
    end: int
    label: str


@dataclass(frozen=True)
class GoldDocument:
    id: str
    text: str
    spans: list[GoldSpan]


def read_conll(path: Path, label_map: dict[str, str] = GOLD_LABELS) -> Iterator[GoldDocument]:
    """`token<TAB>IOB-tag` lines, blank line between sentences; tokens joined by spaces."""
    tokens: list[tuple[str, str]] = []
    number = 0

    def flush() -> GoldDocument:
        text_parts: list[str] = []
        spans: list[GoldSpan] = []
        offset = 0
        current: list = []  # [start, end, label]
        for token, tag in tokens:
            start = offset
            text_parts.append(token)
            offset += len(token) + 1
            end = start + len(token)
            prefix, _, kind = tag.partition("-")
            label = label_map.get(kind) if prefix in ("B", "I") else None
            if current and (prefix != "I" or label != current[2]):
                spans.append(GoldSpan(*current))
                current = []
            if label is not None:
                if current:
                    current[1] = end
                else:
                    current = [start, end, label]
        if current:
            spans.append(GoldSpan(*current))
        return GoldDocument(str(number), " ".join(text_parts), spans)

    with open(path, encoding="utf-8") as handle:
        for line in handle:
            line = line.rstrip("\n")
            if not line.strip():
                if tokens:
                    yield flush()
                    number += 1
                    tokens = []
                continue
            token, _, tag = line.partition("\t")
            tokens.append((token, tag.strip() or "O"))
    if tokens:
        yield flush()


def read_jsonl(path: Path, label_map: dict[str, str] = GOLD_LABELS) -> Iterator[GoldDocument]:
    """One `{"id", "text", "spans": [{"start", "end", "label"}]}` per line; our own
    label names pass through unchanged."""
    with open(path, encoding="utf-8") as handle:
        for number, line in enumerate(handle):
            if not line.strip():
                continue
            record = json.loads(line)
            spans = [
                GoldSpan(s["start"], s["end"], label_map.get(s["label"], s["label"])) for s in record.get("spans", [])
            ]
            yield GoldDocument(str(record.get("id", number)), record["text"], spans)


@dataclass
class Score:
    tp: int = 0
    fp: int = 0
    fn: int = 0

    @property
    def precision(self) -> float:
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else 0.0

    @property
    def recall(self) -> float:
        return self.tp / (self.tp + self.fn) if self.tp + self.fn else 0.0

    @property
    def f1(self) -> float:
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0

    def as_dict(self) -> dict:
        return {
            "tp": self.tp,
            "fp": self.fp,
            "fn": self.fn,
            "precision": round(self.precision, 4),
            "recall": round(self.recall, 4),
            "f1": round(self.f1, 4),
        }


def match(
    gold: list[GoldSpan], predicted: list[Candidate], labels: set[str], *, overlap: bool, scores: dict[str, Score]
) -> None:
    """Count one document. A prediction matches at most one gold span of its label."""
    predicted = [p for p in predicted if p.label in labels]
    used: set[int] = set()
    for g in gold:
        hit = None
        for i, p in enumerate(predicted):
            if i in used or p.label != g.label:
                continue
            if (p.start, p.end) == (g.start, g.end) or (overlap and p.start < g.end and g.start < p.end):
                hit = i
                break
        if hit is None:
            scores[g.label].fn += 1
        else:
            used.add(hit)
            scores[g.label].tp += 1
    for i, p in enumerate(predicted):
        if i not in used:
            scores[p.label].fp += 1


@dataclass
class Report:
    documents: int = 0
    characters: int = 0
    seconds: float = 0.0
    peak_rss_mb: float = 0.0
    # system ("ensemble" or a source name) → mode ("exact"/"overlap") → label → Score
    scores: dict[str, dict[str, dict[str, Score]]] = field(default_factory=dict)

    def as_dict(self) -> dict:
        return {
            "documents": self.documents,
            "characters": self.characters,
            "chars_per_second": round(self.characters / self.seconds) if self.seconds else None,
            "peak_rss_mb": round(self.peak_rss_mb, 1),
            "scores": {
                system: {mode: {label: s.as_dict() for label, s in sorted(per.items())} for mode, per in modes.items()}
                for system, modes in self.scores.items()
            },
        }

    def table(self) -> str:
        rows = [
            "| system | label | match | precision | recall | F1 | tp | fp | fn |",
            "|---|---|---|---|---|---|---|---|---|",
        ]
        for system, modes in self.scores.items():
            for mode, per in modes.items():
                for label, s in sorted(per.items()):
                    rows.append(
                        f"| {system} | {label} | {mode} | {s.precision:.3f} | {s.recall:.3f} | {s.f1:.3f} "
                        f"| {s.tp} | {s.fp} | {s.fn} |"
                    )
        return "\n".join(rows)


def _dedupe(candidates: Iterable[Candidate]) -> list[Candidate]:
    seen: dict[tuple[int, int, str], Candidate] = {}
    for c in candidates:
        seen.setdefault((c.start, c.end, c.label), c)
    return list(seen.values())


def evaluate(documents: Iterable[GoldDocument], model_name: str) -> Report:
    documents = list(documents)
    labels = {s.label for d in documents for s in d.spans} or set(GOLD_LABELS.values())
    report = Report(documents=len(documents), characters=sum(len(d.text) for d in documents))
    scores: dict[str, dict[str, dict[str, Score]]] = defaultdict(
        lambda: {"exact": defaultdict(Score), "overlap": defaultdict(Score)}
    )
    started = time.perf_counter()
    results = list(detect_texts((d.text for d in documents), model_name))
    report.seconds = time.perf_counter() - started
    # Every source is scored on every document, including those where it found nothing.
    sources = sorted({s for r in results for c in r.candidates for s in c.sources})
    for document, result in zip(documents, results, strict=True):
        by_source: dict[str, list[Candidate]] = {source: [] for source in sources}
        for c in result.candidates:
            for source in c.sources:
                by_source[source].append(c)
        systems = {"ensemble": result.spans, **{s: _dedupe(cs) for s, cs in by_source.items()}}
        for system, predicted in systems.items():
            for mode in ("exact", "overlap"):
                match(document.spans, predicted, labels, overlap=mode == "overlap", scores=scores[system][mode])
    report.scores = {system: {mode: dict(per) for mode, per in modes.items()} for system, modes in scores.items()}
    report.peak_rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return report
