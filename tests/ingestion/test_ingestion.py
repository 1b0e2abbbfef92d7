"""Extraction of text and PDF files, and the models' invariants."""

import pytest
from django.db import IntegrityError

from ingestion.models import Document, TextAlreadySet
from pipelines.extraction.extract import extract
from pipelines.extraction.text import ExtractionError
from review.models import ReviewEvent, Span
from review.models.append_only import AppendOnlyError
from tests.pdf_fixture import make_pdf


def test_pdf_text_layer_is_extracted_page_by_page():
    data = make_pdf([["INMATE SMITH: My name is John Smith.", "Second line (with parens)."], ["Page two here."]])
    text = extract("hearing.pdf", data).text
    assert "INMATE SMITH: My name is John Smith." in text
    assert "Second line (with parens)." in text
    assert text.index("Page two here.") > text.index("Second line")


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        ("Café\r\nline two\r".encode(), "Café\nline two\n"),
        ("\ufeffCafé".encode(), "Café"),
        ("Café".encode("utf-16"), "Café"),
        ("Café “quoted”".encode("cp1252"), "Café “quoted”"),
        ("Cafe\u0301".encode(), "Café"),  # NFC before offsets exist
    ],
)
def test_text_encodings_are_normalized(data, expected):
    assert extract("a.txt", data).text == expected


@pytest.mark.parametrize(
    ("name", "data", "message"),
    [
        ("a.txt", b"   \n", "empty"),
        ("a.pdf", b"%PDF-1.4 garbage", "could not be read"),
        ("a.pdf", make_pdf([[]]), "no text layer"),
        ("a.doc", b"x", "Unsupported file type"),
        ("a.txt", b"abc\x00def", "binary"),
    ],
)
def test_bad_files_get_a_clear_message(name, data, message):
    with pytest.raises(ExtractionError, match=message):
        extract(name, data)


@pytest.mark.django_db
def test_pdf_upload_goes_all_the_way_to_spans(corpus, admin_user, django_capture_on_commit_callbacks):
    from review.services.uploads import ingest_document

    pdf = make_pdf([["PRESIDING COMMISSIONER DOE: Good morning, Mr. Kowalczyk.", "CDCR number K-48213."]])
    with django_capture_on_commit_callbacks(execute=True):
        document, _ = ingest_document(corpus=corpus, name="hearing.pdf", data=pdf, user=admin_user)
    document.refresh_from_db()
    assert document.status == "ready", document.error_message
    labels = set(document.spans.values_list("label", "text"))
    assert ("PERSON", "Kowalczyk") in labels and ("ID", "K-48213") in labels
    with document.original.open("rb") as handle:
        assert handle.read() == pdf  # the original is kept, byte for byte


@pytest.mark.django_db
def test_document_text_is_immutable_and_constraints_hold(annotated_document):
    with pytest.raises(TextAlreadySet):
        annotated_document.set_text("something else")
    annotated_document.set_text(annotated_document.text)  # same text: fine
    span = annotated_document.spans.first()
    with pytest.raises(IntegrityError):
        Span.objects.create(document=annotated_document, start=span.start, end=span.end, label=span.label, text="x")


@pytest.mark.django_db
def test_span_start_must_precede_end(annotated_document):
    with pytest.raises(IntegrityError):
        Span.objects.create(document=annotated_document, start=5, end=5, label="PERSON", text="")


@pytest.mark.django_db
def test_review_events_are_append_only(annotated_document, admin_user):
    event = ReviewEvent.objects.create(document=annotated_document, user=admin_user, action="accept")
    with pytest.raises(AppendOnlyError):
        event.save()
    with pytest.raises(AppendOnlyError):
        event.delete()
    assert Document.objects.filter(pk=annotated_document.pk).exists()


