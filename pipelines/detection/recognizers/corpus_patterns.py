"""A corpus's own regex patterns, compiled and run under limits.

Corpus admins write these patterns, and a pattern is code: `(?:a{1000}){10000}`
compiles to ten million nodes (about 3 GB in the `regex` module), a
backtracking pattern can take seconds per document, and `.` matches every
character. So each pattern is checked before it is ever compiled (its length and
its expanded size, estimated from the text of the pattern), a corpus has at most
so many patterns, and running them over one document has an overall time budget
and a cap on matches per pattern. Plain Python: the site fills the limits from
its settings (`configure`); the defaults are safe on their own.

Where they apply: the detection form and the configuration model validate with
`check_patterns`; the compiled pipeline compiles with `compile_pattern` and scans
with `scan`.
"""

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
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


@dataclass
class ScanResult:
    # (pattern index, match) in pattern order, then text order.
    matches: list[tuple[int, Any]] = field(default_factory=list)
    # pattern index → why it was skipped on this text (time or matches).
    skipped: dict[int, str] = field(default_factory=dict)


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
    times is skipped too (its matches dropped): it matches everything.
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
        found = []
        try:
            for match in pattern.finditer(text, timeout=min(left, per_pattern or left)):
                if len(found) == limits.max_matches:
                    result.skipped[index] = (
                        f"skipped: more than {limits.max_matches:,} matches in this document "
                        "(MAX_CORPUS_PATTERN_MATCHES)"
                    )
                    found = []
                    break
                found.append(match)
        except TimeoutError:
            result.skipped[index] = (
                f"timed out: the time budget for corpus patterns ({limits.budget_seconds:g} s per document, "
                "CORPUS_PATTERN_BUDGET_SECONDS) was spent"
            )
            continue
        result.matches += [(index, match) for match in found]
    return result
