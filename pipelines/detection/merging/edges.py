"""Span edges a reviewer can trust: no suggestion starts or ends inside a word, and
none carries a stray bracket, quote or comma, or a word that is not part of the
value ("12:33 approximately", "Smith 12").

The recognizers cut at their own token boundaries, and a tokenizer's boundary is
not always a word's; the merge also glues neighbours. These rules run on every
merged span (`ensemble.merge`), so propagation, the memory and every recognizer
get the same edges. They are general: characters and word shapes, no word list of
any document. A person's name also takes what the guideline puts in it and a
reader sees beside it: its initials ("P. Simmons") and a given name before a
surname the model took alone ("John Kornblum") or a surname after a given name it
took alone ("Darnell Hurt"); and it never ends in a lower-case word ("Lynn Reaser
of").
"""

import re
from bisect import bisect_left
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from itertools import accumulate

from pipelines.candidate import Candidate
from pipelines.detection.answers import DocumentAnswers
from pipelines.detection.case import caseless_at
from pipelines.detection.places import (
    COLUMN_GAP,
    FIELD_END,
    LINE_END,
    LINE_GAP,
    NAME_PREFIX_BREAK,
    PRINTED_LINE_NUMBER,
    barrister_s_title,
    has_institution_type,
    has_institution_word,
    institution_broken_by_a_line,
    is_known_place,
    numbered_lines_around,
    one_broken_name,
    opens_a_name,
    opens_a_turn,
    soft_wrap,
)
from pipelines.gazetteers import (
    first_names,
    is_common_word,
    is_date_word,
    is_english_word,
    is_given_name,
    is_hyphenated_given_name,
    is_known_name,
    is_person_given_name,
    is_stop_word,
    last_names,
    stop_words,
    wide_last_names,
)
from pipelines.lexicons import (
    ABBREVIATED_GIVEN_NAMES,
    ADDRESSING_WORDS,
    BODY_NAME_WORDS,
    CIVIC_OFFICE,
    COURTESY_TITLES,
    DEGREES,
    HEDGES,
    HONORIFICS,
    HONORIFICS_AFTER_A_NAME,
    INSTITUTION_HEADS,
    IRISH_PARTICLE_LINKS,
    IRISH_PARTICLES,
    KIN_TITLES,
    MONTHS,
    NAME_END_STREET_TYPES,
    NAME_PARTICLES,
    NAME_SUFFIXES_OF_ADDRESS,
    NUMBER_FIELD_ACRONYMS,
    NUMBER_WORDS,
    ORGANIZATION_WORDS,
    PARENTAGE_MARK,
    PERIOD_PARTS,
    PLACE_WORDS,
    POLICE_RANK_LETTERS,
    POST_NOMINALS,
    PROSECUTOR_LETTERS,
    REPLY_WORDS,
    REPORTER_CREDENTIALS,
    ROLE_LETTERS,
    ROLE_WORDS,
    SPEAKER_ROLES,
    TITLE_WORDS,
    TITLES_BEFORE_A_NAME_ONLY,
    TITLES_ONLY_WITH_THEIR_PERIOD,
    TRADE_WORDS,
    WEEKDAYS,
)

_PAIRS = {"(": ")", "[": "]", "{": "}", "“": "”", "‘": "’", "«": "»", '"': '"', "'": "'"}
_CLOSERS = {close: open_ for open_, close in _PAIRS.items()}
# Never part of a value at its edges. A period is: "St.", "a.m.", "Jr." (the
# suffix rule and the abbreviations keep theirs); so are "/" and "_", which a URL
# or an identifier may end with.
_EDGE_PUNCTUATION = ",;:!?*|\\-–—"
# What may follow the digits of a clock time.
_TIME_WORDS = re.compile(r"(?i)^(?:a\.?m\.?|p\.?m\.?|o'clock|noon|midnight|hours?|hrs?\.?|h|sharp)$")
# A number after a name that belongs to the words that follow ("Quentin 12 years").
_UNIT_AFTER = re.compile(r"(?i)\s+(?:years?|months?|weeks?|days?|hours?|minutes?|times|percent)\b")
_NAME_LABELS = frozenset({"PERSON", "ORGANIZATION", "LOCATION"})


def _inside_one_word(before: str, after: str) -> bool:
    """Two neighbouring characters of one word: cased letters, not a lower-case
    letter before a capital. Text pulled from a PDF glues words and numbers
    ("onMarch", "O'Brien12", "10:30hrs"): a letter against a digit, or a word
    ending against a capitalised one, is a boundary; so is any character of a
    script written without spaces or case (Chinese, Thai), where only the
    recognizer knows the word."""
    if not (before.isalpha() and after.isalpha()):
        return False
    if not (before.isupper() or before.islower()) or not (after.isupper() or after.islower()):
        return False
    return not (before.islower() and after.isupper())


def cuts_a_word(text: str, start: int, end: int) -> bool:
    """The span starts or ends inside a word ("thing" in "nothing"), or starts at a
    possessive's "s" ("MINISTER'[S COUNSEL]": the "s" is the word's before it; not
    "O'[Sullivan]", whose letter goes on)."""
    starts_inside = start > 0 and _inside_one_word(text[start - 1], text[start])
    ends_inside = end < len(text) and _inside_one_word(text[end - 1], text[end])
    return starts_inside or ends_inside or _at_a_possessive_s(text, start)


def _at_a_possessive_s(text: str, start: int) -> bool:
    return (
        2 <= start < len(text)
        and text[start] in "sS"
        and text[start - 1] in "'’"
        and text[start - 2].isalpha()
        and not text[start + 1 : start + 2].isalpha()
    )


def _strip_unpaired(text: str, start: int, end: int) -> tuple[int, int]:
    changed = True
    while changed and start < end:
        changed = False
        inside = text[start:end]
        first, last = inside[0], inside[-1]
        wrapped = len(inside) > 1 and first in _PAIRS and last == _PAIRS[first]
        if wrapped and first not in inside[1:-1] and last not in inside[1:-1]:  # '"Jones"', "(Smith)"
            start, end, changed = start + 1, end - 1, True
        elif (
            first.isspace()
            or (first in _EDGE_PUNCTUATION and not (first == "-" and inside[1:2].isdigit()))
            or (first in _PAIRS and _PAIRS[first] not in inside[1:])
        ):
            # A minus before a digit is the number's sign ("-76.34362", a longitude).
            start, changed = start + 1, True
        elif last.isspace() or last in _EDGE_PUNCTUATION or (last in _CLOSERS and _CLOSERS[last] not in inside[:-1]):
            end, changed = end - 1, True
    return start, end


def _strip_time_words(text: str, start: int, end: int) -> tuple[int, int]:
    """ "12:33 approximately" → "12:33"; "about 8:40 AM" → "8:40 AM"."""
    words = list(re.finditer(r"\S+", text[start:end]))
    if not any(ch.isdigit() for ch in text[start:end]):
        return start, end  # "noon", "half past eight": words are the value

    def extra(word: str) -> bool:
        return word.isalpha() and not _TIME_WORDS.match(word) and not any(ch.isdigit() for ch in word)

    while len(words) > 1 and extra(words[-1].group()):
        words.pop()
    while len(words) > 1 and extra(words[0].group()):
        words.pop(0)
    return start + words[0].start(), start + words[-1].end()


# A hedge at a date's edge ("Approximately 1430", "1998 or so" aside), and the
# period a date's value sits in ("the summer of 1998" → "1998"; "the 10th of May"
# keeps its day: an ordinal is no period word).
# A span may hold a line break, as a transcript wraps: any blank between words.
_HEDGE_LEAD = re.compile(rf"(?i){HEDGES}\s+(?=\S)")
_HEDGE_TAIL = re.compile(rf"(?i)[\s,]+{HEDGES}$")
_DATE_PERIOD_LEAD = re.compile(rf"(?i)the\s+(?:(?:early|late|mid|very)\s+)?{PERIOD_PARTS}\s+of\s+(?=\S)")
# The article the guideline leaves out ("the 10th of May", "the 1990s"), and a
# certificate's "this" ("this 24th day of January, 2025").
_DATE_ARTICLE = re.compile(r"(?i)(?:the|this)\s+(?=\S)")
# A count read with the date after it ("Charge two, September 2, 2011"): the
# number and its comma are the list's, the date starts at its month.
_DATE_COUNT_LEAD = re.compile(rf"(?i)(?:{NUMBER_WORDS}|\d{{1,2}}),[ \t]+(?={MONTHS}\b)")


def _strip_date_words(text: str, start: int, end: int) -> tuple[int, int]:
    """ "Approximately 1430" → "1430", "the summer of 1998" → "1998": the guideline
    takes the smallest span that holds the value."""
    return _strip_words(
        text, start, end, (_HEDGE_LEAD, _DATE_PERIOD_LEAD, _DATE_ARTICLE, _DATE_COUNT_LEAD), (_HEDGE_TAIL,)
    )


def _strip_words(
    text: str, start: int, end: int, leads: tuple[re.Pattern[str], ...], tails: tuple[re.Pattern[str], ...]
) -> tuple[int, int]:
    """[start, end) without the words `leads` match at its start and `tails` at its
    end, as often as they do; never empty (each pattern leaves a character)."""
    while (match := next((m for r in leads if (m := r.match(text, start, end))), None)) is not None:
        start = match.end()
    while match := next((m for r in tails if (m := r.search(text, start, end)) and m.start() > start), None):
        end = match.start()
    return start, end


# An age's words around its number: the guideline's AGE is the number ("I was 19
# years old" → "19", "aged 42" → "42"); the units stay readable in the export
# ("[AGE] years old").
# A form's field too: "Age: 44 y", "AGE: 31".
_AGE_LEAD = re.compile(r"(?i)(?:age|aged)(?::[ \t]*|\s+)(?:of\s+)?(?=\S)")
# (Over a printed line number too: "He was 34⏎15  years old".)
_AGE_TAIL = re.compile(r"(?i)(?:[-\s]+(?:\d{1,2}[ \t]{2,})?years?|\s+yrs?\.?)(?:[-\s]+old|\s+of\s+age)$")


# A date a model read with the age before it ("at age 14 in 1993", "age 38 (1992)"):
# the age is its own value, an AGE, and the date starts after it.
_AGE_BEFORE_DATE = re.compile(r"(?i)(?:age|aged)\s+(?:of\s+)?(?P<n>\d{1,3})\b[ \t]*(?:,|\(|in\b|on\b)?[ \t]*")


def _age_before_date(text: str, c: Candidate, start: int, end: int) -> tuple[int, Candidate | None]:
    """Where the DATE [start, end) opens with an age, the date's new start and the
    AGE; else (start, None)."""
    match = _AGE_BEFORE_DATE.match(text, start, end)
    # The rest must hold a date's number ("aged 3 months" is an age alone).
    if match is None or match.end() >= end or not any(ch.isdigit() for ch in text[match.end() : end]):
        return start, None
    a, b = match.span("n")
    return match.end(), replace(c, start=a, end=b, label="AGE", text=text[a:b], rule=f"{c.rule},an age before a date")


# An age's half belongs to it, as its gold marks it: "I was thirteen and a half.",
# "she's four and a⏎half".
_AND_A_HALF = re.compile(
    r"(?i)[ \t]+and\s+a\s+half\b"
    # (Not a measure's: "12 and a half inches long".)
    r"(?![ \t]+(?:inch|inches|feet|foot|pounds?|lbs?|miles?|hours?|minutes?|percent|cups?|ounces?|kilos?|grams?)\b)"
)


def _strip_age_words(text: str, start: int, end: int) -> tuple[int, int]:
    """The age's number without its words around it, with its half after it."""
    start, end = _strip_words(text, start, end, (_HEDGE_LEAD, _AGE_LEAD), (_AGE_TAIL, _HEDGE_TAIL))
    half = _AND_A_HALF.match(text, end)
    return start, half.end() if half is not None else end


def _take_name_prefix(text: str, start: int) -> int:
    """A saint's or an abbreviation's word at the previous line's end that opens
    this place's name ("St.⏎Louis County", `NAME_PREFIX_BREAK`): on the same
    line the recognizers take it."""
    match = NAME_PREFIX_BREAK.search(text, max(0, start - 12), start)
    if match is None or match.end() != start or not opens_a_name(text, match.start()):
        return start
    return match.start()


def _take_place_word(text: str, start: int, end: int) -> int:
    """The capitalised word before a place that makes, with it, a place the lists
    know: "United States", "New York", "South Africa" where a model read "States",
    "York", "Africa" alone."""
    match = _WORD_BEFORE.search(text, max(0, start - 20), start)
    if match is None or not is_known_place(f"{match.group(1)} {text[start:end]}"):
        return start
    return match.start(1)


# A house's number right before a street's name on its line ("1452| North Peach Avenue").
_HOUSE_NUMBER_BEFORE = re.compile(r"(?<![\w.,/-])(\d{1,6}[A-Za-z]?)[ \t]+$")


# A street's hundred block, as police reports give an address ("the 1900 block of⏎South Broadway").
_BLOCK_BEFORE = re.compile(r"(?<![\w.,/-])(\d{1,5}\s+block[ \t]+of)\s+$", re.IGNORECASE)


def _take_house_number(text: str, start: int, end: int) -> int:
    """An address is one place: the street's LOCATION takes the house's number before
    it, when its last word is a street's type ("1452 North Peach Avenue"), and the
    block's number with its words whatever the street ("the 1900 block of Broadway")."""
    if (block := _BLOCK_BEFORE.search(text, max(0, start - 24), start)) is not None:
        return block.start(1)
    words = text[start:end].split()
    if not words or words[-1].lower().rstrip(".") not in NAME_END_STREET_TYPES:
        return start
    match = _HOUSE_NUMBER_BEFORE.search(text, max(0, start - 12), start)
    return match.start(1) if match else start


