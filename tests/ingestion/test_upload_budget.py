"""Issue 28, item 2: one document budget for an upload, whatever the mix of members.

A zip holding a 1,000-row CSV and 999 text files stored 1,999 documents against a
limit of 1,000: the expansion ignored the budget's answer for non-CSV members.
Now every member takes from the one budget, and a member past it is refused by
name while everything before it stays stored.

Repeated uploads: MAX_UPLOAD_DOCUMENTS is what one user may store within
UPLOAD_BUDGET_WINDOW_SECONDS (60 s by default), not per form post alone; a second
upload a moment after the first gets what the first left."""

import csv
import io
import zipfile
from datetime import timedelta

import pytest
from django.utils import timezone

from ingestion.models import Document
from pipelines.extraction.bulk import BulkLimits, UploadBudget, expand_upload


def _csv(rows: int, first: int = 0) -> bytes:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["text"])
    writer.writerows([f"Row {n}: Mr. Smith spoke."] for n in range(first, first + rows))
    return out.getvalue().encode()


def _zip(members: dict[str, bytes]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return out.getvalue()


def _file_members(files: int) -> dict[str, bytes]:
    return {f"file{n:04d}.txt": f"Statement {n} of Mr. Smith.".encode() for n in range(files)}


def _files(files: int) -> bytes:
    return _zip(_file_members(files))


def _csv_and_files(rows: int, files: int, csv_name: str = "a_rows.csv") -> bytes:
    return _zip({csv_name: _csv(rows), **_file_members(files)})


def test_the_issue_zip_a_1000_row_csv_and_999_files_stores_1000_not_1999():
    items = expand_upload("pack.zip", _csv_and_files(1000, 999), BulkLimits(max_members=1000))
    stored = [item for item in items if item.error is None]
    refused = [item for item in items if item.error is not None]
    assert len(stored) == 1000  # the CSV's rows, taken first (members in name order)
    assert len(refused) == 999 and len(items) == 1999  # every file accounted for, none lost silently
    assert refused[0].name == "pack.zip/file0000.txt"
    assert refused[0].error == (
        "not stored: the limit is 1,000 documents per upload (MAX_UPLOAD_DOCUMENTS), and none are left; "
        "upload it in another upload."
    )


def test_files_before_the_csv_are_stored_and_the_csv_that_no_longer_fits_fails_whole():
    items = expand_upload("pack.zip", _csv_and_files(8, 5, csv_name="z_rows.csv"), BulkLimits(max_members=10))
    assert [item.name for item in items if item.error is None] == [f"pack.zip/file{n:04d}.txt" for n in range(5)]
    (refused,) = [item for item in items if item.error is not None]
    assert refused.name == "pack.zip/z_rows.csv"
    assert "holds 8 rows; the limit is 10 documents per upload (MAX_UPLOAD_DOCUMENTS), and 5 more fit" in (
        refused.error
    )


def test_the_budget_holds_across_files_of_every_kind():
    budget = UploadBudget(6)
    first = expand_upload("a.zip", _csv_and_files(2, 2), BulkLimits(), budget=budget)
    second = expand_upload("b.zip", _csv_and_files(1, 1), BulkLimits(), budget=budget)
    third = expand_upload("c.txt", b"Mr. Smith spoke.", BulkLimits(), budget=budget)
    stored = [item for item in first + second + third if item.error is None]
    assert len(stored) == 6 and budget.left == 0
    assert third[0].error.startswith("not stored: the limit is 6 documents per upload (MAX_UPLOAD_DOCUMENTS)")


@pytest.mark.django_db
def test_a_mixed_zip_through_the_upload_service_stores_no_document_over_the_cap(
    corpus, admin_user, settings, django_capture_on_commit_callbacks
):
    from review.services.uploads import upload, upload_budget

    settings.MAX_UPLOAD_DOCUMENTS = 20
    with django_capture_on_commit_callbacks(execute=False):
        results = upload(
            corpus=corpus, name="pack.zip", data=_csv_and_files(20, 19), user=admin_user, budget=upload_budget()
        )
    assert Document.objects.count() == 20
    assert len(results) == 39
    assert sum(result.error is not None and "MAX_UPLOAD_DOCUMENTS" in result.error for result in results) == 19


@pytest.mark.django_db
def test_uploads_repeated_within_the_window_share_the_cap_and_a_later_one_starts_afresh(
    client, corpus, admin_user, settings
):
    from django.contrib.messages import get_messages
    from django.core.files.uploadedfile import SimpleUploadedFile
    from django.urls import reverse

    settings.MAX_UPLOAD_DOCUMENTS = 5
    settings.UPLOAD_BUDGET_WINDOW_SECONDS = 60
    client.force_login(admin_user)
    url = reverse("document_upload", args=[corpus.pk])
    client.post(url, {"files": [SimpleUploadedFile("first.csv", _csv(4))]})
    assert Document.objects.count() == 4
    # An archive with more members than are left fails whole (as a CSV with more rows does).
    response = client.post(url, {"files": [SimpleUploadedFile("second.zip", _files(3))]})
    assert Document.objects.count() == 4
    messages = [str(m) for m in get_messages(response.wsgi_request)]
    assert (
        "second.zip: the archive holds 3 files; the limit is 5 documents per upload (MAX_UPLOAD_DOCUMENTS), "
        "and you stored 4 in the last 60 seconds (UPLOAD_BUDGET_WINDOW_SECONDS), and 1 more fit in this one."
    ) in messages, messages
    files = [SimpleUploadedFile("fifth.txt", b"Mr. Smith spoke."), SimpleUploadedFile("sixth.txt", b"Mr. Jones.")]
    response = client.post(url, {"files": files})
    assert Document.objects.count() == 5  # one more fitted, not two
    messages = [str(m) for m in get_messages(response.wsgi_request)]
    assert (
        "sixth.txt: not stored: the limit is 5 documents per upload (MAX_UPLOAD_DOCUMENTS), and you stored 4 in "
        "the last 60 seconds (UPLOAD_BUDGET_WINDOW_SECONDS), and none are left; upload it in another upload or "
        "wait 60 seconds."
    ) in messages, messages
    # A minute later the same user has the whole cap again.
    Document.objects.update(created_at=timezone.now() - timedelta(seconds=61))
    client.post(url, {"files": [SimpleUploadedFile("third.csv", _csv(5, first=100))]})
    assert Document.objects.count() == 10


@pytest.mark.django_db
def test_another_users_uploads_do_not_spend_this_users_budget(corpus, admin_user, make_user, settings):
    from review.services.uploads import upload, upload_budget

    settings.MAX_UPLOAD_DOCUMENTS = 3
    upload(corpus=corpus, name="a.csv", data=_csv(3), user=admin_user, queue=False, budget=upload_budget(admin_user))
    other = make_user("other")
    assert upload_budget(other).left == 3
    assert upload_budget(admin_user).left == 0
