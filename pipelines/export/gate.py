"""The leak gate: whether an export may be written, and why not.

This module alone decides. The writer asks it about every document before it
writes anything of that document (`LeakGate.check`) and once more before it
closes the zip (`LeakGate.decision`); the service only reports the decision it
gets with `LeakError`. The search itself ("where does a name survive in this
string?") is `leak_check.residuals`, over the name identity of
`pipelines.names`.

What is read, per document:
- its final text, outside the regions the export generated itself (placeholders,
  surrogates, masks): a kept span's text is the original, so it is read too (a
  name of another span inside it, "Roe" of a kept "Roe Holdings", is a leak),
  and so is a reviewer's generalisation of a quasi-identifier;
- the names of the zip members the document adds (a kept file-name stem);
- the manifest's settings, which every member of the zip sits beside.

The decision: allowed when no document has a finding. Once one has, nothing
more is written, the other documents are still checked (so one report lists
every residual), and closing raises `LeakError`. Findings and reasons carry
document ids, labels and offsets, never the original text, so they can be
logged, stored and shown.
"""

from bisect import bisect_right
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from pipelines.candidate import Candidate
from pipelines.export.leak_check import MANIFEST, MEMBER, TEXT, Leak, residuals
from pipelines.names import NameIdentity
from pipelines.pseudonymize.result import Replacement

# Replacement strategies whose output is read like the text: a kept span writes
# the original back, a generalisation is a reviewer's own words.
READ_AS_TEXT = frozenset({"keep", "quasi_generalise"})
_WHERE = {TEXT: "in its text", MEMBER: "in a zip member's name", MANIFEST: "in the manifest's settings"}


@dataclass(frozen=True, slots=True)
class DocumentFindings:
    """What of one document's accepted names survives, and where."""

    document_id: int
    leaks: tuple[Leak, ...]

    def reasons(self) -> list[str]:
        """ "document 7: 2 accepted name occurrences left in its text (PERSON ×2)",
        one line per place; labels and counts only."""
        lines = []
        for where, phrase in _WHERE.items():
            labels = Counter(leak.label for leak in self.leaks if leak.where == where)
            if labels:
                n = sum(labels.values())
                detail = ", ".join(f"{label} ×{count}" for label, count in sorted(labels.items()))
                noun = "occurrence" if n == 1 else "occurrences"
                lines.append(f"document {self.document_id}: {n} accepted name {noun} left {phrase} ({detail})")
        return lines


@dataclass(frozen=True, slots=True)
class GateDecision:
    """Whether the export (or one document of it) may be written, why not, and
    the findings per document."""

    allowed: bool
    reasons: tuple[str, ...] = ()
    findings: tuple[DocumentFindings, ...] = ()

    @classmethod
    def of(cls, findings: Iterable[DocumentFindings]) -> "GateDecision":
        found = tuple(f for f in findings if f.leaks)
        return cls(not found, tuple(line for f in found for line in f.reasons()), found)

    @property
    def leaks(self) -> list[tuple[int, Leak]]:
        return [(f.document_id, leak) for f in self.findings for leak in f.leaks]

    def summary(self) -> str:
        return f"{len(self.leaks)} occurrence(s) of accepted names still present in the output"

    def explain(self, shown: int = 5) -> str:
        """The summary and the first `shown` reasons, for a one-paragraph message
        (the report has every finding)."""
        reasons = "; ".join(self.reasons[:shown])
        if len(self.reasons) > shown:
            reasons += f"; and {len(self.reasons) - shown} more (see the leak report)"
        return f"{self.summary()} ({reasons})" if reasons else self.summary()

    def report(self) -> list[dict]:
        """Per residual: document, label, offsets in the original text, where it
        was found (the text, a member name, the manifest). Never the text itself."""
        return [
            {
                "document_id": doc_id,
                "label": leak.label,
                "span_start": leak.span_start,
                "span_end": leak.span_end,
                "output_offset": leak.output_offset,
                "where": leak.where,
            }
            for doc_id, leak in self.leaks
        ]


class LeakError(Exception):
    """The gate refused the export; `decision` says why."""

    def __init__(self, decision: GateDecision) -> None:
        self.decision = decision
        self.leaks = decision.leaks
        super().__init__(decision.summary())

    def report(self) -> list[dict]:
        return self.decision.report()


def text_findings(
    text: str,
    replacements: Sequence[Replacement],
    identity: NameIdentity,
    first: dict[str, Candidate],
) -> list[Leak]:
    """The accepted names left in a document's final `text`, made from the
    original by `replacements` (non-overlapping, offsets in the original). Each
    leak's span offsets are those of the residual in the original text."""
    if not identity:
        return []
    ordered = sorted(replacements, key=lambda r: r.start)
    generated, shifts = _generated_regions(ordered)
    skipped = [g for g, r in zip(generated, ordered, strict=True) if r.strategy not in READ_AS_TEXT]
    leaks = []
    for leak in residuals(text, identity, first, skipped):
        start = _original_offset(shifts, leak.output_offset)
        length = _occurrence_length(text, identity, leak.output_offset)
        leaks.append(Leak(leak.label, start, start + length, leak.output_offset, TEXT))
    return leaks


def _generated_regions(ordered: Sequence[Replacement]) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """The output regions each replacement wrote, and (output start, shift) pairs
    that map unchanged output text back onto the original."""
    regions, shifts, delta = [], [(0, 0)], 0
    for r in ordered:
        out_start = r.start + delta
        regions.append((out_start, out_start + len(r.replacement)))
        delta += len(r.replacement) - (r.end - r.start)
        shifts.append((out_start + len(r.replacement), delta))
    return regions, shifts


def _original_offset(shifts: list[tuple[int, int]], output_offset: int) -> int:
    i = bisect_right([s for s, _ in shifts], output_offset) - 1
    return output_offset - shifts[max(i, 0)][1]


def _occurrence_length(output: str, identity: NameIdentity, offset: int) -> int:
    found = identity.find(output[offset:])
    return found[0].end - found[0].start if found and found[0].start == 0 else 0


class LeakGate:
    """The gate of one export. The writer asks `check` for each document before
    writing it and `decision` before closing the zip."""

    def __init__(self, settings_json: str) -> None:
        # The manifest holds the settings, the member names and digests: the
        # member names are checked per document, the settings against each
        # document's names.
        self._settings_json = settings_json
        self._findings: list[DocumentFindings] = []

    def check(
        self,
        document_id: int,
        text_leaks: Sequence[Leak],
        members: Sequence[str],
        identity: NameIdentity | None,
        first: dict[str, Candidate],
    ) -> GateDecision:
        """May this document be written? Only while no document, this one or an
        earlier one, has a finding: once the export is refused, nothing more is."""
        leaks = list(text_leaks)
        if identity:
            for member in members:
                leaks += residuals(member, identity, first, where=MEMBER)
            leaks += residuals(self._settings_json, identity, first, where=MANIFEST)
        findings = DocumentFindings(document_id, tuple(leaks))
        if leaks:
            self._findings.append(findings)
        own = GateDecision.of([findings])
        if own.allowed and self._findings:
            refused = self._findings[0].document_id
            return GateDecision(False, (f"document {document_id}: not written, document {refused} leaks",))
        return own

    @property
    def allowed(self) -> bool:
        return not self._findings

    def decision(self) -> GateDecision:
        """The whole export's decision, over every document checked so far."""
        return GateDecision.of(self._findings)
