"""The review flow in real Chromium (Debian's, driven by Playwright): log in, open a
document, accept and reject spans with the mouse, add one by selecting text,
export, and check the zip."""

import io
import zipfile
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model

from pipelines.labels import CANONICAL_LABELS
from review.models import ReviewEvent, Span
from review.services.uploads import ingest_document
from tests.browser_support import select_text
from tests.conftest import DEMO_TEXT


@pytest.fixture
def page(browser):
    # bypass_csp: Playwright polls string predicates with eval, which the site's
    # policy forbids (the policy is tested in tests/browser/test_csp_browser.py).
    context = browser.new_context(accept_downloads=True, bypass_csp=True)
    page = context.new_page()
    page.set_default_timeout(15_000)
    return page


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_review_and_export_in_chromium(live_server, page, corpus, django_capture_on_commit_callbacks):
    owner = get_user_model().objects.create_user("alice", password="s3cret-pass", is_staff=True)
    from review.models import CorpusMembership, Role

    CorpusMembership.objects.create(corpus=corpus, user=owner, role=Role.ADMIN)
    document, _ = ingest_document(corpus=corpus, name="hearing.txt", data=DEMO_TEXT.encode(), user=owner)
    document.refresh_from_db()
    assert document.status == "ready", document.error_message
    person = document.spans.get(label="PERSON", text="Marcus Delgado", start=DEMO_TEXT.index("Marcus Delgado"))
    phone = document.spans.get(label="PHONE_NUMBER")

    page.goto(live_server.url + "/")
    assert "/accounts/login/" in page.url
    page.fill("input[name=username]", "alice")
    page.fill("input[name=password]", "s3cret-pass")
    page.click("button[type=submit]")
    page.click(f"text={corpus.name}")
    page.click("text=hearing.txt")
    page.wait_for_function("window.htmx !== undefined")  # clicks before htmx has loaded do nothing
    assert page.locator("#legend").is_visible()
    assert page.locator("mark.span").count() == document.spans.count()

    # Accept one span, with the mouse, without a page reload.
    page.evaluate("window.__noReload = true")
    page.click(f"#span-{person.pk}")
    # The panel must show this span before its buttons are used (a slow machine
    # still shows the previous one).
    page.wait_for_selector(f"#decide-form[data-span-id='{person.pk}']")
    page.locator("#panel button.accept").click()
    page.wait_for_selector(f"#span-{person.pk}.st-accepted")
    # Reject another.
    page.click(f"#span-{phone.pk}")
    page.wait_for_selector(f"#decide-form[data-span-id='{phone.pk}']")
    page.locator("#panel button.reject").click()
    page.wait_for_selector(f"#span-{phone.pk}.st-rejected")
    # Add a missing one by selecting text.
    select_text(page, "hearing")
    assert page.evaluate("window.getSelection().toString()") == "hearing"
    page.wait_for_selector("#add-panel:not([hidden])")
    page.select_option("#add-label", "ORGANIZATION")
    page.click("#add-submit")
    page.wait_for_selector("mark[data-label=ORGANIZATION].st-accepted >> text=hearing")
    assert page.evaluate("window.__noReload") is True  # htmx swapped parts; the page never reloaded

    person.refresh_from_db()
    phone.refresh_from_db()
    assert (person.status, phone.status) == ("accepted", "rejected")
    added = Span.objects.get(document=document, label="ORGANIZATION", text="hearing")
    assert added.created_by == owner and added.status == "accepted"
    assert set(ReviewEvent.objects.filter(document=document).values_list("action", flat=True)) == {
        "accept",
        "reject",
        "add",
    }

    # Export: accept the rest first, as a reviewer finishing the document would.
    document.spans.filter(status="pending").update(status="accepted")
    page.goto(f"{live_server.url}/corpora/{corpus.pk}/")
    page.select_option("#export-form select[name=scope]", "all")  # the document is not approved
    # The index files hold the original names: off by default, asked for here.
    assert not page.is_checked("#export-form input[name=include_index]")
    page.check("#export-form input[name=include_index]")
    page.click("#export-form button[type=submit]")
    page.wait_for_selector("a.download")
    with page.expect_download() as download_info:
        page.click("a.download")
    archive = zipfile.ZipFile(io.BytesIO(Path(download_info.value.path()).read_bytes()))
    redacted = archive.read(next(n for n in archive.namelist() if n.startswith("redacted/"))).decode()
    assert "Delgado" not in redacted
    assert "(559) 555-0147" in redacted  # rejected: kept
    assert "This [ORGANIZATION_" in redacted  # added by selection
    index = archive.read(next(n for n in archive.namelist() if n.endswith("_INDEX.txt"))).decode()
    assert "ORGANIZATION | hearing ➡ [ORGANIZATION_" in index


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_keyboard_only_review(live_server, page, corpus):
    from review.models import CorpusMembership, Role

    user = get_user_model().objects.create_user("kim", password="s3cret-pass")
    CorpusMembership.objects.create(corpus=corpus, user=user, role=Role.REVIEWER)
    document, _ = ingest_document(corpus=corpus, name="hearing.txt", data=DEMO_TEXT.encode(), user=user)
    spans = list(Span.objects.filter(document=document).order_by("start"))

    page.goto(live_server.url + f"/documents/{document.pk}/")
    page.fill("input[name=username]", "kim")
    page.fill("input[name=password]", "s3cret-pass")
    page.press("input[name=password]", "Enter")
    page.wait_for_function("window.htmx !== undefined")
    page.keyboard.press("j")  # first pending span
    page.wait_for_selector(f"#panel >> text={spans[0].label}")
    page.keyboard.press("a")
    page.wait_for_selector(f"#span-{spans[0].pk}.st-accepted")
    page.keyboard.press("j")
    page.keyboard.press("r")
    page.wait_for_selector(f"#span-{spans[1].pk}.st-rejected")
    page.keyboard.press("j")
    target = "LOCATION" if spans[2].label != "LOCATION" else "ORGANIZATION"
    page.keyboard.press(str(CANONICAL_LABELS.index(target) + 1))  # labels are numbered in legend order
    page.wait_for_selector(f"#span-{spans[2].pk}.st-accepted[data-label={target}]")
    # The marks change at once (optimistic): the decisions are saved once answered.
    page.wait_for_selector("#decision-status[data-pending='0']", state="attached")
    page.keyboard.press("?")
    assert page.locator("dialog#help").is_visible()
    page.keyboard.press("Escape")
    statuses = [(s.status, s.label) for s in Span.objects.filter(pk__in=[s.pk for s in spans[:3]]).order_by("start")]
    assert statuses == [("accepted", spans[0].label), ("rejected", spans[1].label), ("accepted", target)]
