"""One Chromium per browser test module, a fresh context per test.

Launching Chromium costs about 0.8 s; starting it once per module instead of once
per test saves most of that for each test. Each test still gets its own browser
contexts (cookies, storage, cache and permissions are per context), and every
context a test opened is closed when it ends, so no state passes from one test to
the next. One Chromium for the whole package would save about 10 s more; it was not kept
because test_review_page_browser.py's reload test failed then (49 px off the span).
That failure was the page's, with any Chromium: a block of text above the place,
drawn for the first time after the reload, took its real height instead of the
guessed one and moved the text under the screen; review.js now keeps the place
through such changes (`keepPlace`), and the narrower scope stays the cautious one. Playwright's
sync API keeps an event loop in the test thread while it runs: the module scope
stops it after the module, so the rest of the suite runs without it, as before."""

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Playwright, sync_playwright

from tests.browser_support import launch


@pytest.fixture(scope="module")
def _playwright() -> Iterator[Playwright]:
    with sync_playwright() as p:
        yield p


@pytest.fixture(scope="module")
def _chromium(_playwright: Playwright) -> Iterator[list[Browser]]:
    """The module's Chromium, in a list so that a test can put a new one in its
    place if the last one died (see `browser`)."""
    held = [launch(_playwright)]
    yield held
    if held[0].is_connected():
        held[0].close()


@pytest.fixture
def browser(_playwright: Playwright, _chromium: list[Browser]) -> Iterator[Browser]:
    """Debian's Chromium (tests/browser_support.py), shared by the module's tests;
    what a test opens in it is closed after the test."""
    if not _chromium[0].is_connected():  # a crash in an earlier test does not fail the next ones
        _chromium[0] = launch(_playwright)
    shared = _chromium[0]
    assert not shared.contexts, "a context left open by an earlier test"
    yield shared
    for context in shared.contexts:
        context.close()
