"""Bulk input: zips, CSVs and folders expand into items that fail one by one, and the
whole malformed corpus goes through the upload view without losing a file."""

import io
import json
import zipfile
from pathlib import PurePath

import pytest
from django.contrib.auth import get_user_model
from django.contrib.messages import get_messages
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.test import Client, TestCase, override_settings
from django.urls import reverse
from hypothesis import given, settings
from hypothesis import strategies as st

from anonymizer_site.celery import app as celery_app
from ingestion.models import Corpus, Document
from pipelines.extraction.bulk import BulkLimits, CsvOptions, UploadItem, expand_upload
from review.models import CorpusMembership, Role
from tests.malformed import CORPUS_MAX_UPLOAD_BYTES, good_cases, malformed_cases

LIMITS = BulkLimits()


def make_zip(members: dict[str, bytes], compression: int = zipfile.ZIP_DEFLATED) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", compression=compression) as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return out.getvalue()


def errors(items: list[UploadItem]) -> dict[str, str]:
    return {item.name: item.error for item in items if item.error is not None}


# --- zip ---------------------------------------------------------------------


def test_zip_members_become_items_in_sorted_order_folders_included():
    data = make_zip(
        {
            "b.txt": b"second",
            "folder/sub/c.pdf": b"%PDF-1.4 third",
            "a.txt": b"first",
            "__MACOSX/._a.txt": b"\x00\x05resource fork",
            "folder/.DS_Store": b"\x00\x00\x00\x01Bud1",
        }
    )
    with zipfile.ZipFile(io.BytesIO(data), "a") as archive:
        archive.writestr(zipfile.ZipInfo("empty-dir/"), b"")  # directories are skipped
    items = expand_upload("batch.zip", data, LIMITS)
    assert items == [
        UploadItem("batch.zip/a.txt", b"first"),
        UploadItem("batch.zip/b.txt", b"second"),
        UploadItem("batch.zip/folder/sub/c.pdf", b"%PDF-1.4 third"),
    ]


def test_zip_path_traversal_is_refused_per_member_and_the_others_carry_on():
    data = make_zip({"../up.txt": b"x", "/abs.txt": b"y", "a/../../b.txt": b"z", "C:\\win.txt": b"w", "ok.txt": b"ok"})
    items = expand_upload("t.zip", data, LIMITS)
    assert [i for i in items if i.error is None] == [UploadItem("t.zip/ok.txt", b"ok")]
    refused = errors(items)
    assert len(refused) == 4
    assert all("unsafe path" in reason for reason in refused.values())


def test_nested_zip_is_refused_but_a_csv_inside_a_zip_is_expanded():
    data = make_zip({"inner.zip": make_zip({"a.txt": b"a"}), "rows.csv": b"text\nhello\nworld\n"})
    items = expand_upload("outer.zip", data, LIMITS)
    assert errors(items) == {
        "outer.zip/inner.zip": "nested archives are not supported; unpack it and upload its files."
    }
    assert [(i.name, i.data) for i in items if i.error is None] == [
        ("outer.zip/rows_1.txt", b"hello"),
        ("outer.zip/rows_2.txt", b"world"),
    ]


@pytest.mark.parametrize("data", [b"PK\x03\x04 cut short", b"not a zip at all", make_zip({"a.txt": b"a"})[:-10]])
def test_corrupt_zip_is_one_failed_item(data):
    assert errors(expand_upload("c.zip", data, LIMITS)) == {"c.zip": "the zip archive is damaged or not a zip file."}


def test_empty_zip_file_fails_and_an_empty_archive_gives_nothing():
    assert errors(expand_upload("e.zip", b"", LIMITS)) == {"e.zip": "the file is empty."}
    assert expand_upload("e.zip", make_zip({}), LIMITS) == []


def test_zip_with_too_many_members_fails_as_a_whole():
    data = make_zip({f"{n}.txt": b"x" for n in range(6)})
    assert errors(expand_upload("m.zip", data, BulkLimits(max_members=5))) == {
        "m.zip": "the archive holds 6 files; the limit is 5 documents per upload (MAX_UPLOAD_DOCUMENTS)."
    }
    assert len(expand_upload("m.zip", data, BulkLimits(max_members=6))) == 6


