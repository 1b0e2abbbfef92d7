"""A French corpus in real Chromium: created with its language from the corpus
form, its page says so, and a (synthetic) French decision's review page shows
seed 002's labels and takes a reviewer's decision like any other."""

from pathlib import Path

import pytest

from ingestion.models import Corpus, Document
from review.models import Span

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

DECISION = (Path(__file__).resolve().parents[2] / "demo" / "decision_cour_appel_demo_fr.txt").read_text("utf-8")


def test_a_french_corpus_is_created_and_its_decision_reviewed(live_server, browser, make_user, tmp_path) -> None:
    from review.services.uploads import ingest_document

    owner = make_user("juriste", is_staff=True)
    page = browser.new_context(bypass_csp=True).new_page()
    page.set_default_timeout(30_000)
    page.goto(f"{live_server.url}/")
    page.fill("input[name=username]", "juriste")
    page.fill("input[name=password]", "pw-juriste")
    page.press("input[name=password]", "Enter")
    page.fill("#corpus-form input[name=name]", "Arrêts")
    page.select_option("#corpus-form select[name=language]", "fr")
    page.click("#corpus-form [type=submit]")
    page.wait_for_selector("#corpus-language >> text=Français (French)")
    corpus = Corpus.objects.get(name="Arrêts")
    assert corpus.language == "fr"

    document, _ = ingest_document(corpus=corpus, name="arret.txt", data=DECISION.encode(), user=owner)
    document.refresh_from_db()
    assert document.status == "ready", document.error_message
    page.goto(f"{live_server.url}/documents/{document.pk}/")
    page.wait_for_selector("#text-body mark[data-label=LAWYER]")
    page.wait_for_function("window.htmx !== undefined")
    for label in ("JUDGE_CLERK", "RG", "LICENCE_PLATE", "ADDRESS", "COURT", "BAR"):
        assert page.locator(f"#text-body mark[data-label={label}]").count() > 0, label
    page.screenshot(path=str(tmp_path / "french-review.png"), full_page=True)
    page.keyboard.press("j")  # the first span
    page.wait_for_selector("#panel >> text=Selected span")
    first = Span.objects.filter(document=document).order_by("start").first()
    page.keyboard.press("a")
    page.wait_for_selector(f"#panel >> text=Accept: “{first.text}”.")
    first.refresh_from_db()
    assert first.status == "accepted"
    assert Document.objects.get(pk=document.pk).status in ("ready", "in_review")
