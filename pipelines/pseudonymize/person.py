"""PERSON and SPELLED_NAME placeholders (seed 000's rule, made consistent).

Each name part gets `[PERSON_n]` in order of first appearance: "John Doe" →
`[PERSON_1] [PERSON_2]`, a later "Doe" or "DOE" → `[PERSON_2]`. Titles inside a
span are kept as context, a possessive stays outside the placeholder, a cut-off
part ("Hern-") reuses the part it starts and an initial ("J.") the one name part
it can stand for. With `entity` numbering a whole name is one `[PERSON_n]`, and
variants a reviewer linked ("Mr. Smith", "Johnny") share it.
"""

import re

from pipelines.lexicons import NAME_SUFFIXES, ROLE_WORDS
from pipelines.names import spelled_words
from pipelines.pseudonymize.counters import NumberedMap

PREFIX = "PERSON"
ENTITY_PREFIX = "PERSON_ENTITY"
_TOKEN = re.compile(r"\S+")
# "Jones'" keeps "Jones" whole: the possessive tail is "'s" or a lone apostrophe.
_SPLIT = re.compile(r"^(?P<lead>[\"'(\[]*)(?P<core>.*?)(?P<trail>(?:['’]s|['’])?[\"'),.;:!?\]]*)$")


def name_key(part: str) -> str:
    return part.lower().strip(".-'’")


def _is_initial(core: str) -> bool:
    return bool(re.fullmatch(r"[A-Za-z]\.?", core))


def _known_split(key: str, numbers: NumberedMap) -> list[str] | None:
    """ "walterkowalczyk" → walter, kowalczyk; "walter-kowalczyk" → the same: a
    joined or hyphenated first + last name whose parts are both known."""
    for separator in ("-", "_", "."):
        if separator in key:
            parts = [p for p in key.split(separator) if p]
            if len(parts) > 1 and all(numbers.get(PREFIX, p) is not None for p in parts):
                return parts
    for cut in range(2, len(key) - 1):
        if numbers.get(PREFIX, key[:cut]) is not None and numbers.get(PREFIX, key[cut:]) is not None:
            return [key[:cut], key[cut:]]
    return None


def _part_placeholder(core: str, numbers: NumberedMap) -> str:
    key = name_key(core)
    known = numbers.keys(PREFIX)
    if numbers.get(PREFIX, key) is None and (parts := _known_split(key, numbers)):
        separator = next((c for c in "-_." if c in core), "")
        return separator.join(f"[{PREFIX}_{numbers.number(PREFIX, p)}]" for p in parts)
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


Token = tuple[re.Match[str], str, str, str]  # match, lead, core, trail


def _name_and_suffix_tokens(text: str) -> tuple[list[Token], list[Token]]:
    tokens = [(m, *_split_token(m.group())) for m in _TOKEN.finditer(text)]
    tokens = [t for t in tokens if re.search(r"\w", t[2])]
    while len(tokens) > 1 and tokens[0][2].lower().rstrip(".") in ROLE_WORDS:
        tokens.pop(0)
    # A generational suffix ("Jr.", "III") names no one: it stays as written, and
    # never gets a number that two unrelated "Jr."s would share.
    suffixes: list[Token] = []
    while len(tokens) > 1 and tokens[-1][2].lower().rstrip(".") in NAME_SUFFIXES:
        suffixes.insert(0, tokens.pop())
    return tokens, suffixes


def name_tokens(text: str) -> list[Token]:
    """The tokens of a PERSON span that are names. Titles and roles are context
    only while they lead ("Presiding Commissioner Court"): after the first name,
    every word is a name, so a surname that is also a role word ("Margaret Court",
    "Mike Judge") is replaced like any other. A trailing generational suffix is
    not a name (`_name_and_suffix_tokens`)."""
    return _name_and_suffix_tokens(text)[0]


_LINE_END_BREAK = re.compile(r"(?<=\w)-[ \t]*\r?\n[ \t]*(?=\w)")


def person_replacement(text: str, numbers: NumberedMap, mode: str = "part", entity: str = "") -> str:
    joined = _LINE_END_BREAK.sub("", text)
    if joined != text and len(joined.split()) == 1 and numbers.get(PREFIX, name_key(joined)) is not None:
        # "Kowal-\nczyk": one known name broken across a line end.
        return f"[{PREFIX}_{numbers.number(PREFIX, name_key(joined))}]"
    named, suffixes = _name_and_suffix_tokens(text)
    if not named:
        return text
    if mode == "entity":
        names = [name_key(core) for _m, _lead, core, _trail in named]
        for name in names:  # parts still get numbers, so spelled names and initials resolve
            numbers.number(PREFIX, name)
        # The suffix is not numbered, but it tells father from son: "George Tillman
        # Sr." and "George Tillman Jr." are two people.
        told_apart = names + [name_key(core) for _m, _lead, core, _trail in suffixes]
        key = f"linked:{entity}" if entity else " ".join(told_apart)
        if not entity and numbers.get(ENTITY_PREFIX, key) is None:
            # "Doe" after "John Doe" is the same person when only one known name fits.
            fits = [k for k in numbers.keys(ENTITY_PREFIX) if set(told_apart) <= set(k.split())]
            if len(fits) == 1:
                key = fits[0]
        number = numbers.number(ENTITY_PREFIX, key)
        first, last = named[0], named[-1]
        # Titles before the name and punctuation after it stay as context.
        return f"{text[: first[0].start()]}{first[1]}[{PREFIX}_{number}]{last[3]}{text[last[0].end() :]}"

    pieces, cursor = [], 0
    for match, lead, core, trail in named:
        pieces += [text[cursor : match.start()], lead, _part_placeholder(core, numbers), trail]
        cursor = match.end()
    return "".join(pieces) + text[cursor:]


def spelled_name_replacement(text: str, numbers: NumberedMap) -> str:
    """`[SPELLED_NAME_PERSON_n]` for each spelled word that is a known name part."""
    out = []
    for word in spelled_words(text):
        number = numbers.get(PREFIX, word)
        out.append(f"[SPELLED_NAME_PERSON_{number}]" if number else "[SPELLED_NAME]")
    return " ".join(out) or "[SPELLED_NAME]"
