"""The dashboard's kept counts (issue 29): after any mix of reviewer decisions,
undos and redos, bulk operations, additions and deletions, re-annotations and
document deletions, `manage.py dashboard_counts --check` finds them equal to a
full recount; it finds a count changed behind the writer's back, and
`--rebuild` repairs it."""

import contextlib
import io
from collections import Counter

from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra.django import TestCase

from ingestion.models import Corpus, Document
from pipelines.candidate import Candidate
from review.errors import ReviewError
from review.models import DashboardCount, Span
from review.selectors.dashboard import dashboard_data
from review.services import dashboard_counts, deletion
from review.services.decisions import bulk_decide, span_accept, span_add, span_delete, span_reject, span_relabel
from review.services.spans import replace_machine_spans, store_machine_spans
from review.services.undo import redo_last, undo_last

LINE = "COMMISSIONER HARTWELL: Mr. Delgado called (559) 555-0147 from Fresno on March 14. "
TEXT = LINE * 6
NEEDLES = [
    ("HARTWELL", "PERSON", ("spacy",), 0.35),
    ("Delgado", "PERSON", ("presidio", "spacy"), 0.92),
    ("(559) 555-0147", "PHONE_NUMBER", ("presidio",), 0.75),
    ("Fresno", "LOCATION", ("gazetteer",), 0.55),
    ("March 14", "DATE", ("patterns", "spacy"), 0.05),
]


def candidates(keep: int = 0) -> list[Candidate]:
    """Every occurrence of the needles; with `keep` > 0 a re-annotation's view:
    one needle in `keep` dropped, the others found again with other scores."""
    found = []
    for i, (needle, label, sources, score) in enumerate(NEEDLES):
        if keep and i % keep == 0:
            continue
        at = TEXT.find(needle)
        while at >= 0:
            found.append(Candidate(at, at + len(needle), label, needle, sources, score if not keep else 1.0 - score))
            at = TEXT.find(needle, at + 1)
    return found


OPERATIONS = st.lists(
    st.tuples(
        st.sampled_from(
            ["accept", "accept_one", "reject", "relabel", "add", "undo", "redo", "bulk", "reannotate", "delete_added"]
            + ["delete_document"]
        ),
        st.integers(min_value=0, max_value=1),  # which document
        st.integers(min_value=0, max_value=40),  # which span / where / what
        st.integers(min_value=0, max_value=1),  # which reviewer
    ),
    min_size=1,
    max_size=14,
)


class KeptCountsPropertyTests(TestCase):
    def setUp(self) -> None:
        User = get_user_model()
        self.corpus = Corpus.objects.create(name="Counts")
        self.users = [User.objects.create(username=f"reviewer{i}") for i in range(2)]
        self.documents = []
        for i in range(2):
            document = Document.objects.create(corpus=self.corpus, name=f"d{i}.txt", sha256=f"{i}", text=TEXT)
            document.status = "ready"
            document.save(update_fields=["status"])
            with transaction.atomic():
                store_machine_spans(document.pk, candidates())
            self.documents.append(document)

    def apply(self, name: str, which: int, n: int, who: int) -> None:
        document = Document.objects.filter(pk=self.documents[which].pk).first()
        if document is None:  # deleted by an earlier step
            return
        user = self.users[who]
        spans = list(Span.objects.select_related("document").filter(document=document).order_by("start", "label"))
        span = spans[n % len(spans)] if spans else None
        if name == "accept" and span:
            span_accept(span=span, user=user)
        elif name == "accept_one" and span:
            span_accept(span=span, user=user, all_occurrences=False)
        elif name == "reject" and span:
            span_reject(span=span, user=user, reason="not_identifying")
        elif name == "relabel" and span:
            span_relabel(span=span, user=user, label="ORGANIZATION")
        elif name == "add":
            start = (n * 7) % (len(TEXT) - 12)
            span_add(document=document, user=user, start=start, end=start + 8, label="LOCATION")
        elif name == "undo":
            undo_last(document=document, user=user)
        elif name == "redo":
            redo_last(document=document, user=user)
        elif name == "bulk":
            bulk_decide(document=document, user=user, action="reject" if n % 2 else "accept", score_max=0.6)
        elif name == "reannotate":
            with transaction.atomic():
                replace_machine_spans(document.pk, candidates(keep=2 + n % 3))
        elif name == "delete_added":
            added = [s for s in spans if s.created_by_id is not None]
            if added:
                span_delete(span=added[n % len(added)], user=user)
        elif name == "delete_document":
            deletion.document_delete(document=document)

    @settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(OPERATIONS)
    def test_kept_counts_equal_a_full_recount_after_any_mix_of_operations(self, operations) -> None:
        for operation in operations:
            # Refused (nothing to undo, an overlap…): nothing was written.
            with contextlib.suppress(ReviewError):
                self.apply(*operation)
            # After every step, not only the last: a later write recounts the
            # whole document and would hide a step that forgot to.
            self.assertEqual(dashboard_counts.differences(), (Counter(), Counter()), operation)
        out = io.StringIO()
        call_command("dashboard_counts", "--check", stdout=out)
        self.assertIn("match a full recount", out.getvalue())
        # And the page's numbers are the spans that are there.
        data = dashboard_data(self.corpus)
        self.assertEqual(data.spans, Span.objects.filter(document__corpus=self.corpus).count())


