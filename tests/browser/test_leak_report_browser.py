"""The leak report in real Chromium: each residual shows its document, page and
line; its link opens the review page at that place; one button redacts them all,
and the redacted spans show on the review page."""

import io

import pytest
from django.contrib.auth import get_user_model

from ingestion.models import Document
from pipelines.candidate import Candidate
from pipelines.export.writer import ExportDocument, LeakError, render_document, write_zip
from review.models import CorpusMembership, ExportBatch, Role, Span, SpanStatus

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TEXT = (
    "PRESIDING COMMISSIONER: Good morning, Walter Kowalczyk.\n"
    "INMATE: KOWALCZYK is my name.\n"
    "PRESIDING COMMISSIONER: Thank you. Kowalczyk, sit down.\n"
)


@pytest.fixture
def failed_export(corpus):
    user = get_user_model().objects.create_user("ada", password="s3cret-pass")
    CorpusMembership.objects.create(corpus=corpus, user=user, role=Role.ADMIN)
    lines = TEXT.splitlines(keepends=True)
    layout, at = [], 0
    for n, line in enumerate(lines, start=1):
        layout.append([at, at + len(line) - 1, 1 + n // 3, 10 + n])
        at += len(line)
    document = Document.objects.create(
        corpus=corpus, name="hearing.txt", sha256="b", text=TEXT, status="in_review", layout=layout
    )
    start = TEXT.index("Walter Kowalczyk")
    Span.objects.create(
        document=document, start=start, end=start + 16, label="PERSON", text="Walter Kowalczyk", status="accepted"
    )
    spans = [Candidate(start, start + 16, "PERSON", "Walter Kowalczyk", ("human",), 1.0)]
    # A strict export: no completion, the gate reports the two other occurrences.
    output = render_document(ExportDocument(document.pk, document.name, TEXT, spans), complete_names=False)
    with pytest.raises(LeakError) as caught:
        write_zip(io.BytesIO(), [output], {})
    batch = ExportBatch.objects.create(
        corpus=corpus,
        created_by=user,
        status="failed",
        error_message="Leak check failed.",
        report=caught.value.report(),
    )
    return document, batch


def test_the_leak_report_links_to_each_place_and_redacts_all(live_server, browser, failed_export):
    document, batch = failed_export
    page = browser.new_context().new_page()
    page.set_default_timeout(15_000)
    page.goto(f"{live_server.url}/exports/{batch.pk}/leaks/")
    page.fill("input[name=username]", "ada")
    page.fill("input[name=password]", "s3cret-pass")
    page.press("input[name=password]", "Enter")
    rows = page.locator("tr.residual")
    assert rows.count() == 2
    assert rows.nth(0).locator("td").nth(0).inner_text() == "hearing.txt"
    assert rows.nth(0).locator("a.residual-link").inner_text() == "page 1, line 12"
    assert rows.nth(1).locator("a.residual-link").inner_text() == "page 2, line 13"
    # The link opens the review page at that place.
    rows.nth(1).locator("a.residual-link").click()
    page.wait_for_selector("#text-body")
    offset = TEXT.index("Kowalczyk, sit")
    assert page.url.endswith(f"/documents/{document.pk}/?at={offset}#L2-13")
    assert "Kowalczyk, sit down" in page.inner_text("#text-body")
    # Back to the report: one action redacts both, audited as one operation.
    page.goto(f"{live_server.url}/exports/{batch.pk}/leaks/")
    page.click("#redact-all button")
    page.wait_for_selector("text=Redacted 2 remaining occurrences as accepted spans.")
    added = Span.objects.filter(document=document, rule="leak report", status=SpanStatus.ACCEPTED)
    assert sorted(s.text for s in added) == ["KOWALCZYK", "Kowalczyk"]
    assert len({e.bulk_id for e in document.review_events.all()}) == 1
    page.goto(f"{live_server.url}/documents/{document.pk}/")
    assert page.locator("#text-body mark.st-accepted").count() == 3
