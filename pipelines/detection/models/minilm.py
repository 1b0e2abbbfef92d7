"""A BERT-family encoder (MiniLM) with a token-classification head, in NumPy:
the research-trf model's NER as a spaCy component.

Why NumPy rather than PyTorch: the product only runs the model, never trains it
(training/train_minilm.py does, with PyTorch, in `make model-trf`), and a 6-layer,
384-wide encoder is a few matrix products per layer. NumPy is already spaCy's
dependency, so the product gains no package and no start-up cost from it.
tests/engine/test_minilm.py checks the tokenizer and the logits against the reference
(Hugging Face's BertTokenizer and BertForTokenClassification, run in .venv-train).

The component replaces the spaCy NER's name-like entities (PERSON, ORG, places,
MISC…) with its own and keeps the spaCy NER's dates, times and numbers where they
do not overlap one of its entities: one `nlp(text)` call runs both, so each text
still goes through spaCy once and Presidio reuses that Doc.
"""

from __future__ import annotations

import json
import shutil
import unicodedata
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from spacy.language import Language
    from spacy.tokens import Doc

FACTORY = "anonymizer_minilm_ner"
WEIGHTS = "weights.npz"
SETTINGS = "cfg.json"
VOCAB = "vocab.txt"
# The entity types the encoder was trained on, by the spaCy label they take.
SPACY_LABEL = {"PER": "PERSON", "LOC": "LOC", "ORG": "ORG", "MISC": "MISC"}
# The spaCy NER's entities the encoder's own replace (names of people, places,
# organisations and other proper names); its DATE, TIME, CARDINAL… are kept.
REPLACED = frozenset(
    {"PERSON", "ORG", "GPE", "LOC", "FAC", "NORP", "MISC", "EVENT", "WORK_OF_ART", "PRODUCT", "LAW", "LANGUAGE"}
)
# Wordpieces per window: the encoder reads CONTEXT pieces on each side of the CORE
# pieces it labels, so a long transcript is labelled in windows that each see the
# words around them. 2 * CONTEXT + CORE + 2 stays within the 512 positions.
CORE = 192
CONTEXT = 32
# Windows per call of the encoder (a batch's attention scores: ~3 MB per window).
BATCH = 8
# A token longer than this in wordpieces (a URL, a run of symbols) keeps its first
# pieces only: its label comes from its first piece anyway.
MAX_PIECES_PER_TOKEN = 16


def _is_punctuation(ch: str) -> bool:
    code = ord(ch)
    if 33 <= code <= 47 or 58 <= code <= 64 or 91 <= code <= 96 or 123 <= code <= 126:
        return True
    return unicodedata.category(ch).startswith("P")


def _is_cjk(code: int) -> bool:
    return (
        0x4E00 <= code <= 0x9FFF
        or 0x3400 <= code <= 0x4DBF
        or 0x20000 <= code <= 0x2CEAF
        or 0xF900 <= code <= 0xFAFF
        or 0x2F800 <= code <= 0x2FA1F
    )


class WordPiece:
    """BERT's uncased tokenizer (basic splitting, then greedy longest-match
    WordPiece), applied to one spaCy token at a time."""

    def __init__(self, vocab: Sequence[str], lowercase: bool = True) -> None:
        self.ids = {piece: i for i, piece in enumerate(vocab)}
        self.lowercase = lowercase
        self.unk = self.ids["[UNK]"]
        self.cls = self.ids["[CLS]"]
        self.sep = self.ids["[SEP]"]
        # Transcripts repeat their words: each distinct token is split once.
        self.pieces = lru_cache(maxsize=65536)(self._pieces)

    def _words(self, text: str) -> list[str]:
        kept = []
        for ch in text:
            if ord(ch) in (0, 0xFFFD) or (unicodedata.category(ch) in ("Cc", "Cf") and ch not in "\t\n\r"):
                continue
            kept.append(" " if ch.isspace() else ch)
        text = "".join(kept)
        if self.lowercase:
            text = unicodedata.normalize("NFD", text.lower())
            text = "".join(c for c in text if unicodedata.category(c) != "Mn")
        words: list[str] = []
        for word in text.split():
            current = ""
            for ch in word:
                if _is_punctuation(ch) or _is_cjk(ord(ch)):
                    if current:
                        words.append(current)
                        current = ""
                    words.append(ch)
                else:
                    current += ch
            if current:
                words.append(current)
        return words

    def _pieces(self, text: str) -> tuple[int, ...]:
        out: list[int] = []
        for word in self._words(text):
            if len(word) > 100:
                out.append(self.unk)
                continue
            start, ids = 0, []
            while start < len(word):
                end, found = len(word), None
                while start < end:
                    piece = word[start:end] if start == 0 else "##" + word[start:end]
                    if piece in self.ids:
                        found = self.ids[piece]
                        break
                    end -= 1
                if found is None:
                    ids = [self.unk]
                    break
                ids.append(found)
                start = end
            out.extend(ids)
        return tuple(out[:MAX_PIECES_PER_TOKEN])


