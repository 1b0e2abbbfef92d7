"""Views: the upload → review → export flow through the Django test client, with
query counts on every list, page and partial."""

import io
import json
import zipfile

from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client, TestCase, override_settings
from django.urls import reverse

from ingestion.models import Corpus, Document
from pipelines.labels import DIRECT_IDENTIFIER_LABELS
from review.models import CorpusMembership, ExportBatch, ReviewEvent, Role, Span
from review.services.uploads import ingest_document
from tests.conftest import DEMO_TEXT

EXPORT_ALL = {
    "scope": "all",
    "strategy": "placeholder",
    "person_numbering": "part",
    "consistency": "document",
    "include_index": "on",
}


@override_settings(PRIVATE_STORAGE_ROOT="/tmp/anonymizer-test-private")
class FlowTests(TestCase):
    @classmethod
    def setUpTestData(cls) -> None:
        User = get_user_model()
        cls.owner = User.objects.create_user("owner", password="pw", is_staff=True)
        cls.reviewer = User.objects.create_user("rev", password="pw")
        cls.corpus = Corpus.objects.create(name="Hearings")
        CorpusMembership.objects.create(corpus=cls.corpus, user=cls.owner, role=Role.ADMIN)
        CorpusMembership.objects.create(corpus=cls.corpus, user=cls.reviewer, role=Role.REVIEWER)

    def setUp(self) -> None:
        self.client = Client(enforce_csrf_checks=True)
        self.client.force_login(self.owner)

    def csrf_post(self, url: str, data: dict | None = None, **extra):
        if "csrftoken" not in self.client.cookies:
            self.client.get(reverse("login"))
        token = self.client.cookies["csrftoken"].value
        return self.client.post(url, data or {}, HTTP_X_CSRFTOKEN=token, **extra)

    def ingest(self, name: str = "hearing.txt", text: str = DEMO_TEXT) -> Document:
        with self.captureOnCommitCallbacks(execute=True):
            document, _ = ingest_document(corpus=self.corpus, name=name, data=text.encode(), user=self.owner)
        document.refresh_from_db()
        return document

    def test_post_without_csrf_token_is_refused(self) -> None:
        response = self.client.post(reverse("corpus_list"), {"name": "New"})
        self.assertEqual(response.status_code, 403)

    def test_create_corpus_makes_the_creator_its_admin(self) -> None:
        response = self.csrf_post(reverse("corpus_list"), {"name": "New corpus", "description": ""})
        corpus = Corpus.objects.get(name="New corpus")
        self.assertRedirects(response, reverse("corpus_detail", args=[corpus.pk]))
        self.assertTrue(CorpusMembership.objects.filter(corpus=corpus, user=self.owner, role=Role.ADMIN).exists())

    def test_upload_several_files_one_bad_fails_alone_and_duplicates_are_reported(self) -> None:
        files = [
            SimpleUploadedFile("a.txt", DEMO_TEXT.encode()),
            SimpleUploadedFile("broken.pdf", b"%PDF-1.4 this is not really a pdf"),
            SimpleUploadedFile("notes.docx", b"PK\x03\x04"),
            SimpleUploadedFile("b.txt", "Mr. Kowalczyk met Ms. Ng.\n".encode("utf-16")),
            SimpleUploadedFile("a-again.txt", DEMO_TEXT.encode()),
        ]
        with self.captureOnCommitCallbacks(execute=True):
            response = self.csrf_post(reverse("document_upload", args=[self.corpus.pk]), {"files": files}, follow=True)
        page = response.content.decode()
        self.assertIn("notes.docx: unsupported file type", page)
        self.assertIn("already in this corpus", page)
        statuses = dict(Document.objects.values_list("name", "status"))
        self.assertEqual(statuses, {"a.txt": "ready", "broken.pdf": "failed", "b.txt": "ready"})
        broken = Document.objects.get(name="broken.pdf")
        self.assertIn("PDF could not be read", broken.error_message)
        page = self.client.get(reverse("corpus_detail", args=[self.corpus.pk])).content.decode()
        self.assertIn("could not be read", page)  # the reason is on the corpus page
        b = Document.objects.get(name="b.txt")
        self.assertEqual(b.text, "Mr. Kowalczyk met Ms. Ng.\n")
        self.assertTrue(b.spans.filter(label="PERSON", text="Kowalczyk").exists())

    def test_corpus_pages_query_counts_do_not_grow_with_documents(self) -> None:
        self.ingest()
        self.ingest("two.txt", DEMO_TEXT + "More.\n")
        # session, user, corpus+role, documents, exports
        with self.assertNumQueries(5):
            self.assertEqual(self.client.get(reverse("corpus_detail", args=[self.corpus.pk])).status_code, 200)
        with self.assertNumQueries(4):
            self.client.get(reverse("corpus_detail", args=[self.corpus.pk]), HTTP_HX_REQUEST="true")
        with self.assertNumQueries(3):
            self.assertEqual(self.client.get(reverse("corpus_list")).status_code, 200)
        with self.assertNumQueries(4):
            self.client.get(reverse("export_list", args=[self.corpus.pk]))

    def test_review_page_renders_every_span_highlighted_in_constant_queries(self) -> None:
        document = self.ingest()
        spans = list(document.spans.all())
        self.assertGreater(len(spans), 5)
        # session, user, document+corpus+role, spans, the filtered candidates shown muted
        with self.assertNumQueries(5):
            response = self.client.get(reverse("document_review", args=[document.pk]))
        page = response.content.decode()
        for span in spans:
            self.assertIn(f'id="span-{span.pk}"', page)
        self.assertIn('data-label="PERSON"', page)
        self.assertIn("Legend", page)
        with self.assertNumQueries(4):  # session, user, span+role, pending texts (the apply-to-all count)
            self.client.get(reverse("span_panel", args=[spans[0].pk]), HTTP_HX_REQUEST="true")

    def test_accept_reject_relabel_are_audited_and_return_partials(self) -> None:
        document = self.ingest()
        first, second, third = list(document.spans.order_by("start"))[:3]
        self.client.force_login(self.reviewer)
        self.client.get(reverse("login"))  # the CSRF cookie, outside the count
        one = {"all": "off"}  # this span only: apply-to-all is covered in test_review_views
        # session, user, span+role, spans (the answer swaps in the changed marks,
        # not the text: no muted candidates), then the transaction: lock the
        # document, update the span, insert its event, count the document again
        # for the dashboard (DELETE, INSERT … SELECT) and (the first decision
        # only) move the document from "ready" to "in review": one more UPDATE
        # than later decisions
        with self.assertNumQueries(12):
            response = self.csrf_post(
                reverse("span_decide", args=[first.pk, "accept"]),
                {**one, "version": first.version},
                HTTP_HX_REQUEST="true",
            )
        self.assertContains(response, 'hx-swap-oob="true"')
        self.csrf_post(
            reverse("span_decide", args=[second.pk, "reject"]),
            {**one, "version": second.version},
            HTTP_HX_REQUEST="true",
        )
        self.csrf_post(
            reverse("span_decide", args=[third.pk, "relabel"]),
            {"label": "NRP", **one, "version": third.version},
            HTTP_HX_REQUEST="true",
        )
        first.refresh_from_db()
        second.refresh_from_db()
        third.refresh_from_db()
        self.assertEqual(
            (first.status, second.status, third.status, third.label), ("accepted", "rejected", "accepted", "NRP")
        )
        events = list(ReviewEvent.objects.filter(document=document).values_list("action", "user__username"))
        self.assertEqual(events, [("accept", "rev"), ("reject", "rev"), ("relabel", "rev")])
        relabel = ReviewEvent.objects.get(action="relabel")
        self.assertEqual(relabel.after["label"], "NRP")
        self.assertNotEqual(relabel.before["label"], "NRP")

    def test_add_span_applies_to_all_occurrences_and_supersedes_overlaps(self) -> None:
        document = self.ingest("x.txt", "The word zorblat appears. Later zorblat again, and zorblat's hat.\n")
        start = document.text.index("zorblat")
        response = self.csrf_post(
            reverse("span_create", args=[document.pk]),
            {"start": start, "end": start + 7, "label": "PERSON", "all": "on"},
            HTTP_HX_REQUEST="true",
        )
        self.assertContains(response, "Added 3 spans")
        added = Span.objects.filter(document=document, text="zorblat", status="accepted")
        self.assertEqual(added.count(), 3)
        self.assertTrue(added.filter(start=start, created_by=self.owner, sources=["human"]).exists())
        # A wider selection supersedes the span it overlaps.
        response = self.csrf_post(
            reverse("span_create", args=[document.pk]),
            {"start": start - 9, "end": start + 7, "label": "ORGANIZATION"},
            HTTP_HX_REQUEST="true",
        )
        self.assertEqual(Span.objects.get(document=document, start=start, end=start + 7).status, "rejected")
        self.assertTrue(ReviewEvent.objects.filter(action="supersede").exists())

    def test_add_span_rejects_a_bad_selection_with_a_message(self) -> None:
        document = self.ingest()
        response = self.csrf_post(
            reverse("span_create", args=[document.pk]),
            {"start": 5, "end": 10_000_000, "label": "PERSON"},
            HTTP_HX_REQUEST="true",
        )
        self.assertContains(response, "outside the document")

    def test_export_zip_has_redacted_text_and_index_for_accepted_spans_only(self) -> None:
        document = self.ingest()
        for span in document.spans.all():
            span.status = "rejected" if span.label == "DATE" else "accepted"
            span.save()
        with self.captureOnCommitCallbacks(execute=True):
            self.csrf_post(reverse("export_start", args=[self.corpus.pk]), EXPORT_ALL)
        batch = ExportBatch.objects.get()
        self.assertEqual((batch.status, batch.done, batch.total), ("done", 1, 1), batch.error_message)
        response = self.client.get(reverse("export_download", args=[batch.pk]))
        archive = zipfile.ZipFile(io.BytesIO(b"".join(response.streaming_content)))
        names = archive.namelist()
        redacted = archive.read(next(n for n in names if n.startswith("redacted/"))).decode()
        self.assertIn("COMMISSIONER [PERSON_1]: Good morning", redacted)
        self.assertIn("for [PERSON_2] [PERSON_3],", redacted)
        self.assertIn("INMATE [PERSON_3]:", redacted)
        self.assertIn("March 14, 2023", redacted)  # rejected DATE stays
        self.assertNotIn("Delgado", redacted)
        index = archive.read(next(n for n in names if n.endswith("_PSEUDONYMIZATION_INDEX.txt"))).decode()
        self.assertIn("PERSON | Marcus Delgado ➡ [PERSON_2] [PERSON_3]", index)
        manifest = json.loads(archive.read("manifest.json"))
        self.assertEqual(set(manifest["files"]), set(names) - {"manifest.json"})

    def test_an_export_with_pending_names_says_so_and_the_sensitive_folders_are_off_by_default(self) -> None:
        """A tester exported a document left pending and got a plain "Done" with the
        names in the text. The row and the manifest now count what was left."""
        document = self.ingest()
        pending = document.spans.filter(status="pending", label__in=DIRECT_IDENTIFIER_LABELS).count()
        self.assertGreater(pending, 0)
        page = self.client.get(reverse("corpus_detail", args=[self.corpus.pk])).content.decode()
        self.assertNotIn('name="include_index" checked', page)  # the original names stay out unless asked for
        with self.captureOnCommitCallbacks(execute=True):
            self.csrf_post(reverse("export_start", args=[self.corpus.pk]), {**EXPORT_ALL, "include_index": ""})
        batch = ExportBatch.objects.get()
        self.assertEqual((batch.status, batch.pending_left, batch.pending_documents), ("done", pending, 1))
        with batch.file.open("rb") as handle, zipfile.ZipFile(handle) as archive:
            self.assertFalse([n for n in archive.namelist() if n.startswith(("index/", "training/"))])
            settings = json.loads(archive.read("manifest.json"))["settings"]
            self.assertEqual(settings["pending_direct_identifiers_left"], pending)
        page = self.client.get(reverse("corpus_detail", args=[self.corpus.pk])).content.decode()
        self.assertIn(f"Not fully anonymized: {pending} pending names or IDs in 1 document were not replaced", page)
        # Treating pending spans as accepted leaves none, and the row says nothing.
        with self.captureOnCommitCallbacks(execute=True):
            self.csrf_post(reverse("export_start", args=[self.corpus.pk]), {**EXPORT_ALL, "accept_pending": "on"})
        latest = ExportBatch.objects.latest("pk")
        self.assertEqual((latest.status, latest.pending_left), ("done", 0))

    def test_export_completes_surviving_names_and_is_refused_when_a_name_remains(self) -> None:
        document = self.ingest()
        # Accept one occurrence of the name, reject the others: the export replaces
        # the others on its own (completed at export) and says so in the index.
        spans = list(document.spans.filter(label="PERSON", text="Marcus Delgado"))
        for span in document.spans.all():
            span.status = "accepted" if span.pk == spans[0].pk else "rejected"
            span.save()
        with self.captureOnCommitCallbacks(execute=True):
            self.csrf_post(reverse("export_start", args=[self.corpus.pk]), EXPORT_ALL)
        batch = ExportBatch.objects.get()
        self.assertEqual(batch.status, "done", batch.error_message)
        with batch.file.open("rb") as handle, zipfile.ZipFile(handle) as archive:
            redacted = [n for n in archive.namelist() if n.startswith("redacted/")]
            self.assertNotIn("Delgado", archive.read(redacted[0]).decode())
            index = next(n for n in archive.namelist() if n.endswith("_PSEUDONYMIZATION_INDEX.txt"))
            self.assertIn("| completed at export", archive.read(index).decode())
        # A name the export cannot replace (here in the corpus's name, which the
        # manifest carries) blocks it, and the report says where, never what.
        self.corpus.name = "Delgado hearings"
        self.corpus.save(update_fields=["name"])
        with self.captureOnCommitCallbacks(execute=True):
            self.csrf_post(reverse("export_start", args=[self.corpus.pk]), EXPORT_ALL)
        batch = ExportBatch.objects.latest("pk")
        self.assertEqual(batch.status, "failed")
        self.assertFalse(batch.file)
        self.assertEqual({(r["label"], r["where"]) for r in batch.report}, {("PERSON", "manifest")})
        self.assertNotIn("Delgado", json.dumps(batch.report) + batch.error_message)
        page = self.client.get(reverse("corpus_detail", args=[self.corpus.pk])).content.decode()
        self.assertIn("Leak check failed", page)


class CorpusPageLinksTests(TestCase):
    def test_documents_link_to_review_in_every_annotated_status(self) -> None:
        user = get_user_model().objects.create_user("o", password="pw")
        corpus = Corpus.objects.create(name="C")
        CorpusMembership.objects.create(corpus=corpus, user=user, role=Role.ADMIN)
        docs = {
            status: Document.objects.create(corpus=corpus, name=f"{status}.txt", sha256=status, status=status)
            for status in ["annotating", "ready", "in_review", "reviewed", "approved", "failed"]
        }
        self.client.force_login(user)
        page = self.client.get(reverse("corpus_detail", args=[corpus.pk])).content.decode()
        for status, doc in docs.items():
            linked = f'href="{reverse("document_review", args=[doc.pk])}"' in page
            self.assertEqual(linked, status in ("ready", "in_review", "reviewed", "approved"), status)
