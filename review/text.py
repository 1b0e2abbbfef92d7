"""Text helpers of the review workspace: what counts as the same entity text, and
moving a span's edge by one word. Plain functions over the document text.

"The same entity text" is the engine's name identity (`pipelines.names`), the one
propagation and the export's leak gate use: apply-to-all, the side panel's
grouping, its occurrence count and linking cannot disagree with them."""

import functools
import re

from pipelines.detection.filtering.words import name_words
from pipelines.names import NameIdentity, NameWords, name_key
from review.errors import ReviewError


def normalize(text: str) -> str:
    """White space and case folded: a plain comparison of two texts."""
    return " ".join(text.split()).casefold()


def document_text(span) -> str | None:
    """The document's text when the span's document is already loaded (no query)."""
    field = type(span)._meta.get_field("document")
    return span.document.text if field.is_cached(span) else None


def words_of(document) -> NameWords:
    """The name words of the document's corpus language (names.py): French names
    are keyed with French particles, titles and common words. The pages load the
    corpus with the document (access.document_for, span_for)."""
    return name_words(document.corpus.language)


def span_words(span) -> NameWords | None:
    """`words_of` the span's document when it is loaded (every service and view
    loads it before deciding); None, English's, for a span alone (DB-free callers)."""
    field = type(span)._meta.get_field("document")
    return words_of(span.document) if field.is_cached(span) else None


def same_name_key(span, text: str | None = None, words: NameWords | None = None) -> str:
    """The key under which spans are the same name: case, white space, line-end
    hyphenation and a possessive aside; a lower-case common word ("young") apart
    from the name ("Young") unless its context in `text` says it is the name.
    `words`: the corpus language's (English by default)."""
    key = _key_without_context(span.text, span.label, words)
    if key is not None:
        return key
    return name_key(span.text, span.label, (text, span.start, span.end) if text is not None else None, words)


@functools.lru_cache(maxsize=16384)
def _key_without_context(text: str, label: str, words: NameWords | None = None) -> str | None:
    """The key of a span text whose key cannot depend on where it stands, else
    None. The side panel, the panel's count and apply-to-all key every span of a
    document (7,500 on a 500-page transcript, a few hundred distinct texts):
    once per text and language, not per span. The case policy
    (`is_name_occurrence`) asks the context only of a text with no capital letter,
    and `name_key` asks nothing of one without a word; both are keyed here the
    same as with a context."""
    if any(c.isupper() for c in text) or not any(c.isalpha() for c in text):
        return name_key(text, label, None, words)
    return None


def name_occurrences(
    text: str, start: int, end: int, label: str, words: NameWords | None = None
) -> list[tuple[int, int]]:
    """Every occurrence of the name text[start:end] (the identity's forms with the
    same key: "Smith", "SMITH", "Smith's", "Smi-\\nth"), the selection first."""
    key = name_key(text[start:end], label, (text, start, end), words)
    # The selection as a whole (titles included: "COMMISSIONER HARTWELL"), not its parts.
    identity = NameIdentity([(text[start:end], "SELECTION")], words)
    # The identity's variants, and the text as written (a lower-case common word a
    # reviewer selected, "board", is the word everywhere it is written so).
    spans = {(o.start, o.end) for o in identity.find(text) if o.kind != "spelled"}
    spans.update(occurrences(text, text[start:end]))
    found = sorted(
        o for o in spans if o != (start, end) and name_key(text[o[0] : o[1]], label, (text, *o), words) == key
    )
    return [(start, end), *found]


def trim(text: str, start: int, end: int) -> tuple[int, int]:
    """`[start, end)` without surrounding whitespace."""
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return start, end


def occurrences(text: str, needle: str) -> list[tuple[int, int]]:
    """Every word-bounded occurrence of `needle`, as written."""
    pattern = re.compile(r"(?<!\w)" + re.escape(needle) + r"(?!\w)")
    return [m.span() for m in pattern.finditer(text)]


def word_step(text: str, start: int, end: int, *, edge: str, grow: bool) -> tuple[int, int]:
    """Move one edge of `[start, end)` by one word (or one punctuation mark).

    Growing never crosses a line break: a line is one utterance, and a name does
    not continue into the next speaker's turn.
    """
    if edge == "end" and grow:
        i = end
        while i < len(text) and text[i] in " \t":
            i += 1
        if i >= len(text) or text[i] == "\n":
            raise ReviewError("Nothing to extend into on this line.")
        j = i + 1
        if text[i].isalnum():
            while j < len(text) and (text[j].isalnum() or text[j] in "'’-"):
                j += 1
        return start, j
    if edge == "start" and grow:
        i = start
        while i > 0 and text[i - 1] in " \t":
            i -= 1
        if i == 0 or text[i - 1] == "\n":
            raise ReviewError("Nothing to extend into on this line.")
        j = i - 1
        if text[j].isalnum():
            while j > 0 and (text[j - 1].isalnum() or text[j - 1] in "'’-"):
                j -= 1
        return j, end
    if edge == "end":
        i = end - 1
        if text[i].isalnum():
            while i > start and (text[i - 1].isalnum() or text[i - 1] in "'’-"):
                i -= 1
        new_start, new_end = trim(text, start, i)
    elif edge == "start":
        i = start + 1
        if text[start].isalnum():
            while i < end and (text[i].isalnum() or text[i] in "'’-"):
                i += 1
        new_start, new_end = trim(text, i, end)
    else:
        raise ReviewError("Unknown edge.")
    if new_start >= new_end:
        raise ReviewError("A span cannot be shorter than one word; reject it instead.")
    return new_start, new_end
