"""spaCy NER as a recognizer: its entities mapped onto canonical labels, with the
small model's typical PERSON / ORGANIZATION / LOCATION confusions corrected by
lexicons (given names, known places, the words that name places and institutions).
"""

import re
from typing import TYPE_CHECKING

from pipelines.candidate import BASE_ONLY, Candidate
from pipelines.detection import places
from pipelines.gazetteers import (
    is_common_word,
    is_given_name,
    is_known_name,
    is_written_as_name,
    stop_words,
    us_states,
    wide_last_names,
)
from pipelines.lexicons import (
    AGE_LEADS,
    DETERMINERS,
    HONORIFICS,
    INSTITUTION_HEADS,
    LEGAL_FORMS,
    NAME_PARTICLES,
    NUMBER_WORDS,
    PLACE_ACRONYMS,
    PLACE_WORDS,
    POST_NOMINALS,
    PRISON_PREFIXES,
    ROLE_WORDS,
    SPEAKER_ROLES,
    STREET_TYPES,
    TRIBE_PREFIXES,
)

if TYPE_CHECKING:  # spaCy itself is loaded by nlp.py when a text is first read
    from spacy.language import Language
    from spacy.tokens import Doc

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
# Lower-case words inside a person's name ("Rosa de la Vega", "Pieter van Dalen").
# The lexicons judge the name, not a possessive the model ran into ("de Gaulle 's").
_COLUMN_GAP = re.compile(places.COLUMN_GAP)
_COLUMN_PIECE = re.compile(r"\S+(?:[ ]{1,2}\S+)*")


# A dash between spaces inside a person's entity: a footer's fields ("SONNIER, ROLAND C.
# - DOC 397214 - 05/14/2025"), no name's hyphen ("Ferreira-Dunn").
_SPACED_DASH = re.compile(r"[ ][-–—]{1,2}[ ]")
_DASHED_PIECE = re.compile(r"(?![-–—]{1,2}(?:[ ]|$))\S+(?:[ ]{1,2}(?![-–—]{1,2}[ ])\S+)*")


def _pieces(ent, text: str, label: str) -> list[re.Match[str]] | None:
    """The pieces of a model entity that holds a column gap, or a line break that
    is no wrap of running prose (`places.soft_wrap`) nor a place's "St.⏎Louis", or,
    a person's, a dash between spaces; None where it is one entity."""
    broken = "\n" in ent.text and not (
        places.broken_only_after_prefixes(text, ent.start_char, ent.end_char)
        or places.soft_wrap(text, ent.start_char, ent.end_char)
    )
    dashed = label == "PERSON" and _SPACED_DASH.search(ent.text) is not None
    if not broken and not dashed and not _COLUMN_GAP.search(ent.text):
        return None
    return list((_DASHED_PIECE if dashed else _COLUMN_PIECE).finditer(ent.text))


_POSSESSIVE = re.compile(r"\s*['’]s?$")


_INITIAL = re.compile(r"^(?:[A-Z]\.[ \t]*)+[A-Z]")


def _name_shaped(words: list[str]) -> bool:
    return all(w[0].isupper() or w in NAME_PARTICLES for w in words) and words[-1][0].isupper()


def _institution(text: str) -> bool:
    """An institution word, or an abbreviation that is no name and no title
    ("Valley Transit RTA", but not "Inmate LEE" or "Officer KIM")."""
    return places.has_institution_word(text) or any(
        not is_known_name(a) and a.lower() not in ROLE_WORDS and a.lower() not in HONORIFICS
        for a in places.abbreviations(text)
    )


# The words that end an institution's name and no person's: no surname among them
# ("Mary Ellen Church", "John Henry Camp", "Margaret Smith Court" are people).
_NAMED_INSTITUTION_HEADS = frozenset(
    "school academy hospital university college prison penitentiary clinic institute seminary library museum".split()
)


# The last words that make a place's name an institution's ("… Bay Institution", "…
# Valley Laboratory"): the institution cue's heads and a few kinds more, no street's
# nor place's word.
_INSTITUTION_ENDS = frozenset(w.lower() for w in INSTITUTION_HEADS) | frozenset(
    # A healing lodge, a fraternal lodge ("Willow Cree Healing Lodge", "Elks Lodge").
    "institution laboratory laboratories archive archives lodge".split()
)