def test_zip_bomb_stops_before_anything_is_inflated():
    data = make_zip({"a.txt": bytes(600_000), "b.txt": bytes(600_000)})
    assert len(data) < 5000
    reason = errors(expand_upload("bomb.zip", data, BulkLimits(max_total_bytes=1_000_000)))["bomb.zip"]
    assert "zip bomb" in reason and "1,200,000 bytes" in reason


def test_member_too_large_or_too_compressed_fails_alone():
    data = make_zip({"big.txt": b"y" * 5000, "zeros.txt": bytes(20_000), "ok.txt": b"fine"})
    limits = BulkLimits(max_member_bytes=10_000, max_ratio=50, ratio_min_bytes=1000)
    items = expand_upload("z.zip", data, limits)
    refused = errors(items)
    assert "larger than 10,000 bytes once uncompressed" in refused["z.zip/zeros.txt"]
    assert "zip bomb" in refused["z.zip/big.txt"]  # 5000 bytes of one letter compress far beyond 50:1
    assert [i.name for i in items if i.error is None] == ["z.zip/ok.txt"]
    # Below ratio_min_bytes, short repetitive text is harmless and accepted.
    items = expand_upload("z.zip", data, BulkLimits(max_ratio=50, ratio_min_bytes=6000))
    assert list(errors(items)) == ["z.zip/zeros.txt"]
    assert [i.name for i in items if i.error is None] == ["z.zip/big.txt", "z.zip/ok.txt"]


def test_damaged_member_fails_alone():
    good = make_zip({"a.txt": b"Mr. Smith testified. " * 50, "b.txt": b"fine"})
    data = bytearray(good)
    start = 30 + len("a.txt") + 5  # inside a.txt's compressed stream
    for offset in range(start, start + 8):
        data[offset] ^= 0xFF
    items = expand_upload("d.zip", bytes(data), LIMITS)
    assert errors(items) == {"d.zip/a.txt": "could not be extracted; the archive is damaged."}
    assert [i.name for i in items if i.error is None] == ["d.zip/b.txt"]


def test_limits_follow_the_per_file_upload_limit():
    limits = BulkLimits.for_file_limit(10 * 1024 * 1024)
    assert limits.max_member_bytes == 10 * 1024 * 1024 and limits.max_total_bytes == 40 * 1024 * 1024


# --- csv ---------------------------------------------------------------------


def test_csv_rows_become_text_items_named_by_row_number():
    data = b'id,text\n1,Mr. Smith\n2,"Ms. Jones,\nsecond line"\n\n3,Dr. Who\n'
    items = expand_upload("interviews.csv", data, LIMITS, CsvOptions())
    assert items == [
        UploadItem("interviews_1.txt", b"Mr. Smith"),
        UploadItem("interviews_2.txt", b"Ms. Jones,\nsecond line"),
        UploadItem("interviews_4.txt", b"Dr. Who"),  # the blank line is row 3 and is skipped
    ]


def test_csv_id_column_names_the_items_safely():
    data = "case,body\nK-48213,Café talk\n../../etc,Other\n".encode("cp1252")
    items = expand_upload("dir/rows.csv", data, LIMITS, CsvOptions(text_column="body", id_column="case"))
    assert items == [
        UploadItem("dir/rows_K-48213.txt", "Café talk".encode()),
        UploadItem("dir/rows_etc.txt", b"Other"),
    ]


def test_csv_semicolons_and_utf16_are_understood():
    data = "id;text\n1;Mr. Smith, again\n".encode("utf-16")
    assert expand_upload("s.csv", data, LIMITS) == [UploadItem("s_1.txt", b"Mr. Smith, again")]


def test_csv_cells_larger_than_the_csv_module_default_are_read():
    text = "Mr. Smith. " * 20_000  # 220 KB, beyond csv's 128 KB default field limit
    items = expand_upload("big.csv", f'text\n"{text}"\n'.encode(), LIMITS)
    assert items == [UploadItem("big_1.txt", text.encode())]


@pytest.mark.parametrize(
    ("data", "options", "reason"),
    [
        (b"", CsvOptions(), "the CSV file is empty."),
        (b"\n\n", CsvOptions(), "the CSV file is empty."),
        (b"id,text\n", CsvOptions(), "the CSV file has no rows under its header."),
        (b"id,body\n1,x\n", CsvOptions(), "no column named “text”; the columns are: id, body."),
        (b"id,text\n1,x\n", CsvOptions(id_column="case"), "no column named “case”; the columns are: id, text."),
        (b'text\n"open quote\n', CsvOptions(), "not a valid CSV file (unexpected end of data)."),
        (b'text\n"a"b\n', CsvOptions(), "not a valid CSV file (',' expected after '\"')."),
        (b"text\n\x81\x8d\x8f\x90\x9d\n", CsvOptions(), "The file is not text in UTF-8, UTF-16 or Windows-1252."),
        (b"text\nx\n", CsvOptions(text_column=""), "choose the CSV column that holds the text."),
    ],
)
def test_bad_csv_is_one_failed_item(data, options, reason):
    assert expand_upload("f.csv", data, LIMITS, options) == [UploadItem("f.csv", None, reason)]


