"""An accepted name in the corpus's name, end to end: the manifest carries the
corpus name, so the leak gate refuses the export; the message and the leak report
say that the corpus name holds it (never the name itself) and link to the rename
form; renamed there, the same export succeeds.

And the mapping that names the setting: the real gate's manifest offset → the
key of the setting (a writer that serialized its settings otherwise would fail it)."""

import io
import json
import zipfile

from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client, TestCase
from django.urls import reverse

from ingestion.models import Corpus, Document
from pipelines.candidate import Candidate
from pipelines.export.writer import ExportDocument, LeakError, render_document, write_zip
from review.models import CorpusMembership, CorpusSettingsChange, ExportBatch, Role, Span, SpanStatus
from review.services.export import manifest_setting_at

TEXT = "COMMISSIONER: Where did you work?\nINMATE: At Ferguson, on the loading dock, for ten years.\n"
EXPORT = {"scope": "approved", "strategy": "placeholder", "person_numbering": "part", "consistency": "document"}


class CorpusNameLeakTests(TestCase):
    @classmethod
    def setUpTestData(cls) -> None:
        cls.owner = get_user_model().objects.create_user("owner", password="pw", is_staff=True)
        # The reviewer's corpus: named after the very organization its transcripts name.
        cls.corpus = Corpus.objects.create(name="Ferguson review")
        CorpusMembership.objects.create(corpus=cls.corpus, user=cls.owner, role=Role.ADMIN)
        cls.document = Document.objects.create(
            corpus=cls.corpus,
            name="hearing.txt",
            sha256="f",
            text=TEXT,
            status="approved",
            layout=[[0, 33, 1, 1], [34, len(TEXT) - 1, 1, 2]],
        )
        start = TEXT.index("Ferguson")
        # Relabelled to ORGANIZATION and accepted, as the reviewer did.
        cls.span = Span.objects.create(
            document=cls.document,
            start=start,
            end=start + 8,
            label="ORGANIZATION",
            text="Ferguson",
            status=SpanStatus.ACCEPTED,
        )

    def setUp(self) -> None:
        self.client = Client()
        self.client.force_login(self.owner)

    def export(self) -> ExportBatch:
        with self.captureOnCommitCallbacks(execute=True):
            response = self.client.post(reverse("export_start", args=[self.corpus.pk]), EXPORT)
        self.assertEqual(response.status_code, 302)
        return ExportBatch.objects.latest("pk")

    def test_blocked_by_the_corpus_name_then_renamed_through_the_form_then_exported(self) -> None:
        batch = self.export()
        self.assertEqual(batch.status, "failed")
        self.assertFalse(batch.file)
        # The gate's finding, named by its setting in the review layer.
        self.assertEqual(
            [(r["label"], r["where"], r["setting"]) for r in batch.report], [("ORGANIZATION", "manifest", "corpus")]
        )
        self.assertIn("left in the manifest's settings (ORGANIZATION ×1)", batch.error_message)
        self.assertIn("The corpus name holds an accepted name", batch.error_message)
        self.assertIn("rename the corpus, then export again", batch.error_message)
        self.assertNotIn("Ferguson", json.dumps(batch.report) + batch.error_message)

        # The corpus page's row says it and links to the report and the rename
        # form; nothing there can be redacted, and it does not offer to.
        corpus_page = self.client.get(reverse("corpus_detail", args=[self.corpus.pk])).content.decode()
        row = corpus_page.split(f'id="export-{batch.pk}"')[1].split("</tr>")[0]
        self.assertIn("The corpus name holds an accepted name", row)
        leaks_url = reverse("export_leaks", args=[batch.pk])
        rename_url = reverse("corpus_settings", args=[self.corpus.pk])
        self.assertIn(f'<a href="{leaks_url}">open the leak report</a> to see where.', row)
        self.assertIn(f'<a href="{rename_url}" class="rename-corpus">Rename the corpus</a>', row)

        # The report says which setting, where the name is accepted, and links to
        # the rename form; it prints the name nowhere but in the page's title
        # (the corpus's name, which is the problem) and the document's.
        report = self.client.get(leaks_url).content.decode()
        settings_section = report.split('id="settings-residuals"')[1].split("</section>")[0]
        self.assertIn("The corpus name holds a name accepted as ORGANIZATION in hearing.txt", settings_section)
        self.assertIn(f'<a href="{rename_url}" class="rename-corpus">Rename the corpus</a>', settings_section)
        review_url = reverse("document_review", args=[self.document.pk])
        self.assertIn(f'href="{review_url}?at={self.span.start}#L1-2" class="named-at"', settings_section)
        self.assertNotIn("Ferguson", settings_section)
        self.assertIn("Nothing left in the documents' text.", report)
        self.assertNotIn('id="redact-all"', report)

        # Renamed through the form the report links to.
        form = self.client.get(rename_url)
        self.assertContains(form, 'value="Ferguson review"')
        response = self.client.post(rename_url, {"name": "Review 17", "description": ""}, follow=True)
        self.assertContains(response, "Corpus renamed to “Review 17”")
        change = CorpusSettingsChange.objects.get(corpus=self.corpus)
        self.assertEqual(
            (change.before["name"], change.after["name"], change.user), ("Ferguson review", "Review 17", self.owner)
        )

        # The same export now passes, and its manifest carries the new name.
        batch = self.export()
        self.assertEqual(batch.status, "done", batch.error_message)
        with batch.file.open("rb") as handle, zipfile.ZipFile(handle) as archive:
            self.assertEqual(json.loads(archive.read("manifest.json"))["settings"]["corpus"], "Review 17")
            # The member is named by the document's id, which PostgreSQL's sequences do not reset.
            redacted = archive.read(f"redacted/{self.document.pk:05d}_document.txt").decode()
            self.assertNotIn("Ferguson", "".join(archive.read(n).decode(errors="replace") for n in archive.namelist()))
        self.assertIn("At [", redacted)

    def test_the_command_line_says_which_setting_and_where_to_rename(self) -> None:
        err = io.StringIO()
        with self.assertRaisesMessage(CommandError, "The corpus name holds an accepted name"):
            call_command("export", "--corpus", self.corpus.name, "--out", "/dev/null", stderr=err)
        out = err.getvalue()
        self.assertIn(
            f"leak: document {self.document.pk} ORGANIZATION at {self.span.start}-{self.span.end} in manifest "
            "(the manifest's settings: the corpus name): The corpus name holds an accepted name",
            out,
        )
        self.assertIn(f"The rename form: {reverse('corpus_settings', args=[self.corpus.pk])}", out)
        self.assertNotIn("Ferguson", out)

    def test_a_report_stored_before_settings_were_named_still_points_at_the_rename_form(self) -> None:
        row = {"document_id": self.document.pk, "label": "ORGANIZATION", "where": "manifest"}
        row |= {"span_start": self.span.start, "span_end": self.span.end, "output_offset": 11}
        batch = ExportBatch.objects.create(corpus=self.corpus, status="failed", error_message="Leak check failed.")
        ExportBatch.objects.filter(pk=batch.pk).update(report=[row])
        report = self.client.get(reverse("export_leaks", args=[batch.pk])).content.decode()
        settings_section = report.split('id="settings-residuals"')[1].split("</section>")[0]
        self.assertIn("A setting holds a name accepted as ORGANIZATION", settings_section)
        self.assertIn(f'href="{reverse("corpus_settings", args=[self.corpus.pk])}"', settings_section)


