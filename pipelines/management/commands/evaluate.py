"""`evaluate GOLD [--format conll|jsonl] [--limit N] [--json]`: detection quality."""

import json
from itertools import islice
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from pipelines.evaluation import evaluate, read_conll, read_jsonl


class Command(BaseCommand):
    help = "Score the default detection pipeline against gold data (per label and per source)."
    requires_system_checks: list = []

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("gold", type=Path)
        parser.add_argument("--format", choices=["conll", "jsonl"], default=None, help="default: by extension")
        parser.add_argument("--limit", type=int, default=None, help="first N documents/sentences only")
        parser.add_argument("--json", action="store_true", help="machine-readable output")

    def handle(self, *args, **options) -> None:
        path: Path = options["gold"]
        if not path.exists():
            raise CommandError(f"{path}: no such file")
        fmt = options["format"] or ("jsonl" if path.suffix == ".jsonl" else "conll")
        reader = read_jsonl if fmt == "jsonl" else read_conll
        documents = list(islice(reader(path), options["limit"]))
        if not documents:
            raise CommandError(f"{path}: no documents")
        report = evaluate(documents, settings.SPACY_MODEL)
        if options["json"]:
            self.stdout.write(json.dumps(report.as_dict(), indent=2))
            return
        summary = report.as_dict()
        self.stdout.write(
            f"{summary['documents']} documents, {summary['characters']} characters, "
            f"{summary['chars_per_second']} chars/s, peak RSS {summary['peak_rss_mb']} MB"
        )
        self.stdout.write(report.table())
