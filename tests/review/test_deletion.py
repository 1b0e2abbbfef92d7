"""Issue 15, finding 9: deletion deletes. Deleting a document kept its original
on disk, and export zips outlived their corpus. The deletion service (which the
admin uses too) removes the files with their rows."""

import io
import zipfile
from pathlib import Path

import pytest
from django.urls import reverse

from ingestion.models import Corpus, Document
from ingestion.storage import private_storage
from review.models import ExportBatch
from review.services import deletion
from review.services.export import ExportOptions, export_create


@pytest.fixture
def superuser_client(make_user):
    from django.test import Client

    client = Client()
    client.force_login(make_user("root", is_staff=True, is_superuser=True))
    return client


def _file(name: str) -> Path:
    return Path(private_storage().path(name))


@pytest.fixture
def exported(annotated_document, admin_user, django_capture_on_commit_callbacks):
    annotated_document.spans.update(status="accepted")
    with django_capture_on_commit_callbacks(execute=True):
        batch = export_create(corpus=annotated_document.corpus, user=admin_user, options=ExportOptions(scope="all"))
    batch.refresh_from_db()
    assert batch.status == "done", batch.error_message
    with batch.file.open("rb") as handle:
        assert zipfile.ZipFile(io.BytesIO(handle.read())).namelist()
    return annotated_document, batch


@pytest.mark.django_db
def test_deleting_a_document_deletes_its_original_and_the_zips_that_may_hold_it(
    exported, django_capture_on_commit_callbacks
):
    document, batch = exported
    original, zipped = _file(document.original.name), _file(batch.file.name)
    assert original.exists() and zipped.exists()
    with django_capture_on_commit_callbacks(execute=True):
        deletion.document_delete(document=document)
    assert not Document.objects.exists()
    assert not original.exists()
    assert not zipped.exists()
    batch.refresh_from_db()
    assert not batch.file and "may contain" in batch.error_message


@pytest.mark.django_db
def test_deleting_a_corpus_deletes_every_original_and_export(exported, django_capture_on_commit_callbacks):
    document, batch = exported
    files = [_file(document.original.name), _file(batch.file.name)]
    with django_capture_on_commit_callbacks(execute=True):
        deletion.corpus_delete(corpus=document.corpus)
    assert not Corpus.objects.exists() and not ExportBatch.objects.exists()
    assert not any(path.exists() for path in files)


@pytest.mark.django_db
def test_a_rolled_back_delete_keeps_the_files(exported):
    from django.db import transaction

    document, _batch = exported
    original, pk = _file(document.original.name), document.pk
    with pytest.raises(RuntimeError), transaction.atomic():
        deletion.document_delete(document=document)
        raise RuntimeError("rolled back")
    assert original.exists() and Document.objects.filter(pk=pk).exists()


@pytest.mark.django_db
def test_the_admin_deletes_through_the_service(exported, superuser_client, django_capture_on_commit_callbacks):
    document, batch = exported
    zipped = _file(batch.file.name)
    with django_capture_on_commit_callbacks(execute=True):
        response = superuser_client.post(reverse("admin:review_exportbatch_delete", args=[batch.pk]), {"post": "yes"})
    assert response.status_code == 302
    assert not ExportBatch.objects.exists() and not zipped.exists()
    original = _file(document.original.name)
    with django_capture_on_commit_callbacks(execute=True):
        superuser_client.post(
            reverse("admin:ingestion_document_changelist"),
            {"action": "delete_selected", "_selected_action": [document.pk], "post": "yes"},
        )
    assert not Document.objects.exists() and not original.exists()