def _manifest_finding(settings: dict, name: str, label: str = "ORGANIZATION") -> int:
    """Where the real gate finds `name` in `settings` (its report's output offset)."""
    text = f"They met at {name} on Monday.\n"
    start = text.index(name)
    span = Candidate(start, start + len(name), label, name, ("human",), 1.0)
    try:
        write_zip(io.BytesIO(), [render_document(ExportDocument(1, "a.txt", text, [span]))], settings)
    except LeakError as exc:
        (row,) = [r for r in exc.report() if r["where"] == "manifest"]
        return row["output_offset"]
    raise AssertionError("the gate found nothing in the settings")


def test_the_gate_s_manifest_offset_names_the_setting_that_holds_the_name() -> None:
    settings = {
        "corpus": 'Dossier «Ferguson» \\ 2024 "B"',  # escapes and non-ASCII shift the offsets
        "batch": 7,
        "per_label": {"PERSON": "keep"},
        "scope": "approved",
    }
    assert manifest_setting_at(settings, _manifest_finding(settings, "Ferguson")) == "corpus"
    # The corpus name is not the only place the mapping knows.
    assert manifest_setting_at({"corpus": "Review 17", "scope": "Ferguson"}, 30) == "scope"
    # Outside every entry (the braces, the separators): no setting.
    assert manifest_setting_at(settings, 0) is None
    assert manifest_setting_at(settings, 10_000) is None
