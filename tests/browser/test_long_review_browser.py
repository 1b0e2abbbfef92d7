"""A decision on a long transcript in real Chromium (issue 29, item 4): the
answer updates the decided span's mark and its occurrences where they are (the
same elements: the transcript is not swapped again), the focus stays on the
span, and the next key moves it to the next pending span. The time this takes
is measured by bench/bench_review_browser.py, not here."""

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import Page

from review.models import CorpusMembership, Role, Span
from tests.review.test_decision_views import make_big_document

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def page(live_server, browser, corpus) -> Page:
    user = get_user_model().objects.create_user("long", password="s3cret-pass")
    CorpusMembership.objects.create(corpus=corpus, user=user, role=Role.REVIEWER)
    document = make_big_document(corpus, pages=30)  # 450 spans, 450 printed lines
    # bypass_csp: Playwright's wait_for_function evaluates strings, which the
    # site's policy forbids (the policy is tested in test_csp_browser.py).
    page = browser.new_context(bypass_csp=True).new_page()
    page.set_default_timeout(15_000)
    page.goto(f"{live_server.url}/documents/{document.pk}/")
    page.fill("input[name=username]", "long")
    page.fill("input[name=password]", "s3cret-pass")
    page.press("input[name=password]", "Enter")
    page.wait_for_selector("#text-body mark")
    page.wait_for_function("window.htmx !== undefined")
    page.document = document
    return page


def focused(page: Page) -> dict:
    return page.evaluate(
        """() => { const m = document.activeElement;
                   return {id: m.id, status: m.className, version: m.dataset.version, text: m.textContent,
                           start: +m.dataset.start, label: m.dataset.label, kept: m.__kept === true}; }"""
    )


def saved(page: Page) -> None:
    """Every queued decision answered (the marks are optimistic: see
    test_optimistic_browser.py)."""
    page.wait_for_selector("#decision-status[data-pending='0']", state="attached")


def test_deciding_updates_the_marks_in_place_and_the_next_key_moves_on(page: Page) -> None:
    document = page.document
    page.keyboard.press("j")
    page.wait_for_selector("#decide-form")
    first = focused(page)
    assert first["id"] and "st-pending" in first["status"]
    name = first["text"]
    occurrences = Span.objects.filter(document=document, text=name).count()
    assert occurrences > 1
    # Tag the elements the page has now: a re-rendered transcript would lose the tags.
    page.evaluate(
        """() => { document.activeElement.__kept = true;
                   for (const chunk of document.querySelectorAll('#text-body > .chunk')) chunk.__kept = true; }"""
    )
    chunks = page.evaluate("document.querySelectorAll('#text-body > .chunk').length")
    assert chunks > 5  # the text comes in blocks

    page.keyboard.press("a")
    page.wait_for_selector(f"#{first['id']}.st-accepted")
    saved(page)
    decided = focused(page)
    # The same element, still focused, with its new status and version.
    assert decided["id"] == first["id"] and decided["kept"]
    assert "st-accepted" in decided["status"] and decided["version"] == "2"
    assert page.evaluate(f"document.getElementById('{first['id']}').title") == "PERSON · accepted"
    # Every occurrence's mark changed, and no block of the text was swapped.
    assert page.locator("#text-body mark.st-accepted").count() == occurrences
    assert page.evaluate(
        f"""() => Array.from(document.querySelectorAll('#text-body mark')).filter(
                   m => m.textContent === {name!r}).every(m => m.classList.contains('st-accepted'))"""
    )
    assert page.evaluate("Array.from(document.querySelectorAll('#text-body > .chunk')).every(c => c.__kept)")
    assert page.evaluate("document.querySelectorAll('#text-body > .chunk').length") == chunks
    assert not page.locator("#changed-marks").count()  # the template is consumed
    # The counts and the side panel's entity follow.
    pending = Span.objects.filter(document=document, status="pending").count()
    page.wait_for_function(f"document.querySelector('#legend .st-pending').textContent.trim() === '{pending} pending'")
    assert f"{occurrences} accepted" in page.locator("#entity-list li", has_text=name).first.inner_text()
    assert page.locator("#panel-status").inner_text().startswith("accepted")

    # The next key moves the focus to the next pending span, past the accepted ones.
    page.keyboard.press("j")
    page.wait_for_function(f"document.activeElement.id && document.activeElement.id !== '{first['id']}'")
    following = focused(page)
    assert "st-pending" in following["status"] and following["start"] > first["start"]
    assert following["text"] != name
    page.wait_for_function(
        f"document.querySelector('#decide-form') && document.querySelector('#decide-form').dataset.spanId"
        f" === '{following['id'].removeprefix('span-')}'"
    )

    # Reject it with apply-to-all off: only that mark changes, and it keeps the focus.
    page.uncheck("#apply-all")
    page.keyboard.press("r")
    page.wait_for_selector(f"#{following['id']}.st-rejected")
    saved(page)
    assert focused(page)["id"] == following["id"]
    span = Span.objects.get(pk=int(following["id"].removeprefix("span-")))
    assert span.status == "rejected"
    assert Span.objects.filter(document=document, text=following["text"], status="rejected").count() == 1

    # Relabel with a digit (the label list's second): the mark's label follows.
    page.keyboard.press("2")
    page.wait_for_function(f"document.getElementById('{following['id']}').classList.contains('st-accepted')")
    saved(page)
    span.refresh_from_db()
    assert page.evaluate(f"document.getElementById('{following['id']}').dataset.label") == span.label
    assert span.label != "PERSON" and span.status == "accepted"
