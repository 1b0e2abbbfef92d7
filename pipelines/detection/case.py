"""What a capital means in a text. A capital is the strongest cue to a name in
running text, and no cue at all in a transcript printed in capitals or in a
lower-case one (speech recognition often writes one): the encoder (models/minilm.py),
the filters (filtering/filters.py), the name lists (recognizers/gazetteer.py), the
cues (recognizers/cues.py) and propagation (merging/propagate.py) ask here first."""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Sequence
from functools import lru_cache

# A cased model's token types (the "case_types" setting of training/minilm-open.json): each piece
# carries its word's case, unless the line it is on carries no case at all.
LOWER, CAPITAL, CASELESS = 0, 1, 2


def breaks_line(word: str) -> bool:
    # "¶" is how training data marks a line break (training/open_data.py).
    return word == "¶" or ("\n" in word and not word.strip())


def case_types(words: Sequence[str]) -> list[int]:
    """Each word's token type for a cased model: CAPITAL for a word that opens with a
    capital letter, LOWER for any other, on a line whose case says something; on a
    line with no word in lower case (in capitals, in title case, a one-word line,
    "MR. JONES: Yes.") or with a capital only on its first word, CASELESS for every
    word, where the model reads the pieces alone as an uncased one does. Capitals
    are news text's strongest cue to a name, and a transcript in capitals or a
    lower-case one must still have its names found. Training gives its sentences
    the same types (train_minilm.py), so the two cannot drift apart. ("I" counts as
    a capital here, as the shipped model was trained; `carries_case` ignores it.)"""
    out: list[int] = []
    line: list[str] = []

    def flush() -> None:
        cased = [w for w in line if any(c.isupper() or c.islower() for c in w)]
        informative = any(w[:1].isupper() for w in cased[1:]) and any(w[:1].islower() for w in cased)
        out.extend((CAPITAL if w[:1].isupper() else LOWER) if informative else CASELESS for w in line)
        line.clear()

    for word in words:
        if breaks_line(word):
            flush()
            out.append(LOWER)
        else:
            line.append(word)
    flush()
    return out


def caseless_types(words: Sequence[str]) -> list[int]:
    """Each word's token type in a text that carries no case at all: CASELESS, but a
    line break keeps LOWER, as `case_types` gives it. Training shows a sentence so
    (train_minilm.encoder) and the encoder reads a text without case so
    (minilm.token_tags): one rule, so that the two cannot drift apart."""
    return [LOWER if breaks_line(w) else CASELESS for w in words]


_WORD = re.compile(r"[^\W\d_]{2,}")
# A sentence opens after ".", "?" or "!" (and any closing quote or bracket).
_SENTENCE_END = re.compile(r"[.?!][\"'’”)\]]*\s+$")
# Below this share of lower-case words, a text is in capitals (a stray lower-case
# word does not make it cased).
CASE_SHARE = 0.02
# Below this share of capitalised words inside sentences, and with no sentence
# opening to judge by, a text is in lower case (speech recognition without punctuation).
MID_SENTENCE_CAPITALS = 0.005
# Words a text needs before its case is judged: a line or two in lower case says
# too little ("I walked down the west street").
CASE_EVIDENCE = 40
# Sentence openings needed to judge by them.
OPENINGS = 3


@lru_cache(maxsize=4)
def carries_case(text: str) -> bool:
    """Whether `text` writes names with capitals at all. A cased text opens its
    sentences with capitals and writes most other words in lower case; a text in
    capitals has (almost) no lower-case word (under CASE_SHARE); a lower-case one
    opens its sentences in lower case (speech recognition that keeps "I" and a few
    names is still lower case), or, without punctuation, has almost no capital
    inside its lines (under MID_SENTENCE_CAPITALS). A text of fewer than
    CASE_EVIDENCE words is taken as cased (too little evidence to the contrary: the
    rules that read case stay on). A line's first word counts only where a sentence
    ends before it: plain-text transcripts wrap in mid-sentence.
    (Cached: the filters ask once per candidate; a few recent texts only.)"""
    openings = capital_openings = inside = capital_inside = lower = 0
    previous_end = 0
    for match in _WORD.finditer(text):
        first = match.group()[0]
        before = text[previous_end : match.start()]
        previous_end = match.end()
        opens = match.start() == 0 or bool(_SENTENCE_END.search(text, max(0, match.start() - 8), match.start()))
        lower += first.islower()
        if opens:
            openings += 1
            capital_openings += first.isupper()
        elif "\n" not in before:
            inside += 1
            capital_inside += first.isupper()
    if openings + inside < CASE_EVIDENCE:
        return True
    if lower < CASE_SHARE * (openings + inside):
        return False
    if openings >= OPENINGS:
        return capital_openings >= openings / 2
    return capital_inside >= MID_SENTENCE_CAPITALS * max(inside, 1)


