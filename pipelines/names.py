"""The name identity: one answer to "is this string that name?".

Propagation (detection), apply-to-all grouping (review), export-time completion and
the leak gate (export) all ask this module, so they cannot disagree. Given the
accepted forms of some names (a span's text and label), `NameIdentity.find` lists
the strings of a text that are one of those names, and `name_key` is the key under
which two span texts are the same name.

What counts as the same name
- Case variants: "Smith", "SMITH", "smith" (see the case policy below).
- Possessives: "Smith's", "Jones'" (the name without the possessive).
- Name parts of a person's name: "Smith" and "John" of "John Smith" (titles,
  particles, suffixes, initials and stop words are no parts).
- Joined and hyphenated first+last names: "JohnSmith", "john-smith", "john_smith",
  "John.Smith", and the name broken over a line ("John\\nSmith").
- A word broken across a line end with a hyphen: "Smi-\\nth".
- Spelled and spaced letters: "S-M-I-T-H", "S m i t h", "s.m.i.t.h".

The case policy
- Any occurrence with a capital letter is the name ("Young", "YOUNG").
- A lower-case occurrence of a word that is not a common English word is the name
  ("kowalczyk"). "Common" comes from wordfreq and Faker's name frequencies
  (`gazetteers.common_words`), never from a hand-typed list.
- A lower-case occurrence of a common word ("young", "rose", "will") is the name
  only when a name context says so: a title before it ("Mr. young"), a speaker
  label ("young:"), or another part of a name beside it ("tom young").
- A lower-case word right after an article or a possessive pronoun is a common
  noun, never the name ("the mike" of "Mike", "a rose" of "Rose").
- A multi-word form in lower case is the name unless every word is common
  ("john smith" is; "board hearing" of the ORGANIZATION "Board Hearing" is not).
- Joined and spelled forms are always the name: nobody writes "johnsmith" or
  "S-M-I-T-H" by accident.

The words it reads are the text's language's (`NameWords`): stop words, name
particles, titles and role words, determiners and the common-word test. English's
(the default) are lexicons.py's and gazetteers.py's; another language's come from
its language file through detection's filtering/words.py. A rule whose list the
language lacks does not run: without a common-word list a lower-case single word is
the name only with a name context.
"""

import re
from bisect import bisect_left
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from functools import lru_cache

from pipelines.candidate import Candidate
from pipelines.gazetteers import is_common_word, is_known_name, stop_words
from pipelines.labels import PERSON_ROLE_LABELS
from pipelines.lexicons import (
    ABBREVIATED_GIVEN_NAMES,
    DETERMINERS,
    HONORIFICS,
    LEGAL_FORMS,
    NAME_PARTICLES,
    NAME_SUFFIXES,
    PHONETIC_ALPHABET,
    ROLE_WORDS,
)


@dataclass(frozen=True)
class NameWords:
    """The words the identity reads in one language (all lower case)."""

    code: str
    stop_words: frozenset[str]
    # Lower-case words inside a name that are no name alone ("de", "van", "le").
    particles: frozenset[str]
    # Generational suffixes ("jr"): part of a name, no name of their own.
    suffixes: frozenset[str]
    # Roles and honorifics: titles before a name ("commissioner", "maître").
    role_words: frozenset[str]
    honorifics: frozenset[str]
    # Articles and possessives: a lower-case word after one is a common noun.
    determiners: frozenset[str]
    # A word common in the language's running text; None: the language has no list.
    common_word: Callable[[str], bool] | None


@lru_cache(maxsize=1)
def english_name_words() -> NameWords:
    return NameWords(
        code="en",
        stop_words=stop_words(),
        particles=NAME_PARTICLES,
        suffixes=NAME_SUFFIXES,
        role_words=ROLE_WORDS,
        honorifics=HONORIFICS,
        determiners=DETERMINERS,
        common_word=is_common_word,
    )


def _w(words: NameWords | None) -> NameWords:
    return words if words is not None else english_name_words()


