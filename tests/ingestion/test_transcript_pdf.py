"""Layout-aware extraction of transcript PDFs: utterances, header metadata, layout map.

The PDFs are typeset here with fpdf2 the way parole-hearing transcripts are: a cover
page in two columns, an INDEX page, numbered body pages with a page number and a
vendor's name in every header and footer."""

import io
import json
import string
import textwrap

import pytest
from django.core.management import CommandError, call_command
from fpdf import FPDF
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pypdf import PdfReader, PdfWriter

from pipelines.extraction.extract import extract
from pipelines.extraction.header import parse_header
from pipelines.extraction.limits import ExtractionLimits
from pipelines.extraction.text import ExtractionError
from pipelines.extraction.transcript_layout import Extraction, locate

VENDOR_HEADER = "Golden State Reporting & Transcription"
VENDOR_FOOTER = "Golden State Reporting, Inc. - www.example-transcripts.test"
BODY_TOP, LINE_PITCH = 70, 26

BODY = [
    [
        "PRESIDING COMMISSIONER DOE: Good morning. We are on",
        "the record for the hearing of Mr. Hern-",
        "andez.",
        "DEPUTY COMMISSIONER ROE : Good morning.",
        "INMATE HERNANDEZ: Good morning, I'm José",
        "Hernandez, H-E-R-N-A-N-D-E-Z. I was",
    ],
    [
        "born in Fresno.",
        "ATTORNEY JONES: Thank you. I spoke with Ms. Garcia-",
        "Lopez yesterday.",
        "Q. Where were you on the night of",
        "March 3, 1998?",
        "A. At home.",
    ],
]
UTTERANCES = [
    "PRESIDING COMMISSIONER DOE: Good morning. We are on the record for the hearing of Mr. Hernandez.",
    "DEPUTY COMMISSIONER ROE : Good morning.",
    "INMATE HERNANDEZ: Good morning, I'm José Hernandez, H-E-R-N-A-N-D-E-Z. I was born in Fresno.",
    "ATTORNEY JONES: Thank you. I spoke with Ms. Garcia-Lopez yesterday.",
    "Q. Where were you on the night of March 3, 1998?",
    "A. At home.",
]
COVER_LINES = [
    "SUBSEQUENT PAROLE CONSIDERATION HEARING",
    "STATE OF CALIFORNIA",
    "BOARD OF PAROLE HEARINGS",
    # The caption box is read column by column: its left column, then its right.
    "In the matter of the Parole",
    "Consideration Hearing of:",
    "JOSÉ HERNANDEZ",
    "CDCR Number: AB1234",
    "CALIFORNIA MEDICAL FACILITY",
    "VACAVILLE, CALIFORNIA",
    "JUNE 1, 2023",
    "9:05 A.M.",
    "PANEL PRESENT:",
    "JOHN DOE, Presiding Commissioner",
    "JANE ROE, Deputy Commissioner",
    "OTHERS PRESENT:",
    "JOSÉ HERNANDEZ, Inmate",
    "ROBERT JONES, Attorney for Inmate",
    "MARY LEE, Deputy District Attorney",
    "CORRECTIONS TO THE DECISION HAVE BEEN MADE",
    "Transcribed by: Pat Q. Typist",
]
HEADER = {
    "hearing_type": "SUBSEQUENT PAROLE CONSIDERATION HEARING",
    "date": "2023-06-01",
    "time": "09:05",
    "facility": "CALIFORNIA MEDICAL FACILITY",
    "city": "VACAVILLE",
    "state": "CALIFORNIA",
    "cdcr_number": "AB1234",
    "inmate_name": "JOSÉ HERNANDEZ",
    "participants": [
        {"name": "JOHN DOE", "role": "Presiding Commissioner"},
        {"name": "JANE ROE", "role": "Deputy Commissioner"},
        {"name": "JOSÉ HERNANDEZ", "role": "Inmate"},
        {"name": "ROBERT JONES", "role": "Attorney for Inmate"},
        {"name": "MARY LEE", "role": "Deputy District Attorney"},
    ],
    "transcriber": "Pat Q. Typist",
}


def _furniture(pdf: FPDF, page_number: int | None) -> None:
    pdf.text(180, 30, VENDOR_HEADER)
    pdf.text(130, 770, VENDOR_FOOTER)
    if page_number is not None:
        pdf.text(540, 50, str(page_number))


