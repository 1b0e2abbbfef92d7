"""Pre-annotation on worker hosts: 1 host, then 2, each a network namespace of its
own (tests/netns_hosts.py) with one Celery worker (pool solo) that reaches one
PostgreSQL and one Redis over its veth pair, as a second machine would.

Needs root, `ip`, redis-server and PostgreSQL's initdb (the lab makes and removes
its own namespaces, cluster and Redis; the machine's services are not touched).
Annotates BENCH_DOCS documents (default 40) of about BENCH_DOC_CHARS characters
(default 5,000; slices of the Ferguson grand jury transcript in ../shared),
BENCH_REPEATS times (default 3, alternating the order; 0 skips this part), from the first enqueue
until every document is ready; start-up and model loading are excluded (each
worker first annotates a warm-up document). Each host gets BENCH_CORES_PER_HOST
cores of its own (default 1; `taskset`) and as many encoder threads. Prints seconds and documents/s per
host count (median and best run) and the ratio 2 hosts / 1 host.

Then, with both hosts: the wait of one corpus's single document uploaded right
after another corpus's upload of BENCH_BULK documents (default 1,000).

    sudo .venv/bin/python bench/bench_hosts.py
"""

import os
import statistics
import sys
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from bench_workers import _task_counts, _wait, warm_up  # noqa: E402

from tests.netns_hosts import Host, Lab, texts  # noqa: E402

DOCS = int(os.environ.get("BENCH_DOCS", "40"))
DOC_CHARS = int(os.environ.get("BENCH_DOC_CHARS", "5000"))
REPEATS = int(os.environ.get("BENCH_REPEATS", "3"))
BULK = int(os.environ.get("BENCH_BULK", "1000"))
# Cores per host (default 1 on a machine with at least 2): host n runs on its own
# cores, with as many encoder threads, as a separate machine would. Unpinned (0), one
# host's encoder spreads over every core of this machine and "2 hosts" only adds a
# second Python process on the same cores: the measure would be of this VM, not of
# adding a machine.
CORES_PER_HOST = int(os.environ.get("BENCH_CORES_PER_HOST", "1" if (os.cpu_count() or 1) >= 2 else "0"))


def _run(lab: Lab, count: int, ids: list[int], corpus, warm_text: str) -> tuple[float, list[int]]:
    """Seconds until `count` warmed-up hosts have annotated every document, and how
    many each took."""
    from anonymizer_site.celery import app
    from ingestion.models import Document, DocumentStatus
    from review.tasks import annotate_document

    hosts = lab.hosts[:count]
    for host in hosts:
        lab.start_worker(host, **_pinned_env(host))
    names = [f"{h.name}@{h.address}" for h in hosts]
    try:
        inspector = app.control.inspect(destination=names, timeout=1.0)
        _wait(lambda: len(inspector.ping() or {}) == count, f"{count} host(s) to answer", timeout=180)
        warm_up(corpus, count, warm_text, lambda: all(n >= 1 for n in _task_counts(inspector, names)))
        warmed = _task_counts(inspector, names)
        started = time.monotonic()
        for pk in ids:
            annotate_document.delay(pk)
        _wait(
            lambda: not Document.objects.filter(pk__in=ids, status=DocumentStatus.ANNOTATING).exists(),
            f"{len(ids)} documents on {count} host(s)",
            timeout=1800,
            every=0.05,
        )
        seconds = time.monotonic() - started
        if Document.objects.filter(pk__in=ids, status=DocumentStatus.FAILED).exists():
            raise SystemExit(f"documents failed; see the logs in {lab.logs}")
        return seconds, [a - b for a, b in zip(_task_counts(inspector, names), warmed, strict=True)]
    finally:
        for host in hosts:
            lab.stop_processes(host)


def _pin(lab: Lab) -> None:
    """Give each host CORES_PER_HOST cores of its own (when the machine has them)."""
    cpus = os.cpu_count() or 1
    if not CORES_PER_HOST or CORES_PER_HOST * len(lab.hosts) > cpus:
        return
    for n, host in enumerate(lab.hosts):
        first = n * CORES_PER_HOST
        host.cpus = ",".join(str(c) for c in range(first, first + CORES_PER_HOST))


