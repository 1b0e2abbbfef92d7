"""Review page speed on a 100-page transcript (~30k words, ~1,500 spans; BENCH_PAGES=500:
~150k words, ~7,500 spans).

    BENCH_PAGES=500 BENCH_REPEATS=9 .venv/bin/python bench/bench_review.py

Builds the document in a scratch database (a temporary SQLite file by default, or
BENCH_DATABASE_URL, e.g. postgres://postgres@127.0.0.1:5432/bench_review, which
must exist and may be migrated), then measures server-side time through Django's
test client (middleware, view, template; no network): the median of REPEATS page
renders and their query count, the same for the span panel the next-span key
opens, and for one decision round trip with apply-to-all over every occurrence
of a name (21 on 100 pages, ~104 on 500) with the size of its answer (then one
reject, one relabel and one add, each with apply-to-all). Then reviewer effort on a 30-page transcript with
repeated names: the actions needed to leave no span pending with apply-to-all
(one decision per distinct name; every 8th name is rejected as not identifying),
against one action per span.
"""

import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
SCRATCH = tempfile.mkdtemp(prefix="bench-review-")
os.environ["DATABASE_URL"] = os.environ.get("BENCH_DATABASE_URL", f"sqlite:///{SCRATCH}/bench.sqlite3")
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "anonymizer_site.settings")
os.environ.setdefault("ANONYMIZER_VAR_DIR", SCRATCH)
REPEATS = int(os.environ.get("BENCH_REPEATS", "9"))
# 100 pages: ~1,500 spans; 500 pages (issue 29's long transcript): ~7,500.
PAGES = int(os.environ.get("BENCH_PAGES", "100"))

import django  # noqa: E402

django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402
from django.urls import reverse  # noqa: E402

from ingestion.models import Corpus  # noqa: E402
from review.models import CorpusMembership, Role, Span, SpanStatus  # noqa: E402
from review.services.decisions import span_accept, span_reject  # noqa: E402
from tests.review.test_decision_views import NAMES, make_big_document  # noqa: E402

CPU: dict[str, list[float]] = {}  # the process's CPU ms per timed call, by what was timed


def timed(fn, what: str = "") -> tuple[float, int]:
    with CaptureQueriesContext(connection) as queries:
        started, cpu = time.perf_counter(), time.process_time()
        fn()
        elapsed = (time.perf_counter() - started) * 1000
        CPU.setdefault(what, []).append((time.process_time() - cpu) * 1000)
    return elapsed, len(queries)


def main() -> None:
    call_command("migrate", verbosity=0)
    corpus = Corpus.objects.create(name=f"bench-review-{os.getpid()}")
    user = get_user_model().objects.create_user(f"bench-{os.getpid()}", password="x")
    CorpusMembership.objects.create(corpus=corpus, user=user, role=Role.REVIEWER)
    try:
        document = make_big_document(corpus, pages=PAGES)
        words, spans = len(document.text.split()), document.spans.count()
        client = Client()
        client.force_login(user)
        url = reverse("document_review", args=[document.pk])
        client.get(url)  # warm up templates and URL resolvers
        page = [timed(lambda: client.get(url), "page") for _ in range(REPEATS)]
        firsts = list(Span.objects.filter(document=document).order_by("start")[:REPEATS])
        panels = [
            timed(lambda s=s: client.get(reverse("span_panel", args=[s.pk]), HTTP_HX_REQUEST="true"), "panel")
            for s in firsts
        ]
        decisions, answers = [], []
        for name in NAMES[:REPEATS]:
            span = Span.objects.filter(document=document, text=name).first()
            decide = reverse("span_decide", args=[span.pk, "accept"])
            answer = []
            decisions.append(
                timed(
                    lambda d=decide, v=span.version, a=answer: a.append(
                        client.post(d, {"version": v}, HTTP_HX_REQUEST="true")
                    ),
                    "decision",
                )
            )
            answers.append(len(answer[0].content))
        # One of each other kind of decision (a single run each, so noisier).
        others = {}
        for action, name, data in [
            ("reject", NAMES[REPEATS], {"reason": "public_official"}),
            ("relabel", NAMES[REPEATS + 1], {"label": "ORGANIZATION"}),
        ]:
            span = Span.objects.filter(document=document, text=name).first()
            decide = reverse("span_decide", args=[span.pk, action])
            others[action] = timed(lambda d=decide, v=span.version, x=data: client.post(d, {"version": v, **x}))
        at = document.text.index("board")
        add = reverse("span_create", args=[document.pk])
        others["add"] = timed(lambda: client.post(add, {"start": at, "end": at + 5, "label": "ORGANIZATION"}))
        added = Span.objects.filter(document=document, text="board").count()
        print(
            f"database: {connection.vendor}; document: {words} words, {spans} spans; "
            f"load average {os.getloadavg()[0]:.1f}"
        )
        print(
            f"review page: median {statistics.median(t for t, _ in page):.0f} ms "
            f"(min {min(t for t, _ in page):.0f}, max {max(t for t, _ in page):.0f}) over {REPEATS}, "
            f"{page[0][1]} queries"
        )
        print(
            f"span panel (the next-span key): median {statistics.median(t for t, _ in panels):.0f} ms "
            f"over {REPEATS}, {panels[0][1]} queries"
        )
        occurrences = Span.objects.filter(document=document, text=NAMES[0]).count()
        print(
            f"decision (accept + apply-to-all over {occurrences} occurrences): median "
            f"{statistics.median(t for t, _ in decisions):.0f} ms over {REPEATS}, answer "
            f"{statistics.median(answers) / 1000:.0f} kB, {decisions[0][1]} queries "
            + (
                "(the write is one statement, no transaction)"
                if connection.vendor == "postgresql"
                else "(including the transaction's BEGIN and COMMIT)"
            )
        )
        print(
            "other decisions (one run each; an add re-renders the text): "
            f"reject with a reason over {occurrences} occurrences {others['reject'][0]:.0f} ms, "
            f"{others['reject'][1]} queries; "
            f"relabel over {occurrences} {others['relabel'][0]:.0f} ms, {others['relabel'][1]} queries; "
            f"add over {added} occurrences {others['add'][0]:.0f} ms, {others['add'][1]} queries"
        )
        print(
            "CPU of the process, median ms (what the load does not change): "
            + ", ".join(f"{what} {statistics.median(ms):.0f}" for what, ms in CPU.items() if what)
        )
        print(effort(corpus, user))
    finally:
        corpus.delete()
        user.delete()


def effort(corpus: Corpus, user) -> str:
    document = make_big_document(corpus, pages=30)
    Span.objects.filter(document=document).update(status=SpanStatus.PENDING)
    spans = document.spans.count()
    actions = 0
    while True:
        span = document.spans.filter(status=SpanStatus.PENDING).select_related("document").order_by("start").first()
        if span is None:
            break
        if NAMES.index(span.text) % 8 == 0:
            span_reject(span=span, user=user, reason="not_identifying")
        else:
            span_accept(span=span, user=user)
        actions += 1
    return (
        f"reviewer effort (30 pages, {spans} spans): {actions} actions with apply-to-all = "
        f"{actions / spans:.3f} actions per span (one action per span: 1.000)"
    )


if __name__ == "__main__":
    main()
