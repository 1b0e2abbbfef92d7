"""Fine-tuning a base model's NER on a corpus's reviewed documents (issue 17).

Pure engine code (no Django): the review app hands in texts with their accepted and
rejected spans and gets back a model directory and its scores.

The training documents are the training-data export's documents
(`pipelines.export.formats.training_doc`, the DocBin/CoNLL export of issue 6), with
two changes a reviewed document allows:

- accepted spans are entities, under the base model's own label (PERSON, GPE, ORG…);
- rejected spans are explicit negatives: their tokens are `O` ("no entity here"),
  as is every other token a reviewer saw, except tokens of spans whose label the NER
  does not predict (an e-mail, a case number: the rule recognizers' job), which are
  left *missing* so the NER is neither taught nor punished there. The base model's own
  entities of labels the product ignores (CARDINAL, ORDINAL…) are kept as they are,
  so the fine-tuning does not unlearn them for nothing.

Rehearsal: the base model's own predictions over unrelated text (a bundled text
written for this project, `rehearsal.txt`) are mixed into every batch, so that
general recall does not collapse onto the corpus's names.
"""

import json
import random
import time
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

from pipelines.candidate import Candidate
from pipelines.detection.chunks import CHUNK_CHARS, chunk_bounds
from pipelines.detection.recognizers.spacy_ner import SPACY_TO_LABEL
from pipelines.export.formats import training_doc

if TYPE_CHECKING:  # spaCy is imported where a model is trained, not with the module
    from spacy.language import Language
    from spacy.tokens import Doc

REHEARSAL_TEXT = Path(__file__).with_name("rehearsal.txt")
# The product label → the base model's label it is taught as (the first spaCy label
# that maps to it: LOCATION is taught as GPE).
LABEL_TO_SPACY: dict[str, str] = {}
for _spacy, _label in SPACY_TO_LABEL.items():
    LABEL_TO_SPACY.setdefault(_label, _spacy)
# What a leak is for the scores: the names and places the NER is responsible for.
SCORED_LABELS = frozenset({"PERSON", "LOCATION", "ORGANIZATION"})


@dataclass(frozen=True)
class ReviewedText:
    """One approved document: its text, what reviewers accepted and rejected."""

    doc_id: int
    text: str
    accepted: Sequence[Candidate]
    rejected: Sequence[Candidate] = ()


@dataclass(frozen=True)
class Scores:
    precision: float
    recall: float
    f1: float
    leak_recall: float
    true_positives: int
    false_positives: int
    misses: int
    gold: int

    def to_dict(self) -> dict:
        return asdict(self)


@dataclass
class TrainingReport:
    steps: int
    seconds: float
    losses: list[float] = field(default_factory=list)
    stopped: str = ""


def load_full(model: str) -> "Language":
    import spacy

    from pipelines.detection.models import minilm
    from pipelines.detection.models.catalog import resolve

    minilm.register()  # a pipeline with an encoder loads (a corpus run judges with it, never tunes it)
    return spacy.load(resolve(model))


def _ner_labels(nlp: "Language") -> set[str]:
    return set(nlp.get_pipe("ner").labels)


