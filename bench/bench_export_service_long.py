"""The export service on one long document: the whole export process's peak RSS.

Prepares a scratch SQLite database and private storage in a temporary folder
(migrated, one corpus, one approved document of N characters with its spans
accepted, the document of bench_export_long.py), then runs `export_run` in a
fresh process, as a worker would, and prints that process's peak RSS: loading
Django, the document and its spans from the database, rendering, the leak gate
and the zip. Nothing outside the temporary folder is touched.

    .venv/bin/python bench/bench_export_service_long.py 3000000 --plain 9
"""

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _django(folder: Path) -> None:
    os.environ.update(
        ANONYMIZER_STACK="embedded",
        DJANGO_SETTINGS_MODULE="anonymizer_site.settings",
        DATABASE_URL=f"sqlite:///{folder / 'db.sqlite3'}",
        PRIVATE_STORAGE_ROOT=str(folder / "private"),
    )
    os.environ.pop("CELERY_BROKER_URL", None)
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()


def prepare(folder: Path, chars: int, plain: int) -> int:
    _django(folder)
    from django.core.management import call_command

    from bench.bench_export_long import long_document
    from ingestion.models import Corpus, Document
    from review.models import ExportBatch, Span

    call_command("migrate", verbosity=0)
    doc = long_document(chars, plain)
    corpus = Corpus.objects.create(name="bench")
    document = Document.objects.create(
        corpus=corpus, name="hearing.txt", sha256="bench", text=doc.text, status="approved"
    )
    Span.objects.bulk_create(
        (
            Span(document=document, start=s.start, end=s.end, label=s.label, text=s.text, status="accepted")
            for s in doc.spans
        ),
        batch_size=5000,
    )
    return ExportBatch.objects.create(corpus=corpus).pk


def run(folder: Path, batch_id: int) -> None:
    _django(folder)
    from review.models import ExportBatch
    from review.services.export import export_run

    started = time.perf_counter()
    export_run(batch_id=batch_id)
    elapsed = time.perf_counter() - started
    batch = ExportBatch.objects.get(pk=batch_id)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"export {batch.status} in {elapsed:.1f} s {batch.error_message}; export process peak RSS {peak:.0f} MB")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("chars", type=int, nargs="?", default=3_000_000)
    parser.add_argument("--plain", type=int, default=0, help="plain lines after each line with spans")
    parser.add_argument("--run", nargs=2, metavar=("FOLDER", "BATCH"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.run:
        run(Path(args.run[0]), int(args.run[1]))
        return
    with tempfile.TemporaryDirectory() as folder:
        batch_id = prepare(Path(folder), args.chars, args.plain)
        print(f"{args.chars:,} characters (--plain {args.plain}):", flush=True)
        # A fresh process, as a worker: its peak is the export's alone.
        subprocess.run([sys.executable, __file__, "--run", folder, str(batch_id)], check=True)


if __name__ == "__main__":
    main()
