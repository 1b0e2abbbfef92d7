"""Review services: apply-to-all, reject reasons, resize, delete, bulk decisions,
undo by operation, and version checks; plus the side panel and preview selectors."""

import uuid

import pytest
from django.db import connection
from django.db.models import F
from django.test.utils import CaptureQueriesContext

from ingestion.models import Document
from review.errors import ReviewError, StaleSpan
from review.models import ReviewAction, ReviewEvent, Span, SpanStatus
from review.selectors.document import Filters, entity_groups, line_starts, preview_text, segments
from review.selectors.history import first_befores, machine_vs_final
from review.services import spans as span_writer
from review.services.decisions import (
    bulk_decide,
    span_accept,
    span_add,
    span_delete,
    span_link,
    span_reject,
    span_relabel,
    span_resize,
)
from review.services.undo import redo_last, undo_last
from review.text import word_step

pytestmark = pytest.mark.django_db

TEXT = (
    "COMMISSIONER HARTWELL: Mr. Delgado, good morning.\n"
    "INMATE DELGADO: Good morning. John Smith wrote to Delgado.\n"
    "COMMISSIONER HARTWELL: Thank you, Mr.  Delgado. Call 555-0147.\n"
)


def make_document(corpus, text: str = TEXT) -> Document:
    return Document.objects.create(corpus=corpus, name="t.txt", sha256=str(hash(text)), text=text, status="ready")


def add_machine(document: Document, needle: str, label: str = "PERSON", nth: int | None = None, **extra) -> list:
    """Machine spans over every occurrence of `needle` (or only the nth)."""
    spans, at = [], document.text.find(needle)
    while at >= 0:
        spans.append(at)
        at = document.text.find(needle, at + 1)
    if nth is not None:
        spans = [spans[nth]]
    defaults = {"sources": ["spacy"], "score": 0.85}
    defaults.update(extra)
    return [
        Span.objects.create(document=document, start=s, end=s + len(needle), label=label, text=needle, **defaults)
        for s in spans
    ]


@pytest.fixture
def doc(corpus):
    document = make_document(corpus)
    add_machine(document, "HARTWELL")
    add_machine(document, "Delgado")
    add_machine(document, "DELGADO")
    add_machine(document, "John", sources=["spacy", "presidio"], score=0.95)
    add_machine(document, "555-0147", label="PHONE_NUMBER", sources=["patterns"], score=0.6)
    return document


def spans_of(document, text):
    return list(Span.objects.filter(document=document, text=text).order_by("start"))


def test_accept_applies_to_all_pending_occurrences_as_one_operation(doc, reviewer):
    first = spans_of(doc, "Delgado")[0]
    outcome = span_accept(span=first, user=reviewer, version=first.version)
    # "Delgado" ×3 and "DELGADO" (case-insensitive) are one entity; HARTWELL is not touched.
    assert {s.text for s in outcome.changed} == {"Delgado", "DELGADO"}
    assert len(outcome.changed) == 4
    assert "3 other occurrences" in outcome.message
    assert set(Span.objects.filter(text__iexact="delgado").values_list("status", flat=True)) == {"accepted"}
    assert set(Span.objects.filter(text="HARTWELL").values_list("status", flat=True)) == {"pending"}
    events = ReviewEvent.objects.filter(document=doc)
    assert events.count() == 4
    assert len({e.bulk_id for e in events}) == 1 and events[0].bulk_id is not None
    assert set(Span.objects.filter(text__iexact="delgado").values_list("version", flat=True)) == {2}


def test_apply_to_all_can_be_off_and_never_overrides_a_decision(doc, reviewer):
    one, two, three = spans_of(doc, "Delgado")
    span_reject(span=two, user=reviewer, all_occurrences=False)
    assert Span.objects.get(pk=one.pk).status == "pending"
    span_accept(span=one, user=reviewer)
    assert Span.objects.get(pk=two.pk).status == "rejected"  # decided: left alone
    assert Span.objects.get(pk=three.pk).status == "accepted"


