"""Pre-annotation in chunks with progress, re-annotation that keeps reviewers'
work, and the audit of detection configuration changes."""

import functools
import re

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client, TestCase
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from ingestion.models import Corpus, Document, DocumentStatus
from pipelines.detection.chunks import chunk_bounds
from pipelines.detection.config import CorpusPattern, DetectionConfig
from pipelines.detection.pipeline import detect_text
from review.models import (
    AnnotationRun,
    CorpusMembership,
    DetectionConfigChange,
    Role,
    RunKind,
    RunStatus,
    Span,
    SpanStatus,
)
from review.models import DetectionConfig as StoredConfig
from review.models.append_only import AppendOnlyError
from review.services import annotation as services
from review.services.annotation import (
    ReannotateError,
    corpus_reannotate_request,
    document_reannotate,
    document_reannotate_request,
)
from review.services.detection_config import detection_config_save
from review.services.uploads import ingest_document
from tests.conftest import DEMO_TEXT

MODEL = settings.SPACY_MODEL


def run_tuples(spans) -> list[tuple]:
    return [(s.start, s.end, s.label, s.sources, round(s.score, 4), s.rule) for s in spans]


# --- chunk boundaries ----------------------------------------------------------------------


def test_chunks_cover_the_text_and_end_at_line_ends():
    text = "".join(f"Line {n}: some words here.\n" for n in range(200))
    bounds = chunk_bounds(text, 500)
    assert bounds[0][0] == 0 and bounds[-1][1] == len(text)
    assert all(a[1] == b[0] for a, b in zip(bounds, bounds[1:], strict=False))
    assert all(0 < end - start <= 500 for start, end in bounds)
    assert all(text[end - 1] == "\n" for _, end in bounds)


def test_a_line_longer_than_a_chunk_is_cut_at_a_space_then_anywhere():
    text = "word " * 300  # 1500 characters, no line end
    bounds = chunk_bounds(text, 512)
    assert all(text[end - 1] == " " for _, end in bounds[:-1])
    assert "".join(text[s:e] for s, e in bounds) == text
    assert chunk_bounds("x" * 25, 10) == [(0, 10), (10, 20), (20, 25)]
    assert chunk_bounds("", 10) == [(0, 0)]
    assert chunk_bounds("short\n", 10) == [(0, 6)]


# --- chunked detection ------------------------------------------------------------------------

FILLER = "Q. And what happened after that at the hearing?\nA. We went over the file again, line by line.\n"
# Chunk 1 names him; chunk 3 only mentions his surname where no recognizer but
# propagation finds it.
LONG = (
    "INMATE DELGADO: My name is Marcus Delgado, CDCR number K-48213.\n"
    + FILLER * 12
    + "A. I spoke with Officer Kowalczyk in Fresno, California on March 14, 2023.\n"
    + FILLER * 12
    + "A. The letter was signed Delgado and dated 3/14/2021.\n"
    + FILLER * 4
)
SMALL_CHUNKS = 1200


def test_chunked_detection_is_the_unchunked_one():
    assert len(chunk_bounds(LONG, SMALL_CHUNKS)) >= 3
    whole = detect_text(LONG, MODEL, chunk_chars=10**7)
    chunked = detect_text(LONG, MODEL, chunk_chars=SMALL_CHUNKS)
    assert run_tuples(chunked.spans) == run_tuples(whole.spans)
    assert sorted(run_tuples(chunked.candidates)) == sorted(run_tuples(whole.candidates))


def test_model_candidates_stay_inside_their_chunk_with_document_offsets():
    bounds = chunk_bounds(LONG, SMALL_CHUNKS)
    result = detect_text(LONG, MODEL, chunk_chars=SMALL_CHUNKS)
    model = [c for c in result.candidates if set(c.sources) & {"spacy", "presidio"}]
    assert any(c.start >= bounds[1][0] for c in model)  # later chunks found something
    for c in model:
        assert LONG[c.start : c.end] == c.text
        assert any(start <= c.start and c.end <= end for start, end in bounds), c


