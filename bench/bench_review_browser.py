"""Review page in the browser on a long transcript (issue 29, item 4): a 500-page
transcript (~7,500 spans; BENCH_PAGES), served by Django's live-server thread
over loopback from a scratch SQLite file, in Debian's headless Chromium
(Playwright, /usr/bin/chromium).

    .venv/bin/python bench/bench_review_browser.py

Measured after one warm-up, as medians over BENCH_REPEATS (default 21) steps
of `j` then `a`, each waited for until its panel and the server's confirmation
are in (so no step queues behind the last):

- load: navigation start to the page's `load` event, median of BENCH_LOADS (3);
- next, focused: `j` pressed to the next pending span focused (client-side);
- next, panel: `j` pressed to that span's panel shown (one GET);
- decide, shown: `a` pressed to the span's mark shown accepted (optimistic,
  static/review/review.js: before the server answers; before that change, only
  with the answer);
- decide, confirmed: `a` pressed to the mark's data-version changed (the
  server's answer applied: the span and its other occurrences accepted, their
  events and the document's dashboard counts written);
- next + decide: focused + shown, the reviewer's step. Target (issue 29) ≤ 50 ms.
- burst (BENCH_BURST pairs, default 10; 0: off): `j` and `a` pressed as soon
  as the last one shows, without waiting for the server: the shown time of each
  `a`, and the time until every decision is confirmed.

Each time runs in the page: from a capture keydown listener on window
(performance.now()) to the frame after the condition first holds
(requestAnimationFrame, then a task: the frame is drawn), the condition being
checked after the page's own key handlers, on every DOM change and focus move.
Playwright's own round trips are not in them.

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
REPEATS = int(os.environ.get("BENCH_REPEATS", "21"))
LOADS = int(os.environ.get("BENCH_LOADS", "3"))
BURST = int(os.environ.get("BENCH_BURST", "10"))
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

# Times from the key (a capture listener on window: before the page's own
# handlers) to a condition on the page: `state`, when it first holds (checked
# after the page's handlers, on every DOM change and focus move); `painted`,
# the frame after that (requestAnimationFrame, then a task: the frame is drawn).
WATCH = """(conds) => {
    window.__pressed = undefined;
    window.addEventListener("keydown", () => { window.__pressed = performance.now(); }, {capture: true, once: true});
    const mark = document.activeElement;
    const version = mark && mark.dataset ? mark.dataset.version : undefined;
    const tests = {
        moved: () => { const m = document.activeElement; return m !== mark && m.matches("mark.st-pending"); },
        panel: () => { const f = document.querySelector("#decide-form"); const m = document.activeElement;
                       return m !== mark && f && m.dataset && f.dataset.spanId === m.dataset.spanId; },
        shown: () => mark.classList.contains("st-accepted"),
        confirmed: () => mark.dataset.version !== version,
    };
    window.__watch = Object.fromEntries(conds.map((name) => [name, new Promise((resolve) => {
        let hit = null;
        const check = () => {
            if (hit !== null || window.__pressed === undefined || !tests[name]()) return;
            hit = performance.now();
            observer.disconnect();
            requestAnimationFrame(() => setTimeout(() => resolve({state: hit - window.__pressed,
                                                                  painted: performance.now() - window.__pressed}), 0));
        };
        const observer = new MutationObserver(check);
        observer.observe(document.body, {attributes: true, childList: true, subtree: true});
        document.addEventListener("focusin", check);
        window.addEventListener("keydown", check, {once: true});
    })]));
}"""


def press(page, key: str, *conds: str) -> dict[str, float]:
    """Press `key`; the times of each condition ({state, painted}), in ms."""
    page.evaluate(WATCH, list(conds))
    page.keyboard.press(key)
    return {name: page.evaluate(f"window.__watch.{name}") for name in conds}


def burst(page, pairs: int) -> tuple[list[float], float]:
    """`pairs` times j then a, each pressed as soon as the last one shows (no
    wait for the server): the shown time of each a, and the time from the first
    key until every decision is confirmed (the queue drained)."""
    shown = []
    started = time.perf_counter()
    for _ in range(pairs):
        press(page, "j", "moved")
        shown.append(press(page, "a", "shown")["shown"]["painted"])
    page.wait_for_function(
        "!document.querySelector('#decision-status') ? !document.querySelector('#panel .htmx-request')"
        " : document.querySelector('#decision-status').dataset.pending === '0'"
    )
    page.wait_for_function("document.querySelectorAll('#text-body mark[data-saving]').length === 0")
    return shown, (time.perf_counter() - started) * 1000


def report(moved, panel, shown, confirmed, steps, sync, burst_shown, burst_total) -> None:
    print(f"{REPEATS} steps (j then a, each waited for the panel and the server's confirmation):")

    def line(name: str, values: list[float], digits: int = 1) -> None:
        print(
            f"  {name}: median {statistics.median(values):.{digits}f} ms "
            f"(min {min(values):.{digits}f}, max {max(values):.{digits}f})"
        )

    line("next (j) to the next pending span focused", moved)
    line("next (j) to its panel shown", panel, 0)
    line("decide (a) to the marks shown", shown)
    line("decide (a) to the server's confirmation", confirmed, 0)
    line("next + decide (focused + shown)", steps)
    line("next + decide, in the DOM (before the frame is drawn)", sync)
    verdict = "within" if statistics.median(steps) <= TARGET_MS else "over"
    print(f"  next + decide: {verdict} the {TARGET_MS} ms target")
    if BURST:
        print(f"burst of {BURST} j+a pairs without waiting for the server (confirmed after {burst_total:.0f} ms):")
        line("decide (a) to the marks shown", burst_shown)


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
        for _ in range(LOADS + 1):
            started = time.perf_counter()
            page.reload(wait_until="load")
            loads.append((time.perf_counter() - started) * 1000)
            page.wait_for_function("window.htmx !== undefined")
        page.wait_for_selector("#text-body mark")
        press(page, "j", "moved", "panel")  # warm-up: the first span and a decision
        press(page, "a", "shown", "confirmed")
        moved, panel, shown, confirmed, steps, sync = [], [], [], [], [], []
        for _ in range(REPEATS):
            j = press(page, "j", "moved", "panel")
            a = press(page, "a", "shown", "confirmed")
            moved.append(j["moved"]["painted"])
            panel.append(j["panel"]["painted"])
            shown.append(a["shown"]["painted"])
            confirmed.append(a["confirmed"]["painted"])
            steps.append(j["moved"]["painted"] + a["shown"]["painted"])
            sync.append(j["moved"]["state"] + a["shown"]["state"])
        burst_shown, burst_total = burst(page, BURST) if BURST else ([], 0.0)
        browser.close()
    server.terminate()
    load = os.getloadavg()[0]
    print(
        f"document: {PAGES} pages, {words:,} words, {spans:,} spans; SQLite; TCP_NODELAY {'on' if NODELAY else 'off'}; "
        f"load average {load:.1f}"
    )
    print(f"page load: median {statistics.median(loads[1:]):.0f} ms over {LOADS}")
    report(moved, panel, shown, confirmed, steps, sync, burst_shown, burst_total)


if __name__ == "__main__":
    main()
