"""The languages detection knows, as data: one JSON file per language in this folder.

A language names its spaCy model (and that model's licence), the entity labels of
that model and what they become, the Faker locales its given names come from, its
month names, its title words, its pattern pack and its cue words, the word lists
the filters and the calibration read ("filter_words", see filtering/words.py), how
presidio's entity names map to ours ("presidio_labels") and its quasi-identifier
lexicons and patterns ("quasi", see quasi/flags.py): everything the engine needs to read a
text in that language. The engine looks a language up by
its code (`language("fr")`); adding a third language is adding `<code>.json` here
and installing its model, with no change to the engine.

English is `builtin_rules`: its recognizers are the hand-written English modules
(`recognizers/patterns.py`, `cues.py`, `gazetteer.py`, `spacy_ner.py`) exactly as
before languages existed. Any other language runs the data-driven recognizers of
`languages/rules.py` over its own file.

Regexes in a language file may use `{FRAGMENT}` for a fragment of the file's
`fragments` (upper-case names only, so `{0,3}` stays a quantifier); fragments may
use other fragments.
"""

import json
import re
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

DIRECTORY = Path(__file__).resolve().parent
DEFAULT_LANGUAGE = "en"
_FRAGMENT = re.compile(r"\{([A-Z][A-Z_]*)\}")
_FLAGS = {"i": re.IGNORECASE, "m": re.MULTILINE}


class LanguageError(ValueError):
    pass


@dataclass(frozen=True)
class RulePattern:
    """A pattern or a cue: `v`, when the regex has that group, is the span."""

    label: str
    regex: re.Pattern[str]
    score: float
    rule: str


@dataclass(frozen=True)
class Language:
    code: str
    name: str
    # The spaCy pipeline this language loads; "" is the site's (SPACY_MODEL).
    spacy_model: str
    model_licence: str
    # True: the English recognizers in code; False: `rules.py` over this file.
    builtin_rules: bool
    # The model's entity labels → ours (labels not listed are not proposed).
    model_labels: dict[str, str] = field(default_factory=dict)
    given_name_locales: tuple[str, ...] = ()
    months: tuple[str, ...] = ()
    # Ordinal suffixes of a day ("1er"), for the export's date placeholders.
    day_suffixes: tuple[str, ...] = ()
    # Lower-case words inside a name ("de", "du", "d'").
    particles: tuple[str, ...] = ()
    # Titles that open a name and are no part of it ("M.", "Maître").
    titles: tuple[str, ...] = ()
    # Words no entity of the model is made of alone (headings, roles, legal words),
    # case-folded: "APPELANT", "COUR", "Greffier".
    not_entities: frozenset[str] = frozenset()
    # Labels this language adds to the canonical ones (labels.py shows them).
    labels: tuple[str, ...] = ()
    # Labels of people told apart by a cue (a lawyer, a judge): see rules.roles.
    role_labels: tuple[str, ...] = ()
    patterns: tuple[RulePattern, ...] = ()
    cues: tuple[RulePattern, ...] = ()
    # Name shape (a regex) the name-list recognizer reads.
    name_regex: re.Pattern[str] | None = None
    # The word lists and regexes the filters and the calibration read in this
    # language (filtering/words.py); a rule whose list is missing does not run.
    filter_words: dict[str, Any] = field(default_factory=dict, hash=False, compare=False)
    # presidio's entity names → ours, where presidio's own name has no colour or
    # placeholder here ("IBAN_CODE" → "ID").
    presidio_labels: dict[str, str] = field(default_factory=dict, hash=False, compare=False)
    # The file's regex fragments (`{NAME}` in its regexes), raw.
    fragments: dict[str, str] = field(default_factory=dict, hash=False, compare=False)
    # Quasi-identifier lexicons and patterns (quasi/flags.py reads them), raw; empty:
    # the language raises no quasi-identifier flags (English's are in code).
    quasi: dict[str, Any] = field(default_factory=dict, hash=False, compare=False)

    @property
    def quasi_identifiers(self) -> bool:
        """Whether detection raises quasi-identifier flags in this language."""
        return self.builtin_rules or bool(self.quasi)


def _expand(pattern: str, fragments: dict[str, str], depth: int = 0) -> str:
    if depth > 10:
        raise LanguageError("fragments nest more than 10 deep (a cycle?)")
    expanded = _FRAGMENT.sub(lambda m: fragments.get(m.group(1), m.group(0)), pattern)
    return expanded if expanded == pattern else _expand(expanded, fragments, depth + 1)


