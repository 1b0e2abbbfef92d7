"""Realistic surrogates: consistent fake values of the same shape (Faker).

Deterministic: every fake value is drawn from a Faker seeded by (secret, label,
normalized original), so the same person gets the same fake name in a document
(or a corpus) and across re-exports by the same version (a change in how a value
is drawn, such as matching a first name's sex, changes earlier surrogates once),
and nothing is random at run time. A fake
value that happens to equal a real one in the document is drawn again.
"""

import datetime as dt
import hashlib
import random
import re
from functools import lru_cache
from typing import TYPE_CHECKING

from pipelines.gazetteers import first_names
from pipelines.lexicons import ORGANIZATION_TYPES
from pipelines.pseudonymize.organization import place_parts
from pipelines.pseudonymize.person import name_key, name_tokens
from pipelines.pseudonymize.place_types import location_type, normal

if TYPE_CHECKING:  # Faker is imported by the surrogate strategy only, when it runs
    from collections.abc import Callable

    from faker import Faker


# A fake place of each kind location_type tells apart (anything else: a city).
_PLACE_MAKERS = {
    "STATE": lambda f: f.state(),
    "COUNTRY": lambda f: f.country(),
    "COUNTY": lambda f: f"{f.last_name()} County",
    "ZIP_CODE": lambda f: f.zipcode(),
    "ADDRESS": lambda f: f.street_address(),
    "CITY": lambda f: f.city(),
}


@lru_cache(maxsize=1)
def _faker() -> "Faker":
    from faker import Faker

    return Faker("en_US")


def _seed(secret: str, *parts: str) -> int:
    return int.from_bytes(hashlib.sha256("\x1f".join((secret, *parts)).encode()).digest()[:8], "big")


def _match_case(fake: str, original: str) -> str:
    if original.isupper():
        return fake.upper()
    if original.islower():
        return fake.lower()
    return fake


def same_shape(text: str, rng: random.Random) -> str:
    """Digits → digits, letters → letters of the same case, the rest kept: an ID
    "K-48213" becomes e.g. "Q-90371"."""
    out = []
    for ch in text:
        if ch.isdigit():
            out.append(str(rng.randrange(10)))
        elif ch.isalpha():
            letter = chr(ord("a") + rng.randrange(26))
            out.append(letter.upper() if ch.isupper() else letter)
        else:
            out.append(ch)
    return "".join(out)


def _last_name(fake: "Faker") -> str:
    return fake.last_name()


@lru_cache(maxsize=1)
def _first_names_by_sex() -> tuple[frozenset[str], frozenset[str]]:
    from faker.providers.person.en_US import Provider

    return frozenset(Provider.first_names_male), frozenset(Provider.first_names_female)


def _first_name_like(name: str) -> "Callable[[Faker], str]":
    """A first name of the same usual sex as the original's, when the list gives it
    one: "Mrs. Jane Doe" must not become "Mrs. Robert Vance", which reads as an
    error and hints that the name was replaced. Names of either sex (Jordan,
    Kelly) and names the list does not know draw from both."""
    male, female = _first_names_by_sex()
    if name in male and name not in female:
        return lambda fake: fake.first_name_male()
    if name in female and name not in male:
        return lambda fake: fake.first_name_female()
    return lambda fake: fake.first_name()