def test_a_name_found_in_the_first_chunk_is_propagated_into_the_third():
    bounds = chunk_bounds(LONG, SMALL_CHUNKS)
    third = LONG.index("signed Delgado") + len("signed ")
    assert bounds[0][1] < LONG.index("Fresno") and third >= bounds[2][0]
    # sm does not find this "Delgado" on its own (the open default's encoder does):
    # only propagation from the first chunk can.
    spans = detect_text(LONG, "sm", chunk_chars=SMALL_CHUNKS).spans
    found = next(s for s in spans if s.start == third)
    assert (found.label, found.text) == ("PERSON", "Delgado")
    assert "propagation" in found.sources


def test_progress_is_reported_after_every_chunk_but_the_last():
    calls: list[tuple[int, int]] = []
    detect_text(LONG, MODEL, chunk_chars=SMALL_CHUNKS, progress=lambda done, total: calls.append((done, total)))
    bounds = chunk_bounds(LONG, SMALL_CHUNKS)
    assert calls == [(end, len(LONG)) for _, end in bounds[:-1]]


# --- the annotation task: progress on a row ---------------------------------------------------


def ingest(corpus, user, capture, text: str, name: str = "doc.txt") -> Document:
    with capture(execute=True):
        document, _ = ingest_document(corpus=corpus, name=name, data=text.encode(), user=user)
    document.refresh_from_db()
    return document


def test_annotation_persists_progress_once_per_chunk_and_inserts_spans_once(
    corpus, admin_user, django_capture_on_commit_callbacks, monkeypatch
):
    monkeypatch.setattr(services, "detect_text", functools.partial(detect_text, chunk_chars=SMALL_CHUNKS))
    seen: list[tuple[str, int, int]] = []
    writer = services._progress_writer

    def spying_writer(run_id: int):
        report = writer(run_id)

        def spy(done: int, total: int) -> None:
            report(done, total)
            run = AnnotationRun.objects.get(pk=run_id)
            seen.append((Document.objects.get(pk=run.document_id).status, run.done, run.total))

        return spy

    monkeypatch.setattr(services, "_progress_writer", spying_writer)
    with CaptureQueriesContext(connection) as queries:
        document = ingest(corpus, admin_user, django_capture_on_commit_callbacks, LONG)
    assert document.status == "ready", document.error_message
    chunks = len(chunk_bounds(LONG, SMALL_CHUNKS))
    assert [done for _, done, _ in seen] == [end for _, end in chunk_bounds(LONG, SMALL_CHUNKS)[:-1]]
    assert {(status, total) for status, _, total in seen} == {("annotating", len(LONG))}
    sql = [q["sql"] for q in queries.captured_queries]
    run_table, span_table = AnnotationRun._meta.db_table, Span._meta.db_table
    run_updates = [q for q in sql if q.startswith(f'UPDATE "{run_table}"')]
    assert len(run_updates) == chunks  # one per chunk but the last, and the final one
    # One INSERT of every span ("INSERT OR IGNORE" on SQLite, "ON CONFLICT DO NOTHING" on PostgreSQL).
    assert len([q for q in sql if re.match(rf'INSERT (?:OR IGNORE )?INTO "{span_table}"', q)]) == 1
    run = AnnotationRun.objects.get(document=document)
    assert (run.kind, run.status, run.done, run.total, run.percent) == ("annotate", "done", len(LONG), len(LONG), 100)
    assert run.counts == {"added": document.spans.count()}


def test_annotation_failure_is_recorded_on_the_document_and_the_run(
    corpus, admin_user, django_capture_on_commit_callbacks, monkeypatch
):
    def boom(*args, **kwargs):
        raise RuntimeError("model crashed")

    monkeypatch.setattr(services, "detect_text", boom)
    document = ingest(corpus, admin_user, django_capture_on_commit_callbacks, DEMO_TEXT)
    expected = (
        "Pre-annotation failed: the machine pass stopped on an unexpected error (logged for the administrator); "
        "pre-annotating again may succeed."
    )
    assert (document.status, document.error_message) == ("failed", expected)
    run = AnnotationRun.objects.get(document=document)
    assert (run.status, run.message) == ("failed", expected)
    # Idempotent: the document is no longer waiting for annotation.
    assert services.document_annotate(document_id=document.pk) is False


