"""Corpus memory stored (issue 17): learnt when a document is approved, through the
services as a reviewer works; suppressions after k documents, never accepted;
removal audited and sticky; one corpus never sees another's memory."""

from io import StringIO

import pytest
from django.core.management import call_command

from ingestion.models import Corpus, Document
from pipelines.detection.recognizers.memory import MEMORY_SOURCE
from review.errors import ReviewError
from review.models import (
    CorpusMembership,
    CorpusMemoryName,
    CorpusMemoryRemoval,
    CorpusSuppression,
    Role,
    Span,
    SpanStatus,
)
from review.models.append_only import AppendOnlyError
from review.services.corpus_memory import (
    corpus_memory,
    corpus_memory_forget,
    corpus_memory_learn,
    corpus_memory_rebuild,
    memory_entry_remove,
)
from review.services.decisions import span_accept, span_add, span_reject
from review.services.uploads import ingest_document
from review.services.workflow import document_approve, document_mark_reviewed

pytestmark = pytest.mark.django_db


def make_document(corpus, text: str, name: str) -> Document:
    return Document.objects.create(corpus=corpus, name=name, sha256=name, text=text, status="ready")


def machine(document: Document, needle: str, label: str = "PERSON") -> None:
    at = document.text.find(needle)
    while at >= 0:
        Span.objects.create(
            document=document, start=at, end=at + len(needle), label=label, text=needle, sources=["spacy"], score=0.6
        )
        at = document.text.find(needle, at + 1)


def review(document: Document, user, admin, accept=(), reject=()) -> None:
    """Decide every span as a reviewer would (apply-to-all on), then approve."""
    for text in accept:
        span_accept(span=Span.objects.filter(document=document, text=text, status="pending").first(), user=user)
    for text in reject:
        span = Span.objects.filter(document=document, text=text, status="pending").first()
        span_reject(span=span, user=user, reason="not_identifying")
    assert not document.spans.filter(status=SpanStatus.PENDING).exists()
    document.refresh_from_db()  # the first decision moved it into review
    document_mark_reviewed(document=document, user=user)
    document_approve(document=document, user=admin)


def approved(corpus, reviewer, admin_user, name: str, accept=(), reject=(), extra=()) -> Document:
    text = "INMATE DELGADO: Correct. Officer Brandt drove to Vacaville. Correct.\n"
    document = make_document(corpus, text, name)
    for needle, label in [("DELGADO", "PERSON"), ("Correct", "PERSON"), ("Brandt", "PERSON"), *extra]:
        machine(document, needle, label)
    review(document, reviewer, admin_user, accept=accept, reject=reject)
    return document


def test_approval_learns_names_and_suppresses_after_k_documents_never_accepted(corpus, reviewer, admin_user):
    first = approved(corpus, reviewer, admin_user, "1.txt", accept=["DELGADO", "Brandt"], reject=["Correct"])
    names = {(n.label, n.form, n.text, tuple(n.documents)) for n in CorpusMemoryName.objects.filter(corpus=corpus)}
    assert names == {("PERSON", "delgado", "DELGADO", (first.pk,)), ("PERSON", "brandt", "Brandt", (first.pk,))}
    memory = corpus_memory(corpus.pk)
    assert memory is not None and not memory.suppressions  # one document is not enough (k = 2)

    second = approved(corpus, reviewer, admin_user, "2.txt", accept=["DELGADO"], reject=["Correct", "Brandt"])
    memory = corpus_memory(corpus.pk)
    assert [(s.form, s.labels, s.documents) for s in memory.suppressions] == [
        ("correct", frozenset({"PERSON"}), (first.pk, second.pk))
    ]
    # "Brandt" was accepted in the first document: never suppressed.
    assert CorpusSuppression.objects.get(corpus=corpus, form="brandt").accepted
    names = {(n.text, n.documents) for n in memory.names}
    assert names == {("DELGADO", (first.pk, second.pk)), ("Brandt", (first.pk,))}

    # Idempotent: learning a document again changes nothing.
    before = list(CorpusSuppression.objects.values_list("form", "documents", "rejected_count", "accepted"))
    corpus_memory_learn(document_id=second.pk, corpus_id=corpus.pk)
    assert list(CorpusSuppression.objects.values_list("form", "documents", "rejected_count", "accepted")) == before
    assert corpus_memory(corpus.pk) == memory

    # Accepted once more anywhere in the corpus: no longer suppressed.
    approved(corpus, reviewer, admin_user, "3.txt", accept=["DELGADO", "Correct", "Brandt"])
    assert not corpus_memory(corpus.pk).suppressions


