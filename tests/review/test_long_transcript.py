"""The review page of a long transcript (issue 29, item 4): a 334-page transcript
with ~5,000 spans costs the page's four queries and a decision's fixed number,
whatever the length. Its time is measured by bench/bench_review.py
(BENCH_PAGES=500) and, in the browser, bench/bench_review_browser.py."""

from collections import Counter

from django.contrib.auth import get_user_model
from django.test import Client, TestCase
from django.urls import reverse

from ingestion.models import Corpus
from review.models import CorpusMembership, Role, Span
from review.services.dashboard_counts import differences
from tests.review.test_decision_views import DECISION_QUERIES, NAMES, make_big_document


class LongTranscriptTests(TestCase):
    @classmethod
    def setUpTestData(cls) -> None:
        cls.reviewer = get_user_model().objects.create_user("long", password="pw")
        corpus = Corpus.objects.create(name="Long")
        CorpusMembership.objects.create(corpus=corpus, user=cls.reviewer, role=Role.REVIEWER)
        cls.document = make_big_document(corpus, pages=334)

    def test_5000_spans_in_the_same_queries_as_1500(self) -> None:
        self.assertGreaterEqual(self.document.spans.count(), 5000)
        client = Client(enforce_csrf_checks=True)
        client.force_login(self.reviewer)
        client.get(reverse("login"))  # the CSRF cookie, outside the counts
        # session, user, document+corpus+role, spans, the muted candidates (target: at most 12).
        with self.assertNumQueries(5):
            response = client.get(reverse("document_review", args=[self.document.pk]))
        page = response.content.decode()
        self.assertEqual(page.count('<mark id="span-'), self.document.spans.count())
        self.assertEqual(page.count('class="occ st-pending"'), self.document.spans.count())
        span = Span.objects.filter(document=self.document, text=NAMES[3]).first()
        token = client.cookies["csrftoken"].value
        with self.assertNumQueries(DECISION_QUERIES):
            client.post(
                reverse("span_decide", args=[span.pk, "accept"]),
                {"version": span.version},
                HTTP_X_CSRFTOKEN=token,
                HTTP_HX_REQUEST="true",
            )
        self.assertEqual(
            set(Span.objects.filter(document=self.document, text=NAMES[3]).values_list("status", flat=True)),
            {"accepted"},
        )
        # The decision counted the whole document again for the dashboard.
        self.assertEqual(differences(), (Counter(), Counter()))
