"""Worker hosts on one machine: each Celery worker runs in a network namespace of
its own, and reaches one PostgreSQL and one Redis only over its veth pair, at the
host side's address, never over loopback.

`Lab` makes (and removes) everything: the namespaces, a veth pair per namespace
with private addresses of its own (10.231.N.0/24; traffic only between the
namespaces and the host side of their pairs), a temporary PostgreSQL cluster and a
dedicated redis-server listening on the host-side addresses only, the database
migrated. Nothing of the machine's own services changes. Used by
tests/workers/test_worker_hosts.py and bench/bench_hosts.py; needs root, `ip`,
`redis-server` and PostgreSQL's `initdb`/`pg_ctl`.

`python -m tests.netns_hosts upload …` (run with the lab's DATABASE_URL and
CELERY_BROKER_URL) uploads documents the way the app does (ingest_document:
stored, queued for extraction, then annotation) and prints their ids as JSON.
"""

import argparse
import contextlib
import glob
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FERGUSON = ROOT.parent / "shared" / "data" / "transcripts" / "ferguson_grand_jury_vol1.txt"
DEMO = ROOT / "demo" / "parole_hearing_demo.txt"
REDIS_PORT = 6379
PG_PORT = 5432


class Missing(Exception):
    """A capability the lab needs is not on this machine (the message says which)."""


def missing_capability() -> str | None:
    """Why a Lab cannot be made here, or None."""
    if os.geteuid() != 0:
        return "root (network namespaces and veth pairs)"
    for tool in ("ip", "redis-server", "runuser"):
        if not shutil.which(tool):
            return f"the {tool} command"
    if not _pg_bin():
        return "PostgreSQL's initdb and pg_ctl (/usr/lib/postgresql/*/bin)"
    return None


def _pg_bin() -> Path | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    return Path(found[-1]).parent if found else None


def _run(*command: str, check: bool = True) -> subprocess.CompletedProcess:
    proc = subprocess.run(command, capture_output=True, text=True)
    if check and proc.returncode:
        raise RuntimeError(f"{' '.join(command)}: {proc.stderr.strip() or proc.stdout.strip()}")
    return proc


def _free_subnets(count: int) -> list[int]:
    """Third octets of 10.231.X.0/24 that no interface here uses yet."""
    used = _run("ip", "-o", "-4", "addr").stdout
    free = [n for n in range(1, 255) if f"10.231.{n}." not in used]
    start = random.randrange(0, max(1, len(free) - count))
    return free[start : start + count]


@dataclass
class Host:
    """One namespace, its veth pair, and the processes started in it."""

    name: str
    namespace: str
    host_address: str  # the host side: where this namespace reaches the services
    address: str  # inside the namespace
    # The CPUs the namespace's processes may run on (`taskset -c`), "" for any: a
    # bench pins each host to cores of its own, as separate machines would have,
    # so one host cannot borrow the core another host would bring.
    cpus: str = ""
    processes: list[subprocess.Popen] = field(default_factory=list)

    def kill(self) -> list[int]:
        """Kill every process of the namespace at once (SIGKILL), as when the
        machine is switched off; returns their pids."""
        pids = [int(p) for p in _run("ip", "netns", "pids", self.namespace).stdout.split()]
        for pid in pids:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        for process in self.processes:
            process.wait(timeout=30)
        return pids


