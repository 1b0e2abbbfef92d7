"""CoNLL-style NER files → spaCy DocBins for fine-tuning a base model's `ner`.

Deterministic (no randomness at all: every choice is made by sentence number):

- Sentences are joined into running text exactly as `pipelines/evaluation.py`'s
  `read_conll` joins them ("Smith's", "here.", "(1998)"), so the model trains on
  the text shape it is evaluated and used on.
- WikiNEuRal split, by the sentence's 0-based number n in the file (the number
  `manage.py evaluate` gives it): n % 5 == 4 → held out for evaluation (written to
  `wikineural_heldout.conll`, never trained on); n % 10 == 1 → spaCy's dev set
  (model selection only); every other sentence → training. CoNLL-2003 train →
  training; CoNLL-2003 validation is not read unless `--conll-val-to-train` (then it
  can no longer be a held-out proxy).
- Labels. Gold PER → PERSON (authoritative). Gold LOC / ORG → the base model's own
  label when it predicted exactly that span with a compatible label (GPE/LOC/FAC,
  ORG/FAC), else GPE / ORG. Gold MISC → the base model's label when it predicted
  exactly that span with a non-name label (NORP, EVENT…), else MISC (a label
  added to the ner, mapped to nothing by the product: it teaches "not a PERSON").
  Any other gold tag leaves its tokens *missing* (no loss either way). Rehearsal: the base model's own entities of the
  labels the gold scheme does not cover (DATE, TIME, CARDINAL, NORP, MONEY…) that
  touch no gold span are kept, so those do not regress; its PERSON / ORG / GPE /
  LOC / FAC entities outside gold spans are dropped (the gold says O there).
- Case augmentation (training sentences only): sentence n gets an UPPER-CASED copy
  when n % UPPER_EVERY == 0 and a Title-Cased copy (each token's first letter) when
  n % TITLE_EVERY == 3, with the same entities (labels decided on the original
  case): transcripts print speaker names and headers in capitals.
- Transcript shape (`--transcript-shape`, experimental, off by default and not in
  the shipped recipe; training sentences only, before the case copies): sentence n
  is hard-wrapped at 38–60 characters when n % 3 == 2 (a newline for a space, as in
  plain-text transcripts) and starts with "Q " / "A " when n % 7 is 5 / 6; the
  entities are those of the plain sentence.

Usage: python training/prepare_data.py --base-model PATH --out DIR
           [--conll-train FILE] [--conll-val FILE] [--wikineural FILE] [--limit N]
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import spacy
from spacy.language import Language
from spacy.tokens import Doc, DocBin, Span
from spacy.util import filter_spans

UPPER_EVERY = 5
TITLE_EVERY = 10
WRAP_EVERY = 3
QA_EVERY = 7
HELD_OUT = 4  # n % 5 == HELD_OUT: WikiNEuRal evaluation part
DEV = 1  # n % 10 == DEV: WikiNEuRal spaCy dev part
REHEARSED = frozenset(
    "DATE TIME CARDINAL ORDINAL MONEY PERCENT QUANTITY NORP LAW LANGUAGE PRODUCT WORK_OF_ART EVENT".split()
)
LOC_LABELS = frozenset({"GPE", "LOC", "FAC"})
ORG_LABELS = frozenset({"ORG", "FAC"})
NAME_LABELS = frozenset({"PERSON", "ORG", "GPE", "LOC", "FAC"})
# A label of our own for gold MISC spans the base model gives no other non-name
# label: the model learns they are no PERSON ("Metacritic", an album, a typeface).
# The product maps no MISC entity to anything (spacy_ner.SPACY_TO_LABEL, presidio).
MISC = "MISC"

# The same joining rule as pipelines/evaluation.py (kept in step by hand; the
# README of this folder says so).
_NO_SPACE_BEFORE = re.compile(r"^(?:[.,;:!?%)\]}]|['’](?:s|re|ve|ll|d|m)?|n['’]t)$", re.IGNORECASE)
_NO_SPACE_AFTER = frozenset({"(", "[", "{", "$", "#"})


@dataclass(frozen=True)
class Sentence:
    number: int
    lines: tuple[str, ...]  # the original CoNLL lines (to write held-out files)
    text: str
    spans: tuple[tuple[int, int, str], ...]  # (start, end, gold tag: PER/LOC/ORG/MISC)


def _starts(tokens: list[str]) -> list[int]:
    starts, offset = [], 0
    for i, token in enumerate(tokens):
        if i and not (_NO_SPACE_BEFORE.match(token) or tokens[i - 1] in _NO_SPACE_AFTER):
            offset += 1
        starts.append(offset)
        offset += len(token)
    return starts


def _sentence(number: int, rows: list[tuple[str, str]], lines: list[str]) -> Sentence:
    tokens = [t for t, _ in rows]
    starts = _starts(tokens)
    chars: list[str] = []
    length = 0
    for token, start in zip(tokens, starts, strict=True):
        chars.append(" " * (start - length) + token)
        length = start + len(token)
    spans: list[tuple[int, int, str]] = []
    current: list = []
    for (token, tag), start in zip(rows, starts, strict=True):
        prefix, _, kind = tag.partition("-")
        kind = kind if prefix in ("B", "I") else ""
        if current and (prefix != "I" or kind != current[2]):
            spans.append((current[0], current[1], current[2]))
            current = []
        if kind:
            if current:
                current[1] = start + len(token)
            else:
                current = [start, start + len(token), kind]
    if current:
        spans.append((current[0], current[1], current[2]))
    return Sentence(number, tuple(lines), "".join(chars), tuple(spans))


def read_conll(path: Path) -> Iterator[Sentence]:
    """Sentences numbered as `pipelines/evaluation.py` numbers them (every
    blank-line-separated block, a `-DOCSTART-` block included); `-DOCSTART-`
    blocks are then skipped here."""
    rows: list[tuple[str, str]] = []
    lines: list[str] = []
    number = 0
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            line = line.rstrip("\n")
            if not line.strip():
                if rows:
                    if rows[0][0] != "-DOCSTART-":
                        yield _sentence(number, rows, lines)
                    number += 1
                    rows, lines = [], []
                continue
            token, _, tag = line.partition("\t")
            rows.append((token, tag.strip() or "O"))
            lines.append(line)
    if rows and rows[0][0] != "-DOCSTART-":
        yield _sentence(number, rows, lines)


def _overlaps(a: tuple[int, int], b: tuple[int, int]) -> bool:
    return a[0] < b[1] and b[0] < a[1]


def label_doc(sentence: Sentence, predicted: Doc) -> tuple[list[tuple[int, int, str]], list[tuple[int, int]]]:
    """(entities, missing) as character offsets, from the gold spans and the base
    model's predictions on the sentence (see the module docstring)."""
    by_offsets = {(e.start_char, e.end_char): e.label_ for e in predicted.ents}
    entities: list[tuple[int, int, str]] = []
    missing: list[tuple[int, int]] = []
    for start, end, tag in sentence.spans:
        model = by_offsets.get((start, end))
        if tag == "PER":
            entities.append((start, end, "PERSON"))
        elif tag == "LOC":
            entities.append((start, end, model if model in LOC_LABELS else "GPE"))
        elif tag == "ORG":
            entities.append((start, end, model if model in ORG_LABELS else "ORG"))
        elif tag == "MISC":
            entities.append((start, end, model if model is not None and model not in NAME_LABELS else MISC))
        else:
            missing.append((start, end))
    gold = [(s, e) for s, e, _ in sentence.spans]
    for ent in predicted.ents:
        span = (ent.start_char, ent.end_char)
        if ent.label_ in REHEARSED and not any(_overlaps(span, g) for g in gold):
            entities.append((*span, ent.label_))
    return entities, missing


