"""`detect --jobs 2` against `--jobs 1` on BENCH_DOCS documents (default 100) of
BENCH_DOC_CHARS characters (default 6,000; slices of the Ferguson grand jury
transcript in ../shared, the demo transcript without it).

Two figures per job count, BENCH_REPEATS times (default 3, alternating):
- wall: the whole `manage.py detect` process, start-up included;
- critical path: the CPU seconds of the parent before the processes start plus
  those of the busiest process (what the wall time is on an idle machine; on a
  shared one, where the scheduler may give a session one core however many
  processes it runs, the wall time cannot show a parallel speed-up).
The outputs of both job counts must be identical (checked). Prints medians and the
ratios 1 job / 2 jobs.

A third process, "1 job, one core", runs `--jobs 1` under `taskset -c 0`: one
document at a time on one core, as `detect` ran before `--jobs` (issue 29's
baseline). Since then `--jobs 1` itself runs the encoder's batches on every core
(ANONYMIZER_ENCODER_THREADS), so on two cores the plain 1-job figure already uses
both, and its ratio to 2 jobs shows only what the processes add on top.
"""

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

DOCS = int(os.environ.get("BENCH_DOCS", "100"))
DOC_CHARS = int(os.environ.get("BENCH_DOC_CHARS", "6000"))
REPEATS = int(os.environ.get("BENCH_REPEATS", "3"))

# Run in a child process: the CPU of the parent up to the pool, of each process
# after fork (fork starts a child's CPU counters at zero).
PROBE = """
import json, os, resource, sys, time
from pipelines import cli
records = cli.read_records(open(sys.argv[1], encoding="utf-8"))
jobs, log = int(sys.argv[2]), sys.argv[3]
real, parent = cli._output_lines, os.getpid()
def timed(batch, name, language="en"):
    lines = real(batch, name, language)
    if os.getpid() != parent:
        with open(log, "a") as handle:
            handle.write(f"{os.getpid()} {time.process_time()}\\n")
    return lines
cli._output_lines = timed
name = cli.model_name()
cli._check_model(name)
lines = list(cli._detect_lines(records, name, jobs))
usage = resource.getrusage(resource.RUSAGE_SELF)
busiest = {}
for row in open(log):
    pid, cpu = row.split()
    busiest[pid] = max(busiest.get(pid, 0.0), float(cpu))
print(json.dumps({"parent": usage.ru_utime + usage.ru_stime, "processes": sorted(busiest.values())}))
"""


def _texts() -> list[str]:
    from tests.netns_hosts import texts

    return texts(DOCS, DOC_CHARS)


def main() -> None:
    work = Path(tempfile.mkdtemp(prefix="bench-detect-jobs-"))
    source = work / "in.jsonl"
    source.write_text("".join(json.dumps({"id": n, "text": t}) + "\n" for n, t in enumerate(_texts())))
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "CELERY_BROKER_URL")}
    walls: dict[int, list[float]] = {1: [], 2: [], 0: []}
    paths: dict[int, list[float]] = {1: [], 2: []}
    outputs: dict[int, bytes] = {}
    print(f"{DOCS} documents of {DOC_CHARS:,} characters, load average {os.getloadavg()}")
    for repeat in range(REPEATS):
        # 0: one job pinned to one core (the baseline before --jobs); wall time only.
        started = time.monotonic()
        out = work / "out0.jsonl"
        command = ["taskset", "-c", "0", sys.executable, "manage.py", "detect", str(source), "--out", str(out)]
        subprocess.run([*command, "--jobs", "1"], cwd=ROOT, env=env, check=True)
        walls[0].append(time.monotonic() - started)
        outputs[0] = out.read_bytes()
        print(f"  run {repeat + 1}, 1 job on one core: wall {walls[0][-1]:.2f} s, load {os.getloadavg()[0]:.1f}")
        for jobs in (1, 2) if repeat % 2 == 0 else (2, 1):
            out = work / f"out{jobs}.jsonl"
            started = time.monotonic()
            command = [sys.executable, "manage.py", "detect", str(source), "--out", str(out), "--jobs", str(jobs)]
            subprocess.run(command, cwd=ROOT, env=env, check=True)
            walls[jobs].append(time.monotonic() - started)
            outputs[jobs] = out.read_bytes()
            log = work / f"cpu{jobs}-{repeat}.txt"
            log.write_text("")
            probe = subprocess.run(
                [sys.executable, "-c", PROBE, str(source), str(jobs), str(log)],
                cwd=ROOT,
                env=env,
                check=True,
                capture_output=True,
                text=True,
            )
            cpu = json.loads(probe.stdout.splitlines()[-1])
            path = cpu["parent"] + max(cpu["processes"], default=0.0)
            paths[jobs].append(path)
            print(
                f"  run {repeat + 1}, {jobs} job(s): wall {walls[jobs][-1]:.2f} s, critical path {path:.2f} s "
                f"(parent {cpu['parent']:.2f} s, processes {[round(p, 2) for p in cpu['processes']]}), "
                f"load {os.getloadavg()[0]:.1f}"
            )
    if not outputs[0] == outputs[1] == outputs[2]:
        raise SystemExit("the outputs of --jobs 1 (one core or all) and --jobs 2 differ")
    wall = {j: statistics.median(v) for j, v in walls.items()}
    path = {j: statistics.median(v) for j, v in paths.items()}
    print(f"wall: 1 job {wall[1]:.2f} s, 2 jobs {wall[2]:.2f} s, ratio {wall[1] / wall[2]:.2f}x (medians)")
    print(f"wall: 1 job on one core {wall[0]:.2f} s, 2 jobs {wall[2]:.2f} s, ratio {wall[0] / wall[2]:.2f}x (medians)")
    print(f"critical path: 1 job {path[1]:.2f} s, 2 jobs {path[2]:.2f} s, ratio {path[1] / path[2]:.2f}x (medians)")
    print("outputs identical")


if __name__ == "__main__":
    main()