def _strip_trailing_number(text: str, c: Candidate, start: int, end: int) -> tuple[int, int]:
    """A person's name never ends in a number; a place's or an organization's
    does ("Highway 101", "Local 12") unless the number belongs to what follows."""
    match = re.search(r"\s+\d+$", text[start:end])
    if match is None or match.start() == 0:
        return start, end
    if c.label == "PERSON" or _UNIT_AFTER.match(text, end) or _NEXT_LINE_S_PRINTED_NUMBER.match(match.group()):
        return start, start + match.start()  # "Ozark⏎ 6": the next line's printed number
    return start, end


def _only_a_printed_line_number(text: str, start: int, end: int) -> bool:
    """text[start:end] is a number of one or two digits opening its line, the line's
    words two blanks or more after it: the page's number for the line."""
    return (
        end - start <= 2
        and text[start:end].isdigit()
        and text[text.rfind("\n", 0, start) + 1 : start].strip() == ""
        and text.startswith("  ", end)
    )


# A line's end, then the next line's printed number and nothing more of that line.
_NEXT_LINE_S_PRINTED_NUMBER = re.compile(r"[ \t]*\n[ \t]*\d{1,2}$")


# Lower case only: "An Nguyen" is a given name, "The Hague" the place's name.
_ARTICLE = re.compile(r"(?:the|a|an)\s+(?=\S)")


# An organization's capitalised "The" too ("The Onion", "A The County Police did"):
# the guideline leaves it out, and a sentence's first word is capitalised whatever
# it is. A place keeps it ("The Hague").
_THE = re.compile(r"The\s+(?=[A-Z])")


def _strip_article(text: str, start: int, end: int, label: str) -> tuple[int, int]:
    """ "the St. Louis Delivery Service" → "St. Louis Delivery Service": the
    guideline leaves articles out of a name."""
    match = _ARTICLE.match(text, start, end) or (label == "ORGANIZATION" and _THE.match(text, start, end))
    return (match.end(), end) if match else (start, end)


# One initial right before `at`: a capital and its period, a space or none after
# ("P. Simmons", "J.R. Smith").
_INITIAL = re.compile(r"([A-Z])\.[ \t]?$")
# Nothing before a Q or A on its line but blanks and a line number: where it may be a
# turn marker ("Q. Smith, where...", "12   A. Wilson was there"; see `_Initials`).
# A printed line number, or a caption's speaker change (">> A. Yes.").
_LINE_HEAD = re.compile(r"[ \t]*(?:\d+[ \t]+)?(?:>>[ \t]*)?")
# The word right before a span, on its line, with one space between.
_WORD_BEFORE = re.compile(r"(?<![\w.'’-])([A-Z][a-z]+) $")
# In a text without case: a word in lower case, on the same line or ending the
# previous one ("shelia⏎whirley": a name a line break cut).
_WORD_BEFORE_CASELESS = re.compile(r"(?<![\w.'’-])([a-z]+)(?: |[ \t]*\n[ \t]*)$")
_LAST_WORD = re.compile(r"\s+([a-z][\w'’]*)$")
# In a text without case (in capitals too) any word may be the last.
_LAST_WORD_CASELESS = re.compile(r"\s+([^\W\d_][\w'’]*)$")


def title_letters(titles: Sequence[str]) -> frozenset[str]:
    """The one-letter titles among a language's titles ("M." for Monsieur in French):
    a title stays outside the name, so in that language it is never an initial. In
    English "M. Waugh" is an initial and a surname."""
    return frozenset(t.rstrip(".") for t in titles if len(t.rstrip(".")) == 1)


@dataclass(frozen=True, slots=True)
class _Initials:
    """What a capital and its period before a name may be besides an initial, in
    one text: one of its language's one-letter `titles`, or a turn marker at a
    line's head: "Q." always (hardly a name opens with Q), "A." where the text has
    `questions` (a line opening with "Q."); elsewhere a scorecard's "A. Ranatunga"
    is an initial."""

    titles: frozenset[str]
    questions: bool


# A question's turn marker at a line's head ("Q.", "12   Q:").
_QUESTION_MARKER = re.compile(rf"^{_LINE_HEAD.pattern}Q[.:]", re.MULTILINE)


_DEGREE_LETTERS = re.compile(r"(?:[A-Z][a-z]{0,2}\.){1,3}[ \t]*\n\s*")
_COMMA_BEFORE = re.compile(r",[ \t]*$")
_DEGREE_WORD = re.compile(r"(?P<d>[A-Za-z-]{2,6}),?[ \t]*\n\s*")


def _strip_degree_letter(text: str, start: int, end: int) -> int:
    """ "Celestine Abernathy, Ed.D.⏎Ruth Ann Brisbane": a degree after a name's
    comma, or a capital and its period right after another period ("Ed.D."), ends
    the line before the next name; it is no initial of that name."""
    letters = _DEGREE_LETTERS.match(text, start, end)
    if letters is None:
        # "Kieu Tran-Gaskin, PharmD⏎ Bo Hendrix": a degree's word ends the line before
        # the next name.
        word = _DEGREE_WORD.match(text, start, end)
        if word is None or not word.group("d")[0].isupper() or word.group("d").lower() not in DEGREES:
            return start
        return word.end() if _COMMA_BEFORE.search(text, max(0, start - 4), start) is not None else start
    # After a comma a degree has two letters at least ("Ed.D.", "Ph.D."): "Harold
    # Smith, J.⏎Robert Oppenheimer" may end a name with its initial.
    degree = text[start - 1 : start] == "." or (
        letters.group().count(".") >= 2 and _COMMA_BEFORE.search(text, max(0, start - 4), start) is not None
    )
    return letters.end() if degree else start


def _initial_before(text: str, at: int, rules: _Initials) -> int | None:
    """Where the initial ending at `at` starts, or None when there is none."""
    match = _INITIAL.search(text, max(0, at - 3), at)
    if match is None:
        return None
    begin, letter = match.start(), match.group(1)
    if begin > 0 and (text[begin - 1].isalnum() or text[begin - 1] in "'’-"):
        return None  # the end of a word or a title ("Mr.", "Dr.")
    if letter in rules.titles:
        return None
    line = text.rfind("\n", 0, begin) + 1
    if (letter == "Q" or (letter == "A" and rules.questions)) and _LINE_HEAD.fullmatch(text, line, begin):
        return None
    return begin


# An initial ending the line before a name that opens its line (past blanks and a printed
# number), after a word in lower case: prose wrapped between them ("as G.⏎  Pflueger");
# not a thing's letter after its capitalised word ("Exhibit A.⏎ 5   Smith").
_INITIAL_ENDING_THE_LINE_BEFORE = re.compile(r"(?<![^\s])[a-z]+,?[ \t]([A-Z])\.[ \t]*\n[ \t]*(?:\d{1,2}[ \t]+)?$")


# A given name written short with its period before the rest of the name
# (`lexicons.ABBREVIATED_GIVEN_NAMES`: "Ma. Teresita Magsino", "MA. TERESITA", "Wm.
# Pratt"), its period and a space at most between.
_ABBREVIATED_GIVEN_NAME = re.compile(
    r"(?<![\w.'’-])(?:"
    + "|".join(f"{w.capitalize()}|{w.upper()}" for w in sorted(ABBREVIATED_GIVEN_NAMES))
    + r")\.[ \t]?$"
)
# What a short given name may not follow: a town's comma (a state's code, "Boston, MA.
# Teresita Smith"), an article, a possessive or "to" (a degree or a mother: "holds an
# MA.", "went home to Ma. Peter was there").
_NO_SHORT_GIVEN_NAME_AFTER = re.compile(r"(?:,|\b(?i:an?|the|to|my|his|her|our|your|their))[ \t]+$")


def short_given_name_before(text: str, start: int) -> int | None:
    """Where a given name written short starts when it stands right before `start`,
    the name's next word ("Ma. |Teresita"); None where there is none. In capitals it
    opens a name in capitals only ("MA. TERESITA", not "an MA. Jennifer Lopez")."""
    short = _ABBREVIATED_GIVEN_NAME.search(text, max(0, start - 6), start)
    if short is None or not text[start : start + 1].isupper():
        return None
    if short.group().rstrip(" \t.").isupper() and not text[start : start + 2].isupper():
        return None
    if _NO_SHORT_GIVEN_NAME_AFTER.search(text, max(0, short.start() - 8), short.start()):
        return None
    return short.start()


def _take_initials(text: str, start: int, rules: _Initials) -> int:
    """Where a name starts once up to three initials (or a given name written short,
    `_ABBREVIATED_GIVEN_NAME`) before it are taken: the guideline makes contiguous
    name tokens one span, and "P." alone would leave the initial readable beside
    the placeholder."""
    begin = start
    wrapped = _INITIAL_ENDING_THE_LINE_BEFORE.search(text, max(0, start - 60), start)
    if wrapped is not None and wrapped.group(1) not in rules.titles:
        begin = wrapped.start(1)  # "in my notes as G.⏎           Pflueger": the initial the line's end left
    short = short_given_name_before(text, begin)
    if short is not None:
        begin = short
    for _ in range(3):
        found = _initial_before(text, begin, rules)
        if found is None:
            break
        begin = found
    return begin


def _strip_last_words(
    text: str, start: int, end: int, last_word: re.Pattern[str], drop: Callable[[re.Match[str]], bool]
) -> int:
    """`end` moved back over the last words (`last_word`'s group 1) that `drop(match)`
    says are no part of the name; the first word always stays."""
    while (match := last_word.search(text, start, end)) is not None and match.start() > start and drop(match):
        end = match.start()
    return end


def _strip_stop_tail(text: str, start: int, end: int) -> int:
    """ "ST. ANNE'S CHURCH IN": in a text without case a model's place or institution
    runs on into the sentence's function words, which no name ends in. After a comma
    the word is a part of its own ("INDIANAPOLIS, IN": a state's code)."""
    return _strip_last_words(
        text,
        start,
        end,
        _LAST_WORD_CASELESS,
        lambda m: m.group(1).lower() in stop_words() and text[m.start() - 1] not in ",;",
    )


# "of" and words in lower case ending a place's or an institution's span: the
# sentence read on ("Superior Court of murder"); an institution's "of" takes a name
# ("Department of Justice").
_LOWER_OF_TAIL = re.compile(r"[ \t]+of(?:[ \t]+[a-z][\w'’-]*)+$")


# A function word in lower case ending a place's or an institution's span: the
# sentence read on ("Fairland Foods on Halsey Boulevard"); no name ends in one.
_FUNCTION_TAIL = re.compile(r"[ \t]+(?:on|in|at|to|for|from|with|by|and|or|the|a|an)$")


def _strip_lower_of_tail(text: str, start: int, end: int) -> int:
    match = _LOWER_OF_TAIL.search(text, start, end) or _FUNCTION_TAIL.search(text, start, end)
    return match.start() if match else end


# An institution's name, then "in" and the town it stands in ("the Correctional
# Training Facility in Soledad", "Kootenai Health in Coeur d'Alene"): two values,
# the town a place of its own.
_IN_PLACE_TAIL = re.compile(
    r"[ \t]+in[ \t]+(?P<place>[A-Z][\w'’.-]*"
    r"(?:[ \t]+(?:[a-z]{1,3}['’]|(?:de|la|le|du|del|of)[ \t]+)?[A-Z][\w'’.-]*){0,2})$"
)


def _is_institution(name: str) -> bool:
    return has_institution_word(name) or has_institution_type(name)


def _starts_within(starts: list[int], a: int, b: int) -> bool:
    """A span (of the sorted `starts`) starts in [a, b)."""
    return bisect_left(starts, a) < bisect_left(starts, b)


def _in_place_tail(
    text: str, c: Candidate, start: int, end: int, starts: list[int]
) -> tuple[int, Candidate | None, str]:
    """(where the institution ends, the town as a LOCATION or None, the
    institution's label) for a span that names an institution (an institution
    word or type before "in": ORGANIZATION, whatever the model said) and a known
    place after it, or any name after the institution's head word; else (end,
    None, its label)."""
    match = _IN_PLACE_TAIL.search(text, start, end)
    if match is None or not _is_institution(text[start : match.start()]):
        return end, None, c.label
    a, b = match.span("place")
    # A town no list holds stands after the institution's own head word ("Plumbing in Media").
    if not (is_known_place(text[a:b]) or _is_institution(text[start : match.start()].split()[-1])):
        return end, None, c.label
    # Another span of the town alone: it names the town. A span like this one (the
    # same institution and town, from another source) is cut the same way.
    other = _starts_within(starts, match.start(), b)
    rule = f"{c.rule},the town after an institution"
    place = None if other else replace(c, start=a, end=b, label="LOCATION", text=text[a:b], rule=rule)
    return match.start(), place, "ORGANIZATION"


_FIRST_WORD = re.compile(r"([^\s.]+)\.?\s+(?=\S)")
# A role's letters with their periods before a capitalised name ("P.O. Gunnar Grund",
# "A.D.A. Ruiz"): only those no one's initials are as often ("C.O.", "I.E." are).
_DOTTED_ROLE = re.compile(r"((?:[A-Z]\.){2,4})[ \t]+(?=[A-Z])")
_DOTTED_ROLES = frozenset({"PO", *PROSECUTOR_LETTERS})
# A prosecutor's letters before a name written in mixed case ("ADA Nolan Birkholz"): in
# capitals "ADA" opens a name as often ("ADA LOVELACE:").
_PROSECUTOR_BEFORE_A_NAME = re.compile(rf"(?:{'|'.join(PROSECUTOR_LETTERS)})[ \t]+(?=[A-Z][a-z])")


# An office's "pro tem" before a name the model read with it ("Judge Pro Tem Castellano"),
# or alone (then nothing is left: "Judge Pro Tem:").
_PRO_TEM = re.compile(r"(?i)pro[ \t]+tem(?:pore)?(?:[ \t]+|$)")


