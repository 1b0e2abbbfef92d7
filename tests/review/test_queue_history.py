"""The work queue by risk with minutes left (issue 16), the history page's filtered
candidates, failures in the user's language, and the corpus page's links."""

import io
import uuid
import zipfile
from datetime import timedelta
from unittest import mock

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import timezone

from ingestion.models import Document
from review.models import DocumentDetection, ReviewEvent, Span
from review.selectors.queue import review_rate


def make_document(corpus, name: str, scores: list[float], status: str = "ready") -> Document:
    text = " ".join(f"Name{i}" for i in range(len(scores))) or "nothing"
    document = Document.objects.create(corpus=corpus, name=name, sha256=name, text=text, status=status)
    at = 0
    for i, score in enumerate(scores):
        word = f"Name{i}"
        Span.objects.create(document=document, start=at, end=at + len(word), label="PERSON", text=word, score=score)
        at += len(word) + 1
    return document


def decide_at(document: Document, user, when, spans: int = 1) -> None:
    """An operation of `spans` decision events at a given time (the audit row's
    created_at is set by Django: the clock is moved instead)."""
    bulk = uuid.uuid4()
    with mock.patch("django.utils.timezone.now", return_value=when):
        for _ in range(spans):
            ReviewEvent.objects.create(document=document, user=user, action="accept", bulk_id=bulk)


@pytest.fixture
def queue(corpus):
    return {
        "sure": make_document(corpus, "sure.txt", [0.9] * 5),  # 5 pending, none low
        "risky": make_document(corpus, "risky.txt", [0.2, 0.3, 0.9]),  # 3 pending, 2 low
        "one": make_document(corpus, "one.txt", [0.1]),  # 1 pending, 1 low
    }


@pytest.mark.django_db
def test_the_queue_puts_the_riskiest_first_with_minutes_left_at_the_default_rate(
    client, reviewer, queue, settings, django_assert_num_queries
):
    settings.REVIEW_DEFAULT_SPANS_PER_MINUTE = 2.0
    settings.REVIEW_QUEUE_LOW_SCORE = 0.5
    client.force_login(reviewer)
    url = reverse("corpus_queue", args=[queue["sure"].corpus_id])
    client.get(url)
    # session, user, corpus+role, documents with counts, status counts, review rate
    with django_assert_num_queries(6):
        page = client.get(url).content.decode()
    order = [page.index(f'data-document="{queue[n].pk}"') for n in ("risky", "one", "sure")]
    assert order == sorted(order)
    assert "assumed 2.0 spans per minute" in page
    # 5 pending at 2 per minute: 3 minutes; 3 pending: 2; 9 pending listed: 5.
    assert f'data-document="{queue["sure"].pk}"' in page
    row = page[page.index(f'data-document="{queue["sure"].pk}"') :]
    assert '<td class="minutes-left">3</td>' in row[: row.index("</tr>")]
    row = page[page.index(f'data-document="{queue["risky"].pk}"') :]
    assert '<td class="low-score">2</td>' in row[: row.index("</tr>")]
    assert "About <strong>5 minutes</strong>" in page


@pytest.mark.django_db
def test_the_rate_is_measured_from_the_corpus_audit_trail_without_the_breaks(reviewer, queue, settings):
    settings.REVIEW_RATE_MIN_OPERATIONS = 3
    settings.REVIEW_RATE_MAX_GAP_SECONDS = 300
    document = queue["sure"]
    start = timezone.now() - timedelta(hours=3)
    # Four operations 30 s apart deciding 2 spans each, then a 2-hour break, then one more.
    for n in range(4):
        decide_at(document, reviewer, start + timedelta(seconds=30 * n), spans=2)
    decide_at(document, reviewer, start + timedelta(hours=2), spans=2)
    rate = review_rate(document.corpus)
    # Three timed gaps of 30 s (90 s) deciding 6 spans: 4 per minute; the break is not review time.
    assert rate.measured and rate.operations == 3
    assert rate.spans_per_minute == pytest.approx(4.0)
    assert rate.minutes_for(5) == 2