# A lawyer's or a judge's name (labels.PERSON_ROLE_LABELS) is a person's name.
PEOPLE = frozenset({"PERSON", *PERSON_ROLE_LABELS})
PERSON_LABELS = frozenset({*PEOPLE, "SPELLED_NAME"})
# Value labels: their surface forms ("19", "8:40") are values many things share,
# not identities; a bare short number is never searched for.
MIN_VALUE_DIGITS = 4
MIN_PART = 2  # "Li", "Wu", "Ng"
MIN_SPELLED = 3  # "A-L" would match every "al"
# The longest form searched for, in letters. Each form is one pattern whose size
# grows with the form, tried at every word that starts like it: a "name" as long
# as the text ("A-A-A-…" spelled over forty thousand characters) compiled a
# pattern that long and read it again from every letter, quadratic in the text.
# A name, even an institution's, is far shorter (the CDCR's Board of Parole
# Hearings spelled out in full is under 80 letters); a longer span is still
# masked where it was found, it is only not searched for elsewhere.
MAX_FORM_LETTERS = 120
# Forms are indexed by the first letters of their first word (see NameIdentity).
PREFIX = 4

_TOKEN = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)*(?:-[^\W\d_]+(?:['’][^\W\d_]+)*)*|\d+")
_LETTER_BREAK = r"(?:-[ \t]*\r?\n[ \t]*)?"
# Between the words of a multi-word form: white space (line breaks included), a
# hyphen, underscore or dot (file-name styles), or nothing at all (joined).
_WORD_GAP = r"(?:\s+|\s*[-_.‐–]\s*|)"
_ABBREVIATED_FORMS = frozenset({"inc", "ltd", "corp", "co"})
# Before a company's legal form, a comma too ("KESTREL COURT REPORTING, INC.").
_FORM_GAP = r"(?:,?\s+|\s*[-_.‐–]\s*|)"
# Between spelled letters: a hyphen or dot (and the line break after one), or spaces.
_LETTER_GAP = r"(?:[ \t]*[-.][ \t]*(?:\r?\n[ \t]*)?|[ \t]+)"
_BEFORE = r"(?<![^\W_])"
_AFTER = r"(?![^\W_])"
_POSSESSIVE = re.compile(r"['’]s?$")
_HYPHEN_BREAK = re.compile(r"-[ \t]*\r?\n")


@dataclass(frozen=True, slots=True)
class Occurrence:
    start: int
    end: int
    label: str
    # name_key of the accepted form this occurrence is (for reports and grouping).
    key: str
    kind: str  # "full", "part", "spelled"


@dataclass(frozen=True, slots=True)
class _Entry:
    label: str
    key: str
    words: tuple[str, ...]
    kind: str

    @property
    def size(self) -> int:
        return sum(len(w) for w in self.words)


def _letters(word: str, broken: bool) -> str:
    """A word's letters; with `broken`, each may be followed by a hyphenated
    line-end break ("Kowal-\nczyk")."""
    pieces = []
    for char in word:
        pieces.append("['’]" if char in "'’" else "-" if char == "-" else re.escape(char))
    body = ""
    for i, piece in enumerate(pieces):
        body += piece
        if broken and i < len(pieces) - 1 and word[i].isalnum() and word[i + 1].isalnum():
            body += _LETTER_BREAK
    return body


def _body(entry: _Entry, broken: bool = False) -> str:
    if entry.kind == "spelled":
        return _LETTER_GAP.join(re.escape(c) for c in entry.words[0])
    body = _letters(entry.words[0], broken)
    for word in entry.words[1:]:
        body += (_FORM_GAP if word.casefold() in LEGAL_FORMS else _WORD_GAP) + _letters(word, broken)
    # An abbreviated legal form keeps its dot ("INC."), as the name was read.
    return body + r"\.?" if len(entry.words) > 1 and entry.words[-1].casefold() in _ABBREVIATED_FORMS else body


@lru_cache(maxsize=8192)
def _compiled(body: str) -> re.Pattern[str]:
    return re.compile(_BEFORE + "(?:" + body + ")" + _AFTER, re.IGNORECASE)


def tokens(text: str) -> list[str]:
    """The words of a span text, lower case, without a trailing possessive."""
    words = [w.casefold() for w in _TOKEN.findall(text)]
    if words:
        words[-1] = _POSSESSIVE.sub("", words[-1]) or words[-1]
    return words


def _is_title(word: str, words: NameWords | None = None) -> bool:
    """A role ("commissioner") or an honorific that is no one's name ("general";
    but "king" and "major" are surnames too): the same test as detection's trim."""
    lexicon = _w(words)
    return word in lexicon.role_words or (word in lexicon.honorifics and not is_known_name(word))


def person_words(text: str, words: NameWords | None = None) -> list[str]:
    """A PERSON span's name words: leading titles ("Commissioner", "Dr.") dropped."""
    found = tokens(text)
    while len(found) > 1 and _is_title(found[0], words):
        found.pop(0)
    return found


def _is_part(word: str, words: NameWords | None = None) -> bool:
    lexicon = _w(words)
    return (
        len(word) >= MIN_PART
        and not word.isdigit()
        and word not in lexicon.stop_words
        and word not in lexicon.particles
        and word not in lexicon.suffixes
    )


def name_parts(text: str, label: str = "PERSON", words: NameWords | None = None) -> list[str]:
    """The parts of a name that are the name on their own: "Smith" of "John Smith"."""
    if label == "SPELLED_NAME":
        return [w for w in spelled_words(text) if len(w) >= MIN_SPELLED]
    if label not in PEOPLE:
        return []
    parts: list[str] = []
    found = person_words(text, words)
    if len(found) == 1 and _is_title(found[0], words):
        return []  # "Commissioner" alone
    # After the leading titles every word is a name, also one that is a role word
    # elsewhere ("Margaret Court", "Mike Judge").
    for word in found:
        if word.casefold() in ABBREVIATED_GIVEN_NAMES and re.search(rf"(?i)\b{re.escape(word)}\.", text):
            continue  # "Ma." of "Ma. Teresita Magsino": the name's opening, no name alone
        if _is_part(word, words):
            parts.append(word)
            parts += [p for p in word.split("-") if "-" in word and _is_part(p, words)]
    return list(dict.fromkeys(parts))


def spelled_words(text: str) -> list[str]:
    """ "J-O-H-N D-O-E" → john, doe: a spelled name's words (a break with no hyphen
    next to it separates words; "R-U-\\nF-F" is one)."""
    groups = re.split(r"(?<![-\s])\s+(?![-\s])", text.strip())
    # The radio alphabet's words spell by their first letters ("King-Ocean-Robert" is kor).
    groups = [
        "".join(w[0] for w in g.split("-")) if "-" in g and all(w in PHONETIC_ALPHABET for w in g.split("-")) else g
        for g in groups
    ]
    words = ["".join(re.findall(r"[^\W\d_]", g)).lower() for g in groups if re.search(r"[^\W\d_]", g)]
    if len(words) >= 3 and all(len(w) == 1 for w in words):
        return ["".join(words)]  # "K o w a l c z y k": spaced letters spell one word
    return words


def _form_words(text: str, label: str, lexicon: NameWords | None = None) -> list[str]:
    if label == "SPELLED_NAME":
        return [w for w in spelled_words(text) if w]
    if label in PEOPLE:
        return [w for w in person_words(text, lexicon) if w]
    return tokens(text)


def form_key(text: str, label: str, words: NameWords | None = None) -> str:
    """The key of an accepted form's name: what `Occurrence.key` reports for it."""
    return " ".join(_form_words(text, label, words))


def _entries(text: str, label: str, lexicon: NameWords | None = None) -> list[_Entry]:
    return [e for e in _all_entries(text, label, lexicon) if e.size <= MAX_FORM_LETTERS]


def _all_entries(text: str, label: str, lexicon: NameWords | None = None) -> list[_Entry]:
    if label in PERSON_LABELS:
        words = _form_words(text, label, lexicon)
        if not words:
            return []
        key = " ".join(words)
        entries: list[_Entry] = []
        named = [w for w in words if w not in _w(lexicon).suffixes]
        combos = {tuple(words)}
        if len(named) >= 2:
            combos.add((named[0], named[-1]))
            combos.update(zip(named, named[1:], strict=False))
        for combo in combos:
            if len(combo) >= 2:
                entries.append(_Entry("PERSON", key, combo, "full"))
        parts = name_parts(text, label, lexicon)
        if len(words) == 1 and not parts and not _is_title(words[0], lexicon) and len(words[0]) >= MIN_PART:
            parts = words  # a one-word name is itself, even a stop word ("Will", "Her")
        for part in parts:
            entries.append(_Entry("PERSON", key, (part,), "part"))
            if len(part.replace("-", "")) >= MIN_SPELLED and part.isalpha():
                entries.append(_Entry("SPELLED_NAME", key, (part,), "spelled"))
        return entries
    words = _form_words(text, label)
    alnum = "".join(words)
    if len(alnum) < MIN_PART + 1 or (alnum.isdigit() and len(alnum) < MIN_VALUE_DIGITS):
        return []
    return [_Entry(label, " ".join(words), tuple(words), "full" if len(words) > 1 else "part")]


_WORD_BEFORE = re.compile(r"([^\W\d_]+)\.?[ \t]+$")
_WORD_AFTER = re.compile(r"[ \t]+([^\W\d_]+)")


def _neighbour_words(text: str, start: int, end: int) -> tuple[str, str]:
    """The word right before the occurrence (a title's period allowed: "Mr.") and
    the word right after it, apart from it by spaces only: a first name beside a
    surname, not a word across a full stop."""
    before = _WORD_BEFORE.search(text, max(0, start - 40), start)
    after = _WORD_AFTER.match(text, end)
    return (before.group(1) if before else ""), (after.group(1) if after else "")


def _speaker_label(text: str, start: int, end: int) -> bool:
    """ "young:" or "inmate young:" opening a line."""
    line_start = text.rfind("\n", 0, start) + 1
    rest = text[end : end + 3]
    return bool(re.match(r"[ \t]*:", rest)) and bool(
        re.fullmatch(r"[ \t]*(?:[^\W\d_.]+\.?[ \t]+)*", text[line_start:start])
    )


def after_determiner(text: str, start: int, end: int, words: NameWords | None = None) -> bool:
    """ "the mike", "a rose": the word before is an article or a possessive pronoun."""
    before, _ = _neighbour_words(text, start, end)
    return before.casefold() in _w(words).determiners and text[start - 1 : start] in " \t"


def name_context(text: str, start: int, end: int, parts: Iterable[str] = (), words: NameWords | None = None) -> bool:
    """Something around `text[start:end]` says it is a person's name: a title
    before it, a speaker label, or another name part beside it."""
    lexicon = _w(words)
    before, after = _neighbour_words(text, start, end)
    if before.casefold() in lexicon.honorifics or before.casefold() in lexicon.role_words:
        return True
    if _speaker_label(text, start, end):
        return True
    known = set(parts)
    common = lexicon.common_word
    for word in (before, after):
        folded = word.casefold()
        # Without a common-word list, a known name beside it says nothing.
        if folded and (folded in known or (common is not None and is_known_name(word) and not common(word))):
            return True
    return False


def _all_common(words: Iterable[str], lexicon: NameWords | None = None) -> bool:
    # Without a common-word list every word may be a common one.
    common = _w(lexicon).common_word or (lambda _word: True)
    return all(common(w) for w in re.findall(r"[^\W\d_]+", " ".join(words)))


def is_name_occurrence(
    occurrence: str,
    words: tuple[str, ...],
    kind: str,
    label: str,
    context: Callable[[], bool],
    determiner: Callable[[], bool] = lambda: False,
    lexicon: NameWords | None = None,
) -> bool:
    """The case policy (see the module's docstring). `context()` tells whether a
    name context surrounds the occurrence, `determiner()` whether an article or a
    possessive pronoun stands right before it; each is only asked when needed."""
    if kind == "spelled" or not any(c.isalpha() for c in occurrence):
        return True
    if any(c.isupper() for c in occurrence):
        return True
    if len(words) > 1:
        joined = not re.search(r"[\s\-_.‐–]", occurrence)
        # A person's word beside another of the same name is the name ("tom young").
        return joined or label in PERSON_LABELS or not _all_common(words, lexicon)
    if determiner():
        return False  # "the mike", "a rose": a common noun, whatever the word
    if not _all_common(words, lexicon):
        return True
    return label in PERSON_LABELS and context()


def name_key(
    text: str, label: str = "PERSON", context: tuple[str, int, int] | None = None, words: NameWords | None = None
) -> str:
    """Two span texts are the same name when their keys are equal: case, white
    space, line-end hyphenation and a possessive aside ("Smith", "SMITH",
    "Smith's", "Smi-\nth"). A lower-case common word without a name context
    ("young" the adjective) is keyed apart from the name ("Young"), so accepting
    one never decides the other. `context` is (document text, start, end) when
    the caller has it."""
    lexicon = words
    found = tokens(re.sub(r"(?<=[^\W\d_])-[ \t]*\r?\n[ \t]*(?=[^\W\d_])", "", text))
    key = " ".join(found)
    if not key:
        return " ".join(text.split()).casefold()

    def has_context() -> bool:
        return context is not None and name_context(*context, words=lexicon)

    def has_determiner() -> bool:
        return context is not None and after_determiner(*context, words=lexicon)

    kind = "full" if len(found) > 1 else "part"
    if not is_name_occurrence(text, tuple(found), kind, label, has_context, has_determiner, lexicon):
        return "~" + key  # the word, not the name
    return key


class NameIdentity:
    """The accepted forms of some names, and where a text holds one of them."""

    def __init__(self, forms: Iterable[tuple[str, str]], words: NameWords | None = None) -> None:
        # The language's words (English by default), for parts, titles and the case policy.
        self.words = words
        seen: dict[tuple[str, tuple[str, ...], str], _Entry] = {}
        parts: set[str] = set()
        for text, label in forms:
            for entry in _entries(text, label, words):
                seen.setdefault((entry.label, entry.words, entry.kind), entry)
            parts.update(name_parts(text, label, words))
        # Longest first, then persons first: the whole name claims an occurrence
        # before its parts, and a word that is both a name and a place is a name.
        self.entries = sorted(seen.values(), key=lambda e: (-e.size, -len(e.words), e.label not in PERSON_LABELS))
        self.parts = frozenset(parts)
        # Where to try which forms: a scan finds every word start whose letter
        # begins some form; the next character then narrows the forms to try (a
        # long transcript has tens of thousands of word starts and a document
        # hundreds of forms: one alternation of them all was far too slow).
        self._order = {id(e): n for n, e in enumerate(self.entries)}
        self._patterns: dict[tuple[int, bool], re.Pattern[str]] = {}
        # The longest form's letters, plus room for separators.
        self._longest = max((e.size + 4 * len(e.words) for e in self.entries), default=0) + PREFIX
        self._by_initial: dict[str, list[_Entry]] = {}
        self._by_prefix: dict[str, list[_Entry]] = {}
        self._short: dict[str, list[_Entry]] = {}
        for entry in self.entries:
            first = entry.words[0]
            initial = first[:1].casefold()
            self._by_initial.setdefault(initial, []).append(entry)
            prefix = first[:PREFIX].casefold()
            if entry.kind != "spelled" and len(prefix) >= 2 and prefix.isalnum():
                self._by_prefix.setdefault(prefix, []).append(entry)
            elif entry.kind != "spelled":
                self._short.setdefault(initial, []).append(entry)
        initials = "".join(sorted({re.escape(c) for i in self._by_initial for c in (i, i.upper())}))
        self._scan = re.compile(_BEFORE + "[" + initials + "]") if initials else None

    @classmethod
    def from_spans(cls, spans: Iterable[Candidate], words: NameWords | None = None) -> "NameIdentity":
        return cls(((s.text, s.label) for s in spans), words)

    def __bool__(self) -> bool:
        return bool(self.entries)

    def _pattern(self, entry: _Entry, broken: bool) -> re.Pattern[str]:
        key = (id(entry), broken)
        pattern = self._patterns.get(key)
        if pattern is None:
            pattern = self._patterns[key] = _compiled(_body(entry, broken))
        return pattern

    def _candidates(self, text: str, start: int) -> list[_Entry]:
        initial = text[start].casefold()
        following = text[start + 1 : start + 2].casefold()
        if following.isalnum():
            ahead = text[start : start + PREFIX].casefold()
            found = list(self._short.get(initial, ()))
            for size in range(2, PREFIX + 1):
                if len(ahead) >= size and ahead[:size].isalnum():
                    found += self._by_prefix.get(ahead[:size], ())
            if len(found) > 1:
                found.sort(key=lambda e: self._order[id(e)])
            return found
        # A separator next: a spelling ("K-O-W…", "S m i t h"), a break ("K-\nowal…").
        return self._by_initial.get(initial, [])

    def _matches_at(self, text: str, start: int, breaks: list[int] | None = None) -> Iterator[tuple[int, _Entry]]:
        # Patterns that allow a line-end break inside every word are slow to compile:
        # they are tried only where such a break follows within a name's length.
        i = bisect_left(breaks, start) if breaks is not None else 0
        nearby = 0 if breaks is None else (1 if i < len(breaks) and breaks[i] < start + self._longest else -1)
        for entry in self._candidates(text, start):
            match = self._pattern(entry, False).match(text, start)
            if match is None and nearby >= 0 and entry.kind != "spelled":
                match = self._pattern(entry, True).match(text, start)
            if match is None:
                continue
            end = match.end()
            if is_name_occurrence(
                text[start:end],
                entry.words,
                entry.kind,
                entry.label,
                lambda end=end: name_context(text, start, end, self.parts, self.words),
                lambda end=end: after_determiner(text, start, end, self.words),
                self.words,
            ):
                yield end, entry

    def find(
        self,
        text: str,
        blocked: Callable[[int, int], bool] | None = None,
        skip_to: Callable[[int], int | None] | None = None,
    ) -> list[Occurrence]:
        """Non-overlapping occurrences, left to right, the longest form at each
        position that is not `blocked`. `skip_to(position)` may name where the
        scan goes on (past a span that holds the position)."""
        if self._scan is None:
            return []
        found: list[Occurrence] = []
        position = 0
        breaks = [m.start() for m in _HYPHEN_BREAK.finditer(text)]
        while match := self._scan.search(text, position):
            start = match.start()
            if skip_to is not None and (after := skip_to(start)) is not None and after > start:
                position = after
                continue
            hit = next(
                (
                    (end, e)
                    for end, e in self._matches_at(text, start, breaks)
                    if blocked is None or not blocked(start, end)
                ),
                None,
            )
            if hit is None:
                position = start + 1
                continue
            end, entry = hit
            found.append(Occurrence(start, end, entry.label, entry.key, entry.kind))
            position = end
        return found

    def is_name(self, text: str, start: int, end: int) -> bool:
        """Is text[start:end] exactly one of the names?"""
        return any(e == end for e, _ in self._matches_at(text, start)) if self._scan is not None else False
