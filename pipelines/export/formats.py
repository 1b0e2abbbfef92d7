"""Per-document export formats beyond the redacted text: the inline review copy and
training data (CoNLL IOB, spaCy DocBin, doccano and Label Studio JSONL)."""

import json
import re
from collections.abc import Iterator
from functools import lru_cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # spaCy is imported where a training format is built, not with the module
    from spacy.language import Language
    from spacy.tokens import Doc

from pipelines.candidate import Candidate


def inline_review_copy(text: str, spans: list[Candidate]) -> str:
    """`Mr [Michael Jordan | PERSON]`: the original text with every span marked."""
    pieces, cursor = [], 0
    for span in sorted(spans, key=lambda s: s.start):
        pieces.append(text[cursor : span.start])
        pieces.append(f"[{span.text} | {span.label}]")
        cursor = span.end
    pieces.append(text[cursor:])
    return "".join(pieces)


def one_line(text: str) -> str:
    """`text` as one entry of a one-entry-a-line file: every run of white space
    (a line break included: "Sheila⏎Whirley") is one space."""
    return " ".join(text.split())


@lru_cache(maxsize=1)
def _tokenizer() -> "Language":
    # A blank pipeline: tokenization only, identical on every machine, no model.
    import spacy

    return spacy.blank("en")


# Text is tokenized this many characters at a time (at most): a document may be
# longer than the blank pipeline's `max_length` (1,000,000, spaCy's E088), and a
# smaller piece keeps the tokenizer's working memory small.
TOKENIZE_CHARS = 100_000
_WORD_START = re.compile(r"(?<=\s)\S")


# A cut between two words that are letters or digits where they meet: spaCy's
# special cases read across white space after a quote or a bracket ("a' ''b" gives
# "'", "'", "'" whole but "''" alone), never across two such edges.
_SAFE_CUT = re.compile(r"(?<=[^\W_])\s+(?=[^\W_])")
# Else a cut with a letter or a digit on one side at least.
_FAIR_CUT = re.compile(r"(?<=[^\W_])\s+(?=\S)|(?<=\S)\s+(?=[^\W_])")
# Else a cut before no quote mark (the special cases that read across white space are quotes').
_NO_QUOTE_CUT = re.compile(r"(?<=\S)\s+(?=[^\s'\"‘’“”`])")


def _cut(text: str, start: int, limit: int) -> int:
    """Where a piece of text[start:] ends, at most at `limit`: before the last word
    that a letter or a digit opens after a white-space run that one ends, else
    before the last word with a letter or a digit on one side of its white space,
    else before the last word that opens with no quote mark; else after the last
    line break (or else the last white space) that a non-space follows. Each piece
    then ends with the whole white-space run before the next word and tokenizes as
    it does inside the whole text (spaCy splits on white space first)."""
    for kind in (_SAFE_CUT, _FAIR_CUT, _NO_QUOTE_CUT):
        safe = None
        for safe in kind.finditer(text, start + 1, limit):  # noqa: B007 -- the last one is wanted
            pass
        if safe is not None and start < safe.end() < limit:
            return safe.end()
    line = text.rfind("\n", start, limit - 1)
    while line > start:
        if not text[line + 1].isspace():
            return line + 1
        line = text.rfind("\n", start, line)
    last = None
    for last in _WORD_START.finditer(text, start + 1, limit):  # noqa: B007 -- the last one is wanted
        pass
    return last.start() if last is not None else limit  # a single 100,000-character word is cut


def pieces(text: str, size: int = TOKENIZE_CHARS) -> Iterator[tuple[int, int]]:
    """(start, end) of consecutive pieces of `text`, none longer than `size`,
    cut between words (see `_cut`)."""
    start = 0
    while len(text) - start > size:
        end = _cut(text, start, start + size)
        yield start, end
        start = end
    yield start, len(text)


def tokenize(text: str, size: int = TOKENIZE_CHARS) -> "Doc":
    """`text` as one tokenized Doc, whatever its length: piece by piece (`pieces`),
    the Doc built from the pieces' tokens. Its text is `text` exactly, so
    character offsets hold."""
    from spacy.tokens import Doc

    nlp = _tokenizer()
    if len(text) <= size:
        return nlp(text)
    words: list[str] = []
    spaces: list[bool] = []
    for start, end in pieces(text, size):
        for token in nlp.tokenizer(text[start:end]):
            words.append(token.text)
            spaces.append(bool(token.whitespace_))
    return Doc(nlp.vocab, words=words, spaces=spaces)


def training_doc(text: str, spans: list[Candidate]) -> "Doc":
    """The tokenized document with its spans as entities, shared by the training
    formats so each document is tokenized once. Any length (see `tokenize`)."""
    doc = tokenize(text)
    ents = []
    for span in sorted(spans, key=lambda s: s.start):
        ent = doc.char_span(span.start, span.end, label=span.label, alignment_mode="expand")
        if ent is not None and (not ents or ent.start >= ents[-1].end):
            ents.append(ent)
    doc.ents = ents
    return doc


def conll(doc: "Doc", doc_id: str) -> str:
    """`token<TAB>IOB-tag`, one sentence per source line, blank line between them."""
    lines = [f"# doc_id = {doc_id}"]
    for token in doc:
        if token.is_space:
            if "\n" in token.text and lines[-1] != "":
                lines.append("")
            continue
        tag = "O" if not token.ent_type_ else f"{token.ent_iob_}-{token.ent_type_}"
        lines.append(f"{token.text}\t{tag}")
    return "\n".join(lines).rstrip("\n") + "\n\n"


def docbin_bytes(doc: "Doc") -> bytes:
    from spacy.tokens import DocBin

    bin_ = DocBin(attrs=["ENT_IOB", "ENT_TYPE"], store_user_data=False)
    bin_.add(doc)
    return bin_.to_bytes()


def doccano_line(text: str, spans: list[Candidate], doc_id: str) -> str:
    return json.dumps(
        {"id": doc_id, "text": text, "label": [[s.start, s.end, s.label] for s in spans]}, ensure_ascii=False
    )


def label_studio_line(text: str, spans: list[Candidate], doc_id: str) -> str:
    """One Label Studio task (compact `json.dumps`), its results written one at a
    time: a long document has a hundred thousand of them."""
    results = ", ".join(
        json.dumps(
            {
                "id": f"{doc_id}-{i}",
                "from_name": "label",
                "to_name": "text",
                "type": "labels",
                "value": {"start": s.start, "end": s.end, "text": s.text, "labels": [s.label]},
            },
            ensure_ascii=False,
        )
        for i, s in enumerate(spans)
    )
    data = json.dumps({"text": text, "doc_id": doc_id}, ensure_ascii=False)
    return f'{{"data": {data}, "annotations": [{{"result": [{results}]}}]}}'