class Surrogates:
    def __init__(self, secret: str, avoid: set[str], date_shift_days: int | None = None) -> None:
        self.secret = secret
        # Lower-cased originals: a surrogate never reproduces real text of the document.
        self.avoid = {a.lower() for a in avoid}
        self.date_shift = dt.timedelta(
            days=date_shift_days
            if date_shift_days is not None
            else random.Random(_seed(secret, "shift")).randint(-365, 365) or 1
        )

    def _draw(self, label: str, key: str, make) -> str:
        for attempt in range(20):
            fake = _faker()
            fake.seed_instance(_seed(self.secret, label, key, str(attempt)))
            value = make(fake)
            if value.lower() not in self.avoid:
                return value
        return f"[{label}]"

    def person(self, text: str) -> str:
        """Each name part → a fake one of the same kind (a known first name gets a
        fake first name, anything else a fake surname), keyed by the part, so "John"
        alone and "John" in "John Doe" agree. Titles, punctuation and possessives stay."""
        pieces, cursor = [], 0
        for match, lead, core, trail in name_tokens(text):
            key = name_key(core)
            if len(key) <= 1:
                fake = self._draw("INITIAL", key, lambda f: f.random_uppercase_letter()) + core[1:]
            else:
                titled = core[:1].upper() + core[1:].lower()
                fake = self._draw("PERSON", key, _first_name_like(titled) if titled in first_names() else _last_name)
                fake = _match_case(fake, core)
            pieces += [text[cursor : match.start()], lead, fake, trail]
            cursor = match.end()
        return "".join(pieces) + text[cursor:]

    def date(self, text: str) -> str | None:
        """The date moved by the document's shift, in the original's format; None
        when the text is not a date we can parse and re-print faithfully."""
        numeric = re.fullmatch(r"(\d{1,2})([/.-])(\d{1,2})\2(\d{2,4})", text.strip())
        try:
            if numeric:
                month, sep, day, year = numeric.groups()
                parsed = dt.date(int(year) + (1900 if len(year) == 2 else 0), int(month), int(day))
                moved = parsed + self.date_shift
                y = f"{moved.year % 100:02d}" if len(year) == 2 else str(moved.year)
                return f"{moved.month:0{len(month)}d}{sep}{moved.day:0{len(day)}d}{sep}{y}"
            if re.fullmatch(r"(19|20)\d{2}", text.strip()):
                # Never zero years: a short shift still moves a bare year by one.
                years = round(self.date_shift.days / 365) or (1 if self.date_shift.days > 0 else -1)
                return str(int(text) + years)
            if re.search(r"\d{4}", text) and re.search(r"[A-Za-z]{3,}", text):
                from dateutil import parser as date_parser

                parsed = date_parser.parse(text, default=dt.datetime(2000, 1, 1)).date()
                moved = parsed + self.date_shift
                return f"{moved:%B} {moved.day}, {moved.year}"
        except (ValueError, OverflowError):
            return None
        return None

    def location(self, text: str) -> str:
        """A fake place of the same kind (a state for a state, a country for a country,
        a street address for one…), part by part for "Folsom, California", in the
        original's case."""
        parts = place_parts(text)
        if parts is not None:
            return "".join(piece if n % 2 else self.location(piece) for n, piece in enumerate(parts))
        kind = location_type(text)
        fake = self._draw(f"LOCATION_{kind}", normal(text), _PLACE_MAKERS.get(kind, _PLACE_MAKERS["CITY"]))
        return _match_case(fake, text)

    def organization(self, text: str) -> str:
        """A fake institution of the same type ("Folsom State Prison" → "Lake Ryan
        State Prison"), or a company name without a comma (a comma would read as a
        list or an address), in the original's case."""
        key = normal(text)
        kind = next((m.group(0) for _name, rx in ORGANIZATION_TYPES if (m := re.search(rx, key))), None)
        if kind is not None:
            tail = kind.upper() if len(kind) <= 2 else kind.title()  # "PD", "Prison", "Medical Center"
            fake = self._draw("ORGANIZATION", key, lambda f: f"{f.city()} {tail}")
        else:
            fake = self._draw("ORGANIZATION", key, lambda f: f"{f.last_name()} {f.company_suffix()}".rstrip(","))
        return _match_case(fake, text)

    def value(self, label: str, text: str) -> str:
        if label == "LOCATION":
            return self.location(text)
        if label == "ORGANIZATION":
            return self.organization(text)
        makers = {
            "EMAIL_ADDRESS": lambda f: f.email(),
            "URL": lambda f: f.url(),
        }
        if label in makers:
            return self._draw(label, text.lower(), makers[label])
        # IDs, phone numbers and the rest keep their shape.
        return self._draw(label, text, lambda f: same_shape(text, random.Random(_seed(self.secret, label, text))))
