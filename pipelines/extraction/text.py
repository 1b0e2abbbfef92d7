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


# Characters that show nothing but split a word for every matcher: "Jo\u200bhn"
# looks like "John" to a reader, yet is another string to a name list, a pattern
# or a pseudonym map, and one person got several numbers. Removed here, before
# any offset exists, so that the text, its layout map and every span agree.
# An explicit list, not the whole "Cf" category: some format characters carry
# meaning (Arabic number signs, emoji tag sequences).
INVISIBLE_CHARACTERS = frozenset(
    [
        0x00AD,  # soft hyphen
        0x034F,  # combining grapheme joiner
        0x061C,  # Arabic letter mark (bidi)
        0x115F,  # Hangul choseong filler
        0x1160,  # Hangul jungseong filler
        0x17B4,  # Khmer inherent vowels, shown as nothing
        0x17B5,
        0x180E,  # Mongolian vowel separator
        *range(0x200B, 0x2010),  # zero-width space, non-joiner, joiner; LRM, RLM
        *range(0x202A, 0x202F),  # bidi embeddings and overrides
        *range(0x2060, 0x2065),  # word joiner, invisible operators
        *range(0x2066, 0x2070),  # bidi isolates; deprecated format characters
        0x3164,  # Hangul filler
        *range(0xFE00, 0xFE10),  # variation selectors
        0xFEFF,  # zero-width no-break space (a BOM inside the text)
        0xFFA0,  # halfwidth Hangul filler
    ]
)
_REMOVE_INVISIBLE = dict.fromkeys(INVISIBLE_CHARACTERS)


def normalize_text(text: str) -> str:
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    # Removed before NFC: taking one out can bring a letter and its accent together.
    text = text.translate(_REMOVE_INVISIBLE)
    return unicodedata.normalize("NFC", text)
