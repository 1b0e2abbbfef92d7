"""First- and last-name gazetteers: full names the model misses.

The lists are Faker's per-locale person providers (Latin-script locales), so they
are maintained upstream and general, not tuned to any evaluation set. A candidate
is a run of capitalized words that starts with a known first name and ends with a
known last (or first) name, e.g. "Kowalczyk" alone is never proposed, "Anna
Kowalczyk" is. Single words are left to cues and propagation.
"""

import importlib
import re
from functools import lru_cache

from spacy.lang.en.stop_words import STOP_WORDS

from pipelines.detection import places
from pipelines.detection.candidate import Candidate
from pipelines.detection.cues import HONORIFICS, ROLE_WORDS
from pipelines.detection.patterns import MONTHS, WEEKDAYS

SOURCE = "gazetteer"
SCORE = 0.7
SHAPE_SCORE = 0.5

LOCALES = (
    "en_US", "en_GB", "en_IE", "en_IN", "en_NZ", "es_ES", "es_MX", "fr_FR", "de_DE", "it_IT", "pt_BR", "pt_PT",
    "nl_NL", "pl_PL", "sv_SE", "da_DK", "no_NO", "fi_FI", "cs_CZ", "hu_HU", "ro_RO", "hr_HR", "tr_TR", "id_ID",
)  # fmt: skip
# Every Latin-script locale Faker has: wider lists, used only to correct the label
# of an entity the model already found (where a rare given name is strong
# evidence), not to propose names on their own (where they cost precision).
WIDE_LOCALES = (
    *LOCALES, "en", "en_KE", "en_NG", "en_PK", "en_TH", "es", "es_AR", "es_CL", "es_CO", "fr_CA", "fr_CH", "de_AT",
    "de_CH", "nl_BE", "is_IS", "sk_SK", "sl_SI", "et_EE", "lt_LT", "lv_LV", "az_AZ", "uz_UZ", "vi_VN", "ga_IE", "sw",
    "ha_NG", "ig_NG", "yo_NG", "tw_GH", "zu_ZA",
)  # fmt: skip
_NAME_SHAPE = re.compile(r"^[^\W\d_][^\W\d_'’-]*(?:['’-][^\W\d_]+)*$")
_EXCLUDED = re.compile(rf"^(?:{MONTHS}|{WEEKDAYS})$", re.IGNORECASE)
# The lookbehind anchors a run at the start of a word: without it the engine
# retries from every letter of a long run of letters, quadratic on crafted input.
_RUN = re.compile(
    r"(?<![^\W\d_'’-])[A-Z][^\W\d_]*(?:['’-][^\W\d_]+)*(?:[ \t]+(?:[A-Z]\.[ \t]+)?[A-Z][^\W\d_]*(?:['’-][^\W\d_]+)*)+"
)
_WORD = re.compile(r"[A-Z][^\W\d_]*(?:['’-][^\W\d_]+)*")


def _names(attribute: str, locales: tuple[str, ...] = LOCALES) -> frozenset[str]:
    names: set[str] = set()
    for locale in locales:
        try:
            provider = importlib.import_module(f"faker.providers.person.{locale}").Provider
        except ImportError:
            continue
        # Some locales list given names only by gender.
        for name in (attribute, f"{attribute}_male", f"{attribute}_female"):
            values = getattr(provider, name, ())
            # A dict maps names to frequencies; a locale may also define a
            # property of the same name, which is no list.
            if isinstance(values, (dict, list, tuple, set, frozenset)):
                names.update(values)
    return frozenset(
        n
        for n in names
        if _NAME_SHAPE.match(n)
        and len(n) > 2
        and n.lower() not in STOP_WORDS
        and n.lower() not in ROLE_WORDS
        and not _EXCLUDED.match(n)
    )


@lru_cache(maxsize=1)
def first_names() -> frozenset[str]:
    return _names("first_names")


@lru_cache(maxsize=1)
def last_names() -> frozenset[str]:
    return _names("last_names") | first_names()


