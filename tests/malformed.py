"""A corpus of malformed (and a few good) inputs, for tests and manual checks of the
rule that every bad file fails alone, with a reason.

    from tests.malformed import malformed_cases, write_corpus
    write_corpus("/tmp/bad-inputs")  # then upload the folder's files, or `ingest` it

Every case is built in memory and deterministically. The size-dependent cases follow
`max_upload_bytes`; run the app with the same `MAX_UPLOAD_BYTES` (the tests override
it) or the oversize file and the zip bomb are not refused for the expected reason.
fpdf2 and pypdf are test dependencies, so they are imported only when called.
"""

import io
import random
import zipfile
from dataclasses import dataclass
from pathlib import Path

from pipelines.extraction.bulk import BulkLimits

CORPUS_MAX_UPLOAD_BYTES = 1024 * 1024


@dataclass(frozen=True)
class MalformedCase:
    """One uploaded file that must fail. Every failure it causes (a whole zip can
    fail member by member) carries `expected_error_substring`."""

    name: str
    data: bytes
    expected_error_substring: str


@dataclass(frozen=True)
class GoodCase:
    name: str
    data: bytes
    documents: int  # how many documents it becomes (rows of a CSV, files of a zip)


def _pdf(lines: list[str] | None = None, *, drawing_only: bool = False) -> bytes:
    from fpdf import FPDF

    pdf = FPDF()
    pdf.add_page()
    pdf.set_font("Helvetica", size=11)
    for line in lines or []:
        pdf.cell(text=line, new_x="LMARGIN", new_y="NEXT")
    if drawing_only:
        # What a scan looks like to a text extractor: marks on the page, no text.
        pdf.rect(20, 20, 170, 240, style="F")
    return bytes(pdf.output())


def _many_pages_pdf(pages: int) -> bytes:
    from fpdf import FPDF

    pdf = FPDF()
    pdf.set_font("Helvetica", size=11)
    for number in range(1, pages + 1):
        pdf.add_page()
        pdf.cell(text=f"Page {number}")
    return bytes(pdf.output())


def _encrypted_pdf() -> bytes:
    from pypdf import PdfReader, PdfWriter

    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(_pdf(["Confidential: Mr. Abernathy's statement."]))))
    # RC4 needs no optional crypto library; a user password means it cannot be opened.
    writer.encrypt(user_password="secret", owner_password="owner", algorithm="RC4-128")
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def _zip(members: dict[str, bytes], *, compression: int = zipfile.ZIP_DEFLATED) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", compression=compression) as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return out.getvalue()


def _zip_with_damaged_member() -> bytes:
    data = bytearray(_zip({"damaged.txt": b"Mr. Quennell testified at length. " * 40}))
    # Flip bytes in the middle of the compressed stream (after the 30-byte local
    # header and the name): the directory stays readable, the member does not.
    start = 30 + len("damaged.txt") + 5
    for offset in range(start, start + 8):
        data[offset] ^= 0xFF
    return bytes(data)


