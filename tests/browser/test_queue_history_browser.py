"""Issue 16 in real Chromium (Debian's, driven by Playwright): a zip holding a
damaged PDF, uploaded through the corpus page's form, fails alone with a message in
the reviewer's words and no retry that cannot succeed; and the corpus statistics
and the dashboard are reached from the corpus page."""

import io
import re
import zipfile

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from ingestion.models import Corpus, Document
from review.models import CorpusMembership, Role
from tests.ingestion.test_transcript_pdf import BODY, make_transcript

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "s3cret-pass-long"


@pytest.fixture
def page(browser):
    page = browser.new_context().new_page()
    page.set_default_timeout(15_000)
    return page


@pytest.fixture
def admin():
    corpus = Corpus.objects.create(name="Hearings")
    user = get_user_model().objects.create_user("admin-16", password=PASSWORD)
    CorpusMembership.objects.create(corpus=corpus, user=user, role=Role.ADMIN)
    return corpus, user


def log_in(page, live_server, username: str) -> None:
    page.goto(live_server.url + "/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_selector("text=Log out")


def batch_with_a_damaged_pdf() -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        # A real transcript PDF cut short, as a failed download leaves it.
        archive.writestr("volume-2.pdf", make_transcript(BODY)[:900])
        archive.writestr("volume-1.txt", "PRESIDING COMMISSIONER HARTWELL: Good morning, Mr. Delgado.\n")
    return buffer.getvalue()


def test_a_damaged_pdf_in_a_zip_fails_alone_in_plain_words_without_a_pointless_retry(live_server, page, admin):
    corpus, user = admin
    log_in(page, live_server, user.username)
    page.click(f"a:has-text('{corpus.name}')")
    page.wait_for_url(re.compile(rf".*/corpora/{corpus.pk}/$"))
    page.set_input_files(
        "#upload-form input[name=files]",
        files=[{"name": "batch.zip", "mimeType": "application/zip", "buffer": batch_with_a_damaged_pdf()}],
    )
    page.click("#upload-form button[type=submit]")
    page.wait_for_url(re.compile(rf".*/corpora/{corpus.pk}/$"))
    page.reload()
    broken = Document.objects.get(name__endswith="volume-2.pdf")
    row = page.locator(f"#document-{broken.pk}")
    expect(row.locator(".error")).to_contain_text("This PDF could not be read: it is damaged or encrypted")
    expect(row.locator(".failed-next-step")).to_contain_text("upload a repaired copy")
    assert "Exception" not in row.inner_text()
    expect(row.get_by_role("button", name="Pre-annotate again")).to_have_count(0)
    # Its annotation page offers nothing that would fail either.
    row.locator("a.annotation-link").click()
    page.wait_for_url(re.compile(rf".*/documents/{broken.pk}/.*"))
    expect(page.locator("#failed-next-step")).to_be_visible()
    expect(page.locator("#reannotate-form")).to_have_count(0)
    expect(page.get_by_role("button", name="Pre-annotate again")).to_have_count(0)
    # The text file of the same zip went through.
    assert Document.objects.get(name__endswith="volume-1.txt").status != "failed"


def test_the_corpus_page_leads_to_the_statistics_and_the_dashboard(live_server, page, admin):
    corpus, user = admin
    log_in(page, live_server, user.username)
    page.click(f"a:has-text('{corpus.name}')")
    page.wait_for_url(re.compile(rf".*/corpora/{corpus.pk}/$"))
    page.click("#corpus-stats-link")
    page.wait_for_url(re.compile(rf".*/corpora/{corpus.pk}/review-stats/$"))
    expect(page.locator("h1")).to_be_visible()
    page.go_back()
    page.wait_for_url(re.compile(rf".*/corpora/{corpus.pk}/$"))
    page.click("#dashboard-link")
    page.wait_for_url(re.compile(rf".*/corpora/{corpus.pk}/dashboard/$"))
    expect(page.locator("h1")).to_be_visible()
