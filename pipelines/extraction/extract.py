"""One entry point from an uploaded file to an `Extraction` (text + layout map)."""

from pathlib import PurePath

from pipelines.extraction.header import parse_text_header
from pipelines.extraction.pdf import DEFAULT_MAX_PAGES, extract_pdf
from pipelines.extraction.text import ExtractionError, decode_text
from pipelines.extraction.transcript_layout import Extraction, LayoutEntry

SUPPORTED_EXTENSIONS = (".txt", ".pdf")


def extract(name: str, data: bytes, max_pdf_pages: int = DEFAULT_MAX_PAGES) -> Extraction:
    extension = PurePath(name).suffix.lower()
    if extension == ".pdf" or data.startswith(b"%PDF-"):
        return extract_pdf(data, max_pdf_pages)
    if extension == ".txt":
        text = decode_text(data)
        if not text.strip():
            raise ExtractionError("The file is empty.")
        # A text transcript has a cover page too: its participants seed detection.
        return Extraction(text=text, layout=text_layout(text), pages=1, metadata=parse_text_header(text))
    raise ExtractionError(
        f"Unsupported file type {extension or '(none)'}; use one of {', '.join(SUPPORTED_EXTENSIONS)}."
    )


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