def test_bad_csv_rows_fail_alone():
    data = b"id,text\n1,Mr. Smith\n2,  \n,Ms. Jones\n4,a,extra\n5,Dr. Who\n"
    items = expand_upload("r.csv", data, LIMITS, CsvOptions(id_column="id"))
    assert errors(items) == {
        "r_2.txt": "row 2: empty text.",
        "r_3.txt": "row 3: empty id.",
        "r_4.txt": "row 4: 3 fields, the header has 2.",
    }
    assert [i.name for i in items if i.error is None] == ["r_1.txt", "r_5.txt"]


def test_csv_too_large_or_with_too_many_rows_fails_as_a_whole():
    data = b"text\n" + b"row\n" * 6
    assert errors(expand_upload("n.csv", data, BulkLimits(max_members=5))) == {
        "n.csv": "the CSV file holds 6 rows; the limit is 5 documents per upload (MAX_UPLOAD_DOCUMENTS)."
    }
    assert errors(expand_upload("n.csv", data, BulkLimits(max_member_bytes=10))) == {
        "n.csv": "the CSV file is larger than 10 bytes."
    }


def test_other_files_pass_through_unchanged():
    for name in ["a.txt", "b.PDF", "c.docx", "README"]:
        assert expand_upload(name, b"data", LIMITS) == [UploadItem(name, b"data")]


# --- the malformed corpus ------------------------------------------------------


def test_malformed_corpus_is_broad_and_every_case_is_distinct():
    cases = malformed_cases()
    assert len(cases) >= 20
    assert len({c.name for c in cases}) == len(cases)
    # Distinct bytes: two equal files would be a duplicate, not two failures.
    everything = [c.data for c in cases if c.data] + [g.data for g in good_cases()]
    assert len(set(everything)) == len(everything)


def _outcome_names(name: str, data: bytes) -> list[str]:
    """The item names one uploaded file turns into, as the upload view sees them."""
    return [item.name for item in expand_upload(name, data, BulkLimits.for_file_limit(CORPUS_MAX_UPLOAD_BYTES))]


