"""PERSON and SPELLED_NAME placeholders (seed 000's rule, made consistent).

Each name part gets `[PERSON_n]` in order of first appearance: "John Doe" →
`[PERSON_1] [PERSON_2]`, a later "Doe" or "DOE" → `[PERSON_2]`. Titles inside a
span are kept as context, a possessive stays outside the placeholder, a cut-off
part ("Hern-") reuses the part it starts and an initial ("J.") the one name part
it can stand for. With `entity` numbering a whole name is one `[PERSON_n]`.
"""

import re

from pipelines.detection.cues import ROLE_WORDS
from pipelines.pseudonymize.counters import NumberedMap

PREFIX = "PERSON"
ENTITY_PREFIX = "PERSON_ENTITY"
_TOKEN = re.compile(r"\S+")
_SPLIT = re.compile(r"^(?P<lead>[\"'(\[]*)(?P<core>.*?)(?P<trail>(?:['’]s|s['’]|['’])?[\"'),.;:!?\]]*)$")


def name_key(part: str) -> str:
    return part.lower().strip(".-'’")


def _is_initial(core: str) -> bool:
    return bool(re.fullmatch(r"[A-Za-z]\.?", core))


def _part_placeholder(core: str, numbers: NumberedMap) -> str:
    key = name_key(core)
    known = numbers.keys(PREFIX)
    if core.endswith("-") and len(key) >= 2:
        match = next((k for k in known if k.startswith(key) and k != key), None)
        if match:
            return f"[{PREFIX}_{numbers.number(PREFIX, match)}]"
    if _is_initial(core):
        # Only an unambiguous initial maps to a name: "J." with John and James known
        # gets a number of its own rather than a guess.
        candidates = [k for k in known if len(k) > 1 and k.startswith(key)]
        if len(candidates) == 1:
            return f"[{PREFIX}_{numbers.number(PREFIX, candidates[0])}]"
    return numbers.placeholder(PREFIX, key)


def _split_token(token: str) -> tuple[str, str, str]:
    parts = _SPLIT.match(token)
    assert parts is not None  # the pattern matches any string
    lead, core, trail = parts.group("lead"), parts.group("core"), parts.group("trail")
    if _is_initial(core + trail[:1]) and trail.startswith("."):
        core, trail = core + ".", trail[1:]
    return lead, core, trail


def _is_name(core: str) -> bool:
    return bool(core) and re.search(r"\w", core) is not None and core.lower().rstrip(".") not in ROLE_WORDS


def person_replacement(text: str, numbers: NumberedMap, mode: str = "part") -> str:
    if mode == "entity":
        tokens = [(m, *_split_token(m.group())) for m in _TOKEN.finditer(text)]
        named = [t for t in tokens if _is_name(t[2])]
        if not named:
            return text
        names = [name_key(core) for _m, _lead, core, _trail in named]
        for name in names:  # parts still get numbers, so spelled names and initials resolve
            numbers.number(PREFIX, name)
        key = " ".join(names)
        if numbers.get(ENTITY_PREFIX, key) is None:
            # "Doe" after "John Doe" is the same person when only one known name fits.
            fits = [k for k in numbers.keys(ENTITY_PREFIX) if set(names) <= set(k.split())]
            if len(fits) == 1:
                key = fits[0]
        number = numbers.number(ENTITY_PREFIX, key)
        first, last = named[0], named[-1]
        # Titles before the name and punctuation after it stay as context.
        return f"{text[: first[0].start()]}{first[1]}[{PREFIX}_{number}]{last[3]}{text[last[0].end() :]}"

    def replace(match: re.Match[str]) -> str:
        lead, core, trail = _split_token(match.group())
        if not _is_name(core):
            return match.group()
        return lead + _part_placeholder(core, numbers) + trail

    return _TOKEN.sub(replace, text)


def spelled_words(text: str) -> list[str]:
    """Letter groups of a spelling, one per spelled word: "J-O-H-N D-O-E" → john, doe.
    A break with no hyphen next to it separates words; a line break inside a
    hyphenated spelling ("R-U-\\nF-F") does not."""
    groups = re.split(r"(?<![-\s])\s+(?![-\s])", text.strip())
    return ["".join(re.findall(r"[A-Za-z]", g)).lower() for g in groups if re.search(r"[A-Za-z]", g)]


def spelled_name_replacement(text: str, numbers: NumberedMap) -> str:
    """`[SPELLED_NAME_PERSON_n]` for each spelled word that is a known name part."""
    out = []
    for word in spelled_words(text):
        number = numbers.get(PREFIX, word)
        out.append(f"[SPELLED_NAME_PERSON_{number}]" if number else "[SPELLED_NAME]")
    return " ".join(out) or "[SPELLED_NAME]"
