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

from pipelines.detection.candidate import Candidate
from pipelines.detection.cues import ROLE_WORDS
from pipelines.detection.patterns import MONTHS, WEEKDAYS

SOURCE = "gazetteer"
SCORE = 0.7

LOCALES = (
    "en_US", "en_GB", "en_IE", "en_IN", "en_NZ", "es_ES", "es_MX", "fr_FR", "de_DE", "it_IT", "pt_BR", "pt_PT",
    "nl_NL", "pl_PL", "sv_SE", "da_DK", "no_NO", "fi_FI", "cs_CZ", "hu_HU", "ro_RO", "hr_HR", "tr_TR", "id_ID",
)  # fmt: skip
_NAME_SHAPE = re.compile(r"^[^\W\d_][^\W\d_'’-]*(?:['’-][^\W\d_]+)*$")
_EXCLUDED = re.compile(rf"^(?:{MONTHS}|{WEEKDAYS})$", re.IGNORECASE)
# The lookbehind anchors a run at the start of a word: without it the engine
# retries from every letter of a long run of letters, quadratic on crafted input.
_RUN = re.compile(
    r"(?<![^\W\d_'’-])[A-Z][^\W\d_]*(?:['’-][^\W\d_]+)*(?:[ \t]+(?:[A-Z]\.[ \t]+)?[A-Z][^\W\d_]*(?:['’-][^\W\d_]+)*)+"
)
_WORD = re.compile(r"[A-Z][^\W\d_]*(?:['’-][^\W\d_]+)*")


def _names(attribute: str) -> frozenset[str]:
    names: set[str] = set()
    for locale in LOCALES:
        try:
            provider = importlib.import_module(f"faker.providers.person.{locale}").Provider
        except ImportError:
            continue
        values = getattr(provider, attribute, ())
        names.update(values.keys() if isinstance(values, dict) else values)
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


def recognize(text: str) -> list[Candidate]:
    firsts, lasts = first_names(), last_names()
    found: list[Candidate] = []
    for run in _RUN.finditer(text):
        words = [(run.start() + w.start(), run.start() + w.end(), w.group()) for w in _WORD.finditer(run.group())]
        i = 0
        while i < len(words) - 1:
            if words[i][2] not in firsts:
                i += 1
                continue
            end = next((j for j in range(min(len(words) - 1, i + 3), i, -1) if words[j][2] in lasts), None)
            if end is None:
                i += 1
                continue
            start_char, end_char = words[i][0], words[end][1]
            found.append(
                Candidate(
                    start_char, end_char, "PERSON", text[start_char:end_char], (SOURCE,), SCORE, "gazetteer:first_last"
                )
            )
            i = end + 1
    return found