def _cover(pdf: FPDF) -> None:
    pdf.add_page()
    _furniture(pdf, None)
    y = 80
    for x, line in [(200, COVER_LINES[0]), (240, COVER_LINES[1]), (230, COVER_LINES[2])]:
        pdf.text(x, y, line)
        y += 16
    # The caption box: two columns separated by a column of ")".
    left = ["In the matter of the Parole", "Consideration Hearing of:", "", "JOSÉ HERNANDEZ", "_" * 30]
    right = ["", "", "CDCR Number: AB1234", "", ""]
    for left_text, right_text in zip(left, right, strict=True):
        y += 14
        pdf.text(72, y, left_text)
        pdf.text(290, y, ")")
        pdf.text(310, y, right_text)
    y += 20
    for line in COVER_LINES[7:11]:
        y += 14
        pdf.text(220, y, line)
    y += 20
    for line in COVER_LINES[11:15] + [""] + COVER_LINES[15:18] + [""] + COVER_LINES[18:]:
        y += 14
        pdf.text(72, y, line)


def _index(pdf: FPDF, page_number: int) -> None:
    pdf.add_page()
    _furniture(pdf, page_number)
    pdf.text(280, 90, "INDEX")
    pdf.text(480, 110, "PAGE")
    entries = [("Proceedings", 3), ("Case Factors", 3), ("Pre-Commitment Factors", 4), ("Decision", 5)]
    for row, (title, page) in enumerate(entries):
        pdf.text(72, 130 + 16 * row, f"{title} {'.' * (50 - len(title))} {page}")


def make_transcript(body_pages: list[list[str]], numbers: str = "left") -> bytes:
    """Cover, INDEX, then body pages with 25 numbered lines each (left or right margin)."""
    pdf = FPDF(format="letter", unit="pt")
    pdf.set_auto_page_break(False)
    pdf.set_font("Courier", size=11)
    _cover(pdf)
    _index(pdf, 2)
    for page_number, lines in enumerate(body_pages, start=3):
        pdf.add_page()
        _furniture(pdf, page_number)
        for number in range(1, 26):
            y = BODY_TOP + number * LINE_PITCH
            text = lines[number - 1] if number <= len(lines) else ""
            # Right-aligned numbers, as transcript software prints them.
            digits_x = 8 if number < 10 else 14
            if numbers == "left":
                pdf.text(58 - digits_x, y, str(number))
                pdf.text(80, y, text)
            else:
                pdf.text(80, y, text)
                pdf.text(568 - digits_x, y, str(number))
    return bytes(pdf.output())


def assert_layout_covers(extraction: Extraction) -> None:
    """Every character but newlines lies in exactly one layout entry."""
    counts = [0] * len(extraction.text)
    for start, end, page, line in extraction.layout:
        assert 0 <= start < end <= len(extraction.text)
        assert 1 <= page <= extraction.pages and line >= 1
        for offset in range(start, end):
            counts[offset] += 1
    for offset, char in enumerate(extraction.text):
        assert counts[offset] == (0 if char == "\n" else 1), (offset, char)


def where(extraction: Extraction, needle: str) -> tuple[int, int] | None:
    return locate(extraction.layout, extraction.text.index(needle))


@pytest.fixture(scope="module")
def left_numbered() -> Extraction:
    return extract("hearing.pdf", make_transcript(BODY, numbers="left"))


def test_body_is_rebuilt_one_utterance_per_line(left_numbered):
    blocks = left_numbered.text.split("\n\n")
    assert blocks[0].split("\n") == COVER_LINES
    assert blocks[1:] == UTTERANCES[:-1] + [UTTERANCES[-1] + "\n"]
    # Furniture, the INDEX page, page and line numbers are gone.
    for gone in ("Golden State", "INDEX", "Proceedings", "...", "\n3\n", "\n1 "):
        assert gone not in left_numbered.text
    assert left_numbered.pages == 4


def test_numbers_at_the_end_of_lines_give_the_same_text_and_layout(left_numbered):
    right = extract("hearing.pdf", make_transcript(BODY, numbers="right"))
    assert right.text == left_numbered.text
    assert right.layout == left_numbered.layout
    assert right.metadata == HEADER


def test_first_page_header_is_parsed(left_numbered):
    assert left_numbered.metadata == HEADER


