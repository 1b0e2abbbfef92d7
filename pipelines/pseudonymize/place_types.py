"""Types for LOCATION and NRP placeholders: a state, a country, a city, a county,
an address or a ZIP code; a religion, a nationality, a language… (seed 000 used a
1.6 GB zero-shot model for this; lists from maintained packages do it offline and
fast, see pipelines.gazetteers; the curated lists are in pipelines.lexicons)."""

import re
from functools import lru_cache
from typing import Any

from pipelines.gazetteers import cities, countries, languages, us_states
from pipelines.lexicons import ETHNICITIES, NATIONALITIES, POLITICAL, RELIGIONS


def normal(text: str) -> str:
    text = re.sub(r"^the\s+", "", text.strip(), flags=re.IGNORECASE)
    return re.sub(r"\s+", " ", text).strip(" .,").lower()


@lru_cache(maxsize=1)
def _inflect() -> Any:
    # Imported here, not at module level: inflect costs about a second to import
    # (typeguard instruments it), and only an export of NRP spans needs it.
    import inflect

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