# Post-nominal letters ending a person's span ("J FAIRBAIRN SC", "Starmer KC MP").
_POST_NOMINAL_TAIL = re.compile(rf"(?:[ \t]+(?:{'|'.join(sorted(POST_NOMINALS))}))+$")
# A bare initial after a title, as British and Australian records write it ("Mrs T
# Adebanjo", "MS A NWANERI"): the name's, though it has no period.
_TITLED_BARE_INITIAL = re.compile(r"\b(?i:mr|mrs|ms|miss|mx|dr|prof)\.?[ \t]+(?P<i>[A-Z])[ \t]+$")
# A grade after an office's title ("Correctional Officer II Brent Lafrenière").
_GRADE = re.compile(r"(?:II|III|IV)[ \t]+(?=\S)")
_ROLE_BEFORE = re.compile(r"(?P<role>[A-Za-z]+)[ \t]+$")


# A surname, its comma and an initial, as a log or a list writes a person ("Hagood, P.;",
# "Saltonstall, C.    Hagood, P."): the initial ends the name where a list's mark, a
# column's gap or the line's end follows, not a sentence ("Smith, A. Jones and I").
_INITIAL_AFTER_SURNAME = re.compile(r",[ \t]*[A-Z]\.(?=[*]?(?:[ \t]*[;)\]]|[ \t]{2,}|[ \t]*\n|[ \t]*$))")


def _surname_initial_after(text: str, start: int, end: int) -> int:
    """ "Smith, J.": a surname's initial after its comma; "AMARAL, Delphine M.   Page
    2": a given name's middle initial that ends its field."""
    name = text[start:end].strip()
    if " " in name:
        return end
    if (after := _INITIAL_AFTER_SURNAME.match(text, end)) is not None:
        return after.end()
    middle = _MIDDLE_INITIAL_ENDING_A_FIELD.match(text, end)
    if middle is None or not _COMMA_BEFORE.search(text, max(0, start - 4), start):
        return end
    # (A given name, or a word no common one is: "LARAMIE J" is a given name here.)
    given = is_person_given_name(name.title() if name.isupper() else name) or not is_common_word(name.lower())
    return middle.end() if given else end


# A middle initial after a given name written after its surname's comma, where its
# field ends: a column's gap, the line's end ("AMARAL, Delphine M.      DOB").
# (Not the pronoun "I" after a name said to someone: "Well, Tyrone I⏎ think".)
_MIDDLE_INITIAL_ENDING_A_FIELD = re.compile(rf"[ ](?:[A-HJ-Z]\.?|I\.)(?={FIELD_END})")


# A role's word or a number's field past a line break or a column's gap that labels a
# number ends no name ("KOVALCHICK, JERROD T.⏎Inmate No.", "Jerrod T.   Inmate NF4926"); a surname that is
# a role's word too stays ("Mary  Grand that night", "Kevin⏎Judge, and").
_ROLE_PAST_A_GAP = re.compile(r"(?:[ \t]*\n[ \t]*|[ \t]{3,})(?P<role>[A-Za-z]+)$")
_A_NUMBER_S_LABEL_AFTER = re.compile(r"[ \t]+(?:No\b|Number\b|#)|[ \t]*:|[ \t]+[A-Z0-9-]*\d")


def _strip_role_past_a_gap(text: str, start: int, end: int) -> int:
    tail = _ROLE_PAST_A_GAP.search(text, start, end)
    if tail is None or tail.start() <= start:
        return end
    if tail.group("role").lower() not in ROLE_WORDS and tail.group("role") not in NUMBER_FIELD_ACRONYMS:
        return end
    return tail.start() if _A_NUMBER_S_LABEL_AFTER.match(text, end) is not None else end


# Common words past a line break that open a form's next field end no name ("Board
# Member: Anita L. Bishop⏎Date of Birth: 05/02/1985", "Kelly Mraz⏎Interview Date:"):
# the line's words up to the field's colon, its first a common word and no given name
# (a surname that is a word too stays where no colon follows: "Kevin⏎Judge, and").
_WORDS_PAST_A_BREAK = re.compile(r"[ \t]*\n[ \t]*(?P<word>[A-Z][a-z]+)(?:[ \t]+[A-Z][a-z]+){0,2}$")
_A_FIELD_S_REST = re.compile(r"(?:[ \t]+[A-Za-z]+){0,3}[ \t]*:(?!\d)")


def _strip_field_label_past_a_break(text: str, start: int, end: int) -> int:
    tail = _WORDS_PAST_A_BREAK.search(text, start, end)
    if tail is None or tail.start() <= start or _A_FIELD_S_REST.match(text, end) is None:
        return end
    word = tail.group("word")
    # A line that ends on a given name wants its surname ("Victim's name: Kimberly
    # Ann⏎White Race: W"): a surname the lists know stays.
    last = text[start : tail.start()].split()[-1]
    if last.title() in first_names() and word in last_names():
        return end
    return tail.start() if is_common_word(word) and not is_given_name(word) else end


_A_NAME_NEXT = re.compile(r"[ \t]+[A-Z][a-zA-Z'’-]+")


def _company_form_after(text: str, end: int, covered: "_Covered") -> int | None:
    """Where a legal form right after a person-typed name ends it as a company's
    ("CUYAHOGA VERBATIM, INC."); not "Co", a surname too ("Henry Co"), nor a
    corporal's "Corp." before a name."""
    form = COMPANY_FORM.match(text, end)
    if form is None or covered.any_in(end, form.end()):
        return None
    word = form.group().strip(" \t,.").rsplit(None, 1)[-1].rstrip(".").lower()
    if word == "co" or (word == "corp" and _A_NAME_NEXT.match(text, form.end()) is not None):
        return None  # "Henry Co", "Deputy Ron Pike, Corp. Ana Ruiz": a surname, a corporal
    return form.end()


_LEADING_WORD = re.compile(r"([a-z]+)[ \t]+(?=\S)")


_MESSRS = re.compile(r"(?i:messrs)\.?[ \t]+")


def _strip_leading_function_words(text: str, start: int, end: int) -> int:
    """A name never opens with a lower-case function word ("at Rockview" of "the State
    Correctional Institution at Rockview", as the encoder may tag it); a name's
    particles stay ("de la Cruz"); nor with the title of a firm's partners ("Messrs.
    Chellaram & Lai")."""
    if (messrs := _MESSRS.match(text, start, end)) is not None and messrs.end() < end:
        start = messrs.end()
    while (word := _LEADING_WORD.match(text, start, end)) is not None:
        if word.group(1) in NAME_PARTICLES or not is_stop_word(word.group(1)):
            break
        start = word.end()
    return start


_ADDRESSING_LEAD = re.compile(
    rf"(?i:{'|'.join(map(re.escape, sorted(ADDRESSING_WORDS)))})"
    r"(?:[ \t]+(?i:you|him|her|them|me|us))?,?[ \t]+(?=[^\W\d_])"
)


def _strip_addressing_word(text: str, start: int, end: int) -> int:
    """A verb or a greeting said to or about the person, and its object pronoun, open
    no name ("Tell Mare", "to tell Willow", "Spell Thibodeaux", "Thank you, Marcus
    Lee", as the model tags them): in lower case, or with the capital of a sentence's
    opening; never in a speaker's label ("MEET PATEL:")."""
    lead = _ADDRESSING_LEAD.match(text, start, end)
    if lead is None or lead.end() >= end or _LABEL_COLON.match(text, end) is not None:
        return start
    if text[start].isupper() and not _opens_a_sentence(text, start):
        return start
    return lead.end()


_HONORIFIC_AFTER_TAIL = re.compile(
    rf"(?:[ \t]+(?:{'|'.join(sorted(map(re.escape, HONORIFICS_AFTER_A_NAME)))})\.?"
    rf"|-(?:{'|'.join(sorted(NAME_SUFFIXES_OF_ADDRESS))}))$"
)


def _strip_post_nominals(text: str, start: int, end: int) -> int:
    """The end of a name before its post-nominal letters ("J FAIRBAIRN SC", "Helen
    Crawshaw QC"), where two words at least are left: after one word the letters may
    be a surname ("MS. LI AO"), and taking them costs nothing."""
    honorific = _HONORIFIC_AFTER_TAIL.search(text, start, end)
    name = text[start : honorific.start()].split() if honorific is not None else []
    # "Pouran Khanum", "Dong-su oppa": a word of respect, after one name too; a suffix
    # joined to a name said alone ("Kim-ssi"), not to a full name's last word ("Kim Jae-nim").
    if honorific is not None and name and (not honorific.group().startswith("-") or len(name) == 1):
        return honorific.start()
    tail = _POST_NOMINAL_TAIL.search(text, start, end)
    if tail is None or len(text[start : tail.start()].split()) < 2:
        return end
    return tail.start()


def _titled_bare_initial(text: str, start: int) -> int:
    found = _TITLED_BARE_INITIAL.search(text, max(0, start - 10), start)
    return found.start("i") if found is not None else start


def _strip_grade(text: str, start: int, end: int) -> int:
    grade = _GRADE.match(text, start, end)
    if grade is None:
        return start
    role = _ROLE_BEFORE.search(text, max(0, start - 30), start)
    return grade.end() if role is not None and role.group("role").lower() in ROLE_WORDS else start


def _strip_rank(text: str, c: Candidate, start: int, end: int) -> int:
    """A rank before a name stays outside it, as the guideline keeps titles ("Prince
    Norodom Ranariddh" → "Norodom Ranariddh", "Pastor Élie Moïse" → "Élie Moïse"):
    the model's span often holds it ("CPT STERLING"). Before one word a rank that is
    a given name, or one the document says alone, may be the name's ("my sponsor is
    King White", "Baron Davis", "Major Harris … Major said"): it stays, as losing a
    given name leaks it. A kin title a relation cue read ("Auntie Lo") is no one's
    name either, unless it is a given name ("my friend Nana Mensah")."""
    if not set(c.sources) <= _READ_SOURCES:
        return start  # what a person marked or allowed keeps its words
    dotted = _DOTTED_ROLE.match(text, start, end)
    if dotted is not None and dotted.group(1).replace(".", "") in _DOTTED_ROLES:
        return dotted.end()  # "P.O. Gunnar Grund", "P.O. GRUND:": a police or probation officer
    prosecutor = _PROSECUTOR_BEFORE_A_NAME.match(text, start, end)
    if prosecutor is not None:
        return prosecutor.end()  # "ADA Nolan Birkholz"; not "ADA LOVELACE", "ADA GREENE"
    match = _FIRST_WORD.match(text, start, end)
    if match is None:
        return start
    lead = match.group(1)
    if (
        re.search(r"cue:(?:relation|called)", c.rule or "")
        and lead in KIN_TITLES
        # "Tía", "Abuela": Spanish words the lists hold as given names, titles here;
        # "Tia", "Nana" are given names too ("my friend Tia Carter").
        and (not is_given_name(lead) or not lead.isascii() or lead in ("Abuela", "Abuelo"))
    ):
        return match.end()  # "Auntie Lo", "they call him Daddy T.", "mi Tía Chayo"
    # "SHO TRUJILLO:", "CCI BRISCO:": a role in a speaker's label; "PO Gwyneth Saucier",
    # "INV. Ardoin": a role's letters before a name anywhere.
    role = (
        lead.isupper()
        and (
            (lead.lower() in SPEAKER_ROLES and len(lead) <= 4)
            or (lead.lower() in _LABEL_ROLE_WORDS and _LABEL_COLON.match(text, end) is not None)
            or (
                re.fullmatch(ROLE_LETTERS, lead) is not None
                and _LABEL_COLON.match(text, end) is not None
                # "DLC PRUSZYNSKI:"; not "KRS ONE:", "NBC NEWS:": a name's or a body's letters
                and not is_common_word((text[match.end() : end].split() or ["the"])[0])
            )
        )
    )
    if role and text[match.end() : end].strip()[:1].isupper():
        return match.end()
    if lead in POLICE_RANK_LETTERS and text[match.end() : end].strip()[:1].isupper() and _a_police_record(text):
        return match.end()  # "PC Ludlow", "DC PENDLEBURY:" where the record is the police's
    if lead.lower() in TITLES_ONLY_WITH_THEIR_PERIOD and text.startswith(f"{lead}.", start):
        return match.end()  # "Hon. Rosemary Varga", "Sri. H. N. Girish"
    if lead.lower() == "barr" and barrister_s_title(text, start + len(lead)):
        return match.end()  # "Barr. Yewande Ilori-Ashafa", "BARR. IKWUEMESI:"
    rest_words = text[match.end() : end].split()
    if lead in TITLES_BEFORE_A_NAME_ONLY and rest_words[:1] and rest_words[0][:1].isupper():
        # "Garda Caoimhe Ní Fhlaithearta"; not the force's name, "GARDA SÍOCHÁNA".
        return start if rest_words[0].lower() in BODY_NAME_WORDS else match.end()
    if lead.lower() in _GIVEN_NAME_HONORIFICS and _a_given_name_alone(text[match.end() : end]):
        return match.end()
    if lead.lower() not in HONORIFICS:
        return start
    # After a title the rank is the given name ("Inmate Major Harris").
    # Not the second word of a rank of two ("Lieutenant Colonel Julian Oakes").
    titled = _TITLE_BEFORE.search(text, max(0, start - 30), start)
    before = titled.group(1).lower().rstrip(".") if titled is not None else ""
    if before in TITLE_WORDS and before not in _COMPOUND_RANK_HEADS:
        return start
    rest = text[match.end() : end]
    # A church's or a people's office said alone is the office ("Thank you, Elder.",
    # "ELDER:", "Pastor said"), no name.
    if len(rest.split()) < 2 and (
        (_said_alone(text, lead) and not _an_office_s_rank(lead))
        or (
            is_given_name(lead)
            and lead.lower() not in COURTESY_TITLES
            and not (lead.lower() in _OFFICE_RANKS and _the_rank_titles(text, rest, lead))
            and not (lead.lower() not in _RANKS_THAT_ARE_NAMES and _titled_elsewhere(text, rest.strip(), lead))
        )
    ):
        return start
    return match.end()