# Legal forms that are no one's names ("Co" is a surname, "Limited" a given name's
# company too rarely to tell).
_PLAIN_LEGAL_FORMS = LEGAL_FORMS - {"co", "lp", "limited"}


# A name's last word no person's name ends in, given name before it or not: a prison
# named by its town, its "Institution" left out ("Mansfield Correctional").
_ONLY_AN_INSTITUTION_S_END = frozenset({"correctional", "penitentiary"})


def _types_an_institution(word: str) -> bool:
    """The word itself types an institution ("School", "Hospital"), not a name that
    holds one ("Mosquera")."""
    return word.lower() in _NAMED_INSTITUTION_HEADS


def is_full_name(text: str) -> bool:
    """Two or three words written as names, led by a known given name and ending in
    a word that is no known name, with no common word, no known place and no
    institution word in them ("Trine Hattesta", "Tanja Damaske"; not "Real Madrid",
    "Jones Medical", "Hansa Rostock", nor "Merrill Lynch", a firm named after
    people with known surnames). The one promotion a fine-tuned model keeps (`promotes`
    says no to the rest): its encoder types the names of people it never saw by
    their sound, and a runner's name from abroad sounds like a town or a club as
    often as not, while a surname it cannot know says the words are no firm."""
    words = text.split()
    return (
        2 <= len(words) <= 3
        and all(is_written_as_name(w) for w in words)
        and is_given_name(words[0])
        and not is_known_name(words[-1])
        and not any(is_common_word(w) or places.is_known_place(w) for w in words)
        and not _institution(text)
        and not places.is_place_shaped(text)
    )


# A given name, a middle initial and a surname; not a place's prefix ("Fort A. Hill").
_MIDDLE_INITIAL = re.compile(
    r"(?!(?:Fort|Mount|Port|Camp|Lake|Saint)[ \t])"
    r"[A-Z][a-z]{2,}[ \t]+[A-Z]\.[ \t]+[A-Z][a-z][\w'’-]+"
)


def _a_full_name(text: str) -> bool:
    """A name the lists know whole, or one a middle initial shapes ("Lurleen B. Whitesides")."""
    return is_full_name(text) or _MIDDLE_INITIAL.fullmatch(text.strip()) is not None


def _a_middle_name_that_is_a_street_s_word(words: list[str]) -> bool:
    """A given name, a middle name that is a street's type ("Lane", "Court"), then a
    surname that is no common word, no street's type and no place ("Kody Lane
    Birdwell"): a street's name ends in its type, no word after it."""
    return (
        len(words) == 3
        and is_given_name(words[0])
        and words[1].lower() in STREET_TYPES
        and is_given_name(words[1])  # "Lane" is a given name too; "Irving Street Sheetz" is a shop
        and words[2].lower() not in STREET_TYPES
        and not is_common_word(words[2])
        and not places.is_known_place(words[2])
    )


