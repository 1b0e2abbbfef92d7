"""`detect --jobs N`: several processes share the documents, and the output is the
one a single process writes, line for line, in the input's order."""

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from pipelines import cli
from tests.conftest import DEMO_TEXT

ROOT = Path(__file__).resolve().parents[2]
FERGUSON = ROOT.parent / "shared" / "data" / "transcripts" / "ferguson_grand_jury_vol1.txt"


def _records() -> list[dict]:
    """Documents of very different lengths, so that batches finish out of order."""
    source = FERGUSON.read_text(encoding="utf-8")[:40_000] if FERGUSON.exists() else DEMO_TEXT * 100
    lengths = [6000, 300, 2500, 80, 4000, 1200, 50, 3000, 700]
    records, start = [], 0
    for n, length in enumerate(lengths):
        records.append({"id": f"doc-{n}", "text": source[start : start + length]})
        start += length
    records.append({"id": "demo", "text": DEMO_TEXT, "metadata": {"participants": [{"name": "Hartwell"}]}})
    return records


def _detect(path: Path, out: Path, jobs: int) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "CELERY_BROKER_URL", "SPACY_MODEL")}
    return subprocess.run(
        [sys.executable, "manage.py", "detect", str(path), "--out", str(out), "--jobs", str(jobs)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=300,
    )


def test_two_jobs_write_what_one_job_writes_in_the_input_order(tmp_path):
    path = tmp_path / "in.jsonl"
    records = _records()
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    one, two = tmp_path / "one.jsonl", tmp_path / "two.jsonl"
    for out, jobs in ((one, 1), (two, 2)):
        proc = _detect(path, out, jobs)
        assert proc.returncode == 0, proc.stderr[-3000:]
    assert two.read_bytes() == one.read_bytes()
    lines = [json.loads(line) for line in one.read_text(encoding="utf-8").splitlines()]
    assert [line["id"] for line in lines] == [r["id"] for r in records]
    demo = lines[-1]["spans"]
    assert any(s["label"] == "PERSON" and s["text"] == "Marcus Delgado" for s in demo), demo
    assert sum(len(line["spans"]) for line in lines) > 20  # real transcript text, real findings


def test_the_documents_are_detected_in_more_than_one_process(tmp_path, monkeypatch):
    """The pool's processes (forked after the model is loaded) do the detecting,
    not the parent: each batch records the process that detected it."""
    seen = tmp_path / "pids"
    real = cli._output_lines
    parent = os.getpid()

    def recording(records: list[dict], name: str, language: str = "en") -> list[str]:
        with open(seen, "a", encoding="utf-8") as handle:
            handle.write(f"{os.getpid()} {len(records)}\n")
        if os.getpid() != parent:
            time.sleep(0.3)  # long enough that one process cannot take every batch alone
        return real(records, name, language)

    monkeypatch.setattr(cli, "_output_lines", recording)
    records = [{"id": n, "text": DEMO_TEXT} for n in range(8)]
    lines = list(cli._detect_lines(records, cli.model_name(), 2))
    assert [json.loads(line)["id"] for line in lines] == list(range(8))
    rows = [line.split() for line in seen.read_text().splitlines()]
    parent_warm_up = [row for row in rows if int(row[0]) == os.getpid()]
    batches = [row for row in rows if int(row[0]) != os.getpid()]
    assert [int(n) for _, n in parent_warm_up] == [1]  # the warm-up before forking, nothing else
    assert sum(int(n) for _, n in batches) == 8
    assert len({pid for pid, _ in batches}) == 2


def test_jobs_below_one_is_a_usage_error(tmp_path):
    path = tmp_path / "in.jsonl"
    path.write_text(json.dumps({"id": 1, "text": "x"}) + "\n", encoding="utf-8")
    with pytest.raises(cli.UsageError, match="--jobs must be at least 1"):
        cli.detect(str(path), str(tmp_path / "out.jsonl"), jobs=0)


def test_the_default_is_one_job_per_core_this_process_may_use():
    assert cli.default_jobs() == len(os.sched_getaffinity(0))


def test_a_process_that_dies_fails_the_command_instead_of_hanging(monkeypatch):
    """As when the kernel's out-of-memory killer takes one of the processes."""
    parent = os.getpid()
    real = cli._output_lines

    def dying(records: list[dict], name: str, language: str = "en") -> list[str]:
        if os.getpid() != parent:
            os._exit(137)
        return real(records, name, language)

    monkeypatch.setattr(cli, "_output_lines", dying)
    records = [{"id": n, "text": DEMO_TEXT} for n in range(4)]
    with pytest.raises(cli.UsageError, match="a detect process died"):
        list(cli._detect_lines(records, cli.model_name(), 2))
