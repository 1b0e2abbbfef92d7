"""Cutting a long text into chunks for the model pass.

spaCy and presidio are where detection spends its time and memory, so a long
transcript goes through them a chunk at a time (progress can be reported between
chunks, and memory stays flat). Chunks end at a line end whenever one is in
reach: transcripts hold one utterance per line, so no entity is cut in two
there (and a model entity that crosses a line break is filtered anyway).
"""

import re
from itertools import islice

# ~20k characters is ~3.5k words: a couple of seconds of spaCy on the sm model,
# so progress moves every few seconds and a Doc stays small.
CHUNK_CHARS = 20_000
# What a Doc costs grows with its tokens, not its characters (about 16 KB a token
# in the NER model), and a crafted text is a token every character ("a-a-a-…",
# "1/1/1/…"): 20,000 such characters took the worker 330 MB above its start. A
# chunk also ends before its CHUNK_TOKENS-th token-like piece (a word, a
# punctuation mark, a line end, an extra space: at least what spaCy's tokenizer
# splits), so a Doc stays about as small as on ordinary prose, which has ~5,400
# such pieces (~4,400 spaCy tokens) per 20,000 characters and is cut a little
# earlier than before.
CHUNK_TOKENS = 5_000
_LAST_SPACE = re.compile(r"\s(?=\S*\Z)")
# A chunk made almost wholly of one-character words ("A-A-A-…", "1/1/1/…", a
# spelling or a crafted input) holds nothing the model can read as a name: a
# spelled name is found by the patterns and the name identity over the text. The
# model pass over such a chunk is skipped (a tokenizer-only Doc): it was what was
# left of the cost of such input (~3.4 CPU s of NER per 40,000 characters).
LETTER_SOUP_SHARE = 0.9
LETTER_SOUP_MIN_WORDS = 200
_WORD = re.compile(r"[^\W_]+")
_PIECE = re.compile(r"\w+|[^\w ]| (?= )")


def _token_cut(text: str, start: int, end: int, limit: int) -> int | None:
    """Where the `limit`-th token-like piece of text[start:end] starts (0-based:
    the first piece past the limit), or None if there are no more than `limit`."""
    if len(_PIECE.findall(text, start, end)) <= limit:
        return None
    return next(islice(_PIECE.finditer(text, start, end), limit, None)).start()


def chunk_bounds(text: str, size: int = CHUNK_CHARS, tokens: int = CHUNK_TOKENS) -> list[tuple[int, int]]:
    """Contiguous `[start, end)` ranges covering `text`, each at most `size`
    characters and `tokens` token-like pieces, ending after a newline when the
    window has one, else after the last whitespace, else (one unbroken run of
    characters) at the window's end. An empty text is one empty chunk, so every
    text yields one result."""
    if size < 1 or tokens < 1:
        raise ValueError("chunk size must be positive")
    bounds: list[tuple[int, int]] = []
    start, length = 0, len(text)
    while start < length:
        window_end = min(length, start + size)
        over = _token_cut(text, start, window_end, tokens)
        if over is None and window_end == length:
            break
        if over is not None:
            window_end = over
        cut = text.rfind("\n", start, window_end)
        if cut < start:
            space = _LAST_SPACE.search(text, start, window_end)
            cut = space.start() if space else window_end - 1
        bounds.append((start, cut + 1))
        start = cut + 1
    bounds.append((start, length))
    return bounds


def is_letter_soup(chunk: str) -> bool:
    """At least LETTER_SOUP_MIN_WORDS words, LETTER_SOUP_SHARE of them one
    character long: no model reading to be had from it."""
    lengths = [len(w) for w in _WORD.findall(chunk)]
    if len(lengths) < LETTER_SOUP_MIN_WORDS:
        return False
    return sum(1 for n in lengths if n == 1) >= LETTER_SOUP_SHARE * len(lengths)
