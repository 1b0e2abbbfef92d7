"""Precision, recall and F1 of detection against gold spans, per label and per source.

Plain Python: gold readers (CoNLL IOB, JSONL spans), label mapping, exact and
overlap matching. The `evaluate` command and `make eval` wrap it.
"""

import datetime as dt
import json
import os
import platform
import re
import resource
import time
from collections import defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from pipelines.candidate import Candidate
from pipelines.detection.pipeline import detect_texts
from pipelines.extraction.header import parse_text_header

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


# Tokens written against the previous one in running text ("Smith 's" → "Smith's",
# "here ." → "here."), and after which the next one is (an opening bracket).
_NO_SPACE_BEFORE = re.compile(r"^(?:[.,;:!?%)\]}]|['’](?:s|re|ve|ll|d|m)?|n['’]t)$", re.IGNORECASE)
_NO_SPACE_AFTER = frozenset({"(", "[", "{", "$", "#"})


def _joined(tokens: list[str], detokenize: bool) -> list[int]:
    """Start offset of each token in the sentence's text."""
    starts, offset = [], 0
    for i, token in enumerate(tokens):
        if i and not (detokenize and (_NO_SPACE_BEFORE.match(token) or tokens[i - 1] in _NO_SPACE_AFTER)):
            offset += 1
        starts.append(offset)
        offset += len(token)
    return starts


