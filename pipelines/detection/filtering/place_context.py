"""Names used as places: a PERSON the sentence around it makes a street or a town.

Witnesses describe where things happened in names: "came down Chambers", "Glen Oak
was the other street", "Ferguson officers". The model and the name lexicons see a
surname or a given name + surname and say PERSON; the words around the name say
place. When one occurrence of a name in a document has such a cue, the document's
weakly supported PERSON spans of that name become LOCATION: still masked (leak
recall is untouched), with the placeholder a reader expects, and PERSON keeps the
precision a reviewer relies on.

Never for a name with person evidence in the same document: a title before it
("Officer Wilson"), a person cue or the transcript's header among its sources.
The cues are general English (lexicons.py: PATH_VERBS, STREET_TYPES, PLACE_NOUNS,
PLACE_MEMBERS), never words of one transcript.
"""

import re
from collections.abc import Callable
from dataclasses import replace

from pipelines.candidate import Candidate, joined
from pipelines.detection import places
from pipelines.gazetteers import is_given_name, is_known_name, is_person_given_name
from pipelines.lexicons import (
    AMBIGUOUS_STREET_TYPES,
    CALENDAR_WORDS,
    COMPASS_DIRECTIONS,
    COURT_KINDS,
    CROSSING_NOUNS,
    NAME_END_STREET_TYPES,
    ORGANIZATION_TYPES,
    ORGANIZATION_WORDS,
    PATH_PREPOSITIONS,
    PATH_VERBS,
    PLACE_ACRONYMS,
    PLACE_MEMBERS,
    PLACE_NOUNS,
    PLACE_WORDS,
    PRISON_PREFIXES,
    PROSECUTOR_LETTERS,
    ROLE_WORDS,
    STREET_ORDINALS,
    STREET_SPOT_NOUNS,
    STREET_TYPES,
    TITLE_WORDS,
    TITLES,
    TITLES_BEFORE_A_NAME_ONLY,
    US_STATE_CODES,
    US_STATES,
)

# Sources that only say "this looks like a name": a place cue overrides them.
# A header name, a person cue ("my name is"), a pattern or the corpus's memory is
# evidence of a person and is never overridden.
WEAK_SOURCES: frozenset[str] = frozenset({"spacy", "presidio", "gazetteer", "propagation"})
RULE = "place-context"


def _alternation(words) -> str:
    return "|".join(sorted((re.escape(w) for w in words), key=len, reverse=True))


