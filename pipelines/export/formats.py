"""Per-document export formats beyond the redacted text: the inline review copy and
training data (CoNLL IOB, spaCy DocBin, doccano and Label Studio JSONL)."""

import json
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


@lru_cache(maxsize=1)
def _tokenizer() -> "Language":
    # A blank pipeline: tokenization only, identical on every machine, no model.
    import spacy

    return spacy.blank("en")


def training_doc(text: str, spans: list[Candidate]) -> "Doc":
    """The tokenized document with its spans as entities, shared by the training
    formats so each document is tokenized once."""
    doc = _tokenizer()(text)
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
    result = [
        {
            "id": f"{doc_id}-{i}",
            "from_name": "label",
            "to_name": "text",
            "type": "labels",
            "value": {"start": s.start, "end": s.end, "text": s.text, "labels": [s.label]},
        }
        for i, s in enumerate(spans)
    ]
    return json.dumps(
        {"data": {"text": text, "doc_id": doc_id}, "annotations": [{"result": result}]}, ensure_ascii=False
    )
