#!/usr/bin/env python3
"""Precision and recall of the quasi-identifier flags per category on this layer (issue 18).

Usage (from the repository root):
    .venv/bin/python evaluation/gold/quasi/score_flags.py [--model NAME] [--pred-out DIR]

Runs the default detection pipeline (the engine, no Django) on each document of the layer and
scores, per category, overlap-based (a flag is right if it overlaps a counted gold span of its
category; a gold span is found if a flag of its category overlaps it; optional gold spans are
neutral, as in the shared scorer), two views:

- "flags": the quasi-identifier flags alone. They never repeat a direct span (resolve), so the
  gold spans that the direct layer also marks (README: all of QI_LOC, most QI_DATETIME) are
  out of their reach by design.
- "flags + direct": the flags plus the direct spans that are quasi-identifier types (DATE and
  TIME as DATETIME, LOCATION as LOC, AGE and NRP as DEM): everything a reviewer sees marked.

`--pred-out DIR` writes both views as JSONL ({"id", "spans"}) for the shared scorer
(/work/shared/tools/score_spans.py), whose per-category procedure is in README.md.
"""

import argparse
import json
import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
sys.path.insert(0, str(ROOT))

from pipelines.detection.config import DEFAULT_MODEL  # noqa: E402
from pipelines.detection.pipeline import detect_text  # noqa: E402

CATEGORIES = ("DEM", "DATETIME", "LOC", "QUANTITY", "MISC", "RELATION")
DIRECT_AS_QUASI = {"DATE": "DATETIME", "TIME": "DATETIME", "LOCATION": "LOC", "AGE": "DEM", "NRP": "DEM"}
FILES = ("ferguson_vol1.jsonl", "demo_hearing.jsonl")


def _overlaps(a: dict, b: dict) -> bool:
    return a["start"] < b["end"] and b["start"] < a["end"]


def score(gold: list[dict], pred: list[dict]) -> dict[str, dict[str, int]]:
    """Per category: gold (counted), found, pred (non-neutral), right."""
    table = {c: {"gold": 0, "found": 0, "pred": 0, "right": 0} for c in CATEGORIES}
    for category in CATEGORIES:
        for g_doc, p_doc in zip(gold, pred, strict=True):
            g = [s for s in g_doc["spans"] if s["label"] == "QI_" + category]
            counted = [s for s in g if not s.get("optional")]
            optional = [s for s in g if s.get("optional")]
            p = [s for s in p_doc["spans"] if s["label"] == category]
            row = table[category]
            row["gold"] += len(counted)
            row["found"] += sum(1 for s in counted if any(_overlaps(s, q) for q in p))
            for q in p:
                if any(_overlaps(q, s) for s in counted):
                    row["pred"] += 1
                    row["right"] += 1
                elif not any(_overlaps(q, s) for s in optional):
                    row["pred"] += 1
    return table


def _ratio(a: int, b: int) -> str:
    return f"{a / b:.3f}" if b else "–"


def markdown(title: str, table: dict[str, dict[str, int]]) -> str:
    lines = [
        f"**{title}**",
        "",
        "| category | gold | flags | right | precision | found | recall |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    total = {"gold": 0, "found": 0, "pred": 0, "right": 0}
    for category, row in table.items():
        for key in total:
            total[key] += row[key]
        lines.append(
            f"| {category} | {row['gold']} | {row['pred']} | {row['right']} | {_ratio(row['right'], row['pred'])} "
            f"| {row['found']} | {_ratio(row['found'], row['gold'])} |"
        )
    lines.append(
        f"| all (typed) | {total['gold']} | {total['pred']} | {total['right']} "
        f"| {_ratio(total['right'], total['pred'])} | {total['found']} | {_ratio(total['found'], total['gold'])} |"
    )
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default=os.environ.get("SPACY_MODEL") or DEFAULT_MODEL)
    parser.add_argument("--pred-out", type=Path)
    arguments = parser.parse_args()
    gold = [json.loads((HERE / name).read_text(encoding="utf-8").splitlines()[0]) for name in FILES]
    flags, union = [], []
    for doc in gold:
        result = detect_text(doc["text"], arguments.model)
        quasi = [{"start": q.start, "end": q.end, "label": q.label, "rule": q.rule} for q in result.quasi]
        direct = [
            {"start": s.start, "end": s.end, "label": DIRECT_AS_QUASI[s.label], "rule": "direct " + s.label}
            for s in result.spans
            if s.label in DIRECT_AS_QUASI
        ]
        flags.append({"id": doc["id"], "spans": quasi})
        union.append({"id": doc["id"], "spans": sorted(quasi + direct, key=lambda s: (s["start"], s["end"]))})
    if arguments.pred_out:
        arguments.pred_out.mkdir(parents=True, exist_ok=True)
        for name, docs in (("flags", flags), ("flags_direct", union)):
            with open(arguments.pred_out / f"{name}.jsonl", "w", encoding="utf-8") as out:
                for doc in docs:
                    out.write(json.dumps(doc) + "\n")
    print(f"model {arguments.model}; documents: {', '.join(d['id'] for d in gold)}\n")
    print(markdown("Flags alone", score(gold, flags)))
    print()
    print(markdown("Flags + direct spans of quasi-identifier types", score(gold, union)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
