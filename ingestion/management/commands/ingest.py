"""`ingest --corpus NAME [--wait] FILE…`: add files to a corpus and pre-annotate them."""

import json
import time
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db.models import Count, Q

from anonymizer_site.celery import app as celery_app
from ingestion.models import Document, DocumentStatus
from ingestion.services import IngestError, corpus_get_or_create, document_extract, document_ingest
from pipelines.services import document_annotate
from review.models import SpanStatus


def workers_available(timeout: float = 2.0) -> bool:
    """True when at least one Celery worker answers a ping on the broker."""
    try:
        return bool(celery_app.control.ping(timeout=timeout))
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
        parser.add_argument("files", nargs="+")

    def handle(self, *args, **options) -> None:
        corpus = corpus_get_or_create(name=options["corpus"], user=None)
        in_process = options["wait"] and not workers_available()
        documents: list[Document] = []
        failures = 0
        for name in options["files"]:
            path = Path(name)
            try:
                data = path.read_bytes()
                # With no worker nothing is queued: the work happens here, in _wait.
                document, _created = document_ingest(
                    corpus=corpus, name=path.name, data=data, user=None, queue=not in_process
                )
                documents.append(document)
            except (OSError, IngestError) as exc:
                failures += 1
                self.stderr.write(f"{name}: {exc}")
        if options["wait"]:
            self._wait(documents, options["timeout"], in_process)
        self._print(documents)
        if failures:
            raise CommandError(f"{failures} file(s) could not be ingested")

    def _wait(self, documents: list[Document], timeout: float, in_process: bool) -> None:
        ids = [d.pk for d in documents]
        if in_process:
            for pk in ids:  # idempotent: already processed documents are skipped
                document_extract(document_id=pk)
                document_annotate(document_id=pk)
            return
        deadline = time.monotonic() + timeout
        while Document.objects.filter(
            pk__in=ids, status__in=[DocumentStatus.UPLOADED, DocumentStatus.EXTRACTING, DocumentStatus.ANNOTATING]
        ).exists():
            if time.monotonic() > deadline:
                raise CommandError("timed out waiting for pre-annotation")
            time.sleep(0.5)

    def _print(self, documents: list[Document]) -> None:
        rows = (
            Document.objects.filter(pk__in=[d.pk for d in documents])
            .annotate(span_count=Count("spans", filter=~Q(spans__status=SpanStatus.REJECTED)))
            .values("id", "name", "status", "span_count")
            .order_by("id")
        )
        for row in rows:
            self.stdout.write(
                json.dumps({"id": row["id"], "name": row["name"], "status": row["status"], "spans": row["span_count"]})
            )