# "came down |", "drove up the |" — the verb, the preposition, an optional "the".
_PATH_BEFORE = re.compile(
    rf"\b(?:{_alternation(PATH_VERBS)})\s+(?:{_alternation(PATH_PREPOSITIONS)})\s+(?:the\s+)?$", re.IGNORECASE
)
# "| Street", "| was the other street", "| officers": what follows the name.
_STREET_AFTER = re.compile(rf"^\s+(?:{_alternation(STREET_TYPES)})\b\.?", re.IGNORECASE)
# The place noun ends the phrase ("… was the other street."), so "Jordan was a
# neighborhood kid" or "… was the county jail" say nothing of Jordan.
_PHRASE_END = r"(?=\s*(?:[.,;:?!)]|$)|\s+(?:in|of|on|near|by|and|or|but|that|where|which|there)\b)"
_DEFINED_AFTER = re.compile(
    rf"^\s+(?:is|was)\s+(?:a|an|the)\s+(?:[a-z]+\s+)?(?:{_alternation(PLACE_NOUNS)}){_PHRASE_END}", re.IGNORECASE
)
_MEMBERS_AFTER = re.compile(rf"^\s+(?:{_alternation(PLACE_MEMBERS)})\b", re.IGNORECASE)
# "any Ferguson officers", "the Ferguson police", "by Ferguson police": a place named
# as an attribute follows a determiner or a preposition; "I told Johnson officers were
# coming" is a person followed by a noun.
_ATTRIBUTE_BEFORE = re.compile(
    r"\b(?:the|any|all|some|no|other|many|several|two|three|four|five|\d+|of|by|from|with|for|and|between)\s+$",
    re.IGNORECASE,
)
# "drove north on |", "was westbound on the |": a direction of travel along a street.
_DIRECTION_BEFORE = re.compile(
    rf"\b(?:{_alternation(COMPASS_DIRECTIONS)})\s+(?:on|along|down|up|onto)\s+(?:the\s+)?$", re.IGNORECASE
)
# "the corner of |", "the intersection of Chambers and |": one of two crossing streets.
_CROSSING = rf"\b(?:{_alternation(CROSSING_NOUNS)})\s+of\s+(?:the\s+)?"
_CROSSING_BEFORE = re.compile(rf"{_CROSSING}$", re.IGNORECASE)
_CROSSING_SECOND = re.compile(rf"{_CROSSING}[A-Z][\w'’.-]*(?:\s+[A-Z][\w'’.-]*){{0,3}}\s+(?:and|&)\s+$")
# A house's number and the street's side of town before it: "3310 SOUTH BRYANT",
# "214 West Twohig" (a year and a direction never stand before a person).
_HOUSE_AND_DIRECTION_BEFORE = re.compile(
    # The direction's period is an abbreviation's ("214 W. Twohig"), never a sentence's
    # end ("Transferred to 4 West. Jasmine, RN, received report").
    # One letter only in capitals: "met 2 w Okafor" is a case note's "with".
    r"(?<![\w.,/-])\d{1,6}[A-Za-z]?[ \t]+(?:(?i:north|south|east|west)|(?:N|S|E|W|NW|NE|SW|SE)\.?)[ \t]+$"
)
# A crossing with a numbered street ("Ninth and Adams", "at 35th and Burleigh",
# "Hopkins and Fourth"): the other street. Not a date's day ("the 4th and Smith
# called", "June 4th and Smith"), nor an ordinal that goes on ("Fourth of July").
# A transcript in capitals writes them so too ("AT 35TH AND BURLEIGH").
_ORDINAL_WORDS = {w.capitalize() for w in STREET_ORDINALS} | {w.upper() for w in STREET_ORDINALS}
_ORDINAL = rf"(?:\d{{1,3}}(?i:st|nd|rd|th)|(?:{_alternation(_ORDINAL_WORDS)}))"
_AND = r"(?:(?i:and)|&)"
_ORDINAL_STREET = rf"{_ORDINAL}(?:\s+(?i:{_alternation(STREET_TYPES)})\b\.?)?"
# Only where a place is named ("at", "on", "of", "near"…): "Maya is in 4th and Marcus is
# in 6th", "Keisha was 1st and Tasha 2nd", "works 3rd and Keisha days" rank people.
# Not "to" or "from": "went on to 4th and Marcus was held back".
_CROSSING_AT = r"\b(?i:at|on|of|near|off|onto)\s+"
_ORDINAL_CROSSING_BEFORE = re.compile(rf"{_CROSSING_AT}{_ORDINAL_STREET}\s+{_AND}\s+$")
# Nor a name the ordinal opens ("Banc One and First Chicago").
_ORDINAL_CROSSING_AFTER = re.compile(
    rf"\s+{_AND}\s+{_ORDINAL_STREET}(?![\w'’-])(?!\s+(?:[A-Z]|(?i:of|grade|graders|time|place|shift|floor|period)\b))"
)
_NAME_AT = re.compile(rf"{_CROSSING_AT}$")
# Holidays, kin and the deity are no streets either ("on Okafor near Easter", "by God").
_NO_STREETS = frozenset("christmas easter thanksgiving halloween god lord jesus mom dad mama".split())
# The street beside it is no day, no title and no platform's author ("on Tyrell, by
# Friday", "by Detective Ruiz's account").
_NOT_A_STREET = rf"(?!(?:{CALENDAR_WORDS}|(?i:{_alternation(TITLE_WORDS | ROLE_WORDS | _NO_STREETS)}))\b)"
# "the bus stop at |Dickerson and Trinity", "the Mini Mart at Kickapoo and |MacArthur":
# two names crossing at a spot one finds along streets (STREET_SPOT_NOUNS), each of
# one word and the crossing ending the phrase.
_SPOT = rf"\b(?:{_alternation(STREET_SPOT_NOUNS)})\s+(?:at|on)\s+(?:the\s+)?"
_ONE_NAME = r"[A-Z][\w'’-]*(?<!['’]s)"  # not a possessive: "the one at Marcus and Keisha's" is a house
_CLAUSE_END = r"(?=\s*(?:[.,;:?!)]|$)|\s+(?i:in|by|near|at|on|across|and|to|where|when|until)\b)"
_SPOT_CROSSING_FIRST_BEFORE = re.compile(rf"{_SPOT}$", re.IGNORECASE)
_SPOT_CROSSING_FIRST_AFTER = re.compile(rf"\s+{_AND}\s+{_NOT_A_STREET}{_ONE_NAME}{_CLAUSE_END}")
_SPOT_CROSSING_SECOND = re.compile(rf"(?i:{_SPOT}){_NOT_A_STREET}{_ONE_NAME}\s+{_AND}\s+$")
# "the store on |Clinton", "lived on |Hollowell", "grew up off |Woodward", "right off
# |Dickerson": on a name after a spot or after living there, off one after growing up
# there. Not after other verbs: one relies on, picks on, tells on people, lives off one
# and gets a gun off one.
# Not what one turns on a person: a light, a camera, a stop.
_ALONG_SPOTS = STREET_SPOT_NOUNS - {"light", "lights", "lot", "camera", "stop", "corner"}
_ALONG_BEFORE = re.compile(
    rf"(?:\b(?:{_alternation(_ALONG_SPOTS)}|lives?|lived|living)\s+on|\bgrew\s+up\s+off"
    # "right off" after a spot, being there or a place's comma, not "took the gun right off".
    rf"|(?:\b(?:{_alternation(_ALONG_SPOTS)}|lives?|lived|living|is|was|are|were)|['’]s|,)\s+(?:right|just)\s+off)\s+$",
    re.IGNORECASE,
)
# "on |Ewing, right off Dickerson", "on |Dexter by Davison", "lived on |Hollowell, near
# Lowery": a name on or off which something is, then the street beside it.
# Being there, or a place named before it: not "told on Keisha near Christmas".
_BEING = r"(?:\b(?i:is|was|were|are|be|been|lives?|lived|living|located)|['’]s|[,.;:])"
_ON_OR_OFF_BEFORE = re.compile(rf"(?:{_BEING}|^)\s*(?i:on|off)\s+$")
_BESIDE = r"(?i:(?:right|just)\s+off|off|by|near|across\s+from)"
_BESIDE_A_STREET_AFTER = re.compile(rf",?\s+{_BESIDE}\s+{_NOT_A_STREET}{_ONE_NAME}(?![\w'’-])")
# "on Dexter by |Davison", "on Ewing, right off |Dickerson": the street beside it.
_BESIDE_A_STREET_BEFORE = re.compile(
    rf"{_BEING}\s*(?i:on|off)\s+{_NOT_A_STREET}{_ONE_NAME}(?:\s+{_ONE_NAME})?,?\s+{_BESIDE}\s+$"
)
# "Canfield and Copper Creek" as one span after a crossing noun: two streets.
_PAIR = re.compile(r"\s+(?:and|&)\s+")
# "pulled onto |", "right back onto |": onto a street (a path verb before "onto"
# is _PATH_BEFORE's).
_ONTO_BEFORE = re.compile(
    r"\b(?:back|pull(?:s|ed|ing)?|merg(?:e|es|ed|ing)|gets?|got|getting)\s+onto\s+(?:the\s+)?$", re.IGNORECASE
)
# "from |Goodman onto Monroe", "from Goodman onto |Monroe": a turn from a street onto
# another, each a street.
_FROM_ONTO_BEFORE = re.compile(r"\bfrom\s+[A-Z][\w'’-]*\s+onto\s+$")
_FROM_BEFORE = re.compile(r"\bfrom\s+$")
_ONTO_AFTER = re.compile(r"\s+onto\s+[A-Z]")
# "COUNTY OF |PRINCE WILLIAM", "the City of |Tyler": a jurisdiction's name, a place
# whoever else bears it (a certificate's venue: "COMMONWEALTH OF VIRGINIA, COUNTY OF").
_JURISDICTION_OF_BEFORE = re.compile(
    r"\b(?i:county|parish|city|town|township|borough|village|state|commonwealth|province)[ \t]+(?i:of)[ \t]+$"
)
# "VACAVILLE, CALIFORNIA", "Ferguson, Missouri.": a town before its state, the
# state ending the phrase ("Johnson, Washington and Adams" is a list of people).
_STATE_AFTER = re.compile(
    rf"^,\s*(?:{_alternation(US_STATES)})(?=[ \t]*(?:[.,;:?!)\n]|$)|\s+(?:in|on|near|where|which|to|from|at)\b)",
    re.IGNORECASE,
)
# The cue of a town before its state: spread to an organization's every occurrence, a
# person's name's only where its own state follows it (`relabel_places`).
_TOWN_STATE = "town, state"
_IN_A_TOWN = "in a known town"
# Cues that make a person's name a town only where they stand.
_LOCAL_CUES = frozenset({_TOWN_STATE, _IN_A_TOWN})
_STATE_ZIP_AFTER = re.compile(rf"^,[ \t]*(?:{_alternation(US_STATES)})[ \t]+\d{{5}}(?:-\d{{4}})?\b", re.IGNORECASE)
_AT_A_PLACE_BEFORE = re.compile(r"\b(?:in|near|outside|from)\s+$", re.IGNORECASE)
# "born in |", "is now in |", "a town near |": where something is, before a place.
_LOCATIVE_BEFORE = re.compile(r"\b(?:in|near|outside)\s+$", re.IGNORECASE)
# One part of ", Trento, Italy": a comma, then up to three capitalised words.
_REGION_PART = re.compile(r",[ \t]*([A-Z][\w'’-]*(?:[ \t]+[A-Z][\w'’-]*){0,2})")
# What ends the chain of parts: the phrase's punctuation, a line's or the text's
# end, or the sentence going on in lower case ("…, Italy for a conference").
_REGION_END = re.compile(r"[ \t]*(?:[.;:?!)\n]|$)|[ \t]+[a-z]")


