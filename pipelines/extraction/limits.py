"""The limits every input runs under, as plain data (the site fills them from its
settings; the engine's command line uses the defaults).

Every message that reports a limit names it as the setting an operator would
change, with its value, so that "why was my file refused?" has one answer."""

from dataclasses import dataclass

from pipelines.extraction.text import ExtractionError

MB = 1024 * 1024


@dataclass(frozen=True)
class ExtractionLimits:
    # Pages of one PDF (checked before any page is parsed).
    max_pdf_pages: int = 1000
    # Bytes one PDF content stream (or form) may inflate to: a 0.5 MB file can
    # hold a stream that inflates to 500 MB.
    max_pdf_stream_bytes: int = 32 * MB
    # Bytes all the streams of one PDF (pages, forms, fonts and their /ToUnicode
    # maps, images, object streams; an encrypted file's after decryption) may
    # inflate to together: pdfminer holds what it inflates, about twice over
    # while it parses a font's map, so this keeps the parser child near 400 MB.
    max_pdf_inflated_bytes: int = 128 * MB
    # The PDF parser runs in a child process with this much address space and
    # CPU time: whatever a hostile file does, it cannot take the worker down.
    max_pdf_parse_memory_bytes: int = 1024 * MB
    max_pdf_parse_seconds: int = 120
    # Characters of one document's extracted text (a transcript of 1,000 pages
    # is about 1.5 million).
    max_document_chars: int = 3_000_000
    # Run the PDF parser in the resource-limited child (False only for tests
    # of the parser itself).
    sandbox: bool = True


DEFAULT_LIMITS = ExtractionLimits()


class LimitExceeded(ExtractionError):
    """An input beyond one of the limits; the message names the setting and value."""


def size(n: int) -> str:
    return f"{n / MB:,.0f} MB" if n >= MB else f"{n:,} bytes"


def too_many_chars(chars: int | str, limit: int) -> LimitExceeded:
    shown = f"{chars:,}" if isinstance(chars, int) else chars
    return LimitExceeded(
        f"The text has {shown} characters; the limit is {limit:,} characters per document (MAX_DOCUMENT_CHARS). "
        "Split it into smaller documents."
    )