# An office of a town, a county or a board before a name (lexicons.CIVIC_OFFICE).
_CIVIC_OFFICE_LEAD = re.compile(CIVIC_OFFICE + LINE_GAP + r"(?=[A-Z])")


def _strip_civic_office(text: str, c: Candidate, start: int, end: int) -> int:
    """ "Vice Mayor Benita Rush" → "Benita Rush", "COUNCIL MEMBER BAEK" → "BAEK": a
    town's or a board's office of two words stays outside the name, as a rank does."""
    if not set(c.sources) <= _READ_SOURCES:
        return start
    # The office may open before the span: a title cue took "Deputy" as a title and
    # "Mayor Rush" as the name ("Deputy Mayor Rush").
    for office in _CIVIC_OFFICE_LEAD.finditer(text, max(0, start - 25), end):
        if office.start() <= start < office.end() < end:
            return office.end()
    return start


# Portuguese and Spanish honorifics that are given names too: before a given name
# alone, the honorific ("Dona Fátima"); before more, a given name ("Dona Kay Ellis").
# Not "Don": an English given name before any other ("Uncle Don Wayne").
_GIVEN_NAME_HONORIFICS = frozenset({"dona", "doña"})


_NAME_AT = re.compile(r"[\w'’-]*")


def _a_given_name_alone(rest: str) -> bool:
    """One word, a given name no surname list holds ("Aurelio", "Fátima")."""
    name = rest.strip()
    return " " not in name and is_person_given_name(name) and name.title() not in wide_last_names()


# The first words of ranks of two words ("Lieutenant Colonel", "Brigadier General",
# "Rear Admiral", "Lance Corporal", "Staff Sergeant").
_COMPOUND_RANK_HEADS = frozenset("lieutenant lt brigadier vice rear lance staff master command first".split())


def _an_office_s_rank(lead: str) -> bool:
    """A church's or a faith's office that English writes as a common word ("Pastor",
    "Bishop", "Deacon", "Elder", "Imam"): before a surname it is the title
    ("Pastor Altidor" → "Altidor", as the guideline keeps "Commissioner Garcia"),
    though other languages give it as a given name."""
    return lead.lower() in _OFFICE_RANKS and is_common_word(lead)


_LABEL_ROLE_WORDS = ROLE_WORDS | SPEAKER_ROLES
# lexicons.POLICE_RANK_LETTERS: a rank before a name where the record speaks of the
# police.
_POLICE_WORD = re.compile(r"\b(?:[Pp]olice|POLICE|[Cc]onstab(?:le|ulary)|CONSTAB(?:LE|ULARY))\b")
_POLICE_RECORDS = DocumentAnswers()


def _a_police_record(text: str) -> bool:
    return _POLICE_RECORDS.get(text, "", lambda: _POLICE_WORD.search(text) is not None)


_BODY_OR_PLACE_WORDS = ORGANIZATION_WORDS | PLACE_WORDS
_A_RANK_S_OFFICER = re.compile(
    rf"(?:{'|'.join(sorted(POLICE_RANK_LETTERS))})[ \t]+[A-Z][\w'’-]+(?:[ \t]+[A-Z][\w'’-]+)?"
)


def _police_officers(text: str, spans: list[Candidate]) -> list[Candidate]:
    """An organization a model read of a rank's letters and a name ("PC Ludlow", its
    letters no known name) is the officer where the record is the police's; the
    rank then comes off as a person's title. Not a body's name of common words ("PC
    World", "DC Police Department"), nor anywhere outside a police record ("DS
    Smith")."""
    return [
        replace(c, label="PERSON")
        if c.label == "ORGANIZATION"
        and _A_RANK_S_OFFICER.fullmatch(c.text) is not None
        and not any(is_common_word(w) or w.lower() in _BODY_OR_PLACE_WORDS for w in c.text.split()[1:])
        and _a_police_record(text)
        else c
        for c in spans
    ]


_LABEL_COLON = re.compile(r"[ \t]*:")


# Ranks of an office (a church's, mostly) that are given names only in other
# languages ("Pastor" in Spanish): before a name they are the title. Not "King",
# "Prince", "Queen", "Lady" or "Major", which are given names here too.
_OFFICE_RANKS = frozenset(
    "pastor bishop deacon elder imam rabbi reverend rev padre monsignor msgr chaplain cardinal".split()
)
_RANK_TITLES = DocumentAnswers()
# Ranks English also gives as given names ("King Solomon Davis … King Davis", "Prince
# Kwame Mensah … Prince Mensah", "Major Anthony Simms … Major Simms"): a rank before
# another given name elsewhere does not make them a title.
_RANKS_THAT_ARE_NAMES = frozenset("king prince princess queen lady major baron duke earl".split())


def _the_rank_titles(text: str, rest: str, lead: str) -> bool:
    """ "Pastor Arne" (a given name that is no surname after the rank), or the
    document naming the same rank before another given name and this surname
    ("Pastor Odell Featherstone" beside "Pastor Featherstone"): the rank is the
    person's title, no given name of theirs."""
    name = rest.strip()
    if _an_office_s_rank(lead) and name[:1].isupper():
        return True
    if is_person_given_name(name) and name.title() not in wide_last_names():
        return True
    return _titled_elsewhere(text, name, lead)


def _titled_elsewhere(text: str, name: str, lead: str) -> bool:
    """The document names the rank `lead` before another given name and this surname
    ("General Leopold Strand" beside "General Strand" and "GENERAL STRAND:", in any
    case): the rank is the person's title."""
    if not name[:1].isupper():
        return False

    def anywhere() -> bool:
        # The words may be apart by a line's end and its printed number ("General
        # Priyanka⏎19   Venkataraman").
        gap = r"(?:[ \t]+|[ \t]*\n[ \t]*(?:\d{1,2}[ \t]+)?)"
        pattern = rf"(?<![\w'’-])(?i:{re.escape(lead)})\.?{gap}([A-Z][A-Za-z]+){gap}(?i:{re.escape(name)})(?![\w'’-])"
        # A given name the lists hold, or a word no common one is ("Priyanka").
        words = (m.group(1) for m in re.finditer(pattern, text))
        return any(is_given_name(w) or not is_common_word(w) for w in words)

    # One answer per document and name: a transcript may hold "Pastor X" a thousand times.
    return _RANK_TITLES.get(text, f"{lead} {name}", anywhere)


# What read a span: a rank is stripped from these, never from a span a person
# marked, allowed or a corpus remembers.
_READ_SOURCES = frozenset({"spacy", "presidio", "cues", "gazetteer", "propagation", "patterns"})


_TITLE_BEFORE = re.compile(r"([A-Za-z]+\.?)[ \t]+$")


_ADDRESSED_BY_A_RANK = re.compile(r"(?:[,:]|\b(?i:the))\s+$")
# An office's first word before a rank makes an office of them ("Attorney General",
# "Attorneys General", "Surgeon General", "Inspector General"): no name's rank there.
_OFFICE_S_FIRST_WORD = re.compile(
    r"(?i)\b(?:attorneys?|surgeons?|inspectors?|solicitors?|adjutants?|postmasters?|advocates?|secretary"
    r"|governor|director|auditor|comptroller|consul)[ \t]+$"
)
_WORD_AFTER_A_RANK = re.compile(rf"\.?{LINE_GAP}(\w)")
_A_QA_MARK = re.compile(r"[QA][.:][ \t]")
# A transcript may hold thousands of "Sgt. …": the answer is the document's.
_SAID_ALONE = DocumentAnswers()


def _said_alone(text: str, word: str) -> bool:
    """`word` (a rank) stands somewhere with no capitalised word after it: a name the
    document calls someone by ("my sponsor is Major Harris. Major said yes.")."""

    def anywhere() -> bool:
        for m in re.finditer(rf"(?<![\w'’-]){re.escape(word)}(?![\w'’-])", text):
            if _ADDRESSED_BY_A_RANK.search(text, max(0, m.start() - 8), m.start()) or text.startswith(",", m.end()):
                continue  # "THANK YOU, MAYOR.", "LACKEY: MAYOR, THIS", "the Mayor": the office, not a name
            if _OFFICE_S_FIRST_WORD.search(text, max(0, m.start() - 30), m.start()):
                continue  # "Assistant District Attorneys General": an office's last word
            # The name may follow on the next line, past its printed number and a
            # justified line's indent ("WISDOM TO MAYOR⏎HASKEW", "General⏎ 7      Strand").
            after = _WORD_AFTER_A_RANK.match(text, m.end(), m.end() + 40)
            if after is None or not after.group(1).isupper() or _A_QA_MARK.match(text, after.start(1)):
                return True  # (a question's or an answer's mark opening the next line is no name)
        return False

    return _SAID_ALONE.get(text, word, anywhere)


def _take_given_name(text: str, start: int, caseless: bool = False) -> int:
    """A given name right before the span ("John" in "John Kornblum") when it is
    no common English word ("Will", "Per", "May" are not taken); in a text without
    case, in lower case and also across a line break ("shelia⏎whirley")."""
    match = (_WORD_BEFORE_CASELESS if caseless else _WORD_BEFORE).search(text, max(0, start - 30), start)
    if match is None and not caseless:
        # A given name prose wrapped at its line's end ("theme music by Cleo⏎Barksdale").
        wrapped = _GIVEN_BEFORE_WRAP.search(text, max(0, start - 30), start)
        if wrapped is not None and is_person_given_name(wrapped.group(1)) and soft_wrap(text, wrapped.start(), start):
            return wrapped.start()
    if match is None:
        hyphenated = None if caseless else _HYPHENATED_GIVEN_BEFORE.search(text, max(0, start - 30), start)
        return hyphenated.start() if hyphenated is not None and is_hyphenated_given_name(hyphenated.group(1)) else start
    word = match.group(1)
    if word.lower() in COURTESY_TITLES or word in TITLES_BEFORE_A_NAME_ONLY:
        return start  # "Seu Marcelo", "Doña Chayo": another language's "Mr." or "Mrs."; a Garda's rank
    if word.lower() in _GIVEN_NAME_HONORIFICS and _a_given_name_alone(_NAME_AT.match(text, start).group()):
        return start  # "Dona Fátima": the honorific, taken off (`_strip_rank`), stays off
    if is_person_given_name(word) or (not caseless and _common_given_name_leads(text, match.start(), start, word)):
        return match.start()
    return start


_SIGNATURE_MARK = re.compile(r"/s/[ \t]*")
_GIVEN_BEFORE_WRAP = re.compile(r"(?<![\w.'’-])([A-Z][a-z]+)[ \t]*\n[ \t]*$")
# A given name hyphenated in lower case ("Sun-hee Park", "Ji-won Kim").
_HYPHENATED_GIVEN_BEFORE = re.compile(r"(?<![\w.'’-])([A-Z][a-z]+-[a-z]{2,}) $")


# A word in lower case, then the name: the capital is the name's, not a sentence's;
# not after a preposition of place or an article ("we lived in Houston Marcus Smith
# got a job", speech recognition's unpunctuated run; "a Mercedes").
_LOWER_WORD_BEFORE = re.compile(
    r"(?<![\w'’-])(?!(?:in|at|to|from|near|on|into|a|an|the|my|his|her|our|their|your)\b)[a-z][a-z'’]*,?[ \t]+$"
)


def _common_given_name_leads(text: str, at: int, start: int, word: str) -> bool:
    """A given name that is a common word ("Early", "Rusty", "Sunny") written with
    its capital inside a sentence, before a given name and a surname ("the
    sentence of Early Lee Hutchens"): the name's first. Not at a sentence's start,
    where the capital says nothing ("Early Lee Hutchens left" stays "Lee
    Hutchens")."""
    following = _NAME_WORDS.findall(text, start, start + 40)
    return (
        is_given_name(word)
        and word.lower() not in TITLE_WORDS
        and not is_date_word(word)
        and not is_known_place(word)
        and len(following) >= 2
        and is_person_given_name(following[0])
        and _LOWER_WORD_BEFORE.search(text, max(0, at - 30), at) is not None
    )


# An initial ending a sentence, then the next sentence's first word ("from Dev M. Who is
# that?"): the name ends with the initial.
_INITIAL_THEN_WORD = re.compile(r"[ \t][A-Z]\.[ \t]+(\w+)$")


def _strip_sentence_after_initial(text: str, start: int, end: int) -> int:
    tail = _INITIAL_THEN_WORD.search(text, start, end)
    if tail is not None and tail.group(1).lower() in _SENTENCE_OPENERS:
        return tail.start() + 3  # after the initial's period
    return end


# Words that open a sentence and are no surname ("Will", "May" are).
_SENTENCE_OPENERS = frozenset(
    """who what where when why how which the this that these those it he she they we i you there then and but
    or so""".split()
)


def _strip_lower_tail(text: str, start: int, end: int, caseless: bool = False) -> tuple[int, int]:
    """ "Lynn Reaser of" → "Lynn Reaser": a name with a capital does not end in a
    common lower-case word. A lower-case word that is no common word stays: it
    may be the surname ("Dana whitfield" in a chat transcript). In a text without
    case no name has a capital, and none ends in a common word either ("the
    michael brown shooting")."""
    if not caseless and not any(ch.isupper() for ch in text[start:end]):
        return start, end
    last_word = _LAST_WORD_CASELESS if caseless else _LAST_WORD

    def common(match: re.Match[str]) -> bool:
        return is_common_word(match.group(1)) and not is_known_name(match.group(1))

    return start, _strip_last_words(text, start, end, last_word, common)


