"""The corpus dashboard (issue 18, items 3 and 4): its numbers against the
database on a fixture corpus reviewed through the real services, its query
budget (constant in documents, spans and events, on PostgreSQL and SQLite),
its timeline reconstruction, the residual-risk blocks and the page's markup
(every chart with a text alternative, no inline script or style)."""

import hashlib
import json
import re
from collections import Counter, defaultdict
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from unittest import mock

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client, TestCase
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from ingestion.models import Corpus, Document
from pipelines.labels import DIRECT_IDENTIFIER_LABELS
from review.models import AnnotationRun, CorpusMembership, ReviewEvent, Role, Span
from review.selectors import dashboard as selectors
from review.selectors.dashboard import dashboard_data, milestones, timeline
from review.selectors.quasi import left_in_approved
from review.services import dashboard_counts
from review.services.dashboard_counts import DECISION_ACTIONS
from review.services.decisions import bulk_decide, span_accept, span_add, span_reject, span_relabel
from review.services.undo import undo_last
from review.services.workflow import document_approve, document_mark_reviewed

TEXT = (
    "COMMISSIONER HARTWELL: Mr. Delgado, your number is K-48213.\n"
    "INMATE DELGADO: Yes. I called (559) 555-0147 from Fresno on March 14.\n"
    "COMMISSIONER HARTWELL: Thank you, Mr. Delgado. The zorblat office in Fresno wrote.\n"
)
# (needle, label, sources, score): every occurrence becomes a machine span.
MACHINE = [
    ("HARTWELL", "PERSON", ["spacy"], 0.35),
    ("Delgado", "PERSON", ["presidio", "spacy"], 0.92),
    ("K-48213", "ID", ["patterns"], 0.99),
    ("(559) 555-0147", "PHONE_NUMBER", ["presidio"], 0.75),
    ("Fresno", "LOCATION", ["gazetteer"], 0.55),
    ("March 14", "DATE", ["patterns", "spacy"], 0.85),
]
# Every query the page runs: session, user, corpus with the caller's role,
# documents with their first milestones, workflow steps, span groups, reviewer
# throughput, direct identifiers left, quasi-identifiers left by category.
PAGE_QUERIES = 9


def add_document(corpus: Corpus, name: str, status: str = "ready", spans: bool = True) -> Document:
    document = Document.objects.create(corpus=corpus, name=name, sha256=name, text=TEXT, status=status)
    if spans:
        for needle, label, sources, score in MACHINE:
            at = TEXT.find(needle)
            while at >= 0:
                Span.objects.create(
                    document=document,
                    start=at,
                    end=at + len(needle),
                    label=label,
                    text=needle,
                    sources=sources,
                    score=score,
                )
                at = TEXT.find(needle, at + 1)
        AnnotationRun.objects.create(document=document, kind="annotate", status="done", finished_at=timezone.now())
        # Written here, not by the span service: counted as it would have counted them.
        dashboard_counts.document_counted(document.pk)
    return document


def span(document: Document, text: str) -> Span:
    return Span.objects.select_related("document").filter(document=document, text=text).order_by("start").first()


def fresh(document: Document) -> Document:
    return Document.objects.select_related("corpus").get(pk=document.pk)


@dataclass
class Fixture:
    corpus: Corpus
    users: dict
    documents: dict


