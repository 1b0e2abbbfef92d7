"""Shared by the browser tests: Debian's Chromium, launched as the machines allow,
and a real mouse-drag text selection."""

from playwright.sync_api import Browser, Page, Playwright

CHROMIUM = "/usr/bin/chromium"
# Without the background-networking flags Chromium tries to reach Google's hosts,
# which this network refuses; --no-sandbox because tests run as root.
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]


def launch(playwright: Playwright) -> Browser:
    return playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)


def select_text(page: Page, needle: str) -> None:
    """Drag the mouse across the first occurrence of `needle` in the transcript."""
    box = page.evaluate(
        """(needle) => {
            const walker = document.createTreeWalker(document.getElementById('text-body'), NodeFilter.SHOW_TEXT);
            let node;
            while ((node = walker.nextNode())) {
                const at = node.textContent.indexOf(needle);
                if (at >= 0) {
                    node.parentElement.scrollIntoView({block: 'center'});
                    const range = document.createRange();
                    range.setStart(node, at);
                    range.setEnd(node, at + needle.length);
                    const r = range.getClientRects()[0];
                    return {x0: r.left + 1, x1: r.right - 1, y: r.top + r.height / 2};
                }
            }
            return null;
        }""",
        needle,
    )
    assert box, needle
    page.mouse.move(box["x0"], box["y"])
    page.mouse.down()
    page.mouse.move(box["x1"], box["y"], steps=5)
    page.mouse.up()