# The word right after a span, on its line, with one space between ("Darnell Hurt").
_WORD_AFTER = re.compile(r" ([A-Z][a-z]+(?:-[A-Z][a-z]+)?)(?=['’]s\b|[^\w'’-]|$)")
_ONE_WORD = re.compile(r"[A-Z][a-z]+")
_WORD_ACROSS = re.compile(
    LINE_END + rf"{PRINTED_LINE_NUMBER}([A-Z][^\W\d_A-Z]+(?:-[A-Z][^\W\d_A-Z]+)?)(?=['’]s\b|[^\w'’-]|$)"
)
# After a title the name may go on over a plain line's end too ("Detective Sergeant
# Roscoe⏎Fairbanks testified"): the title says a name opened there.
_WORD_ACROSS_AFTER_A_TITLE = re.compile(
    LINE_END + rf"(?:{PRINTED_LINE_NUMBER})?([A-Z][^\W\d_A-Z]+(?:-[A-Z][^\W\d_A-Z]+)?)(?=['’]s\b|[^\w'’-]|$)"
)
# After the word the sentence goes on in lower case or stops ("Anthony⏎17   Paz of the
# Swissvale Police"): the word ended the name, it opened no new clause nor list.
_PROSE_GOES_ON = re.compile(r"['’]s\b|[ \t]+[a-z]|[.,;:)]")
_AN_OBJECT_AFTER = re.compile(r"[ \t]+(?:him|her|them|me|us|it)\b")
_MODEL_SOURCES = frozenset({"spacy", "presidio"})
# What answers or greets after a name ("Mary Yes", "John Thanks"): no surname.


def _take_surname(text: str, start: int, end: int, titled: bool = False) -> int:
    """A one-word given name takes the capitalised word right after it on its line
    ("Darnell Hurt", "Ann Green"): a surname that is also a common word the model
    left out. Not a function word, a month or a weekday, nor a word that names a
    place, an institution, a role or a title ("Jordan River", "Grace Hospital",
    "Mary Tuesday" aside). At its line's end it takes a surname the lists know
    opening the next numbered line ("was Glenda⏎24  Marsh, and she"): a numbered
    page's lines are prose wrapped, and the guideline marks such a name whole. A
    plain line's first word may open a new sentence ("it was Mary⏎Green said").
    Across the line a given name that is a surname too ("Anthony⏎17   Paz") or, after a
    title (`titled`), any one word's next word no list holds nor a common word is
    ("Forensic Examiner Tobiah⏎ 4   Quarles of our unit") is taken where the prose
    goes on after it; on its own line a titled word that is no given name takes none
    ("Detective Ruiz Dorsey" may be two people)."""
    if not _ONE_WORD.fullmatch(text, start, end):
        return end
    given = is_given_name(text[start:end])
    if not (given or titled):
        return end
    match = _WORD_AFTER.match(text, end) if given else None
    if match is None:
        match = (_WORD_ACROSS_AFTER_A_TITLE if titled else _WORD_ACROSS).match(text, end)
        word = match.group(1) if match is not None else ""
        goes_on = match is not None and _PROSE_GOES_ON.match(text, match.end()) is not None
        numbered = match is not None and _WORD_ACROSS.match(text, end) is not None
        surname = numbered and word in last_names() and (word not in first_names() or goes_on)
        # (Not a verb the lists do not know, its object after it: "Officer Bryce⏎8 Tased him".)
        verb = _AN_OBJECT_AFTER.match(text, match.end()) is not None if match is not None else False
        unlisted = (
            titled
            and goes_on
            and not verb
            and not is_common_word(word)
            and (not is_known_name(word) or word in last_names())
        )
        if (
            match is None
            or not (surname or unlisted)
            or text[match.end() : match.end() + 1] == ":"
            or not one_broken_name(text, start, match.end())
        ):
            return end
    word = match.group(1)
    if _no_surname(word) or (is_known_place(word) and not is_known_name(word)):
        return end
    return match.end()


def _no_surname(word: str) -> bool:
    """A function word, a month or a weekday, or a word that names a place, an
    institution, a role, a title or a reply: no surname after a given name."""
    lowered = word.lower()
    return (
        lowered in stop_words()
        or is_date_word(word)
        or lowered in PLACE_WORDS
        or lowered in ORGANIZATION_WORDS
        or lowered in ROLE_WORDS
        or lowered in TITLE_WORDS
        or lowered in REPLY_WORDS
    )


# A given name and a middle initial the model ended on, then the surname on the line
# ("BEFORE THE HONORABLE LORRAINE T. GASKILL"): in capitals where the name is.
_ENDS_IN_AN_INITIAL = re.compile(r"[A-Za-z'’-]{2,}[ \t]+[A-Z]\.$")
_SURNAME_AFTER = re.compile(r"[ \t]([A-Z][A-Za-z'’-]+)(?=['’]s\b|[^\w'’-]|$)")


def _take_surname_after_an_initial(text: str, start: int, end: int) -> int:
    if _ENDS_IN_AN_INITIAL.search(text, start, end) is None:
        return end
    match = _SURNAME_AFTER.match(text, end)
    if match is None:
        return end
    word = match.group(1)
    if text[start:end].isupper() != word.isupper() or (not word.isupper() and not word[1:].islower()):
        return end  # "LORRAINE T. Said" or "Lorraine T. GASKILL": no one's name in one case
    return end if _no_surname(word) else match.end()


class _Covered:
    """Which characters some span holds, built on first use (a widening is rare):
    one look per widening instead of one pass over every span per person."""

    def __init__(self, text: str, spans: list[Candidate]) -> None:
        self.size, self.spans, self.marks = len(text), spans, None
        self.person_starts: frozenset[int] | None = None

    def person_starts_at(self, position: int) -> bool:
        if self.person_starts is None:
            self.person_starts = frozenset(c.start for c in self.spans if c.label == "PERSON")
        return position in self.person_starts

    def any_in(self, start: int, end: int) -> bool:
        if self.marks is None:
            self.marks = bytearray(self.size + 1)
            for c in self.spans:
                self.marks[c.start : c.end] = b"\x01" * (c.end - c.start)
        return self.marks.find(1, start, end) != -1


def _widen_person(text: str, start: int, covered: _Covered, rules: _Initials, caseless: bool = False) -> int:
    """The person's start after taking its initials and a given name before them
    ("John P. Smith"), as far as they go, so that tidying twice changes nothing;
    never over characters another span holds."""
    widened = start
    while True:
        further = _take_given_name(text, _take_initials(text, widened, rules), caseless)
        if further == widened:
            break
        widened = further
    if widened < start and covered.any_in(widened, start):
        return start
    return widened


# A full name, then "of" and where the person is from or works ("John Casesa of
# Schroder Wertheim", "Peter Nicol of Scotland").
_OF_AFTER_NAME = re.compile(r"[A-Z][\w.'’-]*[ \t]+[A-Z][\w.'’-]*([ \t]+of[ \t]+)[A-Z]")


def _of_tail(text: str, start: int, end: int) -> tuple[int, int] | None:
    """(where the name ends, where what follows "of" starts) when a full name of two
    or more words comes before "of" in a person's span: the place or the firm is no
    part of the name ("Joan of Arc", one word, keeps it)."""
    match = _OF_AFTER_NAME.search(text, start, end)
    return (match.start(1), match.end(1)) if match is not None else None


def _tail_of(
    c: Candidate, text: str, start: int, end: int, starts: list[int], towns: frozenset[str]
) -> Candidate | None:
    """What the person's span said after "of" ("Schroder Wertheim", "Scotland"), as a
    span of its own unless another span starting there already names it: cut off
    the person, it still identifies, and must not be left readable. A span like
    this one (the same person and firm, from another source) is cut the same way."""
    if _starts_within(starts, start, end):
        return None
    # A town no list holds that a span elsewhere calls a place ("Luis Ortega of Dos
    # Palos … grew up in Dos Palos") is a place too.
    name = text[start:end]
    label = "LOCATION" if is_known_place(name) or " ".join(name.split()) in towns else "ORGANIZATION"
    return replace(c, start=start, end=end, label=label, text=text[start:end])


def _place_or_institution(
    text: str, c: Candidate, bounds: tuple[int, int], starts: list[int], covered: _Covered, caseless: bool
) -> tuple[int, int, Candidate | None, str]:
    """A place's or an institution's edges: (start, end, the town cut off after it
    or None, its label)."""
    start, end = _strip_article(text, *bounds, c.label)
    end = _strip_stop_tail(text, start, end) if caseless else _strip_lower_of_tail(text, start, end)
    named, label = None, c.label
    if not caseless:
        end, named, label = _in_place_tail(text, c, start, end, starts)
    # "Kootenai Health in": the model's place, cut to its name, is an institution
    # by its type, as `spacy_ner.corrected_label` reads the whole.
    if label == "LOCATION" and end < c.end and has_institution_type(text[start:end]):
        label = "ORGANIZATION"
    further = _institution_on_the_next_line(text, start, end, covered) if not caseless and end == c.end else end
    if further > end:
        end, label = further, "ORGANIZATION"
    if label == "ORGANIZATION" and not caseless:
        start, end = _widen_institution(text, start, end, c.end, covered)
        start = _take_unit_s_ordinal(text, start, end, covered)
    if (prefix := _take_name_prefix(text, start)) < start and not covered.any_in(prefix, start):
        start = prefix
    if c.label == "LOCATION":
        for taken in (_take_place_word(text, start, end), _take_house_number(text, start, end)):
            if taken < start and not covered.any_in(taken, start):
                start = taken
    return start, end, named, label


# A unit's or a district's ordinal before its name ("2d Armored Brigade Combat Team",
# "4th Infantry Division", "the 10th Special Forces Group"): the Army writes "2d" and
# "3d". Not a date's day ("March 4th Police Department", "the 4th, Police came").
_UNIT_S_ORDINAL = re.compile(r"(?<![\w/.,-])\d{1,3}(?:st|nd|rd|th|d)[ \t]+$")
_MONTH_BEFORE = re.compile(rf"\b{MONTHS}[ \t]+$")


# The words that make a name a numbered unit's or district's: "the 60th NATO
# conference" numbers a meeting, no NATO.
_UNIT_WORDS = frozenset(
    """regiment battalion brigade division company platoon squadron wing group team corps fleet precinct district
    circuit ward infantry cavalry artillery airborne battery troop detachment squad""".split()
)


def _take_unit_s_ordinal(text: str, start: int, end: int, covered: "_Covered") -> int:
    ordinal = _UNIT_S_ORDINAL.search(text, max(0, start - 8), start)
    if ordinal is None or covered.any_in(ordinal.start(), start):
        return start
    if not {w.strip(".,()").lower() for w in text[start:end].split()} & _UNIT_WORDS:
        return start
    if _MONTH_BEFORE.search(text, max(0, ordinal.start() - 12), ordinal.start()):
        return start
    return ordinal.start()


# A company's legal form after its name, a comma before it or not ("Midland Credit
# Management, LLC", "FUND III, LLC", "HOLDINGS 2 LLC"); a proprietary company's in
# South Africa, India, Australia, Singapore, Malaysia ("Kwezi Logistics (Pty) Ltd",
# "Infotech Pvt. Ltd.", "Lim Holdings Pte Ltd", "Tan Bina Sdn Bhd").
COMPANY_FORM = re.compile(
    r",?[ \t]+(?:(?:[IVX]{1,4}|\d{1,3}),?[ \t]+)?"
    r"(?:\((?i:pty|pvt)\)[ \t]+(?:Ltd\.?|LTD\.?|Limited|LIMITED)"
    r"|(?:Pty|PTY|Pvt|PVT|Pte|PTE)\.?[ \t]+(?:Ltd|LTD)\.?|(?:Sdn|SDN)\.?[ \t]+(?:Bhd|BHD)\.?|"
    r"L\.?L\.?C\.?|L\.?L\.?P\.?|PLLC|Inc\.?|INC\.?|Ltd\.?|LTD\.?|Limited|LIMITED|Corp\.?|CORP\.?|Co\.?|CO\.?|"
    r"L\.P\.|LP|plc|PLC|GmbH)(?![\w-])"
)
# The next word after an organization's name: a capitalised word on the same line,
# "&" and one ("Baylor Scott & White"), "of" and one ("International Brotherhood of
# Magicians"); after a dangling "of" the name goes on on the next line ("Georgia
# Department of⏎    Juvenile Justice").
_CAPITAL = "A-ZÀ-ÖØ-Þ"
_WORD = rf"(?P<word>[{_CAPITAL}][\w'’-]*(?:\.[\w'’-]+)*)"
_ORG_WORD_AFTER = re.compile(r"[ \t]+(?P<join>(?:&|(?:of|OF)(?:[ \t]+(?:the|THE))?)[ \t]+)?" + _WORD)
_ORG_WORD_NEXT_LINE = re.compile(f"{LINE_END}(?:{PRINTED_LINE_NUMBER})?{_WORD}")
# The capitalised word before an organization's name on its line.
_ORG_WORD_BEFORE = re.compile(rf"(?<![\w'’.&-])(?P<word>[{_CAPITAL}][\w'’-]*)[ \t]+$")
# What ends the text before a word that opens a sentence; a line's label or a
# question's or an answer's mark before it; a printed line number before it is the page's.
_SENTENCE_END = re.compile(r"(?:[.!?:;\"“(\[]|--)$")
_TURN_MARK = re.compile(r"(?:^|\n)[ \t]*(?:[QA]\.?|[A-Z][A-Z .'’-]{0,60}:)[ \t]*$")
_NUMBERED_LINE_START = re.compile(rf"(?:^|\n)[ \t]*{PRINTED_LINE_NUMBER}$")


def _opens_a_sentence(text: str, at: int) -> bool:
    """Does the word at `at` open a sentence or a turn (where any word is
    capitalised)? What comes before it, across a line's end ("the⏎Full Gospel
    Church" does not), says."""
    before = text[max(0, at - 200) : at]
    if (number := _NUMBERED_LINE_START.search(before)) is not None:
        before = before[: number.start() + 1]
    stripped = before.rstrip()
    paragraph = before[len(stripped) :].count("\n") >= 2
    return (
        not stripped or paragraph or _SENTENCE_END.search(stripped) is not None or _TURN_MARK.search(before) is not None
    )


