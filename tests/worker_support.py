"""One way to run a real Celery worker in a test: a process on a queue of its own,
sharing the test database, the broker and private storage (PostgreSQL + Redis, or
the embedded default's SQLite file and filesystem broker; tests/services.py says
which). The `worker` and `prefork_worker` fixtures (tests/conftest.py) and the
tests that start and kill workers themselves all use it."""

import contextlib
import os
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO, Any

from django.db import connection

from anonymizer_site.celery import app as celery_app
from tests.services import require_broker

ROOT = Path(__file__).resolve().parent.parent


def wait_for(predicate: Callable[[], Any], timeout: float = 180.0, what: str = "condition", every: float = 0.2) -> Any:
    """The predicate's first true value, polled until `timeout`: a test waits for a
    condition, never a fixed time."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(every)
    raise AssertionError(f"timed out waiting for {what}")


def worker_env(settings: Any, queue: str, **extra: str) -> dict[str, str]:
    """The environment a worker process needs to share this test's database,
    broker and storage, plus `extra` settings (e.g. WORKER_LOST_AFTER)."""
    broker = require_broker()
    db = connection.settings_dict
    if connection.vendor == "postgresql":
        database_url = f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}"
    else:
        assert db["NAME"] and "memory" not in str(db["NAME"]), "the embedded test database must be a file"
        database_url = f"sqlite:///{Path(db['NAME']).resolve()}"
    return {
        **os.environ,
        "DATABASE_URL": database_url,
        "CELERY_BROKER_URL": broker,
        "CELERY_QUEUE": queue,
        "PRIVATE_STORAGE_ROOT": str(settings.PRIVATE_STORAGE_ROOT),
        **extra,
    }


def start_worker(env: dict[str, str], log: IO[str], pool: str = "solo") -> subprocess.Popen:
    """`solo` runs tasks in the worker process; `prefork` (one child) runs them in
    a pool process that a test can kill as an out-of-memory kill would."""
    # worker_lost_wait (Celery's default 10 s) is how long billiard's pool waits for
    # a result a killed pool process may have sent before it died. On the embedded
    # stack (the filesystem broker has no event loop, so the pool is billiard's
    # plain one) each killed pool process cost the test those 10 s before its
    # message was given back; a test kills them on purpose, mid-task, with no
    # result on the way, so 1 s is ample.
    concurrency, options = (["--concurrency=1"], ["--", "worker_lost_wait=1"]) if pool == "prefork" else ([], [])
    return subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "anonymizer_site", "worker", f"--pool={pool}", *concurrency]
        + ["--loglevel=info", "--without-gossip", "--without-mingle", *options],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )


def children(pid: int) -> list[int]:
    """The process's children (any of its threads may have forked one)."""
    found = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            found += [int(child) for child in (task / "children").read_text().split()]
        except OSError:
            continue  # the thread ended meanwhile
    return found


def kill_whole(process: subprocess.Popen) -> None:
    """The whole worker dies at once (the OOM killer, a power cut, `kill -9`): the
    pool process and its parent, the message in hand."""
    for pid in [process.pid, *children(process.pid)]:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
    process.wait(timeout=10)


def stop(process: subprocess.Popen | None, timeout: float = 30) -> None:
    if process is None or process.poll() is not None:
        return
    process.terminate()
    try:
        process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        process.kill()


def end(process: subprocess.Popen) -> None:
    """A worker whose test is over. On the embedded stack a warm shutdown waits
    out the filesystem broker's blocking poll (2 s) and its timer: 4-5 s a worker,
    for nothing, since the worker holds no server session there (SQLite is a
    file; its locks die with the process) and its queue is this test's alone. It
    is killed at once. With PostgreSQL it stops warm (about 1.4 s), so that its
    session is gone before the test database is dropped."""
    if connection.vendor == "sqlite":
        kill_whole(process)
    else:
        stop(process)


@contextlib.contextmanager
def tasks_to(queue: str) -> Iterator[None]:
    """Tasks this test queues go to a real worker on `queue`, not run eagerly."""
    previous = (celery_app.conf.task_always_eager, celery_app.conf.task_default_queue)
    celery_app.conf.task_always_eager = False
    celery_app.conf.task_default_queue = queue
    try:
        yield
    finally:
        celery_app.conf.task_always_eager, celery_app.conf.task_default_queue = previous


@contextlib.contextmanager
def running_worker(settings: Any, tmp_path: Path, pool: str = "solo", **extra: str) -> Iterator[subprocess.Popen]:
    """A worker for the length of the block; its log's tail printed at the end."""
    queue = f"test-{uuid.uuid4().hex[:8]}"
    env = worker_env(settings, queue, **extra)
    with open(tmp_path / "worker.log", "w+") as log, tasks_to(queue):
        process = start_worker(env, log, pool)
        try:
            yield process
        finally:
            end(process)
            log.seek(0)
            print(log.read()[-4000:])