def _title(text: str) -> str:
    """Each whitespace-separated word's first letter upper-cased (length kept)."""
    return re.sub(r"(^|\s)(\w)", lambda m: m.group(1) + m.group(2).upper(), text)


def build_doc(
    nlp: Language, text: str, entities: list[tuple[int, int, str]], missing: list[tuple[int, int]]
) -> Doc | None:
    doc = nlp.make_doc(text)
    spans: list[Span] = []
    for start, end, label in entities:
        span = doc.char_span(start, end, label=label, alignment_mode="expand")
        if span is not None:
            spans.append(span)
    kept = filter_spans(spans)
    unknown: list[Span] = []
    for start, end in missing:
        span = doc.char_span(start, end, alignment_mode="expand")
        if span is not None and not any(s.start < span.end and span.start < s.end for s in kept):
            unknown.append(span)
    try:
        doc.set_ents(kept, missing=filter_spans(unknown), default="outside")
    except ValueError:
        return None
    return doc


def _wrapped(text: str, width: int) -> str:
    """Hard line breaks as in a plain-text transcript: the last space before each
    `width` characters becomes a newline (length kept)."""
    chars = list(text)
    line_start = 0
    last_space = -1
    for i, char in enumerate(chars):
        if char == " ":
            last_space = i
        if i - line_start >= width and last_space > line_start:
            chars[last_space] = "\n"
            line_start = last_space + 1
    return "".join(chars)


