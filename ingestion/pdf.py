"""PDF text extraction with pdfplumber: page text in reading order."""

import io

import pdfplumber
from pdfminer.pdfparser import PDFSyntaxError

from ingestion.text import ExtractionError, normalize_text


def extract_pdf(data: bytes) -> str:
    try:
        with pdfplumber.open(io.BytesIO(data)) as pdf:
            pages = [page.extract_text() or "" for page in pdf.pages]
    except (PDFSyntaxError, ValueError, KeyError, TypeError) as exc:
        raise ExtractionError(f"The PDF could not be read ({type(exc).__name__}); it may be damaged.") from exc
    except Exception as exc:  # pdfminer raises many private types for broken files
        if "password" in str(exc).lower() or type(exc).__name__ == "PDFPasswordIncorrect":
            raise ExtractionError("The PDF is password-protected.") from exc
        raise ExtractionError(f"The PDF could not be read ({type(exc).__name__}).") from exc
    text = normalize_text("\n\n".join(p.strip("\n") for p in pages)).strip("\n")
    if not text.strip():
        raise ExtractionError("The PDF has no text layer (a scanned image?); OCR is not supported.")
    return text + "\n"