def _layer_norm(x: np.ndarray, gain: np.ndarray, bias: np.ndarray, eps: float = 1e-12) -> np.ndarray:
    mean = x.mean(-1, keepdims=True)
    variance = ((x - mean) ** 2).mean(-1, keepdims=True)
    return (x - mean) / np.sqrt(variance + eps) * gain + bias


def _gelu(x: np.ndarray) -> np.ndarray:
    """BERT's exact GELU, x * Φ(x), with erf from Abramowitz & Stegun 7.1.26
    (|error| < 1.5e-7; NumPy has no erf and SciPy is not a dependency), computed in
    place: on a long transcript this is a sixth of the encoder's time otherwise."""
    z = np.abs(x)
    z *= np.float32(1.0 / np.sqrt(2.0))  # |x| / √2
    square = np.square(z)
    np.negative(square, out=square)
    np.exp(square, out=square)  # exp(-z²)
    t = z
    t *= np.float32(0.3275911)
    t += np.float32(1.0)
    np.reciprocal(t, out=t)
    poly = t * np.float32(1.061405429)
    for coefficient in (-1.453152027, 1.421413741, -0.284496736, 0.254829592):
        poly += np.float32(coefficient)
        poly *= t
    poly *= square  # 1 - erf(|x| / √2)
    # Φ(x) = 1 - poly / 2 for x ≥ 0 and poly / 2 for x < 0.
    poly *= np.float32(0.5)
    np.subtract(np.float32(1.0), poly, out=poly, where=x >= 0)
    poly *= x
    return poly


class Encoder:
    """BertForTokenClassification's forward pass for unpadded sequences of one length."""

    def __init__(self, weights: dict[str, np.ndarray], layers: int, heads: int) -> None:
        self.w = {name: np.ascontiguousarray(value, dtype=np.float32) for name, value in weights.items()}
        # Linear layers as x @ W: transposed once here, not per call.
        for name in list(self.w):
            if name.endswith(".weight") and self.w[name].ndim == 2 and "embeddings" not in name:
                self.w[name] = np.ascontiguousarray(self.w[name].T)
        self.layers = layers
        self.heads = heads
        # Query, key and value as one product per layer (one pass over x, not three).
        for i in range(layers):
            p = f"bert.encoder.layer.{i}.attention.self."
            self.w[p + "qkv.weight"] = np.ascontiguousarray(
                np.concatenate([self.w[p + part + ".weight"] for part in ("query", "key", "value")], axis=1)
            )
            self.w[p + "qkv.bias"] = np.concatenate([self.w[p + part + ".bias"] for part in ("query", "key", "value")])
            for part in ("query", "key", "value"):
                del self.w[p + part + ".weight"], self.w[p + part + ".bias"]

    def _linear(self, x: np.ndarray, name: str) -> np.ndarray:
        return x @ self.w[name + ".weight"] + self.w[name + ".bias"]

    def __call__(self, ids: np.ndarray) -> np.ndarray:
        """Logits for a sequence of ids (n,) or a batch of equal-length ones (b, n)."""
        single = ids.ndim == 1
        ids = ids[None, :] if single else ids
        w, (b, n) = self.w, ids.shape
        x = w["bert.embeddings.word_embeddings.weight"][ids]
        x = (
            x
            + w["bert.embeddings.position_embeddings.weight"][:n]
            + w["bert.embeddings.token_type_embeddings.weight"][0]
        )
        x = _layer_norm(x, w["bert.embeddings.LayerNorm.weight"], w["bert.embeddings.LayerNorm.bias"])
        width = x.shape[-1]
        head = width // self.heads
        scale = np.float32(1.0 / np.sqrt(head))
        for i in range(self.layers):
            p = f"bert.encoder.layer.{i}."
            qkv = self._linear(x, p + "attention.self.qkv").reshape(b, n, 3, self.heads, head)
            q = qkv[:, :, 0].transpose(0, 2, 1, 3)
            k = qkv[:, :, 1].transpose(0, 2, 3, 1)
            v = qkv[:, :, 2].transpose(0, 2, 1, 3)
            scores = (q @ k) * scale
            scores -= scores.max(-1, keepdims=True)
            e = np.exp(scores)
            attended = ((e / e.sum(-1, keepdims=True)) @ v).transpose(0, 2, 1, 3).reshape(b, n, width)
            x = _layer_norm(
                self._linear(attended, p + "attention.output.dense") + x,
                w[p + "attention.output.LayerNorm.weight"],
                w[p + "attention.output.LayerNorm.bias"],
            )
            hidden = _gelu(self._linear(x, p + "intermediate.dense"))
            x = _layer_norm(
                self._linear(hidden, p + "output.dense") + x,
                w[p + "output.LayerNorm.weight"],
                w[p + "output.LayerNorm.bias"],
            )
        logits = self._linear(x, "classifier")
        return logits[0] if single else logits


