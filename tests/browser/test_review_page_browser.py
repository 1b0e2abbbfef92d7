"""The document page as a reviewer meets it (issue 16), in real Chromium: it
refreshes itself when a machine pass ends, the focus is never trapped, an
approved document is read-only, span states and label colours are told apart
without colour and at AA contrast, the side panel acts on a whole entity or
label, and a reload returns to the same place."""

import itertools

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import Browser, Page

from ingestion.models import Document
from pipelines.labels import CANONICAL_LABELS
from review.models import AnnotationRun, CorpusMembership, ReviewEvent, Role, Span

TEXT = (
    "PRESIDING COMMISSIONER HARTWELL: Good morning, Mr. Delgado.\n"
    "INMATE DELGADO: Good morning. I wrote to the zorblat office.\n"
    "PRESIDING COMMISSIONER HARTWELL: Thank you, Mr. Delgado. The zorblat office replied.\n"
    "INMATE DELGADO: The zorblat office is in Fresno. Ask Mr. Delgado Senior.\n"
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def layout_of(text: str) -> list[list[int]]:
    """Two printed lines per page, numbered from 10 (a transcript's line numbers
    are not the text's)."""
    layout, start = [], 0
    for i, line in enumerate(text.split("\n")[:-1]):
        layout.append([start, start + len(line), i // 2 + 1, 10 + i % 2])
        start += len(line) + 1
    return layout


def open_as(browser: Browser, live_server, username: str, document: Document, query: str = "") -> Page:
    # bypass_csp: Playwright's wait_for_function evaluates strings, which the
    # site's policy forbids (the policy is tested in test_hardening_browser.py).
    page = browser.new_context(bypass_csp=True).new_page()
    page.set_default_timeout(15_000)
    page.goto(f"{live_server.url}/documents/{document.pk}/{query}")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", "s3cret-pass")
    page.press("input[name=password]", "Enter")
    page.wait_for_selector("#text-body")
    page.wait_for_function("window.htmx !== undefined")
    return page


def settled(page: Page) -> None:
    page.wait_for_function("!document.querySelector('.htmx-request, .htmx-settling, .htmx-swapping')")


@pytest.fixture
def users(corpus):
    User = get_user_model()
    made = {}
    for name, role in (("kim", Role.REVIEWER), ("boss", Role.ADMIN)):
        made[name] = User.objects.create_user(name, password="s3cret-pass")
        CorpusMembership.objects.create(corpus=corpus, user=made[name], role=role)
    return made


def add_spans(document: Document) -> None:
    for needle, label, score in (("HARTWELL", "PERSON", 0.9), ("Delgado", "PERSON", 0.85), ("Fresno", "LOCATION", 0.5)):
        at = TEXT.find(needle)
        while at >= 0:
            Span.objects.create(
                document=document,
                start=at,
                end=at + len(needle),
                label=label,
                text=needle,
                score=score,
                sources=["spacy"],
            )
            at = TEXT.find(needle, at + 1)


@pytest.fixture
def document(corpus, users):
    document = Document.objects.create(
        corpus=corpus, name="hearing.txt", sha256="h", text=TEXT, layout=layout_of(TEXT), status="ready"
    )
    add_spans(document)
    return document


# --- 1. the page refreshes itself when the machine pass ends ---------------------------------


def test_the_page_refreshes_itself_when_re_annotation_finishes(live_server, browser, document):
    run = AnnotationRun.objects.create(document=document, kind="reannotate", status="running", done=1, total=4)
    page = open_as(browser, live_server, "kim", document)
    page.wait_for_selector("#annotation-running >> text=Re-annotation in progress (25%)")
    assert page.locator("#text-body mark").count() == 6
    # The pass moves on: the notice follows it without a reload.
    AnnotationRun.objects.filter(pk=run.pk).update(done=3)
    page.wait_for_selector("#annotation-running >> text=Re-annotation in progress (75%)")
    page.evaluate("window.__same_page = true")
    fresno = Span.objects.get(document=document, text="Fresno")
    page.click(f"#span-{fresno.pk}")  # the reviewer is looking at a span meanwhile
    page.wait_for_selector("#panel >> text=Selected span")
    # It finishes with a new span: the page reloads by itself and shows it.
    Span.objects.create(
        document=document,
        start=TEXT.find("zorblat office"),
        end=TEXT.find("zorblat office") + 14,
        label="ORGANIZATION",
        text="zorblat office",
        score=0.7,
        sources=["spacy"],
    )
    AnnotationRun.objects.filter(pk=run.pk).update(status="done", done=4)
    page.wait_for_selector("#text-body mark[data-label=ORGANIZATION]")
    assert page.locator("#annotation-running").count() == 0
    assert page.evaluate("window.__same_page === undefined")  # a real reload
    # ... which comes back to the span the reviewer had open.
    page.wait_for_selector(f"#decide-form[data-span-id='{fresno.pk}']")


def test_a_document_still_being_annotated_shows_its_spans_when_ready(live_server, browser, corpus, users):
    document = Document.objects.create(corpus=corpus, name="new.txt", sha256="n", text=TEXT, status="annotating")
    page = open_as(browser, live_server, "kim", document)
    page.wait_for_selector("#annotation-running >> text=this page refreshes itself")
    assert page.locator("#text-body mark").count() == 0
    add_spans(document)
    Document.objects.filter(pk=document.pk).update(status="ready")
    page.wait_for_function("document.querySelectorAll('#text-body mark').length === 6")
    assert page.locator("#annotation-running").count() == 0


# --- 2. the focus is never trapped ---------------------------------------------------------


def test_keys_work_again_after_the_apply_to_all_checkbox(live_server, browser, document):
    page = open_as(browser, live_server, "kim", document)
    page.keyboard.press("j")  # HARTWELL
    page.wait_for_selector("#panel >> text=Also 1 other pending occurrence of “HARTWELL”")
    settled(page)
    page.keyboard.press("j")  # the first Delgado
    page.wait_for_selector("#panel >> text=Also 2 other pending occurrences of “Delgado”")
    settled(page)
    first = Span.objects.filter(document=document, text="Delgado").order_by("start").first()
    hartwell = list(Span.objects.filter(document=document, text="HARTWELL").order_by("start"))
    page.click("#apply-all")  # untick: this occurrence only
    assert not page.locator("#apply-all").is_checked()
    settled(page)
    page.keyboard.press("a")  # still a shortcut: accepts the one span
    page.wait_for_selector("#panel >> text=Accept: “Delgado”.")
    assert list(Span.objects.filter(document=document, text="Delgado").values_list("status", flat=True)) == [
        "accepted",
        "pending",
        "pending",
    ]
    first.refresh_from_db()
    assert first.status == "accepted"
    # Space on the checkbox itself, then r: the second Delgado alone is rejected.
    settled(page)
    page.keyboard.press("j")  # the second HARTWELL
    page.wait_for_selector(f"#decide-form[data-span-id='{hartwell[1].pk}']")
    settled(page)
    page.keyboard.press("j")
    page.wait_for_selector("#panel >> text=Also 1 other pending occurrence of “Delgado”")
    # Until the swap has settled, the page hands the focus back to the span
    # (htmx:afterSettle): a focus given earlier would be taken away, and the
    # space would open the span instead of unticking the box.
    settled(page)
    page.focus("#apply-all")
    page.keyboard.press("Space")
    settled(page)
    assert not page.locator("#apply-all").is_checked()
    page.keyboard.press("r")
    page.wait_for_selector("#panel >> text=Reject: “Delgado”.")
    assert Span.objects.filter(document=document, text="Delgado", status="rejected").count() == 1


# --- 3. an approved document is read-only ---------------------------------------------------


def test_an_approved_document_offers_no_edit_control(live_server, browser, document):
    Span.objects.filter(document=document).update(status="accepted")
    Document.objects.filter(pk=document.pk).update(status="reviewed")
    page = open_as(browser, live_server, "boss", document)
    assert page.locator("#bulk-form").count() == 1
    page.click("#approve")
    # Approving reloads the page read-only, with the reason.
    page.wait_for_selector("#read-only-note >> text=This document is approved")
    for selector in ("#undo-button", "#bulk-form", "#add-panel", ".entity-actions button", ".group-actions button"):
        assert page.locator(selector).count() == 0, selector
    page.click(f"#span-{document.spans.first().pk}")
    page.wait_for_selector("#panel >> text=Selected span")
    assert page.locator("#decide-form, #panel button").count() == 0
    before = ReviewEvent.objects.count()
    for key in ("a", "r", "u", "2", "]"):
        page.keyboard.press(key)
    settled(page)
    assert ReviewEvent.objects.count() == before
    assert set(Span.objects.filter(document=document).values_list("status", flat=True)) == {"accepted"}


# --- 4. states without colour, label colours distinct and readable ---------------------------


def srgb(css: str) -> tuple[float, float, float]:
    """'rgb(1, 2, 3)' / 'rgba(1, 2, 3, 1)' → channels in 0-1."""
    parts = css[css.index("(") + 1 : css.index(")")].split(",")
    return tuple(int(float(p)) / 255 for p in parts[:3])


def luminance(rgb: tuple[float, float, float]) -> float:
    lin = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def contrast(a: str, b: str) -> float:
    hi, lo = sorted((luminance(srgb(a)), luminance(srgb(b))), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def lab(css: str) -> tuple[float, float, float]:
    r, g, b = (c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in srgb(css))
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(v: float) -> float:
        return v ** (1 / 3) if v > 0.008856 else 7.787 * v + 16 / 116

    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def delta_e(a: str, b: str) -> float:
    return sum((p - q) ** 2 for p, q in zip(lab(a), lab(b), strict=True)) ** 0.5


# One mark per label and status, styled by the page's own stylesheets.
RENDER = """(labels) => {
    const body = document.getElementById('text-body');
    const out = {};
    for (const status of ['pending', 'accepted', 'rejected', 'filtered', 'muted']) {
        for (const label of labels) {
            const m = document.createElement('mark');
            m.className = 'span st-' + status;
            m.dataset.label = label;
            m.textContent = 'Sample';
            body.appendChild(m);
            const s = getComputedStyle(m), tag = getComputedStyle(m, '::after');
            out[status + ':' + label] = {
                color: s.color, background: s.backgroundColor, weight: s.fontWeight,
                border: s.borderBottomStyle, borderColor: s.borderBottomColor, borderWidth: s.borderBottomWidth,
                decoration: s.textDecorationLine, style: s.fontStyle,
                tag: tag.content, tagColor: tag.color,
            };
            m.remove();
        }
    }
    return out;
}"""


def test_span_states_differ_without_colour_and_label_colours_are_distinct_at_aa(live_server, browser, document):
    page = open_as(browser, live_server, "kim", document)
    styles = page.evaluate(RENDER, list(CANONICAL_LABELS))
    white = "rgb(255, 255, 255)"  # the text panel's background, under a transparent mark
    for label in CANONICAL_LABELS:
        pending, accepted = styles[f"pending:{label}"], styles[f"accepted:{label}"]
        rejected, filtered = styles[f"rejected:{label}"], styles[f"filtered:{label}"]
        # A filtered candidate in the text (st-muted) looks as on the history page:
        # it looked like a pending span (a dashed line in the text's colour).
        muted = styles[f"muted:{label}"]
        assert muted == filtered, (label, muted, filtered)
        # Without colour: the underline's style, the weight, a ✓, the strike-through.
        assert pending["border"] == "dashed" and pending["weight"] == "400", label
        assert accepted["border"] == "solid" and int(accepted["weight"]) >= 700, label
        assert "✓" in accepted["tag"] and "✓" not in pending["tag"], label
        assert float(accepted["borderWidth"][:-2]) > float(pending["borderWidth"][:-2]), label
        assert "line-through" in rejected["decoration"] and "line-through" not in pending["decoration"], label
        assert filtered["border"] == "dotted" and filtered["style"] == "italic", label
        assert (
            len(
                {
                    (s["border"], s["weight"], s["decoration"], s["style"])
                    for s in (pending, accepted, rejected, filtered)
                }
            )
            == 4
        )
        # AA: the text and the label tag on the label's background, in every state.
        for state in (pending, accepted):
            assert contrast(state["color"], state["background"]) >= 4.5, (label, state)
            assert contrast(state["tagColor"], state["background"]) >= 4.5, (label, state)
        for state in (rejected, filtered):  # transparent: on the panel's white
            assert state["background"] == "rgba(0, 0, 0, 0)", label
            assert contrast(state["color"], white) >= 4.5, (label, state)
            assert contrast(state["tagColor"], white) >= 4.5, (label, state)
    # Every pair of labels differs well beyond a glance (CIE76 ΔE ≥ 20) by its
    # background alone and by its accent alone.
    looks = {
        label: (styles[f"pending:{label}"]["background"], styles[f"pending:{label}"]["borderColor"])
        for label in CANONICAL_LABELS
    }
    assert len(set(looks.values())) == len(CANONICAL_LABELS)
    for a, b in itertools.combinations(CANONICAL_LABELS, 2):
        assert delta_e(looks[a][0], looks[b][0]) >= 20, (a, b, looks[a], looks[b])
        assert delta_e(looks[a][1], looks[b][1]) >= 20, (a, b, looks[a], looks[b])
    # LOCATION and HEIGHT, the pair the issue names, apart in both colours.
    assert looks["LOCATION"] != looks["HEIGHT"]
    # The legend has an entry for filtered candidates, drawn as they are.
    entry = page.locator("#legend .legend-status.st-muted")
    assert entry.inner_text() == "filtered"
    drawn = entry.evaluate(
        "e => { const s = getComputedStyle(e); return [s.borderBottomStyle, s.fontStyle, s.color]; }"
    )
    assert drawn == ["dotted", "italic", styles["muted:PERSON"]["color"]]


# --- 5. the side panel acts on an entity or a label, with counts, undo and page:line ----------


def test_entity_and_label_actions_with_counts_undo_and_page_lines(live_server, browser, document):
    page = open_as(browser, live_server, "kim", document)
    delgado = list(Span.objects.filter(document=document, text="Delgado").order_by("start"))
    # page:line, not offsets.
    page.click("#entity-list .entities summary >> text=Delgado")
    links = page.locator(f"#entity-list a.occ[data-span-id='{delgado[2].pk}']")
    assert links.inner_text().startswith("p2:11 · pending")
    assert page.locator("#entity-list a.occ", has_text="@").count() == 0
    entity = page.locator("#entity-list .entities > li", has=page.locator(".entity-text", has_text="Delgado"))
    entity.locator("button.accept", has_text="Accept 3").click()
    page.wait_for_selector("#panel >> text=Accepted 3 pending spans of “Delgado” (PERSON).")
    page.wait_for_function("document.querySelectorAll('#text-body mark.st-accepted').length === 3")
    assert {s.status for s in Span.objects.filter(document=document, text="Delgado")} == {"accepted"}
    # The whole entity is one step: u undoes all three.
    page.wait_for_selector("button:has-text('Accept all PERSON (2)')")
    settled(page)
    page.keyboard.press("u")
    page.wait_for_selector("#panel >> text=Undone: accept (3 spans).")
    page.wait_for_function("document.querySelectorAll('#text-body mark.st-pending').length === 6")
    # A whole label: its count, then one step.
    page.click("button:has-text('Reject all (5)')")
    page.wait_for_selector("#panel >> text=Rejected 5 pending spans of the PERSON group.")
    page.wait_for_function("document.querySelectorAll('#text-body mark.st-rejected').length === 5")
    assert Span.objects.filter(document=document, label="PERSON", status="rejected").count() == 5
    assert ReviewEvent.objects.filter(action="reject", user__username="kim").values("bulk_id").distinct().count() == 1
    settled(page)
    page.keyboard.press("u")
    page.wait_for_selector("#panel >> text=Undone: reject (5 spans).")
    assert Span.objects.filter(document=document, status="pending").count() == 6


# --- 6. a reload returns to the same place --------------------------------------------------


def long_text() -> str:
    """A transcript long enough to scroll: 200 lines, Delgado named on some."""
    lines = []
    for i in range(200):
        name = "Mr. Delgado" if i % 20 == 7 else "the witness"
        lines.append(f"PRESIDING COMMISSIONER HARTWELL: Line {i}: we asked {name} about the record.")
    return "\n".join(lines) + "\n"


def test_a_reload_returns_to_the_span_the_scroll_and_the_filters(live_server, browser, corpus, users):
    text = long_text()
    document = Document.objects.create(corpus=corpus, name="long.txt", sha256="l", text=text, status="ready")
    for needle, label, score in (("HARTWELL", "PERSON", 0.9), ("Delgado", "PERSON", 0.5)):
        at = text.find(needle)
        while at >= 0:
            Span.objects.create(
                document=document,
                start=at,
                end=at + len(needle),
                label=label,
                text=needle,
                score=score,
                sources=["spacy"],
            )
            at = text.find(needle, at + 1)
    target = Span.objects.filter(document=document, text="Delgado").order_by("start")[5]
    page = open_as(browser, live_server, "kim", document)
    # Filters: pending only, scores below 0.6 (pushed to the URL).
    page.check("#filters input[name=pending]")
    page.fill("#filters input[name=below]", "0.6")
    page.press("#filters input[name=below]", "Enter")
    page.wait_for_function("location.search.includes('below=0.6') && location.search.includes('pending=on')")
    page.wait_for_function("document.querySelectorAll('#entity-list a.occ').length === 10")
    settled(page)  # the change and the submit each re-render the list
    # Open a span deep in the text from the side panel, then scroll a bit further.
    page.click("#entity-list .entities summary >> text=Delgado")
    page.click(f"#entity-list a.occ[data-span-id='{target.pk}']")
    page.wait_for_selector("#panel >> text=Selected span")
    page.wait_for_function(f"location.hash === '#span-{target.pk}'")
    page.mouse.wheel(0, 300)
    # The scroll position is saved as it changes (debounced): wait until what is
    # stored is where the page is.
    page.wait_for_function(
        """() => { const saved = JSON.parse(sessionStorage.getItem('review-place:' + location.pathname) || 'null');
                   return saved !== null && window.scrollY > 1000 && saved.y === window.scrollY; }"""
    )
    scroll = page.evaluate("window.scrollY")
    assert scroll > 1000
    # Where the span is on the screen: the place a reload must come back to. Not
    # scrollY: the blocks of text off the screen have a guessed height until drawn
    # (content-visibility), so the same text can be at another scrollY.
    where = f"document.getElementById('span-{target.pk}').getBoundingClientRect().top"
    on_screen = page.evaluate(where)
    page.reload()
    page.wait_for_selector("#text-body")
    # The same span open and focused, the same scroll, the same filters.
    page.wait_for_selector("#panel >> text=Selected span")
    page.wait_for_function(f"document.querySelector('#decide-form').dataset.spanId === '{target.pk}'")
    page.wait_for_function(f"document.activeElement && document.activeElement.id === 'span-{target.pk}'")
    page.wait_for_function("() => new Promise((done) => requestAnimationFrame(() => setTimeout(() => done(true), 0)))")
    assert abs(page.evaluate(where) - on_screen) <= 2
    assert page.evaluate("window.scrollY") > 1000
    assert page.is_checked("#filters input[name=pending]")
    assert page.input_value("#filters input[name=below]") == "0.6"
    assert page.locator("#entity-list a.occ").count() == 10
    # And the keys carry on from there: a accepts that span.
    settled(page)
    page.keyboard.press("a")
    page.wait_for_selector("#panel >> text=Accept: “Delgado”")
    target.refresh_from_db()
    assert target.status == "accepted"