@pytest.mark.django_db
def test_too_little_history_falls_back_to_the_default_rate(reviewer, queue, settings):
    settings.REVIEW_RATE_MIN_OPERATIONS = 10
    settings.REVIEW_DEFAULT_SPANS_PER_MINUTE = 7.0
    decide_at(queue["sure"], reviewer, timezone.now())
    rate = review_rate(queue["sure"].corpus)
    assert not rate.measured and rate.spans_per_minute == 7.0


HISTORY_TEXT = "PRESIDING COMMISSIONER Hartwell: the Board met Delgado on Monday.\nWitness: Panel"


@pytest.mark.django_db
def test_the_history_page_shows_each_filtered_candidate_with_its_reason(
    client, reviewer, corpus, settings, django_assert_num_queries
):
    document = Document.objects.create(corpus=corpus, name="h.txt", sha256="h", text=HISTORY_TEXT, status="ready")
    board, monday, panel = (HISTORY_TEXT.index(word) for word in ("Board", "Monday", "Panel"))
    DocumentDetection.objects.create(
        document=document,
        filtered=[
            [board, board + 5, "ORGANIZATION", ["spacy"], "common word"],
            [monday, monday + 6, "DATE", ["presidio", "spacy"], "weekday alone"],
            [panel, panel + 5, "ORGANIZATION", ["spacy"], "common word"],
        ],
        filtered_counts={"common word": 2, "weekday alone": 1},
    )
    client.force_login(reviewer)
    url = reverse("document_history", args=[document.pk])
    client.get(url)
    # session, user, document+role, events, spans, detection
    with django_assert_num_queries(6):
        page = client.get(url).content.decode()
    table = page[page.index('id="filtered-candidates"') :]
    assert '<span class="st-filtered" title="filtered: common word">Board</span>' in table
    assert "<td>ORGANIZATION</td><td>spacy</td><td>common word</td>" in table
    assert '<span class="st-filtered" title="filtered: weekday alone">Monday</span>' in table
    assert "<td>DATE</td><td>presidio, spacy</td><td>weekday alone</td>" in table
    # Where: the text's line (this document has no printed page layout).
    assert f'<td class="place" title="characters {board}–{board + 5}">line 1</td>' in table
    assert f'<td class="place" title="characters {panel}–{panel + 5}">line 2</td>' in table
    # A long list is cut at the named limit, and says how many more there are.
    settings.REVIEW_HISTORY_FILTERED_MAX = 1
    page = client.get(url).content.decode()
    assert "Monday</span>" not in page and "and 2 more filtered candidates " in page


# --- failures in the user's language, and only actions that can succeed ---------------------


def broken_pdf() -> bytes:
    """A real transcript PDF cut short: what a damaged download looks like."""
    from tests.ingestion.test_transcript_pdf import BODY, make_transcript

    return make_transcript(BODY)[:900]


