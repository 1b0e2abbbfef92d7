"""The `ingest` and `export` command-line contract."""

import io
import json
import zipfile

import pytest
from django.core.management import CommandError, call_command

from anonymizer_site.celery import app as celery_app
from ingestion.models import Corpus
from tests.conftest import DEMO_TEXT

pytestmark = pytest.mark.django_db


@pytest.fixture
def files(tmp_path):
    good = tmp_path / "hearing.txt"
    good.write_text(DEMO_TEXT, encoding="utf-8")
    empty = tmp_path / "empty.txt"
    empty.write_bytes(b"")
    return good, empty


@pytest.fixture
def no_worker(monkeypatch):
    # --wait asks the broker whether a worker answers; here none does, so the
    # command must do the work in-process (and queue nothing).
    celery_app.conf.task_always_eager = False  # restored by the autouse fixture
    monkeypatch.setattr("review.management.commands.ingest.workers_available", lambda timeout=2.0: False)
    monkeypatch.setattr("review.services.jobs.enqueue", lambda *a: pytest.fail("nothing may be queued"))


def test_ingest_wait_runs_in_process_and_prints_json_lines(files, no_worker):
    good, empty = files
    out, err = io.StringIO(), io.StringIO()
    with pytest.raises(CommandError, match="1 file"):
        call_command("ingest", "--corpus", "CLI", "--wait", str(good), str(empty), stdout=out, stderr=err)
    assert "empty.txt" in err.getvalue() and "empty" in err.getvalue()
    rows = [json.loads(line) for line in out.getvalue().splitlines()]
    assert len(rows) == 1
    assert set(rows[0]) == {"id", "name", "status", "spans"}
    assert rows[0]["name"] == "hearing.txt" and rows[0]["status"] == "ready" and rows[0]["spans"] > 5
    assert Corpus.objects.filter(name="CLI").exists()


def test_export_accept_pending_writes_the_zip(files, no_worker, tmp_path):
    good, _ = files
    call_command("ingest", "--corpus", "CLI", "--wait", str(good), stdout=io.StringIO())
    target = tmp_path / "out.zip"
    call_command("export", "--corpus", "CLI", "--out", str(target), "--accept-pending", stdout=io.StringIO())
    archive = zipfile.ZipFile(target)
    redacted = archive.read(next(n for n in archive.namelist() if n.startswith("redacted/"))).decode()
    assert "Delgado" not in redacted and "[PERSON_" in redacted


def test_export_without_accepted_spans_keeps_text_and_unknown_corpus_fails(files, no_worker, tmp_path):
    good, _ = files
    call_command("ingest", "--corpus", "CLI", "--wait", str(good), stdout=io.StringIO())
    target = tmp_path / "out.zip"
    err = io.StringIO()
    call_command("export", "--corpus", "CLI", "--out", str(target), "--scope", "all", stdout=io.StringIO(), stderr=err)
    assert "Not fully anonymized:" in err.getvalue() and "--accept-pending" in err.getvalue()
    redacted = zipfile.ZipFile(target).read(
        next(n for n in zipfile.ZipFile(target).namelist() if n.startswith("redacted/"))
    )
    assert redacted.decode() == DEMO_TEXT  # nothing accepted: nothing replaced
    with pytest.raises(CommandError, match="no corpus"):
        call_command("export", "--corpus", "Nope", "--out", str(target))


def test_export_names_files_by_number_unless_asked_to_keep_pseudonymized_stems(no_worker, tmp_path):
    source = tmp_path / "marcus-delgado-hearing-2023.txt"
    source.write_text(DEMO_TEXT, encoding="utf-8")
    call_command("ingest", "--corpus", "CLI", "--wait", str(source), stdout=io.StringIO())
    plain, kept = tmp_path / "plain.zip", tmp_path / "kept.zip"
    call_command("export", "--corpus", "CLI", "--out", str(plain), "--accept-pending", stdout=io.StringIO())
    call_command(
        "export", "--corpus", "CLI", "--out", str(kept), "--accept-pending", "--keep-stems", stdout=io.StringIO()
    )
    (default_name,) = [n for n in zipfile.ZipFile(plain).namelist() if n.startswith("redacted/")]
    (kept_name,) = [n for n in zipfile.ZipFile(kept).namelist() if n.startswith("redacted/")]
    assert "hearing" not in default_name and "delgado" not in default_name.lower()
    assert "hearing" in kept_name and "[YEAR]" in kept_name
    assert "delgado" not in kept_name.lower() and "marcus" not in kept_name.lower()
    assert json.loads(zipfile.ZipFile(kept).read("manifest.json"))["settings"]["keep_stems"] is True