def build_fixture_corpus(name: str = "Hearings") -> Fixture:
    """Six documents in every state, reviewed by two reviewers through the real
    services (apply-to-all, bulk, relabel, add, undo, mark reviewed, approve),
    and one approved document whose spans were changed outside the workflow."""
    User = get_user_model()
    corpus = Corpus.objects.create(name=name)
    users = {}
    roles = (("owner", Role.ADMIN), ("kim", Role.REVIEWER), ("lee", Role.REVIEWER), ("aud", Role.AUDITOR))
    for username, role in roles:
        users[username] = User.objects.create_user(f"{username}-{name}", password="s3cret-pass-long")
        CorpusMembership.objects.create(corpus=corpus, user=users[username], role=role)
    kim, lee, owner = users["kim"], users["lee"], users["owner"]
    docs = {
        "approved": add_document(corpus, "approved.txt"),
        "in_review": add_document(corpus, "in-review.txt"),
        "ready": add_document(corpus, "ready.txt"),
        "leaky": add_document(corpus, "leaky.txt"),
        "failed": add_document(corpus, "failed.txt", status="failed", spans=False),
        "uploaded": add_document(corpus, "uploaded.txt", status="uploaded", spans=False),
    }

    # approved.txt, by kim: 7 operations deciding 10 spans.
    d = docs["approved"]
    span_accept(span=span(d, "Delgado"), user=kim)  # apply-to-all: 2 spans
    span_reject(span=span(d, "HARTWELL"), user=kim, reason="public_official")  # 2 spans, kept on purpose
    span_accept(span=span(d, "K-48213"), user=kim)
    span_accept(span=span(d, "(559) 555-0147"), user=kim)
    span_relabel(span=span(d, "Fresno"), user=kim, label="ORGANIZATION")  # 2 spans, accepted as ORGANIZATION
    span_accept(span=span(d, "March 14"), user=kim)
    at = TEXT.index("zorblat office")
    span_add(document=fresh(d), user=kim, start=at, end=at + len("zorblat office"), label="ORGANIZATION")
    document_mark_reviewed(document=fresh(d), user=kim)
    document_approve(document=fresh(d), user=owner)

    # in-review.txt, by lee: a bulk reject, an accept undone, an accept of one occurrence.
    d = docs["in_review"]
    bulk_decide(document=fresh(d), user=lee, action="reject", score_max=0.5, reason="not_identifying")  # HARTWELL ×2
    span_accept(span=span(d, "Delgado"), user=lee)  # 2 spans
    undo_last(document=fresh(d), user=lee)  # back to pending: not a decision
    span_accept(span=span(d, "Delgado"), user=lee, all_occurrences=False)  # 1 span

    # leaky.txt: kim accepts everything in bulk; approved; then, outside the
    # workflow, a PERSON suggestion is put back to pending and an ID one rejected.
    d = docs["leaky"]
    bulk_decide(document=fresh(d), user=kim, action="accept")
    document_mark_reviewed(document=fresh(d), user=kim)
    document_approve(document=fresh(d), user=owner)
    Span.objects.filter(pk=span(d, "Delgado").pk).update(status="pending")
    Span.objects.filter(pk=span(d, "K-48213").pk).update(status="rejected")
    # What `manage.py dashboard_counts --rebuild` does after a write outside the workflow.
    dashboard_counts.rebuild(corpus.pk)
    return Fixture(corpus, users, docs)


def expected(corpus: Corpus) -> dict:
    """The dashboard's numbers recomputed by brute force from every row of the
    corpus, independently of the selectors' SQL."""
    spans = list(Span.objects.filter(document__corpus=corpus))
    events = list(ReviewEvent.objects.filter(document__corpus=corpus).select_related("user"))
    labels: dict = defaultdict(Counter)
    sources: dict = defaultdict(Counter)
    bins: dict = defaultdict(Counter)
    for s in spans:
        if s.created_by_id is not None:
            if s.status == "accepted":
                labels[s.label]["added"] += 1
            continue
        labels[s.label][s.status] += 1
        for source in s.sources:
            sources[source][s.status] += 1
        bins[min(int(s.score * 10), 9)][s.status] += 1
    reviewers: dict = {}
    for e in events:
        if e.user is None:
            continue
        r = reviewers.setdefault(e.user.username, {"decisions": 0, "ops": set(), "spans": set(), "hours": set()})
        if e.action in DECISION_ACTIONS:
            r["hours"].add(e.created_at.astimezone(UTC).strftime("%Y-%m-%d %H"))
            r["decisions"] += 1
            r["ops"].add(e.bulk_id)
            if e.span_id:
                r["spans"].add(e.span_id)
    rejected_by_reviewer = {e.span_id for e in events if e.span_id and (e.after or {}).get("status") == "rejected"}
    residual: Counter = Counter()
    for s in spans:
        if (
            s.document.status == "approved"
            and s.created_by_id is None
            and s.label in DIRECT_IDENTIFIER_LABELS
            and (s.status == "pending" or (s.status == "rejected" and s.pk not in rejected_by_reviewer))
        ):
            residual[s.document.name] += 1
    statuses = Counter(d.status for d in Document.objects.filter(corpus=corpus))
    processing = sum(statuses[s] for s in ("uploaded", "extracting", "annotating"))
    return {
        "labels": {k: dict(v) for k, v in labels.items()},
        "sources": {k: dict(v) for k, v in sources.items()},
        "bins": {k: dict(v) for k, v in bins.items()},
        "reviewers": {
            name: (r["decisions"], len(r["ops"]), len(r["spans"]), len(r["hours"]))
            for name, r in reviewers.items()
            if r["decisions"]  # someone who only approved is no reviewer here
        },
        "residual": dict(residual),
        "now": {"processing": processing, **{s: statuses[s] for s in ("ready", "in_review", "reviewed", "approved")}}
        | {"failed": statuses["failed"]},
        "spans": len(spans),
    }