def test_reject_reason_is_stored_and_audited_and_validated(doc, reviewer):
    phone = spans_of(doc, "555-0147")[0]
    span_reject(span=phone, user=reviewer, reason="not_identifying")
    phone.refresh_from_db()
    assert (phone.status, phone.reject_reason) == ("rejected", "not_identifying")
    assert ReviewEvent.objects.get(span=phone).after["reason"] == "not_identifying"
    with pytest.raises(ReviewError):
        span_reject(span=spans_of(doc, "John")[0], user=reviewer, reason="because")
    # Accepting later clears the reason.
    span_accept(span=phone, user=reviewer)
    phone.refresh_from_db()
    assert (phone.status, phone.reject_reason) == ("accepted", "")


def test_relabel_applies_to_all_and_skips_an_occupied_label(doc, reviewer):
    hartwell = spans_of(doc, "HARTWELL")
    # The second HARTWELL already has a (rejected) ORGANIZATION span at the same offsets.
    Span.objects.create(
        document=doc,
        start=hartwell[1].start,
        end=hartwell[1].end,
        label="ORGANIZATION",
        text="HARTWELL",
        status="rejected",
    )
    outcome = span_relabel(span=hartwell[0], user=reviewer, label="organization")
    assert [s.pk for s in outcome.changed] == [hartwell[0].pk]
    hartwell[0].refresh_from_db()
    assert (hartwell[0].label, hartwell[0].status) == ("ORGANIZATION", "accepted")
    assert Span.objects.get(pk=hartwell[1].pk).label == "PERSON"
    with pytest.raises(ReviewError):
        span_relabel(span=hartwell[0], user=reviewer, label="not a label!")


def test_a_stale_version_is_refused_and_nothing_is_written(doc, reviewer, make_user):
    other = make_user("other")
    span = spans_of(doc, "John")[0]
    seen = span.version
    span_reject(span=Span.objects.get(pk=span.pk), user=other, version=seen)
    with pytest.raises(StaleSpan, match="changed by someone else"):
        span_accept(span=Span.objects.get(pk=span.pk), user=reviewer, version=seen)
    span.refresh_from_db()
    assert span.status == "rejected"
    assert list(ReviewEvent.objects.values_list("user__username", flat=True)) == ["other"]


def test_a_sibling_changed_between_read_and_write_rolls_the_whole_operation_back(doc, reviewer):
    spans = list(Span.objects.filter(document=doc))
    first = next(s for s in spans if s.text == "Delgado")
    # Another reviewer rejects one occurrence after this request read the spans.
    Span.objects.filter(text="DELGADO").update(status="rejected", version=9)
    with pytest.raises(StaleSpan):
        span_accept(span=first, user=reviewer, version=first.version, spans=spans)
    assert set(Span.objects.filter(text="Delgado").values_list("status", flat=True)) == {"pending"}
    assert not ReviewEvent.objects.exists()


def test_word_step_moves_one_edge_by_one_word_within_the_line():
    text = "INMATE DELGADO: Good morning. John Smith-Jones wrote.\nNext line"
    john = text.index("John")
    assert word_step(text, john, john + 4, edge="end", grow=True) == (john, text.index(" wrote"))
    assert word_step(text, john, text.index(" wrote"), edge="end", grow=False) == (john, john + 4)
    assert word_step(text, john, john + 4, edge="start", grow=True) == (text.index("."), john + 4)
    assert word_step(text, text.index("Good"), john + 4, edge="start", grow=False) == (text.index("morning"), john + 4)
    end = text.index("\n")
    with pytest.raises(ReviewError, match="Nothing to extend"):
        word_step(text, end - 1, end, edge="end", grow=True)
    with pytest.raises(ReviewError, match="shorter than one word"):
        word_step(text, john, john + 4, edge="end", grow=False)


