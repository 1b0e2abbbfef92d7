"""ORGANIZATION and LOCATION: typed, numbered placeholders."""

import re

from pipelines.pseudonymize.counters import NumberedMap
from pipelines.pseudonymize.gazetteers import location_type, normal

# Order matters: the first keyword found names the type ("State Prison Hospital"
# is a PRISON).
ORGANIZATION_TYPES: tuple[tuple[str, str], ...] = (
    ("PRISON", r"prison|penitentiary|correctional|state pen"),
    ("JAIL", r"jail"),
    ("POLICE_DEPARTMENT", r"police|sheriff|\bpd\b"),
    ("HOSPITAL", r"hospital|medical center|clinic"),
    ("UNIVERSITY", r"university|college"),
    ("SCHOOL", r"school|academy"),
    ("BANK", r"bank|credit union"),
    ("FACILITY", r"facility|center|centre|camp"),
    ("CHURCH", r"church|mosque|synagogue|temple"),
    ("COURT", r"\bcourt\b"),
)


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


def location_replacement(text: str, numbers: NumberedMap) -> str:
    return numbers.placeholder(location_type(text), normal(text))