# --- re-annotation ---------------------------------------------------------------------------


def spans_by_text(document: Document) -> dict[str, Span]:
    return {s.text: s for s in document.spans.all()}


@pytest.fixture
def reviewed_state(annotated_document, admin_user, reviewer):
    """The demo document after some review work: one span accepted, one rejected,
    one relabelled, one added by hand, one linked; the rest pending."""
    spans = spans_by_text(annotated_document)
    Span.objects.filter(pk=spans["K-48213"].pk).update(status=SpanStatus.ACCEPTED)
    Span.objects.filter(pk=spans["1998"].pk).update(status=SpanStatus.REJECTED, reject_reason="not_identifying")
    Span.objects.filter(pk=spans["(559) 555-0147"].pk).update(status=SpanStatus.ACCEPTED, label="ID", version=2)
    good = annotated_document.text.index("Good morning")
    Span.objects.create(
        document=annotated_document,
        start=good,
        end=good + 4,
        label="NRP",
        text="Good",
        status=SpanStatus.ACCEPTED,
        created_by=reviewer,
    )
    Span.objects.filter(pk=spans["March 14, 2023"].pk).update(entity="e1")
    return annotated_document


def reannotate(document, user, capture) -> AnnotationRun:
    with capture(execute=True):
        run = document_reannotate_request(document=document, user=user)
    run.refresh_from_db()
    return run


def test_reannotation_keeps_human_work_and_replaces_pending_machine_spans(
    reviewed_state, admin_user, django_capture_on_commit_callbacks
):
    document = reviewed_state
    revision = Document.objects.get(pk=document.pk).spans_revision
    before = {s.pk: (s.start, s.end, s.label, s.status, s.entity) for s in document.spans.all()}
    human = {pk: v for pk, v in before.items() if v[3] != "pending" or v[4] or Span.objects.get(pk=pk).created_by_id}
    pending_before = {
        (s.start, s.end, s.label): s.pk for s in document.spans.filter(status="pending") if s.pk not in human
    }
    # The new configuration: no spaCy, no presidio, no cues (so that machine spans
    # go: "HARTWELL" came from a cue and the model), and two corpus patterns, one of
    # which overlaps the rejected "1998" and the hand-made "Good".
    config = DetectionConfig(
        recognizers=frozenset({"patterns", "gazetteer", "header"}),
        patterns=(CorpusPattern("CASE", r"hearing"), CorpusPattern("ID", r"Good morning|in 1998")),
    )
    StoredConfig.objects.create(corpus=document.corpus, data=config.to_dict())
    run = reannotate(document, admin_user, django_capture_on_commit_callbacks)
    assert run.status == "done", run.message
    assert (run.kind, run.requested_by, run.config) == ("reannotate", admin_user, config.to_dict())
    # New spans appeared: a reviewer's add planned against the old ones is now stale.
    assert Document.objects.get(pk=document.pk).spans_revision == revision + 1

    after = {s.pk: (s.start, s.end, s.label, s.status, s.entity) for s in document.spans.all()}
    for pk, values in human.items():
        assert after[pk] == values  # untouched, same row
    new_pending = {(s.start, s.end, s.label): s for s in document.spans.filter(status="pending") if s.pk not in human}
    expected = detect_text(document.text, MODEL, document.metadata, config).spans
    overlaps_human = [c for c in expected if any(c.start < v[1] and v[0] < c.end for v in human.values())]
    assert set(new_pending) == {(c.start, c.end, c.label) for c in expected} - {
        (c.start, c.end, c.label) for c in overlaps_human
    }
    assert ("hearing", "CASE") in {(s.text, s.label) for s in new_pending.values()}
    assert not any(s.label == "ID" and s.text in ("Good morning", "in 1998") for s in new_pending.values())
    # Pending spans found again keep their row; the others are gone.
    for key, span in new_pending.items():
        if key in pending_before:
            assert span.pk == pending_before[key]
    assert run.counts == {
        "added": len(set(new_pending) - set(pending_before)),
        "removed": len(set(pending_before) - set(new_pending)),
        "unchanged": len(set(new_pending) & set(pending_before)),
        "preserved": len(human),
        "skipped_overlap": len(overlaps_human),
    }
    assert run.counts["removed"] > 0 and run.counts["skipped_overlap"] >= 2
    # Idempotent: the task delivered again changes nothing.
    assert document_reannotate(run_id=run.pk) is False
    assert {s.pk for s in document.spans.all()} == set(after)