@override_settings(PRIVATE_STORAGE_ROOT="/tmp/anonymizer-test-private", MAX_UPLOAD_BYTES=CORPUS_MAX_UPLOAD_BYTES)
class BulkUploadViewTests(TestCase):
    @classmethod
    def setUpTestData(cls) -> None:
        cls.owner = get_user_model().objects.create_user("owner", password="pw", is_staff=True)
        cls.corpus = Corpus.objects.create(name="Hearings")
        CorpusMembership.objects.create(corpus=cls.corpus, user=cls.owner, role=Role.ADMIN)

    def setUp(self) -> None:
        self.client = Client(enforce_csrf_checks=True)
        self.client.force_login(self.owner)
        self.client.get(reverse("login"))  # the CSRF cookie
        self.url = reverse("document_upload", args=[self.corpus.pk])

    def upload(self, files: list[SimpleUploadedFile], **fields: str) -> list[str]:
        token = self.client.cookies["csrftoken"].value
        with self.captureOnCommitCallbacks(execute=True):
            response = self.client.post(self.url, {"files": files, **fields}, HTTP_X_CSRFTOKEN=token)
        self.assertRedirects(response, reverse("corpus_detail", args=[self.corpus.pk]), fetch_redirect_response=False)
        return [str(m) for m in get_messages(response.wsgi_request)]

    def test_the_whole_malformed_corpus_with_the_good_files_loses_nothing(self) -> None:
        cases, good = malformed_cases(), good_cases()
        files = [SimpleUploadedFile(c.name, c.data) for c in [*cases, *good]]
        messages = self.upload(files)
        documents = {d.name: d for d in Document.objects.filter(corpus=self.corpus)}
        accounted: set[str] = set()  # messages and documents explained by some input

        def find(item_name: str) -> tuple[str | None, Document | None]:
            message = next((m for m in messages if m.startswith(f"{item_name}: ")), None)
            return message, documents.get(PurePath(item_name).name)

        good_names = [n for g in good for n in _outcome_names(g.name, g.data)]
        self.assertEqual(len(good_names), sum(g.documents for g in good))
        for item_name in good_names:
            message, document = find(item_name)
            self.assertIsNone(message, item_name)
            self.assertIsNotNone(document, f"{item_name} was lost")
            self.assertEqual(document.status, "ready", f"{item_name}: {document.error_message}")
            self.assertTrue(document.spans.exists(), f"{item_name} has no spans")
            accounted.add(document.name)

        upload_messages: list[str] = []
        for case in cases:
            item_names = _outcome_names(case.name, case.data)
            self.assertTrue(item_names, case.name)
            for item_name in item_names:
                message, document = find(item_name)
                if message is not None:
                    self.assertIsNone(document, item_name)
                    self.assertIn(case.expected_error_substring, message, item_name)
                    upload_messages.append(message)
                else:
                    self.assertIsNotNone(document, f"{item_name} was lost: no message and no document")
                    self.assertEqual(document.status, "failed", item_name)
                    self.assertIn(case.expected_error_substring, document.error_message, item_name)
                    accounted.add(document.name)

        # Nothing else: every document and every message belongs to an input, plus one summary.
        self.assertEqual(set(documents) - accounted, set())
        summary = f"{len(documents)} documents added, {len(upload_messages)} failed."
        self.assertEqual(sorted(messages), sorted([*upload_messages, summary]))

        # The corpus page shows every reason, in constant queries (session, user, corpus+role, documents, exports).
        with self.assertNumQueries(5):
            page = self.client.get(reverse("corpus_detail", args=[self.corpus.pk])).content.decode()
        for document in documents.values():
            self.assertIn(f'id="document-{document.pk}"', page)

    def test_duplicates_are_counted_and_reported(self) -> None:
        data = b"Mr. Kowalczyk met Ms. Ng.\n"
        self.upload([SimpleUploadedFile("a.txt", data)])
        messages = self.upload([SimpleUploadedFile("again.txt", data), SimpleUploadedFile("b.docx", b"x")])
        original = Document.objects.get()
        link = reverse("document_review", args=[original.pk])
        self.assertIn(f'again.txt: already in this corpus as <a href="{link}">“a.txt”</a>; not stored twice.', messages)
        self.assertIn("0 documents added, 1 failed, 1 duplicate.", messages)
        self.assertEqual(Document.objects.count(), 1)

    def test_csv_columns_come_from_the_form(self) -> None:
        data = b"case;transcript\nK-1;Mr. Kowalczyk spoke.\nK-2;Ms. Ng answered.\n"
        messages = self.upload([SimpleUploadedFile("hearings.csv", data)], text_column="transcript", id_column="case")
        self.assertEqual(messages, ["2 documents added."])
        texts = dict(Document.objects.values_list("name", "text"))
        self.assertEqual(texts, {"hearings_K-1.txt": "Mr. Kowalczyk spoke.", "hearings_K-2.txt": "Ms. Ng answered."})

    def test_default_text_column_and_missing_column_message(self) -> None:
        messages = self.upload([SimpleUploadedFile("x.csv", b"body\nhello\n")], text_column="", id_column="")
        self.assertEqual(
            messages, ["x.csv: no column named “text”; the columns are: body.", "0 documents added, 1 failed."]
        )

    def test_no_file_is_an_error(self) -> None:
        self.assertEqual(self.upload([]), ["Choose at least one file."])

    def test_the_upload_form_accepts_zip_and_csv(self) -> None:
        page = self.client.get(reverse("corpus_detail", args=[self.corpus.pk])).content.decode()
        self.assertIn('accept=".txt,.pdf,.zip,.csv"', page)
        self.assertIn('name="text_column" value="text"', page)
        self.assertIn('name="id_column"', page)


# --- the command line ------------------------------------------------------------


@pytest.fixture
def no_worker(monkeypatch):
    celery_app.conf.task_always_eager = False  # restored by the autouse fixture
    monkeypatch.setattr("review.management.commands.ingest.workers_available", lambda timeout=2.0: False)
    monkeypatch.setattr("review.services.jobs.enqueue", lambda *a: pytest.fail("nothing may be queued"))