def token_tags(encoder: Encoder, wordpiece: WordPiece, tags: Sequence[str], words: Sequence[str]) -> list[str]:
    """One BIO tag per word: its first wordpiece's. A word without wordpieces is O (a
    line break), or inside the entity around it when it is a run of spaces."""
    pieces: list[int] = []
    first: list[int] = []  # the index of each word's first piece, -1 for none
    for word in words:
        ids = wordpiece.pieces(word)
        first.append(len(pieces) if ids else -1)
        pieces.extend(ids)
    best = np.zeros(len(pieces), dtype=np.int64)
    # Windows of equal length (all but the first and last of a long text) go through
    # the encoder together: fewer, larger matrix products.
    windows: dict[int, list[tuple[int, int, int]]] = {}
    for start in range(0, len(pieces), CORE):
        left, right = max(0, start - CONTEXT), min(len(pieces), start + CORE + CONTEXT)
        windows.setdefault(right - left, []).append((start, left, right))
    for group in windows.values():
        for at in range(0, len(group), BATCH):
            batch = group[at : at + BATCH]
            ids = np.array([[wordpiece.cls, *pieces[left:right], wordpiece.sep] for _, left, right in batch])
            logits = encoder(ids)[:, 1:-1]
            for row, (start, left, _) in enumerate(batch):
                end = min(len(pieces), start + CORE)
                best[start:end] = logits[row, start - left : end - left].argmax(-1)
    out = [tags[best[i]] if i >= 0 else "O" for i in first]
    # A run of spaces has no wordpiece, so the encoder never saw it: between two words
    # of one entity ("JOHN  SMITH") it belongs to the entity. A line break does not
    # (the encoder cannot tell a wrapped name from a new line's first word).
    for i, word in enumerate(words):
        if first[i] < 0 and "\n" not in word and 0 < i < len(words) - 1:
            before, after = out[i - 1], out[i + 1]
            if before[:2] in ("B-", "I-") and after[:2] == "I-" and before[2:] == after[2:]:
                out[i] = after
    return out


def spans_of(tags: Sequence[str]) -> list[tuple[int, int, str]]:
    """(start, end, type) word spans of BIO tags; an I- that follows nothing of its
    type starts a span (a model's tags are not always well formed)."""
    spans: list[tuple[int, int, str]] = []
    start, kind = -1, ""
    for i, tag in enumerate([*tags, "O"]):
        prefix, _, label = tag.partition("-")
        if start >= 0 and not (prefix == "I" and label == kind):
            spans.append((start, i, kind))
            start = -1
        if prefix == "B" or (prefix == "I" and start < 0):
            start, kind = i, label
    return spans


