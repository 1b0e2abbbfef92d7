"""The data-driven recognizers of a language other than English (see `__init__.py`).

Each reads only its language's file: the model's labels mapped as the file says,
its pattern pack, its cue words and its Faker given names. The English recognizers
stay the hand-written modules they were; these are what a new language gets for
the price of a JSON file.

A lawyer or a judge is a person told apart by a cue ("Maître", "président"). Their
cues propose a PERSON (so propagation and the name identity treat them as people),
and `roles` gives every span of that person's name the cue's label at the end.
"""

import re
from functools import cache
from typing import TYPE_CHECKING

from pipelines.candidate import Candidate
from pipelines.detection.languages import Language, RulePattern
from pipelines.names import NameWords, name_parts

if TYPE_CHECKING:
    from spacy.tokens import Doc

PATTERNS_SOURCE = "patterns"
CUES_SOURCE = "cues"
GAZETTEER_SOURCE = "gazetteer"
PROPAGATION_SOURCE = "propagation"
SPACY_SOURCE = "spacy"
# The stock models give no per-entity probability (as spacy_ner.SCORE).
MODEL_SCORE = 0.6
GAZETTEER_SCORE = 0.7
# A role cue's rule carries its label after this mark: "cue:fr_maitre→LAWYER".
ROLE_MARK = "→"
_WORDS = re.compile(r"\S+")


def _trim_titles(text: str, start: int, end: int, language: Language) -> tuple[int, int]:
    """Leading titles ("Maître", "M.", "Mme") are context, not the name; but a title
    before a particle is part of the name ("Madame de Maintenon")."""
    titles = {t.casefold() for t in language.titles}
    while True:
        words = text[start:end].split()
        word = words[0] if words else ""
        bare = word.rstrip(".").casefold()
        if not word or bare not in titles or len(words) < 2 or words[1][:1].islower():
            return start, end
        start += len(word)
        while start < end and text[start] in " \t":
            start += 1


def _run(text: str, rules: tuple[RulePattern, ...], source: str, language: Language) -> list[Candidate]:
    found = []
    roles = set(language.role_labels)
    for rule in rules:
        for match in rule.regex.finditer(text):
            start, end = match.span("v") if "v" in rule.regex.groupindex and match.group("v") else match.span()
            label, name = rule.label, f"{'cue' if source == CUES_SOURCE else 'pattern'}:{rule.rule}"
            if source == CUES_SOURCE and (label == "PERSON" or label in roles):
                start, end = _trim_titles(text, start, end, language)
                if label in roles:
                    label, name = "PERSON", f"{name}{ROLE_MARK}{rule.label}"
            if start < end:
                found.append(Candidate(start, end, label, text[start:end], (source,), rule.score, name))
    return found


def patterns(text: str, language: Language) -> list[Candidate]:
    return _run(text, language.patterns, PATTERNS_SOURCE, language)


def cues(text: str, language: Language) -> list[Candidate]:
    return _run(text, language.cues, CUES_SOURCE, language)


@cache
def given_names(locales: tuple[str, ...]) -> frozenset[str]:
    """Faker's given names of these locales, case-folded."""
    import importlib

    names: set[str] = set()
    for locale in locales:
        try:
            provider = importlib.import_module(f"faker.providers.person.{locale}").Provider
        except ImportError:
            continue
        for attribute in ("first_names", "first_names_male", "first_names_female"):
            values = getattr(provider, attribute, ())
            if isinstance(values, dict | list | tuple | set | frozenset):
                names.update(n.casefold() for n in values if len(n) > 2)
    return frozenset(names)


def _is_given(word: str, known: frozenset[str]) -> bool:
    """ "Jean", "JEAN", "Jean-Pierre" (every part a given name)."""
    return all(part.casefold() in known for part in word.split("-"))