def test_resize_supersedes_pending_overlaps_and_refuses_accepted_ones(doc, reviewer):
    john = spans_of(doc, "John")[0]
    smith = Span.objects.create(
        document=doc, start=john.end + 1, end=john.end + 6, label="PERSON", text="Smith", sources=["presidio"]
    )
    start, end = word_step(doc.text, john.start, john.end, edge="end", grow=True)
    outcome = span_resize(span=john, user=reviewer, start=start, end=end, version=john.version)
    john.refresh_from_db()
    smith.refresh_from_db()
    assert (john.text, john.status, john.end - john.start) == ("John Smith", "accepted", 10)
    assert smith.status == "rejected"
    events = ReviewEvent.objects.filter(bulk_id=outcome.bulk_id)
    assert sorted(events.values_list("action", flat=True)) == ["resize", "supersede"]
    resize = events.get(action="resize")
    assert (resize.before["end"], resize.after["end"]) == (john.start + 4, john.start + 10)
    # Growing into an accepted span is refused.
    span_accept(span=spans_of(doc, "Delgado")[1], user=reviewer, all_occurrences=False)
    delgado = spans_of(doc, "Delgado")[1]
    john.refresh_from_db()
    with pytest.raises(ReviewError, match="overlap an accepted span"):
        span_resize(span=john, user=reviewer, start=john.start, end=delgado.end)
    # Undo restores the old boundaries and the superseded suggestion.
    undo_last(document=doc, user=reviewer)  # the accept
    undo_last(document=doc, user=reviewer)  # the resize
    john.refresh_from_db()
    smith.refresh_from_db()
    assert (john.text, john.status, smith.status) == ("John", "pending", "pending")


def test_only_human_spans_can_be_deleted_and_a_delete_can_be_undone(doc, reviewer):
    with pytest.raises(ReviewError, match="Only spans added by a reviewer"):
        span_delete(span=spans_of(doc, "John")[0], user=reviewer)
    at = doc.text.index("morning")
    added = span_add(document=doc, user=reviewer, start=at, end=at + 7, label="TIME", all_occurrences=False)[0]
    outcome = span_delete(span=added, user=reviewer, version=added.version)
    assert not Span.objects.filter(pk=added.pk).exists()
    event = ReviewEvent.objects.get(bulk_id=outcome.bulk_id)
    assert (event.action, event.before["label"], event.after) == ("delete", "TIME", None)
    undo_last(document=doc, user=reviewer)
    assert Span.objects.filter(document=doc, start=at, end=at + 7, label="TIME", status="accepted").exists()


def test_undo_reverts_the_last_operation_as_a_whole_then_the_one_before(doc, reviewer, make_user):
    phone = spans_of(doc, "555-0147")[0]
    span_reject(span=phone, user=reviewer, reason="false_positive")
    span_accept(span=spans_of(doc, "Delgado")[0], user=reviewer)
    outcome = undo_last(document=doc, user=reviewer)
    assert "4 spans" in outcome.message
    assert set(Span.objects.filter(text__iexact="delgado").values_list("status", flat=True)) == {"pending"}
    assert Span.objects.get(pk=phone.pk).status == "rejected"  # the earlier operation is untouched
    undo_events = ReviewEvent.objects.filter(action=ReviewAction.UNDO)
    assert undo_events.count() == 4 and len({e.undoes for e in undo_events}) == 1
    undo_last(document=doc, user=reviewer)
    phone.refresh_from_db()
    assert (phone.status, phone.reject_reason) == ("pending", "")
    with pytest.raises(ReviewError, match="Nothing to undo"):
        undo_last(document=doc, user=reviewer)
    # Another user's operation is not this user's to undo.
    span_accept(span=phone, user=make_user("other"))
    with pytest.raises(ReviewError, match="Nothing to undo"):
        undo_last(document=doc, user=reviewer)


