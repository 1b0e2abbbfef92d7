"""Defects a tester found walking the app in Chromium (the demo corpus), each
pinned here: CSP errors on htmx swaps, speaker labels with a name in them, the
layout at 1400 px and at phone width, the panel's controls, the help dialog,
read-only and failed documents, the bulk confirmation's place, the exports
page opened directly, the favicon."""

import pytest

from pipelines.candidate import Candidate
from review.services.quasi import store_quasi


@pytest.fixture
def document(annotated_document):
    """The demo hearing, annotated, in a corpus `admin_user` administers."""
    return annotated_document


def login(browser, live_server, *, width: int = 1400, height: int = 900, csp: bool = False):
    """A logged-in page. With `csp` the site's policy is enforced (Playwright's
    string predicates need eval, so those tests use element waits only)."""
    context = browser.new_context(viewport={"width": width, "height": height}, bypass_csp=not csp)
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("input[name=username]", "owner")  # conftest's admin_user
    page.fill("input[name=password]", "pw-owner")
    page.click("button[type=submit]")
    page.wait_for_load_state()
    return page


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_keyboard_decision_reports_no_csp_violation(live_server, browser, document):
    page = login(browser, live_server, csp=True)
    console: list[str] = []
    page.on("console", lambda m: console.append(m.text) if "Content Security Policy" in m.text else None)
    page.goto(f"{live_server.url}/documents/{document.pk}/")
    page.wait_for_selector("mark.span.st-pending")
    page.locator("#doc-text").click(position={"x": 5, "y": 5})
    page.keyboard.press("j")
    page.wait_for_selector("#decide-form")
    span_id = page.get_attribute("#decide-form", "data-span-id")
    # A script (a browser extension, a test driver's highlight) that styled an
    # element through the CSSOM and cleared it leaves `style=""`: htmx's settle
    # must not copy that attribute onto the swapped element (an inline style).
    page.evaluate(
        """(id) => { for (const el of [document.getElementById('span-' + id), document.getElementById('decide-form')]) {
            el.style.outline = '1px solid red'; el.style.outline = ''; } }""",
        span_id,
    )
    page.keyboard.press("a")
    page.wait_for_selector(f"#span-{span_id}.st-accepted")
    page.keyboard.press("j")
    page.wait_for_selector(f"#decide-form:not([data-span-id='{span_id}'])")
    # htmx's settle runs after a delay: wait until no swap or settle is left (a
    # selector wait: this page keeps its CSP, which forbids evaluating a string).
    page.wait_for_selector(".htmx-request, .htmx-settling, .htmx-swapping", state="detached")
    assert console == []


def page_width(page) -> int:
    return page.evaluate("document.documentElement.scrollWidth")


