"""The leak report of an export the leak gate stopped: each residual occurrence of
an accepted name with its document, page and line, and a link to it.

The stored report (ExportBatch.report, written by the engine) holds labels and
offsets only, never text: the page and line come from the document's layout map.
A finding in the manifest's settings names the setting by its key (`setting`,
added by review/services/export.py), never its value."""

from dataclasses import dataclass

from django.urls import reverse

from ingestion.models import Document
from pipelines.export.leak_check import MANIFEST, MEMBER, TEXT
from pipelines.extraction.transcript_layout import Locator
from review.models import ExportBatch
from review.services.export import MANIFEST_SETTINGS, settings_advice

# What to do about a name in a zip member's name (the manifest's: `settings_advice`).
MEMBER_ADVICE = "A name is in a file name inside the zip: export with neutral file names (the default)."


@dataclass(frozen=True)
class Residual:
    document_id: int
    document_name: str
    label: str
    # In the text: the residual's offsets. Elsewhere: the accepted span's whose
    # name it is (-1 when unknown), so that the report can point at that name.
    start: int
    end: int
    where: str
    page: int | None
    line: int | None
    corpus_id: int = 0
    # In the manifest: the key of the setting that holds the name (None: unknown,
    # a report stored before settings were named).
    setting: str | None = None

    @property
    def redactable(self) -> bool:
        """In a document's text, at known offsets: a span can be drawn there."""
        return self.where == TEXT and 0 <= self.start < self.end

    @property
    def setting_name(self) -> str:
        """The manifest's setting in words ("the corpus name"), never its value."""
        if self.setting is None:
            return "a setting"
        return MANIFEST_SETTINGS.get(self.setting, f"the setting “{self.setting}”")

    @property
    def place(self) -> str:
        if self.where == MANIFEST:
            return f"the manifest's settings: {self.setting_name}"
        if self.where != TEXT:
            return {MEMBER: "a file name"}.get(self.where, self.where)
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
    def named_at(self) -> str | None:
        """Outside the text: where the document accepts the name found there (the
        review page's place), for the reviewer to see which name it is without the
        report printing it; None when unknown."""
        return self.url if self.where != TEXT and self.start >= 0 else None

    @property
    def advice(self) -> str:
        if self.where == MANIFEST:
            return settings_advice(self.setting)
        return MEMBER_ADVICE if self.where == MEMBER else ""

    @property
    def fix_url(self) -> str | None:
        """The form that removes the name: the corpus's settings (its name), for a
        name in the manifest's corpus name or in a setting no longer known."""
        if self.where == MANIFEST and self.setting in ("corpus", None):
            return reverse("corpus_settings", args=[self.corpus_id])
        return None


@dataclass
class LeakReport:
    batch: ExportBatch
    residuals: list[Residual]

    @property
    def redactable(self) -> list[Residual]:
        return [r for r in self.residuals if r.redactable]

    @property
    def in_settings(self) -> list[Residual]:
        return [r for r in self.residuals if r.where == MANIFEST]

    @property
    def others(self) -> list[Residual]:
        """Neither redactable nor in the settings: a file name, a lost offset."""
        return [r for r in self.residuals if not r.redactable and r.where != MANIFEST]


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
        # Outside the text, the offsets are the accepted name's: located the same way.
        located = locators[document.pk].locate(start) if start >= 0 else None
        page, line = located if located else (None, None)
        residuals.append(
            Residual(
                document.pk,
                document.name,
                row["label"],
                start,
                end,
                where,
                page,
                line,
                corpus_id=batch.corpus_id,
                setting=row.get("setting"),
            )
        )
    residuals.sort(key=lambda r: (r.document_id, r.where != TEXT, r.start))
    return LeakReport(batch, residuals)
