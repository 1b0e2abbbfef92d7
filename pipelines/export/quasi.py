"""Quasi-identifier decisions in an export (issue 18).

A masked flag becomes its category's placeholder ("[DATETIME]"), a generalised one
its generalised text, a kept or undecided one stays as written. A flag that a span
covers (a reviewer accepted the stretch as a direct identifier, or the export
completed a name there) is left to the span. Every flag's decision is recorded in
the document's index with its category, offsets and replacement, never its text:
the index lines and the annotations JSON say what was done, not what was there.
"""

from dataclasses import dataclass

from pipelines.pseudonymize.result import Replacement

MASK, GENERALISE, KEEP, PENDING = "mask", "generalise", "keep", "pending"
# The strategy a flag's replacement carries in the annotations JSON.
STRATEGIES = {MASK: "quasi_mask", GENERALISE: "quasi_generalise"}
COVERED = "covered by a span"


@dataclass(frozen=True, slots=True)
class QuasiFlag:
    start: int
    end: int
    category: str
    decision: str
    generalised: str = ""

    def replacement(self) -> str | None:
        """What the export writes instead of the flag's text; None: left as written."""
        if self.decision == MASK:
            return placeholder(self.category)
        if self.decision == GENERALISE and self.generalised:
            return self.generalised
        return None


def placeholder(category: str) -> str:
    return f"[{category}]"


@dataclass(frozen=True)
class Applied:
    # The flags' replacements, as the engine's Replacement (offsets in the original).
    replacements: list[Replacement]
    # One record per flag, for the index and the annotations JSON.
    records: list[dict]


def apply(text: str, flags: list["QuasiFlag"], taken: list[tuple[int, int]]) -> Applied:
    """The replacements of the masked and generalised flags that no `taken` region
    (the spans' [start, end)) overlaps, and every flag's record."""
    regions = sorted(taken)
    replacements, records = [], []
    for flag in sorted(flags, key=lambda f: (f.start, f.end)):
        covered = any(s < flag.end and flag.start < e for s, e in regions)
        value = None if covered else flag.replacement()
        record = {
            "start": flag.start,
            "end": flag.end,
            "category": flag.category,
            "decision": flag.decision,
            "replacement": value,
        }
        if covered:
            record["note"] = COVERED
        records.append(record)
        if value is not None:
            strategy = STRATEGIES[flag.decision]
            replacements.append(
                Replacement(flag.start, flag.end, flag.category, text[flag.start : flag.end], value, strategy)
            )
    return Applied(replacements, records)


def rebuild(text: str, replacements: list[Replacement]) -> str:
    """The text with non-overlapping replacements applied (in offset order)."""
    pieces, cursor = [], 0
    for r in sorted(replacements, key=lambda r: r.start):
        pieces.append(text[cursor : r.start])
        pieces.append(r.replacement)
        cursor = r.end
    pieces.append(text[cursor:])
    return "".join(pieces)


def index_lines(records: list[dict]) -> list[str]:
    """`QI CATEGORY | decision | replacement | @start-end`: one line per flag, no text."""
    lines = []
    for r in records:
        replacement = r["replacement"] if r["replacement"] is not None else "(left as written)"
        note = f" | {r['note']}" if "note" in r else ""
        lines.append(f"QI {r['category']} | {r['decision']} | {replacement} | @{r['start']}-{r['end']}{note}")
    return lines
