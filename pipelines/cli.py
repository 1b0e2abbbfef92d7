"""The engine's own command lines: `detect` (JSONL texts in, JSONL spans out) and
`extract` (a .txt or .pdf file in, its text, header and layout map out).

Neither touches a database, so neither needs Django: `manage.py detect` and
`manage.py extract` come straight here (manage.py), which halves a short run's
start-up, and the Django management commands of the same names call the same
functions (for `call_command` and `manage.py help`).
"""

import argparse
import gc
import json
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import IO

from pipelines.detection.config import DEFAULT_MODEL

COMMANDS = ("detect", "extract")

# The young generation's collection threshold for these one-shot commands (Python's
# default is 700). Start-up builds a large heap that is kept to the end (spaCy,
# presidio's ~170 compiled patterns, the model), and with the default the cyclic
# collector walks it again and again: ~0.1 s of a one-line `detect` (8 % of it).
# 10,000 objects between young collections bounds what waits for collection to a
# few megabytes.
GC_YOUNG_THRESHOLD = 10_000


class UsageError(Exception):
    """Bad input or arguments; the message is printed as is."""


def model_name(explicit: str | None = None) -> str:
    """--model, else SPACY_MODEL from the environment (the app's setting), else the default."""
    return explicit or os.environ.get("SPACY_MODEL") or DEFAULT_MODEL


def list_models(out: IO[str]) -> None:
    """The models detection can run with here, their licences, and how to get the
    ones that are missing (`detect --model` without a name)."""
    from pipelines.detection.models.catalog import REGISTRY

    current = model_name()
    out.write("Models (choose with --model NAME, or SPACY_MODEL; a corpus chooses its own in the app):\n")
    for info in REGISTRY.values():
        where = info.location()
        default = " [default]" if current in (info.name, info.package) else ""
        state = f"installed: {where}" if where else f"not installed: {info.install}"
        out.write(f"  {info.name}{default}: {info.description}\n    licence: {info.licence}\n    {state}\n")
    if not any(current in (i.name, i.package) for i in REGISTRY.values()):
        out.write(f"  (SPACY_MODEL is {current})\n")


