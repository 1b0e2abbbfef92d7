"""Detection makes no network call: `detect` succeeds under `unshare -n`."""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


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