def malformed_cases(max_upload_bytes: int = CORPUS_MAX_UPLOAD_BYTES) -> list[MalformedCase]:
    limits = BulkLimits.for_file_limit(max_upload_bytes)
    good_pdf = _pdf(["PRESIDING COMMISSIONER VALE: Good morning, Mr. Okonkwo."])
    garbage = random.Random(571).randbytes(4096)  # seeded: always the same bytes
    return [
        MalformedCase("zero_bytes.txt", b"", "empty"),
        MalformedCase("whitespace_only.txt", b"  \r\n\t\n", "empty"),
        # PDF messages may be reworded; "PDF" is in all of those about a damaged file.
        MalformedCase("truncated.pdf", good_pdf[: len(good_pdf) // 2], "PDF"),
        MalformedCase("encrypted.pdf", _encrypted_pdf(), "password"),
        MalformedCase("not_really.pdf", b"%PDF-1.4 this is not a PDF at all", "PDF"),
        MalformedCase("scanned.pdf", _pdf(drawing_only=True), "text layer"),
        # Over the default MAX_PDF_PAGES (1000): refused before any page is parsed.
        MalformedCase("two_thousand_pages.pdf", _many_pages_pdf(2000), "the limit is 1000"),
        MalformedCase("oversize.txt", b"word " * (max_upload_bytes // 5 + 1), "larger than"),
        MalformedCase("garbage.txt", garbage, "not text"),
        MalformedCase("nul_bytes.txt", b"INMATE: hello\x00\x00world\n", "binary"),
        # Not UTF-8, and 0x81 0x8d 0x8f 0x90 0x9d are the bytes cp1252 leaves undefined.
        MalformedCase("bad_encoding.txt", b"Caf\xe9 \x81\x8d\x8f\x90\x9d\n", "not text"),
        MalformedCase("invalid.csv", b'id,text\n1,"an unterminated quote\n', "not a valid CSV"),
        MalformedCase("no_text_column.csv", b"id,body\n1,Mr. Halvorsen spoke.\n", "no column"),
        MalformedCase("empty_cell.csv", b"id,text\n7,\n", "row 1: empty text"),
        MalformedCase("empty.csv", b"", "empty"),
        MalformedCase("header_only.csv", b"id,text\n", "no rows"),
        MalformedCase("short_row.csv", b"id,text,notes\n1,Mr. Lindqvist\n", "fields, the header has"),
        MalformedCase("bad_encoding.csv", b"text\nCaf\xe9 \x81\x8d\n", "not text"),
        MalformedCase("bomb.zip", _zip({"zeros.txt": bytes(limits.max_total_bytes + 1)}), "zip bomb"),
        MalformedCase(
            "too_many.zip",
            _zip({f"f{n}.txt": b"x" for n in range(limits.max_members + 1)}, compression=zipfile.ZIP_STORED),
            "files; the limit is",
        ),
        MalformedCase(
            "traversal.zip",
            _zip({"../escape.txt": b"Mr. Escape.\n", "/etc/absolute.txt": b"Ms. Absolute.\n"}),
            "unsafe path",
        ),
        MalformedCase("nested.zip", _zip({"inner.zip": _zip({"a.txt": b"Mr. Inner.\n"})}), "nested archives"),
        MalformedCase("corrupt.zip", b"PK\x03\x04 this archive was cut short", "damaged"),
        MalformedCase("damaged_member.zip", _zip_with_damaged_member(), "damaged"),
        MalformedCase("zip_with_empty_file.zip", _zip({"inside/empty.txt": b""}), "empty"),
        MalformedCase("notes.docx", b"PK\x03\x04 a word processor file", "unsupported file type"),
        MalformedCase("setup.exe", b"MZ\x90\x00\x03 a program", "unsupported file type"),
        MalformedCase("README", b"A file with no extension.\n", "unsupported file type"),
    ]


def good_cases() -> list[GoodCase]:
    csv_rows = (
        "id,text\n"
        'a1,"INMATE BRANDT: My name is Otto Brandt, B-R-A-N-D-T."\n'
        'a2,"Ms. Ferreira said she lived in Fresno in 1998."\n'
        'a3,"PRESIDING COMMISSIONER NAKAMURA: Thank you, Mr. Brandt."\n'
    )
    bundle = _zip(
        {
            "batch/first.txt": b"PRESIDING COMMISSIONER HOLLOWAY: Good morning, Mr. Stavros Petrakis.\n",
            "batch/sub/second.pdf": _pdf(["DEPUTY COMMISSIONER REYES: Mr. Petrakis, you were 22 in 2004."]),
            "rows.csv": (
                b'text\n"Dr. Imogen Castellano examined him on May 2, 2011."\n"Mr. Petrakis called Ms. Duarte."\n'
            ),
            # Finder adds these to every zip it makes; they are skipped, not reported.
            "__MACOSX/batch/._first.txt": b"\x00\x05\x16\x07 resource fork",
        }
    )
    return [
        GoodCase("hearing.txt", b"INMATE DELACROIX: I am Jean Delacroix; I was born on June 3, 1971.\n", 1),
        GoodCase("hearing.pdf", _pdf(["PRESIDING COMMISSIONER MORROW: Mr. Albrecht Voss, please sit."]), 1),
        GoodCase("interviews.csv", csv_rows.encode(), 3),
        GoodCase("bundle.zip", bundle, 4),
    ]


def write_corpus(folder: str | Path, max_upload_bytes: int = CORPUS_MAX_UPLOAD_BYTES) -> list[Path]:
    """Write every case to `folder` for manual checks; returns the paths."""
    target = Path(folder)
    target.mkdir(parents=True, exist_ok=True)
    paths = []
    for case in [*malformed_cases(max_upload_bytes), *good_cases()]:
        path = target / case.name
        path.write_bytes(case.data)
        paths.append(path)
    return paths