def read_records(handle: IO[str]) -> list[dict]:
    records = []
    for number, line in enumerate(handle, start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as exc:
            raise UsageError(f"line {number}: not JSON ({exc.msg})") from exc
        if not isinstance(record, dict) or not isinstance(record.get("text"), str):
            raise UsageError(f'line {number}: expected an object with a string "text"')
        records.append(record)
    return records


def detect(
    input_path: str, output_path: str, model: str | None = None, language: str = "en", jobs: int | None = None
) -> None:
    """Run the default detection pipeline over JSONL records ({id, text[, metadata]}
    per line; '-' is stdin/stdout). An optional "metadata" object per line (e.g.
    from `extract`) seeds the header-names recognizer. `language` is a code of
    pipelines/detection/languages/: its pipeline runs, with its model unless
    --model names another. `jobs` processes share the documents (default: one per
    core); the output is the same, in the same order, whatever their number."""
    from pipelines.detection.languages import LanguageError, model_for

    if input_path == "-":
        records = read_records(sys.stdin)
    else:
        try:
            with open(input_path, encoding="utf-8") as handle:
                records = read_records(handle)
        except OSError as exc:
            raise UsageError(f"cannot read {input_path}: {exc.strerror}") from exc
    if jobs is not None and jobs < 1:
        raise UsageError(f"--jobs must be at least 1, not {jobs}")
    try:
        name = model or model_for(language, model_name())
    except LanguageError as exc:
        raise UsageError(str(exc)) from exc
    _check_model(name)
    lines = _detect_lines(records, name, jobs or default_jobs(), language)
    out = sys.stdout if output_path == "-" else open(output_path, "w", encoding="utf-8")  # noqa: SIM115
    try:
        for line in lines:
            out.write(line)
    finally:
        if out is not sys.stdout:
            out.close()


def default_jobs() -> int:
    """The cores this process may run on (a container's or `taskset`'s limit, not
    the machine's count)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def _output_lines(records: list[dict], name: str, language: str = "en") -> list[str]:
    """The output lines of `records`, in their order, detected in this process."""
    from pipelines.detection.pipeline import detect_texts

    # The output holds spans only: no quasi-identifier flags are computed for it.
    results = detect_texts(
        (r["text"] for r in records),
        name,
        (r.get("metadata") for r in records),
        language_code=language,
        quasi_flags=False,
    )
    return [
        json.dumps({"id": record.get("id"), "spans": [c.to_json() for c in result.spans]}, ensure_ascii=False) + "\n"
        for record, result in zip(records, results, strict=True)
    ]


# Batches per process: small enough that the processes finish together (one that
# drew short documents takes more batches instead of idling while another finishes
# a long one), large enough that spaCy still batches documents through the model.
# On 100 transcript slices of 6,000 characters, 2 processes: with 4 batches each the
# busier process did 55 % of the work, with 16 each 50 % (CPU seconds per process).
BATCHES_PER_JOB = 16


def _detect_lines(records: list[dict], name: str, jobs: int, language: str = "en") -> Iterator[str]:
    """Output lines in input order, from `jobs` processes that each detect whole
    batches of documents."""
    jobs = min(jobs, len(records))
    if jobs <= 1:
        yield from _output_lines(records, name, language)
        return
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    # Load the model and compile the recognizers here, once, before the processes
    # exist: forked processes then share that memory copy-on-write instead of each
    # loading its own copy (~1 s and the model's size again per process). Where
    # fork is not available, each process loads it once in _start_job.
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else None)
    if context.get_start_method() == "fork":
        _output_lines([{"text": "Warm-up by Jane Doe."}], name, language)
        # The collector would otherwise write to every object the children
        # inherited (its bookkeeping lives in them), copying the shared pages.
        gc.freeze()
    size = max(1, -(-len(records) // (jobs * BATCHES_PER_JOB)))
    batches = [records[start : start + size] for start in range(0, len(records), size)]
    # An executor rather than multiprocessing.Pool: a process that dies (out of
    # memory) fails the command instead of leaving it waiting for ever.
    with ProcessPoolExecutor(jobs, mp_context=context, initializer=_start_job, initargs=(name,)) as pool:
        try:
            # map keeps the input's order; each process returns finished lines, so
            # only strings cross between processes.
            for lines in pool.map(_job_lines, [(batch, name, language) for batch in batches]):
                yield from lines
        except BrokenProcessPool as exc:
            raise UsageError(f"a detect process died ({exc}); try fewer --jobs or smaller inputs") from exc


def _start_job(name: str) -> None:
    """Each process loads the model once (a no-op after fork: it is already there)."""
    from pipelines.detection.models.nlp import load_nlp

    gc.set_threshold(GC_YOUNG_THRESHOLD, *gc.get_threshold()[1:])
    load_nlp(name)


def _job_lines(job: tuple[list[dict], str, str]) -> list[str]:
    batch, name, language = job
    return _output_lines(batch, name, language)


def _check_model(name: str) -> None:
    """A registry model that is missing is a usage error saying how to install it."""
    from pipelines.detection.models.catalog import resolve

    try:
        resolve(name)
    except OSError as exc:
        raise UsageError(str(exc)) from exc


def extract(file_path: str, out: IO[str]) -> None:
    """Print {"text", "metadata", "pages", "layout"} of a .txt or .pdf as one JSON object."""
    from pipelines.extraction.extract import extract as extract_file
    from pipelines.extraction.text import ExtractionError

    path = Path(file_path)
    try:
        extraction = extract_file(path.name, path.read_bytes())
    except OSError as exc:
        raise UsageError(f"{path}: {exc.strerror or exc}") from exc
    except ExtractionError as exc:
        raise UsageError(f"{path}: {exc}") from exc
    payload = {
        "text": extraction.text,
        "metadata": extraction.metadata,
        "pages": extraction.pages,
        "layout": [list(entry) for entry in extraction.layout],
    }
    out.write(json.dumps(payload, ensure_ascii=False) + "\n")


def parser() -> argparse.ArgumentParser:
    root = argparse.ArgumentParser(prog="manage.py")
    commands = root.add_subparsers(dest="command", required=True)
    det = commands.add_parser("detect", help="detect personal data in JSONL texts; no database")
    det.add_argument("input", nargs="?", help="JSONL file, or - for stdin")
    det.add_argument("--out", help="JSONL output file, or - for stdout")
    det.add_argument(
        "--model",
        nargs="?",
        const="",
        default=None,
        help="sm, md, research, a spaCy package or a model directory (default: $SPACY_MODEL, else open); "
        "--model alone lists the models with their licences",
    )
    det.add_argument(
        "--jobs",
        type=int,
        default=None,
        help="processes sharing the documents (default: one per core); the output is the same",
    )
    det.add_argument("--list-models", action="store_true", help="list the models with their licences (= --model alone)")
    det.add_argument(
        "--language",
        default="en",
        help="the texts' language, a file of pipelines/detection/languages/ (en, fr…): its recognizers and model",
    )
    ext = commands.add_parser("extract", help="extract a .txt or .pdf as JSON; no database")
    ext.add_argument("file")
    return root


def main(argv: list[str]) -> int:
    gc.set_threshold(GC_YOUNG_THRESHOLD, *gc.get_threshold()[1:])
    arguments = parser().parse_args(argv)
    try:
        if arguments.command == "detect" and (arguments.model == "" or arguments.list_models):
            list_models(sys.stdout)
        elif arguments.command == "detect":
            if arguments.input is None or arguments.out is None:
                raise UsageError("detect needs an input and --out (or --model alone to list the models)")
            detect(arguments.input, arguments.out, arguments.model, arguments.language, arguments.jobs)
        else:
            extract(arguments.file, sys.stdout)
    except UsageError as exc:
        print(f"CommandError: {exc}", file=sys.stderr)
        return 1
    return 0