def reviewed_docs(nlp: "Language", item: ReviewedText, chunk_chars: int = CHUNK_CHARS) -> list["Doc"]:
    """The document's training examples, one per window of at most `chunk_chars`
    characters (`chunks.py`'s bounds, as detection cuts: line ends first), each the
    export's tokenized document with its entities set for training (see the module's
    docstring): accepted → entity, rejected and unseen → O, labels the NER does not
    predict → missing, base entities of ignored labels kept.

    A whole long document as one example fails past spaCy's max_length (E088), and
    below it one update over it takes gigabytes: a batch of windows costs the same
    whatever the documents' length. A span that crosses a cut is no entity in
    either window: its tokens are left missing, so the model is not taught that
    half a name is no name (nor that it is none)."""
    bounds = chunk_bounds(item.text, chunk_chars)
    accepted = _per_chunk(item.accepted, bounds)
    rejected = _per_chunk(item.rejected, bounds)
    docs = []
    with _prediction_only(nlp):
        # Small windows go through the base model a detection chunk's worth at a time.
        batch = max(1, CHUNK_CHARS // chunk_chars)
        predicted = nlp.pipe((item.text[s:e] for s, e in bounds), batch_size=batch)
        for n, base in enumerate(predicted):
            start, end = bounds[n]
            doc = _chunk_doc(nlp, item.text[start:end], accepted[n], rejected[n], base)
            if len(doc):  # an empty text: nothing to learn
                docs.append(doc)
    return docs


@dataclass
class _ChunkSpans:
    inside: list[Candidate] = field(default_factory=list)
    # Spans that cross a cut, clipped to the chunk.
    crossing: list[Candidate] = field(default_factory=list)


def _per_chunk(spans: Iterable[Candidate], bounds: Sequence[tuple[int, int]]) -> list[_ChunkSpans]:
    """Each chunk's spans in its own offsets: one pass over the spans (a bisect
    each), not one per chunk."""
    starts = [s for s, _ in bounds]
    chunks = [_ChunkSpans() for _ in bounds]
    for span in spans:
        first = max(0, bisect_right(starts, span.start) - 1)
        last = max(first, bisect_right(starts, max(span.start, span.end - 1)) - 1)
        for n in range(first, last + 1):
            start, end = bounds[n]
            clipped = replace(span, start=max(span.start, start) - start, end=min(span.end, end) - start)
            (chunks[n].inside if first == last else chunks[n].crossing).append(clipped)
    return chunks


def _chunk_doc(nlp: "Language", text: str, accepted: _ChunkSpans, rejected: _ChunkSpans, base: "Doc") -> "Doc":
    from spacy.tokens import Span

    doc = training_doc(text, accepted.inside)  # the DocBin export's document
    known = _ner_labels(nlp)
    doc.ents = []
    entities, missing = [], set()
    for cand in accepted.crossing:
        span = doc.char_span(cand.start, cand.end, alignment_mode="expand")
        if span is not None:
            missing.update(range(span.start, span.end))
    for cand in sorted(accepted.inside, key=lambda c: c.start):
        span = doc.char_span(cand.start, cand.end, alignment_mode="expand")
        if span is None:
            continue
        label = LABEL_TO_SPACY.get(cand.label)
        if label is None or label not in known:
            missing.update(range(span.start, span.end))
        elif (not entities or span.start >= entities[-1].end) and not missing.intersection(range(span.start, span.end)):
            entities.append(Span(doc, span.start, span.end, label=label))
    taken = {i for e in entities for i in range(e.start, e.end)} | missing
    # Base entities of labels the product ignores, where no reviewer decided.
    decided = [(c.start, c.end) for group in (accepted, rejected) for c in [*group.inside, *group.crossing]]
    for ent in base.ents:
        if ent.label_ in SPACY_TO_LABEL or any(s < ent.end_char and ent.start_char < e for s, e in decided):
            continue
        span = doc.char_span(ent.start_char, ent.end_char, alignment_mode="expand")
        if span is not None and not taken.intersection(range(span.start, span.end)):
            entities.append(Span(doc, span.start, span.end, label=ent.label_))
            taken.update(range(span.start, span.end))
    missing_spans = [Span(doc, i, i + 1) for i in sorted(missing)]
    doc.set_ents(sorted(entities, key=lambda s: s.start), missing=missing_spans, default="outside")
    return doc


@contextmanager
def _prediction_only(nlp: "Language") -> Iterator[None]:
    # The base model's own tokenizer and NER, the other components off; an encoder
    # model's encoder stays on (its names are the model's: a corpus run is judged
    # against them, not against the spaCy NER it sits on).
    from pipelines.detection.models import minilm

    kept = [p for p in nlp.pipe_names if p in ("ner", "tok2vec") or nlp.get_pipe_meta(p).factory == minilm.FACTORY]
    with nlp.select_pipes(enable=kept):
        yield


def _predict(nlp: "Language", text: str) -> "Doc":
    with _prediction_only(nlp):
        return nlp(text)


def rehearsal_docs(nlp: "Language", texts: Iterable[str]) -> list["Doc"]:
    """The base model's own entities over unrelated text: what it should keep finding."""
    from spacy.tokens import Span

    docs = []
    for text in texts:
        predicted = _predict(nlp, text)
        doc = training_doc(text, [])
        ents = [doc.char_span(e.start_char, e.end_char, label=e.label_) for e in predicted.ents]
        doc.ents = [e for e in ents if isinstance(e, Span)]
        docs.append(doc)
    return docs


def rehearsal_texts(path: Path = REHEARSAL_TEXT) -> list[str]:
    """The bundled rehearsal text, one paragraph per example (the first paragraph
    is the file's own header)."""
    return [p.strip() for p in path.read_text(encoding="utf-8").split("\n\n") if p.strip()][1:]


def fine_tune(
    nlp: "Language",
    train: Sequence["Doc"],
    rehearsal: Sequence["Doc"],
    *,
    max_steps: int,
    time_limit: float,
    seed: int = 42,
    batch_size: int = 8,
    dropout: float = 0.1,
    learn_rate: float = 0.0005,
    progress: Callable[[int, int], None] | None = None,
) -> TrainingReport:
    """Update the NER of `nlp` in place: at most `max_steps` batches and
    `time_limit` seconds, each batch corpus documents and rehearsal documents mixed.
    The other components are frozen (the NER has its own tok2vec on sm and md)."""
    from spacy.training import Example
    from spacy.util import fix_random_seed

    if not train:
        raise ValueError("no training documents")
    fix_random_seed(seed)
    rng = random.Random(seed)
    examples = [Example(_blank_copy(nlp, d), d) for d in train]
    rehearse = [Example(_blank_copy(nlp, d), d) for d in rehearsal]
    report = TrainingReport(steps=0, seconds=0.0)
    started = time.monotonic()
    with nlp.select_pipes(enable="ner"):
        optimizer = nlp.resume_training()
        optimizer.learn_rate = learn_rate
        while report.steps < max_steps:
            batch = rng.sample(examples, min(batch_size, len(examples)))
            if rehearse:
                batch += rng.sample(rehearse, min(batch_size, len(rehearse)))
            losses: dict[str, float] = {}
            nlp.update(batch, sgd=optimizer, drop=dropout, losses=losses)
            report.steps += 1
            report.losses.append(round(losses.get("ner", 0.0), 3))
            if progress:
                progress(report.steps, max_steps)
            if time.monotonic() - started > time_limit:
                report.stopped = f"time limit ({time_limit:g} s)"
                break
    report.seconds = round(time.monotonic() - started, 2)
    return report


def _blank_copy(nlp: "Language", doc: "Doc") -> "Doc":
    from spacy.tokens import Doc

    return Doc(nlp.vocab, words=[t.text for t in doc], spaces=[bool(t.whitespace_) for t in doc])


def predict_spans(nlp: "Language", text: str, chunk_chars: int = CHUNK_CHARS) -> list[Candidate]:
    """The model's names and places alone, in product labels, predicted a chunk at
    a time (`chunks.py`, as detection does) with offsets in the whole text: one pass
    over a long text would hold its whole Doc and activations at once."""
    bounds = chunk_bounds(text, chunk_chars)
    found = []
    with _prediction_only(nlp):
        predicted = nlp.pipe((text[s:e] for s, e in bounds), batch_size=1)
        for (offset, _), doc in zip(bounds, predicted, strict=True):
            for ent in doc.ents:
                label = SPACY_TO_LABEL.get(ent.label_)
                if label in SCORED_LABELS:
                    start, end = offset + ent.start_char, offset + ent.end_char
                    found.append(Candidate(start, end, label, ent.text, ("model",), 1.0))
    return found


def score(predicted: Iterable[Sequence[Candidate]], gold: Iterable[Sequence[Candidate]]) -> Scores:
    """Exact (start, end, label) P/R/F1 over the scored labels, and leak recall: the
    share of gold names any prediction overlaps (a covered name does not leak)."""
    tp = fp = gold_n = covered = 0
    for pred, truth in zip(predicted, gold, strict=True):
        truth = [g for g in truth if g.label in SCORED_LABELS]
        want = {(g.start, g.end, g.label) for g in truth}
        got = {(p.start, p.end, p.label) for p in pred}
        tp += len(want & got)
        fp += len(got - want)
        gold_n += len(want)
        covered += _covered(pred, truth)
    precision = tp / (tp + fp) if tp + fp else 1.0
    recall = tp / gold_n if gold_n else 1.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    leak = covered / gold_n if gold_n else 1.0
    return Scores(round(precision, 4), round(recall, 4), round(f1, 4), round(leak, 4), tp, fp, gold_n - tp, gold_n)


def _covered(pred: Sequence[Candidate], truth: Sequence[Candidate]) -> int:
    """How many gold spans some prediction overlaps: sorted once, a bisect per gold
    span (a long document has 100,000s of both; every pair would be hours)."""
    ordered = sorted(pred, key=lambda p: p.start)
    starts = [p.start for p in ordered]
    reach, furthest = [], -1  # reach[i]: the furthest end among the first i + 1 predictions
    for p in ordered:
        furthest = max(furthest, p.end)
        reach.append(furthest)
    covered = 0
    for g in truth:
        before = bisect_left(starts, g.end)  # predictions starting before the gold span ends
        covered += bool(before and reach[before - 1] > g.start)
    return covered


def evaluate(nlp: "Language", items: Sequence[ReviewedText]) -> Scores:
    return score([predict_spans(nlp, i.text) for i in items], [i.accepted for i in items])


def write_docbin(docs: Sequence["Doc"], path: Path) -> None:
    from spacy.tokens import DocBin

    bin_ = DocBin(attrs=["ENT_IOB", "ENT_TYPE"], store_user_data=False)
    for doc in docs:
        bin_.add(doc)
    path.parent.mkdir(parents=True, exist_ok=True)
    bin_.to_disk(path)


def spacy_train_config(template: Path, *, base_model: str, max_steps: int, seed: int = 42, vectors: bool = True) -> str:
    """The project's training config (training/config.cfg) set to what this run did,
    for `python -m spacy train config.cfg --paths.train train.spacy --paths.dev dev.spacy`."""
    from thinc.api import Config

    config = Config().from_disk(template, interpolate=False)
    from pipelines.detection.models.catalog import resolve

    # What `spacy train` loads: a registry name ("sm") becomes its package or directory.
    config["paths"]["base_model"] = resolve(base_model)
    if not vectors:  # sm has none: spaCy would warn that the vectors source is empty
        config["paths"]["vectors"] = None
    config["paths"]["train"] = "train.spacy"
    config["paths"]["dev"] = "dev.spacy"
    config["training"]["max_steps"] = max_steps
    config["training"]["eval_frequency"] = max(1, min(max_steps, 50))
    config["system"]["seed"] = seed
    return config.to_str()


def write_meta(path: Path, meta: dict) -> None:
    path.write_text(json.dumps(meta, indent=2, sort_keys=True, default=str), encoding="utf-8")


def directory_size(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())
