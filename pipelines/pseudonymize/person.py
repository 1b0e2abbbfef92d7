"""PERSON and SPELLED_NAME placeholders (seed 000's rule, made consistent).

Each name part gets `[PERSON_n]` in order of first appearance: "John Doe" →
`[PERSON_1] [PERSON_2]`, a later "Doe" or "DOE" → `[PERSON_2]`. Titles inside a
span are kept as context, a possessive stays outside the placeholder, and a cut-off
part ("Hern-") reuses the part it starts.
"""

import re

from pipelines.detection.cues import ROLE_WORDS
from pipelines.pseudonymize.counters import NumberedMap

PREFIX = "PERSON"
_TOKEN = re.compile(r"\S+")
_SPLIT = re.compile(r"^(?P<lead>[\"'(\[]*)(?P<core>.*?)(?P<trail>(?:['’]s|s['’]|['’])?[\"'),.;:!?\]]*)$")


def name_key(part: str) -> str:
    return part.lower().strip(".-'’")


def _part_placeholder(core: str, numbers: NumberedMap) -> str:
    key = name_key(core)
    if core.endswith("-") and len(key) >= 2:
        for known in numbers.keys(PREFIX):
            if known.startswith(key):
                return f"[{PREFIX}_{numbers.number(PREFIX, known)}]"
    return numbers.placeholder(PREFIX, key)


def person_replacement(text: str, numbers: NumberedMap) -> str:
    def replace(match: re.Match[str]) -> str:
        token = match.group()
        parts = _SPLIT.match(token)
        assert parts is not None  # the pattern matches any string
        core = parts.group("core")
        # A lone "s" core means the token was only a possessive tail; keep titles too.
        if not core or core.lower().rstrip(".") in ROLE_WORDS or not re.search(r"\w", core):
            return token
        return parts.group("lead") + _part_placeholder(core, numbers) + parts.group("trail")

    return _TOKEN.sub(replace, text)


def spelled_name_replacement(text: str, numbers: NumberedMap) -> str:
    """`[SPELLED_NAME_PERSON_n]` for the person whose name part the letters spell."""
    letters = "".join(re.findall(r"[A-Za-z]", text)).lower()
    number = numbers.get(PREFIX, letters)
    return f"[SPELLED_NAME_PERSON_{number}]" if number else "[SPELLED_NAME]"
