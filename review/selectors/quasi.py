"""Reads of quasi-identifier flags (issue 18): the review page's layer, and the
residual risk of an export per document and per corpus.

"Left as written" is what an export leaves of a flag's text: the flags kept by a
reviewer and the ones nobody decided yet (an export does not touch them either).
Masked and generalised flags are replaced, and so is a flag inside one accepted span
(a reviewer accepted the stretch as a direct identifier after it was flagged: the
export replaces the span, see pipelines/export/quasi.py). A span that only partly
overlaps a flag does not count: the export applies the flag's own decision there.
"""

from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass, field

from django.conf import settings
from django.db.models import Count, Exists, OuterRef

from ingestion.models import Corpus, Document, DocumentStatus
from pipelines.labels import DIRECT_IDENTIFIER_LABELS
from pipelines.pseudonymize.generalize import generalize
from review.models import QuasiCategory, QuasiDecision, QuasiIdentifier, Span, SpanStatus

# What an export leaves of a flag as written: kept, or nobody decided.
LEFT_AS_WRITTEN: tuple[str, ...] = (QuasiDecision.KEEP, QuasiDecision.PENDING)
# Characters of text shown on each side of a flag in the layer.
CONTEXT_CHARS = 40
# The pseudo-decision of a flag inside an accepted span, in the risk counts.
COVERED = "covered"


def covered_by_a_span() -> Exists:
    """Whether one accepted span contains the whole flag (a correlated EXISTS on the
    spans' document/start index). The export decides the same way
    (pipelines/export/quasi.py): a span that only overlaps the flag gives way to the
    flag's mask or generalisation, so it does not make a kept flag replaced."""
    return Exists(
        Span.objects.filter(
            document_id=OuterRef("document_id"),
            status=SpanStatus.ACCEPTED,
            start__lte=OuterRef("start"),
            end__gte=OuterRef("end"),
        )
    )


@dataclass(frozen=True)
class FlagRow:
    flag: QuasiIdentifier
    before: str
    after: str
    suggestion: str


def document_flags(document: Document) -> list[FlagRow]:
    """The document's flags in reading order, each with a little context and the
    generalisation a "generalise" would use by default. One query."""
    text = document.text
    rows = []
    flags = QuasiIdentifier.objects.filter(document_id=document.pk).annotate(covered=covered_by_a_span())
    for flag in flags.order_by("start", "end"):
        rows.append(
            FlagRow(
                flag,
                " ".join(text[max(0, flag.start - CONTEXT_CHARS) : flag.start].split()),
                " ".join(text[flag.end : flag.end + CONTEXT_CHARS].split()),
                generalize(flag.text, flag.category, flag.rule),
            )
        )
    return rows


def flag_counts(rows: list[FlagRow]) -> dict[str, int]:
    counts = {value: 0 for value in QuasiDecision.values}
    for row in rows:
        counts[row.flag.decision] += 1
    return counts


def quasi_left_by_category(corpus: Corpus, statuses: tuple[str, ...] | None = None) -> dict[str, int]:
    """Flags left as written (kept or undecided) in the corpus's documents (those of
    `statuses` only, if given), by category. One GROUP BY."""
    flags = QuasiIdentifier.objects.filter(document__corpus=corpus, decision__in=LEFT_AS_WRITTEN).exclude(
        covered_by_a_span()
    )
    if statuses is not None:
        flags = flags.filter(document__status__in=statuses)
    rows = flags.values("category").annotate(n=Count("pk")).order_by()
    return {r["category"]: r["n"] for r in rows}


@dataclass
class DocumentRisk:
    document_id: int
    name: str
    status: str
    pending_direct: int = 0
    # category → {decision → count}
    flags: dict[str, dict[str, int]] = field(default_factory=lambda: defaultdict(dict))

    def count(self, decisions: tuple[str, ...], category: str | None = None) -> int:
        categories = [category] if category else list(self.flags)
        return sum(self.flags.get(c, {}).get(d, 0) for c in categories for d in decisions)

    @property
    def kept(self) -> int:
        return self.count((QuasiDecision.KEEP,))

    @property
    def undecided(self) -> int:
        return self.count((QuasiDecision.PENDING,))

    @property
    def left(self) -> int:
        return self.count(LEFT_AS_WRITTEN)

    @property
    def replaced(self) -> int:
        return self.count((QuasiDecision.MASK, QuasiDecision.GENERALISE, COVERED))

    @property
    def status_label(self) -> str:
        """The status as the other pages say it ("In review", not "in_review")."""
        return DocumentStatus(self.status).label if self.status in DocumentStatus.values else self.status

    @property
    def left_by_category(self) -> str:
        """ "DEM 1 · LOC 2": the categories with flags left as written."""
        counts = [(c, self.count(LEFT_AS_WRITTEN, c)) for c in QuasiCategory.values]
        return " · ".join(f"{c} {n}" for c, n in counts if n) or "none"