def _region_after(text: str, at: int) -> bool:
    """text[at:] opens a chain of places the lists know, each after a comma, up to
    the phrase's end (", Tiberias.", ", Trento, Italy for"), one of them no one's
    name: "near Williams, Jordan, Lopez." is a list of people ("Lopez" is no place),
    and "with Smith, Jordan." names Jordan (a known name) as well as a country."""
    parts: list[str] = []
    while (match := _REGION_PART.match(text, at)) is not None and places.is_known_place(match.group(1)):
        parts.append(match.group(1))
        at = match.end()
    ends = _REGION_END.match(text, at) is not None
    return bool(parts) and ends and any(not is_known_name(p) for p in parts)


# "12 Maple Court", "lived on Canfield Court", "off Elm Place": an address or a
# place one lives or stands on; "at Superior Court" or "to Court" stay courts.
_ADDRESS_BEFORE = re.compile(r"(?:\b\d{1,6}[A-Za-z]?\s+|\b(?:on|off|onto)\s+(?:of\s+)?)$", re.IGNORECASE)
# "drove to Baker Court", "turned into Elm Place": going to a name that ends in a
# street's type that is also an institution's ("Court", "Place") goes to a street;
# a court of law is of a kind ("County Court", COURT_KINDS).
_GOING_TO_BEFORE = re.compile(rf"\b(?:{_alternation(PATH_VERBS)})\s+(?:to|into)\s+(?:the\s+)?$", re.IGNORECASE)
# A title or role word right before a name makes it a person's ("Officer Wilson").
_TITLE_BEFORE = re.compile(rf"\b(?:{_alternation({*TITLES, *ROLE_WORDS} - {'a', 'q', 'by', 'the'})})\.?\s+$", re.I)
# How far around a name the cues look: one clause.
WINDOW = 60


def _form(text: str) -> str:
    return " ".join(text.split()).casefold()


def place_cue(text: str, start: int, end: int, label: str = "PERSON") -> str | None:
    """The cue that makes text[start:end] (a span typed `label`) a place where it
    stands, or None."""
    before, after = text[max(0, start - WINDOW) : start], text[end : end + WINDOW]
    if after.startswith(("'", "’")):  # "Chambers's car": a possessive is a person's
        return None
    if _PATH_BEFORE.search(before):
        return "path"
    if _DIRECTION_BEFORE.search(before) or _ONTO_BEFORE.search(before):
        return "direction"
    if _JURISDICTION_OF_BEFORE.search(before):
        return "a jurisdiction's name"
    if _FROM_ONTO_BEFORE.search(before) or (_FROM_BEFORE.search(before) and _ONTO_AFTER.match(after)):
        return "direction"  # "turned from Goodman onto⏎Monroe": a turn from one street onto another
    # A person's name before a state is rare but real ("Johnson, Washington was
    # there"); an organization the model made of a town is the common case.
    if label == "ORGANIZATION" and _STATE_AFTER.match(after):
        return _TOWN_STATE
    # A one-word name before a state, when the state has its ZIP code ("Box 2216,
    # Norman, Oklahoma 73070") or something is from, in or near the town ("drove back
    # from Cheyenne, Wyoming"): the town, whoever else bears the name.
    one_word = " " not in text[start:end].strip()  # "a letter from Mary Jones, Texas" is hers
    if (
        label == "PERSON"
        and one_word
        and (_STATE_ZIP_AFTER.match(after) or (_AT_A_PLACE_BEFORE.search(before) and _STATE_AFTER.match(after)))
    ):
        return _TOWN_STATE
    # "born in Kibbutz Kinneret, Tiberias", "is in Levico Terme, Trento, Italy": a
    # place where something is, then the place it lies in. One cue alone is not
    # enough for a person ("a letter from Mary Jones, Texas"); both together are.
    # An organization stays one ("in Kaiser Permanente, Oakland").
    if label == "PERSON" and _LOCATIVE_BEFORE.search(before) and _region_after(text, end):
        return "place, region"
    # "born in Kilgore", "lives in Lansing": a town the lists know, where something is,
    # whoever else bears the name as a surname (the town only there, as before a
    # state). Not a given name: one confides in Tyler, stands near Shelby.
    word = text[start:end].strip()
    town = one_word and places.is_known_place(word) and not is_given_name(word)
    if label == "PERSON" and town and _LOCATIVE_BEFORE.search(before):
        return _IN_A_TOWN
    if _CROSSING_BEFORE.search(before) or _CROSSING_SECOND.search(before):
        return "intersection"
    words = text[start:end].split()
    last = words[-1].strip(".").casefold() if words else ""
    if len(words) > 1 and words[-1][:1].isupper():
        if last in NAME_END_STREET_TYPES:
            return "street type"
        kinds = {w.strip(".,").casefold() for w in words[:-1]}
        # A street's type then its quarter ("Martin Luther King Jr. Way South"): even an
        # ambiguous type is a street's before a direction. Four words at least: "Justin
        # Lane West" and "Mary Court North" are people's.
        typed = words[-2].strip(".,").casefold() if len(words) > 3 else ""
        if last in COMPASS_DIRECTIONS and (
            typed in NAME_END_STREET_TYPES or (typed in AMBIGUOUS_STREET_TYPES and not kinds & COURT_KINDS)
        ):
            return "street type"
        if (
            last in AMBIGUOUS_STREET_TYPES
            and not kinds & COURT_KINDS
            and (_ADDRESS_BEFORE.search(before) or _GOING_TO_BEFORE.search(before))
        ):
            return "address"
    if _STREET_AFTER.match(after):
        return "street type"
    if _DEFINED_AFTER.match(after):
        return "place noun"
    if _MEMBERS_AFTER.match(after) and _ATTRIBUTE_BEFORE.search(before):
        return "place members"
    return _street_cue(text, start, end, before, after)


