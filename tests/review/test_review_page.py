"""The document page's server side for issue 16: the cheap poll that refreshes
the page when a machine pass ends, the read-only approved document, and the
side panel's entity- and label-level decisions with page:line occurrences."""

from django.contrib.auth import get_user_model
from django.test import Client, TestCase
from django.urls import reverse

from ingestion.models import Corpus, Document
from review.models import AnnotationRun, CorpusMembership, ReviewEvent, Role, Span

TEXT = (
    "PRESIDING COMMISSIONER HARTWELL: Good morning, Mr. Delgado.\n"
    "INMATE DELGADO: Good morning. I wrote to the zorblat office.\n"
    "PRESIDING COMMISSIONER HARTWELL: Thank you, Mr. Delgado. The zorblat office replied.\n"
    "INMATE DELGADO: The zorblat office is in Fresno. Ask Mr. Delgado Senior.\n"
)


def layout_of(text: str) -> list[list[int]]:
    """Two printed lines per page, numbered from 10."""
    layout, start = [], 0
    for i, line in enumerate(text.split("\n")[:-1]):
        layout.append([start, start + len(line), i // 2 + 1, 10 + i % 2])
        start += len(line) + 1
    return layout


class PageTestCase(TestCase):
    @classmethod
    def setUpTestData(cls) -> None:
        User = get_user_model()
        cls.reviewer = User.objects.create_user("rev", password="pw")
        cls.admin = User.objects.create_user("adm", password="pw")
        cls.corpus = Corpus.objects.create(name="Hearings")
        CorpusMembership.objects.create(corpus=cls.corpus, user=cls.reviewer, role=Role.REVIEWER)
        CorpusMembership.objects.create(corpus=cls.corpus, user=cls.admin, role=Role.ADMIN)
        cls.document = Document.objects.create(
            corpus=cls.corpus, name="h.txt", sha256="h", text=TEXT, layout=layout_of(TEXT), status="ready"
        )
        for needle, label, score in (
            ("HARTWELL", "PERSON", 0.9),
            ("Delgado", "PERSON", 0.85),
            ("Fresno", "LOCATION", 0.5),
        ):
            at = TEXT.find(needle)
            while at >= 0:
                Span.objects.create(
                    document=cls.document,
                    start=at,
                    end=at + len(needle),
                    label=label,
                    text=needle,
                    score=score,
                    sources=["spacy"],
                )
                at = TEXT.find(needle, at + 1)

    def setUp(self) -> None:
        self.client = Client(enforce_csrf_checks=True)
        self.client.force_login(self.reviewer)
        self.client.get(reverse("login"))  # the CSRF cookie, outside the counts

    def post(self, url: str, data: dict | None = None):
        token = self.client.cookies["csrftoken"].value
        return self.client.post(url, data or {}, HTTP_X_CSRFTOKEN=token, HTTP_HX_REQUEST="true")

    def poll(self):
        return self.client.get(
            reverse("document_review", args=[self.document.pk]),
            HTTP_HX_REQUEST="true",
            HTTP_HX_TARGET="annotation-running",
        )


class RefreshTests(PageTestCase):
    def test_the_running_notice_polls_in_3_queries_and_asks_for_a_reload_when_done(self) -> None:
        run = AnnotationRun.objects.create(document=self.document, kind="reannotate", status="running", done=1, total=2)
        page = self.client.get(reverse("document_review", args=[self.document.pk])).content.decode()
        self.assertIn('id="annotation-running"', page)
        self.assertIn('hx-trigger="every 2s"', page)
        # session, user, document with its role and run: no span is read.
        with self.assertNumQueries(3):
            response = self.poll()
        self.assertContains(response, "Re-annotation in progress (50%)")
        self.assertNotIn("HX-Refresh", response.headers)
        AnnotationRun.objects.filter(pk=run.pk).update(status="done", done=2)
        with self.assertNumQueries(3):
            response = self.poll()
        self.assertEqual(response.status_code, 204)
        self.assertEqual(response.headers["HX-Refresh"], "true")
        self.assertNotContains(
            self.client.get(reverse("document_review", args=[self.document.pk])), "annotation-running"
        )

    def test_a_document_being_annotated_polls_until_ready(self) -> None:
        Document.objects.filter(pk=self.document.pk).update(status="annotating")
        self.assertContains(self.poll(), "this page refreshes itself")
        Document.objects.filter(pk=self.document.pk).update(status="ready")
        self.assertEqual(self.poll().headers["HX-Refresh"], "true")


class ApprovedTests(PageTestCase):
    def setUp(self) -> None:
        super().setUp()
        Span.objects.filter(document=self.document).update(status="accepted")
        Document.objects.filter(pk=self.document.pk).update(status="approved")

    def test_the_page_is_read_only_and_says_why(self) -> None:
        url = reverse("document_review", args=[self.document.pk])
        with self.assertNumQueries(5):  # the review page's budget (the muted candidates included)
            page = self.client.get(url).content.decode()
        self.assertIn('id="read-only-note"', page)
        self.assertIn("This document is approved, so it is read-only", page)
        for control in ('id="undo-button"', 'id="bulk-form"', 'id="add-panel"', "data-can-review", "entity-action"):
            self.assertNotIn(control, page)
        span = self.document.spans.first()
        panel = self.client.get(reverse("span_panel", args=[span.pk]), HTTP_HX_REQUEST="true").content.decode()
        self.assertIn("Selected span", panel)
        self.assertNotIn('id="decide-form"', panel)
        self.assertNotIn("<button", panel)

    def test_every_edit_is_refused_with_the_reason(self) -> None:
        span = self.document.spans.first()
        d = self.document.pk
        attempts = [
            (reverse("span_decide", args=[span.pk, "reject"]), {"version": span.version}),
            (reverse("span_decide", args=[span.pk, "relabel"]), {"version": span.version, "label": "ORGANIZATION"}),
            (reverse("span_decide", args=[span.pk, "resize"]), {"version": span.version, "edge": "end", "grow": "1"}),
            (
                reverse("span_create", args=[d]),
                {"start": TEXT.find("zorblat"), "end": TEXT.find("zorblat") + 7, "label": "ORGANIZATION"},
            ),
            (reverse("document_bulk", args=[d]), {"action": "reject"}),
            (reverse("document_undo", args=[d]), {}),
            (reverse("document_entity", args=[d]), {"action": "reject", "label": "PERSON"}),
        ]
        for url, data in attempts:
            response = self.post(url, data)
            self.assertContains(response, "This document is approved: its spans can no longer change.", msg_prefix=url)
        self.assertFalse(ReviewEvent.objects.exists())
        self.assertEqual(set(self.document.spans.values_list("status", flat=True)), {"accepted"})

    def test_approving_reloads_the_page(self) -> None:
        Document.objects.filter(pk=self.document.pk).update(status="reviewed")
        self.client.force_login(self.admin)
        response = self.post(reverse("document_workflow", args=[self.document.pk, "approve"]))
        self.assertContains(response, "Approved")
        self.assertEqual(response.headers["HX-Refresh"], "true")


class GroupActionTests(PageTestCase):
    def spans(self, text: str) -> list[Span]:
        return list(self.document.spans.filter(text=text).order_by("start"))

    def test_the_panel_offers_entity_and_label_actions_with_counts_and_page_lines(self) -> None:
        with self.assertNumQueries(5):  # the budget of the page, unchanged
            page = self.client.get(reverse("document_review", args=[self.document.pk])).content.decode()
        delgado, hartwell = self.spans("Delgado"), self.spans("HARTWELL")
        self.assertIn(f'name="span" value="{delgado[0].pk}"><input type="hidden" name="expect" value="3">', page)
        self.assertIn(">Accept 3</button>", page)
        self.assertIn(">Reject 2</button>", page)  # HARTWELL
        self.assertIn(">Accept all PERSON (5)</button>", page)
        self.assertIn(">Accept all LOCATION (1)</button>", page)
        # Occurrences by printed page and line: Delgado on p1:10, p2:10 and p2:11.
        for span, place in zip(delgado, ("p1:10", "p2:10", "p2:11"), strict=True):
            self.assertIn(f'data-span-id="{span.pk}">{place} · pending', page)
        self.assertIn(f'data-span-id="{hartwell[1].pk}">p2:10 · pending', page)
        self.assertNotIn(">@", page)

    def test_without_layout_occurrences_show_the_text_line(self) -> None:
        Document.objects.filter(pk=self.document.pk).update(layout=[])
        page = self.client.get(reverse("document_review", args=[self.document.pk])).content.decode()
        fresno = self.spans("Fresno")[0]
        self.assertIn(f'data-span-id="{fresno.pk}">line 4 · pending', page)

    def test_an_entity_is_accepted_as_one_audited_step_and_undone_as_one(self) -> None:
        delgado = self.spans("Delgado")
        url = reverse("document_entity", args=[self.document.pk])
        # session, user, document+role, its spans, the muted candidates, then the
        # operation: savepoint, lock, one UPDATE, one INSERT of the events, the
        # dashboard's counts of the document (DELETE, INSERT … SELECT), the ready
        # document put in review (its first decision), release: as many as one
        # span's decision.
        with self.assertNumQueries(13):
            response = self.post(url, {"action": "accept", "label": "PERSON", "span": delgado[1].pk, "expect": 3})
        self.assertContains(response, "Accepted 3 pending spans of “Delgado” (PERSON).")
        self.assertEqual({s.status for s in self.spans("Delgado")}, {"accepted"})
        self.assertEqual({s.status for s in self.spans("HARTWELL")}, {"pending"})
        events = ReviewEvent.objects.filter(action="accept")
        self.assertEqual(events.count(), 3)
        self.assertEqual(len({e.bulk_id for e in events}), 1)
        self.assertEqual({e.user_id for e in events}, {self.reviewer.pk})
        response = self.post(reverse("document_undo", args=[self.document.pk]))
        self.assertContains(response, "Undone: accept (3 spans).")
        self.assertEqual({s.status for s in self.spans("Delgado")}, {"pending"})

    def test_a_label_group_is_rejected_as_one_step_and_respects_the_panel_filters(self) -> None:
        url = reverse("document_entity", args=[self.document.pk])
        # The panel filtered to scores below 0.88: only the Delgado spans are listed.
        current = "http://testserver" + reverse("document_review", args=[self.document.pk]) + "?below=0.88"
        token = self.client.cookies["csrftoken"].value
        response = self.client.post(
            url,
            {"action": "reject", "label": "PERSON", "expect": 3, "reason": "false_positive"},
            HTTP_X_CSRFTOKEN=token,
            HTTP_HX_REQUEST="true",
            HTTP_HX_CURRENT_URL=current,
        )
        self.assertContains(response, "Rejected 3 pending spans of the PERSON group.")
        self.assertEqual({s.status for s in self.spans("Delgado")}, {"rejected"})
        self.assertEqual({s.reject_reason for s in self.spans("Delgado")}, {"false_positive"})
        self.assertEqual({s.status for s in self.spans("HARTWELL")}, {"pending"})  # filtered out: untouched

    def test_a_group_that_changed_since_the_page_was_shown_is_refused(self) -> None:
        delgado = self.spans("Delgado")
        Span.objects.filter(pk=delgado[0].pk).update(status="rejected")
        url = reverse("document_entity", args=[self.document.pk])
        response = self.post(url, {"action": "accept", "label": "PERSON", "span": delgado[1].pk, "expect": 3})
        self.assertContains(response, "now has 2 pending spans, not 3: nothing was decided")
        self.assertFalse(ReviewEvent.objects.exists())
        response = self.post(url, {"action": "accept", "label": "NRP"})
        self.assertContains(response, "the NRP group: no pending span left to decide.")
        response = self.post(url, {"action": "merge", "label": "PERSON"})
        self.assertContains(response, "Unknown action: accept or reject.")
        self.assertFalse(ReviewEvent.objects.exists())