@lru_cache(maxsize=1)
def _folded_names() -> frozenset[str]:
    # The wide lists hold every locale of the narrow ones (WIDE_LOCALES starts with LOCALES).
    return frozenset(n.casefold() for n in (*wide_first_names(), *wide_last_names()))


def is_known_name(word: str) -> bool:
    """Any given name or surname in the wide lists, in any case ("WOOD", "Wood"):
    the guard that keeps the lexicon rules off real names."""
    return word.casefold() in _folded_names()


@lru_cache(maxsize=1)
def _folded_given_names() -> frozenset[str]:
    return frozenset(n.casefold() for n in wide_first_names())


def is_given_name(word: str) -> bool:
    return word.casefold() in _folded_given_names()


@lru_cache(maxsize=1)
def wide_first_names() -> frozenset[str]:
    return _names("first_names", WIDE_LOCALES)


@lru_cache(maxsize=1)
def wide_last_names() -> frozenset[str]:
    """Surnames only (no given names): "Whitfield" in "Tobiah Whitfield"."""
    return _names("last_names", WIDE_LOCALES)


def _names_a_place(word: str) -> bool:
    return word.lower() in places.PLACE_WORDS or places.has_institution_word(word)


def _unknown_surname(first: str, word: str) -> bool:
    """`word` after a known given name reads as a surname the lists lack
    ("Marisol Quintrell", "Anna Zyskowski"): not a common word, a title, a date word, or
    a word that names a place or an institution, and the pair is no known place."""
    return (
        len(word) > 2
        and not word.isupper()
        and word.lower() not in STOP_WORDS
        and word.lower() not in ROLE_WORDS
        and word.lower() not in HONORIFICS
        and not _EXCLUDED.match(word)
        and not _names_a_place(word)
        and not places.is_known_place(f"{first} {word}")
    )


def recognize(text: str) -> list[Candidate]:
    """Known given name + known surname (score 0.7); a run of exactly two words
    where a known given name precedes an unknown surname (score 0.5, lower: the
    surname is only a shape)."""
    firsts, lasts = first_names(), last_names()
    found: list[Candidate] = []
    for run in _RUN.finditer(text):
        words = [(run.start() + w.start(), run.start() + w.end(), w.group()) for w in _WORD.finditer(run.group())]
        # A capitalized sentence opener is not part of the name ("Then Marisol Quintrell").
        while words and words[0][2].lower() in STOP_WORDS:
            words.pop(0)
        if len(words) == 2 and words[0][2] in firsts and words[1][2] not in lasts:
            if _unknown_surname(words[0][2], words[1][2]):
                start_char, end_char = words[0][0], words[1][1]
                found.append(
                    Candidate(
                        start_char,
                        end_char,
                        "PERSON",
                        text[start_char:end_char],
                        (SOURCE,),
                        SHAPE_SCORE,
                        "gazetteer:first_capitalized",
                    )
                )
            continue
        i = 0
        while i < len(words) - 1:
            if words[i][2] not in firsts:
                i += 1
                continue
            ends = [j for j in range(min(len(words) - 1, i + 3), i, -1) if words[j][2] in lasts]
            # The longest name whose last word does not name a place, else the
            # longest: "Thomas Jefferson | Bridge" but "Jennifer Park".
            end = next((j for j in ends if not _names_a_place(words[j][2])), ends[0] if ends else None)
            if end is None:
                i += 1
                continue
            # The word after the name, never the surname itself (Park, Hall, Wood
            # are surnames): "Thomas Jefferson Bridge" is no person.
            if end + 1 < len(words) and _names_a_place(words[end + 1][2]):
                i = end + 2  # "Thomas Jefferson Bridge", "Mary Ellen Theatre"
                continue
            start_char, end_char = words[i][0], words[end][1]
            found.append(
                Candidate(
                    start_char, end_char, "PERSON", text[start_char:end_char], (SOURCE,), SCORE, "gazetteer:first_last"
                )
            )
            i = end + 1
    return found