# An organization's span ending in the word that joins it to the rest of its name.
_DANGLING_JOIN = re.compile(r"[ \t]+(?:of(?:[ \t]+the)?|OF(?:[ \t]+THE)?|&|and|for)$")


def ends_in_a_join(name: str) -> bool:
    """ "Housing Authority of the County of", "Baylor Scott &": the rest of the name
    follows (the merge joins the span after it)."""
    return _DANGLING_JOIN.search(name) is not None


# A number or a letter after a word: a document's or a law's ("Exhibit 2", "Exhibit
# A", "Senate Bill 318", "Case No. 24"), no organization's, but for a union's local
# or a veterans' post, whose number is its name ("Teamsters Local 4412").
_NUMBER_AFTER = re.compile(r"[ \t]+(?:\d[\d-]*\b|No\.|Nos?\b|#|[A-Z](?![\w'’-]))")
_NUMBERED_UNITS = frozenset({"local", "lodge", "post", "chapter"})
# Words that join, point, answer or tell, capitalised or not, and never go on a name;
# not every stop word: a name holds "First", "Full", "Two" ("Two Harbors Clinic").
_FUNCTION_WORDS = frozenset(
    "the a an i and or but nor so of for to in at on by with from as than that this these those is was are "
    "were be been it its he she we they you his her our their my your me him us them who which what no nos "
    "number then now also still just yesterday today tomorrow hey say says said tell told ask asked".split()
)
# A company's posts, which follow its name in a sentence ("Apple CEO Tim Cook",
# "a Vestas spokeswoman") and are no part of it.
_POSTS = frozenset(
    "ceo cfo coo cto chairman chairwoman spokesman spokeswoman spokesperson founder cofounder co-founder "
    "director manager owner employee employees worker workers".split()
)
_POSSESSIVE_END = re.compile(r"['’]s?$")
# A name of a dozen words at most: the bound keeps a line of thousands of
# capitalised words linear.
MAX_WIDENED_WORDS = 12
# How far around an organization its line is read for lower case (a heading is all
# capitals): bounded, so that a line of a million characters costs no more.
_HEADING_REACH = 200


def _org_word(text: str, word: str, end: int, capitals: bool, after_of: bool = False, onward: bool = False) -> bool:
    """A word that goes on an organization's name: an institution's word, or any
    capitalised word but a function, reply or date word, a role, a post or a title
    ("Apple CEO", "Defendants SwiftRoute"), a field's label ("CDCR Number:") and a
    document's or a law's word before its number or letter. In `capitals` (a
    heading, a speaker label, a name in capitals beside a word in capitals) an
    institution's word only ("… UNIFIED SCHOOL DISTRICT", not "NICU ADMISSION NOTE"),
    since every word there looks like a name's."""
    lowered = word.lower().rstrip(".")
    if text[end : end + 1] == ":" or (_NUMBER_AFTER.match(text, end) is not None and lowered not in _NUMBERED_UNITS):
        return False
    if lowered in ORGANIZATION_WORDS:
        return True
    bare = _POSSESSIVE_END.sub("", lowered)
    singular = bare[:-1] if bare.endswith("s") else bare
    return not (
        capitals
        or bare in _FUNCTION_WORDS
        or bare in REPLY_WORDS
        or is_date_word(bare)
        or is_date_word(singular)
        or (
            not after_of
            and {bare, singular} & (ROLE_WORDS | HONORIFICS | TITLE_WORDS | _POSTS)
            # Going on from the name: "County" + "Sheriff's Department"; a title before
            # the name stays out ("Detective Corporal" + "Service").
            and not (onward and _an_office_of(text, end))
        )
    )


def _an_office_of(text: str, end: int) -> bool:
    """An institution's word follows the title's ("County Sheriff's Department",
    "Sheriff Court"): the title names its office there, not a person."""
    after = _ORG_WORD_AFTER.match(text, end)
    if after is None or after.group("join"):
        return False
    return _POSSESSIVE_END.sub("", after.group("word").lower().rstrip(".")) in ORGANIZATION_WORDS


def _takes_of(text: str, start: int, after: re.Match[str]) -> bool:
    """The word comes right after "of" ("Department of Justice": a title's word
    there is the institution's subject, not a person's title)."""
    join = after.groupdict().get("join")
    return bool(join and join.strip().lower().startswith("of")) or ends_in_a_join(text[start : after.start()])


def _before_a_span(text: str, end: int, covered: _Covered) -> bool:
    after = _ORG_WORD_AFTER.match(text, end) or _ORG_WORD_NEXT_LINE.match(text, end)
    return after is not None and covered.any_in(after.start("word"), after.end())


def _before_a_person(text: str, end: int, covered: _Covered) -> bool:
    """A word right before a person ("Google Sarah| Jones") is that person's (a
    given name before the surname), not the organization's."""
    return text[end : end + 1] in (" ", "\t") and covered.person_starts_at(end + 1)


# The words opening the next line after a place or an institution ("St. Louis⏎Delivery Service").
_NEXT_LINE_WORDS = re.compile(
    f"{LINE_END}(?:{PRINTED_LINE_NUMBER})?" + rf"[{_CAPITAL}][\w'’-]*(?:[ \t]+[{_CAPITAL}][\w'’-]*){{0,3}}"
)
# What may end an institution's name a line's end broke: the heads of an institution
# and of a trade; a word that is a thing's too ("Home", "Unit") only as below.
_BROKEN_NAME_HEADS = (
    frozenset(w.lower() for w in INSTITUTION_HEADS)
    | TRADE_WORDS
    | {
        "service",
        "center",
        "centre",
        # "Penwood Basic⏎School", "Hunts Bay Police⏎Station": a school's and a station's
        # name, capitalised after a name on the line above.
        "school",
        "station",
        # A clinic's, an insurer's and a firm's last words ("Piedmont⏎Family Urgent Care",
        # "Blue Ridge⏎Casualty", "Fort⏎ 5   Sanders Regional", "Guilford⏎County EMS",
        # "Penn Street⏎13   Recovery Associates"), and trades' ("Ozark⏎Mountain Poultry").
        "care",
        "healthcare",
        "health",
        "medical",
        "regional",
        "pediatrics",
        "dental",
        "ems",
        "casualty",
        "associates",
        "poultry",
        "drywall",
        "grill",
    }
)


def ends_an_institution(name: str) -> bool:
    """The name's last word heads an institution or a trade (`_BROKEN_NAME_HEADS`):
    "Family Urgent Care", "Recovery Associates", "Mountain Poultry"."""
    words = name.split()
    return bool(words) and words[-1].lower() in _BROKEN_NAME_HEADS


# "Home" heads a home's name only after the kind of home ("Lindell-Brown⏎Funeral Home").
_WORD_BEFORE_A_HOME = re.compile(r"([\w'’]+)\s+$")
_KINDS_OF_HOME = frozenset({"funeral", "nursing", "group", "care", "foster", "rest", "retirement", "children's"})


# "Post Office Box 5147" is an address's box, no office of the name above it.
_MAIL_BOX_AFTER = re.compile(r"[ \t]+(?i:box)\b")


def _institution_on_the_next_line(text: str, start: int, end: int, covered: _Covered) -> int:
    """Where an institution whose name a line's end broke ends, when a model read
    only its first line ("I worked for St. Louis⏎Delivery Service for three
    years"): the next line's capitalised words up to the last that heads an
    institution, not a field's label ("Court date:"), the next line going on
    rather than opening a turn (`places.institution_broken_by_a_line`); else `end`."""
    words = _NEXT_LINE_WORDS.match(text, end)
    if words is None or covered.any_in(end, words.end()):
        return end
    for word in reversed(list(re.finditer(rf"[{_CAPITAL}][\w'’-]*", text[end : words.end()]))):
        further = end + word.end()
        at = end + word.start()
        kind = _WORD_BEFORE_A_HOME.search(text, max(0, at - 40), at) if word.group() == "Home" else None
        home = kind is not None and kind.group(1).lower().replace("’", "'") in _KINDS_OF_HOME
        if (
            (word.group().lower() in _BROKEN_NAME_HEADS or home)
            and text[further : further + 1] != ":"
            and _MAIL_BOX_AFTER.match(text, further) is None
            and institution_broken_by_a_line(text, start, further)
        ):
            return further
    return end


def _widen_institution(text: str, start: int, end: int, own_end: int, covered: _Covered) -> tuple[int, int]:
    """An organization's name as far as it goes, where a model stopped short
    ("Kestrel Legal" of "Kestrel Legal Transcription", "Midland Credit" of
    "Midland Credit Management, LLC", "Housing Authority of the County of"): its
    legal form, the capitalised words after it on its line (one "&" at most: two
    are a list), a dangling "of" and the name it takes, and one capitalised word
    before it that opens no sentence ("the Full Gospel Church"). Never over another
    span's characters (the span's own, up to `own_end`, are its own: tidying twice
    changes nothing); a span ending in "of" that nothing completes loses it."""
    line_start = text.rfind("\n", 0, start) + 1
    line_end = text.find("\n", end)
    line_end = len(text) if line_end < 0 else line_end
    around = text[max(line_start, start - _HEADING_REACH) : min(line_end, end + _HEADING_REACH)]
    heading = not any(ch.islower() for ch in around)

    def capitals(word: str) -> bool:
        return heading or (len(word) > 1 and word.isupper() and text[start:end].isupper())

    def free(a: int, b: int) -> bool:
        return b <= own_end or not covered.any_in(max(a, own_end), b)

    ampersands = text[start:end].count("&")
    taken = end  # where the last word that is surely the name's ends
    for _ in range(MAX_WIDENED_WORDS):
        form = COMPANY_FORM.match(text, end)
        if form is not None and free(end, form.end()):
            end = taken = form.end()
            if text[end - 1] == ".":  # "Inc." may end a sentence: only another form goes on
                further = COMPANY_FORM.match(text, end)
                end = taken = further.end() if further is not None and free(end, further.end()) else end
                break
            continue
        after = _ORG_WORD_AFTER.match(text, end)
        next_line = after is None and ends_in_a_join(text[start:end])
        if next_line:
            after = _ORG_WORD_NEXT_LINE.match(text, end)
        if after is None or not free(end, after.end()):
            break
        word = after.group("word")
        if next_line and (len(word) < 2 or opens_a_turn(text, text.rfind("\n", 0, after.start("word")) + 1)):
            break
        # The next line's word has no join of its own (it follows the line's dangling one).
        if "&" in (after.groupdict().get("join") or ""):
            ampersands += 1
        if (
            ampersands > 1
            or _before_a_person(text, after.end(), covered)
            or not _org_word(text, word, after.end(), capitals(word), _takes_of(text, start, after), onward=True)
        ):
            break
        end = after.end()
        if _POSSESSIVE_END.search(word) is None:
            taken = end  # a possessive is the name's only if a word follows ("Sheriff's Department")
        if word.lower() in _NUMBERED_UNITS and (number := _NUMBER_AFTER.match(text, end)):
            end = taken = number.end()
            break
    end = max(taken, min(end, own_end))
    # A dangling "of" before another span stays for the merge to join the two
    # ("Housing Authority of the County of" + "San Joaquin").
    if (dangling := _DANGLING_JOIN.search(text, start, end)) is not None and not _before_a_span(text, end, covered):
        end = dangling.start()
    before = _ORG_WORD_BEFORE.search(text, max(line_start, start - 30), start)
    if (
        before is not None
        and not heading
        and not _opens_a_sentence(text, before.start())
        and not covered.any_in(before.start(), start)
        and _org_word(text, before.group("word"), before.end("word"), capitals(before.group("word")))
    ):
        start = before.start()
    return start, end


# A printed line number opening a name's line ("Mule⏎ 3  Creek" read as "3  Creek").
_LINE_NUMBER_LEAD = re.compile(PRINTED_LINE_NUMBER + r"(?=[^\W\d_])")


def _opens_its_line_with_a_digit(text: str, start: int) -> bool:
    """The span starts its line (blanks aside) with a digit: where a printed line
    number would stand."""
    return text[start : start + 1].isdigit() and not text[text.rfind("\n", 0, start) + 1 : start].strip()


# A printed line number, its blanks, then a house's number ("9      131 Allander Street").
_LINE_NUMBER_BEFORE_A_FIGURE = re.compile(r"(\d{1,2})[ \t]{2,}(?=\d)")


def _strip_line_number(text: str, start: int, end: int) -> int:
    """A name that opens with its line's printed number starts after it; so does an
    address, where the lines around carry the numbers before and after it."""
    if not _opens_its_line_with_a_digit(text, start):
        return start
    number = _LINE_NUMBER_LEAD.match(text, start, end)
    if number is not None:
        return number.end()
    printed = _LINE_NUMBER_BEFORE_A_FIGURE.match(text, start, end)
    if printed is not None and numbered_lines_around(text, start, int(printed.group(1))):
        return printed.end()
    return start


# A page's printed line number, two blanks or more after it, and a question's or a
# speaker's mark: what opens a numbered transcript's line before its words.
_PRINTED_LEAD = re.compile(r"\d{1,2}[ \t]{2,}(?:(?:[QA]\.|[A-Z][A-Z .'’-]{0,60}:)[ \t]+)?")


def _strip_printed_lead(text: str, start: int, end: int) -> int:
    """A date or a time that opens with its line's printed number ("12  March 9th",
    "20       A.   March 14th of 2022") starts after it; one that is only that
    number ("17" before "      at the offices") is none (an empty span)."""
    if not _opens_its_line_with_a_digit(text, start):
        return start
    lead = _PRINTED_LEAD.match(text, start)
    if lead is None or not numbered_lines_around(text, start, int(text[start : lead.end()].split()[0])):
        return start
    # What a model read with the number ("12  today", "15  first") is no date of its
    # own unless it holds a number or a day's or a month's name.
    if not _A_DATE_S_WORD.search(text, lead.end(), end):
        return end
    return min(lead.end(), end)


