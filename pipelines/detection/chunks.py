"""Cutting a long text into chunks for the model pass.

spaCy and presidio are where detection spends its time and memory, so a long
transcript goes through them a chunk at a time (progress can be reported between
chunks, and memory stays flat). Chunks end at a line end whenever one is in
reach: transcripts hold one utterance per line, so no entity is cut in two
there (and a model entity that crosses a line break is filtered anyway).
"""

import re

# ~20k characters is ~3.5k words: a couple of seconds of spaCy on the sm model,
# so progress moves every few seconds and a Doc stays small.
CHUNK_CHARS = 20_000
_LAST_SPACE = re.compile(r"\s(?=\S*\Z)")


def chunk_bounds(text: str, size: int = CHUNK_CHARS) -> list[tuple[int, int]]:
    """Contiguous `[start, end)` ranges covering `text`, each at most `size`
    characters, ending after a newline when the window has one, else after the
    last whitespace, else (one unbroken run of characters) at `size`. An empty
    text is one empty chunk, so every text yields one result."""
    if size < 1:
        raise ValueError("chunk size must be positive")
    bounds: list[tuple[int, int]] = []
    start, length = 0, len(text)
    while length - start > size:
        window_end = start + size
        cut = text.rfind("\n", start, window_end)
        if cut < start:
            space = _LAST_SPACE.search(text, start, window_end)
            cut = space.start() if space else window_end - 1
        bounds.append((start, cut + 1))
        start = cut + 1
    bounds.append((start, length))
    return bounds
