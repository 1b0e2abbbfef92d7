"""The review page of a long transcript (issue 29, item 4): a 334-page transcript
with ~5,000 spans costs the page's five queries (the target: at most 12) and a
decision's fixed number, whatever the length; a decision answers with what it
changed (the decided marks, the counts, the side panel's entity), never the
whole text again. Its time is measured by bench/bench_review.py
(BENCH_PAGES=500) and, in the browser, bench/bench_review_browser.py."""

import re
from collections import Counter

from django.contrib.auth import get_user_model
from django.test import Client, TestCase
from django.urls import reverse

from ingestion.models import Corpus, Document
from review.models import CorpusMembership, Role, Span
from review.selectors.document import LineIndex, SpanRow, line_starts, segments, span_rows
from review.services.dashboard_counts import differences
from review.templatetags.review_tags import CHUNK_CHARS, text_runs
from review.text import same_name_key
from tests.review.test_decision_views import (
    DECISION_QUERIES,
    FULL_DECISION_QUERIES,
    NAMES,
    big_transcript,
    layout_of,
    make_big_document,
)


class LongTranscriptTests(TestCase):
    @classmethod
    def setUpTestData(cls) -> None:
        cls.reviewer = get_user_model().objects.create_user("long", password="pw")
        cls.corpus = Corpus.objects.create(name="Long")
        CorpusMembership.objects.create(corpus=cls.corpus, user=cls.reviewer, role=Role.REVIEWER)
        cls.document = make_big_document(cls.corpus, pages=334)

    def setUp(self) -> None:
        self.client = Client(enforce_csrf_checks=True)
        self.client.force_login(self.reviewer)
        self.client.get(reverse("login"))  # the CSRF cookie, outside the counts

    def decide(self, span: Span, action: str, data: dict | None = None, **headers):
        return self.client.post(
            reverse("span_decide", args=[span.pk, action]),
            {"version": span.version, **(data or {})},
            HTTP_X_CSRFTOKEN=self.client.cookies["csrftoken"].value,
            HTTP_HX_REQUEST="true",
            **headers,
        )

    def test_5000_spans_in_the_same_queries_as_1500(self) -> None:
        self.assertGreaterEqual(self.document.spans.count(), 5000)
        # session, user, document+corpus+role, spans, the muted candidates (target: at most 12).
        with self.assertNumQueries(5):
            response = self.client.get(reverse("document_review", args=[self.document.pk]))
        page = response.content.decode()
        self.assertEqual(page.count('<mark id="span-'), self.document.spans.count())
        self.assertEqual(page.count('class="occ st-pending"'), self.document.spans.count())
        span = Span.objects.filter(document=self.document, text=NAMES[3]).first()
        with self.assertNumQueries(4):  # session, user, span+role, the document's spans as rows
            self.client.get(reverse("span_panel", args=[span.pk]), HTTP_HX_REQUEST="true")
        with self.assertNumQueries(DECISION_QUERIES):
            self.decide(span, "accept")
        self.assertEqual(
            set(Span.objects.filter(document=self.document, text=NAMES[3]).values_list("status", flat=True)),
            {"accepted"},
        )
        # The decision counted the whole document again for the dashboard.
        self.assertEqual(differences(), (Counter(), Counter()))

    def test_a_decision_answers_with_its_marks_and_counts_not_the_whole_text(self) -> None:
        occurrences = list(Span.objects.filter(document=self.document, text=NAMES[3]).order_by("start"))
        span = occurrences[0]
        untouched = Span.objects.filter(document=self.document, text=NAMES[4]).first()
        response = self.decide(span, "accept")
        body = response.content.decode()
        self.assertEqual(response.status_code, 200)
        # Not the text: no text body, no run, no other span's mark, a fraction of its size.
        self.assertNotIn('id="text-body"', body)
        self.assertNotIn('class="seg', body)
        self.assertNotIn(f'id="span-{untouched.pk}"', body)
        self.assertLess(len(body), len(self.document.text) // 20)
        # The decided mark and every occurrence's, with the new status and version,
        # for review.js to copy onto the page's marks.
        self.assertIn('<template id="changed-marks">', body)
        self.assertEqual(body.count('<mark id="span-'), len(occurrences))
        for other in occurrences:
            self.assertRegex(
                body,
                rf'<mark id="span-{other.pk}" class="span st-accepted" data-label="PERSON" '
                rf'data-span-id="{other.pk}" data-version="2" data-start="{other.start}"',
            )
        # The counts, the entity in the side panel (out of band, by id) and its
        # label's group actions.
        pending = self.document.spans.filter(status="pending").count()
        self.assertIn(f"{pending} pending</span>", body)
        self.assertIn(f'<li id="entity-{span.pk}" hx-swap-oob="true">', body)
        self.assertIn(f"×{len(occurrences)} · {len(occurrences)} accepted</small>", body)
        self.assertRegex(body, r'<form class="group-actions" id="group-actions-PERSON"[^>]* hx-swap-oob="true">')
        self.assertIn(f"Accept all PERSON ({pending})", body)
        self.assertNotIn('id="entity-list"', body)
        # What the page shows after a reload is what the answer swapped in.
        page = self.client.get(reverse("document_review", args=[self.document.pk])).content.decode()
        for other in occurrences:
            mark = re.search(rf'<mark id="span-{other.pk}"[^>]*>[^<]*</mark>', page).group(0)
            self.assertIn(mark, body)
        start = body.index(f'<li id="entity-{span.pk}" hx-swap-oob="true">')
        entity = body[start : body.index('<form class="group-actions"', start)].strip()
        self.assertTrue(entity.endswith("</li>"))
        self.assertIn(entity.replace(' hx-swap-oob="true"', ""), page)

    def test_a_relabel_or_the_pending_filter_re_render_the_entity_list_not_the_text(self) -> None:
        span = Span.objects.filter(document=self.document, text=NAMES[5]).first()
        with self.assertNumQueries(DECISION_QUERIES + 1):  # + the spans over the relabelled text
            body = self.decide(span, "relabel", {"label": "ORGANIZATION"}).content.decode()
        self.assertIn('<div id="entity-list" hx-swap-oob="true">', body)
        self.assertNotIn('id="text-body"', body)
        self.assertIn(f'<mark id="span-{span.pk}" class="span st-accepted" data-label="ORGANIZATION"', body)
        span = Span.objects.filter(document=self.document, text=NAMES[6]).first()
        current = f"http://testserver{reverse('document_review', args=[self.document.pk])}?pending=on"
        body = self.decide(span, "accept", HTTP_HX_CURRENT_URL=current).content.decode()
        self.assertIn('<div id="entity-list" hx-swap-oob="true">', body)
        self.assertNotIn(f">{NAMES[6]}</span>", body)  # no longer pending: out of the filtered list

    def test_a_span_over_another_is_answered_with_the_whole_text_in_the_same_budget(self) -> None:
        span = Span.objects.filter(document=self.document, text=NAMES[7]).first()
        # A superseded suggestion over the same name: once both are rejected, which
        # one the text shows is decided by the whole render.
        Span.objects.create(
            document=self.document,
            start=span.start,
            end=span.end + len(" about"),
            label="ORGANIZATION",
            text=self.document.text[span.start : span.end + len(" about")],
            status="rejected",
        )
        with self.assertNumQueries(FULL_DECISION_QUERIES):
            body = self.decide(span, "reject", {"all": "off"}).content.decode()
        self.assertIn('<div id="text-body"', body)
        self.assertEqual(Span.objects.get(pk=span.pk).status, "rejected")

    def test_the_last_pending_span_of_a_label_removes_its_group_actions(self) -> None:
        text = "Mr. Kowalczyk went to Fresno.\nMr. Kowalczyk left.\n"
        document = Document.objects.create(corpus=self.corpus, name="s.txt", sha256="s", text=text, status="in_review")
        at = text.index("Fresno")
        place = Span.objects.create(document=document, start=at, end=at + 6, label="LOCATION", text="Fresno")
        for start in (text.index("Kowalczyk"), text.rindex("Kowalczyk")):
            Span.objects.create(document=document, start=start, end=start + 9, label="PERSON", text="Kowalczyk")
        body = self.decide(place, "accept").content.decode()
        self.assertIn('<form id="group-actions-LOCATION" hx-swap-oob="delete"></form>', body)
        self.assertNotIn("group-actions-PERSON", body)  # not touched


class TextBlocksTests(TestCase):
    def test_the_text_comes_in_blocks_that_end_with_a_line(self) -> None:
        text, found = big_transcript(pages=12)
        spans = [
            SpanRow(i, s, e, t, "PERSON", "pending", "", 1, 0.8, ("spacy",), "", "", None)
            for i, (s, e, t) in enumerate(found, 1)
        ]
        for lines in (line_starts(text, layout_of(text)), {}):  # with a gutter, and without a layout
            html = str(text_runs(segments(text, spans, lines), text))
            blocks = re.findall(r'<div class="chunk">(.*?)</div>', html, re.S)
            self.assertGreater(len(blocks), len(text) // (CHUNK_CHARS * 2))
            plain = [re.sub(r"<[^>]+>", "", block) for block in blocks]
            self.assertEqual("".join(plain), text)  # every character once, in order
            self.assertTrue(all(block.endswith("\n") for block in plain))
            self.assertTrue(all(len(block) >= CHUNK_CHARS for block in plain[:-1]))
            self.assertEqual(html.count("<mark "), len(spans))

    def test_the_line_index_answers_as_the_map_of_every_line(self) -> None:
        text, _ = big_transcript(pages=4)
        layout = layout_of(text)
        expected = line_starts(text, layout)
        for index in (LineIndex(text, layout), LineIndex(text, list(reversed(layout)))):
            for offset in [*expected, *range(0, len(text), 7), len(text)]:
                self.assertEqual(index.get(offset), expected.get(offset), offset)
        self.assertFalse(LineIndex(text, []))

    def test_rows_are_keyed_as_model_instances_are(self) -> None:
        corpus = Corpus.objects.create(name="Keys")
        text = "Mr. young came. The young man left. Young said so. YOUNG's hat.\n"
        document = Document.objects.create(corpus=corpus, name="k.txt", sha256="k", text=text, status="in_review")
        for match in re.finditer(r"(?i)young", text):
            Span.objects.create(
                document=document, start=match.start(), end=match.end(), label="PERSON", text=match.group()
            )
        instances = list(Span.objects.filter(document=document).order_by("start"))
        rows = span_rows(document.pk)
        self.assertEqual([r.pk for r in rows], [s.pk for s in instances])
        keys = [same_name_key(s, text) for s in instances]
        self.assertEqual([same_name_key(r, text) for r in rows], keys)
        # "Mr. young" is the name, "the young man" the word (its context decides).
        self.assertEqual(keys[0], keys[2])
        self.assertNotEqual(keys[1], keys[2])
        self.assertEqual(keys[2], keys[3])
