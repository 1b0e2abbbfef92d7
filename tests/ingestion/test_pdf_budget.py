"""Issue 28, item 1: one inflation budget per PDF, whatever stream holds the bomb.

The stream check used to inflate only page contents and forms, and returned early
for encrypted files: a bomb in a font's /ToUnicode map, in an object stream, in
an image or in a file encrypted with an empty user password reached pdfminer and
took the parser child past 500 MB. Now every stream is counted, in bounded steps,
before pdfminer runs; a bomb is refused with the setting named.

Budgets are set small here (a few MB) so that the inputs stay small; the big
figures (300 MB bombs under the default settings) are in
bench/bench_adversarial.py."""

import pytest

from ingestion.models import Document
from pipelines.extraction.extract import extract
from pipelines.extraction.limits import MB, ExtractionLimits, LimitExceeded
from pipelines.extraction.pdf_budget import check_inflated_size
from tests.ingestion.test_input_limits import run_measured
from tests.pdf_fixture import (
    bomb_pdf,
    encrypted_bomb_pdf,
    image_bomb_pdf,
    make_pdf,
    object_stream_bomb_pdf,
    tounicode_bomb_pdf,
)

SMALL_BUDGET = ExtractionLimits(max_pdf_inflated_bytes=4 * MB)
FILE_BUDGET = r"inflate to more than 4 MB in all \(MAX_PDF_INFLATED_MB\); refused as a possible decompression bomb"
STREAM_CAP = r"inflates to more than 2 MB \(MAX_PDF_STREAM_BYTES\); refused as a possible decompression bomb"

BOMBS = {
    "encrypted": encrypted_bomb_pdf,
    "tounicode": tounicode_bomb_pdf,
    "object stream": object_stream_bomb_pdf,
    "image": image_bomb_pdf,
    "page content": bomb_pdf,
}


@pytest.mark.parametrize("kind", sorted(BOMBS))
def test_each_bomb_under_the_budget_is_read_and_over_it_is_refused_naming_the_setting(kind):
    build = BOMBS[kind]
    # 3 MB inflated: within the 4 MB budget, the text is read as before.
    expected = "Decompression bomb" if kind in ("encrypted", "page content") else "Mr. Smith spoke."
    assert extract("ok.pdf", build(3), SMALL_BUDGET).text.strip() == expected
    # 6 MB: past the budget, refused by name, never "damaged or encrypted".
    with pytest.raises(LimitExceeded, match=FILE_BUDGET):
        extract("bomb.pdf", build(6), SMALL_BUDGET)
    # One stream past MAX_PDF_STREAM_BYTES is refused by that name, budget or not.
    with pytest.raises(LimitExceeded, match=STREAM_CAP):
        extract("bomb.pdf", build(3), ExtractionLimits(max_pdf_stream_bytes=2 * MB))


def test_the_budget_is_one_per_file_not_per_stream():
    """Four fonts' maps of 1 MB each: every stream is under the per-stream cap,
    together they are past the file's budget."""
    many = tounicode_bomb_pdf(1, fonts=4)
    assert check_inflated_size(many, ExtractionLimits()).inflated > 4 * MB
    assert extract("four.pdf", many, ExtractionLimits(max_pdf_inflated_bytes=8 * MB)).text.count("Mr. Smith") == 4
    with pytest.raises(LimitExceeded, match=r"more than 3 MB in all \(MAX_PDF_INFLATED_MB\)"):
        extract("four.pdf", many, ExtractionLimits(max_pdf_inflated_bytes=3 * MB, max_pdf_stream_bytes=2 * MB))


def test_the_encrypted_bomb_is_counted_after_decryption():
    """Its stored streams are ciphertext (they would not inflate at all): only the
    decrypted ones show the bomb."""
    data = encrypted_bomb_pdf(6)
    assert len(data) < 64 * 1024
    assert check_inflated_size(data, ExtractionLimits()).inflated > 6 * MB


def test_an_ordinary_pdf_counts_little_and_a_password_protected_one_is_reported_as_before():
    from tests.malformed import _encrypted_pdf

    budget = check_inflated_size(make_pdf([["Mr. Smith spoke."]] * 3), ExtractionLimits())
    assert budget.pages == 3 and 0 < budget.inflated < 4096
    with pytest.raises(Exception, match="password-protected"):
        extract("locked.pdf", _encrypted_pdf(), ExtractionLimits())