def _ends(words: list[str]) -> tuple[str, ...]:
    """A full name's first and last words; nothing for a one-word name."""
    return (words[0], words[-1]) if len(words) > 1 else ()


_CROSSED = "crossing with a street"
_STREET_CUES = frozenset(
    {"numbered crossing", "crossing at a spot", "spot on a street", "street beside a street", _CROSSED}
)


def _street_cue(text: str, start: int, end: int, before: str, after: str) -> str | None:
    """The cue that text[start:end] is a street without its type, from the streets
    and spots around it, or None."""
    if _HOUSE_AND_DIRECTION_BEFORE.search(before):
        return "address"
    if _ORDINAL_CROSSING_BEFORE.search(before):
        return "numbered crossing"
    if _ORDINAL_CROSSING_AFTER.match(after) and _NAME_AT.search(before):
        return "numbered crossing"
    words = text[start:end].split()
    one_word = len(words) == 1
    # A given name that is no common word is a person's where only a spot or a street
    # beside it speaks ("living on Tasha", "on Tyrell, by Friday"; a named street
    # stays PERSON: it is masked all the same).
    if one_word and is_person_given_name(words[0].strip(".,")):
        return None
    if one_word and (
        (_SPOT_CROSSING_FIRST_BEFORE.search(before) and _SPOT_CROSSING_FIRST_AFTER.match(after))
        or (_SPOT_CROSSING_SECOND.search(before) and re.match(_CLAUSE_END, after))
    ):
        return "crossing at a spot"
    if _ALONG_BEFORE.search(before):
        return "spot on a street"
    if _ON_OR_OFF_BEFORE.search(before) and _BESIDE_A_STREET_AFTER.match(after):
        return "street beside a street"
    if _BESIDE_A_STREET_BEFORE.search(before):
        return "street beside a street"
    return None


def _occurrences(text: str, form: str) -> list[int]:
    words = [re.escape(w) for w in form.split()]
    pattern = re.compile(r"(?<![\w'’-])" + r"\s+".join(words) + r"(?![\w-])", re.IGNORECASE)
    return [m.start() for m in pattern.finditer(text)]


# The labels a place is mistyped as: a surname-like street ("Chambers") is taken
# for a person, a street with "Court" or two streets joined by "and" for an
# organization.
MISTYPED: frozenset[str] = frozenset({"PERSON", "ORGANIZATION"})


def _relabelled(span: Candidate, label: str, rule: str) -> Candidate:
    """`span` under `label`, the rule that relabelled it noted after its own."""
    return replace(span, label=label, rule=f"{span.rule},{rule}".lstrip(","))


def relabel_places(text: str, spans: list[Candidate]) -> list[Candidate]:
    """The spans, with the weakly supported PERSON or ORGANIZATION spans of a name
    that the document uses as a place relabelled LOCATION (rule
    `place-context:<cue>`); "Canfield and Copper Creek" after "the corner of" is
    split into its two streets."""
    weak: dict[str, list[Candidate]] = {}
    strong: set[str] = set()
    # "Trinity. Trinity Kittrell": a one-word name that opens or closes a person's
    # full name in this document is hers where only a spot or a crossing says street.
    in_full_names = {w for s in spans if s.label == "PERSON" for w in _ends(_form(s.text).split())}
    for span in spans:
        if span.label not in MISTYPED:
            continue
        form = _form(span.text)
        if set(span.sources) <= WEAK_SOURCES:
            weak.setdefault(form, []).append(span)
        else:
            strong.add(form)
    cues: dict[str, str] = {}
    crossings = _crossed_streets(text, spans)
    for form, found in weak.items():
        if form in strong:
            continue
        cue = next((c for s in found if (c := place_cue(text, s.start, s.end, s.label))), None)
        if cue is None and any((s.start, s.end) in crossings for s in found):
            cue = _CROSSED
        if cue is None or (cue in _STREET_CUES and form in in_full_names):
            continue
        # Every occurrence of the name in the document, found or not: a title before
        # any of them ("Officer Ferguson") says this document's Ferguson is a person.
        if any(_TITLE_BEFORE.search(text[max(0, at - WINDOW) : at]) for at in _occurrences(text, form)):
            continue
        cues[form] = cue
    if not cues:
        return spans
    out: list[Candidate] = []
    for s in spans:
        f = _form(s.text)
        if s.label not in MISTYPED or f not in cues or not set(s.sources) <= WEAK_SOURCES:
            out.append(s)
            continue
        if cues[f] in _LOCAL_CUES and s.label == "PERSON" and place_cue(text, s.start, s.end, s.label) is None:
            # A town a person is named after ("Cheyenne, Wyoming" beside "my daughter
            # Cheyenne") is the town only where the state follows it.
            out.append(s)
            continue
        place = _relabelled(s, "LOCATION", f"{RULE}:{cues[f]}")
        out += _streets(place) if cues[f] == "intersection" else [place]
    return out


