"""Review page in the browser on a long transcript (issue 29, item 4): a 500-page
transcript (~7,500 spans; BENCH_PAGES), served by Django's live-server thread
over loopback from a scratch SQLite file, in Debian's headless Chromium
(Playwright, /usr/bin/chromium).

    .venv/bin/python bench/bench_review_browser.py

Measured, each as the median of BENCH_REPEATS (default 9) after one warm-up:

- load: navigation start to the page's `load` event (the server's render, the
  transfer, parsing and the scripts);
- next: `j` pressed to the next span focused and its panel swapped in and
  settled (one GET of the span's panel);
- decide: `a` pressed to the decision's answer swapped in and settled (one POST:
  the span and its other occurrences accepted, their events and the document's
  dashboard counts written);
- next + decide: the two above back to back, the reviewer's step.

Times are taken in the page (performance.now() from the key event to htmx's
afterSettle on the panel), so Playwright's own round trips are not in them.
Target (issue 29): next + decide ≤ 50 ms.

BENCH_NODELAY=1 serves with TCP_NODELAY: Django's live server writes a response
in several sends without it, and the client's delayed ACK then holds each
response ~40 ms on loopback (a plain COUNT request: 71 ms without, 14 ms with);
a production server sets it.
"""

import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
SCRATCH = tempfile.mkdtemp(prefix="bench-review-browser-")
os.environ["DATABASE_URL"] = f"sqlite:///{SCRATCH}/bench.sqlite3"
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "anonymizer_site.settings")
os.environ.setdefault("ANONYMIZER_VAR_DIR", SCRATCH)
PAGES = int(os.environ.get("BENCH_PAGES", "500"))
REPEATS = int(os.environ.get("BENCH_REPEATS", "9"))
NODELAY = os.environ.get("BENCH_NODELAY") == "1"
TARGET_MS = 50

import django  # noqa: E402

django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.contrib.staticfiles.handlers import StaticFilesHandler  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.test.testcases import LiveServerThread  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402

from ingestion.models import Corpus  # noqa: E402
from review.models import CorpusMembership, Role  # noqa: E402
from review.services import dashboard_counts  # noqa: E402
from tests.browser_support import launch  # noqa: E402
from tests.review.test_decision_views import make_big_document  # noqa: E402

# Resolves when the panel has settled after the current key; records the time.
WATCH = """() => {
    window.__settled = new Promise((resolve) => {
        const done = (e) => {
            if (!e.detail.target || e.detail.target.id !== "panel") return;
            document.body.removeEventListener("htmx:afterSettle", done);
            resolve(performance.now() - window.__pressed);
        };
        document.body.addEventListener("htmx:afterSettle", done);
    });
    document.addEventListener("keydown", () => { window.__pressed = performance.now(); }, {capture: true, once: true});
}"""


def press(page, key: str) -> float:
    page.evaluate(WATCH)
    page.keyboard.press(key)
    return page.evaluate("window.__settled")


def main() -> None:
    call_command("migrate", verbosity=0)
    corpus = Corpus.objects.create(name="bench-review-browser")
    user = get_user_model().objects.create_user("bench", password="s3cret-pass-long")
    CorpusMembership.objects.create(corpus=corpus, user=user, role=Role.REVIEWER)
    document = make_big_document(corpus, pages=PAGES)
    dashboard_counts.rebuild(corpus.pk)  # written in bulk, counted as the writer would
    spans, words = document.spans.count(), len(document.text.split())
    if NODELAY:
        from django.core.servers.basehttp import WSGIRequestHandler

        WSGIRequestHandler.disable_nagle_algorithm = True
    server = LiveServerThread("127.0.0.1", StaticFilesHandler, port=0)
    server.daemon = True
    server.start()
    server.is_ready.wait()
    if server.error:
        raise server.error
    base = f"http://127.0.0.1:{server.port}"
    with sync_playwright() as playwright:
        browser = launch(playwright)
        page = browser.new_context(bypass_csp=True).new_page()
        page.set_default_timeout(60_000)
        page.goto(f"{base}/documents/{document.pk}/")
        page.fill("input[name=username]", "bench")
        page.fill("input[name=password]", "s3cret-pass-long")
        page.press("input[name=password]", "Enter")
        page.wait_for_selector("#text-body")
        loads = []
        for _ in range(REPEATS + 1):
            started = time.perf_counter()
            page.reload(wait_until="load")
            loads.append((time.perf_counter() - started) * 1000)
            page.wait_for_function("window.htmx !== undefined")
        page.wait_for_selector("#text-body mark")
        nexts, decides, steps = [], [], []
        press(page, "j")  # warm-up: the first span and a decision
        press(page, "a")
        for _ in range(REPEATS):
            moved = press(page, "j")
            decided = press(page, "a")
            nexts.append(moved)
            decides.append(decided)
            steps.append(moved + decided)
        browser.close()
    server.terminate()
    load = os.getloadavg()[0]
    print(
        f"document: {PAGES} pages, {words:,} words, {spans:,} spans; SQLite; TCP_NODELAY {'on' if NODELAY else 'off'}; "
        f"load average {load:.1f}"
    )
    print(f"page load: median {statistics.median(loads[1:]):.0f} ms over {REPEATS}")
    print(f"next (j): median {statistics.median(nexts):.0f} ms (max {max(nexts):.0f})")
    print(f"decide (a, apply-to-all): median {statistics.median(decides):.0f} ms (max {max(decides):.0f})")
    verdict = "within" if statistics.median(steps) <= TARGET_MS else "over"
    print(f"next + decide: median {statistics.median(steps):.0f} ms ({verdict} the {TARGET_MS} ms target)")


if __name__ == "__main__":
    main()
