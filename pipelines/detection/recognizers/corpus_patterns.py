"""A corpus's own regex patterns and its allow and deny lists, run under limits.

Corpus admins write these patterns, and a pattern is code: `(?:a{1000}){10000}`
compiles to ten million nodes (about 3 GB in the `regex` module), a
backtracking pattern can take seconds per document, `.` matches every
character, and `(?:(a)|(b))+` keeps every repetition's capture of a match as
long as the document (430 MB on 3 MB). So each pattern is checked before it is
ever compiled (its length and its expanded size, estimated from the text of the
pattern), a corpus has at most so many patterns, and running them over one
document has an overall time budget, a cap on matches per pattern and a cap on
the length of one match: a pattern is run over windows of the text a few times
that length, so what one match (or one failed attempt) holds in memory is
bounded by the window, whatever the document's size.

The lists are data of the same admins: a list has at most so many entries, of at
most so many characters each and so many together, and the allow list is found
in one pass over the text by an Aho-Corasick automaton over its words
(`AllowList`), not by one alternation of every entry tried at every position (a
9.5 MB list took 31 s and 1.3 GB on a 285 KB document).

Plain Python: the site fills the limits from its settings (`configure`); the
defaults are safe on their own. Where they apply: the detection form and the
configuration model validate with `check_patterns` and `check_lists`; the
compiled pipeline compiles with `compile_pattern`, scans with `scan` and finds
the allow list with `AllowList.find`.
"""

import re
import time
from array import array
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import accumulate
from typing import Any

# Overall per-document budget, per-pattern timeout, and limits on what is stored.


@dataclass(frozen=True)
class PatternLimits:
    max_patterns: int = 50  # MAX_CORPUS_PATTERNS
    max_length: int = 500  # MAX_PATTERN_LENGTH, characters of one pattern
    # MAX_PATTERN_PROGRAM_SIZE: the pattern's size once counted repeats are
    # expanded (`a{1000}` is 1,000): about 300 bytes each once compiled.
    max_program_size: int = 20_000
    # CORPUS_PATTERN_BUDGET_SECONDS: every corpus pattern together, over one document.
    budget_seconds: float = 5.0
    # MAX_CORPUS_PATTERN_MATCHES: a pattern matching more often than this in one
    # document is skipped there (it matches everything, like `.`).
    max_matches: int = 5000
    # MAX_CORPUS_PATTERN_MATCH_CHARS: the longest match a pattern may make. A
    # longer one means the pattern runs over everything (`[^\n]+` on a page with
    # no line break), and it is skipped on that document.
    max_match_chars: int = 1000
    # MAX_LIST_ENTRIES, MAX_LIST_ENTRY_CHARS, MAX_LIST_CHARS: per list (allow, deny).
    max_list_entries: int = 5000
    max_list_entry_chars: int = 200
    max_list_chars: int = 200_000


_limits = PatternLimits()


def configure(limits: PatternLimits) -> None:
    """Set the limits of this process (the site does, from its settings, at start)."""
    global _limits
    _limits = limits


def current_limits() -> PatternLimits:
    return _limits


class PatternLimitError(ValueError):
    """A pattern refused by a limit; the message names the setting and its value."""


def program_size(pattern: str) -> int:
    """An upper estimate of the pattern's compiled size: every atom counts one,
    a group the sum of its parts, and a counted repeat `{m,n}` multiplies what it
    repeats by its largest count, as the `regex` module expands them. Read from
    the text alone, so that a pattern is measured before anything is compiled."""
    frames: list[list[int]] = [[0, 0]]  # [total, size of the last atom] per open group
    i, n = 0, len(pattern)
    while i < n:
        char = pattern[i]
        frame = frames[-1]
        if char == "\\":
            i += 2
            if i <= n and pattern[i - 1] in "pPNxug" and i < n and pattern[i] == "{":
                close = pattern.find("}", i)
                i = n if close < 0 else close + 1
            frame[0] += 1
            frame[1] = 1
            continue
        if char == "[":
            i = _class_end(pattern, i)
            frame[0] += 1
            frame[1] = 1
            continue
        if char == "(":
            frames.append([1, 0])
            i += 1
            continue
        if char == ")" and len(frames) > 1:
            total = frames.pop()[0]
            frames[-1][0] += total
            frames[-1][1] = total
            i += 1
            continue
        if char in "*+?":
            frame[0] += frame[1]  # a loop around it
            i += 1
            continue
        if char == "{":
            count, end = _repeat(pattern, i)
            if count is not None:
                frame[0] += frame[1] * (count - 1)
                frame[1] *= count
                i = end
                continue
        frame[0] += 1
        frame[1] = 1
        i += 1
    while len(frames) > 1:  # an unclosed group: compiling will say so
        total = frames.pop()[0]
        frames[-1][0] += total
    return frames[0][0]