# "at Dorr and |Upton", "got to Dorr and⏎22   |Upton", "Dorr at |Upton", "DORR/|UPTON":
# the name crossing a street the model read as a place.
_CROSSING_JOIN = re.compile(rf"(?:{places.LINE_GAP}(?i:and|&|at){places.LINE_GAP}|/)$")
# Before the first street: a preposition of place or travel, or a log line's start
# or its stop's number ("STOP ARRIVE 1187 DORR/UPTON").
_TO_A_STREET = re.compile(
    r"(?m)(?:\b(?i:at|on|to|near|toward|towards|from|onto|off|inbound|outbound)[ \t]+|^[ \t]*|\d[ \t]+)$"
)
_CROSSING_WINDOW = 40
# What follows a crossing: the phrase's end, a pronoun or a preposition ("at Dorr and
# Upton he closed", "to Dorr and Byrne at 3:52"), never a verb ("to Dorr and Kowalski
# met me") nor the name going on ("Upton Sinclair", "Upton's").
_CROSSING_ENDS = re.compile(
    r"[ \t]*(?:[.,;:?!)/\n]|$)|[ \t]+(?:he|she|they|we|I|you|it|at|by|on|in|near|toward|towards|around|when|IB|OB)\b"
)


def _crossed_streets(text: str, spans: list[Candidate]) -> set[tuple[int, int]]:
    """The (start, end) of one-word names typed PERSON or ORGANIZATION that cross a
    one-word street the model typed LOCATION ("at Dorr and Upton"): neither a given
    name ("at Dorr and Mary") nor a town's partner ("went to Flint and Mabry
    followed"), the crossing ending its phrase (`_CROSSING_ENDS`)."""
    streets = {
        s.end: s.start
        for s in spans
        if s.label == "LOCATION" and " " not in s.text.strip() and not places.is_known_place(s.text.strip())
    }
    crossed: set[tuple[int, int]] = set()
    for s in spans:
        word = s.text.strip()
        if s.label not in MISTYPED or " " in word or not word[:1].isupper() or is_given_name(word):
            continue
        join = _CROSSING_JOIN.search(text, max(0, s.start - _CROSSING_WINDOW), s.start)
        street_start = streets.get(join.start()) if join is not None else None
        if street_start is None or not _CROSSING_ENDS.match(text, s.end):
            continue
        if _TO_A_STREET.search(text, max(0, street_start - _CROSSING_WINDOW), street_start):
            crossed.add((s.start, s.end))
    return crossed


def _streets(span: Candidate) -> list[Candidate]:
    """A crossing named as one span ("Canfield and Copper Creek"): each street a
    span of its own, so that each gets its own placeholder."""
    parts: list[Candidate] = []
    at = 0
    for match in [*_PAIR.finditer(span.text), None]:
        end = match.start() if match else len(span.text)
        piece = span.text[at:end]
        if piece.strip():
            parts.append(replace(span, start=span.start + at, end=span.start + end, text=piece))
        at = match.end() if match else at
    return parts if len(parts) == 2 else [span]


# Capitalised words right after a span on its line ("St. Louis County| Police
# Department", "CALIFORNIA| MEDICAL FACILITY"), "of", "and", "&" between them.
_TAIL_WORD = re.compile(r"[ \t]+(?:(?:of|and|&)[ \t]+)?[A-Z][\w.'’-]*")
MAX_TAIL_WORDS = 4
ORGANIZATION_RULE = "place-in-organization"


def _organization_end(text: str, start: int, end: int) -> int | None:
    """Where the organization a place begins ends: the last of up to
    MAX_TAIL_WORDS capitalised words after `end` that is an organization word or
    type ("Department", "Facility", "Press"). A street's type is none ("Canfield
    Court", "Chambers Place"), but a court of a kind is ("County Court")."""
    at, found = end, None
    previous = (text[start:end].split() or [""])[-1].lower()
    for _ in range(MAX_TAIL_WORDS):
        match = _TAIL_WORD.match(text, at)
        if match is None:
            break
        written = match.group().split()[-1].lower()
        word = written.rstrip(".").removesuffix("'s").removesuffix("’s")
        street = word in STREET_TYPES or (word in AMBIGUOUS_STREET_TYPES and previous not in COURT_KINDS)
        if not street and (word in ORGANIZATION_WORDS or any(re.search(rx, word) for _t, rx in ORGANIZATION_TYPES)):
            # A sentence's full stop is not the name's; "Inc." keeps its own.
            cut = written.endswith(".") and written not in ORGANIZATION_WORDS
            found = match.end() - cut
        at, previous = match.end(), word
    return found


def organizations_named_after_places(text: str, spans: list[Candidate]) -> list[Candidate]:
    """A model's place that begins an organization's name on the same line ("St.
    Louis County Police Department", "CALIFORNIA MEDICAL FACILITY") is that
    organization: the span grows over the name and becomes ORGANIZATION (rule
    `place-in-organization`), taking in the weakly supported spans inside it. A
    person or a strongly supported span in the way leaves it as it was."""
    out = sorted(spans, key=lambda s: s.start)
    for i, span in enumerate(out):
        if span is None or span.label != "LOCATION" or not set(span.sources) <= WEAK_SOURCES:
            continue
        end = _organization_end(text, span.start, span.end)
        if end is None:
            continue
        inside = [j for j, o in enumerate(out) if o is not None and j != i and o.start < end and span.start < o.end]
        if any(out[j].label == "PERSON" or not set(out[j].sources) <= WEAK_SOURCES for j in inside):
            continue
        # The rest of the name, read as an organization, may run on past the last
        # organization word ("GOLDEN" + "STATE RESIDENTIAL FUND III, LLC"): it is the name's.
        if any(out[j].end > end and out[j].label != "ORGANIZATION" for j in inside):
            continue
        end = max([end, *(out[j].end for j in inside)])
        sources = tuple(dict.fromkeys(s for j in [i, *inside] for s in out[j].sources))
        rule = f"{span.rule},{ORGANIZATION_RULE}".lstrip(",")
        out[i] = replace(span, end=end, label="ORGANIZATION", text=text[span.start : end], sources=sources, rule=rule)
        for j in inside:
            out[j] = None
    return [s for s in out if s is not None]


PRISON_RULE = "prison-letters"
_ONE_GAP = re.compile(r"[ \t]+")


