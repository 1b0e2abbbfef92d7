"""An export you can trust (issue 12): export-time completion per variant class,
the leak gate over text, member names and the manifest, file names, the crafted
transcript's headless export, the CLI's actionable report and the leak report's
redact-all action."""

import io
import json
import re
import zipfile

import pytest
from django.core.management import CommandError, call_command
from django.test import Client

from ingestion.models import Document
from pipelines.candidate import Candidate
from pipelines.export.writer import COMPLETED, ExportDocument, LeakError, render_document, write_zip
from pipelines.names import NameIdentity
from review.models import ExportBatch, ReviewEvent, Span, SpanStatus

NAME = "Walter Kowalczyk"


def accepted(text: str, needle: str, label: str = "PERSON") -> Candidate:
    start = text.index(needle)
    return Candidate(start, start + len(needle), label, needle, ("human",), 1.0)


# One export per variant class: the name is accepted once, the variant elsewhere
# is replaced by export-time completion and said so in the index.
VARIANTS = {
    "capitals": ("WALTER KOWALCZYK", "[PERSON_1] [PERSON_2]"),
    "lower case": ("walter kowalczyk", "[PERSON_1] [PERSON_2]"),
    "a lower-case single word": ("kowalczyk", "[PERSON_2]"),
    "possessive": ("Kowalczyk's", "[PERSON_2]'s"),
    "a name part": ("Walter", "[PERSON_1]"),
    "joined": ("walterkowalczyk", "[PERSON_1][PERSON_2]"),
    "hyphenated": ("walter-kowalczyk", "[PERSON_1]-[PERSON_2]"),
    "broken across a line end": ("Kowal-\nczyk", "[PERSON_2]"),
    "first and last across a line end": ("Walter\nKowalczyk", "[PERSON_1]\n[PERSON_2]"),
    "spelled": ("K-O-W-A-L-C-Z-Y-K", "[SPELLED_NAME_PERSON_2]"),
    "spaced letters": ("K o w a l c z y k", "[SPELLED_NAME_PERSON_2]"),
}


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_export_completes_every_variant_class(variant: str) -> None:
    written, replacement = VARIANTS[variant]
    text = f"PRESIDING COMMISSIONER: Good morning, {NAME}.\nINMATE: Later {written} said so.\n"
    output = render_document(ExportDocument(1, "t.txt", text, [accepted(text, NAME)]))
    assert output.leaks == []
    assert f"Later {replacement} said so." in output.redacted_text
    assert not re.search(r"(?i)k\W*o\W*w\W*a\W*l\W*c\W*z\W*y\W*k|walter", output.redacted_text)
    assert any(line.endswith(f"| {COMPLETED}") for line in output.index_text.splitlines())
    annotations = json.loads(output.annotations_json)["annotations"]
    assert any(a.get("status") == COMPLETED for a in annotations)
    buffer = io.BytesIO()
    write_zip(buffer, [output], {"strategy": "placeholder"})
    assert "redacted/00001_document.txt" in zipfile.ZipFile(buffer).namelist()


def test_a_common_word_is_not_completed_but_the_name_is() -> None:
    text = "DEPUTY COMMISSIONER YOUNG: You were young then. YOUNG: Yes. Mr. young agreed."
    output = render_document(ExportDocument(1, "t.txt", text, [accepted(text, "YOUNG")]))
    assert output.redacted_text == (
        "DEPUTY COMMISSIONER [PERSON_1]: You were young then. [PERSON_1]: Yes. Mr. [PERSON_1] agreed."
    )


def test_without_completion_the_gate_reports_each_residual_with_original_offsets() -> None:
    text = "Walter Kowalczyk spoke. Then KOWALCZYK left."
    output = render_document(ExportDocument(4, "t.txt", text, [accepted(text, NAME)]), complete_names=False)
    start = text.index("KOWALCZYK")
    assert [(leak.label, leak.span_start, leak.span_end, leak.where) for leak in output.leaks] == [
        ("PERSON", start, start + 9, "text")
    ]
    with pytest.raises(LeakError) as caught:
        write_zip(io.BytesIO(), [output], {})
    assert "KOWALCZYK" not in json.dumps(caught.value.report()).upper()