def test_undo_is_refused_when_someone_changed_a_span_since(doc, reviewer, make_user):
    john = spans_of(doc, "John")[0]
    span_accept(span=john, user=reviewer)
    john.refresh_from_db()
    span_reject(span=john, user=make_user("other"), version=john.version)
    with pytest.raises(StaleSpan):
        undo_last(document=doc, user=reviewer)
    assert Span.objects.get(pk=john.pk).status == "rejected"


def test_undo_of_an_add_removes_every_added_occurrence_and_restores_superseded(doc, reviewer):
    hartwell = spans_of(doc, "HARTWELL")
    start = doc.text.index("COMMISSIONER HARTWELL")
    added = span_add(document=doc, user=reviewer, start=start, end=start + 21, label="PERSON")
    assert len(added) == 2
    assert set(Span.objects.filter(pk__in=[h.pk for h in hartwell]).values_list("status", flat=True)) == {"rejected"}
    undo_last(document=doc, user=reviewer)
    assert not Span.objects.filter(text="COMMISSIONER HARTWELL").exists()
    assert set(Span.objects.filter(pk__in=[h.pk for h in hartwell]).values_list("status", flat=True)) == {"pending"}


def test_bulk_decisions_by_label_source_and_score_undo_as_one(doc, reviewer):
    outcome = bulk_decide(document=doc, user=reviewer, action="accept", label="PERSON", score_min=0.9)
    assert [s.text for s in outcome.changed] == ["John"]
    outcome = bulk_decide(document=doc, user=reviewer, action="reject", source="patterns", reason="not_identifying")
    assert [(s.text, s.reject_reason) for s in outcome.changed] == [("555-0147", "not_identifying")]
    outcome = bulk_decide(document=doc, user=reviewer, action="accept", score_max=0.9)
    assert len(outcome.changed) == Span.objects.filter(text__iexact="delgado").count() + 2  # + HARTWELL ×2
    assert not Span.objects.filter(status="pending").exists()
    assert ReviewEvent.objects.filter(bulk_id=outcome.bulk_id).count() == len(outcome.changed)
    undo_last(document=doc, user=reviewer)
    assert Span.objects.filter(status="pending").count() == len(outcome.changed)
    assert Span.objects.get(text="John").status == "accepted"
    with pytest.raises(ReviewError, match="No pending span"):
        bulk_decide(document=doc, user=reviewer, action="accept", label="EMAIL_ADDRESS")
    with pytest.raises(ReviewError):
        bulk_decide(document=doc, user=reviewer, action="explode")


def test_entity_groups_and_filters(doc, reviewer):
    span_reject(span=spans_of(doc, "555-0147")[0], user=reviewer)
    spans = list(Span.objects.filter(document=doc))
    groups = entity_groups(spans, Filters())
    assert [g.label for g in groups] == ["PERSON", "PHONE_NUMBER"]
    person = groups[0]
    assert [(e.text, len(e.spans)) for e in person.entities] == [("Delgado", 4), ("HARTWELL", 2), ("John", 1)]
    assert person.entities[0].counts == {"pending": 4, "accepted": 0, "rejected": 0}
    pending = entity_groups(spans, Filters(pending=True))
    assert [g.label for g in pending] == ["PERSON"]
    single = entity_groups(spans, Filters(single=True, below=0.9))
    assert [e.text for g in single for e in g.entities] == ["Delgado", "HARTWELL", "555-0147"]
    assert entity_groups(spans, Filters(source="presidio"))[0].entities[0].text == "John"
    assert Filters.from_query({"pending": "on", "label": "person", "below": "x"}) == Filters(True, "PERSON", "", None)


def test_preview_replaces_accepted_spans_only(doc, reviewer):
    span_accept(span=spans_of(doc, "Delgado")[0], user=reviewer)
    text = preview_text(doc.text, list(Span.objects.filter(document=doc)))
    assert "Delgado" not in text and "DELGADO" not in text
    assert "HARTWELL" in text  # pending: not replaced
    assert "[PERSON_" in text


