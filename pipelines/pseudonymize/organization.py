"""ORGANIZATION and LOCATION: typed, numbered placeholders."""

import re

from pipelines.lexicons import ORGANIZATION_TYPES
from pipelines.pseudonymize.counters import NumberedMap
from pipelines.pseudonymize.place_types import location_type, normal


def organization_replacement(text: str, numbers: NumberedMap) -> str:
    key = normal(text)
    prefix = next((name for name, rx in ORGANIZATION_TYPES if re.search(rx, key)), "ORGANIZATION")
    # Reuse the number of an organization already seen that contains this name
    # ("San Quentin" after "San Quentin State Prison").
    if numbers.get(prefix, key) is None:
        for p in [prefix, *[n for n, _ in ORGANIZATION_TYPES], "ORGANIZATION"]:
            for known in numbers.keys(p):
                if re.search(r"\b" + re.escape(key) + r"\b", known):
                    return f"[{p}_{numbers.number(p, known)}]"
    return numbers.placeholder(prefix, key)


def is_institution(text: str) -> bool:
    key = normal(text)
    return any(re.search(rx, key) for name, rx in ORGANIZATION_TYPES if name != "FACILITY")


_COMMA = re.compile(r"(,[ \t]*)")


def place_parts(text: str) -> list[str] | None:
    """A comma list of places ("Folsom, California") as [place, separator, place, …];
    None for one place, or a street address, which keeps its comma in one piece."""
    parts = _COMMA.split(text)
    if len(parts) > 1 and location_type(text) in ("LOCATION", "CITY", "STATE", "COUNTRY", "COUNTY"):
        return [piece for n, piece in enumerate(parts) if piece or n % 2]
    return None


def location_replacement(text: str, numbers: NumberedMap) -> str:
    """Comma-separated parts are typed apart: "Folsom, California" → `[CITY_1],
    [STATE_1]`."""
    parts = place_parts(text)
    if parts is not None:
        typed = (numbers.placeholder(location_type(p), normal(p)) if n % 2 == 0 else p for n, p in enumerate(parts))
        return "".join(typed)
    return numbers.placeholder(location_type(text), normal(text))
