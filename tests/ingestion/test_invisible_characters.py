"""Issue 28, item 3: invisible characters inside a name do not give one person
several pseudonym numbers.

"Jo\\u200bhn Smith" reads as "John Smith" but was another string to every matcher
and to the pseudonym map: the name did not leak, yet the person received two
numbers. Zero-width and other invisible characters (ZWSP, ZWJ, soft hyphen, bidi
marks…) are now removed where text is normalised, before any offset exists, so
the text, its layout map and every span agree."""

import io
import re
import zipfile

import pytest
from django.core.management import call_command

from ingestion.models import Document
from pipelines.extraction.bulk import BulkLimits, expand_upload
from pipelines.extraction.extract import extract
from pipelines.extraction.text import INVISIBLE_CHARACTERS, normalize_text
from pipelines.extraction.transcript_layout import build_extraction

HIDDEN = {
    "zero-width space": "\u200b",
    "zero-width joiner": "\u200d",
    "zero-width non-joiner": "\u200c",
    "soft hyphen": "\u00ad",
    "left-to-right mark": "\u200e",
    "right-to-left override": "\u202e",
    "first strong isolate": "\u2068",
    "word joiner": "\u2060",
    "byte order mark inside the text": "\ufeff",
}


@pytest.mark.parametrize("name", sorted(HIDDEN))
def test_each_invisible_character_is_removed_from_text_pdf_lines_and_csv_cells(name):
    hidden = HIDDEN[name]
    assert ord(hidden) in INVISIBLE_CHARACTERS
    assert normalize_text(f"Jo{hidden}hn Smith") == "John Smith"
    assert extract("a.txt", f"Mr. Jo{hidden}hn Smith spoke.\n".encode()).text == "Mr. John Smith spoke.\n"
    # A PDF's lines go through the same normalisation before the layout map is built.
    built = build_extraction([[f"Mr. Jo{hidden}hn Smith spoke.", "He left."]])
    assert built.text == "Mr. John Smith spoke.\nHe left.\n"
    assert [built.text[start:end] for start, end, _page, _line in built.layout] == ["Mr. John Smith spoke.", "He left."]
    (row,) = expand_upload("rows.csv", f"text\nMr. Jo{hidden}hn Smith spoke.\n".encode(), BulkLimits())
    assert row.data.decode() == "Mr. John Smith spoke."


def test_the_layout_map_of_a_text_file_matches_the_text_without_the_removed_characters():
    extraction = extract("a.txt", "Mr. Jo\u200bhn Smith\u00ad spoke.\nMs. Ro\u200ds\u200ea Parks.\n".encode())
    assert extraction.text == "Mr. John Smith spoke.\nMs. Rosa Parks.\n"
    lines = [extraction.text[start:end] for start, end, _page, _line in extraction.layout]
    assert lines == ["Mr. John Smith spoke.", "Ms. Rosa Parks."]


def test_characters_that_carry_meaning_stay():
    # Accents (NFC brings them together), emoji without joiners, Arabic number sign.
    assert normalize_text("Jose\u0301 \U0001f600 \u0600\u0661") == "José \U0001f600 \u0600\u0661"


@pytest.mark.django_db
def test_one_person_written_with_and_without_a_zero_width_space_keeps_one_pseudonym_number(
    corpus, admin_user, django_capture_on_commit_callbacks, tmp_path
):
    from review.models import Span
    from review.services.uploads import ingest_document

    text = (
        "Mr. Jo\u200bhn Smith spoke to the board on Monday.\n"
        "Then Mr. John Smith asked for a break.\n"
        "Later Mr. Jo\u00adhn Smi\u200dth returned.\n"
    )
    with django_capture_on_commit_callbacks(execute=True):
        document, created = ingest_document(corpus=corpus, name="h.txt", data=text.encode(), user=admin_user)
    assert created
    document.refresh_from_db()
    assert document.status != "failed", document.error_message
    assert "\u200b" not in document.text and "\u00ad" not in document.text and "\u200d" not in document.text
    spans = list(Span.objects.filter(document=document))
    persons = [document.text[s.start : s.end] for s in spans if s.label == "PERSON"]
    assert persons and set(persons) <= {"John Smith", "John", "Smith"}, persons
    Document.objects.update(status="approved")
    Span.objects.update(status="accepted")
    out = tmp_path / "export.zip"
    call_command("export", "--corpus", corpus.name, "--out", str(out), stdout=io.StringIO())
    archive = zipfile.ZipFile(out)
    (redacted,) = [archive.read(n).decode() for n in archive.namelist() if n.startswith("redacted/")]
    assert "John" not in redacted and "Smith" not in redacted
    numbers = re.findall(r"Mr\. (\[PERSON_\d+\](?: \[PERSON_\d+\])?)", redacted)
    assert len(numbers) == 3 and len(set(numbers)) == 1, redacted