@dataclass
class CorpusRisk:
    documents: list[DocumentRisk]
    # How many documents a page lists (the totals count them all); None: every one.
    rows: int | None = None

    @property
    def shown(self) -> list[DocumentRisk]:
        return self.documents if self.rows is None else self.documents[: self.rows]

    @property
    def more(self) -> int:
        """Documents not listed (those with the fewest flags left as written)."""
        return len(self.documents) - len(self.shown)

    @property
    def pending_direct(self) -> int:
        return sum(d.pending_direct for d in self.documents)

    def _by_category(self, decisions: tuple[str, ...]) -> list[tuple[str, str, int]]:
        return [
            (c, QuasiCategory(c).label, sum(d.count(decisions, c) for d in self.documents))
            for c in QuasiCategory.values
        ]

    @property
    def kept_by_category(self) -> list[tuple[str, str, int]]:
        return self._by_category((QuasiDecision.KEEP,))

    @property
    def undecided_by_category(self) -> list[tuple[str, str, int]]:
        return self._by_category((QuasiDecision.PENDING,))

    @property
    def category_rows(self) -> list[tuple[str, str, int, int, int]]:
        """(category, description, kept, undecided, masked or generalised)."""
        replaced = self._by_category((QuasiDecision.MASK, QuasiDecision.GENERALISE, COVERED))
        return [
            (key, label, kept, undecided, r)
            for (key, label, kept), (_, _, undecided), (_, _, r) in zip(
                self.kept_by_category, self.undecided_by_category, replaced, strict=True
            )
        ]

    @property
    def kept(self) -> int:
        return sum(d.kept for d in self.documents)

    @property
    def undecided(self) -> int:
        return sum(d.undecided for d in self.documents)

    @property
    def summary(self) -> str:
        rows = self.category_rows
        parts = ", ".join(f"{key} {kept} kept, {undecided} undecided" for key, _, kept, undecided, _ in rows)
        return f"Quasi-identifiers left as written, by category: {parts}."


def corpus_risk(corpus: Corpus, document: Document | None = None) -> CorpusRisk:
    """The residual risk of the corpus's documents (or of one), documents with the
    most flags left as written first; a flag inside one accepted span counts as
    replaced whatever its decision. Three queries: the documents, their pending
    direct-identifier spans, their flags by category and decision."""
    documents = Document.objects.filter(corpus=corpus)
    spans = Span.objects.filter(document__corpus=corpus, label__in=DIRECT_IDENTIFIER_LABELS, status=SpanStatus.PENDING)
    flags = QuasiIdentifier.objects.filter(document__corpus=corpus).annotate(covered=covered_by_a_span())
    if document is not None:
        documents = documents.filter(pk=document.pk)
        spans = spans.filter(document_id=document.pk)
        flags = flags.filter(document_id=document.pk)
    risks = {
        r["id"]: DocumentRisk(r["id"], r["name"], r["status"])
        for r in documents.values("id", "name", "status").order_by()
    }
    for row in spans.values("document_id").annotate(n=Count("pk")).order_by():
        if row["document_id"] in risks:
            risks[row["document_id"]].pending_direct = row["n"]
    rows = flags.values("document_id", "category", "decision", "covered").annotate(n=Count("pk")).order_by()
    for row in rows:
        if row["document_id"] in risks:
            decision = COVERED if row["covered"] else row["decision"]
            counts = risks[row["document_id"]].flags[row["category"]]
            counts[decision] = counts.get(decision, 0) + row["n"]
    ordered = sorted(risks.values(), key=lambda d: (-d.left, -d.pending_direct, d.name, d.document_id))
    return CorpusRisk(ordered, settings.RESIDUAL_RISK_PAGE_ROWS)


def left_in_approved(corpus: Corpus) -> Mapping[str, int]:
    """Kept or undecided flags of the corpus's approved documents, by category."""
    return quasi_left_by_category(corpus, (DocumentStatus.APPROVED,))
