#!/usr/bin/env python3
"""Validate the quasi-identifier layer (stdlib only) and print its counts.

Usage: python3 evaluation/gold/quasi/validate.py [FILE.jsonl ...]
(default: ferguson_vol1.jsonl and demo_hearing.jsonl beside this script).

Checks, per file: one JSON object per non-empty line with "id", "text", "spans"; the id exists
in the direct-identifier gold one directory up (evaluation/gold/<id>.jsonl) and "text" is
identical to that file's text; every span has int start/end with 0 <= start < end <= len(text),
"text" == text[start:end], a label in the allowed set, no surrounding whitespace, only the keys
start/end/label/text/optional and "optional" (if present) true; spans are sorted by (start, end)
and never overlap each other (they may overlap direct-identifier spans: separate layer).
Prints, per document and label: counted, optional, and how many counted spans overlap a
direct-identifier gold span (the rest are quasi-identifiers the direct layer does not touch).
Exit status 1 on any error.
"""

import collections
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DIRECT = os.path.dirname(HERE)
LABELS = ("QI_DEM", "QI_DATETIME", "QI_LOC", "QI_QUANTITY", "QI_MISC", "QI_RELATION")
KEYS = {"start", "end", "label", "text", "optional"}
DEFAULT = ("ferguson_vol1.jsonl", "demo_hearing.jsonl")


def direct_gold(doc_id):
    path = os.path.join(DIRECT, doc_id + ".jsonl")
    if not os.path.exists(path):
        return None
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.strip():
                d = json.loads(line)
                if d.get("id") == doc_id:
                    return d
    return None


def check_doc(where, d, errors):
    for k in ("id", "text", "spans"):
        if k not in d:
            errors.append(f"{where}: missing key {k!r}")
            return None
    text, spans = d["text"], d["spans"]
    ref = direct_gold(d["id"])
    if ref is None:
        errors.append(f"{where}: no direct-identifier gold for id {d['id']!r} in {DIRECT}")
    elif ref["text"] != text:
        errors.append(f"{where}: text differs from the direct-identifier gold {d['id']}.jsonl")
    prev = None
    for i, s in enumerate(spans):
        w = f"{where} span {i}"
        extra = set(s) - KEYS
        if extra:
            errors.append(f"{w}: unexpected keys {sorted(extra)}")
        st, en = s.get("start"), s.get("end")
        if not (isinstance(st, int) and isinstance(en, int) and 0 <= st < en <= len(text)):
            errors.append(f"{w}: bad offsets {st!r}..{en!r}")
            continue
        if text[st:en] != s.get("text"):
            errors.append(f"{w}: text {s.get('text')!r} != document[{st}:{en}] {text[st:en]!r}")
        if text[st:en] != text[st:en].strip():
            errors.append(f"{w}: surrounding whitespace in {text[st:en]!r}")
        if s.get("label") not in LABELS:
            errors.append(f"{w}: label {s.get('label')!r} not in {LABELS}")
        if "optional" in s and s["optional"] is not True:
            errors.append(f"{w}: 'optional' must be true when present")
        if prev is not None:
            if (st, en) < (prev[0], prev[1]):
                errors.append(f"{w}: not sorted by (start, end)")
            if st < prev[1]:
                errors.append(f"{w}: overlaps the previous span {text[prev[0] : prev[1]]!r}")
        prev = (st, en)
    return ref


def main(argv):
    paths = argv or [os.path.join(HERE, p) for p in DEFAULT]
    errors = []
    total = collections.Counter()
    seen = set()
    for path in paths:
        with open(path, encoding="utf-8") as f:
            lines = [(n, text) for n, text in enumerate(f, 1) if text.strip()]
        for n, line in lines:
            where = f"{os.path.basename(path)}:{n}"
            try:
                d = json.loads(line)
            except json.JSONDecodeError as e:
                errors.append(f"{where}: invalid JSON ({e})")
                continue
            if d.get("id") in seen:
                errors.append(f"{where}: duplicate id {d.get('id')!r}")
            seen.add(d.get("id"))
            ref = check_doc(where, d, errors)
            if "spans" not in d:
                continue
            direct = [(s["start"], s["end"]) for s in (ref or {}).get("spans", [])]
            per = {lab: collections.Counter() for lab in LABELS}
            for s in d["spans"]:
                c = per.setdefault(s.get("label"), collections.Counter())
                if s.get("optional"):
                    c["optional"] += 1
                else:
                    c["counted"] += 1
                    if any(a < s["end"] and s["start"] < b for a, b in direct):
                        c["in_direct"] += 1
            print(
                f"\n{d['id']}: {len(d['spans'])} spans "
                f"({sum(c['counted'] for c in per.values())} counted, "
                f"{sum(c['optional'] for c in per.values())} optional)"
            )
            print(f"   {'label':<12} {'counted':>7} {'optional':>8} {'counted∩direct':>15} {'QI-only':>8}")
            for lab, c in per.items():
                print(
                    f"   {lab:<12} {c['counted']:>7} {c['optional']:>8} {c['in_direct']:>15} "
                    f"{c['counted'] - c['in_direct']:>8}"
                )
                for k in ("counted", "optional", "in_direct"):
                    total[(lab, k)] += c[k]
    if len(paths) > 1:
        print("\nall documents:")
        for lab in LABELS:
            print(
                f"   {lab:<12} {total[(lab, 'counted')]:>7} {total[(lab, 'optional')]:>8} "
                f"{total[(lab, 'in_direct')]:>15} {total[(lab, 'counted')] - total[(lab, 'in_direct')]:>8}"
            )
    if errors:
        print(f"\n{len(errors)} error(s):", file=sys.stderr)
        for e in errors:
            print("   " + e, file=sys.stderr)
        return 1
    print("\nOK")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