def prisons_by_their_letters(text: str, spans: list[Candidate]) -> list[Candidate]:
    """A prison's letters and the place after them, read apart ("FCI" + "Dublin",
    "USP" + "Atlanta"), are one organization: its official name (rule
    `prison-letters`). Only weakly supported spans join."""
    out = sorted(spans, key=lambda s: s.start)
    joined: list[Candidate] = []
    i = 0
    while i < len(out):
        span = out[i]
        after = out[i + 1] if i + 1 < len(out) else None
        if (
            after is not None
            and span.text.strip() in PRISON_PREFIXES
            and after.label in ("LOCATION", "ORGANIZATION")
            and set(span.sources) | set(after.sources) <= WEAK_SOURCES
            and _ONE_GAP.fullmatch(text, span.end, after.start) is not None
        ):
            sources = tuple(dict.fromkeys((*span.sources, *after.sources)))
            rule = f"{span.rule},{PRISON_RULE}".lstrip(",")
            joined.append(
                replace(
                    span,
                    end=after.end,
                    label="ORGANIZATION",
                    text=text[span.start : after.end],
                    sources=sources,
                    rule=rule,
                )
            )
            i += 2
            continue
        joined.append(span)
        i += 1
    return joined


ACRONYM_RULE = "acronym-institution"
# Lower-case letters this near an acronym: the text around it is in mixed case,
# where capitals mark an abbreviation (in all-capitals text every word looks like one).
_MIXED_CASE_REACH = 40


def institutions_named_by_acronyms(text: str, spans: list[Candidate]) -> list[Candidate]:
    """A model's place written as an acronym that no place list knows ("I was at
    DVI", "transferred from CMC"), standing where an institution does or spelled
    out in the document (`places.acronym_context`), is an institution: the
    guideline's ORGANIZATION even when used as a place. Places are rarely written
    in initials, and those that are are known ("US", "CA", lexicons.PLACE_ACRONYMS);
    rule `acronym-institution`. Decided per acronym, as `relabel_places` decides per
    name: one institution gets one label wherever the model read it as a place."""

    def weak_acronym(span: Candidate) -> bool:
        word = span.text.strip()
        return (
            span.label == "LOCATION"
            and set(span.sources) <= WEAK_SOURCES
            and places.is_acronym(word)
            and word.lower() not in PLACE_ACRONYMS
            and not places.is_known_place(word)
        )

    institutions = {
        span.text.strip()
        for span in spans
        if weak_acronym(span)
        and any(c.islower() for c in text[max(0, span.start - _MIXED_CASE_REACH) : span.end + _MIXED_CASE_REACH])
        and places.acronym_context(span.text, text, span.start)
    }
    return _as_organizations(spans, weak_acronym, institutions, ACRONYM_RULE)


EMPLOYER_RULE = "employer-context"


def _unknown_weak_place(span: Candidate) -> bool:
    """A LOCATION only a model or propagation proposed, that no place list knows
    and no place shape explains: an institution may stand behind it."""
    name = span.text.strip()
    return (
        span.label == "LOCATION"
        and set(span.sources) <= WEAK_SOURCES
        and not places.is_known_place(name)
        and not places.is_place_shaped(name)
    )


def employers_named_as_places(text: str, spans: list[Candidate]) -> list[Candidate]:
    """A model's place that no place list knows, and no street or place shape, where
    someone works or is held ("my first job at Rojas Tire & Wheel", "worked nights
    at the Foster Farms plant", `places.employer_context`) is an organization: an
    employer, an institution. Decided per name, as `institutions_named_by_acronyms`;
    rule `employer-context`."""

    def weak_place(span: Candidate) -> bool:
        return _unknown_weak_place(span) and not any(
            w.lower() in PLACE_WORDS for w in places.words_of(span.text.strip())
        )

    employers = {span.text.strip() for span in spans if weak_place(span) and places.employer_context(text, span.start)}
    return _as_organizations(spans, weak_place, employers, EMPLOYER_RULE)


# A store named by its owner's possessive with nothing after it ("works at
# Dillard's", "shifts at Nowak's because"): the name ends where "'s" would take a noun.
_BARE_POSSESSIVE = re.compile(
    r"['’]s(?=[ \t]*(?:$|\n|[^\w\s]|[A-Z]|(?:at|on|in|and|or|because|but|for|to|since|when|until|so|now|then"
    r"|every|last|this|today)\b))"
)


# Words after a town's name in an agency's name ("Selma Police Department",
# "Carrow County Sheriff's Office"): the town is no short name of the agency.
_AGENCY_AFTER_TOWN = frozenset(
    """police sheriff sheriff's county city town township fire municipal public unified school schools district
    court superior department state metropolitan metro transit housing water community""".split()
)


def institutions_by_their_short_names(text: str, spans: list[Candidate]) -> list[Candidate]:
    """A model's place that no place list knows and that the document also names in
    full as an institution ("at Kootenai" beside "Kootenai Health", "before St.
    Ignatius" beside "ST. IGNATIUS MEDICAL CENTER") is that institution, short: an
    ORGANIZATION, the guideline's label even where it is used as a place. Not a
    town that names an agency ("Selma" beside "Selma Police Department"). Rule
    `employer-context`."""
    organizations = [" ".join(s.text.split()).casefold() for s in spans if s.label == "ORGANIZATION"]

    def shortens(name: str) -> bool:
        key = " ".join(name.split()).casefold()
        for full in organizations:
            if full.startswith(key + " "):
                after = full[len(key) + 1 :].split()[0]
                if after not in _AGENCY_AFTER_TOWN:
                    return True
            # "at Rockview" beside "SCI Rockview": a prison by its name without its letters.
            prefix, _, rest = full.partition(" ")
            if rest == key and prefix.upper() in PRISON_PREFIXES:
                return True
        return False

    short = {
        span.text.strip()
        for span in spans
        if _unknown_weak_place(span) and shortens(span.text) and not _a_town_somewhere(text, span.text.strip())
    }
    return _as_organizations(spans, _unknown_weak_place, short, EMPLOYER_RULE)


# A US state's code after a town's comma ("Sugarbush, MN 56470").
_STATE_CODE_AFTER = re.compile(r",[ \t]*([A-Z]{2})\b(?![.'’-])")