def gazetteer(text: str, language: Language) -> list[Candidate]:
    """A name-shaped run of two or more words that opens (after any titles) with a
    known given name: "Jean DUPONT", "Mme Marie-Claire Le Goff"."""
    if language.name_regex is None:
        return []
    known = given_names(language.given_name_locales)
    titles = {t.casefold() for t in language.titles}
    found = []
    for match in language.name_regex.finditer(text):
        words = list(_WORDS.finditer(match.group()))
        i = 0
        while i < len(words) and words[i].group().rstrip(".").casefold() in titles:
            i += 1
        # "Caroline du Sud", "Charles de Gaulle": a given name then a particle is as
        # often a place; the model judges those.
        if len(words) - i < 2 or not _is_given(words[i].group(), known) or words[i + 1].group()[:1].islower():
            continue
        start = match.start() + words[i].start()
        found.append(
            Candidate(
                start,
                match.end(),
                "PERSON",
                text[start : match.end()],
                (GAZETTEER_SOURCE,),
                GAZETTEER_SCORE,
                "gazetteer:given_name",
            )
        )
    return found


def model_entities(doc: "Doc", language: Language) -> list[Candidate]:
    """The model's entities under this language's label map, titles trimmed."""
    found = []
    text = doc.text
    for ent in doc.ents:
        label = language.model_labels.get(ent.label_)
        if label is None:
            continue
        start, end = ent.start_char, ent.end_char
        words = [w.strip(".,;:'’()").casefold() for w in ent.text.split()]
        if all(not w or w in language.not_entities for w in words):
            continue  # a heading or a role word the model took for a name ("APPELANT", "Greffier")
        if label == "PERSON":
            start, end = _trim_titles(text, start, end, language)
        # A trailing apostrophe or punctuation the tokenizer left on is no part of it.
        while end > start and text[end - 1] in ".,;:'’":
            end -= 1
        if start < end:
            found.append(
                Candidate(start, end, label, text[start:end], (SPACY_SOURCE,), MODEL_SCORE, f"spacy:{ent.label_}")
            )
    return found


def relabel(found: list[Candidate], labels: dict[str, str]) -> list[Candidate]:
    """presidio's entity names as the language's file maps them ("IBAN_CODE" → "ID")."""
    return [
        Candidate(c.start, c.end, labels[c.label], c.text, c.sources, c.score, c.rule, c.entity)
        if c.label in labels
        else c
        for c in found
    ]


def roles(
    spans: list[Candidate], candidates: list[Candidate], language: Language, words: NameWords | None = None
) -> list[Candidate]:
    """Every PERSON span whose name parts all belong to one name a role cue named
    ("Paul MARTIN" after "Maître"; "MARTIN" alone elsewhere) takes that role's
    label (LAWYER, JUDGE_CLERK). A name cued as two roles keeps the first.
    `words`: the language's name words (its particles and titles are no parts)."""
    named: list[tuple[frozenset[str], str]] = []
    for c in sorted(candidates, key=lambda c: c.start):
        for rule in c.rule.split(","):
            if ROLE_MARK in rule:
                role = rule.rsplit(ROLE_MARK, 1)[1]
                parts = frozenset(p.casefold() for p in name_parts(c.text, "PERSON", words))
                if parts:
                    named.append((parts, role))
    if not named:
        return spans
    out = []
    for span in spans:
        if span.label == "PERSON":
            parts = frozenset(p.casefold() for p in name_parts(span.text, "PERSON", words))
            role = next((r for cued, r in named if parts and parts <= cued), None)
            if role is not None:
                span = Candidate(
                    span.start, span.end, role, span.text, span.sources, span.score, span.rule, span.entity
                )
        out.append(span)
    return out


def tidy(spans: list[Candidate], language: Language) -> list[Candidate]:
    """What propagation may have spread that no name is: a person made only of
    lower-case words or of the language's non-entity words ("de la"); and, found by
    propagation alone, a form opening with a lower-case word that is no particle
    ("don Camillo" of "Don Camillo") or of two letters ("DS" of "Mario Kart DS")."""
    people = {"PERSON", *language.role_labels}
    particles = {p.casefold() for p in language.particles}

    def name_like(span: Candidate) -> bool:
        words = [w.strip(".,;:'’()") for w in span.text.split()]
        if not any(w[:1].isupper() and w.casefold() not in language.not_entities for w in words if w):
            return False
        if set(span.sources) == {PROPAGATION_SOURCE}:
            first = words[0] if words else ""
            if first[:1].islower() and first.casefold() not in particles:
                return False
            if len(span.text.strip()) <= 2:
                return False
        return True

    return [s for s in spans if s.label not in people or name_like(s)]
