"""A long transcript reviewed by keyboard with filtered candidates (muted marks)
in it, in real Chromium: what a fresh-eyes reviewer found on a 65k-character
grand jury transcript. The focus leaves a muted mark as it leaves a span (Tab,
Shift+Tab, Esc); taking one keeps the place and the focus, and undo gives them
back to it; j and k step through pending spans and muted marks alike, from the
focused mark, and the side panel says why a muted mark was filtered; a line
that starts inside a mark keeps its number; the bulk form keeps every field
on a reload; a muted mark looks muted and the legend says so; a long title
wraps at 420 px."""

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import Browser, Page

from ingestion.models import Document
from review.models import CorpusMembership, DocumentDetection, Role, Span

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# The middle of the text, where the reviewer works: a name a line broke (a
# span), a weekday and a company a filter dropped (muted marks, the company's
# across a line too), between pending names.
MIDDLE = (
    "MR. MCCULLOCH: Thank you. I'm Bob\n"
    "McCulloch, the Prosecutor. On Wednesday we met Delgado at St. Louis\n"
    "Delivery Service about the record, Delgado said.\n"
)


def long_text(lines: int = 400) -> str:
    """~30,000 characters: the middle far from both ends, as on a real transcript."""
    before = [
        f"Q. Line {i}: did you speak to Delgado about the record of the hearing that day, sir?"
        if i % 10 == 0
        else f"A. Line {i}: yes, I told the grand jury what I saw and what I heard that evening."
        for i in range(lines // 2)
    ]
    after = [
        f"A. Line {i}: that is what I remember of it, as I said to the detectives then." for i in range(lines // 2)
    ]
    return "\n".join(before) + "\n" + MIDDLE + "\n".join(after) + "\n"


TEXT = long_text()


def layout_of(text: str) -> list[list[int]]:
    """One printed line per text line, 25 to a page."""
    layout, start = [], 0
    for i, line in enumerate(text.split("\n")[:-1]):
        layout.append([start, start + len(line), i // 25 + 1, i % 25 + 1])
        start += len(line) + 1
    return layout


def at(needle: str, after: int = 0) -> tuple[int, int]:
    start = TEXT.index(needle, after)
    return start, start + len(needle)


MIDDLE_AT = TEXT.index(MIDDLE)
BOB = at("Bob\nMcCulloch")
WEDNESDAY = at("Wednesday", MIDDLE_AT)
COMPANY = at("St. Louis\nDelivery Service")
DELGADOS = [at("Delgado", MIDDLE_AT), at("Delgado said", MIDDLE_AT)]


@pytest.fixture
def document(corpus) -> Document:
    user = get_user_model().objects.create_user("kim", password="s3cret-pass")
    CorpusMembership.objects.create(corpus=corpus, user=user, role=Role.REVIEWER)
    document = Document.objects.create(
        corpus=corpus, name="grand_jury_vol1.txt", sha256="g", text=TEXT, layout=layout_of(TEXT), status="ready"
    )
    spans = [(BOB, "PERSON")]
    start = TEXT.find("Delgado")
    while start >= 0:
        spans.append(((start, start + len("Delgado")), "PERSON"))
        start = TEXT.find("Delgado", start + 1)
    for (start, end), label in spans:
        Span.objects.create(
            document=document,
            start=start,
            end=end,
            label=label,
            text=TEXT[start:end],
            score=0.8,
            sources=["spacy"],
        )
    DocumentDetection.objects.create(
        document=document,
        filtered=[
            [*WEDNESDAY, "DATE", ["spacy"], "a weekday that recurs or is any one, no date"],
            [*COMPANY, "ORGANIZATION", ["spacy"], "crosses a line break"],
        ],
        filtered_counts={},
    )
    return document


def open_page(browser: Browser, live_server, document: Document, width: int = 1400) -> Page:
    # bypass_csp: Playwright's wait_for_function evaluates strings, which the
    # site's policy forbids (the policy is tested in test_csp_browser.py).
    page = browser.new_context(bypass_csp=True, viewport={"width": width, "height": 900}).new_page()
    page.set_default_timeout(15_000)
    page.goto(f"{live_server.url}/documents/{document.pk}/")
    page.fill("input[name=username]", "kim")
    page.fill("input[name=password]", "s3cret-pass")
    page.press("input[name=password]", "Enter")
    page.wait_for_selector("#text-body")
    page.wait_for_function("window.htmx !== undefined")
    settled(page)
    return page


def settled(page: Page) -> None:
    page.wait_for_function("!document.querySelector('.htmx-request, .htmx-settling, .htmx-swapping')")


def muted(start: int) -> str:
    return f"#text-body mark.st-muted[data-start='{start}']"


def span_at(start: int) -> str:
    return f"#text-body mark[data-span-id][data-start='{start}']"


FOCUSED = (
    "(() => { const a = document.activeElement; return a ? [a.tagName, a.dataset.start || null, a.id] : null; })()"
)


def focused_start(page: Page) -> int | None:
    tag, start, _id = page.evaluate(FOCUSED)
    return int(start) if tag == "MARK" and start is not None else None


def focus_in_the_middle(page: Page, selector: str) -> float:
    """Scroll the mark to the middle of the screen and focus it; its top."""
    page.eval_on_selector(selector, "m => { m.scrollIntoView({block: 'center'}); m.focus({preventScroll: true}); }")
    page.wait_for_function("() => new Promise((done) => requestAnimationFrame(() => setTimeout(() => done(true), 0)))")
    return page.eval_on_selector(selector, "m => m.getBoundingClientRect().top")


# --- 1. the focus is never stuck on a muted mark ---------------------------------------------


def test_tab_shift_tab_and_esc_leave_a_muted_mark_as_they_leave_a_span(live_server, browser, document):
    page = open_page(browser, live_server, document)
    # Whether the page swallowed the key, seen after every listener ran.
    page.evaluate("window.addEventListener('keydown', (e) => { window.__prevented = e.defaultPrevented; })")
    focus_in_the_middle(page, muted(WEDNESDAY[0]))
    page.keyboard.press("Tab")
    assert focused_start(page) == DELGADOS[0][0]  # the next mark in the text
    page.keyboard.press("Shift+Tab")
    assert focused_start(page) == WEDNESDAY[0]
    page.keyboard.press("Shift+Tab")
    assert focused_start(page) == BOB[0]  # the span before it
    assert not page.evaluate("window.__prevented")
    for selector in (span_at(BOB[0]), muted(WEDNESDAY[0])):  # Esc: the same on both, never swallowed
        page.focus(selector)
        page.keyboard.press("Escape")
        assert page.evaluate("window.__prevented") is False, selector
    # Enter opens the muted mark in the add panel, its label list focused; Esc
    # goes back to the mark, and Esc there closes the panel.
    page.focus(muted(COMPANY[0]))
    page.keyboard.press("Enter")
    page.wait_for_selector("#add-panel:not([hidden])")
    assert page.evaluate("document.activeElement.id") == "add-label"
    assert page.input_value("#add-label") == "ORGANIZATION"
    page.keyboard.press("Escape")
    assert focused_start(page) == COMPANY[0]
    page.keyboard.press("Escape")
    page.wait_for_selector("#add-panel", state="hidden")
    assert focused_start(page) == COMPANY[0]


# --- 2. taking a muted mark keeps the place; undo gives it back ------------------------------


def test_taking_a_muted_mark_keeps_the_place_and_undo_returns_to_it(live_server, browser, document):
    page = open_page(browser, live_server, document)
    top = focus_in_the_middle(page, muted(WEDNESDAY[0]))
    assert page.evaluate("window.scrollY") > 3000
    page.keyboard.press("a")
    added = f"#text-body mark.st-accepted[data-start='{WEDNESDAY[0]}']"
    page.wait_for_selector(added)
    page.wait_for_function(f'document.activeElement === document.querySelector("{added}")')
    settled(page)
    page.wait_for_selector("#panel >> text=Selected span")
    span = Span.objects.get(document=document, start=WEDNESDAY[0])
    assert (span.label, span.status, span.text) == ("DATE", "accepted", "Wednesday")
    assert page.evaluate("document.querySelector('#decide-form').dataset.spanId") == str(span.pk)
    assert abs(page.eval_on_selector(added, "m => m.getBoundingClientRect().top") - top) <= 2
    # The keys act on the new span: u undoes the addition, and the muted mark
    # is back, focused, where it was.
    page.keyboard.press("u")
    page.wait_for_selector(muted(WEDNESDAY[0]))
    page.wait_for_function(f'document.activeElement === document.querySelector("{muted(WEDNESDAY[0])}")')
    settled(page)
    assert not Span.objects.filter(document=document, start=WEDNESDAY[0]).exists()
    assert abs(page.eval_on_selector(muted(WEDNESDAY[0]), "m => m.getBoundingClientRect().top") - top) <= 2
    # ... and j goes on from it.
    page.keyboard.press("j")
    page.wait_for_function(f"document.activeElement.dataset.start === '{DELGADOS[0][0]}'")


# --- 3. j and k stop on muted marks too, from the focused mark; its reason is shown ----------


def test_j_and_k_go_on_from_the_focused_mark_through_pending_spans_and_muted_marks(live_server, browser, document):
    page = open_page(browser, live_server, document)
    first = Span.objects.filter(document=document).order_by("start").first()
    Span.objects.filter(document=document, start=DELGADOS[0][0]).update(status="accepted")
    page.reload()
    page.wait_for_selector("#text-body")
    settled(page)
    page.keyboard.press("j")  # the first pending span, at the top: the last one opened
    page.wait_for_selector(f"#decide-form[data-span-id='{first.pk}']")
    settled(page)
    # Tab into the middle: j goes on from the focused mark, not from the last span opened.
    focus_in_the_middle(page, span_at(BOB[0]))
    page.keyboard.press("j")
    page.wait_for_function(f"document.activeElement.dataset.start === '{WEDNESDAY[0]}'")
    # Its reason, where a span's details are shown (the title is for the mouse only).
    page.wait_for_selector("#panel >> text=Filtered candidate")
    assert page.inner_text("#panel-reason") == "a weekday that recurs or is any one, no date"
    assert page.inner_text("#panel-label") == "DATE"
    page.keyboard.press("j")  # the accepted Delgado is decided: skipped
    page.wait_for_function(f"document.activeElement.dataset.start === '{COMPANY[0]}'")
    assert page.inner_text("#panel-reason") == "crosses a line break"
    page.keyboard.press("j")
    page.wait_for_function(f"document.activeElement.dataset.start === '{DELGADOS[1][0]}'")
    page.wait_for_selector("#panel >> text=Selected span")
    page.keyboard.press("k")
    page.wait_for_function(f"document.activeElement.dataset.start === '{COMPANY[0]}'")
    page.keyboard.press("Shift+K")  # any status: the accepted Delgado
    page.wait_for_function(f"document.activeElement.dataset.start === '{DELGADOS[0][0]}'")
    page.keyboard.press("k")
    page.wait_for_function(f"document.activeElement.dataset.start === '{WEDNESDAY[0]}'")
    # A muted mark reached by Tab says why too; r and the digits have no span to act on.
    page.keyboard.press("Tab")
    page.keyboard.press("Tab")
    assert focused_start(page) == COMPANY[0]
    assert page.inner_text("#panel-reason") == "crosses a line break"
    before = sorted(Span.objects.filter(document=document).values_list("start", "status", "label"))
    page.keyboard.press("r")
    page.keyboard.press("2")
    settled(page)
    assert focused_start(page) == COMPANY[0]
    assert sorted(Span.objects.filter(document=document).values_list("start", "status", "label")) == before
    # The help says it.
    page.keyboard.press("?")
    help_text = page.inner_text("#help")
    assert "next / previous pending span or filtered candidate, from the focused one" in help_text
    assert "take a filtered candidate as an accepted span" in help_text


# --- 4. a line that starts inside a mark keeps its number; a selection there its offsets ----


def test_a_line_inside_a_mark_has_its_number_and_selections_in_it_keep_their_offsets(live_server, browser, document):
    page = open_page(browser, live_server, document)
    lines = len(TEXT.split("\n")) - 1
    assert page.locator("#text-body .ln").count() == lines
    mcculloch = TEXT.index("McCulloch", BOB[0])
    line = TEXT.count("\n", 0, mcculloch)
    anchor = f"#L{line // 25 + 1}-{line % 25 + 1}"
    assert page.eval_on_selector(anchor, "ln => ln.closest('mark').dataset.start") == str(BOB[0])
    assert page.eval_on_selector(span_at(BOB[0]), "m => m.textContent") == "Bob\nMcCulloch"
    # The gutter shows it, on the mark's second line.
    page.eval_on_selector(span_at(BOB[0]), "m => m.scrollIntoView({block: 'center'})")
    left, top, chunk_left, word_top = page.eval_on_selector(
        anchor,
        """ln => {
            const r = ln.getBoundingClientRect();
            const word = document.createRange();
            word.selectNodeContents(ln.nextSibling);
            return [r.left, r.top, ln.closest('.chunk').getBoundingClientRect().left, word.getClientRects()[0].top];
        }""",
    )
    assert 0 <= left - chunk_left < 10
    assert abs(top - word_top) < 8
    # Selecting "McCulloch" (after the number inside the mark) gives its offsets.
    page.eval_on_selector(span_at(BOB[0]), "m => m.scrollIntoView({block: 'center'})")
    page.evaluate(
        """([selector, word]) => {
            const mark = document.querySelector(selector);
            const node = mark.lastChild;
            const range = document.createRange();
            const at = node.textContent.indexOf(word);
            range.setStart(node, at);
            range.setEnd(node, at + word.length);
            const sel = window.getSelection();
            sel.removeAllRanges();
            sel.addRange(range);
            mark.closest('#doc-text').dispatchEvent(new MouseEvent('mouseup', {bubbles: true}));
        }""",
        [span_at(BOB[0]), "McCulloch"],
    )
    page.wait_for_selector("#add-panel:not([hidden])")
    assert page.input_value("#add-start") == str(mcculloch)
    assert page.input_value("#add-end") == str(mcculloch + len("McCulloch"))


# --- 8. a long title wraps on a phone --------------------------------------------------------


def test_a_long_document_title_wraps_at_420_px(live_server, browser, document):
    Document.objects.filter(pk=document.pk).update(name="ferguson_grand_jury_vol1_transcript_of_proceedings.txt")
    page = open_page(browser, live_server, document, width=420)
    for selector in ("h1", "p.crumbs"):
        width, scroll, right = page.eval_on_selector(
            selector, "e => [e.clientWidth, e.scrollWidth, e.getBoundingClientRect().right]"
        )
        assert scroll <= width and right <= 420, (selector, width, scroll, right)
    assert page.evaluate("document.documentElement.scrollWidth") <= 420