@pytest.mark.parametrize("kind", sorted(BOMBS))
def test_the_parser_child_stays_small_while_refusing_each_bomb(tmp_path, kind):
    """Peak resident memory of the extraction child, measured: the count holds one
    256 KB chunk at a time, so refusing a 24 MB bomb costs what refusing a small
    one does (the parser child idles at about 45 MB)."""
    path = tmp_path / "bomb.pdf"
    path.write_bytes(BOMBS[kind](24))
    result = run_measured(
        f"""
from pipelines.extraction.extract import extract
from pipelines.extraction.limits import MB, ExtractionLimits
from pipelines.extraction.text import ExtractionError
RESULT = {{}}
try:
    extract("bomb.pdf", open({str(path)!r}, "rb").read(), ExtractionLimits(max_pdf_inflated_bytes=4 * MB))
except ExtractionError as exc:
    RESULT["error"] = str(exc)
"""
    )
    assert "(MAX_PDF_INFLATED_MB)" in result["error"]
    # Inflating it whole would take the child past 24 MB + 45 MB; stopped at 4 MB.
    assert result["children_peak_mb"] < 64, result


@pytest.mark.django_db
def test_an_uploaded_tounicode_bomb_fails_with_the_setting_named(
    corpus, admin_user, django_capture_on_commit_callbacks, settings
):
    from review.services.uploads import upload, upload_budget

    settings.MAX_PDF_INFLATED_MB = 4
    with django_capture_on_commit_callbacks(execute=True):
        upload(corpus=corpus, name="font.pdf", data=tounicode_bomb_pdf(6), user=admin_user, budget=upload_budget())
    document = Document.objects.get(name="font.pdf")
    assert document.status == "failed"
    assert "(MAX_PDF_INFLATED_MB)" in document.error_message
    assert "damaged" not in document.error_message


# -- every filter pdfminer decodes is counted as decoded ----------------------------------


def _one_stream_pdf(dictionary: bytes, data: bytes) -> bytes:
    from tests.pdf_fixture import _assemble, _stream

    return _assemble(
        [
            b"<< /Type /Catalog /Pages 2 0 R >>",
            b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>",
            _stream(dictionary, data),
        ]
    )


def _lzw_literals(data: bytes) -> bytes:
    """LZW with literal codes only (9 bits, a clear code every 200): valid, and
    enough to show the decoder's output is what counts."""
    codes: list[int] = []
    for start in range(0, len(data), 200):
        codes.append(256)
        codes.extend(data[start : start + 200])
    codes.append(257)
    bits = "".join(format(code, "09b") for code in codes)
    bits += "0" * (-len(bits) % 8)
    return int(bits, 2).to_bytes(len(bits) // 8, "big")


def test_run_length_lzw_and_hex_over_flate_are_counted_decoded():
    import zlib

    # Run-length: two bytes stand for 128, a 64-fold bomb.
    run_length = b"\x81 " * (64 * 1024) + b"\x80"
    budget = check_inflated_size(_one_stream_pdf(b"/Filter /RunLengthDecode", run_length), ExtractionLimits())
    assert budget.inflated == 8 * MB
    with pytest.raises(LimitExceeded, match=r"\(MAX_PDF_INFLATED_MB\)"):
        check_inflated_size(
            _one_stream_pdf(b"/Filter /RunLengthDecode", run_length), ExtractionLimits(max_pdf_inflated_bytes=4 * MB)
        )
    text = b"BT /F1 11 Tf 72 720 Td (Mr. Smith) Tj ET " * 100
    lzw = check_inflated_size(_one_stream_pdf(b"/Filter /LZWDecode", _lzw_literals(text)), ExtractionLimits())
    assert lzw.inflated == len(text)
    # A chain: each step's output counts (pdfminer holds each step's whole result).
    deflated = zlib.compress(b" " * MB)
    chain = _one_stream_pdf(b"/Filter [/ASCIIHexDecode /FlateDecode]", deflated.hex().encode() + b">")
    assert check_inflated_size(chain, ExtractionLimits()).inflated == len(deflated) + MB
    # An image codec pdfminer keeps encoded counts at its stored size.
    jpeg = _one_stream_pdf(b"/Subtype /Image /Filter /DCTDecode", b"\xff\xd8" + b"\x00" * 1000)
    assert check_inflated_size(jpeg, ExtractionLimits()).inflated == 1002
