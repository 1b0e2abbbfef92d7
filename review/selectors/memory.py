"""Reads for a corpus's memory page (issue 17): its remembered names, its active
suppressions and the removals, each list one query (at most CORPUS_MEMORY_PAGE_ROWS
rows; one more is read to tell that the list goes on), and one more for the names
of the documents they came from."""

from dataclasses import dataclass

from django.conf import settings

from ingestion.models import Document
from review.models import CorpusMemoryName, CorpusMemoryRemoval
from review.services.corpus_memory import active_suppressions, suppression_min_documents


@dataclass(frozen=True)
class Listed:
    rows: list
    more: bool


def _first(queryset) -> Listed:
    limit = settings.CORPUS_MEMORY_PAGE_ROWS
    rows = list(queryset[: limit + 1])
    return Listed(rows[:limit], len(rows) > limit)


@dataclass(frozen=True)
class DocumentLink:
    pk: int
    # None: the document was deleted since (its id is all that is left).
    name: str | None


def _link_documents(corpus_id: int, *lists: Listed) -> None:
    """Each row's `document_links` (its first CORPUS_MEMORY_DOCUMENTS_PER_ROW
    documents, in order; `more_documents` counts the rest), named in one query of
    bounded size (only this corpus's documents: an id is never resolved in another
    corpus). A name accepted in thousands of documents must not make the page, or
    SQLite's limit on query parameters, grow with it."""
    shown = settings.CORPUS_MEMORY_DOCUMENTS_PER_ROW
    rows = [row for listed in lists for row in listed.rows]
    ids = {pk for row in rows for pk in row.documents[:shown]}
    names = dict(Document.objects.filter(corpus_id=corpus_id, pk__in=ids).values_list("pk", "name")) if ids else {}
    for row in rows:
        row.document_links = [DocumentLink(pk, names.get(pk)) for pk in row.documents[:shown]]
        row.more_documents = max(len(row.documents) - shown, 0)


@dataclass(frozen=True)
class MemoryPage:
    names: Listed
    suppressions: Listed
    removals: Listed
    min_documents: int
    reason_chars: int


def memory_page(corpus_id: int) -> MemoryPage:
    names = _first(
        CorpusMemoryName.objects.filter(corpus_id=corpus_id, removed_at__isnull=True).order_by("label", "form", "id")
    )
    suppressions = _first(active_suppressions(corpus_id).order_by("-rejected_count", "form", "id"))
    removals = _first(
        CorpusMemoryRemoval.objects.filter(corpus_id=corpus_id)
        .select_related("removed_by")
        .order_by("-removed_at", "-id")
    )
    _link_documents(corpus_id, names, suppressions, removals)
    return MemoryPage(
        names=names,
        suppressions=suppressions,
        removals=removals,
        min_documents=suppression_min_documents(),
        reason_chars=settings.CORPUS_MEMORY_REASON_CHARS,
    )