def test_the_gate_reads_member_names_and_the_manifest() -> None:
    text = "Walter Kowalczyk spoke."
    output = render_document(ExportDocument(5, "t.txt", text, [accepted(text, NAME)]))
    with pytest.raises(LeakError) as caught:
        write_zip(io.BytesIO(), [output], {"corpus": "Kowalczyk hearings"})
    assert [r["where"] for r in caught.value.report()] == ["manifest"]
    # A kept stem the pseudonymizer could not clear would be a member-name leak.
    leaky = render_document(ExportDocument(6, "t.txt", text, [accepted(text, NAME)]))
    object.__setattr__(leaky, "redacted_name", "00006_kowalczyk.txt")
    with pytest.raises(LeakError) as caught:
        write_zip(io.BytesIO(), [leaky], {})
    assert {r["where"] for r in caught.value.report()} == {"member"}


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("john-smith-parole-hearing.txt", "00001_[PERSON_1]-[PERSON_2]-parole-hearing.txt"),
        ("JohnSmith.txt", "00001_[PERSON_1][PERSON_2].txt"),
        ("walter-kowalczyk-hearing-2024.txt", "00001_[PERSON_3]-[PERSON_4]-hearing-[YEAR].txt"),
        ("transcript_2019-03-14_K48213.txt", "00001_transcript_[DATE]_[ID].txt"),
    ],
)
def test_file_names_carry_no_name_and_a_year_is_a_year(name: str, expected: str) -> None:
    text = "John Smith spoke. Smith left."  # Kowalczyk is only in the file name
    spans = [accepted(text, "John Smith")]
    assert render_document(ExportDocument(1, name, text, spans)).redacted_name == "00001_document.txt"
    kept = render_document(ExportDocument(1, name, text, spans), keep_stem=True)
    assert kept.redacted_name == expected
    assert not NameIdentity([("John Smith", "PERSON"), (NAME, "PERSON")]).find(kept.redacted_name)


CRAFTED = """PAROLE CONSIDERATION HEARING
In the matter of: WALTER KOWALCZYK

PRESIDING COMMISSIONER HARTWELL: Good morning. Please state your name.
INMATE KOWALCZYK: Walter Kowalczyk. K-O-W-A-L-C-Z-Y-K.
PRESIDING COMMISSIONER HARTWELL: Thank you, Mr. Kowalczyk. Your file says kowalczyk's record, and
walterkowalczyk on the form, walter-kowalczyk on the e-mail, and K o w a l c z y k on the envelope.
INMATE KOWALCZYK: Yes. My mother still writes Kowal-
czyk in two lines.
"""


@pytest.mark.django_db
def test_the_crafted_transcript_exports_headless_and_leaks_nothing(
    corpus, admin_user, tmp_path, django_capture_on_commit_callbacks
) -> None:
    from review.services.uploads import ingest_document

    with django_capture_on_commit_callbacks(execute=True):
        document, _ = ingest_document(
            corpus=corpus, name="walter-kowalczyk-hearing-2024.txt", data=CRAFTED.encode(), user=admin_user
        )
    document.refresh_from_db()
    assert document.status == "ready", document.error_message
    out = tmp_path / "x.zip"
    call_command("export", "--corpus", corpus.name, "--out", str(out), "--accept-pending", stdout=io.StringIO())
    archive = zipfile.ZipFile(out)
    redacted = [n for n in archive.namelist() if n.startswith("redacted/")]
    assert redacted == [f"redacted/{document.pk:05d}_document.txt"]
    text = archive.read(redacted[0]).decode()
    assert not re.search(r"(?i)k\W{0,3}o\W{0,3}w\W{0,3}a\W{0,3}l\W{0,3}c\W{0,3}z\W{0,3}y\W{0,3}k|walter", text), text
    for member in archive.namelist():
        assert not re.search(r"(?i)kowalczyk|walter", member)
    assert "kowalczyk" not in archive.read("manifest.json").decode().lower()