_A_DATE_S_WORD = re.compile(rf"\d|\b(?i:{MONTHS}|{WEEKDAYS})\b")


_QUOTES = re.compile(r"[\"“”]")


# A name written surname first, a comma between ("PENNY, Jalen B.", "Cash, Delphine"):
# the guideline's comma-separated parts are separate spans, the surname one and the
# given names another (`_surname_then_given` says which commas are such).
_SURNAME_COMMA_GIVEN = re.compile(
    r"(?P<a>[^\W\d_][\w'’.-]*(?:[ ][^\W\d_][\w'’.-]*){0,2}),[ \t]+(?P<b>[^\W\d_][\w'’.-]*(?:[ ][\w'’.-]+){0,3})"
)


def _split_at_commas(text: str, spans: list[Candidate]) -> list[Candidate]:
    """A person's name read whole across its comma, surname first, as two names."""
    out: list[Candidate] = []
    for c in spans:
        # Judged without the brackets, quotes and punctuation around it, which the rest
        # of `tidy` takes off: tidying twice changes nothing.
        inner = c.text.strip(_AROUND_A_NAME)
        offset = c.start + c.text.index(inner) if inner else c.start
        match = _SURNAME_COMMA_GIVEN.fullmatch(inner) if c.label == "PERSON" and inner else None
        if match is None or not set(c.sources) <= _READ_SOURCES or not _surname_then_given(match):
            out.append(c)
            continue
        # A given name the lists hold after the comma makes the shape a cue of its own.
        after = match.group("b").split()[0]
        cued = is_person_given_name(after.title() if after.isupper() else after)
        # Each half keeps the brackets and punctuation on its side for `tidy` to take off.
        surname_end, given_start = offset + match.end("a"), offset + match.start("b")
        for start, end in ((c.start, surname_end), (given_start, c.end)):
            piece = replace(c, start=start, end=end, text=text[start:end])
            out.append(surname_first_part(piece) if cued else piece)
    return out


_AROUND_A_NAME = " \t\n,;:()[]\"'“”‘’"
# What after a comma is no given name: a generation's or a degree's letters, a court
# reporter's credentials, a role, a reply ("King, Jr.", "Ruiz, MD", "Skeet, CSR",
# "Skeet, Transcriber"); nor is a reply a surname ("Yes, Maria").
_AFTER_A_NAME_S_COMMA = (
    frozenset({"jr", "sr", "ii", "iii", "iv", "v", "esq", "esquire"}) | DEGREES | REPORTER_CREDENTIALS | ROLE_WORDS
)


def _surname_then_given(match: re.Match[str]) -> bool:
    """The words before the comma a surname, after it given names: not a surname and
    its initials alone ("OYAMA, D", "Hagood, P.", "ROBERTS, C.J."), which stay one
    name, nor letters, a role or a reply after it."""
    surname, after = match.group("a"), match.group("b").split()[0]
    bare = after.replace(".", "").lower()
    if len(bare) <= 1 or "." in after or bare in _AFTER_A_NAME_S_COMMA or bare.upper() in POST_NOMINALS:
        return False
    reply = surname.lower() in REPLY_WORDS or bare in REPLY_WORDS
    return not reply and (surname.title() in wide_last_names() or not is_common_word(surname.lower()))


def surname_first_part(c: Candidate) -> Candidate:
    """One name of a name written surname first ("PETROVIC" or "NADIA M." of
    "PETROVIC, NADIA M."): the comma between a surname and a given name the lists
    hold is a cue, as a title is; each part keeps the confidence the whole had."""
    if "cues" in c.sources:
        return c
    rule = f"{c.rule},cue:surname_first" if c.rule else "cue:surname_first"
    return replace(c, sources=tuple(sorted({*c.sources, "cues"})), rule=rule)


def _split_at_quotes(text: str, spans: list[Candidate]) -> list[Candidate]:
    """A name whose quotes do not pair inside it ('James "Jimmy' of 'James "Jimmy"
    Hoffa', the model stopping inside the nickname) is cut at its quotes into its
    names; merging joins a nickname in quotes back into the whole name."""
    out: list[Candidate] = []
    for c in spans:
        quotes = _QUOTES.findall(c.text) if c.label == "PERSON" else []
        if not quotes or (len(quotes) == 2 and quotes[0] in '"“' and quotes[1] in '"”'):
            out.append(c)
            continue
        for piece in re.finditer(r"[^\"“”]+", c.text):
            start, end = c.start + piece.start(), c.start + piece.end()
            start, end = _strip_unpaired(text, start, end)
            if start < end:
                out.append(replace(c, start=start, end=end, text=text[start:end]))
    return out


# A South Asian record's parentage and marriage between two people's names: "son of",
# "daughter of", "wife of" ("Sahib Khan s/o Gul Nawaz", "Kavya W/o Ravikumar").
_PARENTAGE = re.compile(rf"[ \t\n]+({PARENTAGE_MARK})[ \t\n]+")
# A model's span that stops inside the marker ("Muhammad Ishaq s" of "… s/o Feroz Din").
_PARENTAGE_CUT = re.compile(r"[ \t]+[SsDdWwRr]$")


def _split_at_parentage(text: str, spans: list[Candidate]) -> list[Candidate]:
    """A person's span across "s/o", "d/o" or "w/o" as the two people it names: a
    Pakistani or Indian record's "Muhammad Ishaq s/o Feroz Din". A Tamil name of one
    given name and the father's, as Singapore registers it ("Rajendran s/o
    Pakirisamy"), is one name and stays whole; a wife is never part of a name."""
    out: list[Candidate] = []
    for c in spans:
        match = _PARENTAGE.search(c.text) if c.label == "PERSON" else None
        cut = _PARENTAGE_CUT.search(c.text) if c.label == "PERSON" and match is None else None
        if cut is not None and text[c.end : c.end + 2].lower() == "/o":
            c = replace(c, end=c.start + cut.start(), text=c.text[: cut.start()])  # "Muhammad Ishaq s|/o"
        if match is None:
            out.append(c)
            continue
        before, after = c.text[: match.start()], c.text[match.end() :]
        if match.group(1).lower() != "w/o" and len(before.split()) < 2 and len(after.split()) < 2:
            out.append(c)
            continue
        # The rest may name a grandfather in turn ("Ali Khan s/o Ahmed Raza s/o Gul Din"):
        # each marker parts two people (a loop, not a call per marker: a hostile chain
        # of thousands would exhaust the stack).
        at = c.start
        for marker in _PARENTAGE.finditer(c.text):
            out.append(replace(c, start=at, end=c.start + marker.start(), text=text[at : c.start + marker.start()]))
            at = c.start + marker.end()
        out.append(replace(c, start=at, text=text[at : c.end]))
    return [piece for piece in out if piece.start < piece.end]


# An Irish surname's particle written apart, with "an" or "Giolla" after it ("Ó Gaora",
# "Ní Fhlaithearta", "Mac an Iomaire", "Nic Giolla Easpaig"), right before a name, on
# its line or at the end of the line before ("Garda Ó⏎17    Cadhain").
# Two of them after a married woman's "Bean" ("Bean Uí Mhic Fhlannchadha"). Across a
# line's end not "Mac" alone, a computer too ("a Mac⏎12 Henderson").
_IRISH_PARTICLE_UNIT = rf"(?:{'|'.join(IRISH_PARTICLES)})(?:[ \t]+(?:{'|'.join(IRISH_PARTICLE_LINKS)}))?"
_IRISH_PARTICLE_AT_A_LINE_END = "|".join(p for p in IRISH_PARTICLES if p.lower() != "mac")
_IRISH_PARTICLE_BEFORE = re.compile(
    rf"(?<![\w'’-])(?:{_IRISH_PARTICLE_UNIT}(?:[ \t]+{_IRISH_PARTICLE_UNIT})?[ \t]+"
    rf"|(?:{_IRISH_PARTICLE_AT_A_LINE_END})[ \t]*\n[ \t]*\d{{0,3}}[ \t]*)$"
)
# How far before a particle the spans that may hold it are looked for one by one.
_NEAR = 200
# The surname's first letter after its particle, an Irish mutation's lower-case
# letter before it or not ("Ó hAodha", "Nic an tSaoi").
_IRISH_SURNAME_OPENS = re.compile(r"[hnt]?[A-ZÀ-Þ]")


def _with_irish_particles(text: str, spans: list[Candidate]) -> list[Candidate]:
    """A person's span a model began after its surname's Irish particle, begun at the
    particle: "Mr Ó Gaora" is "Ó Gaora", as the name is written. A person's span
    lying inside the particle (a cue's "Mac" of "DPP v Mac an Iomaire", a model's
    "Giolla" of "Nic Giolla Easpaig") goes into it; any other span there (a place, a
    longer name) keeps the particle its own."""
    order = sorted(range(len(spans)), key=lambda i: spans[i].start)
    starts = [spans[i].start for i in order]
    # The furthest end among the spans before each position in `order`: a span opening
    # far before the particle and reaching into it is found without a scan.
    reach = list(accumulate((spans[i].end for i in order), max, initial=-1))
    current: dict[int, Candidate] = {}  # the spans grown so far, by their index
    absorbed: set[int] = set()
    for i in order:
        c = spans[i]
        if c.label != "PERSON" or _IRISH_SURNAME_OPENS.match(c.text) is None or i in absorbed:
            continue
        particle = _IRISH_PARTICLE_BEFORE.search(text, max(0, c.start - 30), c.start)
        if particle is None:
            continue
        # The spans that reach into the particle: the near ones, or one from afar.
        lo = bisect_left(starts, particle.start() - _NEAR)
        if reach[lo] > particle.start():
            continue  # a long span holds the particle
        near = order[lo : bisect_left(starts, c.start)]
        inside = [j for j in near if j not in absorbed and current.get(j, spans[j]).end > particle.start()]
        if any(
            spans[j].label != "PERSON" or current.get(j, spans[j]).start < particle.start() or spans[j].end > c.start
            for j in inside
        ):
            continue
        absorbed.update(inside)
        current[i] = replace(c, start=particle.start(), text=text[particle.start() : c.end])
    return [current.get(i, c) for i, c in enumerate(spans) if i not in absorbed]


# A span of two clocks or two dates, which the guideline marks as two ("from 1:00 to
# 5:00"): "10:04 to 10:16 a.m.", "15:06-15:31", "March 20 through March 23".
_CLOCK = r"\d{1,2}:\d\d(?:[ \t]*[ap]\.?m\.?)?"
_MONTH_DAY = rf"{MONTHS}[ \t]+\d{{1,2}}(?:st|nd|rd|th)?(?:,?\s+(?:\d{{1,2}}[ \t]+)?\d{{4}})?"
_YEAR_OR_NUMERIC = r"(?:19|20)\d\d|\d{1,2}/(?:\d{1,2}/)?\d{2,4}"
_RANGE = re.compile(
    rf"(?i)(?P<a>{_CLOCK})[ \t]*(?:to|until|till|through|-|–|—)[ \t]*(?P<b>{_CLOCK})"
    rf"|(?P<c>{_MONTH_DAY})[ \t]+(?:to|until|till|through)[ \t]+(?P<d>{_MONTH_DAY})"
    # Two years, two numeric dates ("2011 to 2019", "05/2021-09/2023").
    rf"|(?P<e>{_YEAR_OR_NUMERIC})[ \t]*(?:to|until|till|through|-|–|—)[ \t]*(?P<f>{_YEAR_OR_NUMERIC})"
)


def _split_ranges(text: str, spans: list[Candidate]) -> list[Candidate]:
    """A TIME or DATE span that is a range of two clocks, two dates or two years, as two."""
    out: list[Candidate] = []
    for c in spans:
        match = _RANGE.fullmatch(text, c.start, c.end) if c.label in ("TIME", "DATE") else None
        if match is None:
            out.append(c)
            continue
        first, second = next((a, b) for a, b in (("a", "b"), ("c", "d"), ("e", "f")) if match.group(a) is not None)
        for group in (first, second):
            start, end = match.span(group)
            out.append(replace(c, start=start, end=end, text=text[start:end]))
    return out


_NAME_WORDS = re.compile(r"\S+")
# What ends a word said before its repeat: "Shaquan." or "Shaquan," then the name.
_SAID_AFTER = ".,;:!?"


def _split_repeats(spans: list[Candidate]) -> list[Candidate]:
    """A name said twice in one breath, as speech runs ("renee renee castellanos",
    "treadwell marcus treadwell"): the first word said alone is a name of its own
    and the rest another, as the guideline marks a stutter."""
    out: list[Candidate] = []
    for c in spans:
        words = list(_NAME_WORDS.finditer(c.text)) if c.label == "PERSON" else []
        # A full stop between the two ("Shaquan. Shaquan Miller": a name, then the
        # full name) is no part of either; an initial said twice ("J. J. Watt") is
        # no repeat.
        bare = [w.group().rstrip(_SAID_AFTER) for w in words]
        folded = [b.casefold() if len(b) > 1 else None for b in bare]
        repeated = len(words) >= 2 and folded[0] is not None
        half = len(words) // 2
        twice = half >= 2 and len(words) == 2 * half and None not in folded and folded[:half] == folded[half:]
        if twice and "\n" in c.text[words[half - 1].end() : words[half].start()]:
            # A full name on two lines: a signature and its typed name under it ("/s/
            # Renata Skeet⏎   Renata Skeet, Transcriber"). On one line it may be one
            # name ("Mohamed Ahmed Mohamed Ahmed": a father's and a grandfather's).
            cut = words[half - 1].start() + len(bare[half - 1])
            out.append(replace(c, end=c.start + cut, text=c.text[:cut]))
            out.append(replace(c, start=c.start + words[half].start(), text=c.text[words[half].start() :]))
        elif repeated and (folded[0] == folded[1] or (len(words) >= 3 and folded[0] == folded[-1])):
            first, rest = words[0], words[1]
            out.append(replace(c, end=c.start + first.start() + len(bare[0]), text=bare[0]))
            out.append(replace(c, start=c.start + rest.start(), text=c.text[rest.start() :]))
        else:
            out.append(c)
    return out