def test_a_rejection_superseded_by_an_accepted_span_is_no_rejection(corpus, reviewer, admin_user, settings):
    settings.CORPUS_SUPPRESSION_MIN_DOCUMENTS = 1
    document = make_document(corpus, "Officer Brandt Miller came.\n", "1.txt")
    machine(document, "Brandt")
    at = document.text.index("Brandt Miller")
    span_add(document=document, user=reviewer, start=at, end=at + len("Brandt Miller"), label="PERSON")
    assert Span.objects.get(document=document, text="Brandt").status == SpanStatus.REJECTED  # superseded
    document.refresh_from_db()
    document_mark_reviewed(document=document, user=reviewer)
    document_approve(document=document, user=admin_user)
    assert not CorpusSuppression.objects.filter(corpus=corpus, rejected_count__gt=0).exists()
    assert [n.text for n in corpus_memory(corpus.pk).names] == ["Brandt Miller"]


def test_removal_is_audited_and_sticks_until_decided_again_after_it(corpus, reviewer, admin_user):
    first = approved(corpus, reviewer, admin_user, "1.txt", accept=["DELGADO", "Brandt"], reject=["Correct"])
    second = approved(corpus, reviewer, admin_user, "2.txt", accept=["DELGADO", "Brandt"], reject=["Correct"])
    name = CorpusMemoryName.objects.get(corpus=corpus, form="brandt")
    suppression = CorpusSuppression.objects.get(corpus=corpus, form="correct")
    removal = memory_entry_remove(
        corpus_id=corpus.pk, kind="name", entry_id=name.pk, user=admin_user, reason="a public official"
    )
    memory_entry_remove(corpus_id=corpus.pk, kind="suppression", entry_id=suppression.pk, user=admin_user)
    assert (removal.form, removal.labels, removal.documents, removal.reason, removal.removed_by) == (
        "Brandt",
        ["PERSON"],
        [first.pk, second.pk],
        "a public official",
        admin_user,
    )
    with pytest.raises(AppendOnlyError):
        removal.delete()
    with pytest.raises(ReviewError, match="no longer"):
        memory_entry_remove(corpus_id=corpus.pk, kind="name", entry_id=name.pk, user=admin_user)
    memory = corpus_memory(corpus.pk)
    assert [n.text for n in memory.names] == ["DELGADO"] and not memory.suppressions

    # Learning the documents approved before the removal again brings nothing back.
    for document in (first, second):
        corpus_memory_learn(document_id=document.pk, corpus_id=corpus.pk, approved_at=name.created_at)
    assert corpus_memory(corpus.pk) == memory
    # A document approved after the removal that rejects "Correct" again counts
    # alone (1 < k); one that accepts "Brandt" again brings the name back, from it alone.
    third = approved(corpus, reviewer, admin_user, "3.txt", accept=["DELGADO", "Brandt"], reject=["Correct"])
    memory = corpus_memory(corpus.pk)
    assert {(n.text, n.documents) for n in memory.names} == {
        ("DELGADO", (first.pk, second.pk, third.pk)),
        ("Brandt", (third.pk,)),
    }
    assert not memory.suppressions
    assert CorpusSuppression.objects.get(corpus=corpus, form="correct").documents == [third.pk]
    assert CorpusMemoryRemoval.objects.filter(corpus=corpus).count() == 2


def test_a_corpus_never_sees_another_corpus_memory(
    corpus, reviewer, admin_user, make_user, django_capture_on_commit_callbacks
):
    approved(
        corpus,
        reviewer,
        admin_user,
        "1.txt",
        accept=["DELGADO", "Brandt", "Vacaville"],
        reject=["Correct"],
        extra=[("Vacaville", "LOCATION")],
    )
    other = Corpus.objects.create(name="Other hearings")
    owner = make_user("other-owner")
    CorpusMembership.objects.create(corpus=other, user=owner, role=Role.ADMIN)
    assert corpus_memory(other.pk) is None
    text = "The board met. Brandt said nothing about Vacaville today.\n"
    with django_capture_on_commit_callbacks(execute=True):
        in_other, _ = ingest_document(corpus=other, name="b.txt", data=text.encode(), user=owner)
        in_same, _ = ingest_document(corpus=corpus, name="a.txt", data=text.encode(), user=admin_user)
    in_other.refresh_from_db()
    in_same.refresh_from_db()
    assert in_other.status == in_same.status == "ready"
    assert not [s for s in in_other.spans.all() if MEMORY_SOURCE in s.sources]
    remembered = {s.text: s.rule for s in in_same.spans.all() if MEMORY_SOURCE in s.sources}
    first = Document.objects.get(corpus=corpus, name="1.txt")
    assert remembered["Brandt"].startswith(f"corpus-memory: document {first.pk}")
    assert "Vacaville" in remembered


