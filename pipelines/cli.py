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


def detect(input_path: str, output_path: str, model: str | None = None, language: str = "en") -> None:
    """Run the default detection pipeline over JSONL records ({id, text[, metadata]}
    per line; '-' is stdin/stdout). An optional "metadata" object per line (e.g.
    from `extract`) seeds the header-names recognizer. `language` is a code of
    pipelines/detection/languages/: its pipeline runs, with its model unless
    --model names another."""
    from pipelines.detection.languages import LanguageError, model_for
    from pipelines.detection.pipeline import detect_texts

    try:
        name = model or model_for(language, model_name())
    except LanguageError as exc:
        raise UsageError(str(exc)) from exc

    if input_path == "-":
        records = read_records(sys.stdin)
    else:
        try:
            with open(input_path, encoding="utf-8") as handle:
                records = read_records(handle)
        except OSError as exc:
            raise UsageError(f"cannot read {input_path}: {exc.strerror}") from exc
    _check_model(name)
    results = detect_texts(
        (r["text"] for r in records), name, (r.get("metadata") for r in records), language_code=language
    )
    out = sys.stdout if output_path == "-" else open(output_path, "w", encoding="utf-8")  # noqa: SIM115
    try:
        for record, result in zip(records, results, strict=True):
            line = {"id": record.get("id"), "spans": [c.to_json() for c in result.spans]}
            out.write(json.dumps(line, ensure_ascii=False) + "\n")
    finally:
        if out is not sys.stdout:
            out.close()


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
        help="sm, md, research, a spaCy package or a model directory (default: $SPACY_MODEL, else sm); "
        "--model alone lists the models with their licences",
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
            detect(arguments.input, arguments.out, arguments.model, arguments.language)
        else:
            extract(arguments.file, sys.stdout)
    except UsageError as exc:
        print(f"CommandError: {exc}", file=sys.stderr)
        return 1
    return 0
