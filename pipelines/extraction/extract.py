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


# A line opening with a printed line number set apart by two spaces or a tab, as a
# court reporter's export aligns it ("12   Q. And then?"; "1 May 2019 booked" is a
# chronology), and a line that is only a number (a page's number).
_NUMBERED_LINE = re.compile(r"^[ \t]*(\d{1,2})(?:[ \t]{2,}|\t)\S")
_NUMBER_ONLY = re.compile(r"^[ \t]*\d{1,4}[ \t]*$")
# Most lines numbered, the numbers running on (n, n + 1, or 1 on a new page): a
# transcript's layout, not a list with some numbers in it.
NUMBERED_SHARE = 0.6
RUNNING_SHARE = 0.8
MIN_NUMBERED_LINES = 10


def numbered_pages(text: str) -> list[list[str]] | None:
    """A text file's pages when most of its lines open with a printed line number
    (a court reporter's text export), else None. Pages end at a form feed and where
    the numbering starts again ("25 …" then "1 …"); a number alone just before the
    restart is the next page's number and goes with it. Pages are counted in the
    file (the layout map's page is the page's place, not its printed number)."""
    lines = text.split("\n")
    filled = sum(1 for line in lines if line.strip())
    values = [int(m.group(1)) for line in lines if (m := _NUMBERED_LINE.match(line))]
    running = sum(1 for a, b in zip(values, values[1:], strict=False) if b in (a + 1, 1))
    if len(values) < MIN_NUMBERED_LINES or len(values) < NUMBERED_SHARE * filled:
        return None
    if running < RUNNING_SHARE * (len(values) - 1):
        return None
    pages: list[list[str]] = [[]]
    last = 0
    for line in lines:
        for n, part in enumerate(line.split("\f")):
            if n:  # a form feed ends the page
                pages.append([])
                last = 0
            match = _NUMBERED_LINE.match(part)
            if match:
                value = int(match.group(1))
                if value <= last:
                    # The numbering starts again: a new page, which takes the blank
                    # lines and the page's number that end the previous one.
                    page = pages[-1]
                    cut = len(page)
                    while cut and (not page[cut - 1].strip() or _NUMBER_ONLY.match(page[cut - 1])):
                        cut -= 1
                    pages.append(page[cut:])
                    del page[cut:]
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
