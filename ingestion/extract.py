from pathlib import PurePath

from ingestion.pdf import extract_pdf
from ingestion.text import ExtractionError, decode_text

SUPPORTED_EXTENSIONS = (".txt", ".pdf")


def extract_text(name: str, data: bytes) -> str:
    extension = PurePath(name).suffix.lower()
    if extension == ".pdf" or data.startswith(b"%PDF-"):
        return extract_pdf(data)
    if extension == ".txt":
        text = decode_text(data)
        if not text.strip():
            raise ExtractionError("The file is empty.")
        return text
    raise ExtractionError(
        f"Unsupported file type {extension or '(none)'}; use one of {', '.join(SUPPORTED_EXTENSIONS)}."
    )