# A line's opening that says nothing of its case: elapsed time, a printed line
# number, a question or an answer mark, a speaker label ("[00:00:14] PRICE: ").
# A label in any case, with a number or a time ("SPEAKER 2:", "Price:", "PRICE
# (00:00:33):", "00:00:33 PRICE:").
_LINE_OPENING = re.compile(
    r"[ \t]*(?:\[[^\]\n]{0,20}\][ \t]*)?(?:\d{1,2}:\d{2}(?::\d{2})?[ \t]+)?(?:\d+[ \t]+)?(?:[QA][.:][ \t]+)?"
    r"(?:[A-Za-z][\w .'’()-]{0,30}:(?!\d))?"
)
# "I", "I'm", "I'll": speech recognition that writes in lower case often keeps them.
_PRONOUN_I = re.compile(r"I(?:['’][a-z]{1,2})?")
# Words a stretch of lines without case needs inside a cased text: fewer may be
# lines of one long sentence, wrapped, that hold no name.
REGION_WORDS = 40


def _line_without_case(line: str) -> int:
    """The number of lower-case words of a line written without case (an answer as
    speech recognition wrote it, after its speaker label), or 0 where a capital
    says the line is cased ("Where did you grow up?" opens with one)."""
    opening = _LINE_OPENING.match(line)
    words = [w for w in _WORD.findall(line, opening.end() if opening else 0) if not _PRONOUN_I.fullmatch(w)]
    if any(w[0].isupper() for w in words):
        return 0
    return len(words)


@lru_cache(maxsize=4)
def caseless_spans(text: str) -> tuple[tuple[int, int], ...]:
    """The stretches of `text` written without case: all of it where it carries no
    case (`carries_case`); in a cased text, runs of lines whose words are all in
    lower case (blank lines between them allowed) of REGION_WORDS words or more, such
    as the answers of an interview whose questions a person corrected while the
    answers stayed as speech recognition wrote them. The rules that read a text
    without case run there (the lower-case names of "my sister is renée"), and the
    ones that take a lower-case word for no name stay off."""
    if not carries_case(text):
        return ((0, len(text)),)
    spans: list[tuple[int, int]] = []
    start = words = 0
    end = -1
    position = 0

    def close() -> None:
        if end >= 0 and words >= REGION_WORDS and _unpunctuated_or_lower(text[start:end], words):
            spans.append((start, end))

    for line in text.splitlines(keepends=True):
        count = _line_without_case(line) if line.strip() else -1
        if count > 0:
            if end < 0:
                start, words = position, 0
            words += count
            end = position + len(line.rstrip("\r\n"))
        elif count == 0:  # a cased line closes the stretch; a blank one does not
            close()
            end = -1
        position += len(line)
    close()
    return tuple(spans)


# Not after an abbreviation's period ("ten p.m. because", "etc. and").
_LOWER_OPENING = re.compile(r"(?<!\.[a-z])(?<!\betc)(?<!\bvs)[.?!][ \t]+[a-z]")
_PUNCTUATION = re.compile(r"[,;?!]|\.(?=\s)")
# At most this many marks of punctuation a word in a stretch read as unpunctuated
# speech recognition: cased prose without a capital for 40 words is one long
# sentence, and such a sentence has commas.
UNPUNCTUATED = 0.02


def _unpunctuated_or_lower(stretch: str, words: int) -> bool:
    """Lines with no capital are written without case, not one long cased sentence,
    where a sentence opens in lower case ("… home. then we") or where punctuation is
    (almost) absent, as speech recognition without it writes."""
    return bool(_LOWER_OPENING.search(stretch)) or len(_PUNCTUATION.findall(stretch)) <= UNPUNCTUATED * words


def caseless_at(text: str, position: int) -> bool:
    """Whether the character at `position` is in a stretch written without case."""
    spans = caseless_spans(text)
    i = bisect_right(spans, (position, len(text) + 1)) - 1
    return i >= 0 and spans[i][0] <= position < spans[i][1]
