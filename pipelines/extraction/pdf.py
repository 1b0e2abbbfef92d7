"""PDF text extraction with pdfplumber: each page's text lines in reading order,
rebuilt by the transcript layout parser into text plus a layout map."""

import io

from pipelines.extraction.text import ExtractionError
from pipelines.extraction.transcript_layout import Extraction, build_extraction

NO_TEXT_LAYER = "The PDF has no text layer: OCR needed (it looks like a scanned image)."


DEFAULT_MAX_PAGES = 1000


def extract_pdf(data: bytes, max_pages: int = DEFAULT_MAX_PAGES) -> Extraction:
    extraction = build_extraction(_page_lines(data, max_pages))
    # Page numbers alone (stamped on a scan) are no text layer either.
    if not extraction.text.strip():
        raise ExtractionError(NO_TEXT_LAYER)
    return extraction


def _page_lines(data: bytes, max_pages: int) -> list[list[str]]:
    # Imported here: only PDF uploads need pdfplumber (a tenth of a second to import).
    import pdfplumber
    from pdfminer.pdfparser import PDFSyntaxError

    try:
        with pdfplumber.open(io.BytesIO(data)) as pdf:
            # Checked before any page is parsed: a huge PDF fails fast, not after minutes.
            if len(pdf.pages) > max_pages:
                raise ExtractionError(
                    f"The PDF has {len(pdf.pages)} pages; the limit is {max_pages} (MAX_PDF_PAGES). "
                    "Split it into volumes."
                )
            pages = []
            for page in pdf.pages:
                pages.append((page.extract_text() or "").split("\n"))
                # pdfplumber caches every parsed object of a page; without this a
                # 100-page transcript holds hundreds of MB until the file is closed.
                page.close()
            return pages
    except ExtractionError:
        raise
    except (PDFSyntaxError, ValueError, KeyError, TypeError) as exc:
        raise ExtractionError(f"The PDF could not be read ({type(exc).__name__}); it may be damaged.") from exc
    except Exception as exc:  # pdfminer raises many private types for broken files
        if _is_password_error(exc):
            raise ExtractionError("The PDF is password-protected.") from exc
        raise ExtractionError(f"The PDF could not be read ({type(exc).__name__}); it may be damaged.") from exc


def _is_password_error(exc: BaseException | None) -> bool:
    # pdfplumber wraps pdfminer's PDFPasswordIncorrect, so look down the chain too.
    while exc is not None:
        if "password" in str(exc).lower() or type(exc).__name__ == "PDFPasswordIncorrect":
            return True
        exc = exc.__cause__ or exc.__context__
    return False