def _failed_batch(corpus, admin_user) -> tuple[Document, ExportBatch]:
    """A strict export (no completion) of a document with a name accepted once."""
    text = "PRESIDING COMMISSIONER: Good morning, Walter Kowalczyk.\nINMATE: KOWALCZYK is my name.\n"
    document = Document.objects.create(
        corpus=corpus,
        name="hearing.txt",
        sha256="x",
        text=text,
        status="in_review",
        layout=[[0, 55, 1, 1], [56, len(text), 2, 3]],
    )
    span = accepted(text, NAME)
    Span.objects.create(
        document=document, start=span.start, end=span.end, label="PERSON", text=NAME, status=SpanStatus.ACCEPTED
    )
    Span.objects.create(
        document=document, start=56 + 8, end=56 + 17, label="ORGANIZATION", text="KOWALCZYK", status="pending"
    )
    output = render_document(ExportDocument(document.pk, document.name, text, [span]), complete_names=False)
    try:
        write_zip(io.BytesIO(), [output], {})
    except LeakError as exc:
        report = exc.report()
    batch = ExportBatch.objects.create(
        corpus=corpus, created_by=admin_user, status="failed", error_message="Leak check failed.", report=report
    )
    return document, batch


@pytest.mark.django_db
def test_the_leak_report_locates_links_and_redacts_all_in_one_audited_operation(corpus, admin_user) -> None:
    document, batch = _failed_batch(corpus, admin_user)
    client = Client()
    client.force_login(admin_user)
    page = client.get(f"/exports/{batch.pk}/leaks/").content.decode()
    assert "page 2, line 3" in page
    assert f'href="/documents/{document.pk}/?at=64#L2-3"' in page
    assert "Redact all 1 remaining occurrence" in page
    assert "KOWALCZYK" not in page.split('id="residuals"')[1].split("</table>")[0].upper().replace("HEARING.TXT", "")
    response = client.post(f"/exports/{batch.pk}/leaks/")
    assert response.status_code == 302
    added = Span.objects.get(document=document, rule="leak report")
    assert (added.start, added.end, added.text, added.status) == (64, 73, "KOWALCZYK", "accepted")
    # The pending span it covered is superseded; both events share one bulk id.
    assert Span.objects.get(document=document, label="ORGANIZATION").status == "rejected"
    events = ReviewEvent.objects.filter(document=document)
    assert events.count() == 2 and len({e.bulk_id for e in events}) == 1
    # The strict export now passes.
    spans = [
        Candidate(s.start, s.end, s.label, s.text, ("human",), 1.0) for s in document.spans.filter(status="accepted")
    ]
    output = render_document(ExportDocument(document.pk, document.name, document.text, spans), complete_names=False)
    assert output.leaks == []


@pytest.mark.django_db
def test_the_leak_report_is_for_corpus_admins(corpus, admin_user, reviewer) -> None:
    _document, batch = _failed_batch(corpus, admin_user)
    client = Client()
    client.force_login(reviewer)
    assert client.get(f"/exports/{batch.pk}/leaks/").status_code == 403
    assert client.post(f"/exports/{batch.pk}/leaks/").status_code == 403
    assert not Span.objects.filter(rule="leak report").exists()


@pytest.mark.django_db
def test_the_leak_report_page_has_a_fixed_query_budget(corpus, admin_user, django_assert_num_queries) -> None:
    _document, batch = _failed_batch(corpus, admin_user)
    client = Client()
    client.force_login(admin_user)
    client.get(f"/exports/{batch.pk}/leaks/")
    # session, user, batch with its corpus and the role, the documents.
    with django_assert_num_queries(4):
        assert client.get(f"/exports/{batch.pk}/leaks/").status_code == 200


@pytest.mark.django_db
def test_the_command_line_prints_the_actionable_report_and_fails(corpus, admin_user, monkeypatch, tmp_path) -> None:
    import pipelines.export.writer as writer
    from review.services import export as export_service

    document, _batch = _failed_batch(corpus, admin_user)
    strict = writer.render_document

    def render(doc, config=None, numbers=None, **kwargs):
        return strict(doc, config, numbers, complete_names=False)

    monkeypatch.setattr(export_service, "render_document", render)
    err = io.StringIO()
    with pytest.raises(CommandError, match="Leak check failed"):
        call_command("export", "--corpus", corpus.name, "--out", str(tmp_path / "x.zip"), "--scope", "all", stderr=err)
    report = err.getvalue()
    assert f"leak: document {document.pk} PERSON at 64-73 in text (page 2, line 3) review: /documents/" in report
    assert "/leaks/" in report and "redact them all" in report
    assert "KOWALCZYK" not in report.upper().replace("LEAK", "")
    assert not (tmp_path / "x.zip").exists()
