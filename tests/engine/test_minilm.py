"""research-trf's encoder (pipelines/detection/models/minilm.py): the product's NumPy
forward pass and WordPiece tokenizer against the reference implementation
(Hugging Face's, which trained it), its windows over long texts, its entities in
the Doc, and `make model-trf`'s recipe on a fixture."""

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from pipelines.detection.models import minilm

ROOT = Path(__file__).resolve().parents[2]
WORDS = [
    "MR.", "JOSÉ", "Ñúñez-Smith", "met", "O'Brien", "at", "St.", "Louis", "on", "9/8/2014", "—", "café", "東京",
    "x" * 120, "Zexcs", "\n", "naïve", "don't",
]  # fmt: skip


# PyTorch and transformers live in the training venv (Makefile: .venv-train), never
# beside the product: the reference checks and the training run there.
TRAIN_PYTHON = Path(os.environ.get("ANONYMIZER_TRAIN_PYTHON") or ROOT / ".venv-train" / "bin" / "python")

REFERENCE = """
import json, sys
import numpy as np, torch
from transformers import AutoModelForTokenClassification, AutoTokenizer
sys.path[:0] = [sys.argv[1], sys.argv[1] + "/training"]
from train_minilm import package_directory
from pipelines.detection.models import minilm
words = json.loads(sys.argv[2])
base = package_directory()
torch.manual_seed(0)
reference = AutoModelForTokenClassification.from_pretrained(base, num_labels=9).eval()
expected = AutoTokenizer.from_pretrained(base)(words, is_split_into_words=True)["input_ids"]
vocab = [v for v in (base / "vocab.txt").read_text(encoding="utf-8").split("\\n") if v]
wordpiece = minilm.WordPiece(vocab)
ours = [wordpiece.cls, *[i for w in words for i in wordpiece.pieces(w)], wordpiece.sep]
encoder = minilm.Encoder({k: v.numpy() for k, v in reference.state_dict().items()}, 6, 12)
with torch.no_grad():
    logits = reference(input_ids=torch.tensor([expected])).logits[0].numpy()
difference = float(np.abs(encoder(np.array(ours)) - logits).max()) if ours == expected else None
print(json.dumps({"ours": ours, "expected": expected, "difference": difference}))
"""


def _train_python() -> str:
    if not TRAIN_PYTHON.exists():
        pytest.fail(
            f"{TRAIN_PYTHON} is missing: `make install-train` builds the training venv (requirements-train.txt)"
        )
    return str(TRAIN_PYTHON)


def test_wordpiece_and_logits_match_the_reference_implementation():
    """The same ids as BertTokenizer and the same logits as
    BertForTokenClassification (the package's encoder, a seeded head) to 1e-4."""
    words = [w for w in WORDS if w.strip()]
    proc = subprocess.run(
        [_train_python(), "-c", REFERENCE, str(ROOT), json.dumps(words)],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "OMP_NUM_THREADS": "1"},
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    result = json.loads(proc.stdout.strip().splitlines()[-1])
    assert result["ours"] == result["expected"]
    assert result["difference"] < 1e-4


def test_the_product_s_venv_has_no_pytorch():
    """thinc imports PyTorch with spaCy when it is installed (~0.7 s per process)."""
    proc = subprocess.run(
        [sys.executable, "-c", "import importlib.util as u; print(u.find_spec('torch'), u.find_spec('transformers'))"],
        capture_output=True,
        text=True,
    )
    assert proc.stdout.split() == ["None", "None"]


class _Parity:
    """An "encoder" whose tag for a piece is its id's parity, and which records
    the batches of windows it was given."""

    def __init__(self) -> None:
        self.windows: list[int] = []
        self.batches: list[int] = []

    def __call__(self, ids: np.ndarray) -> np.ndarray:
        self.batches.append(len(ids))
        self.windows.extend(len(row) for row in ids)
        out = np.zeros((*ids.shape, 2), dtype=np.float32)
        np.put_along_axis(out, (ids % 2)[..., None], 1.0, axis=-1)
        return out


