"""Workers on several hosts: two Celery workers, each in a network namespace of
its own, reach one PostgreSQL and one Redis over their veth pairs (never the
loopback; tests/netns_hosts.py makes the namespaces, the pairs, a temporary
cluster and a Redis of their own). A large upload is spread over both hosts; a
host killed in the middle of a document has it taken over by the other within
the sweeper's reach, once; and one corpus's upload of 1,000 documents does not
make another corpus's single document wait for it."""

import os
import re
import time

import psycopg
import pytest
import redis

from tests.netns_hosts import Lab, Missing, missing_capability

# Short periods so the test shows a takeover in seconds, not minutes: the sweeper
# runs every 5 s; a worker holding a row beats every 2 s, and one silent for
# WORKER_LOST_AFTER (10 s here, 180 s by default) is taken as lost
# (ingestion/work_queue.py).
SWEEP_SECONDS = 5
LOST_AFTER = 10
LAB_SETTINGS = {
    "SWEEP_INTERVAL_SECONDS": str(SWEEP_SECONDS),
    "WORKER_LOST_AFTER": str(LOST_AFTER),
    "WORKER_HEARTBEAT_SECONDS": "2",
}

# One lab (namespaces, a PostgreSQL cluster, a Redis, three workers) serves the
# module: make test's --dist loadfile keeps its tests on one xdist process, which
# builds it once.
pytestmark = pytest.mark.worker


@pytest.fixture(scope="module")
def lab():
    why = missing_capability()
    if why:
        if os.environ.get("CI"):
            pytest.fail(f"{why} is required under CI=true for the worker-hosts test")
        pytest.skip(f"{why} is not available")
    try:
        made = Lab(hosts=3)
    except Missing as exc:  # pragma: no cover - missing_capability said yes
        pytest.fail(str(exc))
    try:
        made.migrate()
        first, second, scheduler = made.hosts
        for host in (first, second):
            made.start_worker(host, **LAB_SETTINGS)
        made.start_beat(scheduler, ANONYMIZER_VAR_DIR=str(made.dir), **LAB_SETTINGS)
        yield made
    finally:
        for name in sorted(os.listdir(made.logs)):
            print(f"--- {name} ---\n{made.log(name)[-2500:]}")
        made.close()


def _db(lab: Lab) -> psycopg.Connection:
    return psycopg.connect(lab.database_url().replace("postgres://", "postgresql://", 1), autocommit=True)


def _wait(predicate, what: str, timeout: float):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.2)
    raise AssertionError(f"timed out after {timeout:.0f} s waiting for {what}")


def _statuses(lab: Lab, ids: list[int]) -> dict[str, int]:
    with _db(lab) as conn:
        rows = conn.execute(
            "SELECT status, count(*) FROM ingestion_document WHERE id = ANY(%s) GROUP BY status", (ids,)
        ).fetchall()
    return dict(rows)


def _annotated_by(lab: Lab) -> dict[str, int]:
    """Annotations each worker host finished, from its own log."""
    done = re.compile(r"review\.annotate_document\[[0-9a-f-]+\] succeeded")
    return {h.name: len(done.findall(lab.log(f"{h.name}-worker.log"))) for h in lab.hosts[:2]}