def corrected_label(text: str, label: str) -> str:
    """The label the lexicons give an entity the model labelled `label`.

    - ORGANIZATION / LOCATION / NRP → PERSON, unless the text is a known place,
      is shaped like one ("Cape …", "… Strait"), holds an institution word, an
      abbreviation or a nationality, or ends in a plural that is no name ("Fresno
      Grizzlies"): two or three name-shaped words starting with a known given name or
      with initials ("Marisol Quintero", "R. J. Okafor"), or a word + known surname;
      or, when the model thought of a place or an institution, one word that is a
      known surname ("Whitfield").
    - PERSON → ORGANIZATION / LOCATION: an institution ("Kern Valley SP"), a known place
      ("Sacramento") or a place shape whose last word is no name ("Folsom Lake") —
      but never text in capitals (transcripts print names that way), text that
      starts with a known given name ("James Wood"), or one word that is a known
      name in any case ("Jackson", "Dallas"). Names are looked up case-folded.
    """
    words = places.words_of(text)
    if not words:
        return label
    if label == "PERSON" and len(words) > 1 and text.split()[-1] in POST_NOMINALS:
        return label  # "Ffion Yardley CBE", "Nerys Frankland MP": a person and an honour or a seat
    if len(words) > 1 and words[0].casefold() in TRIBE_PREFIXES:
        return "ORGANIZATION"  # "Ngāti Porou", "Ngāi Tahu": an iwi, a people's body
    if label == "LOCATION" and places.has_institution_type(text):
        return "ORGANIZATION"  # "Folsom State Prison": an institution, also where it is a place
    if label == "LOCATION" and len(words) > 1 and words[0] in PRISON_PREFIXES:
        return "ORGANIZATION"  # "SCI Greene", "USP Atlanta": a prison's official name
    if label == "LOCATION" and len(words) > 1 and words[-1].lower() in _INSTITUTION_ENDS:
        return "ORGANIZATION"  # "Collins Bay Institution", "Feldsher Archive": a place's name, then its kind
    if label in ("PERSON", "LOCATION") and len(words) > 1 and words[-1].lower().rstrip(".") in _PLAIN_LEGAL_FORMS:
        return "ORGANIZATION"  # "Hugo Schneider Aktiengesellschaft", "Stoltz LLC": a company's legal form
    if label in ("ORGANIZATION", "LOCATION", "NRP"):
        # A middle initial ("Lurleen B. Whitesides"), a middle name that is a street's
        # type ("Kody Lane Birdwell", a street ends in its type): a person's, no place's.
        if (_MIDDLE_INITIAL.fullmatch(text.strip()) and not _institution(text)) or (
            label == "LOCATION" and _a_middle_name_that_is_a_street_s_word(words)
        ):
            return "PERSON"
        if (
            _institution(text)
            or places.has_nationality(text)
            or places.is_known_place(text)
            or places.is_place_shaped(text)
            or (len(words) > 1 and words[-1].endswith("s") and not is_known_name(words[-1]))
        ):
            return label
        capitalized = [w for w in words if w not in NAME_PARTICLES]
        if (
            2 <= len(capitalized) <= 3
            and _name_shaped(words)
            and (
                is_given_name(words[0])
                or _INITIAL.match(text)
                or (len(words) == 2 and words[1] in wide_last_names() and words[0].lower() not in stop_words())
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
    # "Patrick Henry High School", "Thomas Jefferson University Hospital": named after
    # a person, typed by its last word.
    # "Marion Correctional", "MARION CORRECTIONAL": a prison said short.
    if label == "PERSON" and (
        (len(words) > 2 and _types_an_institution(words[-1]))
        or (len(words) > 1 and words[-1].lower() in _ONLY_AN_INSTITUTION_S_END)
    ):
        return "ORGANIZATION"
    if label != "PERSON" or text.isupper() or is_given_name(words[0]) or (len(words) == 1 and is_known_name(words[0])):
        return label
    if words[0].isupper() and words[0].lower() in SPEAKER_ROLES:
        return label  # "OSG Asante-Moore", "PO Saucier": a role's letters before a person's name
    if _institution(text):
        return "ORGANIZATION"
    if places.is_known_place(text) or (places.is_place_shaped(text) and not is_known_name(words[-1])):
        return "LOCATION"
    return label


_DOTTED_INITIALS = re.compile(r"[A-Z]\.[A-Z]\.?")
# Places written as two dotted capitals that no list holds in that form.
_DOTTED_PLACES = frozenset({"la", "sf", "dc", "ny", "nyc", "us", "uk", "eu", "sa", "ac", "kc", "lv", "pr", "nz"})


def _a_person_s_initials(text: str) -> bool:
    """Two initials with their periods ("R.M.", "J.T."), no state's, country's or
    city's ("N.Y.", "R.I.", "U.K.", "L.A.")."""
    if _DOTTED_INITIALS.fullmatch(text) is None:
        return False
    bare = text.replace(".", "").lower()
    return bare not in _DOTTED_PLACES and bare not in us_states() and bare not in PLACE_ACRONYMS


# What follows a person and not a town: a possessive, an age or a relative clause
# in apposition ("Lentini, 27, joined", ", who"), a verb of saying.
_PERSON_AFTER = re.compile(
    r"['’]s\b|,[ \t]+(?:\d{1,3},|who\b)|[ \t]+(?:said|says|told|asked|added|replied|wrote|testified)\b"
)


def _spelled_after(word: str, text: str, end: int) -> bool:
    """`word`, ending at `end`, is spelled out right after it, letter by letter
    ("Scarborough, S-C-A-R-B-O-R-O-U-G-H", "Hope. H-O-P-E")."""
    letters = [ch.upper() for ch in word if ch.isalpha()]
    if len(letters) < 3:
        return False
    spelled = r"(?:-|\.[ ]?|[ ])".join(re.escape(ch) for ch in letters)
    after = text[end : end + 4 * len(letters) + 20]
    return re.match(rf"[,.:;]?[ \t]+(?:(?i:that's|that is|spelled)[ \t]+)?{spelled}\b", after) is not None


def _a_spelled_surname(bare: str, text: str, ents: list, i: int) -> bool:
    """A model's one-word place right after a person's name, a line's break or its
    printed number between, and spelled out after it: the surname a witness spells
    ("Vondell⏎13    Scarborough, S-C-A-R-B-O-R-O-U-G-H")."""
    ent = ents[i]
    # The line's number may be an entity of its own between them (a cardinal).
    before = next((e for e in reversed(ents[:i]) if e.label_ not in ("CARDINAL", "ORDINAL")), None)
    if before is None or before.label_ != "PERSON" or len(places.words_of(bare)) != 1:
        return False
    gap = text[before.end_char : ent.start_char]
    return _NAME_GAP.fullmatch(gap) is not None and _spelled_after(bare, text, ent.start_char + len(bare))


# Between a given name and its surname: a space, or a line's break and its number.
_NAME_GAP = re.compile(places.LINE_GAP)


def _a_person_here(bare: str, text: str, ents: list, i: int) -> bool:
    """A model's one-word PERSON that the lexicons call a place (a known place, no
    known name) stays a person where the sentence says so and the place is no
    large one (a country, a region, a city of 100,000 people): after it a
    possessive, an age, "who" or a verb of saying, or beside a person in "A and B"
    ("Clinton and Dole", "Lentini, 27, joined"). A town's name is as often a
    person's; a bare one ("A. Hanford.", "paroled to Tulare") stays a place, as do
    those the sentence places ("in Bonn", "Breisach, Kehl and Freiburg")."""
    ent = ents[i]
    if _spelled_after(bare, text, ent.start_char + len(bare)):
        return True  # "Vondell Scarborough, S-C-A-R-B-O-R-O-U-G-H": a witness spells a name
    if len(places.words_of(bare)) > 1 or places.is_large_place(bare):
        return False
    if places.placed_in_sentence(text, ent.start_char, ent.end_char):
        return False
    if _PERSON_AFTER.match(text, ent.start_char + len(bare)):
        return True
    for other in (ents[i - 1] if i else None, ents[i + 1] if i + 1 < len(ents) else None):
        if other is None or other.label_ != "PERSON":
            continue
        first, second = (other, ent) if other.end_char <= ent.start_char else (ent, other)
        gap = text[first.end_char : second.start_char]
        if re.fullmatch(r"[ \t]+and[ \t]+|,[ \t]+", gap):
            return True
    return False


def _a_named_place_here(bare: str, text: str, start: int) -> bool:
    """A model's one-word PERSON that is a known place and a person's name too
    ("Selma", "Jackson") is the place where only a place stands: "a family waiting
    in Clovis and Selma", "Yolanda Cervantes, of Selma". Not with a possessive or
    a verb of saying after it ("in Selma's kitchen")."""
    words = places.words_of(bare)
    end = start + len(bare)
    return (
        len(words) == 1
        and places.is_known_place(bare)
        and places.placed_in_sentence(text, start, end, strict=True)
        and not _PERSON_AFTER.match(text, end)
    )


# "the Queen", "his Lordship": a title after a determiner names a role, not a person.


def _title_after_determiner(ent) -> bool:
    words = [w.lower_.strip(".") for w in ent if not w.is_punct]
    if not words or not all(w in HONORIFICS or w in ROLE_WORDS for w in words):
        return False
    return ent.start > 0 and ent.doc[ent.start - 1].lower_ in DETERMINERS


def _given_name_before_person(ent, following) -> bool:
    """ "Dallas" (GPE) right before "Brooks" (PERSON): one name the model cut in two."""
    return (
        following is not None
        and following.label_ == "PERSON"
        and following.start == ent.end
        and len(ent) == 1
        and is_given_name(ent.text)
    )


_SAINT = re.compile(r"(?:\bSt\.?|\bSaint|\bSte\.?)[ \t]+$")
_SAINT_LEAD = re.compile(r"(?:St\.?|Saint|Ste\.?)(?:[ \t]+|[ \t]*\n[ \t]*)[A-Z]")
_SAINT_TAIL = re.compile(r"['’]s(?:[ \t]+[A-Z][\w'’]*)+")


# "St." (or "Mt.", "Ft.") the model read alone at a line's end, the name it opens
# on the next line ("worked for St.⏎Louis Delivery Service").
_SAINT_ALONE = re.compile(rf"(?:{'|'.join(places.NAME_PREFIXES)})\.")
# Four words at most: a heading in capitals on the next line is no part of it.
_NEXT_LINE_NAME = re.compile(r"[ \t]*\n[ \t]*[A-Z][\w'’-]*(?:[ \t]+[A-Z][\w'’-]*){0,3}")


def _saint_broken_by_a_line(ent, text: str) -> Candidate | None:
    """The place or the institution a "St." alone at a line's end opens: its whole
    name, across the line break (an ORGANIZATION when its last word names one)."""
    if not _SAINT_ALONE.fullmatch(ent.text) or not places.opens_a_name(text, ent.start_char):
        return None
    name = _NEXT_LINE_NAME.match(text, ent.end_char)
    if name is None:
        return None
    words = places.words_of(name.group())
    label = "ORGANIZATION" if places.has_institution_word(words[-1]) else "LOCATION"
    start, end = ent.start_char, name.end()
    return Candidate(start, end, label, text[start:end], (SOURCE,), SCORE, f"spacy:{ent.label_}→saint's {label}")


def _saint_place(ent, text: str) -> Candidate | None:
    """ "St. Anne's Church", "St. Louis": a saint's name inside the name of a place
    or an institution is no person. The whole name is proposed instead: an
    ORGANIZATION when an institution or place word follows ("'s Church",
    "'s Hospital"), else a LOCATION. A "St." broken from the name by a line
    takes it too ("St.⏎Louis Delivery Service")."""
    if (broken := _saint_broken_by_a_line(ent, text)) is not None:
        return broken
    line_start = text.rfind("\n", 0, ent.start_char) + 1
    saint = _SAINT.search(text, line_start, ent.start_char)
    if saint is not None:
        start = saint.start()
    elif _SAINT_LEAD.match(ent.text):
        start = ent.start_char
    else:
        return None
    end = ent.end_char
    possessive = _POSSESSIVE.search(ent.text)
    if possessive:
        end -= len(possessive.group())
    tail = _SAINT_TAIL.match(text, end)
    # "St. Louis⏎Delivery Service": the model's whole name ends in an institution's word.
    label = "ORGANIZATION" if places.has_institution_word((places.words_of(ent.text) or [""])[-1]) else "LOCATION"
    if tail:
        words = places.words_of(tail.group())
        if words and (places.has_institution_word(words[-1]) or words[-1].lower() in PLACE_WORDS):
            end, label = tail.end(), "ORGANIZATION"
    return Candidate(start, end, label, text[start:end], (SOURCE,), SCORE, f"spacy:{ent.label_}→saint's {label}")


# A question/answer transcript opens each turn with "Q" or "A" ("Q Now, when you…"); a
# model that never saw such lines may take the marker into the entity ("Q Now").
_TURN_MARKER = re.compile(r"[QA]\.?[ \t]+")


def _without_turn_marker(ent, text: str) -> tuple[int, str] | None:
    """(start, text) of the entity without a turn marker it begins with at a line
    start, or None when it has none."""
    start = ent.start_char
    if start > 0 and text[start - 1] != "\n":
        return None
    marker = _TURN_MARKER.match(ent.text)
    if marker is None or marker.end() >= len(ent.text):
        return None
    return start + marker.end(), ent.text[marker.end() :]


_BARE_NUMBER = re.compile(rf"(?:\d{{1,3}}|{NUMBER_WORDS})", re.IGNORECASE)
_WORD_BEFORE = re.compile(r"([A-Za-z'’]+)[ \t]+$")


# A false start or a correction between two numbers ("I'm 40 -- 42", "he was 16, 17").
# A comma or a hyphen only with a space after it: "1,000" and "9-11" are one number.
_RESTART = re.compile(r"[ \t]*(?:--|—|–)[ \t]*|,[ \t]+|[ \t]+-[ \t]+|[ \t]+(?:or|to)[ \t]+", re.IGNORECASE)
_AGE_RUN = re.compile(rf"{_BARE_NUMBER.pattern}(?:(?:{_RESTART.pattern}){_BARE_NUMBER.pattern})*", re.IGNORECASE)


# What may follow an age that ends its clause: punctuation, a line's end, "years",
# or the next clause's first word ("i'm fifty two i'll be", "I was 12 when").
_AGE_TAIL = re.compile(
    r"[ \t]*(?:[.,;:!?)\n]|$|(?:years?|yrs?|now|then|and|but|so|when|at|i|i'm|i'll|he|she|they|we|you)\b)",
    re.IGNORECASE,
)


# A person's being or turning, right before a bare count ("i'm |", "she was |",
# "turned |"): "there were nine", "eye are three" count things.
_PERSON_IS_BEFORE = re.compile(
    r"(?:\b(?:i|he|she|you|they|we)[ \t]+(?:am|is|are|was|were)|\b(?:i|he|she|you|they|we)['’](?:m|s|re)"
    r"|\bturn(?:s|ed|ing)?|\baged?)[ \t]+$",
    re.IGNORECASE,
)


def _ages_not_date(ent, text: str, age_before: int | None) -> list[tuple[int, int]]:
    """ "when I was thirteen", "turned 49": a bare number the model took for a date
    is an age after a verb of being or turning (a duration or a count is not). A
    false start gives one age per number ("I'm 40 -- 42": the guideline's two
    spans), and a number restarting an age the model read just before is one too
    ("40" AGE, then "-- 42"). `age_before`: where the last age found ends."""
    stripped = ent.text.strip()
    if not _AGE_RUN.fullmatch(stripped):
        return []
    before = _WORD_BEFORE.search(text, max(0, ent.start_char - 20), ent.start_char)
    lead = before is not None and before.group(1).lower().replace("’", "'") in AGE_LEADS
    restart = age_before is not None and bool(_RESTART.fullmatch(text[age_before : ent.start_char]))
    if not (lead or restart):
        return []
    offset = ent.start_char + ent.text.index(stripped)
    return [(offset + m.start(), offset + m.end()) for m in _BARE_NUMBER.finditer(stripped)]


def promotes(nlp: "Language") -> bool:
    """Whether the model's non-person labels may be promoted to PERSON by the
    lexicons: yes for the stock models, whose NER confuses them; a fine-tuned model
    says no in its meta.json ("anonymizer": {"label_promotions": false})."""
    return bool(nlp.meta.get("anonymizer", {}).get("label_promotions", True))


# A model's labels that name something other than a person (the research model's
# MISC included): see `not_people`.
NOT_PEOPLE = frozenset(
    {"ORG", "GPE", "LOC", "FAC", "NORP", "EVENT", "WORK_OF_ART", "PRODUCT", "LAW", "LANGUAGE", "MISC"}
)


def not_people(doc: "Doc") -> list[tuple[int, int, str]]:
    """(start, end, label) of the entities a model says are not people, in order."""
    return [(ent.start_char, ent.end_char, ent.label_) for ent in doc.ents if ent.label_ in NOT_PEOPLE]


def recognize(doc: "Doc", promotions: bool = True) -> list[Candidate]:
    found = []
    ents = list(doc.ents)
    text = doc.text  # built once: each doc.text joins every token
    age_before: int | None = None
    for i, ent in enumerate(ents):
        label = SPACY_TO_LABEL.get(ent.label_)
        counted = (
            ent.label_ == "CARDINAL"
            and _AGE_TAIL.match(text, ent.end_char) is not None
            and _PERSON_IS_BEFORE.search(text, max(0, ent.start_char - 16), ent.start_char) is not None
        )
        if counted and (ages := _ages_not_date(ent, text, age_before)):
            # "i'm fifty two i'll be": a count after a person's being that ends its
            # clause is an age, as speech recognition writes it; a count of things
            # goes on with its noun ("I was 3 blocks away") or has no person before
            # it ("there were nine").
            for start, end in ages:
                found.append(Candidate(start, end, "AGE", text[start:end], (SOURCE,), SCORE, "spacy:CARDINAL→AGE"))
            age_before = ages[-1][1]
            continue
        if label is None or (label == "PERSON" and _title_after_determiner(ent)):
            continue
        if label == "DATE" and (ages := _ages_not_date(ent, text, age_before)):
            for start, end in ages:
                found.append(Candidate(start, end, "AGE", text[start:end], (SOURCE,), SCORE, "spacy:DATE→AGE"))
            age_before = ages[-1][1]
            continue
        if label in ("PERSON", "LOCATION", "ORGANIZATION") and (saint := _saint_place(ent, text)) is not None:
            found.append(saint)
            continue
        rule = f"spacy:{ent.label_}" + (f":{BASE_ONLY}" if ent.kb_id_ == BASE_ONLY else "")
        if (trimmed := _without_turn_marker(ent, text)) is not None:
            # Only the words after the marker are the model's entity; the filters then
            # judge them as they would have been found ("Now" opening a sentence).
            start, words = trimmed
            bare = _POSSESSIVE.sub("", words)
            corrected = corrected_label(bare, label)
            if corrected == "PERSON" and not promotions and not _a_full_name(bare):
                corrected = label
            rule += ":after-turn-marker"
            found.append(Candidate(start, ent.end_char, corrected, words, (SOURCE,), SCORE, rule))
            continue
        if label in ("PERSON", "LOCATION", "ORGANIZATION") and (pieces := _pieces(ent, text, label)) is not None:
            # Two columns of a page the model read as one name ("Yes         Transcript
            # Memorandum"), or a heading glued to the next line: each piece is judged
            # alone, as if found alone ("Darnell⏎A. Whitcomb" keeps both).
            # (A piece that is only a line's printed number, "Fort⏎ 4   Sanders Regional",
            # `edges.tidy` drops, as it drops any name of the page's number alone.)
            for piece in pieces:
                start, words = ent.start_char + piece.start(), piece.group()
                end, piece_label = start + len(words), corrected_label(words, label)
                found.append(Candidate(start, end, piece_label, words, (SOURCE,), SCORE, f"{rule}:piece"))
            continue
        following = ents[i + 1] if i + 1 < len(ents) else None
        if promotions and label in ("LOCATION", "ORGANIZATION", "NRP") and _given_name_before_person(ent, following):
            found.append(
                Candidate(ent.start_char, ent.end_char, "PERSON", ent.text, (SOURCE,), SCORE, rule + "→PERSON")
            )
            continue
        bare = _POSSESSIVE.sub("", ent.text)
        corrected = corrected_label(bare, label)
        if corrected == "PERSON" and not promotions and not _a_full_name(bare):
            corrected = label  # the model's own decision stands; demotions still apply
        if label == "LOCATION" and (_a_person_s_initials(bare.strip()) or _a_spelled_surname(bare, text, ents, i)):
            # "the residence of R.M.": a victim, a minor named by initials; a surname
            # a witness spells.
            corrected = "PERSON"
        elif label == "PERSON" and corrected == "LOCATION" and _a_person_here(bare, text, ents, i):
            corrected = label
        elif label == "PERSON" and corrected == "PERSON" and _a_named_place_here(bare, text, ent.start_char):
            corrected = "LOCATION"
        if corrected != label:
            rule += f"→{corrected}"
        found.append(Candidate(ent.start_char, ent.end_char, corrected, ent.text, (SOURCE,), SCORE, rule))
    return found
