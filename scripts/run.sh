#!/usr/bin/env bash
# Start a Celery worker (embedded filesystem broker unless CELERY_BROKER_URL is set)
# and the web server on 127.0.0.1:$PORT (8000 unless set); stopping the server
# (Ctrl-C) stops the worker too.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=.venv/bin/python
PORT="${PORT:-8000}"
export PORT
# -B: the same process runs beat, which runs the sweeper every SWEEP_INTERVAL_SECONDS.
.venv/bin/celery -A anonymizer_site worker -B --loglevel=warning --concurrency=1 &
WORKER=$!
"$PY" manage.py runserver "127.0.0.1:$PORT" --noreload &
SERVER=$!
trap 'kill $SERVER $WORKER 2>/dev/null || true; wait $SERVER $WORKER 2>/dev/null || true' EXIT INT TERM
# The login again once the server answers: the worker's and the server's start-up
# lines would otherwise have scrolled it away.
"$PY" - "$PORT" "${ANONYMIZER_VAR_DIR:-var}/admin_password" <<'PYTHON' || true
import sys, time, urllib.request
url = f"http://127.0.0.1:{sys.argv[1]}/accounts/login/"
for _ in range(120):
    try:
        urllib.request.urlopen(url, timeout=1)
        break
    except OSError:
        time.sleep(0.5)
password = open(sys.argv[2]).read().strip()
print(f"\n  Ready: log in at http://127.0.0.1:{sys.argv[1]} as admin / {password}  (Ctrl-C stops the app)\n", flush=True)
PYTHON
wait $SERVER