def test_layout_points_at_page_and_line(left_numbered):
    assert_layout_covers(left_numbered)
    assert where(left_numbered, "PRESIDING COMMISSIONER DOE") == (3, 1)
    assert where(left_numbered, "Hernandez.") == (3, 2)  # the part printed as "Hern-"
    assert where(left_numbered, "andez.") == (3, 3)
    assert where(left_numbered, "born in Fresno") == (4, 1)  # continued across the page break
    assert where(left_numbered, "Lopez") == (4, 3)
    assert where(left_numbered, "A. At home") == (4, 6)
    # Unnumbered cover: the position on the page, counting the vendor's header line.
    assert where(left_numbered, "SUBSEQUENT PAROLE") == (1, 2)
    assert where(left_numbered, "CALIFORNIA MEDICAL FACILITY") == (1, 10)
    # The space that joins two printed lines belongs to the first one.
    joint = left_numbered.text.index("We are on ") + len("We are on")
    assert locate(left_numbered.layout, joint) == (3, 1)
    assert locate(left_numbered.layout, joint + 1) == (3, 2)


def test_plain_pdf_keeps_page_text_in_reading_order():
    pdf = FPDF(format="letter", unit="pt")
    pdf.set_font("Helvetica", size=11)
    for page in (["Memorandum to the file.", "Nothing here is a transcript."], ["Second page, last line."]):
        pdf.add_page()
        for row, line in enumerate(page):
            pdf.text(72, 100 + 20 * row, line)
    extraction = extract("memo.pdf", bytes(pdf.output()))
    assert extraction.text == "Memorandum to the file.\nNothing here is a transcript.\n\nSecond page, last line.\n"
    assert extraction.layout == [(0, 23, 1, 1), (24, 53, 1, 2), (55, 78, 2, 1)]
    assert extraction.metadata == parse_header([])
    assert extraction.pages == 2


def _blank_pdf() -> bytes:
    pdf = FPDF()
    pdf.add_page()
    pdf.rect(20, 20, 100, 100, style="F")  # what a scan looks like without OCR: marks, no text
    return bytes(pdf.output())


def _encrypted_pdf() -> bytes:
    writer = PdfWriter()
    writer.append(PdfReader(io.BytesIO(make_transcript(BODY[:1]))))
    writer.encrypt("secret", algorithm="RC4-128")
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (_blank_pdf(), "no text layer: OCR needed"),
        (_encrypted_pdf(), "password-protected"),
        (make_transcript(BODY)[:900], "could not be read"),
    ],
)
def test_bad_pdfs_get_a_clear_message(data, message):
    with pytest.raises(ExtractionError, match=message):
        extract("bad.pdf", data)


def test_text_files_get_one_entry_per_line_on_page_one():
    extraction = extract("a.txt", b"INMATE SMITH: Yes.\n\nDone.")
    assert extraction.text == "INMATE SMITH: Yes.\n\nDone."
    assert extraction.layout == [(0, 18, 1, 1), (20, 25, 1, 3)]
    assert extraction.pages == 1


_label = st.lists(st.text(string.ascii_uppercase, min_size=2, max_size=8), min_size=1, max_size=3).map(" ".join)
_words = st.lists(st.text(string.ascii_lowercase, min_size=1, max_size=9), min_size=1, max_size=25)


# No example database: it would write .hypothesis/ into the working tree.
@settings(max_examples=40, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    utterances=st.lists(st.tuples(_label, _words), min_size=1, max_size=10), numbers=st.sampled_from(["left", "right"])
)
def test_any_transcript_maps_every_character_to_its_page_and_line(utterances, numbers):
    expected = [f"{label}: {' '.join(words)}" for label, words in utterances]
    printed = [line for utterance in expected for line in textwrap.wrap(utterance, 55, break_long_words=False)]
    body_pages = [printed[i : i + 25] for i in range(0, len(printed), 25)]
    # In this process: the layout parser is under test, not the parser's sandbox.
    extraction = extract("generated.pdf", make_transcript(body_pages, numbers=numbers), ExtractionLimits(sandbox=False))

    assert extraction.text.split("\n\n")[1:] == expected[:-1] + [expected[-1] + "\n"]
    lines = extraction.text.split("\n")
    for label, _ in utterances:
        assert any(line.startswith(f"{label}:") for line in lines)
    assert_layout_covers(extraction)
    body_start = extraction.text.index("\n\n") + 2
    for start, end, page, line in extraction.layout:
        if start >= body_start:
            # Each range is exactly the printed line it points at (plus the joining space).
            assert extraction.text[start:end].rstrip(" ") == body_pages[page - 3][line - 1]