def test_a_reviewed_document_with_pending_spans_again_is_back_in_review(
    annotated_document, admin_user, django_capture_on_commit_callbacks
):
    document = annotated_document
    document.spans.update(status=SpanStatus.ACCEPTED)
    Document.objects.filter(pk=document.pk).update(status=DocumentStatus.REVIEWED)
    document.refresh_from_db()
    config = DetectionConfig(recognizers=frozenset({"patterns"}), patterns=(CorpusPattern("CASE", r"hearing"),))
    StoredConfig.objects.create(corpus=document.corpus, data=config.to_dict())
    run = reannotate(document, admin_user, django_capture_on_commit_callbacks)
    document.refresh_from_db()
    assert document.status == "in_review"
    assert run.counts["added"] == 1 and run.counts["status"] == ["reviewed", "in_review"]
    assert document.spans.get(status="pending").text == "hearing"


def test_approved_and_unannotated_documents_cannot_be_reannotated(annotated_document, admin_user):
    for status in ("approved", "extracting"):
        Document.objects.filter(pk=annotated_document.pk).update(status=status)
        annotated_document.refresh_from_db()
        with pytest.raises(ReannotateError):
            document_reannotate_request(document=annotated_document, user=admin_user)
    # One waiting for annotation (perhaps left by a dead worker) is queued again,
    # not refused (tests/review/test_stuck_work.py).
    Document.objects.filter(pk=annotated_document.pk).update(status="annotating")
    annotated_document.refresh_from_db()
    assert document_reannotate_request(document=annotated_document, user=admin_user) is None
    assert not AnnotationRun.objects.filter(kind=RunKind.REANNOTATE).exists()


def test_a_run_for_a_document_approved_meanwhile_is_skipped(annotated_document, admin_user):
    run = document_reannotate_request(document=annotated_document, user=admin_user)  # not executed: no commit
    Document.objects.filter(pk=annotated_document.pk).update(status=DocumentStatus.APPROVED)
    spans = set(annotated_document.spans.values_list("pk", "status"))
    assert document_reannotate(run_id=run.pk) is False
    run.refresh_from_db()
    assert (run.status, run.message) == ("skipped", "The document is approved.")
    assert set(annotated_document.spans.values_list("pk", "status")) == spans


def test_asking_twice_while_queued_gives_the_same_run(annotated_document, admin_user):
    first = document_reannotate_request(document=annotated_document, user=admin_user)
    assert document_reannotate_request(document=annotated_document, user=admin_user) == first
    assert AnnotationRun.objects.filter(kind=RunKind.REANNOTATE).count() == 1


def test_a_failed_preannotation_is_run_again_after_the_configuration_is_fixed(
    corpus, admin_user, django_capture_on_commit_callbacks
):
    stored = StoredConfig.objects.create(corpus=corpus, data={"mode": "majority"})
    document = ingest(corpus, admin_user, django_capture_on_commit_callbacks, DEMO_TEXT)
    assert document.status == "failed"
    stored.delete()
    with django_capture_on_commit_callbacks(execute=True):
        assert document_reannotate_request(document=document, user=admin_user) is None
    document.refresh_from_db()
    assert (document.status, document.error_message) == ("ready", "")
    assert document.spans.filter(text="Marcus Delgado").exists()


