"""Text helpers of the review workspace: what counts as the same entity text, and
moving a span's edge by one word. Plain functions over the document text."""

import re

from review.errors import ReviewError


def normalize(text: str) -> str:
    """Occurrences of one entity: same text up to case and whitespace."""
    return " ".join(text.split()).casefold()


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