@pytest.mark.django_db
def test_ingest_walks_a_folder_with_zips_and_csvs(tmp_path, no_worker):
    folder = tmp_path / "incoming"
    (folder / "b" / "deeper").mkdir(parents=True)
    (folder / "a.txt").write_text("INMATE DELGADO: My name is Marcus Delgado.\n")
    (folder / "b" / "deeper" / "c.txt").write_text("Mr. Kowalczyk met Ms. Ng in Fresno.\n")
    (folder / "b" / "rows.csv").write_text('ref,body\nr1,"Dr. Castellano examined Mr. Brandt."\nr2,\n')
    (folder / "b" / "bundle.zip").write_bytes(make_zip({"x/d.txt": b"Ms. Ferreira called Mr. Petrakis.\n"}))
    (folder / "b" / "empty.txt").write_bytes(b"")
    (folder / "b" / "scanned.pdf").write_bytes(b"%PDF-1.4 not really")
    (folder / ".DS_Store").write_bytes(b"\x00\x00\x00\x01Bud1")
    out, err = io.StringIO(), io.StringIO()
    with pytest.raises(CommandError, match="3 file"):
        call_command(
            "ingest",
            "--corpus",
            "CLI",
            "--wait",
            "--text-column",
            "body",
            "--id-column",
            "ref",
            str(folder),
            stdout=out,
            stderr=err,
        )
    rows = [json.loads(line) for line in out.getvalue().splitlines()]
    # Sorted walk: a.txt, b/bundle.zip, b/deeper/c.txt, b/empty.txt, b/rows.csv, b/scanned.pdf.
    assert [(r["name"], r["status"]) for r in rows] == [
        ("a.txt", "ready"),
        ("d.txt", "ready"),
        ("c.txt", "ready"),
        ("rows_r1.txt", "ready"),
        ("scanned.pdf", "failed"),
    ]
    assert all(r["spans"] > 0 for r in rows if r["status"] == "ready")
    lines = err.getvalue().splitlines()
    assert len(lines) == 3
    assert lines[0].endswith("b/empty.txt: the file is empty.")
    assert lines[1].endswith("b/rows_r2.txt: row 2: empty text.")
    assert lines[2].startswith("scanned.pdf: ") and "PDF" in lines[2]


# --- robustness ------------------------------------------------------------------

_SAMPLE_ZIP = make_zip({"a.txt": b"Mr. Smith. " * 30, "dir/rows.csv": b"id,text\n1,hello\n", "b.pdf": b"%PDF-1.4 x"})


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=600), st.sampled_from(["x.zip", "x.csv", "x.txt"]))
def test_arbitrary_bytes_never_raise(data, name):
    for item in expand_upload(name, data, LIMITS):
        assert (item.data is None) != (item.error is None)


@settings(max_examples=500, deadline=None)
@given(st.lists(st.tuples(st.integers(0, len(_SAMPLE_ZIP) - 1), st.integers(0, 255)), min_size=1, max_size=6))
def test_a_damaged_zip_never_raises(flips):
    data = bytearray(_SAMPLE_ZIP)
    for offset, value in flips:
        data[offset] = value
    for item in expand_upload("x.zip", bytes(data), LIMITS):
        assert (item.data is None) != (item.error is None)


@pytest.mark.django_db(transaction=True)
def test_documents_stored_before_an_upload_is_interrupted_are_already_queued(corpus, admin_user, monkeypatch):
    """A request killed mid-upload (a server's timeout raises SystemExit in the
    worker): every document already committed has been queued."""
    import ingestion.services as ingestion_services
    from review.services import jobs
    from review.services.uploads import upload

    queued: list[int] = []
    monkeypatch.setattr(jobs, "enqueue", lambda task, *ids: queued.extend(ids))
    real = ingestion_services.document_ingest
    calls = {"n": 0}

    def ingest_then_die(**kwargs):
        calls["n"] += 1
        if calls["n"] == 2:
            raise SystemExit(1)
        return real(**kwargs)

    monkeypatch.setattr(ingestion_services, "document_ingest", ingest_then_die)
    data = make_zip({"a.txt": b"INMATE DELGADO: one.\n", "b.txt": b"INMATE DELGADO: two.\n"})
    with pytest.raises(SystemExit):
        upload(corpus=corpus, name="batch.zip", data=data, user=admin_user)
    stored = list(Document.objects.filter(corpus=corpus).values_list("pk", flat=True))
    assert len(stored) == 1 and queued == stored
