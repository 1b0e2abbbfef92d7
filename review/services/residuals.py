"""Redact what the leak gate found: every residual occurrence of an accepted name
in a document's text becomes an accepted span, in one audited operation (one
bulk id over all the documents), after which the export can run again."""

import uuid
from dataclasses import dataclass, field

from django.contrib.auth.models import AbstractBaseUser

from ingestion.models import Document
from review.errors import ReviewError
from review.models import ExportBatch, ReviewAction, Span, SpanStatus
from review.services.spans import Change, check_open, operation, write

RULE = "leak report"


@dataclass
class Redacted:
    bulk_id: uuid.UUID
    created: list[Span] = field(default_factory=list)
    # Documents that could not be changed (approved: reopen them first), with why.
    refused: dict[int, str] = field(default_factory=dict)

    @property
    def message(self) -> str:
        n = len(self.created)
        text = f"Redacted {n} remaining occurrence{'s' if n != 1 else ''} as accepted spans."
        if self.refused:
            text += " Not changed: " + "; ".join(f"document {pk}: {why}" for pk, why in self.refused.items())
        return text


def _regions(batch: ExportBatch) -> dict[int, list[tuple[int, int, str]]]:
    regions: dict[int, list[tuple[int, int, str]]] = {}
    for row in batch.report or []:
        if not isinstance(row, dict) or row.get("where", "text") != "text":
            continue
        start, end = int(row.get("span_start", -1)), int(row.get("span_end", -1))
        if 0 <= start < end:
            regions.setdefault(int(row["document_id"]), []).append((start, end, str(row["label"])))
    return regions


@operation
def redact_residuals(*, batch: ExportBatch, user: AbstractBaseUser) -> Redacted:
    """Accepted spans (source "human", rule "leak report") over every residual in
    the texts of the batch's documents. Pending spans they overlap are superseded,
    as when a reviewer adds a span; a residual already under an accepted span is
    left alone. Approved documents are refused (they are closed to changes)."""
    regions = _regions(batch)
    outcome = Redacted(bulk_id=uuid.uuid4())
    documents = Document.objects.filter(pk__in=regions, corpus_id=batch.corpus_id).order_by("pk")
    for document in documents:
        try:
            check_open(document)
        except ReviewError as exc:
            outcome.refused[document.pk] = str(exc)
            continue
        spans = list(Span.objects.filter(document_id=document.pk))
        live = [s for s in spans if s.status != SpanStatus.REJECTED]
        created: list[Span] = []
        superseded: dict[int, Span] = {}
        taken: list[tuple[int, int]] = []
        for start, end, label in sorted(set(regions[document.pk])):
            if end > len(document.text) or any(a < end and start < b for a, b in taken):
                continue
            over = [s for s in live if s.start < end and start < s.end]
            if any(s.status == SpanStatus.ACCEPTED for s in over):
                continue
            superseded.update((s.pk, s) for s in over)
            taken.append((start, end))
            created.append(
                Span(
                    document=document,
                    start=start,
                    end=end,
                    label=label,
                    text=document.text[start:end],
                    status=SpanStatus.ACCEPTED,
                    sources=["human"],
                    score=1.0,
                    rule=RULE,
                    created_by=user,
                )
            )
        if not created:
            continue
        write(
            document=document,
            user=user,
            bulk_id=outcome.bulk_id,
            changes=[
                Change(
                    list(superseded.values()),
                    {"status": SpanStatus.REJECTED, "reject_reason": ""},
                    ReviewAction.SUPERSEDE,
                )
            ],
            created=created,
            read=spans,
            regions=taken,
            check_revision=True,
            bump_revision=True,
        )
        outcome.created += created
    return outcome
