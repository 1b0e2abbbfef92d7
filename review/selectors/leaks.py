"""The leak report of an export the leak gate stopped: each residual occurrence of
an accepted name with its document, page and line, and a link to it.

The stored report (ExportBatch.report, written by the engine) holds labels and
offsets only, never text: the page and line come from the document's layout map."""

from dataclasses import dataclass

from django.urls import reverse

from ingestion.models import Document
from pipelines.extraction.transcript_layout import Locator
from review.models import ExportBatch

TEXT = "text"
# What to do about a residual the text of no document holds.
ADVICE = {
    "member": "A name is in a file name inside the zip: export with neutral file names (the default).",
    "manifest": "A name is in the export's settings (the corpus name?): rename the corpus, then export again.",
}


@dataclass(frozen=True)
class Residual:
    document_id: int
    document_name: str
    label: str
    start: int
    end: int
    where: str
    page: int | None
    line: int | None

    @property
    def redactable(self) -> bool:
        """In a document's text, at known offsets: a span can be drawn there."""
        return self.where == TEXT and 0 <= self.start < self.end

    @property
    def place(self) -> str:
        if self.where != TEXT:
            return {"member": "a file name", "manifest": "the manifest"}.get(self.where, self.where)
        if self.page is not None:
            return f"page {self.page}, line {self.line}"
        return f"characters {self.start}–{self.end}"

    @property
    def anchor(self) -> str:
        return f"L{self.page}-{self.line}" if self.page is not None else f"at-{self.start}"

    @property
    def url(self) -> str:
        """The review page at that place (the gutter's line, else the offset)."""
        return f"{reverse('document_review', args=[self.document_id])}?at={self.start}#{self.anchor}"

    @property
    def advice(self) -> str:
        return ADVICE.get(self.where, "")


@dataclass
class LeakReport:
    batch: ExportBatch
    residuals: list[Residual]

    @property
    def redactable(self) -> list[Residual]:
        return [r for r in self.residuals if r.redactable]

    @property
    def others(self) -> list[Residual]:
        return [r for r in self.residuals if not r.redactable]


def leak_report(batch: ExportBatch) -> LeakReport:
    """Every residual of the batch's report, located (one query for the documents)."""
    rows = [r for r in batch.report or [] if isinstance(r, dict) and "document_id" in r]
    documents = {
        d.pk: d
        for d in Document.objects.filter(pk__in={r["document_id"] for r in rows}, corpus_id=batch.corpus_id).only(
            "id", "name", "layout"
        )
    }
    locators = {pk: Locator(d.layout or []) for pk, d in documents.items()}
    residuals = []
    for row in rows:
        document = documents.get(row["document_id"])
        if document is None:
            continue
        where = row.get("where", TEXT)
        start, end = int(row.get("span_start", -1)), int(row.get("span_end", -1))
        located = locators[document.pk].locate(start) if where == TEXT and start >= 0 else None
        page, line = located if located else (None, None)
        residuals.append(Residual(document.pk, document.name, row["label"], start, end, where, page, line))
    residuals.sort(key=lambda r: (r.document_id, r.where != TEXT, r.start))
    return LeakReport(batch, residuals)