def box(page, selector: str) -> dict:
    found = page.locator(selector).first.bounding_box()
    assert found, selector
    return found


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_detection_page_fits_1400_px_and_says_what_is_listed_below(live_server, browser, corpus, admin_user):
    page = login(browser, live_server)
    page.goto(f"{live_server.url}/corpora/{corpus.pk}/detection/")
    assert page_width(page) <= 1400
    form = box(page, "#detection-config-form")
    for inner in ("#model-choice select", "#model-licences"):
        assert box(page, inner)["x"] + box(page, inner)["width"] <= form["x"] + form["width"] + 0.5, inner
    # "Each model's licence is listed below": the sentence comes before the table.
    assert box(page, "#model-help")["y"] < box(page, "#model-licences")["y"]


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_bulk_decision_is_confirmed_where_it_was_made_and_undone_from_there(live_server, browser, document):
    page = login(browser, live_server)
    page.goto(f"{live_server.url}/documents/{document.pk}/")
    page.wait_for_function("window.htmx !== undefined")
    pending = document.spans.filter(status="pending", label="PERSON").count()
    assert pending > 1
    page.select_option("#bulk-form select[name=label]", "PERSON")
    page.wait_for_selector(f"#bulk-count >> text={pending} pending spans match")
    page.locator("#bulk-accept").scroll_into_view_if_needed()
    page.click("#bulk-accept")
    page.wait_for_selector("#bulk-status:not([hidden]) >> text=Accepted")
    status = box(page, "#bulk-status")
    side = box(page, ".side")
    # Visible: inside the window and inside the side column's scrolled view.
    assert status["y"] >= 0 and status["y"] + status["height"] <= 900
    assert side["y"] <= status["y"] and status["y"] + status["height"] <= side["y"] + side["height"]
    assert document.spans.filter(status="accepted", label="PERSON").count() == pending
    # Its Undo works from there, and says so there.
    page.click("#bulk-status button.undo")
    page.wait_for_selector("#bulk-status:not([hidden]) >> text=Undone")
    assert document.spans.filter(status="pending", label="PERSON").count() == pending
    # A decision made elsewhere clears the copy.
    page.locator("mark.span.st-pending").first.click()
    page.wait_for_selector("#decide-form")
    page.wait_for_selector("#bulk-status[hidden]", state="attached")


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_review_page_on_a_phone_puts_the_panel_below_the_text(live_server, browser, document):
    page = login(browser, live_server, width=390, height=844)
    page.goto(f"{live_server.url}/documents/{document.pk}/")
    page.wait_for_selector("mark.span")
    assert page_width(page) <= 390
    text, side = box(page, "#doc-text"), box(page, ".side")
    assert side["y"] >= text["y"] + text["height"]  # below, not over it
    assert text["x"] + text["width"] <= 390 and side["x"] + side["width"] <= 390


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_span_panel_keeps_its_controls_inside_and_wraps_rules_between_words(live_server, browser, document):
    page = login(browser, live_server)
    page.goto(f"{live_server.url}/documents/{document.pk}/")
    span = max(document.spans.filter(rule__contains=","), key=lambda s: len(s.rule))
    assert len(span.rule) > 30, span.rule  # longer than the panel's value column
    page.click(f"#span-{span.pk}")
    page.wait_for_selector(f"#decide-form[data-span-id='{span.pk}']")
    # The panel's content box: its controls stay inside its padding, not on its border.
    right = page.eval_on_selector(
        "#panel",
        "p => { const r = p.getBoundingClientRect(), s = getComputedStyle(p);"
        " return r.right - parseFloat(s.paddingRight) - parseFloat(s.borderRightWidth); }",
    )
    for control in ("#reject-reason", "#decide-form button.reject", "#decide-form select[name=label]"):
        found = box(page, control)
        assert found["x"] + found["width"] <= right + 0.5, control
    # Every line of the rule text ends at a rule's end or at a space, never inside a word.
    lines = page.evaluate(
        """() => {
            const dd = document.querySelector('#panel dd.rule');
            const node = dd.firstChild, text = node.textContent, range = document.createRange();
            const out = []; let line = '', top = null;
            for (let i = 0; i < text.length; i++) {
                range.setStart(node, i); range.setEnd(node, i + 1);
                const r = range.getClientRects()[0];
                if (r && top !== null && r.top > top + 2) { out.push(line); line = ''; }
                if (r) top = r.top;
                line += text[i];
            }
            out.push(line);
            return out;
        }"""
    )
    words = span.rule.split(",")
    for line in lines:
        for piece in line.replace(",", " ").split():
            assert piece in words, (piece, lines)


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_help_opens_at_its_heading_in_a_900_px_window(live_server, browser, document):
    page = login(browser, live_server, width=1400, height=900)
    page.goto(f"{live_server.url}/documents/{document.pk}/")
    page.wait_for_selector("mark.span")
    page.locator("#doc-text").click(position={"x": 5, "y": 5})
    page.keyboard.press("?")
    page.wait_for_selector("#help[open]")
    dialog, heading = box(page, "#help"), box(page, "#help h2")
    assert heading["y"] >= dialog["y"] and heading["y"] >= 0
    assert page.evaluate("document.getElementById('help').scrollTop") == 0
    # It all fits at this height: nothing to scroll to reach Close.
    assert page.evaluate("(d => d.scrollHeight <= d.clientHeight)(document.getElementById('help'))")
    page.keyboard.press("Escape")
    page.wait_for_selector("#help:not([open])", state="attached")


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_dashboard_quasi_identifier_table_aligns_what_under_its_heading(live_server, browser, document):
    age = "19 years old"
    at = document.text.index(age)
    store_quasi(document.pk, [Candidate(at, at + len(age), "DEM", age, ("quasi",), 0.5, "age")])
    type(document).objects.filter(pk=document.pk).update(status="approved")
    page = login(browser, live_server)
    page.goto(f"{live_server.url}/corpora/{document.corpus_id}/dashboard/")
    page.wait_for_selector("#table-quasi")
    header = box(page, "#table-quasi thead th:nth-child(2)")
    cell = page.locator("#table-quasi tbody td:nth-of-type(1)").first
    assert cell.evaluate("td => getComputedStyle(td).textAlign") in ("left", "start")
    # The text starts where its heading does, not at the column's far end.
    text_x = cell.evaluate(
        "td => { const r = document.createRange(); r.selectNodeContents(td); return r.getBoundingClientRect().x; }"
    )
    assert abs(text_x - header["x"]) < 20