@pytest.mark.django_db
def test_a_crashed_extraction_is_taken_over_and_a_live_one_is_not(corpus, admin_user, settings):
    import datetime as dt

    from ingestion.services import EXTRACTION, document_step_run
    from review.services.uploads import ingest_document

    document, _ = ingest_document(
        corpus=corpus, name="a.txt", data=b"Mr. Kowalczyk spoke.\n", user=admin_user, queue=False
    )
    # A worker claimed it and is still within its time limit: a duplicate delivery waits.
    Document.objects.filter(pk=document.pk).update(status="extracting", claimed_at=dt.datetime.now(dt.UTC))
    assert document_step_run(EXTRACTION, document.pk) is False
    # The worker died long ago (acks_late redelivers): the claim is taken over.
    old = dt.datetime.now(dt.UTC) - dt.timedelta(seconds=settings.CELERY_TASK_TIME_LIMIT + 120)
    Document.objects.filter(pk=document.pk).update(claimed_at=old)
    assert document_step_run(EXTRACTION, document.pk) is True
    document.refresh_from_db()
    assert document.status == "annotating" and document.text == "Mr. Kowalczyk spoke.\n"


@pytest.mark.django_db
def test_a_redelivered_extraction_task_queues_the_missing_annotation(corpus, admin_user):
    from review.services.uploads import ingest_document
    from review.tasks import extract_document

    document, _ = ingest_document(
        corpus=corpus, name="a.txt", data=b"Mr. Kowalczyk spoke.\n", user=admin_user, queue=False
    )
    # Crash between extraction and queueing annotation: text stored, status annotating.
    Document.objects.filter(pk=document.pk).update(text="Mr. Kowalczyk spoke.\n", status="annotating")
    extract_document(document.pk)  # the redelivered message (eager in tests)
    document.refresh_from_db()
    assert document.status == "ready" and document.spans.filter(text="Kowalczyk").exists()


@pytest.mark.django_db
def test_originals_are_stored_under_generated_names(corpus, admin_user):
    from review.services.uploads import ingest_document

    document, _ = ingest_document(
        corpus=corpus, name="Delgado_Marcus_hearing.txt", data=b"x y z\n", user=admin_user, queue=False
    )
    assert document.name == "Delgado_Marcus_hearing.txt"
    assert "Delgado" not in document.original.name and document.original.name.endswith(".txt")


TEXT_TRANSCRIPT = """SUBSEQUENT PAROLE CONSIDERATION HEARING
STATE OF CALIFORNIA
In the matter of the Parole Consideration Hearing of: MARCUS DELGADO
CDCR Number: K48213

PANEL PRESENT:
EVELYN HARTWELL, Presiding Commissioner
OTHERS PRESENT:
MARCUS DELGADO, Inmate

PRESIDING COMMISSIONER HARTWELL: We are on the record.
INMATE DELGADO: Good morning. ROBERT ROSS, Deputy Commissioner, is not here.
"""


def test_a_text_transcript_cover_page_is_parsed_up_to_the_first_speaker():
    metadata = extract("hearing.txt", TEXT_TRANSCRIPT.encode()).metadata
    assert metadata["hearing_type"] == "SUBSEQUENT PAROLE CONSIDERATION HEARING"
    assert metadata["cdcr_number"] == "K48213"
    # "PANEL PRESENT:" is a heading, not the first speaker; the body's lines are not the cover.
    assert [p["name"] for p in metadata["participants"]] == ["EVELYN HARTWELL", "MARCUS DELGADO"]


def test_a_text_without_a_cover_page_has_the_empty_header():
    metadata = extract("notes.txt", b"Q: Where were you?\nA: At home with Anna Wong.\n").metadata
    assert metadata["participants"] == [] and metadata["hearing_type"] is None


@pytest.mark.django_db
def test_a_file_named_pdf_that_is_no_pdf_is_refused_at_upload(corpus, admin_user):
    """A fresh-clone walkthrough uploaded random bytes as broken.pdf: "1 document
    added", then a failure in the worker 15 s later. No PDF header: refused at once,
    nothing stored; a header after some junk (within 1,024 bytes) is a PDF."""
    import os

    from ingestion.models import Document
    from ingestion.services import IngestError, document_ingest

    with pytest.raises(IngestError, match=r"broken\.pdf: not a PDF"):
        document_ingest(corpus=corpus, name="broken.pdf", data=os.urandom(4096).replace(b"%", b"x"), user=admin_user)
    assert not Document.objects.filter(name="broken.pdf").exists()
    pdf = make_pdf([["PRESIDING COMMISSIONER DOE: Good morning."]])
    document, created = document_ingest(corpus=corpus, name="junk-first.pdf", data=b"\0" * 500 + pdf, user=admin_user)
    assert created and document.name == "junk-first.pdf"