def _class_end(pattern: str, start: int) -> int:
    i = start + 1
    if i < len(pattern) and pattern[i] == "^":
        i += 1
    if i < len(pattern) and pattern[i] == "]":
        i += 1
    while i < len(pattern):
        if pattern[i] == "\\":
            i += 2
            continue
        if pattern[i] == "]":
            return i + 1
        i += 1
    return len(pattern)


def _repeat(pattern: str, start: int) -> tuple[int | None, int]:
    close = pattern.find("}", start)
    if close < 0:
        return None, start
    body = pattern[start + 1 : close]
    low, comma, high = body.partition(",")
    if not (low.isdigit() or (comma and not low)) or (high and not high.isdigit()):
        return None, start
    values = [int(v) for v in (low, high) if v]
    return max([1, *values]), close + 1


def check_pattern(pattern: str, limits: PatternLimits | None = None) -> None:
    """Raise PatternLimitError if the pattern is too long or expands too far."""
    limits = limits or _limits
    if len(pattern) > limits.max_length:
        raise PatternLimitError(
            f"the pattern has {len(pattern):,} characters; the limit is {limits.max_length:,} (MAX_PATTERN_LENGTH)"
        )
    size = program_size(pattern)
    if size > limits.max_program_size:
        raise PatternLimitError(
            f"the pattern expands to about {size:,} steps once its repeats are counted out; the limit is "
            f"{limits.max_program_size:,} (MAX_PATTERN_PROGRAM_SIZE): use smaller repeat counts"
        )


def check_patterns(patterns: Sequence[str], limits: PatternLimits | None = None) -> list[str]:
    """Every limit problem of a corpus's patterns, as messages (empty: all fine)."""
    limits = limits or _limits
    errors = []
    if len(patterns) > limits.max_patterns:
        errors.append(
            f"{len(patterns):,} patterns; the limit is {limits.max_patterns:,} per corpus (MAX_CORPUS_PATTERNS)"
        )
    for n, pattern in enumerate(patterns, start=1):
        try:
            check_pattern(pattern, limits)
        except PatternLimitError as exc:
            errors.append(f"pattern {n}: {exc}")
    return errors


def compile_pattern(pattern: str, limits: PatternLimits | None = None) -> Any:
    """The compiled `regex` pattern, after the limits are checked (raises
    PatternLimitError, or `regex.error` for invalid syntax). A pattern that
    matches the empty string is refused too: it would match everywhere."""
    import regex

    check_pattern(pattern, limits)
    # VERSION0 is re-compatible syntax: what admins who know Python's re expect.
    compiled = regex.compile(pattern, regex.VERSION0)
    if compiled.fullmatch("") is not None:
        raise PatternLimitError("the pattern matches the empty string, so it would match everywhere")
    return compiled


@dataclass(frozen=True, slots=True)
class PatternMatch:
    index: int  # of the pattern
    start: int  # the span: the group named `v` when the pattern has it, else the whole match
    end: int


@dataclass
class ScanResult:
    # In pattern order, then text order. Spans, not match objects: a `regex` match
    # keeps every capture of its repeated groups.
    matches: list[PatternMatch] = field(default_factory=list)
    # pattern index → why it was skipped on this text (time, matches, match length).
    skipped: dict[int, str] = field(default_factory=dict)


class _TooLong(Exception):
    pass


def _span(match: Any) -> tuple[int, int]:
    if "v" in match.re.groupindex and match.group("v") is not None:
        return match.span("v")
    return match.span()