class MiniLMNer:
    """The spaCy component: `doc.ents` from the encoder, with the spaCy NER's
    non-name entities kept where they do not overlap."""

    def __init__(self, nlp: Language, name: str) -> None:
        self.name = name
        self.encoder: Encoder | None = None
        self.wordpiece: WordPiece | None = None
        self.tags: list[str] = []
        self.settings: dict = {}
        self.saved: tuple[dict[str, np.ndarray], dict, list[str]] | None = None
        self.source: Path | None = None

    def __call__(self, doc: Doc) -> Doc:
        if self.encoder is None or self.wordpiece is None:
            raise ValueError(f"{self.name}: no weights loaded (build the model with `make research-model`)")
        from spacy.tokens import Span

        tags = token_tags(self.encoder, self.wordpiece, self.tags, [t.text for t in doc])
        ours = []
        for start, end, kind in spans_of(tags):
            # No name starts or ends with punctuation: where spaCy splits what the
            # training data kept whole ("MR." → "MR", "."), the encoder may label
            # the dot as the name's first piece ("MR. JOHN SMITH").
            while start < end and (doc[start].is_punct or doc[start].is_space):
                start += 1
            while end > start and (doc[end - 1].is_punct or doc[end - 1].is_space):
                end -= 1
            if start < end:
                ours.append(Span(doc, start, end, label=SPACY_LABEL.get(kind, kind)))
        taken = np.zeros(len(doc) + 1, dtype=bool)
        for span in ours:
            taken[span.start : span.end] = True
        kept = [e for e in doc.ents if e.label_ not in REPLACED and not taken[e.start : e.end].any()]
        doc.ents = sorted([*ours, *kept], key=lambda s: s.start)
        return doc

    def set_weights(self, weights: dict[str, np.ndarray], settings: dict, vocab: Sequence[str]) -> None:
        """Load an encoder: its arrays (by Hugging Face's parameter names), its
        settings ({"tags": [...], "layers": n, "heads": n, "lowercase": bool}) and
        its wordpiece vocabulary."""
        self.saved = (weights, settings, list(vocab))
        self.settings = settings
        self.tags = list(settings["tags"])
        self.wordpiece = WordPiece(vocab, lowercase=bool(settings.get("lowercase", True)))
        self.encoder = Encoder(weights, int(settings["layers"]), int(settings["heads"]))

    def from_disk(self, path: str | Path, *, exclude: Sequence[str] = ()) -> MiniLMNer:
        directory = Path(path)
        settings = json.loads((directory / SETTINGS).read_text(encoding="utf-8"))
        vocab = [v for v in (directory / VOCAB).read_text(encoding="utf-8").split("\n") if v]
        with np.load(directory / WEIGHTS) as saved:
            weights = {name: saved[name] for name in saved.files}
        self.set_weights(weights, settings, vocab)
        # The float16 arrays stay on disk, not in memory too (45 MB): a save copies the files.
        self.saved, self.source = None, directory
        return self

    def to_disk(self, path: str | Path, *, exclude: Sequence[str] = ()) -> None:
        directory = Path(path)
        directory.mkdir(parents=True, exist_ok=True)
        if self.saved is None:
            if self.source is None or not (self.source / WEIGHTS).is_file():
                raise ValueError(f"{self.name}: no weights to save (the directory it was loaded from is gone)")
            if self.source.resolve() != directory.resolve():
                for name in (SETTINGS, VOCAB, WEIGHTS):
                    shutil.copyfile(self.source / name, directory / name)
            return
        weights, settings, vocab = self.saved
        (directory / SETTINGS).write_text(json.dumps(settings, indent=2) + "\n", encoding="utf-8")
        (directory / VOCAB).write_text("\n".join(vocab) + "\n", encoding="utf-8")
        np.savez(directory / WEIGHTS, **weights)


def register() -> None:
    """Make the factory known to spaCy before a pipeline that names it is loaded."""
    from spacy.language import Language

    if Language.has_factory(FACTORY):
        return

    @Language.factory(FACTORY)
    def make(nlp: Language, name: str) -> MiniLMNer:
        return MiniLMNer(nlp, name)
