"""Pre-annotation over real Celery workers: 1 worker process, then 2.

Starts real `celery worker` processes (pool solo, one process each, so "2 workers"
is two processes that each load the model once) against Redis and PostgreSQL,
enqueues the annotation of BENCH_DOCS documents (default 20) of about
BENCH_DOC_CHARS characters (default 20,000: slices of the Ferguson grand jury
transcript in ../shared, or the demo transcript repeated without it), and times
from the first enqueue until every document is ready, BENCH_REPEATS times (default
3, alternating the order) and reports the medians. Start-up and model loading
are excluded: each worker first annotates a warm-up document, and the clock only
starts once every worker has done one (Celery's `inspect().stats()` says so).

Nothing is shared with anyone else's runs: the queue is `bench-workers-<random>`,
and the database is a dedicated one next to DATABASE_URL's
(`<name>_bench_workers`, created and migrated here, dropped at the end unless
BENCH_KEEP_DB=1). Needs DATABASE_URL=postgres://… and CELERY_BROKER_URL=redis://….
Prints seconds and documents/s per worker count (median and best run) and the
speed-ups.
"""

import hashlib
import os
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

DOCS = int(os.environ.get("BENCH_DOCS", "20"))
DOC_CHARS = int(os.environ.get("BENCH_DOC_CHARS", "20000"))
WORKER_COUNTS = tuple(int(n) for n in os.environ.get("BENCH_WORKERS", "1,2").split(","))
REPEATS = int(os.environ.get("BENCH_REPEATS", "3"))
TIMEOUT = float(os.environ.get("BENCH_TIMEOUT", "900"))
FERGUSON = ROOT.parent / "shared" / "data" / "transcripts" / "ferguson_grand_jury_vol1.txt"
DEMO = ROOT / "demo" / "parole_hearing_demo.txt"


def _bench_database_url() -> tuple[str, str, str]:
    """(bench database URL, its name, the server's maintenance database URL)."""
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith(("postgres://", "postgresql://")):
        sys.exit("bench_workers needs DATABASE_URL=postgres://… (workers are separate processes)")
    parts = urlsplit(url)
    name = f"{parts.path.lstrip('/') or 'anonymizer'}_bench_workers"
    return (
        urlunsplit(parts._replace(path=f"/{name}")),
        name,
        urlunsplit(parts._replace(path="/postgres")),
    )


def _psycopg_url(url: str) -> str:
    return url.replace("postgres://", "postgresql://", 1)


def _create_database(maintenance_url: str, name: str) -> None:
    import psycopg

    with psycopg.connect(_psycopg_url(maintenance_url), autocommit=True) as conn:
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone():
            conn.execute(f'CREATE DATABASE "{name}"')


def _drop_database(maintenance_url: str, name: str) -> None:
    import psycopg

    with psycopg.connect(_psycopg_url(maintenance_url), autocommit=True) as conn:
        conn.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s AND pid <> pg_backend_pid()",
            (name,),
        )
        conn.execute(f'DROP DATABASE IF EXISTS "{name}"')


