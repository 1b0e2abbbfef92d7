"""What a capital means in a text. A capital is the strongest cue to a name in
running text, and no cue at all in a transcript printed in capitals or in a
lower-case one (speech recognition often writes one): the encoder (models/minilm.py)
and the filters that read case (filtering/filters.py) ask here first."""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

# A cased model's token types (training/train_minilm.py `case_types`): each piece
# carries its word's case, unless the line it is on carries no case at all.
LOWER, CAPITAL, CASELESS = 0, 1, 2


def _breaks_line(word: str) -> bool:
    # "¶" is how training data marks a line break (training/open_data.py).
    return word == "¶" or ("\n" in word and not word.strip())


def case_types(words: Sequence[str]) -> list[int]:
    """Each word's token type for a cased model: CAPITAL for a word that opens with a
    capital letter, LOWER for any other, on a line whose case says something; on a
    line in capitals, all in lower case, or with a capital only on its first word,
    CASELESS for every word, where the model reads the pieces alone as an uncased
    one does. Capitals are news text's strongest cue to a name, and a transcript in
    capitals or a lower-case one must still have its names found. Training gives
    its sentences the same types (train_minilm.py), so the two cannot drift apart."""
    out: list[int] = []
    line: list[str] = []

    def flush() -> None:
        cased = [w for w in line if any(c.isupper() or c.islower() for c in w)]
        informative = any(w[:1].isupper() for w in cased[1:]) and any(w[:1].islower() for w in cased)
        out.extend((CAPITAL if w[:1].isupper() else LOWER) if informative else CASELESS for w in line)
        line.clear()

    for word in words:
        if _breaks_line(word):
            flush()
            out.append(LOWER)
        else:
            line.append(word)
    flush()
    return out


_WORD = re.compile(r"[^\W\d_]{2,}")
# Below this share of words with a capital (or without one), a text's case says
# nothing: a lower-case transcript that still capitalises a few words, or one in
# capitals with a stray lower-case word.
CASE_SHARE = 0.02
# Words (not counting each line's first) a text needs before its case is judged: a
# line or two in lower case says too little ("I walked down the west street").
CASE_EVIDENCE = 40


@lru_cache(maxsize=8)
def carries_case(text: str) -> bool:
    """Whether `text` writes names with capitals at all: it has both words that open
    with a capital (not counting each line's first) and words that open in lower
    case, each at least CASE_SHARE of its words. A text of fewer than CASE_EVIDENCE
    such words does (too little evidence to the contrary: the rules that read case
    stay on)."""
    capital = lower = total = 0
    for line in text.splitlines():
        for i, match in enumerate(_WORD.finditer(line)):
            first = match.group()[0]
            lower += first.islower()
            if i:
                capital += first.isupper()
                total += 1
    if total < CASE_EVIDENCE:
        return True
    return capital >= CASE_SHARE * total and lower >= CASE_SHARE * total
