"""Quasi-identifier decisions in an export (issue 18).

A masked flag becomes its category's placeholder ("[DATETIME]"), a generalised one
its generalised text, a kept or undecided one stays as written. A flag that one
replacing span contains (a reviewer accepted the stretch as a direct identifier, or
the export completed a name there) is left to the span; a span that only partly
overlaps a replaced flag gives way to the flag (see `apply`). Every flag's decision is recorded in
the document's index with its category, offsets and replacement, never its text:
the index lines and the annotations JSON say what was done, not what was there.
"""

from dataclasses import dataclass, field

from pipelines.export.formats import one_line
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
    # Indices of the spans the flags' replacements supersede (not replaced themselves).
    dropped: set[int] = field(default_factory=set)


@dataclass(frozen=True, slots=True)
class Taken:
    """A span's region [start, end) and whether its label's strategy replaces the
    text (a `keep` span takes the stretch but writes it back as it was)."""

    start: int
    end: int
    replaces: bool = True


def apply(text: str, flags: list["QuasiFlag"], taken: list[Taken]) -> Applied:
    """The replacements of the masked and generalised flags, every flag's record,
    and which of the `taken` spans (by index) the flags' replacements supersede.

    A flag counts as covered only when ONE replacing span contains it entirely: the
    span's replacement then hides all of it. Otherwise a masked or generalised flag
    is replaced by its placeholder or generalisation, and every span overlapping it
    is dropped (a span inside it, a `keep` span, a span reaching past it): the
    flag's replacement grows to the union of the flag and those spans, so no part
    of either is written as it was (a placeholder holds no name; a generalisation
    is checked by the leak gate like the text). Flags whose stretches meet after
    growing share the first one's replacement."""
    replacements: list[Replacement] = []
    records: list[dict] = []
    dropped: set[int] = set()
    for flag in sorted(flags, key=lambda f: (f.start, f.end)):
        covered = any(t.replaces and t.start <= flag.start and flag.end <= t.end for t in taken)
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
        if value is None:
            continue
        start, end = flag.start, flag.end
        grown = True
        while grown:  # a span reaching past the stretch may meet another span
            grown = False
            for i, t in enumerate(taken):
                if i not in dropped and t.start < end and start < t.end:
                    dropped.add(i)
                    start, end, grown = min(start, t.start), max(end, t.end), True
        strategy, label = STRATEGIES[flag.decision], flag.category
        while replacements and start < replacements[-1].end:
            # The stretch meets an earlier flag's: one replacement for both.
            last = replacements.pop()
            start, end, value = min(start, last.start), max(end, last.end), last.replacement
            strategy, label = last.strategy, last.label
        if (start, end) != (flag.start, flag.end):
            record["note"] = f"replaces @{start}-{end} with the spans it overlaps"
        replacements.append(Replacement(start, end, label, text[start:end], value, strategy))
    return Applied(replacements, records, dropped)


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
        # A reviewer's generalisation may hold a line break: one entry, one line.
        replacement = one_line(r["replacement"]) if r["replacement"] is not None else "(left as written)"
        note = f" | {r['note']}" if "note" in r else ""
        lines.append(f"QI {r['category']} | {r['decision']} | {replacement} | @{r['start']}-{r['end']}{note}")
    return lines