def json_block(page: str, block_id: str) -> dict:
    found = re.search(rf'<script id="{block_id}" type="application/json">(.*?)</script>', page, re.S)
    assert found, f"no {block_id} block"
    return json.loads(found.group(1))


class DashboardTests(TestCase):
    @classmethod
    def setUpTestData(cls) -> None:
        cls.fixture = build_fixture_corpus()
        cls.corpus = cls.fixture.corpus
        cls.url = reverse("corpus_dashboard", args=[cls.corpus.pk])

    def client_for(self, who: str) -> Client:
        client = Client()
        client.force_login(self.fixture.users[who])
        return client

    def test_the_numbers_match_the_database(self) -> None:
        data = dashboard_data(self.corpus)
        truth = expected(self.corpus)
        self.assertEqual(
            {r.key: {k: v for k, v in vars(r).items() if k != "key" and v} for r in data.labels}, truth["labels"]
        )
        self.assertEqual(
            {r.key: {k: v for k, v in vars(r).items() if k not in ("key", "added") and v} for r in data.sources},
            truth["sources"],
        )
        got_bins = {
            i: {k: v for k, v in (("accepted", b.correct), ("rejected", b.wrong), ("pending", b.pending)) if v}
            for i, b in enumerate(data.bins)
        }
        self.assertEqual({i: v for i, v in got_bins.items() if v}, truth["bins"])
        self.assertEqual(
            {r.username: (r.decisions, r.operations, r.spans, r.active_hours) for r in data.reviewers},
            truth["reviewers"],
        )
        self.assertEqual({d.name: d.total for d in data.risk.documents}, truth["residual"])
        self.assertEqual(data.timeline.now, truth["now"])
        self.assertEqual(data.spans, truth["spans"])
        self.assertEqual(data.documents, 6)

    def test_the_numbers_by_hand(self) -> None:
        """The same numbers, counted by hand from the fixture's story, so a
        mistake shared by the selectors and the brute force still shows."""
        data = dashboard_data(self.corpus)
        labels = {r.key: r for r in data.labels}
        # PERSON machine spans: 3 documents reviewed. approved.txt: Delgado ×2
        # accepted, HARTWELL ×2 rejected; in-review.txt: HARTWELL ×2 rejected,
        # Delgado 1 accepted 1 pending; leaky.txt: Delgado 1 accepted 1 pending
        # (put back), HARTWELL ×2 accepted; ready.txt: all 4 pending.
        self.assertEqual((labels["PERSON"].accepted, labels["PERSON"].rejected), (2 + 1 + 3, 2 + 2))
        self.assertEqual(labels["PERSON"].pending, 1 + 1 + 4)
        self.assertEqual(labels["PERSON"].rejected_share, 40.0)
        # The relabelled Fresno counts as accepted ORGANIZATION, with the added span.
        self.assertEqual((labels["ORGANIZATION"].accepted, labels["ORGANIZATION"].added), (2, 1))
        self.assertEqual(labels["ID"].rejected, 1)  # leaky.txt, outside the workflow
        sources = {r.key: r for r in data.sources}
        self.assertNotIn("human", sources)
        self.assertEqual(sources["spacy"].rejected, 4)  # HARTWELL ×4
        # Score 0.3–0.4: HARTWELL: 4 rejected, 2 accepted (leaky.txt).
        self.assertEqual((data.bins[3].correct, data.bins[3].wrong, data.bins[3].share), (2, 4, 33.3))
        reviewers = {r.username: r for r in data.reviewers}
        kim, lee = reviewers["kim-Hearings"], reviewers["lee-Hearings"]
        # kim: 7 operations over 10 spans in approved.txt, 1 bulk accept of 9 in leaky.txt.
        self.assertEqual((kim.operations, kim.decisions, kim.spans), (8, 19, 19))
        self.assertEqual(kim.actions_per_span, round(8 / 19, 3))
        # lee: bulk reject (2), accept (2, undone), accept one (1): 3 operations,
        # 5 decisions over 4 distinct spans; the undo is no decision.
        self.assertEqual((lee.operations, lee.decisions, lee.spans), (3, 5, 4))
        self.assertEqual(lee.actions_per_span, 0.75)
        self.assertNotIn("owner-Hearings", reviewers)  # approvals only: no decision
        self.assertEqual(data.total.operations, 11)
        # Direct identifiers left: leaky.txt's pending Delgado and unreviewed
        # rejected K-48213; approved.txt's HARTWELL was rejected by kim: a decision.
        self.assertEqual(
            [(d.name, d.pending, d.rejected_unreviewed) for d in data.risk.documents], [("leaky.txt", 1, 1)]
        )
        self.assertEqual((data.risk.total, data.risk.approved_documents), (2, 2))
        self.assertEqual(
            data.timeline.now,
            {"processing": 1, "ready": 1, "in_review": 1, "reviewed": 0, "approved": 2, "failed": 1},
        )

    def test_the_page_shows_the_same_numbers_in_its_charts_and_tables(self) -> None:
        response = self.client_for("aud").get(self.url)
        self.assertEqual(response.status_code, 200)
        page = response.content.decode()
        truth = expected(self.corpus)
        labels = json_block(page, "data-labels")
        series = {s["key"]: dict(zip(labels["labels"], s["values"], strict=True)) for s in labels["series"]}
        for label, counts in truth["labels"].items():
            for what in ("accepted", "rejected", "pending", "added"):
                self.assertEqual(series[what][label], counts.get(what, 0), (label, what))
        sources = json_block(page, "data-sources")
        by_source = {s["key"]: dict(zip(sources["labels"], s["values"], strict=True)) for s in sources["series"]}
        self.assertEqual(by_source["rejected"]["spacy"], truth["sources"]["spacy"]["rejected"])
        reliability = json_block(page, "data-reliability")
        self.assertEqual(reliability["series"][0]["values"][3], 33.3)
        timeline_chart = json_block(page, "data-timeline")
        now = {s["key"]: s["values"][-1] for s in timeline_chart["series"]}
        self.assertEqual(now, truth["now"])
        throughput = json_block(page, "data-throughput")
        self.assertEqual(throughput["labels"][0], "kim-Hearings")  # most decisions first
        residual = json_block(page, "data-residual")
        self.assertEqual(residual["labels"], ["leaky.txt"])
        self.assertEqual([s["values"] for s in residual["series"]], [[1], [1]])
        # Key figures and tables.
        self.assertIn(f'<dd id="fig-spans">{truth["spans"]}</dd>', page)
        self.assertIn('<dd id="fig-residual">2</dd>', page)
        self.assertIn('<th scope="row">lee-Hearings</th><td>5</td><td>3</td><td>4</td><td>0.75</td>', page)
        self.assertIn("2 left in 1 of 2 approved documents", page)

    def test_every_chart_has_a_text_alternative_and_its_table(self) -> None:
        page = self.client_for("kim").get(self.url).content.decode()
        canvases = re.findall(r"<canvas ([^>]*)>(.*?)</canvas>", page, re.S)
        self.assertEqual(len(canvases), 6)  # timeline, labels, sources, reliability, throughput, residual
        for attributes, fallback in canvases:
            self.assertIn('role="img"', attributes)
            label = re.search(r'aria-label="([^"]+)"', attributes).group(1)
            self.assertRegex(label, r"\d")  # the numbers, not just a title
            self.assertTrue(fallback.strip())
            block = re.search(r'data-chart="([^"]+)"', attributes).group(1)
            json_block(page, block)
        for table in ("timeline", "labels", "sources", "reliability", "throughput", "residual"):
            self.assertIn(f'id="table-{table}"', page)
        self.assertIn("PERSON 6 accepted, 4 rejected, 6 pending, 0 added", page)

    def test_no_inline_script_or_style_for_the_content_security_policy(self) -> None:
        page = self.client_for("kim").get(self.url).content.decode()
        for attributes, body in re.findall(r"<script([^>]*)>(.*?)</script>", page, re.S):
            self.assertTrue('src="' in attributes or 'type="application/json"' in attributes, attributes)
            if "src=" in attributes:
                self.assertEqual(body, "")
        self.assertNotRegex(page, r"\sstyle=")
        self.assertNotRegex(page, r"\son[a-z]+=")  # no inline event handlers either
        self.assertIn("/static/vendor/chartjs/chart.umd.min.js", page)
        self.assertIn("/static/review/dashboard.css", page)

    def test_constant_queries_on_both_databases(self) -> None:
        client = self.client_for("kim")
        with self.assertNumQueries(PAGE_QUERIES):
            self.assertEqual(client.get(self.url).status_code, 200)
        # Three more documents reviewed, with their spans and events: same count.
        for i in range(3):
            d = add_document(self.corpus, f"more-{i}.txt")
            bulk_decide(document=fresh(d), user=self.fixture.users["lee"], action="accept")
            document_mark_reviewed(document=fresh(d), user=self.fixture.users["lee"])
        with self.assertNumQueries(PAGE_QUERIES):
            page = client.get(self.url).content.decode()
        self.assertIn('<dd id="fig-documents">9</dd>', page)

    def test_members_only(self) -> None:
        for who in ("owner", "kim", "aud"):
            self.assertEqual(self.client_for(who).get(self.url).status_code, 200, who)
        stranger = get_user_model().objects.create_user("stranger", password="s3cret-pass-long")
        client = Client()
        client.force_login(stranger)
        self.assertEqual(client.get(self.url).status_code, 404)
        self.assertEqual(Client().get(self.url).status_code, 302)
        self.assertEqual(self.client_for("kim").post(self.url).status_code, 405)

    def test_linked_from_the_corpus_page_and_the_queue(self) -> None:
        client = self.client_for("aud")
        for name in ("corpus_detail", "corpus_queue"):
            page = client.get(reverse(name, args=[self.corpus.pk])).content.decode()
            self.assertIn(f'href="{self.url}" id="dashboard-link"', page, name)

    def test_quasi_identifiers_block_is_empty_without_flags_and_shows_what_the_selector_returns(self) -> None:
        self.assertEqual(dict(left_in_approved(self.corpus)), {})
        client = self.client_for("kim")
        page = client.get(self.url).content.decode()
        self.assertIn('id="quasi-empty"', page)
        self.assertNotIn('id="chart-quasi"', page)
        self.assertIn("What an export protects, and what it does not", page)
        # The block draws what the selector returns (mocked: its one query is not run).
        filled = mock.patch.object(selectors, "left_in_approved", return_value={"LOC": 5, "DEM": 2})
        with filled, self.assertNumQueries(PAGE_QUERIES - 1):
            page = client.get(self.url).content.decode()
        self.assertNotIn('id="quasi-empty"', page)
        quasi = json_block(page, "data-quasi")
        self.assertEqual(quasi["labels"], ["DEM", "DATETIME", "LOC", "QUANTITY", "MISC", "RELATION"])
        self.assertEqual(quasi["series"][0]["values"], [2, 0, 5, 0, 0, 0])
        self.assertIn(
            "Quasi-identifiers left as written (kept or undecided), by category: DEM 2, DATETIME 0, LOC 5", page
        )