def test_machine_vs_final_counts_per_label_and_source(doc, reviewer):
    span_reject(span=spans_of(doc, "555-0147")[0], user=reviewer)
    span_relabel(span=spans_of(doc, "HARTWELL")[0], user=reviewer, label="ORGANIZATION")
    span_accept(span=spans_of(doc, "John")[0], user=reviewer)
    at = doc.text.index("Smith")
    span_add(document=doc, user=reviewer, start=at, end=at + 5, label="PERSON")
    events = list(ReviewEvent.objects.filter(document=doc).order_by("id"))
    diff = machine_vs_final(list(Span.objects.filter(document=doc)), first_befores(events))
    per_label = {r.key: (r.added, r.rejected, r.relabelled, r.kept) for r in diff["per_label"]}
    assert per_label["PHONE_NUMBER"] == (0, 1, 0, 0)
    assert per_label["PERSON"] == (1, 0, 2, 1)  # Smith added; HARTWELL ×2 relabelled; John kept
    per_source = {r.key: (r.added, r.rejected) for r in diff["per_source"]}
    assert per_source["patterns"] == (0, 1) and per_source["human"] == (1, 0)
    assert {what for what, _span, _machine in diff["changes"]} == {"added", "rejected", "relabelled"}
    assert SpanStatus.PENDING in {s.status for s in Span.objects.filter(document=doc)}


def test_redo_reapplies_undone_operations_until_a_new_decision(doc, reviewer):
    phone = spans_of(doc, "555-0147")[0]
    span_reject(span=phone, user=reviewer, reason="false_positive")
    span_accept(span=spans_of(doc, "Delgado")[0], user=reviewer)
    undo_last(document=doc, user=reviewer)
    undo_last(document=doc, user=reviewer)
    assert not Span.objects.exclude(status="pending").exists()
    redo_last(document=doc, user=reviewer)  # the last undone first: the reject
    phone.refresh_from_db()
    assert (phone.status, phone.reject_reason) == ("rejected", "false_positive")
    assert not Span.objects.filter(text="Delgado").exclude(status="pending").exists()
    undo_last(document=doc, user=reviewer)  # undoes the redo
    assert not Span.objects.exclude(status="pending").exists()
    redo_last(document=doc, user=reviewer)
    redo_last(document=doc, user=reviewer)  # then the accept of Delgado ×4
    assert set(Span.objects.exclude(status="pending").values_list("text", flat=True)) == {
        "555-0147",
        "Delgado",
        "DELGADO",
    }
    undo_last(document=doc, user=reviewer)
    span_accept(span=spans_of(doc, "John")[0], user=reviewer)  # a new decision clears the redo history
    with pytest.raises(ReviewError, match="Nothing to redo"):
        redo_last(document=doc, user=reviewer)


def test_undo_and_redo_of_an_add_and_a_delete(doc, reviewer):
    at = doc.text.index("morning")
    added = span_add(document=doc, user=reviewer, start=at, end=at + 7, label="TIME")
    assert len(added) == 2
    undo_last(document=doc, user=reviewer)
    assert not Span.objects.filter(label="TIME").exists()
    redo_last(document=doc, user=reviewer)
    assert Span.objects.filter(label="TIME", status="accepted").count() == 2
    time_span = Span.objects.filter(label="TIME").first()
    span_delete(span=time_span, user=reviewer)
    undo_last(document=doc, user=reviewer)
    redo_last(document=doc, user=reviewer)
    assert Span.objects.filter(label="TIME").count() == 1