def read_conll(
    path: Path, label_map: dict[str, str] = GOLD_LABELS, *, detokenize: bool = True
) -> Iterator[GoldDocument]:
    """`token<TAB>IOB-tag` lines, blank line between sentences. With `detokenize`
    (the default) tokens are joined as running text is written ("Smith's", "here.",
    "(1998)"): the model and the patterns see text like the transcripts they are
    for, not pre-tokenized text; without it, tokens are joined by single spaces."""
    tokens: list[tuple[str, str]] = []
    number = 0

    def flush() -> GoldDocument:
        spans: list[GoldSpan] = []
        current: list = []  # [start, end, label]
        starts = _joined([token for token, _ in tokens], detokenize)
        text_chars: list[str] = []
        for (token, _), start in zip(tokens, starts, strict=True):
            text_chars.append(" " * (start - sum(map(len, text_chars))) + token)
        text = "".join(text_chars)
        for (token, tag), start in zip(tokens, starts, strict=True):
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
        return GoldDocument(str(number), text, spans)

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
    words: int = 0
    seconds: float = 0.0
    peak_rss_mb: float = 0.0
    # system ("ensemble" or a source name) → mode ("exact"/"overlap") → label → Score
    scores: dict[str, dict[str, dict[str, Score]]] = field(default_factory=dict)
    # label → gold spans that some ensemble span overlaps, whatever its label (tp),
    # and those none does (fn): what an export would hide, right label or not.
    covered: dict[str, Score] = field(default_factory=dict)
    # Ensemble PERSON recall (tp/fn only) on gold names printed in capitals (speaker
    # labels, cover pages) and on the others (running text), exact then overlap.
    person_by_case: dict[str, tuple[Score, Score]] = field(default_factory=dict)

    def as_dict(self) -> dict:
        return {
            "documents": self.documents,
            "characters": self.characters,
            "words": self.words,
            "chars_per_second": round(self.characters / self.seconds) if self.seconds else None,
            "peak_rss_mb": round(self.peak_rss_mb, 1),
            "scores": {
                system: {mode: {label: s.as_dict() for label, s in sorted(per.items())} for mode, per in modes.items()}
                for system, modes in self.scores.items()
            },
            "covered": {label: round(s.recall, 4) for label, s in sorted(self.covered.items())},
            "person_recall_by_case": {
                case: {"gold": e.tp + e.fn, "exact": round(e.recall, 4), "overlap": round(o.recall, 4)}
                for case, (e, o) in self.person_by_case.items()
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
                    if system != "ensemble" and s.tp + s.fp == 0:
                        continue  # the source never proposes this label
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


def evaluate(documents: Iterable[GoldDocument], model_name: str, language: str = "en") -> Report:
    documents = list(documents)
    labels = {s.label for d in documents for s in d.spans} or set(GOLD_LABELS.values())
    report = Report(
        documents=len(documents),
        characters=sum(len(d.text) for d in documents),
        words=sum(len(d.text.split()) for d in documents),
    )
    scores: dict[str, dict[str, dict[str, Score]]] = defaultdict(
        lambda: {"exact": defaultdict(Score), "overlap": defaultdict(Score)}
    )
    covered: dict[str, Score] = defaultdict(Score)
    by_case = {case: (Score(), Score()) for case in ("capitals", "running text")}
    # Load the models (spaCy, presidio's recognizers) outside the timed run: the
    # throughput is that of a warm worker, like the bench's.
    list(detect_texts(["Mr. Warm Up was here on May 1, 2020."], model_name, language_code=language))
    started = time.perf_counter()
    # Each document's cover page is parsed as ingestion parses a text upload's, so
    # the header-names recognizer is measured as production runs it.
    results = list(
        detect_texts(
            (d.text for d in documents),
            model_name,
            (parse_text_header(d.text) for d in documents),
            language_code=language,
        )
    )
    report.seconds = time.perf_counter() - started
    # Every source is scored on every document, including those where it found nothing.
    sources = sorted({s for r in results for c in r.candidates for s in c.sources})
    for document, result in zip(documents, results, strict=True):
        by_source: dict[str, list[Candidate]] = {source: [] for source in sources}
        for c in result.candidates:
            for source in c.sources:
                by_source[source].append(c)
        for g in document.spans:
            hit = any(p.start < g.end and g.start < p.end for p in result.spans)
            covered[g.label].tp += hit
            covered[g.label].fn += not hit
        for case, (exact, overlap) in by_case.items():
            people = [
                g
                for g in document.spans
                if g.label == "PERSON" and document.text[g.start : g.end].isupper() == (case == "capitals")
            ]
            # Only tp and fn mean something here: every prediction is matched against a subset.
            match(people, result.spans, {"PERSON"}, overlap=False, scores={"PERSON": exact})
            match(people, result.spans, {"PERSON"}, overlap=True, scores={"PERSON": overlap})
        systems = {"ensemble": result.spans, **{s: _dedupe(cs) for s, cs in by_source.items()}}
        for system, predicted in systems.items():
            for mode in ("exact", "overlap"):
                match(document.spans, predicted, labels, overlap=mode == "overlap", scores=scores[system][mode])
    report.covered = dict(covered)
    report.person_by_case = {case: pair for case, pair in by_case.items() if pair[0].tp + pair[0].fn}
    report.scores = {system: {mode: dict(per) for mode, per in modes.items()} for system, modes in scores.items()}
    report.peak_rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return report


PRESIDIO_ALONE = "presidio-alone"


def presidio_alone(documents: list[GoldDocument], model_name: str, language: str) -> dict[str, dict[str, Score]]:
    """The baseline: presidio-analyzer as shipped (its SpacyNlpEngine over the same
    spaCy model, its predefined recognizers for the language, SpacyRecognizer
    included), scored like the ensemble: mode → label → Score."""
    from presidio_analyzer import AnalyzerEngine, RecognizerRegistry
    from presidio_analyzer.nlp_engine import SpacyNlpEngine

    from pipelines.detection.models.catalog import resolve
    from pipelines.detection.recognizers.presidio import PRESIDIO_TO_LABEL

    nlp_engine = SpacyNlpEngine(models=[{"lang_code": language, "model_name": resolve(model_name)}])
    nlp_engine.load()
    registry = RecognizerRegistry(supported_languages=[language])
    registry.load_predefined_recognizers(nlp_engine=nlp_engine, languages=[language])
    analyzer = AnalyzerEngine(registry=registry, nlp_engine=nlp_engine, supported_languages=[language])
    labels = {s.label for d in documents for s in d.spans}
    scores: dict[str, dict[str, Score]] = {"exact": defaultdict(Score), "overlap": defaultdict(Score)}
    for document in documents:
        predicted = [
            Candidate(
                r.start,
                r.end,
                PRESIDIO_TO_LABEL.get(r.entity_type, r.entity_type),
                document.text[r.start : r.end],
                (PRESIDIO_ALONE,),
                r.score,
            )
            for r in analyzer.analyze(text=document.text, language=language)
        ]
        for mode in ("exact", "overlap"):
            match(document.spans, predicted, labels, overlap=mode == "overlap", scores=scores[mode])
    return {mode: dict(per) for mode, per in scores.items()}


def machine() -> str:
    """Where a number was measured: "AMD EPYC (2 cores), Linux, Python 3.11.7"."""
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as handle:
            cpu = next((line.split(":", 1)[1].strip() for line in handle if line.startswith("model name")), cpu)
    except OSError:
        pass
    return f"{cpu} ({os.cpu_count()} cores), {platform.system()}, Python {platform.python_version()}"


def _cell(s: Score, o: Score, attribute: str) -> str:
    return f"{getattr(s, attribute):.3f} ({getattr(o, attribute):.3f})"


def _total(per_label: dict[str, Score]) -> Score:
    return Score(
        tp=sum(s.tp for s in per_label.values()),
        fp=sum(s.fp for s in per_label.values()),
        fn=sum(s.fn for s in per_label.values()),
    )


def markdown_section(report: Report, *, title: str, command: str, note: str = "", model: str = "") -> str:
    """The BENCHMARKS.md block for one evaluation: how it was run, then the
    ensemble's scores for every gold label, each source's for PERSON, and every
    source × label in a collapsed block (long, but the raw material)."""
    summary = report.as_dict()
    rate = summary["chars_per_second"] or 0
    words_rate = round(report.words / report.seconds) if report.seconds else 0
    when = dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC")
    lines = [
        f"### {title}",
        "",
        f"Command: `{command}`, run {when} on {machine()}" + (f", spaCy model `{model}`." if model else "."),
        f"Input: {report.documents:,} documents, {report.characters:,} characters, {report.words:,} words. "
        f"Detection {rate:,} chars/s ({words_rate:,} words/s), peak RSS {summary['peak_rss_mb']} MB.",
    ]
    if note:
        lines += ["", note]
    lines += [
        "",
        "Ensemble (default pipeline, what `detect` runs), exact span match with overlap match in brackets; "
        "**all** is the micro-average over the labels of the gold set; *covered*: share of gold spans that some "
        "ensemble span overlaps, whatever its label (what an export would hide):",
        "",
        "| label | gold spans | precision | recall | F1 | covered |",
        "|---|---|---|---|---|---|",
    ]
    ensemble = report.scores.get("ensemble", {"exact": {}, "overlap": {}})
    exact, overlap = ensemble["exact"], ensemble["overlap"]
    rows = [(label, exact[label], overlap.get(label, Score())) for label in sorted(exact)]
    rows.append(("**all**", _total(exact), _total(overlap)))
    covered = {**report.covered, "**all**": _total(report.covered)}
    for label, e, o in rows:
        lines.append(
            f"| {label} | {e.tp + e.fn:,} | {_cell(e, o, 'precision')} | {_cell(e, o, 'recall')} "
            f"| {_cell(e, o, 'f1')} | {covered.get(label, Score()).recall:.3f} |"
        )
    gold_people = sum(e.tp + e.fn for e, _ in report.person_by_case.values())
    # Shown where both kinds matter (transcripts), not for a handful of capitals in Wikipedia.
    if len(report.person_by_case) > 1 and all(
        (e.tp + e.fn) >= 0.05 * gold_people for e, _ in report.person_by_case.values()
    ):
        parts = [
            f"{case} {e.tp + e.fn:,} spans, recall {e.recall:.3f} ({o.recall:.3f})"
            for case, (e, o) in report.person_by_case.items()
        ]
        lines += ["", "Ensemble PERSON recall by how the gold name is printed: " + "; ".join(parts) + "."]
    sources = [s for s in report.scores if s != "ensemble"]
    if "PERSON" in exact and sources:
        lines += [
            "",
            "PERSON by source (each recognizer's candidates after the filters, before the merge and propagation):",
            "",
            "| source | precision | recall | F1 | tp | fp | fn |",
            "|---|---|---|---|---|---|---|",
        ]
        for system in ["ensemble", *sources]:
            e = report.scores[system]["exact"].get("PERSON", Score())
            o = report.scores[system]["overlap"].get("PERSON", Score())
            if e.tp + e.fp == 0:
                continue  # a source that never proposes a PERSON (patterns, presidio without its NER)
            lines.append(
                f"| {system} | {_cell(e, o, 'precision')} | {_cell(e, o, 'recall')} | {_cell(e, o, 'f1')} "
                f"| {e.tp:,} | {e.fp:,} | {e.fn:,} |"
            )
    lines += [
        "",
        "<details><summary>Every source and label (exact, overlap in brackets; rows where a source proposed "
        "nothing of the label are left out)</summary>",
        "",
        "| system | label | precision | recall | F1 | tp | fp | fn |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for system, modes in report.scores.items():
        for label, e in sorted(modes["exact"].items()):
            o = modes["overlap"].get(label, Score())
            if system != "ensemble" and e.tp + e.fp == 0:
                continue
            lines.append(
                f"| {system} | {label} | {_cell(e, o, 'precision')} | {_cell(e, o, 'recall')} "
                f"| {_cell(e, o, 'f1')} | {e.tp:,} | {e.fp:,} | {e.fn:,} |"
            )
    lines += ["", "</details>"]
    return "\n".join(lines)


def _markers(name: str) -> tuple[str, str]:
    return f"<!-- eval:{name}:start -->", f"<!-- eval:{name}:end -->"


def replace_section(document: str, name: str, body: str) -> str:
    """`document` with the text between the `eval:NAME` markers replaced by `body`;
    with no markers, the section is appended at the end. Nothing else changes."""
    start, end = _markers(name)
    block = f"{start}\n{body.strip()}\n{end}"
    pattern = re.compile(re.escape(start) + r".*?" + re.escape(end), re.DOTALL)
    if pattern.search(document):
        # A function replacement: `body` may hold backslashes that are not escapes.
        return pattern.sub(lambda _: block, document, count=1)
    return document.rstrip("\n") + ("\n\n" if document.strip() else "") + block + "\n"


def write_section(path: Path, name: str, body: str) -> None:
    document = path.read_text(encoding="utf-8") if path.exists() else ""
    path.write_text(replace_section(document, name, body), encoding="utf-8")