# How many match lengths of each window are kept (see _bounded_matches).
KEPT = 4


def _bounded_matches(pattern: Any, text: str, longest: int, timeout: Callable[[], float]) -> Iterator[tuple[int, int]]:
    """The pattern's matches over the text, searched window by window: each
    search runs on a copy of the text from `longest` characters before where it
    starts to `KEPT + 1` times `longest` after, and keeps the matches that start in
    the first `KEPT × longest`, so no match, no attempt that fails and no
    lookbehind (the `regex` module's may be of any length) runs over more than the
    window: the module keeps a capture per repetition of a group and a
    backtracking state per step, both growing with what one attempt reads. (The
    match found past the kept part is searched again by the next window: with
    KEPT = 4, at most a quarter more work.) A match longer than `longest` raises
    _TooLong. `timeout()` is the seconds left; the search raises TimeoutError once
    it is spent. So a pattern sees `longest` characters around a match, not the
    whole text: a lookaround further than that sees the window's edge as the
    text's."""
    position, size = 0, len(text)
    while position < size:
        left = timeout()
        if left <= 0:
            raise TimeoutError
        base = max(0, position - longest)
        window_end = min(size, position + (KEPT + 1) * longest)
        window = text[base:window_end]
        keep_before = position + KEPT * longest
        following = keep_before
        for match in pattern.finditer(window, position - base, timeout=left):
            start, end = match.start() + base, match.end() + base
            if start >= keep_before:
                break
            if end - start > longest:  # also any match reaching a window's end short of the text's
                raise _TooLong
            following = max(following, end)
            span_start, span_end = _span(match)
            yield span_start + base, span_end + base
        position = following


def scan(
    text: str,
    compiled: Sequence[Any],
    limits: PatternLimits | None = None,
    clock: Callable[[], float] = time.process_time,
    per_pattern: float | None = None,
) -> ScanResult:
    """Run every compiled pattern over the text within one overall time budget
    (CORPUS_PATTERN_BUDGET_SECONDS, in CPU seconds, the clock of the `regex`
    module's timeout: on a busy machine wall time runs ahead of it): each pattern
    gets what is left of it as its timeout; once it is spent, the remaining patterns are
    skipped on this text. A pattern that matches more than MAX_CORPUS_PATTERN_MATCHES
    times, or makes a match longer than MAX_CORPUS_PATTERN_MATCH_CHARS, is skipped
    too (its matches dropped): it matches everything.
    `per_pattern` caps one pattern's share (a configuration's pattern timeout)."""
    limits = limits or _limits
    result = ScanResult()
    deadline = clock() + limits.budget_seconds
    for index, pattern in enumerate(compiled):
        left = deadline - clock()
        if left <= 0:
            result.skipped[index] = (
                f"not run: the time budget for corpus patterns ({limits.budget_seconds:g} s per document, "
                "CORPUS_PATTERN_BUDGET_SECONDS) was spent"
            )
            continue
        own_deadline = clock() + min(left, per_pattern or left)
        found: list[PatternMatch] = []
        try:
            for start, end in _bounded_matches(
                pattern, text, limits.max_match_chars, lambda d=own_deadline: d - clock()
            ):
                if len(found) == limits.max_matches:
                    result.skipped[index] = (
                        f"skipped: more than {limits.max_matches:,} matches in this document "
                        "(MAX_CORPUS_PATTERN_MATCHES)"
                    )
                    found = []
                    break
                found.append(PatternMatch(index, start, end))
        except TimeoutError:
            result.skipped[index] = (
                f"timed out: the time budget for corpus patterns ({limits.budget_seconds:g} s per document, "
                "CORPUS_PATTERN_BUDGET_SECONDS) was spent"
            )
            continue
        except _TooLong:
            result.skipped[index] = (
                f"skipped: a match longer than {limits.max_match_chars:,} characters in this document "
                "(MAX_CORPUS_PATTERN_MATCH_CHARS)"
            )
            continue
        result.matches += found
    return result


# --- the allow and deny lists ------------------------------------------------------


