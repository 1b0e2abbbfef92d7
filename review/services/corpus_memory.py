"""A corpus's memory (issue 17): accepted names and suppressed forms, built from
its approved documents and handed to detection (pipelines.detection.memory).

The one writer of CorpusMemoryName, CorpusSuppression and CorpusMemoryRemoval.

- `corpus_memory_learn` runs when a document is approved (workflow.document_approve):
  its accepted names (the labels of `MEMORY_LABELS`) join the corpus's names, and
  every surface form it decided is tallied: rejected (a machine span a reviewer
  rejected, not one superseded by an accepted span over the same text) in which
  documents, accepted or not. Idempotent: a document counts once per entry.
- A form rejected in CORPUS_SUPPRESSION_MIN_DOCUMENTS approved documents and never
  accepted in the corpus (under any label, nor as a part of an accepted person's
  name) is an active suppression.
- `memory_entry_remove`: a corpus admin removes a name or a suppression; the
  removal is audited. A removed entry stays removed: the documents that decided it
  before the removal no longer count, and only a document approved after the
  removal that decides the form again brings it back (with that document alone).
- `corpus_memory(corpus_id)`: what detection remembers, in two queries. Only this
  corpus's rows: a name accepted in one corpus never reaches another.
"""

from dataclasses import dataclass
from datetime import datetime

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone

from pipelines.detection.memory import (
    MEMORY_LABELS,
    CorpusMemory,
    MemoryName,
    Suppression,
    suppression_form,
)
from pipelines.names import name_parts
from review.errors import ReviewError
from review.models import (
    CorpusMemoryName,
    CorpusMemoryRemoval,
    CorpusSuppression,
    MemoryKind,
    Span,
    SpanStatus,
)
from review.models.memory import MAX_FORM_CHARS


def suppression_min_documents() -> int:
    return max(1, int(settings.CORPUS_SUPPRESSION_MIN_DOCUMENTS))


def corpus_memory(corpus_id: int) -> CorpusMemory | None:
    """What detection of a document of this corpus should remember; None: nothing."""
    names = tuple(
        MemoryName(text, label, tuple(documents))
        for text, label, documents in CorpusMemoryName.objects.filter(
            corpus_id=corpus_id, removed_at__isnull=True
        ).values_list("text", "label", "documents")
    )
    suppressions = tuple(
        Suppression(form, frozenset(labels), tuple(documents))
        for form, labels, documents in active_suppressions(corpus_id).values_list("form", "labels", "documents")
    )
    if not names and not suppressions:
        return None
    return CorpusMemory(names, suppressions)


def active_suppressions(corpus_id: int):
    """The corpus's suppressions detection applies (a queryset; the selectors list it too)."""
    return CorpusSuppression.objects.filter(
        corpus_id=corpus_id,
        removed_at__isnull=True,
        accepted=False,
        rejected_count__gte=suppression_min_documents(),
    )


@dataclass(frozen=True)
class Decisions:
    """What one approved document decided, by surface form."""

    # (label, form) → the surface text as accepted
    names: dict[tuple[str, str], str]
    accepted: set[str]
    # form → the labels it was rejected as
    rejected: dict[str, set[str]]


def _decisions(document_id: int) -> Decisions:
    rows = list(
        Span.objects.filter(document_id=document_id, status__in=(SpanStatus.ACCEPTED, SpanStatus.REJECTED))
        .order_by("start", "end")
        .values_list("start", "end", "text", "label", "status", "created_by_id")
    )
    accepted_extents = [(start, end) for start, end, _t, _l, status, _c in rows if status == SpanStatus.ACCEPTED]
    names: dict[tuple[str, str], str] = {}
    accepted: set[str] = set()
    rejected: dict[str, set[str]] = {}
    for start, end, text, label, status, creator in rows:
        form = suppression_form(text)
        if not form or len(form) > MAX_FORM_CHARS:
            continue
        if status == SpanStatus.ACCEPTED:
            accepted.add(form)
            if label == "PERSON":
                accepted.update(name_parts(text))
            if label in MEMORY_LABELS:
                names.setdefault((label, form), " ".join(text.split()))
        elif creator is None and not any(s < end and start < e for s, e in accepted_extents):
            # A machine span rejected for itself; one that overlaps an accepted span
            # was superseded or resized: its boundary was wrong, not its text.
            rejected.setdefault(form, set()).add(label)
    for form in accepted:
        rejected.pop(form, None)
    return Decisions(names, accepted, rejected)


