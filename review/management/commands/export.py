"""`export --corpus NAME --out FILE.zip [--accept-pending]`: the export zip, headless."""

import shutil

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.urls import reverse

from pipelines.labels import CANONICAL_LABELS
from pipelines.pseudonymize.engine import STRATEGIES
from review.models import Consistency, ExportScope, ExportStatus
from review.selectors.corpora import corpus_named
from review.selectors.leaks import leak_report
from review.services.export import ExportOptions, export_create, export_run


class Command(BaseCommand):
    help = "Export a corpus's pseudonymized documents as a zip (runs in-process)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--corpus", required=True)
        parser.add_argument("--out", required=True)
        parser.add_argument(
            "--accept-pending",
            action="store_true",
            help="treat pending machine spans as accepted (headless batch use); implies --scope all",
        )
        parser.add_argument(
            "--scope",
            choices=ExportScope.values,
            default=None,
            help="which documents: approved (default), reviewed, all",
        )
        parser.add_argument("--strategy", choices=STRATEGIES, default="placeholder")
        parser.add_argument(
            "--keep", nargs="*", default=[], choices=CANONICAL_LABELS, metavar="LABEL", help="labels left unchanged"
        )
        parser.add_argument("--person-numbering", choices=["part", "entity"], default="part")
        parser.add_argument("--consistency", choices=Consistency.values, default=Consistency.DOCUMENT)
        parser.add_argument("--no-index", action="store_true", help="leave out index files and training data")
        parser.add_argument(
            "--keep-stems",
            action="store_true",
            help="name redacted files after their originals, names in them pseudonymized (default: number only)",
        )

    def _report(self, batch) -> None:
        """The leak report, actionable: each residual's document, page and line, the
        review page at that place, and where to redact them all. Never the text
        (nor a document's name: file names can hold names)."""
        report = leak_report(batch)
        for r in report.residuals:
            self.stderr.write(
                f"leak: document {r.document_id} {r.label} at {r.start}-{r.end} in {r.where}"
                + (f" ({r.place}) review: {r.url}" if r.redactable else f" ({r.place}): {r.advice}")
                + (f" The rename form: {r.fix_url}" if r.fix_url else "")
            )
        if report.redactable:
            self.stderr.write(
                f"{len(report.redactable)} remaining occurrence(s) in the text: redact them all as accepted spans "
                f"(audited) on {reverse('export_leaks', args=[batch.pk])}, then export again."
            )

    def handle(self, *args, **options) -> None:
        corpus = corpus_named(options["corpus"])
        if corpus is None:
            raise CommandError(f"no corpus named {options['corpus']!r}")
        scope = options["scope"] or (ExportScope.ALL if options["accept_pending"] else ExportScope.APPROVED)
        export_options = ExportOptions(
            scope=scope,
            accept_pending=options["accept_pending"],
            strategy=options["strategy"],
            per_label=dict.fromkeys(options["keep"], "keep"),
            person_numbering=options["person_numbering"],
            consistency=options["consistency"],
            include_index=not options["no_index"],
            keep_stems=options["keep_stems"],
        )
        try:
            export_options.validate()
        except ValueError as exc:
            raise CommandError(str(exc)) from exc
        batch = export_create(corpus=corpus, user=None, options=export_options, queue=False)
        export_run(batch_id=batch.pk)
        batch.refresh_from_db()
        if batch.status != ExportStatus.DONE:
            self._report(batch)
            raise CommandError(batch.error_message or "export failed")
        with batch.file.open("rb") as source, open(options["out"], "wb") as target:
            shutil.copyfileobj(source, target)
        self.stdout.write(f"{options['out']}: {batch.total} document(s)")
        if batch.error_message:  # documents that failed alone and are not in the zip
            self.stderr.write(batch.error_message)
        if batch.pending_left:
            self.stderr.write(
                f"Not fully anonymized: {batch.pending_left} pending name(s) or ID(s) in "
                f"{batch.pending_documents} document(s) were written as they are (review them, or use "
                "--accept-pending)."
            )