@dataclass(frozen=True)
class _PersonContext:
    """What the edges of a person's span read from the whole text."""

    starts: list[int]
    towns: frozenset[str]
    covered: "_Covered"
    rules: _Initials


# Typewritten pages read by OCR give "l" as "1" and "o" as "0" ("Cu1breth",
# "Ho11and"): digits between a name's letters and lower-case ones are letters of
# the name, not a number glued to it ("O'Brien12", "O'Brien10am").
_OCR_LETTERS_AFTER = re.compile(r"[01]+(?!(?:am|pm|st|nd|rd|th)\b)[a-z][a-z01]*")


def _take_ocr_letters(text: str, start: int, end: int) -> int:
    if end > start and text[end - 1].isalpha() and (rest := _OCR_LETTERS_AFTER.match(text, end)) is not None:
        return rest.end()
    return end


def _person_edges(
    text: str, c: Candidate, span: tuple[int, int], context: _PersonContext, caseless: bool
) -> tuple[int, int, Candidate | None, str]:
    """A person's span with clean edges: (start, end, the name that followed "of" in
    it, its label: an ORGANIZATION where a legal form follows it)."""
    start, end = span
    covered = context.covered
    named: Candidate | None = None
    label = c.label
    end = _take_ocr_letters(text, start, end)
    if (tail := _of_tail(text, start, end)) is not None:
        named = _tail_of(c, text, tail[1], end, context.starts, context.towns)
        end = tail[0]
    start, end = _strip_lower_tail(text, start, end, caseless)
    end = _strip_sentence_after_initial(text, start, end)
    start = _strip_civic_office(text, c, start, end)
    start = _strip_rank(text, c, start, end)
    start = _strip_grade(text, start, end)
    end = _strip_role_past_a_gap(text, start, end)
    end = _strip_field_label_past_a_break(text, start, end)
    if (firm := _company_form_after(text, end, covered)) is not None:
        label, end = "ORGANIZATION", firm  # "CUYAHOGA VERBATIM, INC.": a company's name
    end = _strip_post_nominals(text, start, end)
    start = _strip_degree_letter(text, start, end)
    if (signed := _SIGNATURE_MARK.match(text, start, end)) is not None:
        start = signed.end()  # "/s/ T. Engstrom": an electronic signature's mark
    if (office := _PRO_TEM.match(text, start, end)) is not None:
        start = office.end()
    start = _widen_person(text, start, covered, context.rules, caseless)
    start = _titled_bare_initial(text, start)
    if not covered.any_in(end, end + 4):
        end = _surname_initial_after(text, start, end)
    # The model's reading only: a name list's or propagation's one word
    # ("Summer" of "the 1988 Summer Olympics") is no given name of its own.
    # A kin word before the name ("my mom, Gwendolyn⏎ 9   Greenleaf") says a person as
    # surely as a title does.
    titled = any(f"cue:{cue}" in c.rule for cue in ("title", "honorific", "relation"))
    further = _take_surname(text, start, end, titled) if _MODEL_SOURCES & set(c.sources) or titled else end
    if further == end and _MODEL_SOURCES & set(c.sources):
        further = _take_surname_after_an_initial(text, start, end)
    if further > end and not covered.any_in(end, further):
        end = further
    return start, end, named, label


# After a word: the indent that opens a line is no column's gap.
_COLUMN_GAP = re.compile(rf"(?<=\S){COLUMN_GAP}")


def _within_its_column(text: str, c: Candidate, start: int, end: int) -> tuple[int, int]:
    """A name's edges, grown past its own words, stop at a column's gap: a table's
    next cell is no part of it ("Dorothea Dix Alliance     Both Support", "Torrington   Eliza
    Hatch"). A span found across the gap is left as found."""
    if _COLUMN_GAP.search(c.text):
        return start, end
    for gap in _COLUMN_GAP.finditer(text, start, end):
        if text[text.rfind("\n", 0, gap.start()) + 1 : gap.start()].strip().isdigit():
            continue  # a page's printed line number before the line's words ("Basic⏎11       School")
        if gap.start() >= c.end:
            end = min(end, gap.start())
        elif gap.end() <= c.start:
            start = max(start, gap.end())
    return start, end


# A sentence's end inside a span: a period after a word's two lower-case letters, then
# a capital ("Buck. Corryton", "Department. General Strand"); not "Mr." or "J.".
_SENTENCE_END_INSIDE = re.compile(r"(?<=[a-z]{2})[.!?][ \t]+(?=[A-Z])")


def _within_one_sentence(text: str, start: int, end: int) -> tuple[int, int]:
    """A person's name stays in one sentence: past a sentence's end, a common word
    before it was the sentence's ("Department. General Strand" → "General Strand"),
    else the name ends there ("everybody calls me Buck. Corryton." → "Buck"). A title's
    abbreviation ("Mrs. Ruiz", "Capt. Oakes") is no sentence's end."""
    stop = _SENTENCE_END_INSIDE.search(text, start, end)
    if stop is None:
        return start, end
    before = text[start : stop.start()].split()
    if not before or before[-1].lower() in TITLE_WORDS | HONORIFICS:
        return start, end
    # Only a word the language writes, four letters or more, ends a sentence: a name's
    # abbreviation is none ("Mohd. Azlan Shah", "Juan Mtz. Ramírez", "Jos. Merriman").
    if len(before[-1]) < 4 or not (is_common_word(before[-1]) or is_english_word(before[-1])):
        return start, end
    if not any(is_given_name(w) or not (is_common_word(w) or is_english_word(w)) for w in before):
        return stop.end(), end  # "Department. Strand", "Thank you. Leopold Strand": no name before
    return start, stop.start()


# The next line's first word, past its printed number; a column's gap and a capital
# after it: the next cell of a table's row.
_NEXT_LINE_S_WORD = re.compile(r"[ \t]*(?:\d{1,3}[ \t]+)?(?P<w>[^\W\d_][\w'’.-]*)")
_A_NEXT_CELL = re.compile(rf"{COLUMN_GAP}[A-Z]")


def _column(text: str, at: int) -> int:
    return at - (text.rfind("\n", 0, at) + 1)


def _first_cell(text: str, start: int) -> int:
    """Where the first word of the line holding `start` begins."""
    line_start = text.rfind("\n", 0, start) + 1
    return line_start + len(text[line_start:start]) - len(text[line_start:start].lstrip())


def _in_a_row(text: str, start: int) -> bool:
    """The span's line holds a column's gap after a word before it: a table's row."""
    line = text[text.rfind("\n", 0, start) + 1 : start]
    return _COLUMN_GAP.search(line) is not None


def _within_its_row(text: str, start: int, end: int) -> int:
    """A person's span ends at its line's end where the next line's word is no name's:
    after a full name, a common English word no name is ("20   YUSUF DEMIRCI⏎21
    Examination by"); in a table's row (no form's field), the first cell of the next
    row, aligned with the row's first cell ("  CRUMBS       Rodell PINKNEY⏎  MOOKIE
    Jerome"). A name prose, a justified page or an appearance page broke across lines
    stays whole ("Ricardo Alberto⏎13   Mendoza-Reyes, the defendant", "Detective Ray⏎ 9
    Okafor   was   taken", "Plaintiff:       Priscilla Anne⏎   Okonkwo-Reyes     Pro
    Se", its surname under its given name)."""
    brk = text.find("\n", start, end)
    if brk < 0:
        return end
    before = text[start:brk].rstrip()
    after = _NEXT_LINE_S_WORD.match(text, brk + 1)
    if after is None:
        return end
    word, first = after.group("w"), _first_cell(text, start)
    cell = (
        _in_a_row(text, start)
        and _A_NEXT_CELL.match(text, after.end()) is not None
        and _column(text, after.start("w")) == _column(text, first)
        and not _A_FIELD_S_LABEL.match(text, first)  # "Driver:    Marcus⏎  Strong": a form's field
    )
    # After one word a surname may follow whatever word it is ("Officer Daniel⏎ 9   Fish").
    if cell or (len(before.split()) >= 2 and is_english_word(word) and not is_known_name(word)):
        return start + len(before)
    return end


_A_FIELD_S_LABEL = re.compile(r"[^\s:]+(?:[ ][^\s:]+)*:")


# A year written with its apostrophe ("since '16", "in ’09"), after a blank.
_SHORT_YEAR = re.compile(r"(?<=[\s(])['’]\d\d")


def _within_brackets(text: str, start: int, end: int) -> tuple[int, int]:
    """A name holds no transcriber's bracket: a span across one ("Laughs] Trinidad")
    keeps the words after the last closing bracket (or parenthesis, none opened in the
    span), or those before an opening square bracket never closed ("Ana [inaudible")."""
    inside = text[start:end]
    close = max(inside.rfind("]"), inside.rfind(")"))
    if close >= 0 and "[" not in inside[:close] and "(" not in inside[:close] and inside[close + 1 :].strip():
        start += close + 1 + len(inside[close + 1 :]) - len(inside[close + 1 :].lstrip())
        inside = text[start:end]
    opening = inside.find("[")
    if opening > 0 and "]" not in inside[opening:]:
        end = start + opening
    return start, end


def _before_a_field_past_a_gap(text: str, start: int, end: int) -> int:
    """A date or a time ends at a column's gap where what the span holds past it is no
    date's ("Tuesday, February 11, 2025       Time", the next field's label)."""
    gap = _COLUMN_GAP.search(text, start, end)
    if gap is None or _A_DATE_S_WORD.search(text, gap.end(), end):
        return end
    return gap.start()


def _person_span(
    text: str, c: Candidate, span: tuple[int, int], person: _PersonContext, caseless: bool
) -> tuple[int, int, Candidate | None, str]:
    """A person's span with clean edges (`_person_edges`), the name kept in one
    sentence, after the words said to the person and within its row where a model or
    a rule read it (what a person marked keeps its words)."""
    start, end = span
    read = set(c.sources) <= _READ_SOURCES
    if read:
        start, end = _within_one_sentence(text, start, end)
        start = _strip_addressing_word(text, start, end)
    start, end, named, label = _person_edges(text, c, (start, end), person, caseless)
    if read:
        end = _within_its_row(text, start, end)
    # A title that ended a line, taken off, may leave the next line's printed number
    # ("Major⏎ 7  Harriet Quarles").
    return _strip_line_number(text, start, end), end, named, label


def tidy(text: str, spans: list[Candidate], titles: frozenset[str] = frozenset()) -> list[Candidate]:
    """The spans with clean edges; a span left empty, or one cutting a word, is
    dropped (it names part of a word, never a value). `titles`: the text's
    language's one-letter titles (`title_letters`), never taken as initials."""
    spans = _police_officers(
        text, _with_irish_particles(text, _split_at_parentage(text, _split_at_quotes(text, spans)))
    )
    spans = _split_ranges(text, _split_repeats(_split_at_commas(text, spans)))
    out: list[Candidate] = []
    covered = _Covered(text, spans)
    starts = sorted(c.start for c in spans)
    towns = frozenset(" ".join(c.text.split()) for c in spans if c.label == "LOCATION")
    rules = _Initials(titles, _QUESTION_MARKER.search(text) is not None)
    person = _PersonContext(starts, towns, covered, rules)
    for c in spans:
        caseless = caseless_at(text, c.start)
        named: Candidate | None = None  # what followed "of" in a person's span, the town after an institution
        label = c.label
        age: Candidate | None = None  # the age a date opened with
        start, end = _strip_unpaired(text, c.start, c.end)
        if c.label in ("DATE", "TIME"):
            start = _strip_printed_lead(text, start, end)
            end = _before_a_field_past_a_gap(text, start, end)
        if c.label == "TIME":
            start, end = _strip_time_words(text, start, end)
        elif c.label == "DATE":
            start, age = _age_before_date(text, c, start, end)
            start, end = _strip_date_words(text, start, end)
        elif c.label == "AGE":
            start, end = _strip_age_words(text, start, end)
        elif c.label in _NAME_LABELS:
            start, end = _within_brackets(text, start, end)
            start = _strip_line_number(text, start, end)
            start = _strip_leading_function_words(text, start, end)
            if c.label != "PERSON":
                start, end, named, label = _place_or_institution(text, c, (start, end), starts, covered, caseless)
            start, end = _strip_trailing_number(text, c, start, end)
            if c.label == "PERSON":
                start, end, named, label = _person_span(text, c, (start, end), person, caseless)
        if label in _NAME_LABELS:
            start, end = _within_its_column(text, c, start, end)
            if _only_a_printed_line_number(text, start, end):
                start = end  # "5   Recovery Associates": a model's name of the page's number alone
        start, end = _strip_unpaired(text, start, end)
        if label == "DATE" and start > 0 and _SHORT_YEAR.fullmatch(text, start - 1, end):
            start -= 1  # "since '16": the apostrophe writes the year's lost century
        if end - start > 1 and text[end - 1] == "." and text[end - 2].isdigit():
            end -= 1  # "at 20:37.", "in 2019.": a number ends before its sentence's full stop
        if age is not None:  # before the date, so that sorted spans stay sorted
            out.append(age)
        if start < end and not cuts_a_word(text, start, end):
            same = (start, end, label) == (c.start, c.end, c.label)
            out.append(c if same else replace(c, start=start, end=end, text=text[start:end], label=label))
        if named is not None:  # after the person, so that sorted spans stay sorted
            out.append(named)
    return out