class OtherCorporaTests(TestCase):
    """On SQLite, span groups walk an index over every corpus's spans and keep
    this corpus's (issue 18's speed target): another corpus's spans, added
    spans and decisions, by the same reviewer, never count."""

    def test_another_corpus_changes_nothing(self) -> None:
        fixture = build_fixture_corpus("Hearings")
        before = dashboard_data(fixture.corpus)
        truth = expected(fixture.corpus)
        other = build_fixture_corpus("Elsewhere")
        # The same reviewer works in the other corpus too (a member there).
        kim = fixture.users["kim"]
        CorpusMembership.objects.create(corpus=other.corpus, user=kim, role=Role.REVIEWER)
        d = other.documents["ready"]
        span_accept(span=span(d, "Delgado"), user=kim)
        at = TEXT.index("zorblat office")
        span_add(document=fresh(d), user=kim, start=at, end=at + len("zorblat office"), label="LOCATION")
        after = dashboard_data(fixture.corpus)
        self.assertEqual(expected(fixture.corpus), truth)
        for field_name in ("labels", "sources", "bins", "reviewers", "spans", "documents"):
            self.assertEqual(getattr(after, field_name), getattr(before, field_name), field_name)
        self.assertEqual(after.risk.documents, before.risk.documents)
        # And the other corpus has its own numbers, kim's decisions there included.
        theirs = {r.username: r for r in dashboard_data(other.corpus).reviewers}
        self.assertEqual(theirs[kim.username].decisions, 2 + 1)  # Delgado ×2 accepted, one span added
        self.assertEqual(dashboard_data(other.corpus).spans, expected(other.corpus)["spans"])


