"""The corpus page in real Chromium: deleting a failed document asks first (the
site's Content-Security-Policy allows no inline handler: static/site.js asks), and
the corpus's description is prose, not link-styled."""

import pytest

from ingestion.models import Document

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_failed_document_is_deleted_after_confirming(live_server, browser, corpus, admin_user) -> None:
    corpus.description = "Parole hearings, 2023 batch (from the board's archive)"
    corpus.save()
    failed = Document.objects.create(
        corpus=corpus, name="noise.txt", sha256="n", status="failed", error_message="Not a text file."
    )
    page = browser.new_context().new_page()
    page.set_default_timeout(15_000)
    page.goto(f"{live_server.url}/corpora/{corpus.pk}/")
    page.fill("input[name=username]", "owner")
    page.fill("input[name=password]", "pw-owner")
    page.press("input[name=password]", "Enter")
    page.wait_for_selector("#corpus-description")
    # Prose: the page's text colour, no underline, unlike the links around it.
    style = page.eval_on_selector(
        "#corpus-description",
        "e => { const s = getComputedStyle(e); return [s.color, s.textDecorationLine, e.closest('a')]; }",
    )
    link_colour = page.eval_on_selector("#review-queue-link", "e => getComputedStyle(e).color")
    assert style[0] != link_colour and style[1] == "none" and style[2] is None
    # Dismissed: nothing happens.
    questions = []
    page.once("dialog", lambda d: (questions.append(d.message), d.dismiss()))
    page.click(f"#document-{failed.pk} .delete-form button")
    assert questions == ["Delete “noise.txt” and its original file?"]
    assert Document.objects.filter(pk=failed.pk).exists()
    # Accepted: it goes, and the page says so.
    page.once("dialog", lambda d: d.accept())
    page.click(f"#document-{failed.pk} .delete-form button")
    page.wait_for_selector("text=“noise.txt” deleted.")
    assert not Document.objects.filter(pk=failed.pk).exists()
    assert page.locator(f"#document-{failed.pk}").count() == 0