def _a_town_somewhere(text: str, name: str) -> bool:
    """The document writes the name as a town too, its state or country after a comma
    ("Sugarbush, Minnesota" beside "Sugarbush Recovery Lodge"): the short name is the
    town's."""
    for at in _occurrences(text, name):
        after = text[at + len(name) : at + len(name) + 40]
        if _region_after(text, at + len(name)) or _STATE_AFTER.match(after) or _STATE_ZIP_AFTER.match(after):
            return True
        code = _STATE_CODE_AFTER.match(after)
        if code is not None and code.group(1) in US_STATE_CODES:
            return True
    return False


# The words after a person's name that make it an institution's ("Joseph Harp
# Correctional Center", "Voss House", "Dick Conner Correctional Center").
_NAMED_AFTER_HEADS = frozenset(
    """correctional center centre facility prison penitentiary hospital house home school academy college
    university institute clinic camp hall library""".split()
)


# The words between the person's name and the head ("Celestina Tafoya Middle School",
# "Bellamy Memorial Hospital").
_HEAD_QUALIFIERS = frozenset(
    "middle high elementary junior senior primary secondary charter memorial community regional medical".split()
)


def _named_after(words: list[str]) -> str | None:
    """The person's name an institution's name opens with, before its first head word."""
    for i, word in enumerate(words):
        if word.casefold() in _NAMED_AFTER_HEADS:
            name = words[:i]
            while name and name[-1].casefold() in _HEAD_QUALIFIERS:
                name.pop()
            return " ".join(name) if name and all(w[:1].isupper() for w in name) else None
    return None


def institutions_named_after_people(text: str, spans: list[Candidate]) -> list[Candidate]:
    """A person's name that the document names an institution after ("Joseph Harp
    Correctional Center") and says alone as no person ("moved to Joseph Harp in
    2013", "the young guys at Harp") is that institution, short: an ORGANIZATION
    (rule `employer-context`). Not where a title, a cue or another person's full
    name makes it someone's ("Officer Harp", "Hedda Voss" beside "Voss House")."""
    names: set[str] = set()
    for span in spans:
        if span.label == "ORGANIZATION" and (name := _named_after(span.text.split())) is not None:
            names.add(name)
            names.add(name.split()[-1])
    if not names:
        return spans
    # Compared as one line writes them, in any case (`_form`).
    names = {_form(name) for name in names}
    people = {_form(s.text) for s in spans if s.label == "PERSON"}
    strong = {_form(s.text) for s in spans if s.label == "PERSON" and not set(s.sources) <= WEAK_SOURCES}

    def someone(name: str) -> bool:
        words = name.split()
        others = (p for p in people if p not in names and any(w in p.split() for w in words))
        titled = any(_TITLE_BEFORE.search(text[max(0, at - WINDOW) : at]) for at in _occurrences(text, name))
        return name in strong or titled or next(others, None) is not None

    short = {name for name in names if not someone(name)}

    def weak_name(span: Candidate) -> bool:
        # A person a model or a list read, or a place no list knows ("at Tafoya"
        # beside "Celestina Tafoya Middle School").
        if not set(span.sources) <= WEAK_SOURCES:
            return False
        if span.label == "LOCATION" and places.is_known_place(span.text):
            return False
        # A name people bear ("Kennedy" of "Kennedy Middle School", "Joseph Harp")
        # is the institution only where one goes to or is at it ("to Joseph Harp in
        # 2013"); "Kennedy told me" is a child.
        words = span.text.split()
        if (len(words) > 1 or is_given_name(words[0])) and not _AT_AN_INSTITUTION.search(
            text, max(0, span.start - 12), span.start
        ):
            return False
        return span.label in ("PERSON", "LOCATION")

    return _as_organizations(spans, weak_name, short, EMPLOYER_RULE)


_AT_AN_INSTITUTION = re.compile(r"(?i)\b(?:at|to|from|in|into|inside|leave|left)[ \t]+(?:the[ \t]+)?$")


GIVEN_NAME_RULE = "given-name-of-a-person"


def given_names_read_as_places(text: str, spans: list[Candidate]) -> list[Candidate]:
    """A model's one-word place that is the given name of a person the document
    names in full ("Dallas Kerrigan … Dallas was out of town"), where its sentence
    does not place it ("in Dallas", "moved to Dallas": `places.placed_in_sentence`), is that
    person: PERSON (rule `given-name-of-a-person`). Not where the document itself
    used the name as a place (`relabel_places`' rule)."""
    given = {
        parts[0]
        for s in spans
        if s.label == "PERSON" and len(parts := s.text.split()) >= 2 and parts[0].isalpha() and len(parts[0]) > 1
    }
    if not given:
        return spans
    out = []
    for span in spans:
        if (
            span.label == "LOCATION"
            and set(span.sources) <= WEAK_SOURCES
            and span.text.strip() in given
            and RULE not in (span.rule or "")
            and not places.placed_in_sentence(text, span.start, span.end)
        ):
            span = _relabelled(span, "PERSON", GIVEN_NAME_RULE)
        out.append(span)
    return out


GIVEN_NAME_PLACED_RULE = "a-given-name-placed"
_POSSESSIVE_AFTER = re.compile(r"['’]s?\b")


def given_names_placed_as_towns(text: str, spans: list[Candidate]) -> list[Candidate]:
    """Propagation's one word, a person's given name that is a known place too,
    where its sentence places it and only a place stands there ("Georgia Pham …
    She lives in Georgia", `places.placed_in_sentence` strict; not "in Georgia's
    office"): that occurrence is the place, LOCATION (rule `a-given-name-placed`).
    The person's own occurrences keep their label; either way the text is masked."""
    out = []
    for span in spans:
        word = span.text.strip()
        if (
            span.label == "PERSON"
            and span.sources == ("propagation",)
            and " " not in word
            and places.is_known_place(word)
            and (
                places.placed_in_sentence(text, span.start, span.end, strict=True)
                or places.in_a_town_and_state(text, span.start, span.end)
            )
            and not _POSSESSIVE_AFTER.match(text, span.end)
        ):
            span = _relabelled(span, "LOCATION", GIVEN_NAME_PLACED_RULE)
        out.append(span)
    return out


