"""What needs PyTorch (the training venv; `make test-train`, which `.ci/run` runs
after `make test`): the product's encoder and tokenizer against the reference
implementation (Hugging Face's, which trained them), and the training recipe on a
fixture. `make test` never needs PyTorch, so a fresh machine does not download it
for the product's suite."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

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
from train_minilm import package_directory, with_caseless_type
from pipelines.detection.models import minilm
from pipelines.detection.case import case_types
from onnx_export import graph
words = json.loads(sys.argv[2])
base = package_directory()
torch.manual_seed(0)
reference = AutoModelForTokenClassification.from_pretrained(base, num_labels=9).eval()
encoded = AutoTokenizer.from_pretrained(base)(words, is_split_into_words=True)
expected = encoded["input_ids"]
vocab = [v for v in (base / "vocab.txt").read_text(encoding="utf-8").split("\\n") if v]
wordpiece = minilm.WordPiece(vocab)
ours = [wordpiece.cls, *[i for w in words for i in wordpiece.pieces(w)], wordpiece.sep]
weights = {k: v.numpy() for k, v in reference.state_dict().items()}
encoder = minilm.Encoder(graph(weights, 6, 12).SerializeToString())
with torch.no_grad():
    logits = reference(input_ids=torch.tensor([expected])).logits[0].numpy()
# A cased model: each word's type (pipelines/detection/case.py) given to its pieces as training
# does (by the tokenizer's word ids) and as the product does (by its own wordpieces).
cases = case_types(words)
types = [0 if w is None else cases[w] for w in encoded.word_ids()]
our_types = [0, *[case for w, case in zip(words, cases) for _ in wordpiece.pieces(w)], 0]
# The third type (CASELESS) train_minilm.py adds, here made apart from type 0.
with_caseless_type(reference)
with torch.no_grad():
    reference.bert.embeddings.token_type_embeddings.weight[2].normal_(0, 0.05)
weights = {k: v.numpy() for k, v in reference.state_dict().items()}
cased = minilm.Encoder(graph(weights, 6, 12, case_types=True).SerializeToString())
with torch.no_grad():
    cased_logits = reference(
        input_ids=torch.tensor([expected]), token_type_ids=torch.tensor([types])
    ).logits[0].numpy()
same = ours == expected
difference = float(np.abs(encoder(np.array(ours)) - logits).max()) if same else None
cased_difference = (
    float(np.abs(cased(np.array(ours), np.array(our_types)) - cased_logits).max()) if same else None
)
print(json.dumps({
    "ours": ours, "expected": expected, "difference": difference,
    "types": types, "our_types": our_types, "cased_difference": cased_difference,
}))
"""


def _train_python() -> str:
    if not TRAIN_PYTHON.exists():
        pytest.fail(
            f"{TRAIN_PYTHON} is missing: `make install-train` builds the training venv (requirements-train.txt)"
        )
    return str(TRAIN_PYTHON)


def test_wordpiece_and_logits_match_the_reference_implementation():
    """The same ids as BertTokenizer and the same logits as
    BertForTokenClassification (the package's encoder, a seeded head) to 1e-4: the
    product's ONNX graph, built from the reference's own weights."""
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
    assert result["our_types"] == result["types"] and {0, 1} <= set(result["types"])
    assert result["cased_difference"] < 1e-4


def test_a_tiny_cased_training_run_builds_a_model_that_reads_case(tmp_path):
    """The open recipe's case types (training/minilm-open.json) on the fixture: the
    delta says it is cased, and the graph the product builds takes the token types."""
    env = {**os.environ, "OMP_NUM_THREADS": "1"}
    delta, out = tmp_path / "delta", tmp_path / "model"
    for command in (
        [_train_python(), "training/train_minilm.py", "--fixture", "--config", "training/minilm-open.json"]
        + ["--out", str(delta)],
        [sys.executable, "training/assemble_minilm.py", "--variant", "open", "--delta", str(delta)]
        + ["--precision", "int8", "--out", str(out)],
    ):
        proc = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
        assert proc.returncode == 0, proc.stderr[-3000:]
    assert json.loads((delta / "cfg.json").read_text(encoding="utf-8"))["case_types"] is True
    import numpy as np

    with np.load(delta / "weights.npz") as weights:  # capital, lower and caseless
        assert weights["bert.embeddings.token_type_embeddings.weight"].shape == (3, 384)
    import onnx

    graph = onnx.load(out / "minilm_ner" / "model.onnx").graph
    assert [i.name for i in graph.input] == ["input_ids", "token_type_ids"]
    from pipelines.detection.models.nlp import load_nlp

    component = load_nlp(str(out)).get_pipe("minilm_ner")
    assert component.wordpiece.case_types


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
    assert meta["anonymizer"] == {"label_promotions": False, "precision": "float", "int8_reduce_range": False}
    assert "research use only" in meta["license"]
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
