"""`evaluate GOLD [--format conll|jsonl] [--limit N] [--json] [--benchmarks FILE --markdown-section NAME]`:
detection quality of the default pipeline against gold data."""

import json
import shlex
from itertools import islice
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from pipelines.evaluation import evaluate, markdown_section, read_conll, read_jsonl, write_section


class Command(BaseCommand):
    help = "Score the default detection pipeline against gold data (per label and per source)."
    requires_system_checks: list = []

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("gold", type=Path)
        parser.add_argument("--format", choices=["conll", "jsonl"], default=None, help="default: by extension")
        parser.add_argument("--limit", type=int, default=None, help="first N documents/sentences only")
        parser.add_argument("--json", action="store_true", help="machine-readable output")
        parser.add_argument(
            "--benchmarks", type=Path, default=None, help="markdown file to write the results into (BENCHMARKS.md)"
        )
        parser.add_argument(
            "--markdown-section",
            default=None,
            help="NAME: replace the text between <!-- eval:NAME:start/end --> (appended when absent)",
        )
        parser.add_argument("--title", default=None, help="heading of the markdown section")
        parser.add_argument("--note", default="", help="a sentence under the heading (what the gold set is)")

    def handle(self, *args, **options) -> None:
        path: Path = options["gold"]
        if not path.exists():
            raise CommandError(f"{path}: no such file")
        if bool(options["benchmarks"]) != bool(options["markdown_section"]):
            raise CommandError("--benchmarks and --markdown-section go together")
        fmt = options["format"] or ("jsonl" if path.suffix == ".jsonl" else "conll")
        reader = read_jsonl if fmt == "jsonl" else read_conll
        documents = list(islice(reader(path), options["limit"]))
        if not documents:
            raise CommandError(f"{path}: no documents")
        report = evaluate(documents, settings.SPACY_MODEL)
        if options["benchmarks"]:
            section = options["markdown_section"]
            body = markdown_section(
                report,
                title=options["title"] or f"{path.name}",
                command=self._command_line(path, options),
                note=options["note"],
                model=settings.SPACY_MODEL,
            )
            write_section(options["benchmarks"], section, body)
        if options["json"]:
            self.stdout.write(json.dumps(report.as_dict(), indent=2))
            return
        summary = report.as_dict()
        self.stdout.write(
            f"{summary['documents']} documents, {summary['characters']} characters, {summary['words']} words, "
            f"{summary['chars_per_second']} chars/s, peak RSS {summary['peak_rss_mb']} MB"
        )
        self.stdout.write(report.table())
        if options["benchmarks"]:
            self.stdout.write(f"wrote section {options['markdown_section']!r} of {options['benchmarks']}")

    @staticmethod
    def _command_line(path: Path, options: dict) -> str:
        """The command that reproduces these numbers (without the output options)."""
        parts = ["python", "manage.py", "evaluate", str(path)]
        if options["format"]:
            parts += ["--format", options["format"]]
        if options["limit"] is not None:
            parts += ["--limit", str(options["limit"])]
        return shlex.join(parts)