def a_zip(files: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, data in files.items():
            archive.writestr(name, data)
    return buffer.getvalue()


def test_a_pdf_failing_on_a_page_names_the_page_not_the_parser(monkeypatch):
    from pdfminer.psparser import PSEOF

    from pipelines.extraction import pdf
    from pipelines.extraction.limits import ExtractionLimits
    from pipelines.extraction.text import ExtractionError
    from tests.ingestion.test_transcript_pdf import BODY, make_transcript

    read = pdf._reading_order
    calls = []

    def third_page_broken(page):
        calls.append(page)
        if len(calls) == 3:
            raise PSEOF("Unexpected EOF")  # what pdfminer raises on a cut stream
        return read(page)

    monkeypatch.setattr(pdf, "_reading_order", third_page_broken)
    with pytest.raises(ExtractionError) as failure:
        pdf.extract_pdf(make_transcript(BODY), ExtractionLimits(sandbox=False))
    message = str(failure.value)
    assert message.startswith("This PDF is damaged or encrypted: page 3 could not be read.")
    assert "PSEOF" not in message and "Exception" not in message


@pytest.mark.django_db
def test_a_zip_with_a_broken_pdf_says_so_and_offers_no_pointless_retry(
    client, admin_user, corpus, django_capture_on_commit_callbacks
):
    client.force_login(admin_user)
    data = a_zip({"hearing.pdf": broken_pdf(), "fine.txt": b"Mr. Kowalczyk met Ms. Ng.\n"})
    with django_capture_on_commit_callbacks(execute=True):
        client.post(
            reverse("document_upload", args=[corpus.pk]),
            {"files": [SimpleUploadedFile("batch.zip", data)], "text_column": "text"},
        )
    broken = Document.objects.get(name__endswith="hearing.pdf")
    assert broken.status == "failed"
    page = client.get(reverse("corpus_detail", args=[corpus.pk])).content.decode()
    row = page[page.index(f'id="document-{broken.pk}"') :]
    row = row[: row.index("</tr>")]
    assert "This PDF could not be read: it is damaged or encrypted" in row
    assert "Exception" not in row and "PdfminerException" not in page
    assert "Pre-annotate again" not in row and "upload a repaired copy" in row
    annotation = client.get(reverse("document_annotation", args=[broken.pk])).content.decode()
    assert 'id="reannotate-form"' not in annotation and "Pre-annotate again" not in annotation
    assert 'id="failed-next-step"' in annotation


@pytest.mark.django_db
def test_a_failed_machine_pass_on_read_text_offers_pre_annotate_again(client, admin_user, reviewer, corpus):
    document = Document.objects.create(
        corpus=corpus,
        name="h.txt",
        sha256="h",
        text="Mr. Smith spoke.",
        status="failed",
        error_message="Pre-annotation failed: the worker ran out of memory.",
    )
    client.force_login(admin_user)
    page = client.get(reverse("corpus_detail", args=[corpus.pk])).content.decode()
    row = page[page.index(f'id="document-{document.pk}"') :]
    assert "Pre-annotate again" in row[: row.index("</tr>")]
    annotation = client.get(reverse("document_annotation", args=[document.pk])).content.decode()
    assert 'id="reannotate-form"' in annotation and "Pre-annotate again" in annotation
    # A reviewer cannot run it: no button, whatever the document.
    client.force_login(reviewer)
    assert "Pre-annotate again" not in client.get(reverse("corpus_detail", args=[corpus.pk])).content.decode()


@pytest.mark.django_db
def test_the_corpus_page_links_to_its_statistics_and_dashboard(client, reviewer, corpus):
    client.force_login(reviewer)
    page = client.get(reverse("corpus_detail", args=[corpus.pk])).content.decode()
    assert f'href="{reverse("corpus_stats", args=[corpus.pk])}" id="corpus-stats-link"' in page
    assert f'href="{reverse("corpus_dashboard", args=[corpus.pk])}" id="dashboard-link"' in page
    assert client.get(reverse("corpus_stats", args=[corpus.pk])).status_code == 200
    # Every member sees the residual risk; the corpus memory is for its admins.
    assert f'href="{reverse("corpus_risk", args=[corpus.pk])}" id="risk-link"' in page
    assert client.get(reverse("corpus_risk", args=[corpus.pk])).status_code == 200
    assert 'id="memory-link"' not in page and 'id="models-link"' not in page


@pytest.mark.django_db
def test_the_corpus_page_links_its_admins_to_the_corpus_memory(client, admin_user, corpus):
    client.force_login(admin_user)
    page = client.get(reverse("corpus_detail", args=[corpus.pk])).content.decode()
    assert f'href="{reverse("corpus_memory", args=[corpus.pk])}" id="memory-link"' in page
    assert f'href="{reverse("corpus_models", args=[corpus.pk])}" id="models-link"' in page
    assert client.get(reverse("corpus_memory", args=[corpus.pk])).status_code == 200


@pytest.mark.django_db
def test_next_document_assigns_the_riskiest_like_the_queue_shows(client, reviewer, queue, make_user):
    from review.models import CorpusMembership, Role

    client.force_login(reviewer)
    url = reverse("queue_next", args=[queue["sure"].corpus_id])
    assert client.post(url)["Location"] == reverse("document_review", args=[queue["risky"].pk])
    other = make_user("second")
    CorpusMembership.objects.create(corpus=queue["sure"].corpus, user=other, role=Role.REVIEWER)
    client.force_login(other)
    assert client.post(url)["Location"] == reverse("document_review", args=[queue["one"].pk])