def _texts() -> list[str]:
    """BENCH_DOCS texts of about BENCH_DOC_CHARS characters, cut at line ends,
    each starting at a different line (so every document is different)."""
    source = FERGUSON.read_text(encoding="utf-8") if FERGUSON.exists() else DEMO.read_text(encoding="utf-8")
    while len(source) < DOC_CHARS * 2:
        source += source
    lines = source.splitlines(keepends=True)
    step = max(1, len(lines) // DOCS)
    texts = []
    for n in range(DOCS):
        text, i = "", n * step
        while len(text) < DOC_CHARS:
            text += lines[i % len(lines)]
            i += 1
        texts.append(text)
    return texts


class Workers:
    """`count` solo worker processes on one queue, logging to files."""

    def __init__(self, count: int, env: dict, queue: str, logs: Path) -> None:
        self.names = [f"bench{n}-{uuid.uuid4().hex[:6]}@localhost" for n in range(1, count + 1)]
        self.processes = []
        for name in self.names:
            log = open(logs / f"{name.split('@')[0]}.log", "w")  # noqa: SIM115
            self.processes.append(
                subprocess.Popen(
                    [
                        sys.executable,
                        "-m",
                        "celery",
                        "-A",
                        "anonymizer_site",
                        "worker",
                        "--pool=solo",
                        f"--queues={queue}",
                        f"--hostname={name}",
                        "--loglevel=warning",
                        "--without-gossip",
                        "--without-mingle",
                    ],
                    cwd=ROOT,
                    env=env,
                    stdout=log,
                    stderr=subprocess.STDOUT,
                )
            )

    def stop(self) -> None:
        for process in self.processes:
            process.terminate()
        for process in self.processes:
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()


def _wait(predicate, what: str, timeout: float = TIMEOUT, every: float = 0.1):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(every)
    raise SystemExit(f"timed out waiting for {what}")


def _task_counts(inspector, names: list[str]) -> list[int]:
    """Tasks each worker has run since it started."""
    stats = inspector.stats() or {}
    return [sum(stats.get(name, {}).get("total", {}).values()) for name in names]


def warm_up(corpus, count: int, warm_text: str, warmed) -> None:
    """Documents one per worker at a time until `warmed()`: every worker has its
    model loaded before the clock starts. One per worker at once: a worker busy
    loading its model leaves the next message to another (prefetch 1, late acks)."""
    from ingestion.models import Document, DocumentStatus
    from review.tasks import annotate_document

    warm = 0
    while not warmed():
        batch = []
        for _ in range(count):
            warm += 1
            batch.append(
                Document.objects.create(
                    corpus=corpus,
                    name=f"warm{count}-{warm}-{uuid.uuid4().hex[:6]}.txt",
                    sha256=uuid.uuid4().hex,
                    text=warm_text,
                    status=DocumentStatus.ANNOTATING,
                ).pk
            )
        for pk in batch:
            annotate_document.delay(pk)
        _wait(
            lambda batch=batch: not Document.objects.filter(pk__in=batch, status=DocumentStatus.ANNOTATING).exists(),
            "the warm-up documents",
            timeout=300,
        )


def _run(
    count: int, ids: list[int], corpus, env: dict, queue: str, logs: Path, warm_text: str
) -> tuple[float, int, list[int]]:
    """Seconds until `count` warmed-up workers have annotated every document, the
    spans they stored, and how many documents each worker took."""
    from anonymizer_site.celery import app
    from ingestion.models import Document, DocumentStatus
    from review.models import Span
    from review.tasks import annotate_document

    workers = Workers(count, env, queue, logs)
    try:
        inspector = app.control.inspect(destination=workers.names, timeout=1.0)
        _wait(lambda: len(inspector.ping() or {}) == count, f"{count} worker(s) to answer", timeout=120)

        def warmed() -> bool:
            return all(n >= 1 for n in _task_counts(inspector, workers.names))

        # Warm-up: every worker loads its model on a small document of its own
        # before the clock starts.
        warm_up(corpus, count, warm_text, warmed)
        warmed_counts = _task_counts(inspector, workers.names)
        started = time.monotonic()
        for pk in ids:
            annotate_document.delay(pk)
        _wait(
            lambda: not Document.objects.filter(pk__in=ids, status=DocumentStatus.ANNOTATING).exists(),
            f"{len(ids)} documents with {count} worker(s)",
            every=0.05,
        )
        seconds = time.monotonic() - started
        failed = Document.objects.filter(pk__in=ids, status=DocumentStatus.FAILED).count()
        if failed:
            raise SystemExit(f"{failed} documents failed; see the logs in {logs}")
        per_worker = [a - b for a, b in zip(_task_counts(inspector, workers.names), warmed_counts, strict=True)]
        return seconds, Span.objects.filter(document_id__in=ids).count(), per_worker
    finally:
        workers.stop()


def main() -> None:
    db_url, db_name, maintenance_url = _bench_database_url()
    broker = os.environ.get("CELERY_BROKER_URL", "")
    if not broker.startswith("redis://"):
        sys.exit("bench_workers needs CELERY_BROKER_URL=redis://…")
    queue = f"bench-workers-{uuid.uuid4().hex[:8]}"
    _create_database(maintenance_url, db_name)
    os.environ.update({"DATABASE_URL": db_url, "CELERY_QUEUE": queue, "CELERY_TASK_ALWAYS_EAGER": "false"})
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "anonymizer_site.settings")

    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection

    from ingestion.models import Corpus, Document, DocumentStatus
    from review.models import AnnotationRun, DocumentDetection, Span

    call_command("migrate", verbosity=0)
    corpus = Corpus.objects.create(name=f"bench-workers {uuid.uuid4().hex[:8]}")
    texts = _texts()
    documents = [
        Document.objects.create(
            corpus=corpus,
            name=f"doc{n:02d}.txt",
            sha256=hashlib.sha256(text.encode()).hexdigest(),
            size=len(text.encode()),
            text=text,
            status=DocumentStatus.ANNOTATING,
        )
        for n, text in enumerate(texts)
    ]
    ids = [d.pk for d in documents]
    warm_text = texts[0][:3000]
    env = {**os.environ}
    results: dict[int, list[float]] = {count: [] for count in WORKER_COUNTS}
    spans: set[int] = set()
    logs = Path(tempfile.mkdtemp(prefix="bench-workers-"))
    chars = sum(map(len, texts))
    print(
        f"{DOCS} documents, {chars:,} characters ({'Ferguson slices' if FERGUSON.exists() else 'demo transcript'}), "
        f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}, queue {queue}, database {db_name}"
    )
    try:
        for repeat in range(REPEATS):
            # Alternating the order evens out drift in what else the machine runs.
            for count in WORKER_COUNTS if repeat % 2 == 0 else WORKER_COUNTS[::-1]:
                Span.objects.filter(document_id__in=ids).delete()
                DocumentDetection.objects.filter(document_id__in=ids).delete()
                AnnotationRun.objects.filter(document_id__in=ids).delete()
                Document.objects.filter(pk__in=ids).update(status=DocumentStatus.ANNOTATING)
                seconds, span_count, per_worker = _run(count, ids, corpus, env, queue, logs, warm_text)
                results[count].append(seconds)
                spans.add(span_count)
                print(
                    f"  run {repeat + 1}, {count} worker(s): {seconds:.2f} s, {DOCS / seconds:.2f} docs/s "
                    f"(documents per worker {per_worker}, load average {os.getloadavg()[0]:.1f})"
                )
    finally:
        corpus.delete()
        connection.close()
        if not os.environ.get("BENCH_KEEP_DB"):
            _drop_database(maintenance_url, db_name)
    # On a shared machine other processes take cores: the best run is the one least
    # disturbed, the median the typical one; both are printed.
    medians = {count: statistics.median(times) for count, times in results.items()}
    best = {count: min(times) for count, times in results.items()}
    for count in results:
        print(
            f"{count} worker(s): median {medians[count]:.2f} s ({DOCS / medians[count]:.2f} docs/s, "
            f"{chars / medians[count]:,.0f} chars/s), best {best[count]:.2f} s ({DOCS / best[count]:.2f} docs/s) "
            f"over {REPEATS} runs"
        )
    if 1 in results:
        for count in results:
            if count != 1:
                print(
                    f"speed-up {count} vs 1 worker(s): {medians[1] / medians[count]:.2f}x on medians, "
                    f"{best[1] / best[count]:.2f}x on best runs"
                )
    if len(spans) > 1:
        print(f"warning: span counts differ between runs: {sorted(spans)}")


if __name__ == "__main__":
    main()
