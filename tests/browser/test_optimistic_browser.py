"""Optimistic decisions in real Chromium (issue 29, item 4): a decision key
changes the marks and the counts before the server answers, the answer is the
truth, a refused or failed request puts the marks back with a message, and fast
keys are sent one at a time, in order, and all saved. Requests are held or
answered by Playwright route handlers: no test waits on the clock. The time
this takes is measured by bench/bench_review_browser.py."""

import re

import pytest
from django.contrib.auth import get_user_model
from django.db.models import F
from playwright.sync_api import Page, Route

from review.models import CorpusMembership, ReviewEvent, Role, Span
from tests.review.test_decision_views import make_big_document

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

DECISIONS = re.compile(r"/spans/\d+/(accept|reject|relabel)/$")


@pytest.fixture
def page(live_server, browser, corpus) -> Page:
    user = get_user_model().objects.create_user("quick", password="s3cret-pass")
    CorpusMembership.objects.create(corpus=corpus, user=user, role=Role.REVIEWER)
    document = make_big_document(corpus, pages=6)  # 90 spans, a few names each many times
    # bypass_csp: Playwright's wait_for_function evaluates strings, which the
    # site's policy forbids (the policy is tested in test_csp_browser.py).
    page = browser.new_context(bypass_csp=True).new_page()
    page.set_default_timeout(15_000)
    # Every decision request goes through this route, set before the page loads
    # (a route added later was, now and then, not yet in force for the next
    # request): `page.answer` says what becomes of it.
    page.answer, page.held = None, []
    page.route(DECISIONS, lambda route: answer(page, route))
    page.goto(f"{live_server.url}/documents/{document.pk}/")
    page.fill("input[name=username]", "quick")
    page.fill("input[name=password]", "s3cret-pass")
    page.press("input[name=password]", "Enter")
    page.wait_for_selector("#text-body mark")
    page.wait_for_function("window.htmx !== undefined")
    page.document = document
    return page


def answer(page: Page, route: Route) -> None:
    if page.answer is None:
        route.continue_()
    elif page.answer == "hold":
        page.held.append(route)
    elif page.answer == "network":
        route.abort("connectionrefused")
    else:
        route.fulfill(status=page.answer, body="refused")


def mark(page: Page, span_id: int) -> dict:
    return page.evaluate(
        """(id) => { const m = document.getElementById('span-' + id);
                     return {status: (/st-([a-z]+)/.exec(m.className) || [])[1], label: m.dataset.label,
                             version: m.dataset.version, saving: m.hasAttribute('data-saving'), title: m.title}; }""",
        span_id,
    )


def legend(page: Page, status: str) -> int:
    return int(page.inner_text(f"#legend .legend-status.st-{status}").split()[0])


def open_first(page: Page) -> Span:
    page.keyboard.press("j")
    span_id = int(page.evaluate("document.activeElement.dataset.spanId"))
    page.wait_for_selector(f"#decide-form[data-span-id='{span_id}']")
    return Span.objects.get(pk=span_id)


def saved(page: Page) -> None:
    """Every queued decision answered."""
    page.wait_for_selector("#decision-status[data-pending='0']", state="attached")


def held_one(page: Page, held: list[Route]) -> Route:
    """The held request, once Playwright has handed it to the route handler
    (it does so while the test talks to the page)."""
    while not held:
        page.wait_for_timeout(20)
    return held.pop()


def drawn(page: Page) -> None:
    """The frame after the key, and the task after it (apply-to-all's marks far
    from the screen are changed with the key's own, review.js `apply`: waiting
    costs nothing and keeps the test right if that changes)."""
    page.evaluate("() => new Promise((done) => requestAnimationFrame(() => setTimeout(done, 0)))")


def page_marks(page: Page) -> dict[int, tuple[str, str]]:
    return {
        m["id"]: (m["status"], m["label"])
        for m in page.evaluate(
            """() => Array.from(document.querySelectorAll('#text-body mark[data-span-id]'), (m) => ({
                   id: +m.dataset.spanId, status: (/st-([a-z]+)/.exec(m.className) || [])[1],
                   label: m.dataset.label}))"""
        )
    }


def test_the_marks_and_counts_change_before_the_answer_which_then_confirms_them(page: Page) -> None:
    document = page.document
    span = open_first(page)
    same = Span.objects.filter(document=document, text=span.text).exclude(pk=span.pk)
    others = list(same.values_list("pk", flat=True))
    assert others  # apply-to-all has occurrences to change
    pending = legend(page, "pending")
    held = page.held
    page.answer = "hold"

    page.keyboard.press("a")
    page.wait_for_function("() => document.querySelector('#decision-status').dataset.pending === '1'")
    # The request is held: nothing is saved, yet the page shows the decision.
    assert len(held) <= 1 and Span.objects.get(pk=span.pk).status == "pending"
    now = mark(page, span.pk)
    assert now["status"] == "accepted" and now["saving"] and now["version"] == "1"
    drawn(page)
    assert now["title"] == "PERSON · accepted"
    assert all(mark(page, pk)["status"] == "accepted" for pk in others)
    assert legend(page, "pending") == pending - 1 - len(others)
    assert page.inner_text("#panel-status").startswith("accepted (saving")
    assert page.evaluate("document.activeElement.id") == f"span-{span.pk}"
    # The next key moves on past the decided occurrences at once.
    page.keyboard.press("j")
    following = int(page.evaluate("document.activeElement.dataset.spanId"))
    assert following not in others and following != span.pk
    assert mark(page, following)["status"] == "pending"

    page.answer = None
    held_one(page, held).continue_()
    saved(page)
    # The server's answer: saved, the version is the server's, nothing is flagged.
    assert Span.objects.get(pk=span.pk).status == "accepted"
    assert Span.objects.filter(pk__in=others, status="accepted").count() == len(others)
    done = mark(page, span.pk)
    assert done["status"] == "accepted" and not done["saving"] and done["version"] == "2"
    assert legend(page, "pending") == Span.objects.filter(document=document, status="pending").count()
    assert not page.locator("#decision-status p.error").count()
    # The reviewer moved on: the panel still shows the span they are on.
    page.wait_for_selector(f"#decide-form[data-span-id='{following}']")


