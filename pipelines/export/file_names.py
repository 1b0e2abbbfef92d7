"""The redacted file's name: `00007_document.txt`, or with the stem kept, the
original stem pseudonymized like the text (`00007_[PERSON_2]_hearing.txt`).

A kept stem takes the text's own placeholders: a word of the stem that the text
replaced gets the replacement the text has for it ("whirley" → `[PERSON_2]` when
the text's "Sheila Whirley" is `[PERSON_1] [PERSON_2]`, "cdcr" → `[ORGANIZATION_1]`
when the text's "CDCR" is), under either person numbering. Of the other words, a
word the name lists know or one of the document's names (the name identity) is
a name; a word the text itself leaves as written (an acronym such as "CDCR" no
reviewer accepted) stays as it is, as it does in the text, and so do common
English words and abbreviations (three or more letters, no vowel: "cdcr"); any
other word is taken for a name that occurs only in the file name and numbered in
the document's map. Dates are `[DATE]`, years `[YEAR]`, other
runs of 3+ digits (alone or in an ID such as "K48213") `[ID]`.
"""

import re
import unicodedata
from collections.abc import Iterable, Sequence

from pipelines.candidate import Candidate
from pipelines.gazetteers import is_common_word, is_known_name
from pipelines.names import PERSON_LABELS, NameIdentity
from pipelines.pseudonymize.counters import NumberedMap
from pipelines.pseudonymize.person import name_key, name_tokens
from pipelines.pseudonymize.placeholder import placeholder_for
from pipelines.pseudonymize.result import Replacement

# The neutral stem of a redacted file's name: nothing of the original name.
NEUTRAL_STEM = "document"
# Strategies whose replacement is a placeholder a file name can carry.
_PLACEHOLDER_STRATEGIES = frozenset({"placeholder", "label"})
# Values many things share ("19", "8:40") and spellings: a file name's word is
# never taken for one of them.
_NOT_REUSED = frozenset({"AGE", "HEIGHT", "TIME", "SPELLED_OUT_ITEM", "SPELLED_NAME"})
_PERSON_NUMBER = re.compile(r"\[PERSON_\d+\]")
_STEM_DATE = re.compile(r"(?<!\d)(?:\d{4}[-_.]\d{1,2}[-_.]\d{1,2}|\d{1,2}[-_.]\d{1,2}[-_.]\d{2,4})(?!\d)")
_YEAR = re.compile(r"(?:19|20)\d\d")
# A file name's chunks: what lies between "_", ".", spaces and placeholders.
_CHUNK = re.compile(r"\[[A-Z_0-9]+\]|[^\s_.\[\]]+")
_WORD = re.compile(r"[^\W_]+")


def redacted_file_name(doc_id: int, stem: str | None = None) -> str:
    """`00007_document.txt`, or with a pseudonymized stem `00007_[PERSON_2]_hearing.txt`."""
    return f"{doc_id:05d}_{stem or NEUTRAL_STEM}.txt"


def _letters(word: str) -> str:
    """A word's key in a file name: its letters and digits, case folded
    ("O'Neil" and "oneil", "K-48213" and "k48213" are one key)."""
    return "".join(_WORD.findall(word)).casefold()


def text_placeholders(
    replacements: Iterable[Replacement], names: dict[str, str], person_numbering: str
) -> dict[str, str]:
    """What the text wrote for each one-word form and each person's name part,
    keyed by `_letters`: the placeholders a kept stem reuses. `names` is the
    pseudonymizer's part → `[PERSON_n]` map (per-part numbering)."""
    table: dict[str, str] = {}
    entity_parts: dict[str, set[str]] = {}
    for r in replacements:
        if r.strategy not in _PLACEHOLDER_STRATEGIES or r.label in _NOT_REUSED:
            continue
        if r.label == "PERSON" and person_numbering == "entity":
            numbered = set(_PERSON_NUMBER.findall(r.replacement))
            for _match, _lead, core, _trail in name_tokens(r.original):
                entity_parts.setdefault(_letters(name_key(core)), set()).update(numbered or {"[PERSON]"})
        if len(r.original.split()) == 1 and _letters(r.original):
            table.setdefault(_letters(r.original), r.replacement)
    if person_numbering == "entity":
        # A part two people share ("Smith" of two Smiths) tells neither apart.
        table |= {key: next(iter(found)) if len(found) == 1 else "[PERSON]" for key, found in entity_parts.items()}
    else:
        table |= {_letters(key): placeholder for key, placeholder in names.items()}
    return table


