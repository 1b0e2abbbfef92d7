"""Issue 15, finding 10, in real Chromium: under the strict Content-Security-Policy
the review page and its scripts (htmx, review.js, site.js) work, and the browser
reports no violation: no inline script, handler or style is left."""

import pytest
from django.contrib.auth import get_user_model

from pipelines.labels import LABEL_COLOURS
from review.models import CorpusMembership, Role, Span
from review.services.uploads import ingest_document
from tests.conftest import DEMO_TEXT

PASSWORD = "correct-horse-battery-staple-15"


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_review_page_works_under_the_policy_with_no_violation(
    live_server, browser, corpus, django_capture_on_commit_callbacks
):
    user = get_user_model().objects.create_user("carol", password=PASSWORD, is_staff=True)
    CorpusMembership.objects.create(corpus=corpus, user=user, role=Role.ADMIN)
    with django_capture_on_commit_callbacks(execute=True):
        document, _ = ingest_document(corpus=corpus, name="hearing.txt", data=DEMO_TEXT.encode(), user=user)
    document.refresh_from_db()
    assert document.status == "ready", document.error_message
    violations: list[str] = []
    page = browser.new_page()
    page.set_default_timeout(15_000)
    page.on("console", lambda m: violations.append(m.text) if "Content Security Policy" in m.text else None)
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("input[name=username]", "carol")
    page.fill("input[name=password]", PASSWORD)
    page.click("button[type=submit]")
    page.goto(f"{live_server.url}/documents/{document.pk}/")
    page.evaluate(
        "window.__violations = []; document.addEventListener('securitypolicyviolation', "
        "(e) => window.__violations.push(e.violatedDirective + ' ' + e.blockedURI))"
    )
    # The label colour comes from the stylesheet, not a style attribute.
    colour = page.eval_on_selector("mark.span[data-label=PERSON]", "m => getComputedStyle(m).backgroundColor")
    person = LABEL_COLOURS["PERSON"]
    assert colour == "rgb({}, {}, {})".format(*(int(person[i : i + 2], 16) for i in (1, 3, 5)))
    mark = page.locator("mark.span[data-label=PERSON]").first
    span_id = int(mark.get_attribute("data-span-id"))
    mark.click()  # htmx loads the panel
    page.wait_for_selector("#decide-form")
    page.click("#decide-form button.accept")  # htmx posts the decision with its version
    page.wait_for_selector(f"#span-{span_id}.st-accepted")
    # review.js: the keyboard (next pending span, reject), and undo.
    other = page.locator("mark.span.st-pending").first
    other_id = int(other.get_attribute("data-span-id"))
    other.click()
    page.wait_for_selector(f"#decide-form[data-span-id='{other_id}']")
    page.locator(f"#span-{other_id}").focus()
    page.keyboard.press("r")
    page.wait_for_selector(f"#span-{other_id}.st-rejected")
    page.keyboard.press("u")
    page.wait_for_selector(f"#span-{other_id}.st-pending")
    violations += page.evaluate("window.__violations")
    assert Span.objects.get(pk=span_id).status == "accepted"
    assert violations == []
