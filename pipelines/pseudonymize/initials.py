"""The initials strategy (seed 002's "replacing an entity name by its initials").

A name becomes its initials: "Jean-Pierre DUPONT" → "J.-P. D.", "Sophie Le Goff" →
"S. L. G.", "Valéry Giscard d'Estaing" → "V. G. E.". Lower-case particles ("de",
"van") are dropped, as French decisions drop them. Initials are for names (people,
lawyers, judges, organisations, places, courts, bars): a date, a number, an
address or a plate has no initials worth keeping and gets the placeholder.
"""

import re

from pipelines.names import PEOPLE

NAME_LABELS = frozenset({*PEOPLE, "ORGANIZATION", "LOCATION", "NRP", "COURT", "BAR"})
_WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)?(?:-[^\W\d_]+(?:['’][^\W\d_]+)?)*")


def _initial(part: str) -> str:
    # "d'Estaing" → "E": the letter after an elided particle.
    core = re.split(r"['’]", part)[-1] or part
    return core[0].upper() + "."


def initials(text: str) -> str | None:
    """The initials of a name, or None when it has no word to take them from."""
    words = _WORD.findall(text)
    capitalized = [w for w in words if w[0].isupper() or re.match(r"^[a-z]['’][A-ZÀ-Ý]", w)]
    words = capitalized or words
    if not words:
        return None
    return " ".join("-".join(_initial(p) for p in word.split("-")) for word in words)
