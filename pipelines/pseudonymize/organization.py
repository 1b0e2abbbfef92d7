"""ORGANIZATION and LOCATION: typed, numbered placeholders."""

import re

from pipelines.pseudonymize.counters import NumberedMap

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

US_STATES = tuple(
    name.strip()
    for name in """Alabama, Alaska, Arizona, Arkansas, California, Colorado, Connecticut, Delaware, Florida,
    Georgia, Hawaii, Idaho, Illinois, Indiana, Iowa, Kansas, Kentucky, Louisiana, Maine, Maryland, Massachusetts,
    Michigan, Minnesota, Mississippi, Missouri, Montana, Nebraska, Nevada, New Hampshire, New Jersey, New Mexico,
    New York, North Carolina, North Dakota, Ohio, Oklahoma, Oregon, Pennsylvania, Rhode Island, South Carolina,
    South Dakota, Tennessee, Texas, Utah, Vermont, Virginia, Washington, West Virginia, Wisconsin, Wyoming""".split(",")
)
_STATES = {s.lower() for s in US_STATES}
_ADDRESS = re.compile(
    r"^\d+\s+\w+.*\b(?:street|st|avenue|ave|road|rd|boulevard|blvd|drive|dr|lane|ln|way|court|ct)\b", re.IGNORECASE
)
_ZIP = re.compile(r"^\d{5}(?:-\d{4})?$")


def _normal(text: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"^the\s+", "", text.strip(), flags=re.IGNORECASE)).lower()


def organization_replacement(text: str, numbers: NumberedMap) -> str:
    key = _normal(text)
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
    key = _normal(text)
    return any(re.search(rx, key) for name, rx in ORGANIZATION_TYPES if name != "FACILITY")


def location_type(key: str) -> str:
    if key in _STATES:
        return "STATE"
    if re.search(r"\bcounty\b", key):
        return "COUNTY"
    if _ZIP.match(key):
        return "ZIP_CODE"
    if _ADDRESS.match(key):
        return "ADDRESS"
    return "LOCATION"


def location_replacement(text: str, numbers: NumberedMap) -> str:
    key = _normal(text)
    return numbers.placeholder(location_type(key), key)