def test_segments_cut_at_printed_lines_and_keep_every_character_once(doc, reviewer):
    text = doc.text
    first_newline = text.index("\n")
    # Two printed lines joined into the first utterance, then one per line.
    layout = [[0, 20, 3, 7], [20, first_newline, 3, 8], [first_newline + 1, text.index("\n", first_newline + 1), 3, 9]]
    lines = line_starts(text, layout)
    assert lines == {0: (3, 7), first_newline + 1: (3, 9)}
    span_reject(span=spans_of(doc, "John")[0], user=reviewer)
    john = spans_of(doc, "John")[0]
    # A rejected suggestion overlapping an accepted span is hidden; others stay visible.
    Span.objects.create(document=doc, start=john.start, end=john.end + 6, label="PERSON", status="accepted")
    result = segments(text, list(Span.objects.filter(document=doc)), lines)
    assert "".join(seg.text for seg in result) == text
    assert [seg.start for seg in result if seg.line] == [0, first_newline + 1]
    assert john.pk not in {seg.span.pk for seg in result if seg.span}
    assert segments(text, [], {}) == segments(text, [])


def test_a_corpus_can_require_a_second_review_before_approval(doc, reviewer, make_user):
    from review.services.workflow import document_approve, document_mark_reviewed, document_second_review

    doc.corpus.require_second_review = True
    doc.corpus.save(update_fields=["require_second_review"])
    Span.objects.filter(document=doc).update(status="accepted")
    document_mark_reviewed(document=doc, user=reviewer)
    admin = make_user("approver")
    with pytest.raises(ReviewError, match="second review"):
        document_approve(document=doc, user=admin)
    with pytest.raises(ReviewError, match="someone else"):
        document_second_review(document=doc, user=reviewer)
    document_second_review(document=doc, user=make_user("second-pair-of-eyes"))
    document_approve(document=doc, user=admin)
    doc.refresh_from_db()
    assert doc.status == "approved"
    assert list(ReviewEvent.objects.filter(document=doc, span__isnull=True).values_list("action", flat=True)) == [
        "mark_reviewed",
        "second_review",
        "approve",
    ]


def _review_session(document: Document, reviewer) -> None:
    """A bit of everything a reviewer does, each with apply-to-all where it has it."""
    span_accept(span=spans_of(document, "Delgado")[0], user=reviewer)
    span_reject(span=spans_of(document, "HARTWELL")[1], user=reviewer, reason="public_official", all_occurrences=False)
    span_relabel(span=spans_of(document, "HARTWELL")[0], user=reviewer, label="ORGANIZATION")
    john = spans_of(document, "John")[0]
    Span.objects.create(document=document, start=john.end + 1, end=john.end + 6, label="PERSON", text="Smith")
    start, end = word_step(document.text, john.start, john.end, edge="end", grow=True)
    span_resize(span=john, user=reviewer, start=start, end=end, version=john.version)
    span_link(span=spans_of(document, "John Smith")[0], target=spans_of(document, "DELGADO")[0], user=reviewer)
    at = document.text.index("morning")
    added = span_add(document=document, user=reviewer, start=at, end=at + 7, label="TIME")
    span_delete(span=Span.objects.get(pk=added[1].pk), user=reviewer)
    at = document.text.index("Good morning")
    span_add(document=document, user=reviewer, start=at, end=at + 12, label="TIME")  # supersedes "morning"
    undo_last(document=document, user=reviewer)
    bulk_decide(document=document, user=reviewer, action="reject", source="patterns", reason="not_identifying")


def _recorded(document: Document) -> tuple[list, list]:
    """The document's events and spans, with ids, bulk ids and entities replaced
    by their order of first appearance, so that two documents compare."""
    numbering: dict = {}

    def n(value):
        return None if value in (None, "") else numbering.setdefault(value, len(numbering))

    spans = list(Span.objects.filter(document=document).order_by("start", "end", "label"))
    spans_out = [
        (s.start, s.end, s.label, s.text, s.status, s.reject_reason, s.version, n(s.entity), s.sources, s.score)
        + (s.rule, s.created_by_id)
        for s in spans
    ]
    events = []
    for e in ReviewEvent.objects.filter(document=document).order_by("id"):
        before, after = (dict(x, entity=n(x.get("entity"))) if x and "entity" in x else x for x in (e.before, e.after))
        span = e.span and (e.span.start, e.span.end, e.span.label)
        events.append((e.action, e.user_id, span, before, after, n(e.bulk_id), n(e.undoes)))
    return spans_out, events