def _pinned_env(host: Host) -> dict[str, str]:
    """One encoder thread per core of a pinned host; an unpinned host keeps the default."""
    return {"ANONYMIZER_ENCODER_THREADS": str(CORES_PER_HOST)} if host.cpus else {}


def _fairness(lab: Lab) -> None:
    """One corpus uploads BULK documents, another one document right after: how
    long that one waits (created → ready), and how much of the bulk is left."""
    from ingestion.models import Document, DocumentStatus

    for host in lab.hosts[:2]:
        lab.start_worker(host, **_pinned_env(host))
    try:
        bulk = lab.upload(f"bulk-{uuid.uuid4().hex[:6]}", BULK, 300, seed=11)
        (single,) = lab.upload(f"single-{uuid.uuid4().hex[:6]}", 1, 300, seed=12)
        _wait(
            lambda: Document.objects.filter(pk=single, status=DocumentStatus.READY).exists(),
            "the single document",
            timeout=1800,
        )
        document = Document.objects.get(pk=single)
        left = Document.objects.filter(pk__in=bulk).exclude(status=DocumentStatus.READY).count()
        waited = (document.updated_at - document.created_at).total_seconds()
        print(
            f"fairness: a single document uploaded after another corpus's {BULK} waited {waited:.1f} s "
            f"(created → ready); {left} of the {BULK} were still queued or running"
        )
    finally:
        for host in lab.hosts[:2]:
            lab.stop_processes(host)


def main() -> None:
    with Lab(hosts=2) as lab:
        _pin(lab)
        lab.migrate()
        os.environ.update(lab.env())
        import django

        django.setup()
        from ingestion.models import Corpus, Document, DocumentStatus
        from review.models import AnnotationRun, DocumentDetection, Span

        corpus = Corpus.objects.create(name=f"bench-hosts {uuid.uuid4().hex[:8]}")
        documents = [
            Document.objects.create(
                corpus=corpus,
                name=f"doc{n:03d}.txt",
                sha256=uuid.uuid4().hex,
                size=len(text.encode()),
                text=text,
                status=DocumentStatus.ANNOTATING,
            )
            for n, text in enumerate(texts(DOCS, DOC_CHARS, seed=5))
        ]
        ids = [d.pk for d in documents]
        warm_text = documents[0].text[:2000]
        chars = sum(len(d.text) for d in documents)
        print(
            f"{DOCS} documents, {chars:,} characters, {os.cpu_count()} CPUs, load average "
            f"{' '.join(f'{x:.1f}' for x in os.getloadavg())}, hosts {[h.address for h in lab.hosts]}, "
            f"cores per host {[h.cpus or 'any' for h in lab.hosts]}"
        )
        results: dict[int, list[float]] = {1: [], 2: []}
        for repeat in range(REPEATS):
            for count in (1, 2) if repeat % 2 == 0 else (2, 1):
                Span.objects.filter(document_id__in=ids).delete()
                DocumentDetection.objects.filter(document_id__in=ids).delete()
                AnnotationRun.objects.filter(document_id__in=ids).delete()
                Document.objects.filter(pk__in=ids).update(
                    status=DocumentStatus.ANNOTATING, claimed_at=None, claimed_by="", attempts=0
                )
                seconds, per_host = _run(lab, count, ids, corpus, warm_text)
                results[count].append(seconds)
                print(
                    f"  run {repeat + 1}, {count} host(s): {seconds:.2f} s, {DOCS / seconds:.2f} docs/s "
                    f"(documents per host {per_host}, load average {os.getloadavg()[0]:.1f})"
                )
        if not REPEATS:
            results = {}
        for count, times in results.items():
            median, best = statistics.median(times), min(times)
            print(
                f"{count} host(s): median {median:.2f} s ({DOCS / median:.2f} docs/s), "
                f"best {best:.2f} s ({DOCS / best:.2f} docs/s) over {REPEATS} runs"
            )
        if results:
            ratio = statistics.median(results[1]) / statistics.median(results[2])
            print(
                f"ratio 2 hosts / 1 host (throughput): {ratio:.2f}x "
                f"on medians, {min(results[1]) / min(results[2]):.2f}x on best runs"
            )
        if BULK:
            _fairness(lab)
        from django.db import connection

        connection.close()


if __name__ == "__main__":
    main()