def test_corpus_reannotation_queues_every_open_document_once(corpus, admin_user, django_capture_on_commit_callbacks):
    docs = [ingest(corpus, admin_user, django_capture_on_commit_callbacks, DEMO_TEXT + f"Day {n}.\n") for n in range(3)]
    Document.objects.filter(pk=docs[2].pk).update(status=DocumentStatus.APPROVED)
    StoredConfig.objects.create(
        corpus=corpus, data=DetectionConfig(patterns=(CorpusPattern("CASE", r"hearing"),)).to_dict()
    )
    with django_capture_on_commit_callbacks(execute=True):
        summary = corpus_reannotate_request(corpus=corpus, user=admin_user)
    assert (summary.queued, summary.retried, summary.already_queued, summary.not_eligible) == (2, 0, 0, 1)
    runs = AnnotationRun.objects.filter(kind=RunKind.REANNOTATE)
    assert sorted(runs.values_list("document_id", "status")) == [(docs[0].pk, "done"), (docs[1].pk, "done")]
    for document in docs[:2]:
        assert document.spans.filter(label="CASE", text="hearing").exists()
    assert not docs[2].spans.filter(label="CASE").exists()


# --- pages -------------------------------------------------------------------------------------


class AnnotationPageTests(TestCase):
    @classmethod
    def setUpTestData(cls) -> None:
        User = get_user_model()
        cls.corpus = Corpus.objects.create(name="Hearings")
        other = Corpus.objects.create(name="Other")
        cls.owner = User.objects.create_user("owner", password="pw")
        CorpusMembership.objects.create(corpus=cls.corpus, user=cls.owner, role=Role.ADMIN)
        cls.users = {}
        for name, corpus, role in (
            ("reviewer", cls.corpus, Role.REVIEWER),
            ("auditor", cls.corpus, Role.AUDITOR),
            ("stranger", other, Role.ADMIN),
        ):
            cls.users[name] = User.objects.create_user(name, password="pw")
            CorpusMembership.objects.create(corpus=corpus, user=cls.users[name], role=role)
        cls.annotating = Document.objects.create(
            corpus=cls.corpus, name="long.txt", sha256="a", status=DocumentStatus.ANNOTATING, text="x" * 100
        )
        AnnotationRun.objects.create(
            document=cls.annotating, kind=RunKind.ANNOTATE, status=RunStatus.RUNNING, done=40, total=100
        )
        cls.ready = Document.objects.create(
            corpus=cls.corpus, name="ready.txt", sha256="b", status=DocumentStatus.READY, text="Officer Smith.\n"
        )

    def setUp(self) -> None:
        self.client = Client(enforce_csrf_checks=True)

    def csrf_post(self, url: str):
        if "csrftoken" not in self.client.cookies:
            self.client.get(reverse("login"))
        return self.client.post(url, {}, HTTP_X_CSRFTOKEN=self.client.cookies["csrftoken"].value)

    def test_the_corpus_page_shows_progress_and_polls_in_constant_queries(self) -> None:
        self.client.force_login(self.users["reviewer"])
        url = reverse("corpus_detail", args=[self.corpus.pk])
        with self.assertNumQueries(4):  # session, user, corpus+role, documents with their active run
            response = self.client.get(url, HTTP_HX_REQUEST="true")
        page = response.content.decode()
        self.assertIn("Pre-annotation 40%", page)
        self.assertIn('hx-trigger="every 2s"', page)
        self.assertNotIn("corpus-reannotate-form", self.client.get(url).content.decode())

    def test_the_annotation_page_shows_progress_and_runs_in_constant_queries(self) -> None:
        self.client.force_login(self.users["auditor"])
        url = reverse("document_annotation", args=[self.annotating.pk])
        with self.assertNumQueries(4):  # session, user, document+corpus+role, runs
            page = self.client.get(url).content.decode()
        self.assertIn("Pre-annotation 40%", page)
        self.assertIn('value="40"', page)
        self.assertIn('hx-trigger="every 2s"', page)
        with self.assertNumQueries(4):
            partial = self.client.get(url, HTTP_HX_REQUEST="true").content.decode()
        self.assertTrue(partial.strip().startswith('<div id="annotation"'))
        self.assertNotIn("reannotate-form", page)
        self.client.force_login(self.users["stranger"])
        self.assertEqual(self.client.get(url).status_code, 404)

    def test_only_corpus_admins_reannotate_by_post_with_csrf(self) -> None:
        for name in ("reannotate", "corpus"):
            url = (
                reverse("document_reannotate", args=[self.ready.pk])
                if name == "reannotate"
                else reverse("corpus_reannotate", args=[self.corpus.pk])
            )
            self.client.logout()
            response = self.csrf_post(url)
            self.assertEqual(response.status_code, 302)
            self.assertIn(reverse("login"), response["Location"])
            # Members without the admin role are refused (403); the admin of another corpus finds nothing (404).
            for username, user in self.users.items():
                self.client.force_login(user)
                expected = 404 if username == "stranger" else 403
                self.assertEqual(self.csrf_post(url).status_code, expected, (name, username))
            self.client.force_login(self.owner)
            self.assertEqual(self.client.get(url).status_code, 405)
            owner_without_token = Client(enforce_csrf_checks=True)
            owner_without_token.force_login(self.owner)
            self.assertEqual(owner_without_token.post(url).status_code, 403)
        self.assertFalse(AnnotationRun.objects.filter(kind=RunKind.REANNOTATE).exists())

    def test_admin_reannotates_a_document_and_sees_it_queued(self) -> None:
        self.client.force_login(self.owner)
        page = self.client.get(reverse("document_annotation", args=[self.ready.pk])).content.decode()
        self.assertIn('id="reannotate-form"', page)
        with self.captureOnCommitCallbacks(execute=False):  # queued, not run: the page shows it waiting
            response = self.csrf_post(reverse("document_reannotate", args=[self.ready.pk]))
        self.assertRedirects(
            response, reverse("document_annotation", args=[self.ready.pk]), fetch_redirect_response=False
        )
        page = self.client.get(response["Location"]).content.decode()
        self.assertIn("queued for re-annotation", page)
        self.assertIn("Re-annotation queued", page)
        self.assertIn('hx-trigger="every 2s"', page)
        corpus_page = self.client.get(reverse("corpus_detail", args=[self.corpus.pk])).content.decode()
        self.assertIn("Re-annotation 0%", corpus_page)
        self.assertIn("corpus-reannotate-form", corpus_page)

    def test_an_approved_document_is_refused_with_a_message(self) -> None:
        Document.objects.filter(pk=self.ready.pk).update(status=DocumentStatus.APPROVED)
        self.client.force_login(self.owner)
        response = self.csrf_post(reverse("document_reannotate", args=[self.ready.pk]))
        page = self.client.get(response["Location"]).content.decode()
        self.assertIn("is approved: only documents ready for review, in review or reviewed can be re-annotated", page)
        self.assertFalse(AnnotationRun.objects.filter(kind=RunKind.REANNOTATE).exists())