def _state(corpus) -> tuple[list, list]:
    names = list(CorpusMemoryName.objects.filter(corpus=corpus).values_list("label", "form", "documents", "removed_at"))
    suppressions = list(
        CorpusSuppression.objects.filter(corpus=corpus).values_list(
            "form", "labels", "documents", "rejected_count", "accepted_documents", "accepted", "removed_at"
        )
    )
    return sorted(names, key=str), sorted(suppressions, key=str)


def test_rebuild_learns_every_approved_document_again_idempotently(corpus, reviewer, admin_user):
    approved(corpus, reviewer, admin_user, "1.txt", accept=["DELGADO", "Brandt"], reject=["Correct"])
    approved(corpus, reviewer, admin_user, "2.txt", accept=["DELGADO"], reject=["Correct", "Brandt"])
    memory_entry_remove(
        corpus_id=corpus.pk,
        kind="name",
        entry_id=CorpusMemoryName.objects.get(form="delgado").pk,
        user=admin_user,
    )
    learnt = _state(corpus)
    assert corpus_memory_rebuild(corpus_id=corpus.pk) == 2
    assert _state(corpus) == learnt  # nothing new, and the removed name stays removed
    # A memory lost (documents approved before it existed) comes back as learnt.
    CorpusMemoryName.objects.filter(corpus=corpus).delete()
    CorpusSuppression.objects.filter(corpus=corpus).delete()
    call_command("corpus_memory_rebuild", "--corpus", corpus.name, stdout=StringIO())
    names, suppressions = _state(corpus)
    assert [(label, form, docs) for label, form, docs, _ in names] == [
        (label, form, docs) for label, form, docs, _ in learnt[0]
    ]
    assert suppressions == learnt[1]


def test_forgetting_a_document_takes_out_what_only_it_taught(corpus, reviewer, admin_user):
    first = approved(corpus, reviewer, admin_user, "1.txt", accept=["DELGADO", "Brandt"], reject=["Correct"])
    second = approved(corpus, reviewer, admin_user, "2.txt", accept=["DELGADO"], reject=["Correct", "Brandt"])
    assert [s.form for s in corpus_memory(corpus.pk).suppressions] == ["correct"]
    corpus_memory_forget(document_id=first.pk, corpus_id=corpus.pk)
    memory = corpus_memory(corpus.pk)
    assert [(n.text, n.documents) for n in memory.names] == [("DELGADO", (second.pk,))]
    assert not memory.suppressions  # "Correct" is rejected in one document now
    brandt = CorpusSuppression.objects.get(corpus=corpus, form="brandt")
    # Accepted only in the forgotten document: now a rejection like any other.
    assert (brandt.accepted, brandt.accepted_documents, brandt.documents) == (False, [], [second.pk])
    corpus_memory_forget(document_id=second.pk, corpus_id=corpus.pk)
    assert corpus_memory(corpus.pk) is None
    assert not CorpusMemoryName.objects.filter(corpus=corpus).exists()
    assert not CorpusSuppression.objects.filter(corpus=corpus).exists()


def test_deleting_a_document_deletes_what_the_memory_learnt_from_it(corpus, reviewer, admin_user):
    from review.services.deletion import document_delete

    first = approved(corpus, reviewer, admin_user, "1.txt", accept=["DELGADO", "Brandt"], reject=["Correct"])
    second = approved(corpus, reviewer, admin_user, "2.txt", accept=["DELGADO"], reject=["Correct", "Brandt"])
    document_delete(document=first)
    memory = corpus_memory(corpus.pk)
    # "Brandt" was learnt from the deleted document alone: deletion takes it along.
    assert [(n.text, n.documents) for n in memory.names] == [("DELGADO", (second.pk,))]


def test_a_removal_audit_keeps_no_name_once_its_documents_are_deleted(corpus, reviewer, admin_user):
    from review.services.deletion import document_delete

    first = approved(corpus, reviewer, admin_user, "1.txt", accept=["DELGADO", "Brandt"], reject=["Correct"])
    name = CorpusMemoryName.objects.get(corpus=corpus, text="Brandt")
    memory_entry_remove(corpus_id=corpus.pk, kind="name", entry_id=name.pk, user=admin_user, reason="a witness")
    document_delete(document=first)
    removal = CorpusMemoryRemoval.objects.get(corpus=corpus)
    # Who removed what kind of entry, when and why stays; the name and its source do not.
    assert (removal.form, removal.documents, removal.reason) == (
        "(deleted with the documents it came from)",
        [],
        "a witness",
    )
