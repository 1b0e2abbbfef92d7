"""`detect INPUT --out OUTPUT`: JSONL in, JSONL of spans out, no database."""

import json
import sys
from typing import IO

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from pipelines.detection.pipeline import detect_texts


def _read_records(handle: IO[str]) -> list[dict]:
    records = []
    for number, line in enumerate(handle, start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as exc:
            raise CommandError(f"line {number}: not JSON ({exc.msg})") from exc
        if not isinstance(record, dict) or not isinstance(record.get("text"), str):
            raise CommandError(f'line {number}: expected an object with a string "text"')
        records.append(record)
    return records


class Command(BaseCommand):
    help = "Run the default detection pipeline over JSONL texts ({id, text} per line; '-' is stdin)."
    requires_system_checks: list = []

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("input", help="JSONL file, or - for stdin")
        parser.add_argument("--out", required=True, help="JSONL output file, or - for stdout")

    def handle(self, *args, **options) -> None:
        if options["input"] == "-":
            records = _read_records(sys.stdin)
        else:
            try:
                with open(options["input"], encoding="utf-8") as handle:
                    records = _read_records(handle)
            except OSError as exc:
                raise CommandError(f"cannot read {options['input']}: {exc.strerror}") from exc
        # An optional "metadata" object per line (e.g. from `extract`) seeds header names.
        results = detect_texts((r["text"] for r in records), settings.SPACY_MODEL, (r.get("metadata") for r in records))
        out = sys.stdout if options["out"] == "-" else open(options["out"], "w", encoding="utf-8")  # noqa: SIM115
        try:
            for record, result in zip(records, results, strict=True):
                line = {"id": record.get("id"), "spans": [c.to_json() for c in result.spans]}
                out.write(json.dumps(line, ensure_ascii=False) + "\n")
        finally:
            if out is not sys.stdout:
                out.close()
