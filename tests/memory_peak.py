"""The peak memory of some code, run in a fresh Python process.

Read from the process's own VmHWM (/proc/self/status), the high-water mark of its
address space since exec: `ru_maxrss` keeps the parent's high-water mark across
fork and exec on Linux, so a child started by a test process that already holds
a spaCy model reports at least the test process's size.
"""

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

_REPORT = textwrap.dedent(
    """
    import json as _json
    with open("/proc/self/status") as _status:
        _peak = next(int(line.split()[1]) for line in _status if line.startswith("VmHWM:"))
    RESULT["peak_mb"] = _peak // 1024
    print(_json.dumps(RESULT))
    """
)


def run_peak(code: str, timeout: int = 300) -> dict:
    """Run `code` (which sets a dict RESULT) in a fresh interpreter at the project's
    root; RESULT comes back with "peak_mb", the process's peak resident MB."""
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code) + _REPORT],
        cwd=ROOT,
        env=dict(os.environ),
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])
