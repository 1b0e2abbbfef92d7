"""Deletion deletes: a document, a corpus or an export goes with every file made
from it. The admin deletes through here too (review/admin.py).

- a document: its row (spans, events, runs cascade), its original, and the zips
  of its corpus's exports made since it was uploaded (they may hold its text and
  its index of names; each batch keeps its record, with the reason), and what
  the corpus memory learnt from it alone, and the corpus models trained or judged
  on it (their directories hold its text; the versions are retired);
- a corpus: its exports' zips, its corpus models' files, its documents' originals,
  then the rows;
- an export: its row and its zip.

Files go once the transaction commits, so a delete that rolls back keeps them.
Each row is deleted by its own table's service (ingestion.services,
review.services.export)."""

from django.db import transaction

from ingestion import services as ingestion
from ingestion.models import Corpus, Document
from review.models import ExportBatch
from review.services import corpus_memory, corpus_models, export


@transaction.atomic
def document_delete(*, document: Document) -> int:
    """Returns how many export zips went with it."""
    zips = 0
    # A document's text is set once: one without it (a file no text could be read
    # from) never had spans nor was exported, so no zip holds anything of it.
    if document.text:
        zips = export.exports_delete_files(
            corpus_id=document.corpus_id,
            since=document.created_at,
            reason=f"The zip was deleted with document “{document.name}”, which it may contain.",
        )
    # What the corpus learnt from it goes too (names no other document backs).
    corpus_memory.corpus_memory_forget(document_id=document.pk, corpus_id=document.corpus_id)
    # Corpus models trained or judged on it: their files hold its text.
    corpus_models.corpus_models_forget_document(document_id=document.pk, corpus_id=document.corpus_id)
    ingestion.document_delete(document=document)
    return zips


@transaction.atomic
def corpus_delete(*, corpus: Corpus) -> None:
    export.exports_delete_files(corpus_id=corpus.pk, reason="The zip was deleted with its corpus.")
    corpus_models.corpus_models_delete_files(corpus_id=corpus.pk)
    ingestion.corpus_delete(corpus=corpus)


@transaction.atomic
def export_delete(*, batch: ExportBatch) -> None:
    export.export_delete(batch=batch)