class KeptCountsTests(TestCase):
    """The page sums the kept counts (DashboardCount): it reads no span and no
    review event, so its time does not grow with them (issue 29)."""

    def test_the_page_reads_no_span_and_no_review_event(self) -> None:
        fixture = build_fixture_corpus("Kept")
        client = Client()
        client.force_login(fixture.users["aud"])
        with CaptureQueriesContext(connection) as queries:
            response = client.get(reverse("corpus_dashboard", args=[fixture.corpus.pk]))
        self.assertEqual(response.status_code, 200)
        # (The quasi-identifier count probes each flag's span by the index: no span count.)
        sql = " ".join(q["sql"] for q in queries.captured_queries if "review_quasiidentifier" not in q["sql"])
        self.assertNotIn("review_span", sql)
        counted = [q["sql"] for q in queries.captured_queries if "review_dashboardcount" in q["sql"]]
        self.assertEqual(len(counted), 3)  # span groups, reviewer throughput, direct identifiers left
        if connection.vendor == "sqlite":
            # The span groups walk the covering index in the GROUP BY's order: no
            # sort of the kept rows, no table read.
            with connection.cursor() as cursor:
                cursor.execute("EXPLAIN QUERY PLAN " + counted[0])
                plan = " | ".join(str(row[-1]) for row in cursor.fetchall())
            self.assertIn("COVERING INDEX dashboardcount_corpus_kind", plan)
            self.assertNotIn("TEMP B-TREE", plan)
        # Review events are read for the timeline only: each document's first
        # event (an index probe) and the workflow steps (no bulk id).
        for q in queries.captured_queries:
            if "review_reviewevent" in q["sql"] and "review_dashboardcount" not in q["sql"]:
                self.assertTrue("LIMIT 1" in q["sql"] or '"bulk_id" IS NULL' in q["sql"], q["sql"][:300])