def test_a_large_upload_is_spread_across_the_hosts_which_reach_the_services_over_their_pairs(lab):
    before = _annotated_by(lab)
    ids = lab.upload("spread", 40, 800)
    _wait(lambda: _statuses(lab, ids).get("ready") == len(ids), "40 documents on two hosts", timeout=300)
    assert not _statuses(lab, ids).get("failed")
    after = _annotated_by(lab)
    shares = {name: after[name] - before[name] for name in after}
    assert sum(shares.values()) == len(ids), shares
    assert all(share >= len(ids) // 5 for share in shares.values()), shares

    # Each worker's connections come from its own namespace's address: over the
    # veth pair, not the loopback (PostgreSQL and Redis listen on the pairs only).
    workers = {h.address for h in lab.hosts[:2]}
    clients = lab.postgres_clients()
    assert workers <= clients, clients
    assert not {c for c in clients if c.startswith("127.")}, clients
    broker = redis.Redis(host=lab.hosts[0].host_address, port=6379)
    redis_clients = {c["addr"].rsplit(":", 1)[0] for c in broker.client_list()}
    assert workers <= redis_clients, redis_clients
    assert not {c for c in redis_clients if c.startswith("127.")}, redis_clients


def test_one_corpus_s_1000_document_upload_does_not_starve_another_corpus_s_single_document(lab):
    big = lab.upload("bulk", 1000, 300, seed=1)
    single = lab.upload("small", 1, 300, seed=2)
    _wait(lambda: _statuses(lab, single).get("ready") == 1, "the single document", timeout=120)
    with _db(lab) as conn:
        (waited,) = conn.execute(
            "SELECT extract(epoch FROM updated_at - created_at) FROM ingestion_document WHERE id = %s", (single[0],)
        ).fetchone()
    bulk = _statuses(lab, big)
    left = sum(n for status, n in bulk.items() if status != "ready")
    print(f"the single document waited {float(waited):.1f} s; {left} of the 1,000 were still queued or running")
    # It went ahead of the backlog: most of the 1,000 were still waiting when it
    # was done, and it waited for a few documents, not for the upload.
    assert left >= 500, bulk
    assert float(waited) < 30, waited


def test_a_host_killed_mid_document_has_it_taken_over_by_the_other_once(lab):
    # The same text in another corpus, annotated by a host that lives: what the
    # taken-over document must end with, no more and no less.
    (reference,) = lab.upload("reference", 1, 60_000, seed=3)
    _wait(lambda: _statuses(lab, [reference]).get("ready") == 1, "the reference document", timeout=240)
    (document,) = lab.upload("takeover", 1, 60_000, seed=3)
    with _db(lab) as conn:

        def claimed():
            row = conn.execute(
                "SELECT status, claimed_by, claimed_at FROM ingestion_document WHERE id = %s", (document,)
            ).fetchone()
            return row if row[0] == "annotating" and row[1] else None

        _, delivery, claimed_at = _wait(claimed, "the annotation claim", timeout=180)
        (victim,) = [
            h for h in lab.hosts[:2] if f"annotate_document[{delivery}] received" in lab.log(f"{h.name}-worker.log")
        ]
        survivor = next(h for h in lab.hosts[:2] if h is not victim)
        time.sleep(1.0)  # in the middle of the document (it takes several seconds)
        assert conn.execute("SELECT status FROM ingestion_document WHERE id = %s", (document,)).fetchone()[0] == (
            "annotating"
        )
        killed = victim.kill()
        assert killed
        killed_at = time.monotonic()

        def taken_over():
            row = conn.execute(
                "SELECT claimed_by, status FROM ingestion_document WHERE id = %s", (document,)
            ).fetchone()
            return row if row[1] == "ready" or (row[0] and row[0] != delivery) else None

        new_delivery, _ = _wait(taken_over, "the takeover", timeout=LOST_AFTER + SWEEP_SECONDS * 3 + 30)
        took = time.monotonic() - killed_at
        _wait(lambda: _statuses(lab, [document]).get("ready") == 1, "the taken-over document", timeout=180)
        row = conn.execute(
            "SELECT attempts, status, claimed_by FROM ingestion_document WHERE id = %s", (document,)
        ).fetchone()
        spans = conn.execute(
            'SELECT start, "end", label FROM review_span WHERE document_id = %s', (document,)
        ).fetchall()
        runs = conn.execute("SELECT count(*) FROM review_annotationrun WHERE document_id = %s", (document,)).fetchone()[
            0
        ]
        expected = conn.execute(
            'SELECT start, "end", label FROM review_span WHERE document_id = %s', (reference,)
        ).fetchall()
        detections = conn.execute(
            "SELECT count(*) FROM review_documentdetection WHERE document_id = %s", (document,)
        ).fetchone()[0]
        failed = conn.execute("SELECT count(*) FROM ingestion_document WHERE status = 'failed'").fetchone()[0]
    print(f"killed {victim.name} {len(killed)} process(es); {survivor.name} took the document over {took:.1f} s later")
    # Taken over within the sweeper's reach: WORKER_LOST_AFTER after the dead
    # host's last beat, at the next sweep (plus the survivor finishing the
    # document it had in hand).
    assert took <= LOST_AFTER + SWEEP_SECONDS + 15, took
    assert row[1] == "ready", row
    assert "sweeper: {'extract': 0, 'annotate': 1" in lab.log(f"{survivor.name}-worker.log")  # the sweep queued it
    assert re.search(r"review\.annotate_document\[[0-9a-f-]+\] succeeded", lab.log(f"{survivor.name}-worker.log"))
    assert spans and sorted(spans) == sorted(expected)
    logs = "".join(lab.log(f"{h.name}-worker.log") for h in lab.hosts[:2])
    assert f"annotate_document[{delivery}] succeeded" not in logs  # the dead host never finished it
    if new_delivery:  # None only when the sweep's claim was taken and finished between two polls
        assert logs.count(f"annotate_document[{new_delivery}] succeeded") == 1
    assert runs == 1 and detections == 1
    assert failed == 0
    assert claimed_at is not None
