"""A corpus's memory (issue 17): accepted names and suppressed forms, built from
its approved documents and handed to detection (pipelines.detection.recognizers.memory).

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
- `corpus_memory_rebuild` learns from every approved document of a corpus again
  (idempotent); `corpus_memory_forget` takes a document out before it is deleted.
- `corpus_memory(corpus_id)`: what detection remembers, in two queries. Only this
  corpus's rows: a name accepted in one corpus never reaches another.
"""

from dataclasses import dataclass
from datetime import datetime

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from ingestion.models import DocumentStatus
from pipelines.detection.recognizers.memory import (
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
    ReviewAction,
    ReviewEvent,
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
                # In key order, like the suppressions below: two approvals sharing new
                # names insert them in the same order and cannot deadlock on PostgreSQL.
                for (label, form), text in sorted(decided.names.items())
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
            if row.form in decided.accepted and document_id not in row.accepted_documents:
                row.accepted_documents = sorted({*row.accepted_documents, document_id})
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
            changed,
            ["accepted_documents", "accepted", "labels", "documents", "rejected_count", "removed_at", "updated_at"],
        )
    return Learned(len(decided.names), len(forms))


def _approvals(corpus_id: int) -> list[tuple[int, datetime]]:
    """(document id, when it was last approved) of the corpus's approved documents, oldest first."""
    return list(
        ReviewEvent.objects.filter(
            document__corpus_id=corpus_id, document__status=DocumentStatus.APPROVED, action=ReviewAction.APPROVE
        )
        .values("document_id")
        .annotate(at=Max("created_at"))
        .order_by("at", "document_id")
        .values_list("document_id", "at")
    )


def corpus_memory_rebuild(*, corpus_id: int) -> int:
    """Learn from every approved document of the corpus, in the order they were
    approved, each at its approval time (documents approved before this feature, or
    a memory lost): idempotent, and entries removed since stay removed. Returns how
    many documents were read."""
    approvals = _approvals(corpus_id)
    for document_id, approved_at in approvals:
        corpus_memory_learn(document_id=document_id, corpus_id=corpus_id, approved_at=approved_at)
    return len(approvals)


@transaction.atomic
def corpus_memory_forget(*, document_id: int, corpus_id: int) -> int:
    """Take a document out of its corpus's memory (before it is deleted: deletion
    deletes what was made from it). Entries no other document backs go; suppressions
    it counted towards are counted again. Returns how many entries changed."""
    changed = 0
    for model in (CorpusMemoryName, CorpusSuppression):
        gone, kept = [], []
        for row in model.objects.select_for_update().filter(corpus_id=corpus_id).order_by("pk"):
            accepted = getattr(row, "accepted_documents", [])
            if document_id not in row.documents and document_id not in accepted:
                continue
            row.documents = [d for d in row.documents if d != document_id]
            if model is CorpusSuppression:
                row.accepted_documents = [d for d in accepted if d != document_id]
                row.accepted = bool(row.accepted_documents)
                row.rejected_count = len(row.documents)
                (kept if row.documents or row.accepted_documents else gone).append(row)
            else:
                (kept if row.documents else gone).append(row)
        model.objects.filter(pk__in=[r.pk for r in gone]).delete()
        fields = ["documents", "updated_at"]
        if model is CorpusSuppression:
            fields += ["accepted_documents", "accepted", "rejected_count"]
        model.objects.bulk_update(kept, fields)
        changed += len(gone) + len(kept)
    _forget_in_removals(document_id, corpus_id)
    return changed


REDACTED_FORM = "(deleted with the documents it came from)"


def _forget_in_removals(document_id: int, corpus_id: int) -> None:
    """The removal audit keeps who removed what and when, but not a name whose every
    source document is deleted: deletion deletes what was made from a document. The
    audit is append-only for people; this is the one update deletion makes to it."""
    for removal in CorpusMemoryRemoval.objects.filter(corpus_id=corpus_id).only("pk", "documents"):
        if document_id not in removal.documents:
            continue
        documents = [d for d in removal.documents if d != document_id]
        values: dict = {"documents": documents}
        if not documents:
            values["form"] = REDACTED_FORM
        # A queryset update: the model's save() refuses any change (AppendOnlyModel).
        CorpusMemoryRemoval.objects.filter(pk=removal.pk).update(**values)


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