def _count(row, document_id: int, approved_at: datetime) -> bool:
    """Count the document for this entry; False if nothing changes. A removed entry
    only comes back for a document approved after its removal, with that document
    alone: what was decided before the removal no longer counts."""
    if row.removed_at is not None:
        if approved_at <= row.removed_at:
            return False
        row.removed_at = None
        row.documents = [document_id]
        return True
    if document_id in row.documents:
        return False
    row.documents = sorted({*row.documents, document_id})
    return True


@dataclass(frozen=True)
class Learned:
    names: int
    decided_forms: int


@transaction.atomic
def corpus_memory_learn(*, document_id: int, corpus_id: int, approved_at: datetime | None = None) -> Learned:
    """Add an approved document's decisions to its corpus's memory (idempotent)."""
    approved_at = approved_at or timezone.now()
    decided = _decisions(document_id)
    if decided.names:
        CorpusMemoryName.objects.bulk_create(
            [
                CorpusMemoryName(corpus_id=corpus_id, label=label, form=form, text=text[:MAX_FORM_CHARS])
                for (label, form), text in decided.names.items()
            ],
            ignore_conflicts=True,
        )
        rows = CorpusMemoryName.objects.select_for_update().filter(
            corpus_id=corpus_id, form__in={form for _label, form in decided.names}
        )
        changed = [r for r in rows if (r.label, r.form) in decided.names and _count(r, document_id, approved_at)]
        CorpusMemoryName.objects.bulk_update(changed, ["documents", "removed_at", "updated_at"])
    forms = set(decided.accepted) | set(decided.rejected)
    if forms:
        CorpusSuppression.objects.bulk_create(
            [CorpusSuppression(corpus_id=corpus_id, form=form) for form in sorted(forms)], ignore_conflicts=True
        )
        changed = []
        for row in CorpusSuppression.objects.select_for_update().filter(corpus_id=corpus_id, form__in=forms):
            dirty = False
            if row.form in decided.accepted and not row.accepted:
                row.accepted = dirty = True
            if row.form in decided.rejected:
                was_removed = row.removed_at is not None
                if _count(row, document_id, approved_at):
                    known = set() if was_removed else set(row.labels)
                    row.labels = sorted(known | decided.rejected[row.form])
                    row.rejected_count = len(row.documents)
                    dirty = True
            if dirty:
                changed.append(row)
        CorpusSuppression.objects.bulk_update(
            changed, ["accepted", "labels", "documents", "rejected_count", "removed_at", "updated_at"]
        )
    return Learned(len(decided.names), len(forms))


@transaction.atomic
def memory_entry_remove(
    *, corpus_id: int, kind: str, entry_id: int, user: AbstractBaseUser, reason: str = ""
) -> CorpusMemoryRemoval:
    """A corpus admin removes a remembered name or a suppression (the caller checked
    the role); the removal is audited with the entry as it was."""
    if kind not in MemoryKind.values:
        raise ReviewError(f"Unknown memory entry kind {kind!r}.")
    reason = reason.strip()
    if len(reason) > settings.CORPUS_MEMORY_REASON_CHARS:
        raise ReviewError(f"The reason is too long (at most {settings.CORPUS_MEMORY_REASON_CHARS} characters).")
    model = CorpusMemoryName if kind == MemoryKind.NAME else CorpusSuppression
    row = model.objects.select_for_update().filter(corpus_id=corpus_id, pk=entry_id, removed_at__isnull=True).first()
    if row is None:
        raise ReviewError("This entry is no longer in the corpus's memory; reload the page.")
    row.removed_at = timezone.now()
    row.save(update_fields=["removed_at", "updated_at"])
    labels = [row.label] if kind == MemoryKind.NAME else list(row.labels)
    return CorpusMemoryRemoval.objects.create(
        corpus_id=corpus_id,
        kind=kind,
        form=row.text if kind == MemoryKind.NAME else row.form,
        labels=labels,
        documents=list(row.documents),
        reason=reason,
        removed_by=user,
    )