class EmptyCorpusTests(TestCase):
    def test_an_empty_corpus_shows_empty_states_in_the_same_queries(self) -> None:
        corpus = Corpus.objects.create(name="Empty")
        user = get_user_model().objects.create_user("solo", password="s3cret-pass-long")
        CorpusMembership.objects.create(corpus=corpus, user=user, role=Role.REVIEWER)
        client = Client()
        client.force_login(user)
        with self.assertNumQueries(PAGE_QUERIES):
            response = client.get(reverse("corpus_dashboard", args=[corpus.pk]))
        page = response.content.decode()
        self.assertEqual(response.status_code, 200)
        self.assertNotIn("<canvas", page)
        self.assertIn("No document yet.", page)
        self.assertIn("No review decision yet.", page)
        self.assertIn("None: 0 left in 0 approved documents.", page)


class TimelineTests(TestCase):
    """Documents by status over time, reconstructed from creation, the
    pre-annotation's end, the first review event, the last "mark reviewed" and
    the approval."""

    def test_each_document_moves_through_its_milestones_per_day(self) -> None:
        fixture = build_fixture_corpus("Timeline")
        docs = fixture.documents
        day0 = timezone.localtime().replace(hour=0, minute=0, second=0, microsecond=0) - timedelta(days=6)

        def at(days: float) -> datetime:
            return day0 + timedelta(days=days)

        Document.objects.filter(corpus=fixture.corpus).update(created_at=at(0.1), updated_at=at(0.1))
        AnnotationRun.objects.filter(document__corpus=fixture.corpus).update(finished_at=at(0.2))
        events = ReviewEvent.objects.filter(document__corpus=fixture.corpus)
        # approved.txt: decisions on day 1, marked reviewed on day 2, approved on day 4.
        events.filter(document=docs["approved"]).update(created_at=at(1.5))
        events.filter(document=docs["approved"], action="mark_reviewed").update(created_at=at(2.5))
        events.filter(document=docs["approved"], action="approve").update(created_at=at(4.5))
        # in-review.txt: decisions on day 3. leaky.txt: everything on day 5.
        events.filter(document=docs["in_review"]).update(created_at=at(3.5))
        events.filter(document=docs["leaky"]).update(created_at=at(5.5))
        Document.objects.filter(pk=docs["failed"].pk).update(updated_at=at(1.2))

        data = dashboard_data(fixture.corpus, now=at(6.5))
        t = data.timeline
        self.assertEqual(t.period, "day")
        self.assertEqual(t.points, [at(i).strftime("%Y-%m-%d") for i in range(7)])
        self.assertEqual(t.counts["processing"], [2, 1, 1, 1, 1, 1, 1])  # failed.txt fails on day 1
        self.assertEqual(t.counts["failed"], [0, 1, 1, 1, 1, 1, 1])
        self.assertEqual(t.counts["ready"], [4, 3, 3, 2, 2, 1, 1])
        self.assertEqual(t.counts["in_review"], [0, 1, 0, 1, 1, 1, 1])
        self.assertEqual(t.counts["reviewed"], [0, 0, 1, 1, 0, 0, 0])
        self.assertEqual(t.counts["approved"], [0, 0, 0, 0, 1, 2, 2])
        for i in range(7):  # every document is in exactly one status at every point
            self.assertEqual(sum(values[i] for values in t.counts.values()), 6)
        rows = dict(t.rows)
        self.assertEqual(rows[at(4).strftime("%Y-%m-%d")], [1, 2, 1, 0, 1, 1])

    def test_a_reopened_document_counts_as_in_review_whatever_its_old_marking(self) -> None:
        created = timezone.now() - timedelta(days=3)
        row = {
            "status": "in_review",
            "created_at": created,
            "updated_at": created,
            "annotated_at": created + timedelta(minutes=5),
            "first_event": created + timedelta(days=1),
            "reviewed_at": None,  # the CASE reads it only for reviewed and approved documents
            "approved_at": None,
        }
        self.assertEqual([key for _, key in milestones(row)], ["processing", "ready", "in_review"])

    def test_missing_times_take_the_previous_one_and_never_go_backwards(self) -> None:
        created = timezone.now() - timedelta(hours=5)
        row = {
            "status": "approved",
            "created_at": created,
            "updated_at": created,
            "annotated_at": None,  # imported: no pre-annotation run
            "first_event": created - timedelta(hours=1),  # a clock set wrong
            "reviewed_at": created + timedelta(hours=2),
            "approved_at": None,
        }
        times = [moment for moment, _ in milestones(row)]
        self.assertEqual(times, [created, created, created, created + timedelta(hours=2), created + timedelta(hours=2)])

    def test_the_period_is_the_finest_that_fits_sixty_points(self) -> None:
        now = timezone.now()

        def period(age: timedelta) -> str:
            row = {"status": "uploaded", "created_at": now - age, "updated_at": now - age}
            return timeline([row], now).period

        self.assertEqual(period(timedelta(hours=5)), "hour")
        self.assertEqual(period(timedelta(days=20)), "day")
        self.assertEqual(period(timedelta(days=200)), "week")
        self.assertEqual(period(timedelta(days=900)), "month")
        t = timeline([{"status": "uploaded", "created_at": now - timedelta(days=20), "updated_at": now}], now)
        self.assertLessEqual(len(t.points), 60)
        self.assertEqual(t.counts["processing"][0], 1)
        self.assertEqual(timeline([], now).points, [])


def test_the_vendored_chart_library_is_the_recorded_release_with_its_licence() -> None:
    """static/vendor/chartjs holds Chart.js's own UMD build, unchanged (its
    sha256 is the one its README records), with the MIT licence beside it."""
    folder = settings.BASE_DIR / "static" / "vendor" / "chartjs"
    script = (folder / "chart.umd.min.js").read_bytes()
    assert script.startswith(b"/*!\n * Chart.js v4.6.1")
    assert hashlib.sha256(script).hexdigest() in (folder / "README.md").read_text()
    assert "MIT License" in (folder / "LICENSE.md").read_text()
