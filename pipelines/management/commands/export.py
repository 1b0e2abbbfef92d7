"""`export --corpus NAME --out FILE.zip [--accept-pending]`: the export zip, headless."""

import shutil

from django.core.management.base import BaseCommand, CommandError, CommandParser

from ingestion.models import Corpus
from pipelines.models import ExportBatch, ExportStatus
from pipelines.services import export_run


class Command(BaseCommand):
    help = "Export a corpus's pseudonymized documents as a zip (runs in-process)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--corpus", required=True)
        parser.add_argument("--out", required=True)
        parser.add_argument(
            "--accept-pending", action="store_true", help="treat pending machine spans as accepted (headless batch use)"
        )

    def handle(self, *args, **options) -> None:
        corpus = Corpus.objects.filter(name=options["corpus"]).first()
        if corpus is None:
            raise CommandError(f"no corpus named {options['corpus']!r}")
        batch = ExportBatch.objects.create(corpus=corpus, accept_pending=options["accept_pending"])
        export_run(batch_id=batch.pk)
        batch.refresh_from_db()
        if batch.status != ExportStatus.DONE:
            for leak in batch.report:
                self.stderr.write(
                    f"leak: document {leak['document_id']} {leak['label']} at {leak['span_start']}-{leak['span_end']}"
                )
            raise CommandError(batch.error_message or "export failed")
        with batch.file.open("rb") as source, open(options["out"], "wb") as target:
            shutil.copyfileobj(source, target)
        self.stdout.write(f"{options['out']}: {batch.total} document(s)")
