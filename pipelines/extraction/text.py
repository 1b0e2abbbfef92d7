"""Plain-text decoding, normalized once, before any offset exists."""

import codecs
import unicodedata


class ExtractionError(Exception):
    """A file that cannot be turned into text; the message is shown to the user."""


def decode_text(data: bytes) -> str:
    if data.startswith(codecs.BOM_UTF8):
        text = data[len(codecs.BOM_UTF8) :].decode("utf-8")
    elif data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        text = data.decode("utf-16")
    else:
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            # Windows-1252 is what word processors on Windows write; it decodes any
            # byte except five, so it is the last resort, not a guess among many.
            try:
                text = data.decode("cp1252")
            except UnicodeDecodeError as exc:
                raise ExtractionError("The file is not text in UTF-8, UTF-16 or Windows-1252.") from exc
    if "\x00" in text:
        raise ExtractionError("The file contains binary data (NUL bytes); it is not a text file.")
    return normalize_text(text)


def normalize_text(text: str) -> str:
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    return unicodedata.normalize("NFC", text)
