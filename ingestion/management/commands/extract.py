"""`extract FILE`: print the extracted text, header metadata and layout map as JSON."""

import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError, CommandParser

from pipelines.extraction.extract import extract
from pipelines.extraction.text import ExtractionError


class Command(BaseCommand):
    help = 'Extract a .txt or .pdf file and print {"text", "metadata", "pages", "layout"} as one JSON object.'
    # Pure extraction: no database, so it runs where none is configured.
    requires_system_checks: list = []

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file")

    def handle(self, *args, **options) -> None:
        path = Path(options["file"])
        try:
            extraction = extract(path.name, path.read_bytes())
        except OSError as exc:
            raise CommandError(f"{path}: {exc.strerror or exc}") from exc
        except ExtractionError as exc:
            raise CommandError(f"{path}: {exc}") from exc
        payload = {
            "text": extraction.text,
            "metadata": extraction.metadata,
            "pages": extraction.pages,
            "layout": [list(entry) for entry in extraction.layout],
        }
        self.stdout.write(json.dumps(payload, ensure_ascii=False))