def test_extract_command_prints_one_json_object(tmp_path):
    path = tmp_path / "hearing.pdf"
    path.write_bytes(make_transcript(BODY))
    out = io.StringIO()
    call_command("extract", str(path), stdout=out)  # no django_db mark: it must not touch the database
    payload = json.loads(out.getvalue())
    assert set(payload) == {"text", "metadata", "pages", "layout"}
    assert payload["metadata"] == HEADER and payload["pages"] == 4
    assert payload["text"].split("\n\n")[1] == UTTERANCES[0]
    start, end, page, line = payload["layout"][-1]
    assert payload["text"][start:end] == "A. At home." and (page, line) == (4, 6)


def test_extract_command_reports_a_bad_file(tmp_path):
    path = tmp_path / "scan.pdf"
    path.write_bytes(_blank_pdf())
    with pytest.raises(CommandError, match="no text layer: OCR needed"):
        call_command("extract", str(path), stdout=io.StringIO())


@pytest.mark.django_db
def test_document_extract_stores_text_layout_and_metadata_together(corpus, admin_user):
    from ingestion.services import EXTRACTION, document_step_run
    from review.services.uploads import ingest_document

    data = make_transcript(BODY)
    document, _ = ingest_document(corpus=corpus, name="hearing.pdf", data=data, user=admin_user, queue=False)
    assert document_step_run(EXTRACTION, document.pk)
    document.refresh_from_db()
    expected = extract("hearing.pdf", data)
    assert document.text == expected.text
    assert document.layout == [list(entry) for entry in expected.layout]
    assert document.metadata == HEADER


def test_header_variants_on_one_column_cover():
    cover = """PAROLE SUITABILITY HEARING
In the matter of the Parole Consideration Hearing of: JOHN Q. PUBLIC, JR. )
) CDCR No. C-12345
SAN QUENTIN STATE PRISON
SAN QUENTIN, CA
05/14/2019
1:30 p.m.
PANEL PRESENT:
Ann O'Brien-Smith, Presiding Commissioner
OTHERS PRESENT:
John Q. Public, Jr., Inmate
Transcribed by:
NORTHERN CALIFORNIA COURT REPORTERS"""
    assert parse_header(cover.splitlines()) == {
        "hearing_type": "PAROLE SUITABILITY HEARING",
        "date": "2019-05-14",
        "time": "13:30",
        "facility": "SAN QUENTIN STATE PRISON",
        "city": "SAN QUENTIN",
        "state": "CA",
        "cdcr_number": "C-12345",
        "inmate_name": "JOHN Q. PUBLIC, JR.",
        "participants": [
            {"name": "Ann O'Brien-Smith", "role": "Presiding Commissioner"},
            {"name": "John Q. Public, Jr.", "role": "Inmate"},
        ],
        "transcriber": "NORTHERN CALIFORNIA COURT REPORTERS",
    }


@pytest.mark.django_db
def test_review_page_shows_the_parsed_header(corpus, admin_user):
    from django.test import Client
    from django.urls import reverse

    from ingestion.models import Document

    document = Document.objects.create(
        corpus=corpus,
        name="h.pdf",
        sha256="h",
        text="INMATE HERNANDEZ: Yes.\n",
        status="ready",
        metadata={**HEADER},
    )
    client = Client()
    client.force_login(admin_user)
    page = client.get(reverse("document_review", args=[document.pk])).content.decode()
    assert 'id="header-meta"' in page
    for participant in HEADER["participants"]:
        assert participant["name"] in page
    assert "AB1234" in page


@pytest.mark.django_db
def test_exports_cite_the_pdf_page_and_line_of_each_span(corpus, admin_user, tmp_path, left_numbered):
    import io
    import json
    import re
    import zipfile

    from django.core.management import call_command

    from ingestion.models import Document
    from review.models import Span

    text = left_numbered.text
    document = Document.objects.create(
        corpus=corpus,
        name="t.pdf",
        sha256="t",
        text=text,
        status="approved",
        layout=[list(e) for e in left_numbered.layout],
    )
    for m in re.finditer(r"(?i)hernandez", text):  # every occurrence, or the leak gate stops the export
        Span.objects.create(
            document=document, start=m.start(), end=m.end(), label="PERSON", text=m.group(), status="accepted"
        )
    out = tmp_path / "x.zip"
    call_command("export", "--corpus", corpus.name, "--out", str(out), stdout=io.StringIO())
    archive = zipfile.ZipFile(out)
    annotations = json.loads(archive.read(next(n for n in archive.namelist() if n.endswith(".annotations.json"))))
    first = annotations["annotations"][0]
    assert first["page_line"] == list(where(left_numbered, first["preview"]))