class CheckAndRebuildTests(TestCase):
    def test_check_finds_a_count_changed_behind_the_writer_and_rebuild_repairs_it(self) -> None:
        corpus = Corpus.objects.create(name="Tampered")
        document = Document.objects.create(corpus=corpus, name="t.txt", sha256="t", text=TEXT, status="ready")
        with transaction.atomic():
            store_machine_spans(document.pk, candidates())
        user = get_user_model().objects.create(username="kim")
        span_accept(span=Span.objects.select_related("document").filter(document=document).first(), user=user)
        call_command("dashboard_counts", "--check", stdout=io.StringIO())
        kinds = set(DashboardCount.objects.filter(document=document).values_list("kind", flat=True))
        self.assertEqual(kinds, {"spans", "risk", "work", "hour"})
        # A span written outside the writer: the counts no longer match.
        Span.objects.filter(document=document, status="pending").update(status="rejected")
        with self.assertRaisesMessage(CommandError, "Dashboard counts differ from a full recount"):
            call_command("dashboard_counts", "--check", stdout=io.StringIO(), stderr=io.StringIO())
        call_command("dashboard_counts", "--rebuild", "--corpus", "Tampered", stdout=io.StringIO())
        call_command("dashboard_counts", "--check", stdout=io.StringIO())

    def test_a_rebuild_on_postgresql_reads_fresh_table_statistics_first(self) -> None:
        """Right after a large import PostgreSQL's statistics say the tables are empty
        and the recount's plan is quadratic: the rebuild ANALYZEs them first. SQLite
        needs none."""
        with CaptureQueriesContext(connection) as queries:
            dashboard_counts.rebuild()
        analyzed = [q["sql"] for q in queries.captured_queries if q["sql"].startswith("ANALYZE")]
        if connection.vendor == "postgresql":
            # Before the recount: the first three statements.
            self.assertEqual([q["sql"] for q in queries.captured_queries[:3]], analyzed)
            self.assertEqual(len(analyzed), 3, analyzed)
        else:
            self.assertEqual(analyzed, [])

    def test_deleting_a_document_or_a_corpus_deletes_its_counts(self) -> None:
        corpus = Corpus.objects.create(name="Gone")
        document = Document.objects.create(corpus=corpus, name="g.txt", sha256="g", text=TEXT, status="ready")
        with transaction.atomic():
            store_machine_spans(document.pk, candidates())
        self.assertTrue(DashboardCount.objects.filter(document=document).exists())
        deletion.document_delete(document=document)
        self.assertFalse(DashboardCount.objects.filter(corpus=corpus).exists())
        dashboard_counts.rebuild()
        self.assertFalse(DashboardCount.objects.filter(corpus=corpus).exists())