def test_an_add_is_refused_if_a_span_appeared_over_an_occurrence_meanwhile(doc, reviewer):
    spans = list(Span.objects.filter(document=doc))
    at = doc.text.index("morning")
    # Another reviewer adds a span over the second "morning" after this request read the spans.
    second = doc.text.index("morning", at + 1)
    Span.objects.create(document=doc, start=second - 5, end=second + 7, label="TIME", status="accepted")
    with pytest.raises(StaleSpan):
        span_add(document=doc, user=reviewer, start=at, end=at + 7, label="TIME", spans=spans)
    assert not Span.objects.filter(start=at).exists()
    assert not ReviewEvent.objects.exists()


def test_the_first_decision_moves_the_document_in_the_same_transaction(doc, reviewer):
    john = spans_of(doc, "John")[0]
    john.document = doc  # as the view reads it: with the span
    spans = list(Span.objects.filter(document=doc))
    with CaptureQueriesContext(connection) as captured:
        span_accept(span=john, user=reviewer, spans=spans)
    sql = [q["sql"] for q in captured.captured_queries]
    document_table = Document._meta.db_table
    # Inside the operation's transaction (here a savepoint), after the spans.
    assert sql[0].startswith("SAVEPOINT") and sql[-1].startswith("RELEASE SAVEPOINT")
    assert any(q.startswith(f'UPDATE "{document_table}"') for q in sql[1:-1])
    doc.refresh_from_db()
    assert doc.status == "in_review"


def test_one_span_is_never_both_superseded_and_accepted(corpus, reviewer):
    """The selection ("Ha Ha" at 11) overlaps another occurrence of its text (at
    8): that one is left out, rather than superseding the span just accepted."""
    text = "INMATE: Ha Ha Ha was the name.\n"
    document = make_document(corpus, text)
    machine = Span.objects.create(document=document, start=11, end=16, label="PERSON", text=text[11:16])
    span_add(document=document, user=reviewer, start=11, end=16, label="PERSON")
    assert list(Span.objects.filter(document=document).values_list("start", "end", "status", "version")) == [
        (11, 16, "accepted", 2)
    ]
    assert list(ReviewEvent.objects.values_list("action", "span_id")) == [("accept", machine.pk)]


def test_a_write_refuses_a_span_in_two_changes(doc, reviewer):
    john = spans_of(doc, "John")[0]
    changes = [
        span_writer.Change([john], {"status": "rejected"}, ReviewAction.SUPERSEDE),
        span_writer.Change([john], {"status": "accepted"}, ReviewAction.ACCEPT),
    ]
    with pytest.raises(ValueError, match="two changes"):
        span_writer.check_disjoint(changes)
    with pytest.raises(ValueError, match="two changes"):
        span_writer.write(document=doc, user=reviewer, bulk_id=uuid.uuid4(), changes=changes)
    assert Span.objects.get(pk=john.pk).status == "pending"


