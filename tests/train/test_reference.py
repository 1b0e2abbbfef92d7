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
from train_minilm import package_directory
from pipelines.detection.models import minilm
from onnx_export import graph
words = json.loads(sys.argv[2])
base = package_directory()
torch.manual_seed(0)
reference = AutoModelForTokenClassification.from_pretrained(base, num_labels=9).eval()
expected = AutoTokenizer.from_pretrained(base)(words, is_split_into_words=True)["input_ids"]
vocab = [v for v in (base / "vocab.txt").read_text(encoding="utf-8").split("\\n") if v]
wordpiece = minilm.WordPiece(vocab)
ours = [wordpiece.cls, *[i for w in words for i in wordpiece.pieces(w)], wordpiece.sep]
weights = {k: v.numpy() for k, v in reference.state_dict().items()}
encoder = minilm.Encoder(graph(weights, 6, 12).SerializeToString())
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
    assert meta["anonymizer"] == {"label_promotions": False, "precision": "float"}
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
