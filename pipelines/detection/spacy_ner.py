"""spaCy NER as a recognizer: its entities mapped onto canonical labels, with the
small model's typical PERSON / ORGANIZATION / LOCATION confusions corrected by
lexicons (given names, known places, the words that name places and institutions).
"""

import re

from spacy.lang.en.stop_words import STOP_WORDS
from spacy.tokens import Doc

from pipelines.detection import places
from pipelines.detection.candidate import Candidate
from pipelines.detection.cues import HONORIFICS, ROLE_WORDS
from pipelines.detection.gazetteer import first_names, last_names, wide_first_names, wide_last_names

SOURCE = "spacy"
# en_core_web_sm exposes no per-entity probability; a fixed score keeps the model
# below the precise pattern recognizers when the ensemble weighs conflicts.
SCORE = 0.6

SPACY_TO_LABEL: dict[str, str] = {
    "PERSON": "PERSON",
    "GPE": "LOCATION",
    "LOC": "LOCATION",
    "FAC": "LOCATION",
    "ORG": "ORGANIZATION",
    "NORP": "NRP",
    "DATE": "DATE",
    "TIME": "TIME",
}
# Lower-case words inside a person's name ("Pánfilo de Narváez", "Ludwig van Beethoven").
# The lexicons judge the name, not a possessive the model ran into ("de Gaulle 's").
_POSSESSIVE = re.compile(r"\s*['’]s?$")
NAME_PARTICLES = frozenset("de del della der di da dos das du la le van von bin ibn al el y zu ter ten".split())


_INITIAL = re.compile(r"^(?:[A-Z]\.[ \t]*)+[A-Z]")


def _name_shaped(words: list[str]) -> bool:
    return all(w[0].isupper() or w in NAME_PARTICLES for w in words) and words[-1][0].isupper()


def corrected_label(text: str, label: str) -> str:
    """The label the lexicons give an entity the model labelled `label`.

    - ORGANIZATION / LOCATION / NRP → PERSON, unless the text is a known place,
      is shaped like one ("Cape …", "… Strait") or holds an institution word or
      abbreviation: two to four name-shaped words starting with a known given name
      or with initials ("Julius Caesar", "J. C. Chandor"); or, when the model
      thought of a place or an institution, one word that is a known surname
      ("Gibbs", "Velázquez").
    - PERSON → ORGANIZATION / LOCATION, unless it starts with a known given name
      or is one word that is a surname ("Hamilton"): an institution word or
      abbreviation ("Getafe CF"), a known place ("Lancashire"), or a place shape
      whose last word is not a surname ("Davis Strait", but not "Benny Hill").
    """
    words = places.words_of(text)
    if not words:
        return label
    firsts = first_names()
    surnames = last_names()
    ends_in_place = places.is_place_shaped(text)
    if label in ("ORGANIZATION", "LOCATION", "NRP"):
        if places.has_organization_word(text) or places.is_known_place(text) or ends_in_place:
            return label
        # A plural last word that is no surname names a team or a group
        # ("Houston Astros", "West Indies"), not a person.
        if len(words) > 1 and words[-1].endswith("s") and words[-1] not in surnames:
            return label
        if (
            2 <= len(words) <= 4
            and _name_shaped(words)
            and (
                words[0] in wide_first_names()
                or _INITIAL.match(text)
                or (len(words) == 2 and words[1] in wide_last_names() and words[0].lower() not in STOP_WORDS)
            )
        ):
            return "PERSON"
        # One word: only when the model thought of a place or an institution, not
        # of a nationality or religion ("German", "Christian" are given names too).
        if (
            label != "NRP"
            and len(words) == 1
            and words[0] == text.strip()
            and not words[0].isupper()
            and words[0] in wide_last_names()
            and words[0].lower() not in HONORIFICS
            and words[0].lower() not in ROLE_WORDS
        ):
            return "PERSON"
        return label
    # A known place that is also a surname ("Hamilton") or a place word that is
    # one ("Benny Hill") stays the model's PERSON.
    if label == "PERSON" and words[0] not in firsts and not (len(words) == 1 and text.strip() in surnames):
        if places.has_organization_word(text):
            return "ORGANIZATION"
        if (ends_in_place and words[-1] not in surnames) or places.is_known_place(text):
            return "LOCATION"
    return label


def recognize(doc: Doc) -> list[Candidate]:
    found = []
    for ent in doc.ents:
        label = SPACY_TO_LABEL.get(ent.label_)
        if label is None:
            continue
        rule = f"spacy:{ent.label_}"
        corrected = corrected_label(_POSSESSIVE.sub("", ent.text), label)
        if corrected != label:
            rule += f"→{corrected}"
        found.append(Candidate(ent.start_char, ent.end_char, corrected, ent.text, (SOURCE,), SCORE, rule))
    return found