# --- detection configuration audit ----------------------------------------------------------


def test_config_changes_are_recorded_with_who_and_before_after(corpus, admin_user, make_user):
    first = detection_config_save(corpus=corpus, user=admin_user, config=DetectionConfig(mode="vote", k=3))
    assert (first.user, first.before) == (admin_user, None)
    assert first.changes() == [("k", "2", "3"), ("mode", '"union"', '"vote"')]
    other = make_user("second-admin")
    weights = {**DetectionConfig().weights, "corpus": 3.0}
    second = detection_config_save(
        corpus=corpus, user=other, config=DetectionConfig(mode="vote", k=3, weights=weights, deny=("Court",))
    )
    assert second.before == first.after
    assert second.changes() == [("deny", "[]", '["Court"]'), ("weights.corpus", "1.5", "3.0")]
    # Saving the same configuration again records nothing.
    assert detection_config_save(corpus=corpus, user=other, config=DetectionConfig.from_dict(second.after)) is None
    # Saving the default on a corpus without one changes nothing either.
    assert detection_config_save(corpus=Corpus.objects.create(name="X"), user=other, config=DetectionConfig()) is None
    assert DetectionConfigChange.objects.count() == 2
    assert StoredConfig.objects.get(corpus=corpus).updated_by == other
    with pytest.raises(AppendOnlyError):
        second.save()
    with pytest.raises(AppendOnlyError):
        second.delete()


