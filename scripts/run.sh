#!/usr/bin/env bash
# Start a Celery worker (embedded filesystem broker unless CELERY_BROKER_URL is set)
# and the web server; stopping the server (Ctrl-C) stops the worker too.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=.venv/bin/python
# -B: the same process runs beat, which runs the sweeper every SWEEP_INTERVAL_SECONDS.
.venv/bin/celery -A anonymizer_site worker -B --loglevel=warning --concurrency=1 &
WORKER=$!
trap 'kill $WORKER 2>/dev/null || true; wait $WORKER 2>/dev/null || true' EXIT INT TERM
"$PY" manage.py runserver 127.0.0.1:8000 --noreload
