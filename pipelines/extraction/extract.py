"""One entry point from an uploaded file to an `Extraction` (text + layout map)."""

import codecs
from pathlib import PurePath

from pipelines.extraction.header import parse_text_header
from pipelines.extraction.limits import DEFAULT_LIMITS, ExtractionLimits, too_many_chars
from pipelines.extraction.pdf import extract_pdf
from pipelines.extraction.text import ExtractionError, decode_text
from pipelines.extraction.transcript_layout import Extraction, LayoutEntry

SUPPORTED_EXTENSIONS = (".txt", ".pdf")


def extract(name: str, data: bytes, limits: ExtractionLimits | int = DEFAULT_LIMITS) -> Extraction:
    if isinstance(limits, int):  # the former signature: a PDF page limit alone
        limits = ExtractionLimits(max_pdf_pages=limits)
    extension = PurePath(name).suffix.lower()
    if extension == ".pdf" or data.startswith(b"%PDF-"):
        return extract_pdf(data, limits)
    if extension == ".txt":
        check_chars(data, limits.max_document_chars)
        text = decode_text(data)
        if not text.strip():
            raise ExtractionError("The file is empty.")
        if len(text) > limits.max_document_chars:
            raise too_many_chars(len(text), limits.max_document_chars)
        # A text transcript has a cover page too: its participants seed detection.
        return Extraction(text=text, layout=text_layout(text), pages=1, metadata=parse_text_header(text))
    raise ExtractionError(
        f"Unsupported file type {extension or '(none)'}; use one of {', '.join(SUPPORTED_EXTENSIONS)}."
    )


_CHUNK = 1024 * 1024


def check_chars(data: bytes, limit: int) -> None:
    """Refuse a text of more than `limit` characters before decoding it whole: a
    character is at least one byte, so only a file larger than the limit is
    counted, a megabyte at a time (UTF-8; other encodings count bytes)."""
    if len(data) <= limit:
        return
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        chars = (len(data) - 2) // 2
    else:
        decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        chars = 0
        view = memoryview(data)
        for start in range(0, len(data), _CHUNK):
            chars += len(decoder.decode(view[start : start + _CHUNK]))
            if chars > limit:
                break
    if chars > limit:
        raise too_many_chars(f"more than {limit:,}", limit)


def text_layout(text: str) -> list[LayoutEntry]:
    """A text file is one page: each non-empty line is an entry on page 1 with its
    1-based line number in the file. A text file has no pages we could trust (form
    feeds are rare and inconsistent), and page 1 keeps the entry type all-integer."""
    layout: list[LayoutEntry] = []
    offset = 0
    for number, line in enumerate(text.split("\n"), start=1):
        if line:
            layout.append((offset, offset + len(line), 1, number))
        offset += len(line) + 1
    return layout