def test_long_texts_are_labelled_in_windows_that_cover_every_word(monkeypatch):
    monkeypatch.setattr(minilm, "CORE", 8)
    monkeypatch.setattr(minilm, "CONTEXT", 3)
    vocab = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", *[f"w{i}" for i in range(60)], "##x"]
    wordpiece = minilm.WordPiece(vocab)
    words = [f"w{i}" if i % 7 else f"w{i}x" for i in range(60)] + ["\n"]
    encoder = _Parity()
    tags = minilm.token_tags(encoder, wordpiece, ["A", "B"], words)
    # Each word's tag is its first piece's (w{i} has id i + 4), a line break's is O.
    assert tags == [("A", "B")[(i + 4) % 2] for i in range(60)] + ["O"]
    pieces = 60 + len(range(0, 60, 7))
    assert len(encoder.windows) == -(-pieces // 8)
    assert max(encoder.windows) == 8 + 2 * 3 + 2  # core, context on both sides, [CLS] and [SEP]
    # Equal-length windows share a call, at most BATCH of them.
    assert len(encoder.batches) < len(encoder.windows) and max(encoder.batches) <= minilm.BATCH


def test_a_batch_of_windows_gives_what_each_window_gives_alone():
    rng = np.random.default_rng(0)
    width, inner, layers = 16, 32, 2
    shapes = {
        "bert.embeddings.word_embeddings.weight": (50, width),
        "bert.embeddings.position_embeddings.weight": (64, width),
        "bert.embeddings.token_type_embeddings.weight": (2, width),
        "classifier.weight": (3, width),
    }
    for i in range(layers):
        p = f"bert.encoder.layer.{i}."
        for name in ("attention.self.query", "attention.self.key", "attention.self.value", "attention.output.dense"):
            shapes[p + name + ".weight"] = (width, width)
        shapes[p + "intermediate.dense.weight"] = (inner, width)
        shapes[p + "output.dense.weight"] = (width, inner)
    weights = {name: rng.normal(0, 0.2, shape).astype(np.float32) for name, shape in shapes.items()}
    for name, shape in list(shapes.items()):
        weights[name.replace(".weight", ".bias")] = rng.normal(0, 0.1, shape[0] if "embeddings" not in name else 1)
    for norm in ["bert.embeddings.LayerNorm"] + [
        f"bert.encoder.layer.{i}.{part}.LayerNorm" for i in range(layers) for part in ("attention.output", "output")
    ]:
        weights[norm + ".weight"], weights[norm + ".bias"] = np.ones(width), np.zeros(width)
    encoder = minilm.Encoder(weights, layers, heads=4)
    ids = rng.integers(0, 50, (3, 20))
    together = encoder(ids)
    assert together.shape == (3, 20, 3)
    for row in range(3):
        np.testing.assert_allclose(together[row], encoder(ids[row]), rtol=1e-5, atol=1e-5)


def test_spaces_inside_a_name_stay_in_it_and_a_line_break_ends_it(monkeypatch):
    vocab = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "john", "smith", "bob"]
    wordpiece = minilm.WordPiece(vocab)
    words = ["john", "  ", "smith", "\n", "smith", "  ", "bob"]
    tagged = {4: "B-PER", 5: "I-PER", 6: "O"}

    def encoder(ids: np.ndarray) -> np.ndarray:
        out = np.zeros((*ids.shape, 3), dtype=np.float32)
        for index, tag in enumerate(["B-PER", "I-PER", "O"]):
            out[..., index] = np.isin(ids, [k for k, v in tagged.items() if v == tag])
        return out

    tags = minilm.token_tags(encoder, wordpiece, ["B-PER", "I-PER", "O"], words)  # type: ignore[arg-type]
    # "john  smith": one name; the line break stays out; "smith  bob" is no name's inside.
    assert tags == ["B-PER", "I-PER", "I-PER", "O", "I-PER", "O", "O"]


def test_bio_tags_become_spans_even_when_ill_formed():
    tags = ["B-PER", "I-PER", "O", "I-LOC", "I-LOC", "B-ORG", "B-ORG", "I-PER", "O"]
    assert minilm.spans_of(tags) == [(0, 2, "PER"), (3, 5, "LOC"), (5, 6, "ORG"), (6, 7, "ORG"), (7, 8, "PER")]


