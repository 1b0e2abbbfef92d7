"""`ingest --corpus NAME [--wait] PATH…`: add files to a corpus and pre-annotate them.
A PATH may be a file, a folder (walked recursively, in sorted order), a zip or a CSV
(one document per row)."""

import json
import time
from pathlib import Path

from celery import current_app
from django.core.management.base import BaseCommand, CommandError, CommandParser

from ingestion.models import Document
from ingestion.services import EXTRACTION, document_step_run
from pipelines.extraction.bulk import CsvOptions, is_system_file
from review.selectors.corpora import any_still_in_progress, documents_failed, documents_summary
from review.services.annotation import document_annotate
from review.services.corpora import corpus_get_or_create
from review.services.uploads import upload


def workers_available(timeout: float = 2.0) -> bool:
    """True when at least one Celery worker answers a ping on the broker."""
    try:
        return bool(current_app.control.ping(timeout=timeout))
    except Exception:  # a transport without broadcast (filesystem) or no broker at all
        return False


class Command(BaseCommand):
    help = "Ingest transcript files into a corpus (created if needed) and queue pre-annotation."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--corpus", required=True)
        parser.add_argument(
            "--wait", action="store_true", help="block until annotated; runs the work in-process when no worker answers"
        )
        parser.add_argument("--timeout", type=float, default=600.0, help="seconds to wait with --wait")
        parser.add_argument("--text-column", default="text", help="CSV: the column that holds the text")
        parser.add_argument("--id-column", default=None, help="CSV: the column that names each document")
        parser.add_argument("files", nargs="+", help="files, folders, zips or CSVs")

    def handle(self, *args, **options) -> None:
        corpus = corpus_get_or_create(name=options["corpus"], user=None)
        in_process = options["wait"] and not workers_available()
        csv_options = CsvOptions(text_column=options["text_column"], id_column=options["id_column"])
        documents: list[Document] = []
        failures = 0
        for path in expand_paths(options["files"]):
            try:
                data = path.read_bytes()
            except OSError as exc:
                failures += 1
                self.stderr.write(f"{path}: {exc}")
                continue
            # With no worker nothing is queued: the work happens here, in _wait.
            for result in upload(
                corpus=corpus, name=str(path), data=data, user=None, csv_options=csv_options, queue=not in_process
            ):
                if result.document is None:
                    failures += 1
                    self.stderr.write(str(result.error))
                else:
                    documents.append(result.document)
        if options["wait"]:
            self._wait(documents, options["timeout"], in_process)
            failures += self._report_failed(documents)
        self._print(documents)
        if failures:
            raise CommandError(f"{failures} file(s) could not be ingested")

    def _wait(self, documents: list[Document], timeout: float, in_process: bool) -> None:
        ids = [d.pk for d in documents]
        if in_process:
            for pk in ids:  # idempotent: already processed documents are skipped
                document_step_run(EXTRACTION, pk)
                document_annotate(document_id=pk)
            return
        deadline = time.monotonic() + timeout
        while any_still_in_progress(ids):
            if time.monotonic() > deadline:
                raise CommandError("timed out waiting for pre-annotation")
            time.sleep(0.5)

    def _report_failed(self, documents: list[Document]) -> int:
        """With --wait the extraction is over: files that failed it are failures too."""
        failed = documents_failed([d.pk for d in documents])
        for name, message in failed:
            self.stderr.write(f"{name}: {message}")
        return len(failed)

    def _print(self, documents: list[Document]) -> None:
        rows = documents_summary([d.pk for d in documents])
        for row in rows:
            self.stdout.write(
                json.dumps({"id": row["id"], "name": row["name"], "status": row["status"], "spans": row["span_count"]})
            )


def expand_paths(arguments: list[str]) -> list[Path]:
    """Files as given; folders walked recursively in sorted order, so that the
    documents come out in the same order on every run."""
    paths: list[Path] = []
    for argument in arguments:
        path = Path(argument)
        if path.is_dir():
            found = (p for p in path.rglob("*") if p.is_file() and not is_system_file(str(p.relative_to(path))))
            paths.extend(sorted(found))
        else:
            paths.append(path)  # a missing file is reported when it is read
    return paths