def words_left_as_written(text: str, replacements: Sequence[Replacement]) -> frozenset[str]:
    """The words (case folded) of the text outside every replacement: what the
    text itself leaves as written."""
    words: set[str] = set()
    cursor = 0
    for r in sorted(replacements, key=lambda r: r.start):
        words.update(w.casefold() for w in _WORD.findall(text, cursor, max(cursor, r.start)))
        cursor = max(cursor, r.end)
    words.update(w.casefold() for w in _WORD.findall(text, cursor))
    return frozenset(words)


def _abbreviation(word: str) -> bool:
    """ "cdcr", "BPH": three or more letters and no vowel, an abbreviation rather
    than a name (the name lists, asked first, know the rare vowel-less names)."""
    letters = unicodedata.normalize("NFKD", word.casefold())
    return len(word) >= 3 and word.isalpha() and not any(c in "aeiouy" for c in letters)


def _camel_words(word: str) -> list[str]:
    """ "JohnSmith" → John, Smith; "OBrien" stays whole; "NYPDReport" → NYPD, Report."""
    parts, current = [], ""
    for i, char in enumerate(word):
        prev = word[i - 1] if i else ""
        nxt = word[i + 1] if i + 1 < len(word) else ""
        if current and char.isupper() and (prev.islower() or (prev.isupper() and nxt.islower())):
            parts.append(current)
            current = ""
        current += char
    return [*parts, current] if current else parts


class _StemWords:
    """How one stem's words are replaced (see the module's docstring)."""

    def __init__(
        self,
        placeholders: dict[str, str],
        identity: NameIdentity | None,
        numbers: NumberedMap,
        person_numbering: str,
        left: frozenset[str],
    ) -> None:
        self.placeholders, self.identity, self.numbers = placeholders, identity, numbers
        self.person_numbering, self.left = person_numbering, left

    def person(self, word: str) -> str:
        if self.person_numbering == "entity":
            return "[PERSON]"  # one number per person: a lone word names no one person
        return self.numbers.placeholder("PERSON", name_key(word))

    def document_name(self, word: str) -> str | None:
        """The placeholder of a word the name identity knows as one of the
        document's names, typed by the name's label."""
        if self.identity is None or not self.identity.is_name(word, 0, len(word)):
            return None
        found = self.identity.find(word)
        label = found[0].label if found else "PERSON"
        if label in PERSON_LABELS:
            return self.person(word)
        return placeholder_for(Candidate(0, len(word), label, word, (), 1.0), self.numbers, self.person_numbering)

    def word(self, word: str) -> str:
        if (known := self.placeholders.get(_letters(word))) is not None:
            return known
        if (named := self.document_name(word)) is not None:
            return named
        if is_known_name(word):
            return self.person(word)
        if word.casefold() in self.left or is_common_word(word) or _abbreviation(word):
            return word
        return self.person(word)

    def piece(self, text: str) -> str:
        if (known := self.placeholders.get(_letters(text))) is not None:
            return known
        if text.isdigit():
            return "[YEAR]" if _YEAR.fullmatch(text) else "[ID]" if len(text) >= 3 else text
        if sum(c.isdigit() for c in text) >= 3:
            return "[ID]"
        return "".join(self.word(w) for w in _camel_words(text))

    def chunk(self, text: str) -> str:
        if text.startswith("["):
            return text
        if (known := self.placeholders.get(_letters(text))) is not None:
            return known
        return "".join(p if p in ("-", "") else self.piece(p) for p in re.split(r"(-)", text))


def pseudonymize_file_name(
    stem: str,
    placeholders: dict[str, str],
    identity: NameIdentity | None = None,
    numbers: NumberedMap | None = None,
    person_numbering: str = "part",
    left: frozenset[str] = frozenset(),
) -> str:
    """A file name's stem, pseudonymized with the document's own map: its words
    (split on "-", "_", ".", camelCase) take the text's placeholders
    (`text_placeholders`); `left` holds the words the text leaves as written
    (`words_left_as_written`)."""
    numbers = numbers if numbers is not None else NumberedMap()
    words = _StemWords(placeholders, identity, numbers, person_numbering, left)
    stem = _STEM_DATE.sub("[DATE]", stem)
    return _CHUNK.sub(lambda m: words.chunk(m.group()), stem)