class ConfigAuditPageTests(TestCase):
    @classmethod
    def setUpTestData(cls) -> None:
        User = get_user_model()
        cls.corpus = Corpus.objects.create(name="Hearings")
        cls.owner = User.objects.create_user("owner", password="pw")
        cls.other = User.objects.create_user("other-admin", password="pw")
        for user in (cls.owner, cls.other):
            CorpusMembership.objects.create(corpus=cls.corpus, user=user, role=Role.ADMIN)
        cls.url = reverse("detection_config", args=[cls.corpus.pk])

    def test_the_page_lists_recent_changes_in_constant_queries(self) -> None:
        detection_config_save(corpus=self.corpus, user=self.owner, config=DetectionConfig(min_score=0.5))
        detection_config_save(corpus=self.corpus, user=self.other, config=DetectionConfig(min_score=0.5, k=4))
        self.client.force_login(self.owner)
        with self.assertNumQueries(5):  # session, user, corpus+role, stored config, changes with their users
            page = self.client.get(self.url).content.decode()
        self.assertIn("<code>min_score</code>: 0.0 → 0.5", page)
        self.assertIn("<code>k</code>: 2 → 4", page)
        self.assertLess(page.index("other-admin"), page.index("<code>min_score</code>"))  # newest first
        detection_config_save(corpus=self.corpus, user=self.other, config=DetectionConfig(min_score=0.7, k=4))
        with self.assertNumQueries(5):
            self.client.get(self.url)


def test_the_reannotation_task_takes_an_id_and_retries_only_transient_errors(annotated_document, admin_user):
    from django.db import OperationalError

    from review.tasks import reannotate_document

    assert reannotate_document.acks_late
    assert OperationalError in reannotate_document.autoretry_for
    assert ValueError not in reannotate_document.autoretry_for
    run = document_reannotate_request(document=annotated_document, user=admin_user)
    reannotate_document.apply(args=[run.pk])  # in-process, with its JSON-serializable argument
    run.refresh_from_db()
    assert run.status == "done"
    reannotate_document.apply(args=[run.pk])  # delivered twice: nothing more happens
    assert AnnotationRun.objects.get(pk=run.pk).finished_at == run.finished_at


# --- a real worker ------------------------------------------------------------------------------

from tests.worker_support import wait_for  # noqa: E402


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_a_real_worker_annotates_in_chunks_then_reannotates(worker, corpus, admin_user):  # noqa: F811
    text = LONG * 8  # over 20k characters: two chunks at the default size
    assert len(chunk_bounds(text)) == 2
    document, _ = ingest_document(corpus=corpus, name="long.txt", data=text.encode(), user=admin_user)
    wait_for(lambda: Document.objects.get(pk=document.pk).status in ("ready", "failed"), what="annotation")
    document.refresh_from_db()
    assert document.status == "ready", document.error_message
    run = AnnotationRun.objects.get(document=document, kind=RunKind.ANNOTATE)
    assert (run.status, run.done, run.total) == ("done", len(document.text), len(document.text))
    accepted = document.spans.filter(label="PERSON").first()
    Span.objects.filter(pk=accepted.pk).update(status=SpanStatus.ACCEPTED)
    detection_config_save(
        corpus=corpus, user=admin_user, config=DetectionConfig(patterns=(CorpusPattern("CASE", r"hearing"),))
    )
    reannotation = document_reannotate_request(document=document, user=admin_user)
    wait_for(
        lambda: AnnotationRun.objects.get(pk=reannotation.pk).status in ("done", "failed", "skipped"),
        what="re-annotation",
    )
    reannotation.refresh_from_db()
    assert reannotation.status == "done", reannotation.message
    assert document.spans.filter(label="CASE", text="hearing").count() == text.count("hearing")
    assert Span.objects.get(pk=accepted.pk).status == "accepted"


@pytest.mark.django_db
def test_the_audit_records_are_read_only_in_the_admin():
    client = Client()
    client.force_login(get_user_model().objects.create_superuser("root", "root@example.org", "pw"))
    for name in ("detectionconfigchange", "annotationrun"):
        assert client.get(f"/admin/review/{name}/").status_code == 200
        assert client.get(f"/admin/review/{name}/add/").status_code == 403