def transcript_shape(sentence: Sentence) -> tuple[str, str, int]:
    """(kind, text, prefix length): some training sentences take the shape of a
    plain-text transcript: hard-wrapped lines (n % 3 == 2, width 38–60) and a
    question / answer marker in front (n % 7 == 5: "Q ", n % 7 == 6: "A ")."""
    n = sentence.number
    text, kind = sentence.text, "original"
    if n % WRAP_EVERY == 2:
        wrapped = _wrapped(text, 38 + n % 23)
        if wrapped != text:
            text, kind = wrapped, "transcript"
    prefix = {5: "Q ", 6: "A "}.get(n % QA_EVERY, "")
    if prefix:
        text, kind = prefix + text, "transcript"
    return kind, text, len(prefix)


def variants(sentence: Sentence, augment: bool, shape: bool = False) -> Iterator[tuple[str, str, int]]:
    """(kind, text, offset of the sentence in the text) for the sentence (in a
    transcript's shape for some, with `shape`) and its case-augmented copies."""
    if not augment:
        yield "original", sentence.text, 0
        return
    kind, text, offset = transcript_shape(sentence) if shape else ("original", sentence.text, 0)
    yield kind, text, offset
    upper = text.upper()
    if sentence.number % UPPER_EVERY == 0 and len(upper) == len(text) and upper != text:
        yield "upper", upper, offset
    title = _title(text)
    if sentence.number % TITLE_EVERY == 3 and title != text:
        yield "title", title, offset


def convert(
    nlp: Language,
    sentences: list[Sentence],
    augment: bool,
    stats: Counter[str],
    batch_size: int = 256,
    shape: bool = False,
) -> DocBin:
    docbin = DocBin(store_user_data=False)
    texts = (s.text for s in sentences)
    for sentence, predicted in zip(sentences, nlp.pipe(texts, batch_size=batch_size), strict=True):
        entities, missing = label_doc(sentence, predicted)
        for kind, text, offset in variants(sentence, augment, shape):
            shifted = [(start + offset, end + offset, label) for start, end, label in entities]
            doc = build_doc(nlp, text, shifted, [(start + offset, end + offset) for start, end in missing])
            if doc is None:
                stats["skipped"] += 1
                continue
            stats[f"docs_{kind}"] += 1
            for ent in doc.ents:
                stats[f"ents_{ent.label_}"] += 1
            docbin.add(doc)
    return docbin


def main(argv: list[str] | None = None) -> int:
    data = Path(__file__).resolve().parents[2] / "shared" / "data"
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base-model", required=True, help="spaCy pipeline whose ner is rehearsed (a path or name)")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--conll-train", type=Path, default=data / "train" / "conll2003_en_train.conll")
    parser.add_argument("--conll-val", type=Path, default=data / "train" / "conll2003_en_val.conll")
    parser.add_argument("--wikineural", type=Path, default=data / "dev" / "wikineural_en_val.conll")
    parser.add_argument("--conll-val-to-train", action="store_true", help="train on CoNLL val too (no proxy left)")
    parser.add_argument("--no-augment", action="store_true")
    parser.add_argument(
        "--transcript-shape", action="store_true", help="experimental: hard-wrapped and Q/A-marked copies (off)"
    )
    parser.add_argument("--limit", type=int, default=None, help="first N sentences of each file (fixture runs)")
    args = parser.parse_args(argv)

    nlp = spacy.load(args.base_model, exclude=["tagger", "parser", "senter", "attribute_ruler", "lemmatizer"])
    if "tok2vec" in nlp.pipe_names:  # md/sm: the ner has its own tok2vec
        nlp.remove_pipe("tok2vec")

    def read(path: Path) -> list[Sentence]:
        sentences = list(read_conll(path))
        return sentences[: args.limit] if args.limit else sentences

    wiki = read(args.wikineural)
    train = read(args.conll_train) + [s for s in wiki if s.number % 5 != HELD_OUT and s.number % 10 != DEV]
    if args.conll_val_to_train:
        train += read(args.conll_val)
    dev = [s for s in wiki if s.number % 10 == DEV]
    held_out = [s for s in wiki if s.number % 5 == HELD_OUT]

    args.out.mkdir(parents=True, exist_ok=True)
    with open(args.out / "wikineural_heldout.conll", "w", encoding="utf-8") as handle:
        for sentence in held_out:
            handle.write("\n".join(sentence.lines) + "\n\n")
    report: dict[str, object] = {"held_out_sentences": len(held_out)}
    for name, sentences, augment in (("train", train, not args.no_augment), ("dev", dev, False)):
        stats: Counter[str] = Counter()
        convert(nlp, sentences, augment, stats, shape=args.transcript_shape).to_disk(args.out / f"{name}.spacy")
        report[name] = {"sentences": len(sentences), **dict(sorted(stats.items()))}
        print(name, json.dumps(report[name]), file=sys.stderr)
    (args.out / "stats.json").write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
