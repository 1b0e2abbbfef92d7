"""The quasi-identifier layer of the review page in real Chromium (issue 18): hidden
until shown, the toggle shows and hides it, and a reviewer masks, generalises and
keeps flags; the decisions land in the database and the list says so."""

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from ingestion.models import Document
from pipelines.candidate import Candidate
from review.models import CorpusMembership, QuasiIdentifier, Role
from review.services.quasi import store_quasi
from tests.browser_support import select_text

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TEXT = (
    "PRESIDING COMMISSIONER: What did you do before?\n"
    "INMATE: I was a welder for 25 years in Folsom. My sister visited me on March 3, 1985.\n"
)


def flag(sub: str, label: str, rule: str) -> Candidate:
    start = TEXT.index(sub)
    return Candidate(start, start + len(sub), label, sub, ("quasi",), 0.5, rule)


@pytest.fixture
def flagged(corpus):
    user = get_user_model().objects.create_user("ada", password="s3cret-pass")
    CorpusMembership.objects.create(corpus=corpus, user=user, role=Role.REVIEWER)
    document = Document.objects.create(corpus=corpus, name="hearing.txt", sha256="q", text=TEXT, status="ready")
    store_quasi(
        document.pk,
        [
            flag("welder", "DEM", "occupation"),
            flag("Folsom", "LOC", "place"),
            flag("March 3, 1985", "DATETIME", "date"),
        ],
    )
    return document


def test_toggle_then_mask_generalise_and_keep(live_server, browser, flagged) -> None:
    page = browser.new_context().new_page()
    page.set_default_timeout(15_000)
    page.goto(f"{live_server.url}/documents/{flagged.pk}/")
    page.fill("input[name=username]", "ada")
    page.fill("input[name=password]", "s3cret-pass")
    page.press("input[name=password]", "Enter")
    page.wait_for_selector("#text-body")
    toggle = page.locator("#quasi-toggle")
    flags = page.locator("#quasi-flags")
    # Hidden at first; the list is loaded behind it.
    expect(flags).to_be_hidden()
    expect(toggle).to_have_attribute("aria-pressed", "false")
    toggle.click()
    expect(flags).to_be_visible()
    expect(toggle).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#quasi-counts")).to_have_text("3 flagged: 3 undecided, 0 kept, 0 masked, 0 generalised.")
    # The flags are highlighted in the transcript while the layer is shown.
    marks = page.locator("#text-body mark.quasi-hl")
    expect(marks).to_have_count(3)
    expect(page.locator("#doc-text")).to_have_class("doc-text quasi-on")
    assert marks.nth(1).inner_text() == "Folsom"
    toggle.click()
    expect(flags).to_be_hidden()
    expect(page.locator("#doc-text")).to_have_class("doc-text")
    toggle.click()
    expect(flags).to_be_visible()
    # The highlights keep the transcript's offsets right: a selection after one of
    # them still offers the right span to add.
    select_text(page, "My sister")
    expect(page.locator("#add-start")).to_have_value(str(TEXT.index("My sister")))
    expect(page.locator("#add-end")).to_have_value(str(TEXT.index("My sister") + len("My sister")))

    def row(text: str):
        pk = QuasiIdentifier.objects.get(document=flagged, text=text).pk
        return page.locator(f"#quasi-{pk}")

    # Mask the date.
    row("March 3, 1985").locator("button.quasi-mask").click()
    expect(page.locator("#quasi-message")).to_contain_text("mask")
    expect(row("March 3, 1985")).to_have_attribute("data-decision", "mask")
    # Generalise the place with the suggested text, and the occupation with one typed in.
    expect(row("Folsom").locator("input.quasi-generalised")).to_have_value("a city in California")
    row("Folsom").locator("button.quasi-generalise").click()
    expect(row("Folsom")).to_have_attribute("data-decision", "generalise")
    row("welder").locator("input.quasi-generalised").fill("a tradesman")
    row("welder").locator("button.quasi-generalise").click()
    expect(row("welder")).to_have_attribute("data-decision", "generalise")
    # Then keep the occupation after all.
    row("welder").locator("button.quasi-keep").click()
    expect(row("welder")).to_have_attribute("data-decision", "keep")
    expect(page.locator("#quasi-counts")).to_have_text("3 flagged: 0 undecided, 1 kept, 1 masked, 1 generalised.")
    expect(page.locator("#text-body mark.quasi-hl.qd-mask")).to_have_text("March 3, 1985")
    decided = {q.text: (q.decision, q.generalised) for q in QuasiIdentifier.objects.filter(document=flagged)}
    assert decided == {
        "welder": ("keep", ""),
        "Folsom": ("generalise", "a city in California"),
        "March 3, 1985": ("mask", ""),
    }
    # The layer stays shown after a reload (remembered for the session).
    page.reload()
    expect(page.locator("#quasi-flags")).to_be_visible()
    expect(page.locator("#quasi-counts")).to_contain_text("1 kept")