def check_list(name: str, entries: Sequence[str], limits: PatternLimits | None = None) -> list[str]:
    """Every limit problem of one list (`name`: "allow list", "deny list"), as
    messages naming the setting (empty: all fine). Read from the entries alone,
    before anything is built from them."""
    limits = limits or _limits
    errors = []
    if len(entries) > limits.max_list_entries:
        errors.append(
            f"the {name} has {len(entries):,} entries; the limit is {limits.max_list_entries:,} (MAX_LIST_ENTRIES)"
        )
    longest = max(entries, key=len, default="")
    if len(longest) > limits.max_list_entry_chars:
        errors.append(
            f"the {name} has an entry of {len(longest):,} characters (“{longest[:40]}…”); the limit is "
            f"{limits.max_list_entry_chars:,} (MAX_LIST_ENTRY_CHARS)"
        )
    total = sum(len(entry) for entry in entries)
    if total > limits.max_list_chars:
        errors.append(
            f"the {name} has {total:,} characters in all; the limit is {limits.max_list_chars:,} (MAX_LIST_CHARS)"
        )
    return errors


# A word (what `\w` makes one: letters, digits, underscore) or one other character.
_PIECE = re.compile(r"\w+|\W")
_UNKNOWN = "\x01"  # a piece of the text that is in no entry


def _symbol(number: int) -> str:
    # Any code point but the surrogates (the automaton works on UTF-8).
    return chr(number + 2 if number + 2 < 0xD800 else number + 2 + 0x800)


class AllowList:
    r"""Where the allow list's texts occur: whole words, any case, the longest
    entry at the leftmost place, occurrences apart (what one alternation of the
    entries, longest first, between `(?<!\w)` and `(?!\w)`, found, entry by entry
    at every position of the text).

    The text and the entries are cut into pieces (a word, or one other character)
    and each distinct piece of the entries becomes one symbol; an Aho-Corasick
    automaton (`ahocorasick_rs`, leftmost-longest) then finds the entries in the
    text's symbols in one pass: the time is linear in the text and the lists, and
    an entry can only begin and end at a word's edge, as before."""

    def __init__(self, entries: Mapping[str, str]) -> None:
        self.labels: dict[str, str] = {}
        for text, label in entries.items():
            form = text.strip().casefold()
            if form:
                self.labels[form] = label  # the last entry of a text wins, as in a dict
        self._symbols: dict[str, str] = {}
        keys = []
        self._forms = list(self.labels)
        for form in self._forms:
            keys.append("".join(self._symbols.setdefault(p, _symbol(len(self._symbols))) for p in _PIECE.findall(form)))
        self._automaton = None
        if keys:
            import ahocorasick_rs

            self._automaton = ahocorasick_rs.AhoCorasick(keys, matchkind=ahocorasick_rs.MatchKind.LeftmostLongest)

    def __bool__(self) -> bool:
        return self._automaton is not None

    def find(self, text: str) -> list[tuple[int, int, str]]:
        """(start, end, label) of each occurrence, left to right."""
        if self._automaton is None or not text:
            return []
        folded = text.casefold()
        if len(folded) == len(text):  # the offsets are the text's: cut the folded text
            pieces = _PIECE.findall(folded)
            offsets = array("q", accumulate(map(len, pieces), initial=0))
        else:  # "ß" folds to "ss": cut the text, fold piece by piece
            pieces = _PIECE.findall(text)
            offsets = array("q", accumulate(map(len, pieces), initial=0))
            pieces = [piece.casefold() for piece in pieces]
        symbols = self._symbols
        encoded = "".join([symbols.get(piece, _UNKNOWN) for piece in pieces])
        found = []
        for number, first, last in self._automaton.find_matches_as_indexes(encoded):
            start, end = offsets[first], offsets[last]
            form = self._forms[number]
            # An entry that begins or ends with a sign ("#12", "Jr.") is still kept
            # apart from a word next to it, as the alternation's lookarounds did.
            if not _is_word(form[0]) and start and _is_word(text[start - 1]):
                continue
            if not _is_word(form[-1]) and end < len(text) and _is_word(text[end]):
                continue
            found.append((start, end, self.labels[form]))
        return found


_WORD_CHAR = re.compile(r"\w")


def _is_word(char: str) -> bool:
    return _WORD_CHAR.match(char) is not None