class Lab:
    """`hosts` network namespaces, a PostgreSQL cluster and a Redis for them."""

    def __init__(self, hosts: int, tag: str | None = None) -> None:
        why = missing_capability()
        if why:
            raise Missing(why)
        self.tag = tag or uuid.uuid4().hex[:4]
        self.dir = Path(tempfile.mkdtemp(prefix=f"lab-{self.tag}-"))
        self.dir.chmod(0o755)
        self.hosts: list[Host] = []
        self._redis: subprocess.Popen | None = None
        self._pg_data: Path | None = None
        self.logs = self.dir / "logs"
        self.logs.mkdir()
        self.storage = self.dir / "private"
        self.storage.mkdir()
        try:
            for n, octet in enumerate(_free_subnets(hosts), start=1):
                self.hosts.append(self._add_host(n, octet))
            self._start_redis()
            self._start_postgres()
        except BaseException:
            self.close()
            raise

    # --- the network -------------------------------------------------------------------

    def _add_host(self, n: int, octet: int) -> Host:
        namespace = f"lab-{self.tag}-h{n}"
        outside, inside = f"vh{self.tag}{n}", f"vn{self.tag}{n}"
        host = Host(f"host{n}", namespace, f"10.231.{octet}.1", f"10.231.{octet}.2")
        _run("ip", "netns", "add", namespace)
        _run("ip", "link", "add", outside, "type", "veth", "peer", "name", inside)
        _run("ip", "link", "set", inside, "netns", namespace)
        _run("ip", "addr", "add", f"{host.host_address}/24", "dev", outside)
        _run("ip", "link", "set", outside, "up")
        _run("ip", "netns", "exec", namespace, "ip", "addr", "add", f"{host.address}/24", "dev", inside)
        _run("ip", "netns", "exec", namespace, "ip", "link", "set", inside, "up")
        # No loopback inside: a worker that tried 127.0.0.1 would fail at once
        # instead of finding something.
        return host

    @property
    def service_addresses(self) -> list[str]:
        return [h.host_address for h in self.hosts]

    # --- the services ---------------------------------------------------------------------

    def _start_redis(self) -> None:
        self._redis = subprocess.Popen(
            [
                "redis-server",
                "--bind",
                *self.service_addresses,
                "--port",
                str(REDIS_PORT),
                "--save",
                "",
                "--appendonly",
                "no",
                "--protected-mode",
                "no",
                "--dir",
                str(self.dir),
            ],
            stdout=open(self.logs / "redis.log", "w"),  # noqa: SIM115
            stderr=subprocess.STDOUT,
        )
        import redis

        deadline = time.monotonic() + 20
        while True:
            try:
                redis.Redis(host=self.service_addresses[0], port=REDIS_PORT, socket_connect_timeout=1).ping()
                return
            except redis.RedisError:
                if time.monotonic() > deadline or self._redis.poll() is not None:
                    raise RuntimeError(f"redis-server did not start: {(self.logs / 'redis.log').read_text()}") from None
                time.sleep(0.1)

    def _start_postgres(self) -> None:
        bin_dir = _pg_bin()
        data = self.dir / "pg"
        data.mkdir()
        shutil.chown(data, "postgres", "postgres")
        self._pg_data = data
        as_postgres = ("runuser", "-u", "postgres", "--")
        _run(*as_postgres, str(bin_dir / "initdb"), "-D", str(data), "-A", "trust", "-U", "postgres", "--no-sync")
        with open(data / "pg_hba.conf", "a") as hba:
            for address in self.service_addresses:
                network = address.rsplit(".", 1)[0] + ".0/24"
                hba.write(f"host all all {network} trust\n")
        options = (
            f"-c listen_addresses={','.join(self.service_addresses)} -c port={PG_PORT} "
            f"-c unix_socket_directories={data} -c max_connections=200 -c log_connections=on "
            # A throw-away cluster: durability is not what is tested.
            "-c fsync=off -c synchronous_commit=off -c full_page_writes=off"
        )
        _run(
            *as_postgres,
            str(bin_dir / "pg_ctl"),
            "-D",
            str(data),
            "-l",
            str(data / "log"),
            "-w",
            "-o",
            options,
            "start",
        )
        import psycopg

        with psycopg.connect(
            f"postgresql://postgres@{self.service_addresses[0]}:{PG_PORT}/postgres", autocommit=True
        ) as conn:
            conn.execute("CREATE DATABASE anonymizer")

    def database_url(self, host: Host | None = None) -> str:
        address = (host or self.hosts[0]).host_address
        return f"postgres://postgres@{address}:{PG_PORT}/anonymizer"

    def broker_url(self, host: Host | None = None) -> str:
        address = (host or self.hosts[0]).host_address
        return f"redis://{address}:{REDIS_PORT}/0"

    def env(self, host: Host | None = None, **extra: str) -> dict[str, str]:
        """What a process needs to reach the lab's services through `host`'s pair."""
        env = {k: v for k, v in os.environ.items() if k not in ("ANONYMIZER_STACK", "PYTEST_CURRENT_TEST")}
        env.update(
            DATABASE_URL=self.database_url(host),
            CELERY_BROKER_URL=self.broker_url(host),
            CELERY_QUEUE="anonymizer",
            CELERY_TASK_ALWAYS_EAGER="false",
            PRIVATE_STORAGE_ROOT=str(self.storage),
            DJANGO_SETTINGS_MODULE="anonymizer_site.settings",
        )
        env.update(extra)
        return env

    def migrate(self) -> None:
        proc = subprocess.run(
            [sys.executable, "manage.py", "migrate", "--verbosity=0"],
            cwd=ROOT,
            env=self.env(),
            capture_output=True,
            text=True,
        )
        if proc.returncode:
            raise RuntimeError(f"migrate failed: {proc.stderr[-3000:]}")

    # --- processes in the namespaces -----------------------------------------------------

    def start_worker(self, host: Host, **extra: str) -> subprocess.Popen:
        """A Celery worker (pool solo: one process, the model loaded once) in the
        host's namespace, reaching the services over its veth pair."""
        return self._start(
            host,
            "worker",
            [
                "worker",
                "--pool=solo",
                f"--hostname={host.name}@{host.address}",
                "--loglevel=info",
                "--without-gossip",
                "--without-mingle",
            ],
            extra,
        )

    def start_beat(self, host: Host, **extra: str) -> subprocess.Popen:
        """Celery beat, which queues the sweeper every SWEEP_INTERVAL_SECONDS."""
        schedule = self.dir / f"beat-{host.name}"
        return self._start(host, "beat", ["beat", "--loglevel=info", f"--schedule={schedule}"], extra)

    def _start(self, host: Host, what: str, arguments: list[str], extra: dict) -> subprocess.Popen:
        log = open(self.logs / f"{host.name}-{what}.log", "a")  # noqa: SIM115
        process = subprocess.Popen(
            [
                "ip",
                "netns",
                "exec",
                host.namespace,
                *(["taskset", "-c", host.cpus] if host.cpus else []),
                sys.executable,
                "-m",
                "celery",
                "-A",
                "anonymizer_site",
                *arguments,
            ],
            cwd=ROOT,
            env=self.env(host, **extra),
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        host.processes.append(process)
        return process

    def stop_processes(self, host: Host) -> None:
        for process in host.processes:
            if process.poll() is None:
                process.terminate()
        for process in host.processes:
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        host.processes.clear()

    def upload(self, corpus: str, count: int, chars: int, *, seed: int = 0) -> list[int]:
        """Upload `count` documents of about `chars` characters to the corpus named
        `corpus` (made if missing), as the app does; their ids."""
        proc = subprocess.run(
            [sys.executable, "-m", "tests.netns_hosts", "upload", corpus, str(count), str(chars), str(seed)],
            cwd=ROOT,
            env=self.env(),
            capture_output=True,
            text=True,
        )
        if proc.returncode:
            raise RuntimeError(f"upload failed: {proc.stderr[-3000:]}")
        return json.loads(proc.stdout.strip().splitlines()[-1])

    def postgres_clients(self) -> set[str]:
        """Every address a connection to the cluster came from (log_connections)."""
        log = (self._pg_data / "log").read_text(errors="replace") if self._pg_data else ""
        return set(re.findall(r"connection received: host=([0-9a-f.:]+)", log))

    def log(self, name: str) -> str:
        path = self.logs / name
        return path.read_text(errors="replace") if path.exists() else ""

    def close(self) -> None:
        for host in self.hosts:
            if host.processes:
                self.stop_processes(host)
        if self._redis and self._redis.poll() is None:
            self._redis.terminate()
            self._redis.wait(timeout=20)
        if self._pg_data and (self._pg_data / "postmaster.pid").exists():
            _run(
                "runuser", "-u", "postgres", "--", str(_pg_bin() / "pg_ctl"), "-D", str(self._pg_data),
                "-m", "immediate", "stop", check=False,
            )  # fmt: skip
        for host in self.hosts:
            _run("ip", "netns", "del", host.namespace, check=False)  # takes its end of the pair, and so the pair
            _run("ip", "link", "del", f"vh{self.tag}{host.name[4:]}", check=False)
        shutil.rmtree(self.dir, ignore_errors=True)

    def __enter__(self) -> "Lab":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


# --- the upload driver (run inside the lab's environment) ------------------------------------


def source_text() -> str:
    return FERGUSON.read_text(encoding="utf-8") if FERGUSON.exists() else DEMO.read_text(encoding="utf-8") * 20


def texts(count: int, chars: int, seed: int = 0) -> list[str]:
    """`count` different texts of about `chars` characters, cut at line ends."""
    lines = source_text().splitlines(keepends=True)
    step = max(1, len(lines) // max(1, count))
    out = []
    for n in range(count):
        text, i = f"Document {seed}-{n}.\n", (n * step + seed * 7) % len(lines)
        while len(text) < chars:
            text += lines[i % len(lines)]
            i += 1
        out.append(text)
    return out


def _upload(corpus_name: str, count: int, chars: int, seed: int) -> list[int]:
    import django

    django.setup()
    from django.contrib.auth import get_user_model

    from ingestion.models import Corpus
    from review.services.uploads import ingest_document

    user, _ = get_user_model().objects.get_or_create(username="lab", defaults={"is_staff": True})
    corpus, _ = Corpus.objects.get_or_create(name=corpus_name)
    ids = []
    for n, text in enumerate(texts(count, chars, seed)):
        document, _ = ingest_document(corpus=corpus, name=f"{corpus_name}-{n:04d}.txt", data=text.encode(), user=user)
        ids.append(document.pk)
    return ids


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(prog="python -m tests.netns_hosts")
    commands = parser.add_subparsers(dest="command", required=True)
    upload = commands.add_parser("upload")
    upload.add_argument("corpus")
    upload.add_argument("count", type=int)
    upload.add_argument("chars", type=int)
    upload.add_argument("seed", type=int, nargs="?", default=0)
    arguments = parser.parse_args(argv)
    print(json.dumps(_upload(arguments.corpus, arguments.count, arguments.chars, arguments.seed)))


if __name__ == "__main__":
    main(sys.argv[1:])
