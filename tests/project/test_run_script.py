"""`make run`'s last step, scripts/run.sh, as a new user runs it: the embedded default
(SQLite, filesystem broker) in a scratch var directory, on the port PORT names; the
login is printed once the server answers; Ctrl-C stops the server and the worker."""

import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_run_script_serves_on_port_prints_the_login_when_ready_and_stops_on_ctrl_c(tmp_path):
    port = _free_port()
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "CELERY_BROKER_URL")}
    env |= {"ANONYMIZER_VAR_DIR": str(tmp_path), "PORT": str(port), "ANONYMIZER_STACK": "embedded"}
    for command in (["migrate", "--noinput"], ["demo_setup"]):
        subprocess.run([sys.executable, "manage.py", *command], cwd=ROOT, env=env, check=True, capture_output=True)
    password = (tmp_path / "admin_password").read_text().strip()
    process = subprocess.Popen(
        ["./scripts/run.sh"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,  # its own process group, as a terminal gives it
        # and Ctrl-C's default action, as a terminal's shell gives a foreground job:
        # a suite started in the background (`make test &`) ignores SIGINT, which
        # run.sh would inherit, and a non-interactive shell cannot trap a signal
        # ignored when it started, so its trap would never stop the server.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    try:
        ready = ""
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            line = process.stdout.readline()
            if not line:
                break
            if "Ready: log in" in line:
                ready = line
                break
        assert f"http://127.0.0.1:{port} as admin / {password}" in ready, ready
        # A terminal keeps reading what the app prints; a pipe nobody reads fills
        # (64 kB) and blocks the writer, which then never reaches its shutdown.
        later: list[str] = []
        threading.Thread(target=lambda: later.extend(process.stdout), daemon=True).start()
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/accounts/login/", timeout=10) as response:
            assert response.status == 200
    finally:
        # Ctrl-C in a terminal signals the whole foreground process group.
        os.killpg(process.pid, signal.SIGINT)
        try:
            # The worker's warm shutdown finishes the document it is annotating: on a
            # loaded machine that took over 30 s (a bound on the wait, not the claim).
            process.wait(timeout=120)
        finally:
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGKILL)
    # The worker's warm shutdown lets its pool process finish: allow it a moment.
    deadline = time.monotonic() + 20
    while leftovers := subprocess.run(["pgrep", "-g", str(process.pid)], capture_output=True, text=True).stdout.split():
        if time.monotonic() > deadline:
            break
        time.sleep(0.5)
    assert not leftovers, f"still running 20 s after Ctrl-C: {leftovers}; it printed: {''.join(later)[-4000:]}"