@pytest.mark.parametrize("failure", [409, 500, 403, "network"])
def test_a_refused_or_failed_decision_puts_the_marks_back_with_a_message(page: Page, failure) -> None:
    document = page.document
    span = open_first(page)
    pending = legend(page, "pending")

    page.answer = failure
    page.keyboard.press("a")
    saved(page)
    message = page.inner_text("#decision-status p.error")
    assert message.startswith(f"Not saved: accept “{span.text}”")
    assert "back as the server last said" in message
    if failure == 409:
        assert "someone else changed" in message
    back = mark(page, span.pk)
    assert back == {**back, "status": "pending", "saving": False, "version": "1", "title": "PERSON · pending"}
    assert page.locator("#text-body mark[data-saving]").count() == 0
    assert page.locator("#text-body mark.st-accepted").count() == 0
    assert legend(page, "pending") == pending
    assert Span.objects.filter(document=document).exclude(status="pending").count() == 0
    assert not ReviewEvent.objects.exists()
    # Nothing is stuck: once the server answers again, the same key saves it.
    page.answer = None
    page.keyboard.press("a")
    saved(page)
    assert Span.objects.get(pk=span.pk).status == "accepted"
    assert mark(page, span.pk)["version"] == "2"


def test_a_stale_version_is_refused_by_the_server_and_shown_as_it_is(page: Page) -> None:
    """Another reviewer changed the span (the server's stale check, answered
    with the text as it now is): the mark shows the server's state, not the
    reviewer's guess."""
    span = open_first(page)
    Span.objects.filter(pk=span.pk).update(status="rejected", version=F("version") + 1)
    page.keyboard.press("a")
    saved(page)
    assert "changed by someone else" in page.inner_text("#decision-status p.error")
    assert mark(page, span.pk) == {**mark(page, span.pk), "status": "rejected", "saving": False, "version": "2"}
    assert Span.objects.get(pk=span.pk).status == "rejected"


def test_fast_keys_are_applied_in_order_and_all_saved(page: Page) -> None:
    document = page.document
    # Every answer is held until all the keys are typed: they queue up behind the first.
    held = page.held
    page.answer = "hold"
    decided, keys = [], "jajajrjajrj2"
    for key in keys:
        page.keyboard.press(key)
        if key == "j":
            decided.append(int(page.evaluate("document.activeElement.dataset.spanId")))
    expected = ["accepted", "accepted", "rejected", "accepted", "rejected", "accepted"]
    assert len(set(decided)) == len(expected)  # each j moved on to a pending span of its own
    # Each key already shows, with apply-to-all on every occurrence the page knows.
    assert [mark(page, i)["status"] for i in decided] == expected
    drawn(page)
    shown = page_marks(page)
    assert page.evaluate("document.querySelector('#decision-status').dataset.pending") == str(len(expected))
    # One request at a time: the second is sent only once the first is answered.
    first = held_one(page, held)
    page.evaluate("() => new Promise((done) => setTimeout(done, 200))")  # time for a second request to show
    page.wait_for_selector("#decision-status", state="attached")  # (and for Playwright to route it)
    assert not held
    page.answer = None
    first.continue_()
    saved(page)

    spans = {s.pk: s for s in Span.objects.filter(document=document)}
    assert [spans[i].status for i in decided] == expected
    assert spans[decided[-1]].label != "PERSON"  # the digit relabelled it
    # Every decision saved, as the page showed it before the answers came.
    assert {pk: (s.status, s.label) for pk, s in spans.items()} == shown
    assert page_marks(page) == shown
    assert page.locator("#text-body mark[data-saving]").count() == 0
    # The audit trail has the decisions in the order they were typed.
    events = ReviewEvent.objects.filter(span_id__in=decided).order_by("pk").values_list("span_id", flat=True)
    assert list(events) == decided
    assert not page.locator("#decision-status p.error").count()


def test_a_second_decision_on_the_same_span_waits_for_the_first_and_uses_its_version(page: Page) -> None:
    span = open_first(page)
    page.keyboard.press("a")
    page.keyboard.press("r")
    page.keyboard.press("3")
    assert mark(page, span.pk)["status"] == "accepted" and mark(page, span.pk)["saving"]
    saved(page)
    span.refresh_from_db()
    assert span.status == "accepted" and span.label != "PERSON" and span.version == 4
    actions = list(ReviewEvent.objects.filter(span_id=span.pk).order_by("pk").values_list("action", flat=True))
    assert actions == ["accept", "reject", "relabel"]
    assert not page.locator("#decision-status p.error").count()
    assert mark(page, span.pk) == {**mark(page, span.pk), "label": span.label, "version": "4", "saving": False}
