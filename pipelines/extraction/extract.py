"""One entry point from an uploaded file to an `Extraction` (text + layout map)."""

import codecs
import re
from pathlib import PurePath

from pipelines.extraction.header import has_header, parse_text_header
from pipelines.extraction.limits import DEFAULT_LIMITS, ExtractionLimits, too_many_chars
from pipelines.extraction.pdf import extract_pdf
from pipelines.extraction.text import ExtractionError, decode_text
from pipelines.extraction.transcript_layout import Extraction, LayoutEntry, build_extraction

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
        pages = numbered_pages(text)
        if pages is not None:
            # A court reporter's text export: its printed line numbers and page
            # numbers are furniture, as on a PDF's pages (transcript_layout.py).
            extraction = build_extraction(pages)
            if has_header(extraction.metadata):
                return extraction
            return Extraction(extraction.text, extraction.layout, extraction.pages, parse_text_header(extraction.text))
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


# A line opening with a printed line number ("12   Q. And then?"), and a line that is
# only a number (a page's number).
_NUMBERED_LINE = re.compile(r"^[ \t]*(\d{1,2})(?:[ \t]+\S|[ \t]*$)")
_NUMBER_ONLY = re.compile(r"^[ \t]*\d{1,4}[ \t]*$")
# Most lines numbered: a transcript's layout, not a list with some numbers in it.
NUMBERED_SHARE = 0.6
MIN_NUMBERED_LINES = 10


def numbered_pages(text: str) -> list[list[str]] | None:
    """A text file's pages when most of its lines open with a printed line number
    (a court reporter's text export), else None. Pages end at a form feed, or
    where the numbering starts again ("25 …" then "1 …"); a number alone just
    before the restart is the next page's number and goes with it."""
    lines = text.split("\n")
    filled = [line for line in lines if line.strip()]
    numbered = sum(1 for line in filled if _NUMBERED_LINE.match(line) and not _NUMBER_ONLY.match(line))
    if numbered < MIN_NUMBERED_LINES or numbered < NUMBERED_SHARE * len(filled):
        return None
    feeds = "\f" in text
    pages: list[list[str]] = [[]]
    last = 0
    for line in lines:
        parts = line.split("\f")
        for n, part in enumerate(parts):
            if n:
                pages.append([])
                last = 0
            match = _NUMBERED_LINE.match(part)
            if match and not _NUMBER_ONLY.match(part):
                value = int(match.group(1))
                if not feeds and value <= last:
                    carried: list[str] = []
                    while pages[-1] and (not pages[-1][-1].strip() or _NUMBER_ONLY.match(pages[-1][-1])):
                        carried.insert(0, pages[-1].pop())
                    pages.append(carried)
                last = value
            pages[-1].append(part)
    return [page for page in pages if any(line.strip() for line in page)]


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