def expand_fragments(pattern: str, fragments: dict[str, str]) -> str:
    """A regex with its `{NAME}`s replaced by the fragments of that name."""
    return _expand(pattern, fragments)


def _rules(entries: list[dict], fragments: dict[str, str], code: str, kind: str) -> tuple[RulePattern, ...]:
    rules = []
    for n, entry in enumerate(entries, start=1):
        flags = 0
        for letter in entry.get("flags", ""):
            flags |= _FLAGS[letter]
        try:
            regex = re.compile(_expand(entry["regex"], fragments), flags)
        except re.error as exc:
            raise LanguageError(f"{code}.json {kind} {n} ({entry.get('rule')}): {exc}") from exc
        rules.append(RulePattern(entry["label"], regex, float(entry.get("score", 0.85)), f"{code}_{entry['rule']}"))
    return tuple(rules)


# The filter words that are regexes (case-insensitive, `{FRAGMENT}`s expanded).
FILTER_REGEXES = ("calendar", "weekday_alone", "weekday_recurring", "duration", "point_in_time", "clock", "time_words")


def _filter_words(entries: dict[str, Any], fragments: dict[str, str], code: str) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in entries.items():
        if key in FILTER_REGEXES:
            try:
                out[key] = re.compile(_expand(value, fragments), re.IGNORECASE)
            except re.error as exc:
                raise LanguageError(f"{code}.json filter_words {key}: {exc}") from exc
        elif isinstance(value, list):
            out[key] = frozenset(w.casefold() for w in value)
        else:
            out[key] = value
    return out


def _from_json(code: str, data: dict) -> Language:
    fragments = data.get("fragments", {})
    name = data.get("name_regex")
    return Language(
        code=data["code"],
        name=data["name"],
        spacy_model=data.get("spacy_model", ""),
        model_licence=data.get("model_licence", ""),
        builtin_rules=bool(data.get("builtin_rules", False)),
        model_labels=dict(data.get("model_labels", {})),
        given_name_locales=tuple(data.get("given_name_locales", ())),
        months=tuple(data.get("months", ())),
        day_suffixes=tuple(data.get("day_suffixes", ())),
        titles=tuple(data.get("titles", ())),
        particles=tuple(data.get("particles", ())),
        not_entities=frozenset(w.casefold() for w in data.get("not_entities", ())),
        labels=tuple(data.get("labels", ())),
        role_labels=tuple(data.get("role_labels", ())),
        patterns=_rules(data.get("patterns", []), fragments, code, "pattern"),
        cues=_rules(data.get("cues", []), fragments, code, "cue"),
        name_regex=re.compile(_expand(name, fragments)) if name else None,
        filter_words=_filter_words(data.get("filter_words", {}), fragments, code),
        presidio_labels=dict(data.get("presidio_labels", {})),
        fragments=dict(fragments),
        quasi=dict(data.get("quasi", {})),
    )


def codes() -> tuple[str, ...]:
    """The codes of every language file here, English first."""
    found = sorted(p.stem for p in DIRECTORY.glob("*.json"))
    return tuple(sorted(found, key=lambda c: c != DEFAULT_LANGUAGE))


@cache
def language(code: str = DEFAULT_LANGUAGE) -> Language:
    path = DIRECTORY / f"{code}.json"
    if not re.fullmatch(r"[a-z]{2,3}", code or "") or not path.is_file():
        raise LanguageError(f"unknown language {code!r} (known: {', '.join(codes())})")
    data = json.loads(path.read_text(encoding="utf-8"))
    if data.get("code") != code:
        raise LanguageError(f"{path.name} says its code is {data.get('code')!r}")
    return _from_json(code, data)


def choices() -> list[tuple[str, str]]:
    """(code, name) of every language, for a form."""
    return [(code, language(code).name) for code in codes()]


def name_of(code: str) -> str:
    """A language's name for a page; the code itself when its file is gone."""
    try:
        return language(code).name
    except LanguageError:
        return code


def model_for(code: str, site_model: str) -> str:
    """The spaCy model a language detects with: its own, else the site's."""
    return language(code).spacy_model or site_model


def all_months() -> tuple[str, ...]:
    """Every language's month names (the export's date placeholders read them)."""
    return tuple(m for code in codes() for m in language(code).months)


def all_day_suffixes() -> tuple[str, ...]:
    return tuple(s for code in codes() for s in language(code).day_suffixes)