# Between a given name and its surname: a space, or a line's end and the next
# line's printed number ("Odessa⏎24 Brown").
_NAME_GAP = re.compile(r"[ \t]|" + places.LINE_END + f"(?:{places.PRINTED_LINE_NUMBER})?")
SURNAME_RULE = "given-name-before-a-surname"
# A place's head word, whatever person a model took it into ("Shelby County").
_A_PLACE_S_HEAD = frozenset({"county", "parish", "township", "borough", "city"})


def _weak_place_or_institution(span: Candidate) -> bool:
    return span.label in ("LOCATION", "ORGANIZATION") and set(span.sources) <= WEAK_SOURCES


def given_names_before_surnames(text: str, spans: list[Candidate]) -> list[Candidate]:
    """A model's place or institution that is a given name, right before a person
    ("with me is Dallas Greer", "my granny, Odessa⏎24 Brown"), and where its sentence
    does not place it, opens that person's name: one PERSON. So does a place of a
    given name and a surname the document gives a person ("MS. OKOYE: Sierra Okoye,
    Grass Valley": "Sierra" opens places' names too). Rule `given-name-before-a-surname`."""
    # The last word of each person: a name of several words, or one word of letters.
    surnames = {
        s.text.split()[-1].casefold()
        for s in spans
        if s.label == "PERSON" and s.text.split() and (" " in s.text.strip() or s.text.isalpha())
    }
    out: list[Candidate] = []
    i = 0
    while i < len(spans):
        span = spans[i]
        words = span.text.split()
        if not _weak_place_or_institution(span) or not words or not is_given_name(words[0]):
            out.append(span)
            i += 1
            continue
        following = spans[i + 1] if i + 1 < len(spans) else None
        adjacent = (
            following is not None
            and following.label == "PERSON"
            and _NAME_GAP.fullmatch(text, span.end, following.start) is not None
        )
        if len(words) == 1 and words[0] in TITLES_BEFORE_A_NAME_ONLY and adjacent:
            i += 1  # "Garda" of "Garda Lavelle": the rank a model read as a body, no one's
            continue
        if (
            len(words) == 1
            and words[0] not in PROSECUTOR_LETTERS  # "ADA Barraza": the office's letters, no given name
            and adjacent
            and following.text[:1].isupper()
            and not places.placed_in_sentence(text, span.start, span.end)
        ):
            name = joined(text, [span, following], "PERSON")
            out.append(replace(name, rule=",".join(sorted({*name.rule.split(","), SURNAME_RULE} - {""}))))
            i += 2
            continue
        # In lower case no capital says the place is a name ("glen oak" a street).
        # Not an institution's head ("Marion Correctional", where a model read the
        # prison's heading as a person) nor a town the lists hold by both its words
        # ("Glen Ellyn", where "Ellyn" alone was read as a person).
        if (
            len(words) == 2
            and words[1].casefold() in surnames
            and words[0][:1].isupper()
            and words[1].casefold() not in _A_PLACE_S_HEAD | ORGANIZATION_WORDS
            and not places.is_known_place(span.text.strip())
        ):
            span = _relabelled(span, "PERSON", SURNAME_RULE)
        out.append(span)
        i += 1
    return out


def businesses_named_by_possessives(text: str, spans: list[Candidate]) -> list[Candidate]:
    """A model's or propagation's one-word person, never introduced in full, that
    someone works at in its bare possessive ("She works at Dillard's at the
    mall"): a store, an ORGANIZATION wherever the model read that word alone as a
    person. "went over to Mike's" has no employer's verb and stays a person; a
    name the document gives in full ("Ann Dillard") or writes without the
    possessive ("Marcus was there") stays one too."""
    full = {w.casefold() for s in spans if s.label == "PERSON" and len(s.text.split()) > 1 for w in s.text.split()}

    def weak_person(span: Candidate) -> bool:
        name = span.text.strip()
        return (
            span.label == "PERSON"
            and set(span.sources) <= WEAK_SOURCES
            and " " not in name
            and name.casefold() not in full
        )

    stores = {
        span.text.strip()
        for span in spans
        if weak_person(span)
        and _BARE_POSSESSIVE.match(text, span.end)
        and places.employer_context(text, span.start)
        and _always_possessive(text, span.text.strip())
    }
    return _as_organizations(spans, weak_person, stores, EMPLOYER_RULE)


def _always_possessive(text: str, name: str) -> bool:
    """Every time `name` is written, "'s" follows: "Marcus was there … works at
    Marcus's" speaks of a person too."""
    return all(
        text.startswith(("'s", "’s"), use.end())
        for use in re.finditer(rf"(?<![\w'’-]){re.escape(name)}(?![\w-])", text)
    )


def _as_organizations(
    spans: list[Candidate], weak: Callable[[Candidate], bool], names: set[str], rule: str
) -> list[Candidate]:
    """Every weak span whose name is one of `names` becomes an ORGANIZATION, its
    rule noted: one name gets one label wherever the model read it as a place."""
    if not names:
        return spans
    # The name as one line writes it, in any case: "Joseph⏎Harp" a line broke is
    # "Joseph Harp", a cover page's "RICHARD J. DONOVAN" is "Richard J. Donovan".
    forms = {_form(name) for name in names}
    return [
        _relabelled(span, "ORGANIZATION", rule) if weak(span) and _form(span.text) in forms else span for span in spans
    ]


# A clinician's degree after the name reads as a state's code: "Priya Raghunathan,
# MD" (Maryland), "Dana Cole, PA" (Pennsylvania), "Joanna Wisz, DO".
CREDENTIAL_CODES = frozenset({"MD", "PA", "DO"})
_CREDENTIAL_GAP = re.compile(r",[ \t]*")


def credentials_after_names(text: str, spans: list[Candidate]) -> list[Candidate]:
    """The spans less a weak LOCATION that is a degree's letters right after a
    person's name and a comma: after a place ("Baltimore, MD") it is the state."""
    people_end = {span.end for span in spans if span.label == "PERSON"}
    return [
        span
        for span in spans
        if not (
            span.label == "LOCATION"
            and set(span.sources) <= WEAK_SOURCES
            and span.text.strip() in CREDENTIAL_CODES
            and any(
                (gap := _CREDENTIAL_GAP.fullmatch(text, end, span.start)) is not None and gap.end() == span.start
                for end in people_end
                if span.start - 4 <= end < span.start
            )
        )
    ]