def test_the_component_keeps_the_spacy_ner_s_dates_and_replaces_its_names(monkeypatch):
    from pipelines.detection.models.nlp import load_nlp

    nlp = load_nlp("sm")
    doc = nlp("Mr. John Smith was born on March 3, 1985 in Fresno.")
    assert {e.label_ for e in doc.ents} >= {"PERSON", "DATE"}
    component = minilm.MiniLMNer(nlp, "minilm_ner")
    # An encoder that calls "Smith" a place and nothing else anything.
    monkeypatch.setattr(
        minilm, "token_tags", lambda encoder, wordpiece, tags, words: ["B-LOC" if w == "Smith" else "O" for w in words]
    )
    component.encoder, component.wordpiece = object(), object()  # type: ignore[assignment]
    doc = component(doc)
    assert [(e.text, e.label_) for e in doc.ents] == [("Smith", "LOC"), ("March 3, 1985", "DATE")]


def test_an_entity_never_starts_or_ends_with_punctuation(monkeypatch):
    """spaCy splits "MR." in capitals, and the encoder, which read "Mr." as one word
    in training, may label the dot as the name's first piece."""
    from pipelines.detection.models.nlp import load_nlp

    nlp = load_nlp("sm")
    doc = nlp.make_doc("MR. JOHN SMITH: We are in session.")
    assert [t.text for t in doc][:4] == ["MR", ".", "JOHN", "SMITH"]
    component = minilm.MiniLMNer(nlp, "minilm_ner")
    tags = ["O", "I-PER", "I-PER", "I-PER", "I-PER", "O", "O", "O", "B-MISC", "I-MISC"]
    monkeypatch.setattr(minilm, "token_tags", lambda encoder, wordpiece, t, words: tags[: len(words)])
    component.encoder, component.wordpiece = object(), object()  # type: ignore[assignment]
    assert [(e.text, e.label_) for e in component(doc).ents] == [("JOHN SMITH", "PERSON"), ("session", "MISC")]


def test_an_unloaded_component_says_how_to_build_the_model():
    with pytest.raises(ValueError, match="make research-model"):
        minilm.MiniLMNer(None, "minilm_ner")(None)  # type: ignore[arg-type]


def test_a_tiny_training_run_builds_a_loadable_model(tmp_path):
    """`make model-trf`'s two steps on training/fixture/tiny.conll: train (4 steps)
    then assemble; the product then loads it by directory and runs it."""
    env = {**os.environ, "OMP_NUM_THREADS": "1"}
    delta = tmp_path / "delta"
    out = tmp_path / "models" / "en_anonymizer_ner_research_trf"
    for command in (
        [_train_python(), "training/train_minilm.py", "--fixture", "--out", str(delta)],
        [sys.executable, "training/assemble_minilm.py", "--delta", str(delta), "--out", str(out)],
    ):
        proc = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
        assert proc.returncode == 0, proc.stderr[-3000:]
    settings = json.loads((delta / "cfg.json").read_text(encoding="utf-8"))
    assert settings["training"]["fixture"] and settings["training"]["steps"] == 4
    assert settings["training"]["seed"] == 42
    meta = json.loads((out / "meta.json").read_text(encoding="utf-8"))
    assert meta["anonymizer"] == {"label_promotions": False} and "research use only" in meta["license"]
    assert (out / "LICENSE.md").is_file()

    from pipelines.detection.models.nlp import load_nlp

    nlp = load_nlp(str(out))
    assert nlp.pipe_names == ["ner", "minilm_ner"]
    text = "Officer Darren Wilson met Kathi Alizadeh in Ferguson on August 9, 2014."
    doc = nlp(text)
    assert len(doc) == 14 and all(e.label_ for e in doc.ents)
    # A loaded pipeline saves (its encoder's files copied) and reloads to the same entities.
    import spacy

    loaded = spacy.load(out)
    loaded.to_disk(tmp_path / "copy")
    again = spacy.load(tmp_path / "copy")
    assert [(e.text, e.label_) for e in again(text).ents] == [(e.text, e.label_) for e in loaded(text).ents]