@pytest.mark.parametrize("operation", ["accept", "add", "delete", "undo"])
def test_no_decision_lands_on_a_document_approved_meanwhile(doc, reviewer, operation):
    """The status as read says "in review"; the write sees the latest, under the
    document's row lock."""
    at = doc.text.index("morning")
    added = span_add(document=doc, user=reviewer, start=at, end=at + 7, label="TIME", all_occurrences=False)[0]
    john = spans_of(doc, "John")[0]
    john.document = doc
    added.document = doc
    events = ReviewEvent.objects.count()
    Document.objects.filter(pk=doc.pk).update(status="approved")  # an admin approves meanwhile
    with pytest.raises(ReviewError, match="approved"):
        if operation == "accept":
            span_accept(span=john, user=reviewer, version=john.version)
        elif operation == "add":
            span_add(document=doc, user=reviewer, start=john.end + 1, end=john.end + 6, label="PERSON")
        elif operation == "delete":
            span_delete(span=added, user=reviewer, version=added.version)
        else:
            undo_last(document=doc, user=reviewer)
    assert Span.objects.get(pk=john.pk).status == "pending"
    assert Span.objects.filter(pk=added.pk).exists()
    assert ReviewEvent.objects.count() == events
    assert Document.objects.get(pk=doc.pk).status == "approved"


def test_a_link_is_refused_if_its_target_was_relinked_meanwhile(doc, reviewer):
    spans = list(Span.objects.filter(document=doc))
    john = next(s for s in spans if s.text == "John")
    target = next(s for s in spans if s.text == "HARTWELL")
    Span.objects.filter(pk=target.pk).update(entity="e1")
    target.entity = "e1"
    target.version = Span.objects.get(pk=target.pk).version
    # Another reviewer links the target to another entity after this request read it.
    Span.objects.filter(pk=target.pk).update(entity="e2", version=F("version") + 1)
    with pytest.raises(StaleSpan):
        span_link(span=john, target=target, user=reviewer, version=john.version, spans=spans)
    assert Span.objects.get(pk=john.pk).entity == ""
    assert not ReviewEvent.objects.exists()


def test_undo_locks_the_document_then_its_spans_in_id_order(doc, reviewer):
    """As every writer does: two writers over the same rows queue up instead of
    deadlocking. PostgreSQL locks rows (FOR NO KEY UPDATE); SQLite's IMMEDIATE
    transaction holds the database's write lock from its start, and the same
    statements run in the same order."""
    span_accept(span=spans_of(doc, "Delgado")[0], user=reviewer)
    with CaptureQueriesContext(connection) as captured:
        undo_last(document=doc, user=reviewer)
    postgresql = connection.vendor == "postgresql"
    reads = [
        q["sql"]
        for q in captured.captured_queries
        if q["sql"].startswith("SELECT") and (not postgresql or "FOR NO KEY UPDATE" in q["sql"])
    ]
    document_table, span_table = Document._meta.db_table, Span._meta.db_table
    document_lock = next(i for i, q in enumerate(reads) if f'FROM "{document_table}"' in q)
    span_locks = [i for i, q in enumerate(reads) if f'FROM "{span_table}"' in q and "ORDER BY" in q]
    assert span_locks and document_lock < min(span_locks)
    assert all(f'ORDER BY "{span_table}"."id"' in reads[i] for i in span_locks)


def test_undoing_a_resize_never_leaves_two_live_spans_over_one_text(corpus, reviewer, make_user):
    """Undo moves a span back over text where another reviewer has added a span
    since: refused, rather than two accepted spans overlapping (which neither the
    page nor the export can show)."""
    other = make_user("other")
    document = make_document(corpus)
    at = document.text.index("John Smith")
    span = add_machine(document, "John Smith")[0]
    span.document = document
    span_accept(span=span, user=reviewer, all_occurrences=False)
    span = Span.objects.select_related("document").get(pk=span.pk)
    span_resize(span=span, user=reviewer, start=at, end=at + 4)  # "John"
    fresh = Document.objects.get(pk=document.pk)
    span_add(document=fresh, user=other, start=at + 5, end=at + 10, label="PERSON", all_occurrences=False)  # "Smith"
    with pytest.raises(StaleSpan, match="added over this text"):
        undo_last(document=Document.objects.get(pk=document.pk), user=reviewer)
    live = sorted(Span.objects.filter(document=document).exclude(status="rejected").values_list("start", "end"))
    assert live == [(at, at + 4), (at + 5, at + 10)]
