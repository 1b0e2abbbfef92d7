"""The transcript pattern pack: regular expressions for what NER models miss.

Each pattern is data (label, regex, score, rule name). The group named `v`, when
present, is the span; otherwise the whole match is. Patterns run on the raw text,
so offsets need no mapping.
"""

import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from itertools import islice

from pipelines.candidate import Candidate
from pipelines.detection.answers import DocumentAnswers
from pipelines.detection.places import numbered_lines_around, without_printed_line_numbers
from pipelines.gazetteers import (
    currency_codes,
    is_common_word,
    is_english_word,
    is_given_name,
    is_known_name,
    last_names,
)
from pipelines.lexicons import (
    AGE_NUMBER_WORDS,
    CALENDAR_WORDS,
    COURT_KINDS,
    FAMILY_RELATIONS,
    HEDGES,
    HONORIFICS,
    LIFE_EVENTS,
    MONTHS,
    NAME_END_STREET_TYPES,
    NOT_A_COUNT,
    NUMBER_WORDS,
    OCR_DAY_ORDINAL,
    PARENTAGE_MARK,
    PERSIAN_MONTHS,
    PHONETIC_ALPHABET,
    RECORD_NOUNS,
    RELATIONS,
    ROLE_WORDS,
    SPOKEN_YEAR,
    TENS,
    TITLES,
    UNITS,
    US_STATE_CODES,
    US_STATES,
    VEHICLE_MAKES,
    WEEKDAYS,
)

SOURCE = "patterns"


@dataclass(frozen=True)
class Pattern:
    label: str
    regex: re.Pattern[str]
    score: float
    rule: str


_PHONETIC = "|".join(sorted(PHONETIC_ALPHABET, key=len, reverse=True))
# A day of the month, also as a scanned page's OCR reads its ordinal ("lOth").
_DAY = rf"(?:\d{{1,2}}(?:st|nd|rd|th)?|{OCR_DAY_ORDINAL})"


def _p(label: str, pattern: str, score: float, rule: str, flags: int = 0) -> Pattern:
    return Pattern(label, re.compile(pattern, flags), score, rule)


IGNORECASE = re.IGNORECASE
# Space that may wrap to the next line, but not into the next line's printed line
# number ("The case number⏎19CR004512" is one ID; "…number⏎12   Q." is not).
_GAP = r"(?:[ \t]|\n(?![ \t]*\d{1,3}[ \t]))*"
# The same, also over a numbered page's line end and its printed number ("serial⏎14  number
# C02FK3Q8MD6T"): the number then two spaces, as a deposition prints it.
_NUMBERED_GAP = r"(?:[ \t]|\n[ \t]*\d{1,2}[ \t]{2,}(?=\S)|\n(?![ \t]*\d{1,3}[ \t]))*"
# A day of the month in words ("the third", "the twenty-first").
_SPOKEN_ORDINAL = (
    r"(?i:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth|thirteenth"
    r"|fourteenth|fifteenth|sixteenth|seventeenth|eighteenth|nineteenth|twentieth|thirtieth"
    r"|(?:twenty|thirty)[- ](?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth))"
)
# Space between two words of one phrase, over one line's end at most (possessive: a long
# run of blanks is read one way only).
_ONE_BREAK = r"(?:[ \t]++(?:\n[ \t]*+)?|\n[ \t]*+)"
# Thirteen to nineteen: up to twelve, "at" a number is a clock's hour.
_TEEN_AGES = r"(?:thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen)"

# An address's parts no model reads as a place: the ZIP code after a state ("Dayton,
# Ohio 45409", "FRESNO, CA 93721-1234"), the suite or the apartment after a comma
# ("40 North Main Street, Suite 1800", "Apartment B"), a highway ("I-75", "Highway
# 99", "Route 66"), and a crossing named by an ordinal ("At Elm and 5th", "on 5th
# and Main": the ordinal says a street; its neighbour across "and" is one too).
# (And the territories that have ZIP codes: "San Juan, Puerto Rico 00918"; not "VI",
# a Roman numeral, "Chapter VI 12345", nor "PR", a pull request's, "PR 12345".)
_STATE_NAMES = frozenset(US_STATES) | US_STATE_CODES | frozenset({"GU", "puerto rico", "guam"})
_ORDINAL = r"\d{1,3}(?:st|nd|rd|th)"
# The kinds of case a court's docket holds between its numbers: criminal, felony,
# misdemeanour, civil, juvenile, domestic, traffic, probate, small claims, inquest.
_CASE_KINDS = "(?:CR|CF|CM|CV|CJ|JV|JD|DR|TR|PR|SC|IQ|MI|FE)"
# An ordinal that counts something else: "1st and 2nd grade", "3rd and 4th place".
_NOT_A_STREET_AFTER = (
    r"(?![ \t]+(?:grade|graders|place|floor|time|times|year|years|century|period|round|inning|quarter|birthday"
    r"|anniversary|degree|offense|offence|strike|amendment|district|circuit"
    # A hospital's or an army's units ("transferred to North 4th unit", "East 2nd Battalion").
    r"|unit|ward|wing|battalion|regiment|brigade|division)\b)"
)
_CROSSING_BEFORE = r"\b(?i:at|on|of|near|off|between)[ \t]+"
_STREET_THEN_AND = re.compile(rf"{_CROSSING_BEFORE}(?P<n>[A-Z][a-z]+)[ \t]+(?:and|&)[ \t]+$")
# The street across, by its name or its ordinal ("the alley between 33rd and 34th").
_AND_STREET = re.compile(rf"[ \t]+(?:and|&)[ \t]+(?P<n>[A-Z][a-z]+\b|{_ORDINAL}\b{_NOT_A_STREET_AFTER})")
_CROSSING_BEFORE_RE = re.compile(rf"{_CROSSING_BEFORE}$")
_BETWEEN_BEFORE = re.compile(r"\b(?i:between)[ \t]+$")
_STOP_OR_STREETS_AFTER = re.compile(r"[ \t]*(?:[.,;:?!)]|\n|$|(?i:streets?|avenues?|sts?\.?|aves?\.?)\b)")
_NOT_A_STREET_AFTER_RE = re.compile(_NOT_A_STREET_AFTER)
# An address before a unit's comma: a house's number, or a street's type word
# ("40 North Main Street, Suite 1800", "2716 Linden Avenue, Apt 4-B").
_ADDRESS_BEFORE = re.compile(
    r"(?:\b\d+[A-Za-z]?|\b(?i:street|st|avenue|ave|road|rd|boulevard|blvd|lane|ln|drive|dr|way|court|ct|place|pl"
    r"|terrace|circle|pike|parkway|highway|hwy|square|sq))\.?,[ \t]$"
)
_CALENDAR = re.compile(CALENDAR_WORDS, re.IGNORECASE)
_NOT_A_RECORD_BEFORE = re.compile(
    r"(?i:\b(?:apt|apartment|suite|ste|unit|room|rm|lot|space|box|no|number|item|page|line|exhibit)\.?)[ \t]*#[ ]?$"
)
_WORD_BEFORE_HASH = re.compile(r"([A-Za-z][\w'’-]*)[.,]?[ \t]*(?:\n[ \t]*)?\(?#[ ]?$")
# An officer's title and name before the badge ("Officer D. Strzelecki (#61248)").
_TITLED_NAME_BEFORE_HASH = re.compile(
    rf"\b(?:{'|'.join(sorted(TITLES))})\.?[ \t]+(?:[A-Z]\.[ \t]+|[A-Z][\w'’-]+[ \t]+)?[A-Z][\w'’-]+[.,]?[ \t]*\(?#[ ]?$"
)


# The people and offices a "#" numbers: a prisoner's, a patient's, an employee's, an
# officer's number, a department's report ("Prisoner, #718443", "Surveyor (#4417)").
_NUMBERED_ROLES = frozenset(
    "prisoner inmate offender patient resident member employee officer deputy trooper detective sergeant"
    " surveyor examiner investigator inspector agent department police sheriff".split()
)
_NAME_BEFORE_HASH = re.compile(
    r"(?<![\w'’-])(?P<a>[A-Z][\w'’-]+),?[ \t]+(?:[A-Z]\.[ \t]+)?(?P<b>[A-Z][\w'’-]+),?[ \t]*\(?#[ ]?$"
)


# The emergency number after "#" ("the Police #911 call").
_AN_EMERGENCY_NUMBER = re.compile(r"(?:911|999|112|000)(?!\d)")


def _a_record_s_hash(text: str, start: int) -> bool:
    """A number after "#" is a record's where a person's name or a record's word
    stands right before it: a badge after its officer's name in capitals or a known
    surname ("RUDKIN #1427", "Officer Smith #1427"), an invoice's ("invoice #40772").
    Not an address's unit ("Apt. #204"), a store's ("Walgreens #07214"), a bus's, a
    flight's, a hashtag's, a juror's ("Jurors #112")."""
    if _NOT_A_RECORD_BEFORE.search(text, max(0, start - 16), start) or _AN_EMERGENCY_NUMBER.match(text, start):
        return False
    if _TITLED_NAME_BEFORE_HASH.search(text, max(0, start - 60), start):
        return True
    before = _WORD_BEFORE_HASH.search(text, max(0, start - 40), start)
    if before is None:
        return False
    word = before.group(1)
    # In capitals: a surname or its given name's initial ("RUDKIN, THORA L #1427").
    if word.lower() in RECORD_NOUNS or word.lower() in _NUMBERED_ROLES or word.isupper():
        return True
    if word[:1].isupper() and word in last_names():
        return True
    # A full name's two words, each a known name or no common word ("Cortland
    # Tharpe #40519", "TARVER, Ordell  #213457", "Darnell Q. Ousley, #718443"); a
    # store's name stands alone ("Walgreens #07214").
    named = _NAME_BEFORE_HASH.search(text, max(0, start - 60), start)
    return (
        named is not None
        and text[start : start + 1].isdigit()
        and all(is_given_name(w) or w in last_names() or not is_common_word(w) for w in named.group("a", "b"))
    )


_VIN_VALUES = {**{str(d): d for d in range(10)}, **dict(zip("ABCDEFGH", range(1, 9), strict=True))}
_VIN_VALUES |= dict(zip("JKLMN", range(1, 6), strict=True)) | {"P": 7, "R": 9}
_VIN_VALUES |= dict(zip("STUVWXYZ", range(2, 10), strict=True))
_VIN_WEIGHTS = (8, 7, 6, 5, 4, 3, 2, 10, 0, 9, 8, 7, 6, 5, 4, 3, 2)


def _vin_checks(vin: str) -> bool:
    """A North American VIN's ninth character is its check digit (ISO 3779's
    weights, the remainder of 11, "X" for 10)."""
    remainder = sum(_VIN_VALUES[c] * w for c, w in zip(vin, _VIN_WEIGHTS, strict=True)) % 11
    return vin[8] == ("X" if remainder == 10 else str(remainder))


# A year's event, not a house's number ("in 2004 Main Street was paved").
_YEAR_LEAD = re.compile(r"(?i:in|since|by|until|from|after|before|of|during)[ \t]+$")


def _year_shaped(number: str) -> bool:
    return len(number) == 4 and number[:2] in ("19", "20")


def a_year_s_event(text: str, at: int) -> bool:
    """A word that leads a year stands before text[at:] ("In 2015 California Highway
    Patrol"): the number there is a year, not a house's."""
    return _YEAR_LEAD.search(text, max(0, at - 12), at) is not None


# British streets' types, after a house's number only ("22 Brudenell Grove"), words of
# other names too ("Scotland Yard", "Red Crescent", "Elk Grove").
_BRITISH_TYPES = frozenset("grove yard close crescent mews".split())
_AMBIGUOUS_TYPES = frozenset("court ct place pl way terrace circle cir trail".split()) | _BRITISH_TYPES
_STREET_TYPES = NAME_END_STREET_TYPES | _AMBIGUOUS_TYPES | {"pike"}


def _an_address(text: str, match: re.Match[str]) -> bool:
    """The street address pattern's match is one: no year after "in"; no court of a
    kind nor a count of things ("4 District Court judges": a type that is a noun
    too needs a name that is no court's kind)."""
    number, at = match.group("n"), match.start()
    if _year_shaped(number) and a_year_s_event(text, at):
        return False
    if _NUMBERED_UNIT_BEFORE.search(text, max(0, at - 16), at):
        return False  # "Department 2 Chancery Court": a court's department
    if _a_line_number_before_a_title(text, match):
        return False  # "17          Official Court Reporter": the page's line 17, no house
    if match.group("type").lower() in _BRITISH_TYPES and _not_a_british_street(text, match):
        return False
    return street_named(match, number)


# A count's noun or a score after the name ("3 Scotland Yard detectives", "20 Red
# Crescent workers", "Eden Prairie 35 Maple Grove 14").
_A_COUNT_S_NOUN_AFTER = re.compile(r"[ \t]+(?:(?!(?:was|has|is|does|goes|says)\b)[a-z]{2,}s\b|\d)")


def _not_a_british_street(text: str, match: re.Match[str]) -> bool:
    """A British street's type ends a count of things or a score, or its number is
    the page's printed line number ("14   Scotland Yard took over")."""
    return _A_COUNT_S_NOUN_AFTER.match(text, match.end()) is not None or _a_printed_line_number(text, match)


# A column's gap after a number that opens its line (with a numbered line beside it,
# `places.numbered_lines_around`: the page's line number).
_LINE_NUMBER_GAP = re.compile(r"[ \t]{2,}")
# The phrase goes on after the type, capitalised ("Court| Reporter", "Place| Holder").
_PHRASE_GOES_ON = re.compile(r"[ \t]+[A-Z][a-z]")


def _a_line_number_before_a_title(text: str, match: re.Match[str]) -> bool:
    """The match's number opens its line (spaces before it only), a gap of two spaces
    or more after it, and a type that is a noun too ("Court", "Place") goes on into a
    longer phrase: a transcript's printed line number before a title ("Official Court
    Reporter"), not a house's before its street ("11     One Monument Circle,"; "22
    Horizon Court, Suite 300" keep theirs: the line's number stands for the house's
    the line before, or the street's name needs none)."""
    if match.group("type").lower().rstrip(".") not in _AMBIGUOUS_TYPES:
        return False
    return _PHRASE_GOES_ON.match(text, match.end()) is not None and _a_printed_line_number(text, match)


def _a_printed_line_number(text: str, match: re.Match[str]) -> bool:
    """The match's number opens its line (blanks before it only), a gap of two blanks
    or more after it, among the page's numbered lines: the transcript's line number."""
    at, end = match.start("n"), match.end("n")
    line_start = text.rfind("\n", 0, at) + 1
    return (
        match.group("n").isdigit()  # a hyphenated house number ("114-27") is none
        and not text[line_start:at].strip()
        and _LINE_NUMBER_GAP.match(text, end) is not None
        and numbered_lines_around(text, at, int(match.group("n")))
    )


# A court's or an office's numbered unit before the number.
_NUMBERED_UNIT_BEFORE = re.compile(r"(?i:\b(?:department|dept|division|div|courtroom|room|station|no)\.?)[ \t]+$")


def street_named(match: re.Match[str], number: str) -> bool:
    """A match's "name" and "type" groups name a street after `number`: the type a
    street's; after a year, no title's nor role's name ("In 2019 Officer Lane
    arrested him"; "1500 Q Street", "1410 Governor Street" are addresses); a type
    that is a noun too ("Court", "Place") after no court's kind ("4 Land Court")."""
    kind = match.group("type").lower().rstrip(".")
    if kind not in _STREET_TYPES:
        return False
    names = [w.lower().rstrip(".") for w in match.group("name").split()]
    if _year_shaped(number) and any(w in ROLE_WORDS or w in HONORIFICS for w in names):
        return False
    return kind not in _AMBIGUOUS_TYPES or not any(w.rstrip("'’s") in COURT_KINDS for w in names)


# A date of birth named before the bracketed age: a column's "DOB (age)", "born".
_BIRTH_CUE = re.compile(r"(?i:\bD\.?O\.?B\b|\bborn\b|\bbirth)")
# The United Kingdom's postcode areas (Royal Mail's 121, the first letters of a postcode).
_UK_POSTCODE_AREAS = "|".join(
    sorted(
        """AB AL B BA BB BD BH BL BN BR BS BT CA CB CF CH CM CO CR CT CV CW DA DD DE DG DH DL DN DT DY E EC EH EN
        EX FK FY G GL GU GY HA HD HG HP HR HS HU HX IG IM IP IV JE KA KT KW KY L LA LD LE LL LN LS LU M ME MK ML N
        NE NG NN NP NR NW OL OX PA PE PH PL PO PR RG RH RM S SA SE SG SK SL SM SN SO SP SR SS ST SW SY TA TD TF TN
        TQ TR TS TW UB W WA WC WD WF WN WR WS WV YO ZE""".split(),
        key=len,
        reverse=True,
    )
)
# The records that number a person or what happened to them: custody, courts, police
# reports and badges, insurance claims and policies, medical records, accounts,
# licences; a bar's member, a notary's commission, a proceeding before a board, a
# carrier's DOT and MC numbers.
_RECORD_WORDS = (
    r"CDCR|inmate|booking|case|docket|report|claim|badge|account|policy|member|patient|record"
    r"|file|reference|confirmation|serial|licen[cs]e|permit|ticket|citation|warrant|employee|student|payroll"
    # A Canadian police force's occurrence ("occurrence CCPS 19-004471" needs its "number").
    r"|occurrence"
    r"|passport|incident|investigation|interpreter|ID|bar|commission|proceeding|proc\.|USDOT|DOT|MC"
    # A jail's call log, an indictment, a tribe's enrolment ("Call ID:", "Indictment No.").
    r"|call|indictment|enrol(?:l)?ment|membership"
    # A lawyer's registration ("Reg. No. 0079315").
    r"|registration|reg\."
    # A receipt's, a grievance's, an account's ("RECEIPT NO: 0048817", "Grievance No.
    # G-23-077", "Acct #: 880017723456").
    r"|receipt|grievance|acct\.?"
    # A department of corrections' in capitals ("My DOC number is 0893312"; "doc" is a
    # doctor or a document).
    r"|(?-i:DOC)"
)
# The acronyms of numbers that need no "number" after them, written in capitals
# (in lower case "sid" and "din" are words).
_FIELD_ACRONYMS = frozenset({"NYSID", "DIN", "SID", "FBI", "TDCJ", "CCN"})
_ID_ACRONYMS = _FIELD_ACRONYMS | {"IMEI", "VIN", "LIC", "FPS", "PULSE"}
# Crimes a penal code's section names after its number ("PC 211 Robbery").
_CRIMES = (
    "(?i:murder|robbery|burglary|assault|battery|theft|rape|kidnapping|arson|manslaughter|possession|attempted"
    "|second|first|felony|misdemeanor)"
)
# What says a clock's figures are a time of day after them: a part of the day, Malay's
# too ("in the morning", "that evening", "malam"), or the day it was on ("on 12/03/2024").
_A_DAY_S_PART = (
    r"[ \t]+(?:in[ \t]+the[ \t]+(?:morning|afternoon|evening)|at[ \t]+night"
    r"|(?:that|this|the[ \t]+same|next)[ \t]+(?:morning|afternoon|evening|night)|tonight"
    r"|pagi|petang|malam|tengah[ \t]+hari|on[ \t]+(?:\d|[A-Z][a-z]+day\b|the\b))\b"
)
# A month's letters as forms and logs write them in capitals ("12-JAN-1985", "DEC 25").
_MONTH_LETTERS = r"(?:JAN|FEB|MAR|APR|MAY|JUN|JUL|AUG|SEPT?|OCT|NOV|DEC)"
TRANSCRIPT_PATTERNS: tuple[Pattern, ...] = (
    # CDCR numbers: one or two letters then 4-6 digits ("H12345", "AB1234", "CDCR# K-12345").
    # A court's numbers go on with a child's or a count's suffix ("JD-142876-001").
    # Not the head of a longer record's number ("CV2024-018734").
    # A register's year after a slash goes with it ("EC0417/96").
    _p("ID", r"\b[A-Z]{1,2}-?\d{4,6}(?:-\d{1,4}(?![\w-])|/\d\d(?:\d\d)?(?![\w/]))?\b(?!-\d)", 0.85, "cdcr_number"),
    # A Commonwealth court's or registry's number and its year after "No." ("Sessions
    # Case No. 61 of 2024", "Criminal Case No 31 of 2024", "Registration No. 318 of
    # 2016"): the number and the year, as one.
    _p(
        "ID",
        # Not a law's ("Act No. 3 of 2011", "S.I. No. 146 of 2000": `_rejected`).
        r"\b(?:No|NO)\.?[ \t]*(?:\n[ \t]*)?"
        r"(?P<v>\d{1,6}(?:[-/][A-Z]{1,4})?[ \t]+(?:of|OF)[ \t]*(?:\n[ \t]*)?(?:19|20)\d\d)"
        r"(?![\w/-])",
        0.85,
        "number_of_year",
    ),
    # An Irish Personal Public Service number: seven digits and one or two letters
    # ("7726418WA", "6638102KA").
    _p("ID", r"(?<![\w/-])\d{7}[A-W][A-IW]?(?![\w/-])", 0.85, "pps_number"),
    # A Pakistani police constable's or head constable's belt number after the name
    # ("Amjad Ali 3319/C", "Tanveer Abbas 1127/HC").
    _p("ID", r"(?<![\w/-])\d{4,5}/(?:C|HC|LHC)(?![\w/])", 0.85, "belt_number"),
    # An English or Welsh prisoner's number: a letter, four digits and two letters
    # ("A7316EY").
    _p("ID", r"(?<![\w-])[A-Z]\d{4}[A-Z]{2}(?![\w-])", 0.85, "uk_prison_number"),
    # A form's field that holds a record's number ("Incident:   PPD24-091487", "Case:
    # 2022-CV-04417"): a code with a capital, a hyphen or five digits (no year).
    _p(
        "ID",
        r"\b(?i:incident|case|claim|report|booking|docket|event|complaint|CAD|file)(?i:[ \t]+(?:no\.?|number|#))?"
        r"[ \t]*:[ \t]*(?P<v>(?=[A-Z0-9-]*\d)(?=[A-Z0-9-]*(?:[A-Z]|\d-|\d{5}))[A-Z0-9][A-Z0-9-]{4,})\b",
        0.85,
        "id_in_field",
    ),
    _p(
        "ID",
        # The cue a word of its own ("said no" holds no "ID no"), on the number's line,
        # and the number holding a digit ("case number: one" is none). The records
        # that number a person or what happened to them: custody, courts, police
        # reports and badges, insurance claims and policies, medical records (MRN),
        # accounts, licences. A court's case number may hold its type between two
        # numbers ("Case No. 2022 CV 04417").
        # An agency's acronym before "NUMBER" is a cue too ("MDOC NUMBER 274519"), and
        # a badge or a serial number needs no "number" ("Badge 2271", "DSN is 3318").
        rf"\b(?:(?:{_RECORD_WORDS}){_NUMBERED_GAP}(?:number|no\.?|#|ID)"
        # An agency's acronym, no common word ("MDOC NUMBER", not "PAGE NUMBER",
        # "PHONE NUMBER"; checked in `recognize`).
        # (The acronym may end a line: "GMC⏎number 7041926".)
        r"|(?-i:(?P<agency>[A-Z]{2,5})(?:[ \t]*\n)?[ \t]*(?:NUMBER|Number|number|\#|No\.|NO\.))"
        # A commercial driver's licence ("an Indiana CDL, 4410-27-8815").
        # A lawyer's state bar number ("SBN 24071835").
        r"|MRN|SSN|DSN|SBN|badge|serial|CDL|PIN|BKG"
        # A device's, a vehicle's, a plate's, a parcel's, a prisoner's and a record's
        # numbers that need no "number" ("IMEI 356712114498203", "LIC: SKR209", "Parcel
        # 15-04126", "DIN: 08-A-3317", "FBI#: 447120KD9"); in capitals, "Sid" is a name.
        # A record's acronym as a field's label needs its "#" or its colon ("FBI#:", "SID:").
        # Canada's fingerprint serial ("FPS 748213D"), not a video's frames ("15 FPS 1080P").
        # National identity and tax numbers as their acronyms head them ("NIN
        # CM99031104RKXA", a Malaysian "No. K/P 830519-10-5542", "EIN is 88-4027135"),
        # in capitals ("ein" is a German word). (Singapore's NRIC is the seed-001 pack's.)
        # A vessel's radio identity ("The boat's MMSI, 250009814").
        r"|(?P<parcel>parcel)|(?-i:IMEI|VIN|LIC|PULSE|MMSI|(?:NIN|EIN|K/P)(?![A-Za-z])|(?<!\d[ ])FPS)#?"
        rf"|(?-i:{'|'.join(sorted(_FIELD_ACRONYMS))})(?=#|[ \t]*:)#?)"
        # "gave his NIN as 48210573916". (Possessive: blanks after a cue, tried three
        # ways over, made "IMEI" and 20,000 spaces cost ten seconds.)
        r"(?:[ \t]++(?:is|was|as))?[ \t]*+[:,]?"
        + _NUMBERED_GAP
        # "#" inside: a board's numbering ("Proceeding No. 24#00057").
        # A tribunal's number and its year ("Case No: 2301234/2024", "R204417/24/86").
        + r"(?P<v>(?=[A-Z0-9#-]*\d)[A-Z0-9][A-Z0-9#-]{3,}(?:/\d{2,4})*"
        # The type in capitals, no word of a sentence in capitals ("12345 IN 2019").
        + r"(?:[ ](?-i:(?!(?:IN|ON|OR|AT|TO|OF|AND|THE|FOR|BY|IS|WAS|AN|A)\b)[A-Z]{1,4})[ ]\d{3,}[\d-]*)?)",
        0.9,
        "id_with_cue",
        IGNORECASE,
    ),
    # A record's word, then its code with no "number" between ("reference IN/311742/24",
    # "report 24-118807", "account GSH-0043-3B", "work order 24117731"): six characters
    # or more holding five digits, capitals and digits joined by hyphens or slashes, or
    # digits alone. Not a verb's amount ("The account was 250000", "In that case,
    # 150000": the word right before the code), a date, a span of years or a range
    # ("report 2023-24", "100-150 pages", "2300-0700"), a blood pressure or a policy's
    # limits ("140/90", "100/300/100"), a telephone's or a card's number, an amount
    # after it ("The claim 150000 dollars"). Not after "call", which numbers a jail's
    # log only with its "ID" ("call 5551234" is a telephone's).
    _p(
        "ID",
        # A field's colon and its gap ("Crime reference:      13250201934"), or a few
        # spaces at most: not a column's gap on a page's furniture ("WARD FILE      P-1236").
        # After "is", "was" or a comma, a code with a capital ("the record is
        # 3A2307K41196-0001", "a warrant, M-24-612-AR"): bare digits there are an amount.
        rf"\b(?!call\b)(?:{_RECORD_WORDS}|ref\.?|work[ \t]+order)"
        r"(?:(?:[ \t]+(?:is|was)|,)[ \t]+(?=(?-i:[A-Z0-9/-]*[A-Z]))|[ \t]*:[ \t]+|[ \t]{1,3})"
        r"(?!\d{1,4}[/-]\d{1,4}(?![\w/-])|\d{1,4}[/-]\d{1,2}[/-]\d{1,4}(?![\w/-])|\d{2,3}(?:/\d{2,3})+(?![\w/-])"
        r"|(?:\d{3}[-.])?\d{3}[-.]\d{4}(?![\w/-])|\d{4}[- ]\d{4}[- ]\d{4}[- ]\d{4})"
        # Five digits, or three after two groups of capitals ("acct KOM-LAN-3318",
        # "reference AT/ST/0412"; not a form's "DS-160", "1099-MISC").
        r"(?P<v>(?-i:(?=[A-Z0-9/-]*\d)(?=[A-Z0-9/-]{6})(?=(?:[A-Z/-]*\d){5}|[A-Z]+[/-][A-Z]+[/-]\d{3})"
        r"(?:[A-Z0-9]+(?:[/-][A-Z0-9]+)+|\d{5,})))"
        r"(?![\w/-])"
        r"(?![ \t]+(?:dollars|euros|pounds|rupees|percent|miles|kilometers|units|shares|people|pages)\b)",
        0.85,
        "id_after_record_word",
        IGNORECASE,
    ),
    # A record's code after "number", "No." or "ID", whatever the record's word before it
    # ("Inquest No. 24IQ00871", "The accident number is CEN25IA187", "Case Nos.
    # CR24001187-00", "OTIS⏎number 41827365", "File No. C 25 113 874"): a code no
    # amount, clock, date or telephone's number can be. It holds a capital and four
    # digits, digits in groups ("451-2024-01178", "26.884.190-K"), five digits or more,
    # or a prefix of capitals apart ("US 54 812 406"); after "ID", three digits
    # ("Operator ID 2207"). Not a page's, a line's, an
    # exhibit's, a telephone's, a room's or a model's (checked in `_rejected`).
    _p(
        "ID",
        r"(?<![\w-])(?:numbers?|nos?\.|Nos?\.|NOS?\.|Numbers?|(?P<id>ID))(?![\w-])(?:[ \t]*+[:#,])?"
        r"(?:" + _NUMBERED_GAP + r"(?:is|was|are|were)\b(?:[ \t]*+:)?)?" + _NUMBERED_GAP + r"(?P<v>(?-i:"
        # A capital prefix apart from digits in groups ("C 25 113 874", "PF 3064", "UKA
        # 0284 7716 2"), or digits in groups
        # ("850923 6174 089"; a telephone's shape is checked in `_rejected`).
        r"(?:[A-Z]{1,3}[ ]\d{2,}|\d{2,}(?=[ ]\d{2}))(?:[ ]\d+){0,4}"
        # An archive's accession: a collection's letters, a year and its serial
        # ("Accession No. PWSU-OH 2019.014").
        r"|[A-Z]{2,6}-[A-Z]{1,4}[ ]\d{2,}(?:[.]\d+)+"
        # A code of capitals and digits, joined by hyphens, dots or slashes.
        r"|(?=[A-Z0-9./-]*\d)[A-Z0-9](?:[A-Z0-9]|[./-](?=[A-Z0-9])){3,}"
        # A Commonwealth court's year after its number ("Cause No. E219 of 2022").
        r")(?:[ ](?:of|OF)[ ](?:19|20)\d\d)?)(?![\w/-]|\.\d)"
        r"(?![ \t]+(?:dollars|euros|pounds|rupees|percent|miles|kilometers|units|shares|people|pages|times)\b)",
        0.85,
        "code_after_number",
    ),
    # A number and its year or part after "No." as Indian and other Commonwealth records
    # write a case's, an FIR's, a post-mortem's or a survey's ("S.C.No.118/2020", "FIR
    # No. : 214/2019", "PM No.412/2019", "Sy.No.47/2").
    # "No" glued to a record's abbreviation, before a colon, or "No." before a year's
    # number: not a fraction or a score ("No 3/4 of her meds", "the No. 1/2 seed").
    _p(
        "ID",
        r"(?:(?<=[A-Za-z]\.)(?:No|NO)\.?[ \t]*|(?<![\w/])(?:No|NO)\.?[ \t]*:[ \t]*"
        r"|(?<![\w/])(?:No|NO)\.[ \t]*(?=\d{1,7}/(?:19|20)\d\d\b))(?P<v>\d{1,7}/\d{1,4})(?![\w/])",
        0.85,
        "number_of_record",
    ),
    # A federal court's criminal or civil number, its year and its count ("Criminal No.
    # 19-417 (MTE)", "Criminal case 19-417,"), the judge's initials after it kept as the
    # docket writes them. It ends its clause: "in case 10-100 people come" is a range.
    _p(
        "ID",
        # ("civil 20-100, criminal 50-500" are a penalty's ranges: a case's word or its
        # "No." must say it.)
        r"\b(?i:criminal|civil)(?:[ \t]+(?i:case|action)(?:[ \t]+(?i:no\.?|number|#))?|[ \t]+(?i:no\.?|number|#))"
        r"(?:[ \t]*:)?[ \t]*"
        r"(?P<v>\d{2}-\d{3,6}(?:[ \t]*\([A-Z]{2,4}\))?)(?=[ \t]*(?:[,.;:)\n]|$))",
        0.85,
        "federal_case_number",
    ),
    # A UK tribunal's appeal number, its type's letters, its count and its year
    # ("PA/51234/2026", "HU/01234/2020"), wherever it stands: a page's header glues it
    # to the page's number ("Page 1 of 7PA/51234/2026").
    _p("ID", r"(?<![A-Za-z/])[A-Z]{2}/\d{5}/(?:19|20)\d\d(?![\d/])", 0.85, "tribunal_reference"),
    # A state court's case number, its year, its type's letters and its count apart
    # ("People v. Wimbley, No. 2024 CF 0917", "Case No. 2023 DR 001245").
    _p(
        "ID",
        r"(?<![\w/])(?:No\.|NO\.|Number|#)[ \t]*(?P<v>(?:19|20)\d\d[ ][A-Z]{2,3}[ ]\d{3,7})(?![\w/-])",
        0.85,
        "case_year_type",
    ),
    # A record's code in dotted groups after its series' letters, as a commission's or a
    # court's tender bundle numbers its documents ("TAS.0012.0004.0031"): no MAC address.
    _p("ID", r"(?<![\w.])[A-Z]{2,5}(?:\.\d{3,6}){3,}(?!\w|\.\d)", 0.85, "record_code_dotted"),
    # A vehicle's identification number: seventeen capitals and digits, no I, O or Q.
    _p(
        "ID",
        r"(?<![\w-])(?=[A-HJ-NPR-Z0-9]{0,16}\d)(?=[A-HJ-NPR-Z0-9]{0,16}[A-HJ-NPR-Z])[A-HJ-NPR-Z0-9]{17}(?![\w-])",
        0.85,
        "vin",
    ),
    # New York's prisoner numbers: a DIN ("08-A-3317", "08A3317"), a NYSID ("07781462M").
    _p("ID", r"(?<![\w-])\d{2}-?[A-Z]-?\d{4}(?![\w-])", 0.85, "ny_prisoner"),
    # A police report's number: a letter and a year's digit or two, then its count
    # ("B5-041876", "B3-118204").
    _p("ID", r"(?<![\w-])[A-Z]\d{1,2}-\d{6,7}(?![\w-])", 0.85, "report_number"),
    # A number after "#" (a badge, an invoice: "RUDKIN #1427", "invoice #40772"), not
    # an apartment's, a suite's or a lot's (`_NOT_A_RECORD_BEFORE`).
    # A sheriff's badge may open with its county's letter ("Deputy Ivette Strand #W219").
    # A report's year and its count after a department's "#" ("Tyler Police Department
    # #19-044718").
    _p("ID", r"(?<![\w#])#[ ]?(?P<v>[A-Z]?\d{3,8}|\d{2}-\d{4,7})(?![\w-])", 0.8, "hash_number"),
    # A British officer's collar number after the rank ("PC 4471 RACHEL LUND", "(DC
    # 4471)", "Detective Police Constable 51873"): the rank's letters before three or four
    # digits (five are Washington's ZIP code: "DC 20001"), its words before up to five.
    _p(
        "ID",
        # (The letters' number before the officer's name or in brackets: "PC 187, murder",
        # "PC 211 robbery" are California's penal code, "DC 120 volts" a current.)
        r"(?<![\w.])(?:(?:W?PC|DC|DS|PCSO|TDC|SPC)[ \t]+(?=\d{3,4}(?:[ \t]+(?!" + _CRIMES + r"\b)[A-Z][A-Za-z'’-]|\)))"
        r"|(?:(?:Detective|Acting|Temporary|Special|Woman)[ \t]+){0,3}(?:Police[ \t]+)?(?:Constable|Sergeant)[ \t]+"
        r"(?=\d{4}))"
        # (Not a year: "PC 1999 was", "Police Constable 2019.")
        r"(?!(?:19|20)\d\d\b)(?P<v>\d{3,5})"
        r"(?![\w:.,/-]?\d)"
        r"(?![ \t]*(?:hours|hrs|am|pm|a\.m|p\.m|minutes|mins|years|yrs|pounds|feet|miles|mph|yards|times)\b)",
        0.85,
        "collar_number",
    ),
    # A vessel's numbers, which name its owner and crew as a plate does: its IMO
    # number, its MMSI and its official number ("(IMO 9581127)", "O.N.⏎ 3   1198734").
    _p(
        "ID",
        # (Each its own length: an IMO number has seven digits, an MMSI nine.)
        r"(?<![\w.])(?:IMO(?=[^\d\n]{0,12}\d{7}\b)|MMSI(?=[^\d\n]{0,12}\d{9}\b)|O\.N\.)"
        # (The colon's blanks are the gap's: one run of blanks, read once.)
        r"(?:[ \t]+(?:No\.?|number|#))?(?:[ \t]*:)?" + _NUMBERED_GAP + r"(?P<v>\d{6,9})(?![\w-])"
        r"(?![ \t]+(?:dollars|euros|pounds|tons|tonnes)\b)",
        0.85,
        "vessel_number",
    ),
    # A badge with its letter and a hyphen in brackets after a full name, whoever's:
    # "DSFM Priyanka Raghunathan (#F-219)" (a store's number is digits alone).
    _p(
        "ID",
        # (A word's start, not every hyphen's: a run of "Ab-Ab-…" is read once.)
        r"(?<![\w'’-])[A-Z][a-z][\w'’-]*+[ \t]+[A-Z][a-z][\w'’-]*+[ \t]*\(#[ ]?(?P<v>[A-Z]-?\d{3,8})\)",
        0.8,
        "badge_after_name",
    ),
    # An immigrant's A-number ("A 208-614-337", "A#208614337"): nine digits after an A.
    _p("ID", r"\bA[ #-]?\d{3}[ -]?\d{3}[ -]?\d{3}\b", 0.9, "a_number"),
    # A court reporter's certificate ("CSR-4417", "CSR No. 12345").
    _p("ID", r"\bC[SC]R[ -]?(?:No\.?[ \t]*)?\d{3,6}\b", 0.85, "reporter_license"),
    # A federal court's docket number ("2:24-cv-00317-JMS-MG", "1:19-cr-00452"): not a
    # time of day then a number.
    _p("ID", r"\b\d{1,2}:\d{2}-(?i:cv|cr|mj|mc|bk|ap)-\d{3,6}(?:-[A-Z]{1,4}){0,3}\b", 0.9, "federal_docket"),
    # A record's code: capitals, then a zero-padded number ("PWF-000412", a Bates
    # number; "UKR-0419"; "NP0712245") or numbers joined ("ISP-24-118273").
    # Letter groups may chain and a court's digits lead ("CNTC-CW-25-014", "29-JV-25-206"),
    # and a year may follow the letters ("CV2024-018734").
    _p(
        "ID",
        r"(?<![\w-])(?:\d{1,4}-)?[A-Z]{2,5}(?:-[A-Z]{1,5})*(?:-?0\d{3,7}(?:-\d{1,4})?|-\d{2,4}(?:-\d{2,8})+)(?![\w-])"
        r"|(?<![\w-])[A-Z]{1,5}\d{2,6}-\d{3,8}(?![\w-])"
        # A court's docket with its kind's letters between numbers, glued ("1185CR00219",
        # "0761CR001930"), or a court's letter and number before them ("D-202-CR-2025-00872",
        # "T-4-CR-2021-009133").
        # Only a court's kinds of case between the numbers: a product's, a part's or a
        # lot's code is shaped so too ("55UN7300", "74HC4051", "23LT00412").
        rf"|(?<![\w-])\d{{2,4}}{_CASE_KINDS}\d{{4,7}}(?![\w-])"
        rf"|(?<![\w-])[A-Z]{{1,2}}-\d{{1,4}}-{_CASE_KINDS}-\d{{2,4}}-\d{{3,8}}(?![\w-])",
        0.85,
        "record_code",
    ),
    # A reference of capitals and numbers in three groups or more, joined by hyphens or
    # slashes, that a register or a court writes without a word before it
    # ("HCT-06-CR-SC-0143-2020", "CVCSP/DHR/2023/02", "MP/2025/11873"): two capitals
    # together and six digits or more in all; not a date, in figures, with a
    # month's letters or a zone's ("21/14/03/2020", "12-JAN-1985", "2021-03-12-UTC"), a
    # form's name ("DS-160") nor a standard's ("ISO 9001").
    _p(
        "ID",
        r"(?<![\w/.-])(?=(?:[A-Z0-9]{1,8}[-/]){2,7}[A-Z0-9]{1,8}(?![\w/-]))(?=[A-Z0-9/-]*?[A-Z]{2})"
        rf"(?![A-Z0-9/-]*?\b{_MONTH_LETTERS}\b|[A-Z0-9/-]*?(?<!\d)(?:19|20)\d\d-\d\d-\d\d(?!\d))"
        r"(?=(?:[A-Z/-]*\d){6})[A-Z0-9]{1,8}(?:[-/][A-Z0-9]{1,8}){2,7}(?![\w/-])",
        0.8,
        "reference_code",
    ),
    # A register's letters, a number and its year ("CRB 214/2020", a police station's
    # crime book; "HCC 214/2021", a circuit court's indictment; "AS 2231/2021"): the
    # letters and the number. Not a month and its year after an acronym ("EPRD
    # 11/2033", a release date), a month's letters ("DEC 25/2020") nor a span of years
    # ("FY 2019/2020").
    _p(
        "ID",
        rf"(?<![\w/.-])(?!{_MONTH_LETTERS}\b)[A-Z]{{2,5}}[ \t]+"
        r"(?!(?:0?[1-9]|1[0-2]|(?:19|20)\d\d)/)\d{1,6}/(?:19|20)\d\d(?![\w/-])",
        0.8,
        "book_number",
    ),
    # An agency's or a record's letters, a space, then the record's year and serial
    # ("CR 25-000217", "APD 25-0098214", "UOF 24-0117"): the number is the ID, the
    # letters name its kind or its agency. Not a span of years ("NFL 2019-2020"), a month
    # and its year ("MAR 15-2020"), nor a number's own word ("Mine ID 44-07219" is the ID
    # cue's, "FAX 555-0187" a telephone's).
    _p(
        "ID",
        rf"(?<![\w-])(?!(?:ID|NO|NUM|NBR|REF|TEL|FAX|PH|CELL|HOME|WORK|EXP|{_MONTH_LETTERS})\b)[A-Z]{{2,5}}[ ]"
        r"(?P<v>(?!\d{1,2}-(?:19|20)\d{2}\b|(?:19|20)\d{2}-(?:19|20)?\d{2}\b)(?:19|20)?\d{2}-\d{4,8})(?![\w-])",
        0.85,
        "lettered_record_number",
    ),
    # A court's cause number of three groups or more, each with a figure, a letter among
    # them ("48C03-2309-F6-002417", an Indiana cause; "0018-B5-00412"): no date (no
    # letter) and no form ("CMS-2567-B": one group with figures).
    _p(
        "ID",
        r"(?<![\w/-])(?=[A-Z0-9-]*[A-Z])(?:[A-Z]{0,3}\d[A-Z0-9]*-){2,5}[A-Z]{0,3}\d[A-Z0-9]*(?![\w-])",
        0.85,
        "cause_number",
    ),
    # A recording's or a scan's file name with a number in it (a body camera's
    # "LUSK_2291_X60A7R2K_20240914_223104.mp4", "PSB-2024-0317_LUSK_20241001.wav"):
    # it holds an officer's name, a badge or a case and a date; a record of its own.
    _p(
        "ID",
        # Lookaheads, not "[\w-]*[_-][\w-]*": one pass over a long token, no backtracking.
        r"(?<![\w./\\-])(?=[\w-]*\d)(?=\w*[_-])[\w-]+\.(?i:mp4|mov|avi|wmv|m4v|wav|mp3|m4a|aac|flac|wma|jpe?g|png|tiff?|pdf)\b",
        0.85,
        "file_name",
    ),
    # A recording's or a camera's file named without its extension, a device's code, the
    # date and the time ("X60A1142_20250614_223612"): a record of its own, as `file_name`.
    _p(
        "ID",
        r"(?<![\w./\\-])(?=[A-Za-z0-9]*[A-Za-z])[A-Za-z0-9]+(?:_[A-Za-z0-9]+)*"
        r"_(?:19|20)\d\d(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])(?:_\d{4,6})?(?![\w-])(?!\.\w)",
        0.85,
        "file_stem",
    ),
    # A student's, a patient's or a member's number: a capital or two, then seven to
    # ten digits ("A00493117"), longer than a CDCR number.
    _p("ID", r"(?<![\w-])[A-Z]{1,2}\d{7,10}(?![\w-])", 0.8, "letters_digits"),
    # A North Carolina court's file number: the year, the kind's letters, the serial
    # ("23 CRS 050412", "24 CVD 1187"), the serial maybe past a printed line's number
    # ("23 CRS⏎10  051877"). Before the Bates stamp's shape, which would take "CRS 050412".
    _p(
        "ID",
        # Only the criminal and civil kinds: "IF", "JA", "SP" are words or counts' too
        # ("THERE WAS 12 IF 300"); "CR" before five digits ("12 CR 2032 batteries").
        r"(?<![\w-])\d{2}[ \t]+(?:CRS|CVS|CVD|CR(?=\s+(?:\d{1,2}[ \t]+)?\d{5}))"
        r"(?:[ \t]+|[ \t]*\n[ \t]*(?:\d{1,2}[ \t]+)?)\d{3,6}(?![\w-])",
        0.85,
        "nc_file_number",
    ),
    # A document's Bates stamp: a producer's prefix in capitals, then a number padded
    # with zeros ("MERCY 000412", "DEF_0001834").
    _p(
        "ID",
        # Three capitals or more (not a state's code before its ZIP), none a cue a
        # number follows ("MRN 00482913" is the number alone).
        # No product's, lot's or standard's code ("SKU 0045123", "ISO 09001").
        r"(?<![\w-])(?!(?:ZIP|BOX|SUITE|STE|APT|UNIT|ROOM|MRN|SSN|DOB|CASE|FILE|DOCKET|NUM|REF|SKU|LOT|UPC|ISO"
        r"|ANSI|ASTM|NFPA|PART|MODEL|ITEM|FORM|CODE|STD)\b)[A-Z][A-Z0-9]{2,11}[ _-]?0\d{4,9}(?![\w-])",
        0.8,
        "bates_number",
    ),
    # A username said after its cue ("His username is⏎20  callumoz22", "my account,
    # marin.eckhardt,", "Snapchat: hazelnut_03"): a digit, "_" or "." inside says it
    # is no word ("my account is closed").
    _p(
        "ID",
        r"(?i:user[ ]?name|handle|snap(?:chat)?|instagram|insta|venmo|cash[ ]?app|tiktok|account)"
        r"(?:[ \t]+(?:is|was))?[ \t]*[:,]?[ \t]*(?:\n[ \t]*\d{1,2}[ \t]+)?"
        r"(?P<v>(?=[a-z0-9._]*[0-9_.][a-z0-9._]*\b)[a-z][a-z0-9._]{2,29}[a-z0-9])(?![\w@.-]*@)(?![\w-])",
        0.85,
        "username",
    ),
    # An account's last digits ("account ending in 8830", "the card ending 4417"):
    # only after an account's word in the sentence (`recognize`), not "a lease ending
    # in 2024".
    # "Social Security card, last four 6628", "W-2, last four 3041": the last digits
    # of a number said as such need no account's word; a VIN's last six end in digits
    # ("VIN ending 1K4471").
    _p(
        "ID",
        r"\b(?:(?:ending|ends)[ \t]+(?:in[ \t]+|with[ \t]+)?"
        # One run of blanks between each two words: two runs side by side ("[ \t]*[:,]?[ \t]+")
        # trade blanks, quadratic on a page of them. No comma after "four": "the last
        # four, 2016 through 2019" lists years.
        r"|(?P<last>(?i:last)[ \t]+(?:four|4)(?:[ \t]+(?:digits|numbers))?(?:[ \t]+(?:is|are|were))?"
        r"(?:[ \t]*:)?[ \t]+))"
        r"(?:#|x+)?(?P<v>(?:[A-Z0-9]{2})?\d{4})\b",
        0.85,
        "account_ending",
    ),
    # A vehicle's plate after its cue ("license plate KRT 4471", "plate number 8ABC123"):
    # it identifies the car's keeper. Letters and digits, one space or hyphen at most
    # inside, at least one digit.
    _p(
        "ID",
        # A vehicle's registration number, as a Commonwealth record writes it
        # ("motorcycle, Registration No.⏎UEK 417Q").
        r"\b(?i:licen[cs]e[ \t]+plate|plate|tags?|(?:registration|reg\.)(?=[ \t]+(?:number|no\b|#)))"
        r"(?i:[ \t]+(?:number|no\.?|#))?"
        r"(?i:[ \t]+(?:was|is|of|reading|read|says|said))?"
        # (The number may open the next line: "Maryland tag⏎            7CW4418"; or
        # follow a comma: "Virginia tag, UJX-4172".)
        r"[ \t]*[:,]?(?:[ \t]+|[ \t]*\n[ \t]*(?:\d{1,2}[ \t]+)?)"
        r"(?P<v>(?=[A-Z0-9 -]*\d)(?=[A-Z0-9 -]*[A-Z])[A-Z0-9]{1,4}[ -]?[A-Z0-9]{2,5})\b",
        0.85,
        "plate",
    ),
    # A plate right after the vehicle and its comma ("in a taxi, UAX 662K", "his
    # motorcycle, UEK 417Q", "a white car, WPX 4471"): three capitals, a space, then three
    # figures and a letter or four figures; not a year ("a Ford truck, 2019"), an amount
    # ("the taxi, UGX 5000": `_rejected`) nor a make's model ("a car, BMW 530").
    _p(
        "ID",
        r"\b(?i:taxi|cab|car|truck|van|motorcycle|motorbike|vehicle|SUV|sedan|pickup|lorry|bus|matatu)"
        r",[ \t]+(?P<v>(?P<letters>[A-Z]{3})[ ](?:\d{3}[A-Z]|\d{4}))(?![\w-])",
        0.8,
        "plate_after_vehicle",
    ),
    # An account's handle ("@dezzy.banks", Venmo's "@mari-brooks-206", a payment app's
    # "$JPage04"): it names its holder. Not an e-mail's "@" (a word before it), nor a
    # ticker in capitals. A handle holds a digit, "_", "." or a capital inside
    # ("@home", "$hit", "@well-known" are words), and is no mail domain ("@gmail.com").
    _p(
        "ID",
        r"(?<![\w.+-])@(?![A-Za-z]+\.(?:com|net|org|edu|gov|io|co)\b)(?=[A-Za-z0-9_.-]*(?:[0-9_.]|[a-z][A-Z]))"
        r"[A-Za-z_][A-Za-z0-9_.-]{2,29}(?<![.-])",
        0.8,
        "handle",
    ),
    _p("ID", r"(?<![\w$])\$(?=[A-Za-z0-9_-]*(?:[0-9_]|[a-z][A-Z]))[A-Za-z][A-Za-z0-9_-]{2,19}\b", 0.8, "cashtag"),
    # "19 years old", "34 years of age".
    _p(
        "AGE",
        # (The years may open the next line: "sixty-one⏎years of age".)
        rf"\b(?:\d{{1,3}}|{NUMBER_WORDS})(?:[- ]|[ \t]*\n[ \t]*(?:\d{{1,2}}[ \t]{{2,}})?)years?"
        r"(?:[- ]old\b|[ \t]+of[ \t]+age(?![\w-]))",
        0.9,
        "years_old",
        IGNORECASE,
    ),
    # "Age: 44", a form's "Age                   : 48 years", "aged about 61 years".
    _p(
        "AGE",
        # (Not a date's first number: "DOB / Age:   08/23/1973 / 51".)
        rf"\b(?:age|aged)(?:[ \t]*:[ \t]*|\s+)(?:of\s+)?(?:\d{{1,3}}(?:\.\d)?|{NUMBER_WORDS})\b(?![/.-]\d)",
        0.85,
        "age_cue",
        IGNORECASE,
    ),
    # Several people's ages in an apposition after "ages" ("our two daughters, ages 9 and
    # 12", "the kids, ages 4, 7 and 11"): each number an age (`_several_spans`). Not a
    # group's ("for ages 3 and 5", "between ages 12 and 17"), "ages 5 to 12", "ages 5–12",
    # "ages 18 and up", "ages 2, 4 and 6 months".
    _p(
        "AGE",
        rf"(?<=,[ ])(?i:ages)[ \t]+(?P<list>(?:\d{{1,2}}|(?i:{NUMBER_WORDS}))"
        rf"(?:(?:,[ \t]*(?:(?i:and)[ \t]+)?|[ \t]+(?i:and)[ \t]+)(?:\d{{1,2}}|(?i:{NUMBER_WORDS})))*)"
        r"(?![\w-]|[ \t]*[-–—]|[ \t]+(?:(?:to|through|or|and)[ \t]+(?:up|over|above|under|older|younger)\b"
        r"|to\b|through\b|(?:days?|weeks?|months?|years?)\b))",
        0.85,
        "ages_listed",
    ),
    # A hedged age only in a person's apposition, after a capitalised name: "Putta, S/o
    # Ningegowda, aged about 31 years" ("The cheddar, aged about 24 months" is a cheese's).
    _p(
        "AGE",
        rf"(?<![\w'’.-])[A-Z][\w'’.-]*+,[ \t]+(?i:aged)\s+(?i:{HEDGES})\s+"
        rf"(?P<v>\d{{1,3}}|(?i:{NUMBER_WORDS}))\b(?![/.-]\d)",
        0.85,
        "age_cue",
    ),
    # A hedged age with its years ("examined on 17/03/2020, aged about 27 years"): the
    # years say a life's, not a cheese's months; a person the sentence names says it is
    # a life's (`_rejected`: not "The whisky was aged about 12 years.").
    _p(
        "AGE",
        rf"\b(?i:aged)\s+(?i:{HEDGES})\s+(?P<v>\d{{1,3}}|(?i:{NUMBER_WORDS}))\s+(?i:years?|yrs?)\b"
        # (Its clause ends there: "a whisky aged around 12 years in oak" is a cask's.)
        r"(?=[ \t]*(?:[,.;)]|$|and\b|old\b))",
        0.85,
        "age_hedged",
    ),
    # A charge sheet's or a statement's party, the sex then the years ("ANOZIE, "M", 39
    # years", "Maigari, F, 26 yrs", "(F), 58 YEARS").
    _p(
        "AGE",
        # (The sex after a comma, a quote or a bracket: "Part F, 10 years imprisonment"
        # is a schedule's.)
        r"(?:(?<=,[ ])|(?<=[\"“(]))(?:[MF]|(?i:male|female))[\"”)]?[ \t]*,[ \t]*"
        r"(?P<v>\d{1,3})[ \t]*(?i:years?|yrs?)\b(?![ \t]+ago\b)",
        0.85,
        "age_after_sex",
    ),
    # A person described by the age ("a man of 44 whose trade is a forklift", "a
    # well-nourished man of 27, 1.82 metres tall"); not a man of five feet.
    _p(
        "AGE",
        r"\b(?i:man|woman|boy|girl|lady|gentleman)[ \t]+of[ \t]+"
        rf"(?P<v>\d{{1,2}}|(?i:{AGE_NUMBER_WORDS}))(?![\w-]|[.,]\d)"
        + NOT_A_COUNT
        + r"(?=[ \t]*(?:[.,;!?)\n]|$|(?i:years?\b(?!['’])|(?:who|whose|with|and)\b)))",
        0.8,
        "age_of_a_person",
    ),
    # A clinical note's "44 y/o woman", "a 32yo male", "Age: 44 y".
    _p("AGE", r"\b(?P<v>\d{1,3})[ ]?(?:y/o|y\.o\.|yo|yrs?\.?[ ]old)(?![\w/])", 0.85, "age_short", IGNORECASE),
    # A description's age, as a witness or a broadcast gives it: "Black male, maybe 22,
    # 23", "a white female, approximately 40." A comma or a hedge after the word (not
    # "Female 2:", a focus group's speaker), and the number ends its clause.
    _p(
        "AGE",
        rf"\b(?:male|female|man|woman|boy|girl|guy)(?:,[ \t]*(?:{HEDGES}[ \t]+)?|[ \t]+{HEDGES}[ \t]+)"
        # Thirteen and up, not a measure's first digit ("a big man, about 1.8 metres"), a
        # count ("the guy, maybe 3 or 4 times", "a guy, maybe 20, 30 feet from me"), a
        # height ("male, 6, 180 lbs.") or a tally by sex ("male, 7; female, 5.").
        rf"(?P<v>1[3-9]|[2-9]\d|{_TEEN_AGES}|{TENS}(?:[- ]{UNITS})?)(?![\w-]|[.,]\d)"
        + NOT_A_COUNT
        + r"(?=[ \t]*(?:[,.)\n]|$|years?\b|(?:or|to)[ \t]+\d))",
        0.8,
        "age_described",
        IGNORECASE,
    ),
    # A date of birth, then the age it makes in brackets ("03/22/1937 (87)", a roster's
    # "DOB (age)" column).
    # A field of both: "DOB / Age:   08/23/1973 / 51".
    _p(
        "AGE",
        r"\b(?i:DOB|date[ \t]+of[ \t]+birth)[ \t]*/[ \t]*(?i:age)[ \t]*:?[ \t]*[\d/.-]{6,10}[ \t]*/[ \t]*"
        r"(?P<v>\d{1,3})\b(?![/.-]\d)",
        0.85,
        "age_after_birth_date",
    ),
    # An ISO date too, and the bracket may give the unit: "1996-02-11 (29 yrs)",
    # "1956-08-30  (67 y)".
    _p(
        "AGE",
        r"\b(?:\d{1,2}/\d{1,2}/(?:19|20)?\d\d|(?:19|20)\d\d-\d\d-\d\d)[ \t]*"
        r"\((?P<v>\d{1,3})(?:[ \t]?(?:y|yrs?|yo|y/o)\.?)?\)",
        0.85,
        "age_after_birth_date",
    ),
    # A point's coordinates in decimal degrees, as a monitor's log or a phone's
    # location data gives them ("40.05871, -76.34362", "37.76382 N, 122.18611 W"):
    # four decimals place someone within metres. Each number is a span of its own.
    _p(
        "LOCATION",
        r"(?<![\w.-])(?P<lat>-?\d{1,2}\.\d{4,}°?(?:[ ]?[NS]\b)?),[ \t]*\n?[ \t]*"
        r"(?P<lon>-?\d{1,3}\.\d{4,}°?(?:[ ]?[EW]\b)?)(?!\w|\.\d)",
        0.85,
        "coordinates",
    ),
    # The state is checked in `recognize` (`_STATE_NAMES`): an alternation of fifty
    # names tried at every word cost a fifth of this module's time. The state and its
    # ZIP are one place ("Columbia, SC 29201": no comma between them).
    _p(
        "LOCATION",
        r"\b(?P<v>(?P<state>[A-Z][A-Za-z]{1,13}(?:[ ][A-Z][A-Za-z]{2,12})?)\.?[ \t]+\d{5}(?:-\d{4})?)\b",
        0.85,
        "zip_code",
    ),
    # A street as French writes it, its type before its name, a house's number (and
    # Quebec's comma) before it or not: "8417, boulevard Pie-IX", "on rue Lamartinière",
    # "1200 chemin du Golf". Lower-case "rue" or "boulevard" before a capital names a
    # street in an English text too.
    _p(
        "LOCATION",
        # Types English writes too ("avenue", "route") only after a house's number.
        r"(?<![\w-])(?:\d{1,5}[A-Z]?,?[ \t]+(?:avenue|route|rang|montée|côte)|(?:\d{1,5}[A-Z]?,?[ \t]+)?"
        r"(?:rue|boulevard|boul\.|chemin))"
        r"[ \t]+(?:(?:de|du|des)[ \t]+(?:la[ \t]+|l['’])?|d['’]|l['’])?[A-ZÀ-Ý][\w'’-]+(?:[ \t]+[A-ZÀ-Ý][\w'’-]*){0,2}",
        0.85,
        "street_address_fr",
    ),
    # Other countries' postal codes, written as their posts print them: Canada's ("H1Z
    # 3T5"), the United Kingdom's ("DD1 4HN", "SW1A 1AA"), Ireland's Eircode ("F28 X9P2")
    # with their space and their letters; Australia's four figures after a state's
    # letters ("NSW 2766"). Each is a place to within a street or a few.
    _p("LOCATION", r"\b[ABCEGHJ-NPRSTVXY]\d[ABCEGHJ-NPRSTV-Z][ ]\d[ABCEGHJ-NPRSTV-Z]\d\b", 0.85, "postal_code_ca"),
    _p(
        "LOCATION",
        # The shape first: an alternation of the areas tried at every word would cost.
        rf"\b(?=[A-Z]{{1,2}}\d[A-Z\d]?[ ]\d[A-Z]{{2}}\b)"
        rf"(?:{_UK_POSTCODE_AREAS})\d[A-HJKMNPR-Y\d]?[ ]\d[ABD-HJLNP-UW-Z]{{2}}\b",
        0.85,
        "postcode_uk",
    ),
    # An Eircode's last four hold a letter ("F23 X9P2"; not "K12 2024").
    _p(
        "LOCATION",
        r"\b(?:[AC-FHKNPRTV-Y]\d\d|D6W)[ ](?=[0-9]{0,3}[AC-FHKNPRTV-Y])[0-9AC-FHKNPRTV-Y]{4}\b",
        0.85,
        "eircode",
    ),
    _p(
        "LOCATION",
        r"\b(?:NSW[ \t]+[12]\d{3}|VIC[ \t]+[38]\d{3}|QLD[ \t]+[49]\d{3}|SA[ \t]+5\d{3}|WA[ \t]+6\d{3}"
        r"|TAS[ \t]+7\d{3}|NT[ \t]+0[89]\d\d|ACT[ \t]+(?:02\d\d|26[0-3]\d))\b(?![-/.]\d)",
        0.85,
        "postcode_au",
    ),
    _p(
        "LOCATION",
        r"(?<=,[ \t])(?:Suite|Ste\.|Apartment|Apt\.?|Unit|Room|Rm\.)[ \t]+#?"
        r"(?:\d{1,5}(?:-?[A-Z])?|[A-Z](?:-?\d{1,4})?)\b",
        0.8,
        "address_unit",
    ),
    # A house's number, a street's name and its type: an address whatever the name
    # ("1250 Brown Street", "1021 O Street", "3611 South Peoria Ave."). Not a
    # year's event ("in 2004 Main Street was paved"; `_an_address`).
    _p(
        "LOCATION",
        # A police record's block ("1500 blk Arno St SE").
        # A house's number may be hyphenated, as in Queens or Hawaii, or a range
        # ("114-27 121st Street", "94-417 Kahuamoku Street", "3501-3519 W. Diversey Ave."),
        # no score ("9-5") nor years ("2019-2020"); a quadrant's direction may come
        # before the name ("2214 Northeast 85th Street").
        r"(?<![\w.,/$#:-])(?P<n>\d{1,6}|(?!(?:19|20)\d\d-(?:19|20)?\d\d\b|\d{3}-\d{4}\b)\d{2,4}-\d{2,4})[A-Za-z]?[ \t]+"
        r"(?:blk\.?[ \t]+)?"
        r"(?:(?:[NSEW]\.?|North|South|East|West|Northeast|Northwest|Southeast|Southwest|NE|NW|SE|SW)[ \t]+)?"
        # A name's initials too ("241 F.D. Roosevelt Avenue"); British streets' types
        # ("22 Brudenell Grove", "9 Mandeville Yard", "4 Elm Close").
        r"(?P<name>(?:[A-Z][\w'’-]*|[A-Z]\.(?:[ ]?[A-Z]\.)+|\d{1,3}(?:st|nd|rd|th))"
        r"(?:[ \t]+[A-Z][\w'’-]*){0,2})[ \t]+"
        r"(?P<type>Street|St\.|Avenue|Ave\.?|Road|Rd\.?|Boulevard|Blvd\.?|Drive|Dr\.|Lane|Ln\.?|Parkway|Pkwy\.?"
        r"|Highway|Hwy\.?|Court|Ct\.|Place|Pl\.|Way|Terrace|Circle|Cir\.|Trail|Pike"
        r"|Grove|Yard|Close|Crescent|Mews"
        # A city's quadrant after the type ("4409 Zuni Rd SE"); "St" without its
        # period only before one (else it may be a saint's: "412 St Mary").
        r"|St(?=[ \t]+(?:NE|NW|SE|SW)\b))(?:[ \t]+(?:NE|NW|SE|SW)\b)?(?![\w'’-])",
        0.8,
        "street_address",
    ),
    # Where a South Asian record's party lives, after "r/o" (resident of): "r/o Kot
    # Rehmat, Tehsil Ferozewala", "r/o Mohallah⏎ Pir Bukhsh Colony". Not a house's or a
    # street's number ("r/o House No. B-412") nor the lower-case "r/o house of …".
    _p(
        "LOCATION",
        # Words in mixed case, taken whole: the place is all of them or none. Only in a
        # record that gives parentage ("s/o", "d/o", "w/o"; `_rejected`): a clinician's
        # "r/o Sepsis" is "rule out".
        r"(?<![\w/])[Rr]/[Oo][ \t]+"
        # (A line it goes on to is indented: a speaker's label on the next is not its.)
        r"(?P<v>(?>(?!No\b)[A-Z][a-z][\w'’-]*(?:(?:[ \t]+|[ \t]*\n[ \t]+)(?!No\b)[A-Z][a-z][\w'’-]*){0,3}))"
        r"(?!\s+No\b)",
        0.85,
        "resident_of",
    ),
    # An immigration form is no highway ("Form I-589", "file the I-130 petition").
    _p(
        "LOCATION",
        r"(?<!Form )(?<!form )(?<!file )(?<!filed )(?<!filing )(?<!an )\b(?:I-\d{1,3}|Interstate[ \t]+\d{1,3}"
        r"|(?:Highway|Hwy\.?|Route)[ \t]+\d{1,3})\b"
        r"(?![ \t]+(?i:form|application|petition|record|receipt|card|visa|notice|approval))",
        0.8,
        "highway",
    ),
    # A street of a city's grid, its direction before its ordinal ("3418 North 38th",
    # "sitting on North 35th"): no date, whatever a model reads. The house's number
    # stands inside a line: one opening it may be the page's printed line number.
    _p(
        "LOCATION",
        rf"(?:(?<=\S[ ])\d{{1,6}}[ \t]+)?(?<![\w-])(?:North|South|East|West)[ \t]+{_ORDINAL}\b{_NOT_A_STREET_AFTER}",
        0.8,
        "directional_street",
    ),
    # A street named by its ordinal and its type, its direction before it or not
    # ("East 112th Street", "on 110th Street"); not a prize's "1st Place".
    _p(
        "LOCATION",
        rf"(?<![\w-])(?:(?:North|South|East|West|[NSEW]\.?)[ \t]+)?{_ORDINAL}[ \t]+"
        # Not "a 2nd Dr. Patel" nor "the 3rd St. Louis trip".
        r"(?:Street|St\.(?![ \t]+[A-Z])|Avenue|Ave\.?|Road|Rd\.?|Boulevard|Blvd\.?|Terrace|Parkway|Pkwy\.?)(?![\w'’-])",
        0.85,
        "ordinal_street",
    ),
    # The ordinal found here, its crossing read around it in `_crossing` (a regex
    # that opened on "at", "on" or "of" would be tried at every such word).
    _p("LOCATION", rf"(?<![\w-]){_ORDINAL}\b", 0.8, "ordinal_crossing"),
    # A person's being or turning, then a bare number that ends its clause: "when I
    # was⏎15.", "So you're 36 today?", "I was 19 at the time". A count goes on with
    # its noun ("I was 3 blocks away", "he was 15 minutes late") and is none.
    _p(
        "AGE",
        # A person's, or several people's now ("they are 8 and 10"): "we were 4 in the
        # car" counts people.
        # The verb may stand on the next printed line ("you⏎ 2  were 19").
        r"\b(?:(?:(?:i|he|she|you)(?:\s|\n[ \t]*\d{1,2}[ \t]{2,}(?=\S))+(?:am|is|are|was|were)"
        r"|(?:i|he|she|you)['’](?:m|s|re)"
        r"|(?:they|we)\s+are|(?:they|we)['’]re)(?:\s+now)?"
        r"|turn(?:s|ed|ing)?"
        # A person named, then "who is nine," (not "who is 12?" nor "And who was 3,
        # Your Honor?", a juror's seat), and "I'm gonna be 18".
        r"|(?<=,[ \t])(?:who\s+(?:is|was)|who['’]s)(?=\s+[\w-]+(?:\s+[\w-]+)?[ \t]*(?:[.,;!)\n]|$))"
        r"|(?:i['’]m|(?:he|she)['’]s|you['’]re)\s+(?:gonna|going\s+to)\s+be"
        # "I'll be 68", "he would be 47", "didn't get to be 24".
        r"|(?:i['’]ll|i\s+will|(?:he|she|i|you)\s+(?:will|would)|(?:he|she|you)['’](?:d|ll)|(?:get|got)\s+to)\s+be)"
        # A printed line number may stand between ("She's⏎ 4  71.").
        + _NUMBERED_GAP
        # "he was only fifty two", "i was forty one with two kids" (speech recognition
        # writes numbers as words); "I was one of them" goes on and is none.
        # "he's like forty-two now" (speech's hedge, with or without its commas).
        + r"(?:(?:only|just|about|almost|nearly|maybe|like)[ \t]+|,?[ \t]*like,[ \t]+)?"
        # A hundred and more only with its years ("My daughter was 103 when we brought
        # her in" is a fever's).
        + rf"(?P<v>\d{{1,2}}|1[01]\d(?=[ \t-]+years?\b)|{AGE_NUMBER_WORDS})"
        + NOT_A_COUNT
        # "years" only as an age's ("I was two years with the Township" is a stint).
        + r"(?=[ \t]*(?:[.,;:!?)\n]|$|(?:years?[ \t-]+(?:old|of[ \t]+age)|yrs?\.?[ \t]+old"
        + r"|today|now|then|that|this|next|last|and|but|so|when|at|in|with"
        # Speech recognition's unpunctuated clause end: "he's thirty four his birthday's".
        + r"|i|he|she|his|her|we|they|my)\b"
        # A dash that a word, not a number, follows: "she's seven -- used to play".
        # (a correction after the dash is the other alternative's: "two -- no, three blocks";
        # a filler or a hedge goes on with a count: "two -- uh, two blocks", "20 -- like 20 feet").
        # Nor a restatement of the count ("He's 6 -- he's about 6 foot", "She was 1 --
        # first in line").
        + r"|(?:--|—|–)(?![ \t]*(?:\d|(?:"
        + NUMBER_WORDS
        + r"|no|sorry|wait|i[ \t]+mean|uh|um|er|like|maybe|about|around|approximately|almost|nearly"
        + r"|i|i['’]m|he|he['’]s|she|she['’]s|we|they|you|it|first|second|third)\b))"
        # "He was 17 on August 14, 1999": the day a date gives.
        + rf"|on[ \t]+{MONTHS}\b"
        # A false start that another age corrects: "she was thirty -- thirty-eight."
        # ("I was two -- two blocks away" goes on with its noun and is none).
        # So does one a speaker takes back: "I'm fifty-one -- no,⏎12  fifty-two."
        # "I'm fifty -- I'm sorry,⏎fifty-one", "I'm sixty -- I'm⏎sixty-one".
        + r"|(?:--|—|–)[ \t]*(?:(?:no|sorry|wait|I[ \t]+mean|I['’]m[ \t]+sorry)[,.]?\s+(?:\d{1,2}[ \t]+(?=[A-Za-z]))?)?"
        + r"(?:(?:i['’]m|i[ \t]+was|(?:he|she)['’]s|(?:he|she)[ \t]+was)\s+)?"
        + rf"(?:\d{{1,3}}|{NUMBER_WORDS})\b(?=[ \t]*(?:[.,;!?\n]|$|years?\b))))",
        0.8,
        "age_after_being",
        IGNORECASE,
    ),
    # A relation's age, said as a person's: "my son's twenty-four and i'm forty-two",
    # "Deirdre Malloy's son was nine when", "My granddaughter is⏎nine;", "The⏎youngest
    # is four." Its clause must end there or say when: a relation's number goes on
    # more often than a pronoun's ("My partner was 10, 15 feet behind me", "My daughter
    # was 1 in her class", "Her baby was 8 and a half pounds").
    _p(
        "AGE",
        # (The owner's word starts a word: from every position of a hyphened run it would
        # scan the run again.)
        # (A printed line number may stand between: "My⏎18      daughter's three", "My
        # child was⏎ 11  seventeen".)
        r"\b(?:my|his|her|our|their|your|the|(?<![\w-])[\w-]+['’]s)(?:\s|\n[ \t]*\d{1,2}[ \t]{2,}(?=\S))+"
        r"(?:(?:little|baby|big|older|younger|great-)\s*)?"
        rf"(?:{RELATIONS}|youngest|oldest|eldest)(?:['’]s|\s+(?:is|was|turned|turns))"
        r"(?:\s|\n[ \t]*\d{1,2}[ \t]{2,}(?=\S))+"
        rf"(?P<v>\d{{1,2}}|{AGE_NUMBER_WORDS})(?![\w-]|[.,]\d)"
        rf"(?=[ \t]*(?:[.;!?)\n]|$|,(?![ \t]*(?:\d|{NUMBER_WORDS}\b))"
        r"|(?:years?[ \t-]+old|now|today|this[ \t]+year|when|and[ \t]+(?:i|he|she|we|they)\b)))",
        0.8,
        "age_of_a_relation",
        IGNORECASE,
    ),
    # A party's or a patient's age, said of the role: "The applicant is now 47.", "the
    # victim was 19 when", "The defendant is 34 years of age." The clause ends or dates
    # it: "the victim was 5 feet away" goes on with its unit.
    _p(
        "AGE",
        r"\b(?i:the)[ \t]+(?i:defendant|applicant|appellant|petitioner|respondent|claimant|victim|decedent|deceased"
        r"|inmate|prisoner|parolee|offender|patient|client|child|minor|juvenile|complainant|suspect|youth)"
        r"[ \t]+(?i:is|was)[ \t]+(?:(?i:now|only|then)[ \t]+)?"
        rf"(?P<v>\d{{1,2}}|(?i:{AGE_NUMBER_WORDS}))(?![\w-]|[.,]\d)"
        + NOT_A_COUNT
        + r"(?=[ \t]*(?:[.,;!?)\n]|$|(?i:years?[ \t-]+(?:old|of[ \t]+age)|now|today|when|at[ \t]+the[ \t]+time)\b))",
        0.8,
        "age_of_a_party",
    ),
    # An age a life's event happened at: "a petty theft at 14 and a vandalism at 16",
    # "I STARTED WITH PILLS AT 16." Thirteen and up (up to twelve it is a clock's
    # hour), ending its clause, after an event of a life in its sentence
    # (lexicons.LIFE_EVENTS, checked in `recognize`): not an exhibit ("look at 14."),
    # a reading ("clocked at 85"), a price or a level ("going at 45.").
    _p(
        "AGE",
        r"(?<!going )(?<!driving )(?<!traveling )(?<!travelling )(?<!doing )(?<!moving )(?<!speed )(?<!sold )"
        r"(?<!priced )(?<!set )(?<!stood )(?<!stands )(?<!peaked )(?<!rated )(?<!capped )(?<!valued )"
        r"\bat[ \t]+(?:the[ \t]+age[ \t]+of[ \t]+)?"
        rf"(?P<v>1[3-9]|[2-9]\d|{_TEEN_AGES}|{TENS}(?:[- ]{UNITS})?)\b(?![.:]\d)"
        r"(?=[ \t]*(?:[.,;!?)\n]|$|(?:and|or|when|because|after|before|with|I|he|she|we|they)\b))",
        0.8,
        "age_at",
        IGNORECASE,
    ),
    # The age a birthday brings ("Lyric turns five on Saturday", "she turns eight on the
    # twenty-sixth", "turning 16 next month"): the years after "turn(s)", before a day's or
    # a time's word or a clause's end; not an angle's or a road's ("turns 90 degrees").
    _p(
        "AGE",
        rf"\b(?i:turns?|turning|turned)[ \t]+(?P<v>1[0-9]|[1-9]\d?|ten|eleven|twelve|{_TEEN_AGES}"
        rf"|{TENS}(?:[- ]{UNITS})?|{UNITS})\b"
        r"(?=[ \t]*[.,;!?]|[ \t]+(?:on|in|next|this|today|tomorrow|tonight|soon|years?)\b)",
        0.85,
        "age_turning",
    ),
    # Anyone's age to be, where the words after it say it is one: "DANIEL WOULD BE 47
    # THIS YEAR"; not "the denial would be 3 years", "it was going to be 30".
    _p(
        "AGE",
        r"\b(?<!\bit )(?<!\bthat )(?<!\bthere )(?:will|would|should)\s+be\s+(?P<v>\d{1,2}|1[01]\d)"
        rf"(?=[ \t]+(?:this[ \t]+year|next[ \t]+year|years?[ \t]+old|today|on[ \t]+{MONTHS}|in[ \t]+{MONTHS})\b)",
        0.8,
        "age_to_be",
        IGNORECASE,
    ),
    # An answer that is just a number, right after an age question:
    # "How old were you?" / "INMATE SMITH: 19." The number is the age.
    _p(
        "AGE",
        # "And your age?" asks it too.
        # "You're how old, Jalen?" asks it too.
        rf"\b(?:how old (?:are|were|was|is) [^\n?]{{0,80}}|(?:your|his|her) age"
        rf"|(?:you|he|she)(?:['’](?:re|s)|[ \t]+(?:are|is|were|was))[ \t]+how old\b[^\n?]{{0,40}})\?"
        # The answer after the question's "---" on its line, as an Australian
        # transcript prints it ("How old are you, Mr Tuckwell?---34."), or on the next.
        rf"(?:-{{3}}|[ \t]*\n(?:[ \t]*\n)?[ \t]*"
        # A printed line number or a recording's time may open the answer's line.
        # A grand jury's transcript may print "A" without its stop ("18 A 27.").
        rf"(?:\[[\d:]+\][ \t]*|\d{{1,2}}[ \t]+)?(?:(?:[A-Z][A-Z .'’-]{{0,60}}:|[QA]\.|A(?=[ \t]))[ \t]*)?)"
        # The answer's first words: "57.", "52. No. Fifty -- 53." (the rest of the line
        # is the restatement's, `_restated_ages`); an interpreter's note may open it
        # ("(Through the interpreter) 34.").
        rf"(?:\([^()\n]{{1,40}}\)[ \t]*)?(?:about |around |I was |I'm |I am )?(?P<v>\d{{1,3}}|{NUMBER_WORDS})\b"
        r"(?=[ \t]*(?:years?(?:[ \t]+old)?)?[ \t]*(?:[.!,;]|--|$))",
        0.8,
        "age_answer",
        IGNORECASE | re.MULTILINE,
    ),
    # An age reckoned for someone: "You were born in 1981. That makes you forty-four."
    _p(
        "AGE",
        rf"\b(?:that|this|which)[ \t]+(?:makes|made|would[ \t]+make)[ \t]+(?:you|him|her|me|them)[ \t]+"
        rf"(?:about[ \t]+)?(?P<v>\d{{1,3}}|{NUMBER_WORDS})\b(?=[ \t]*(?:years?(?:[ \t]+old)?)?[ \t]*(?:[.!?,;]|--|$))",
        0.8,
        "age_reckoned",
        IGNORECASE | re.MULTILINE,
    ),
    # A record's number answering a question for it ("What's your USDOT number?" /
    # "A.   2847193."); not a page's, an exhibit's or a room's.
    _p(
        "ID",
        rf"\b(?:{_RECORD_WORDS})[ \t]+number\?[ \t]*\n(?:[ \t]*\n)?[ \t]*"
        r"(?:\[[\d:]+\][ \t]*|\d{1,2}[ \t]+)?(?:(?:[A-Z][A-Z .'’-]{0,60}:|[QA]\.)[ \t]*)?(?:it['’]s |it is )?"
        r"(?P<v>(?=[A-Z0-9-]*\d)[A-Z0-9][A-Z0-9-]{3,})\b(?=[ \t]*(?:[.,;]|$))",
        0.85,
        "id_answer",
        IGNORECASE | re.MULTILINE,
    ),
    _p(
        "HEIGHT",
        # The foot's mark one space at most after its number: "5   '98" is a printed
        # line number, then a year ("class of '98"). A unit's word may wrap ("six⏎feet
        # two"), but not into a printed line number.
        rf"\b(?:\d|{UNITS})(?:{_GAP}(?:feet|foot|ft\.?)|-(?:feet|foot|ft\.?)|[ \t]?')"
        # (Inches after a hyphen too: "six-foot-two".)
        rf"(?:(?:,?{_GAP}|-)(?:\d{{1,2}}|{UNITS}|ten|eleven)(?:{_GAP}(?:inches|inch|in\.?|\"))?)?",
        0.85,
        "height",
        IGNORECASE,
    ),
    # R-U-F-F, including a spelling broken across a line end ("R-U-\nF-F"); not one
    # letter over and over and nothing else ("I-I-I got down": a stutter; "A-A-R-O-N"
    # is a spelling), and never from inside a spelling.
    _p(
        "SPELLED_NAME",
        # Latin-1's capitals too: "V-I-L-L-A-S-E-Ñ-O-R", "B-R-O-S-S-É".
        r"(?<![A-Za-zÀ-ÖØ-öø-ÿ]-)\b(?!([A-ZÀ-ÖØ-Þ])(?:[ \t]?-[ \t]?\n?[ \t]?\1)+\b(?![ \t]?-))"
        r"[A-ZÀ-ÖØ-Þ](?:[ \t]?-[ \t]?\n?[ \t]?[A-ZÀ-ÖØ-Þ]){2,}\b",
        0.9,
        "spelled_hyphens",
    ),
    # A plate or a serial read over the radio: its letters as the radio alphabet's
    # words, then its digits ("plate David-King 5-8-2-1-3", "serial Adam-Charles-Boy
    # 4-1-7-2-6-3"): one number.
    _p(
        "ID",
        # Two letters at least, and digits said one by one or five run together: not a
        # name before a span of years ("Big Queen 1979-2005") or a year ("John-David 2004").
        rf"(?<![\w-])(?:{_PHONETIC})(?:-(?:{_PHONETIC})){{1,3}}[ \t]+(?:\d(?:-\d){{2,8}}|\d{{5,8}})(?![\w-])",
        0.85,
        "phonetic_plate",
    ),
    # A name spelled with the radio alphabet, four words or more joined by hyphens
    # ("King-Ocean-Robert-David-Edward-Lincoln-Lincoln"): not the people the words
    # name. Three are slang, a unit or a call sign as often ("Whiskey-Tango-Foxtrot",
    # "Lincoln-Mary-Ocean is en route"); a pair said over ("Charlie-Mike-Charlie-Mike")
    # spells nothing (`_rejected`).
    _p(
        "SPELLED_NAME",
        rf"(?<![\w-])(?:{_PHONETIC})(?:-(?:{_PHONETIC})){{3,}}(?![\w-])(?![ \t]+\d)",
        0.9,
        "phonetic_spelling",
    ),
    # Lower-case letters apart by single spaces, four or more, no letter three times
    # in a row: a spelling as speech recognition writes it ("o k a f o r"), not
    # "a i i i" (an answer's marker, then a stutter). In capitals such runs are
    # as often markers and stutters: not read.
    _p(
        "SPELLED_NAME",
        r"(?<![\w'’-])[a-z](?: [a-z]){3,}(?![\w'’-])",
        0.85,
        "spelled_spaces",
    ),
    _p("SPELLED_OUT_ITEM", r"\b[A-Z] as in [A-Za-z]+\b", 0.85, "as_in"),
    _p("DATE", r"\b\d{1,2}[/.-]\d{1,2}[/.-](?:\d{4}|\d{2})\b", 0.9, "numeric_date"),
    # The day may open the next line, but a page's printed line number is none
    # ("Rosalind June⏎17  Pettigrew"). Spoken, "the" may stand before an ordinal day
    # ("March the 3rd, 1951").
    _p(
        "DATE",
        # The weekday belongs to the date, as the guideline has it ("Saturday, August 26th").
        rf"\b(?:{WEEKDAYS},?{_ONE_BREAK})?{MONTHS}(?:[^\S\n]|\n(?![ \t]*\d{{1,3}}[ \t]))+"
        rf"(?:the[ \t]+(?=\d{{1,2}}(?:st|nd|rd|th)\b(?![ \t]+(?:time|times|place|grade|floor|round)\b)))?{_DAY}"
        r"(?:,?\s+\d{4})?\b",
        0.9,
        "month_day",
    ),
    # One line's break at most between the day and what follows it: a page's number
    # above a blank line ("7⏎⏎April 29, 2025") is no day; after its "of" a scan's blank
    # line may come ("llth of⏎⏎September").
    # A count ending one line is no day of a month opening the next ("About 14⏎14
    # March was"): over a line's end only its "of" carries the day on, or a word that
    # leads a date before the day ("on 6⏎February 2024", "the night of 17⏎September",
    # "DOB: 9⏎October 1980", a field's colon).
    _p(
        "DATE",
        rf"\b{_DAY}(?:[ \t]+(?:of\s+)?|{_ONE_BREAK}(?=of\b)of\s+){MONTHS}(?:,?\s+\d{{4}})?\b",
        0.9,
        "day_month",
    ),
    _p(
        "DATE",
        rf"(?:\b(?i:on|of|since|dated|date|from|to|until|till|before|after|by|born|dob|effective|signed|filed|received"
        rf"|issued|entered|served|this)|:)[ \t]+(?P<v>{_DAY}{_ONE_BREAK}(?:of\s+)?{MONTHS}"
        r"(?:,?\s+\d{4})?)\b",
        0.9,
        "day_month_wrapped",
    ),
    _p("DATE", rf"\b{MONTHS}(?:\s+of)?\s+\d{{4}}\b", 0.9, "month_year"),
    # A day said in words, of its month ("the third of⏎October, 2019"), or after its
    # weekday ("on Thursday the sixth", "Wednesday the 14th"); the weekday belongs to
    # the date, "the" before the ordinal does not.
    _p(
        "DATE",
        rf"\b(?P<v>(?:{WEEKDAYS}[ \t]+the[ \t]+)?{_SPOKEN_ORDINAL}{_ONE_BREAK}of{_ONE_BREAK}{MONTHS}"
        r"(?:,?[ \t]+\d{4})?)\b",
        0.9,
        "spoken_day_of_month",
    ),
    # (Not "Tuesday the first thing I did", "Monday the 3rd time".)
    _p(
        "DATE",
        rf"(?<!\bevery )(?<!\bEvery )(?<!\beach )(?<!\bEach )\b{WEEKDAYS}[ \t]+the[ \t]+(?:{_SPOKEN_ORDINAL}|{_DAY})\b"
        r"(?![ \t]+of\b)(?![ \t]+(?:thing|things|time|times|floor|grade|place|round|one|day|week|person|step|call"
        r"|hour|hours|shift|shifts|half|period|quarter|meeting|session|class)\b)",
        0.85,
        "weekday_the_day",
    ),
    # A numeric date after its weekday, abbreviated or not ("Date: Tue 3/11/2025").
    _p(
        "DATE",
        rf"\b(?:{WEEKDAYS}|(?:Mon|Tues?|Wed|Thu(?:rs?)?|Fri|Sat|Sun)\.?),?[ \t]+"
        r"\d{1,2}/\d{1,2}/(?:\d{4}|\d{2})\b",
        0.9,
        "weekday_numeric_date",
    ),
    # With its day ("12 Bahman 1401"): "Dr. Dey 1345" is a name and a clock.
    _p(
        "DATE",
        rf"\b{_DAY}[ \t]+{PERSIAN_MONTHS},?[ \t]+1[34]\d\d\b(?![ \t]*(?:hrs|hours|h\b|:))",
        0.9,
        "persian_date",
    ),
    # Not a code's part ("PA-2024-1009-33817", "ISP-2019-1183", a case's year before
    # its type: "2019-DR-02-0447", "2024 CF 0917").
    # Nor a street's hundred block ("the 1900 block of").
    _p(
        "DATE",
        # After "No." only: "a 2012 RAM 1500", "my 2021 IRS 1040" keep their years.
        # Nor a catalogue's whole part ("2019.014"); a date's ("2019.03.15") stays.
        r"(?<![A-Z]{2}-)\b(?:19|20)\d{2}\b(?!-\d{3,})(?!\.\d{3})(?!-[A-Z]{1,4}-)"
        r"(?!(?<=No\.[ ]\d{4})[ ][A-Z]{2,3}[ ]\d{3,})(?![ \t]+block\b)",
        0.6,
        "year",
    ),
    # A month and its year in figures ("07/2025", "05/2021-09/2023"), not a full date's end.
    _p("DATE", r"(?<![\d/])(?:0?[1-9]|1[0-2])/(?:19|20)\d{2}\b(?!/)", 0.8, "month_year_numeric"),
    _p("DATE", rf"\b{SPOKEN_YEAR}\b", 0.7, "spoken_year", IGNORECASE),
    _p("DATE", r"\b(?:19|20)?\d0'?s\b", 0.6, "decade"),
    # Not a recording's elapsed time in brackets ("[00:05:04] DETECTIVE:"), nor a
    # federal docket's office and year ("2:24-cv-00317").
    _p(
        "TIME",
        # The meridiem on the clock's line or opening the next ("at 9:10⏎a.m. sharp"); not
        # past a page's printed line number, which this copy of the text blanks into a
        # wide indent ("3:52⏎25   p.m." gives "3:52": the merge would cut it there).
        r"(?<![:\d])(?<!\[\d)\b(?!\d{1,2}:\d{2}:\d{2}\])\d{1,2}:\d{2}(?::\d{2})?(?!-[a-zA-Z]{2}-\d)"
        r"(?:[ \t]*(?:\n[ \t]{0,3})?[ap]\.?m\.?)?",
        0.9,
        "clock",
        IGNORECASE,
    ),
    # Not a dotted clock's minutes ("11.30 a.m.": `dotted_clock` reads it whole).
    _p("TIME", r"(?<![\d.])\d{1,2}[ \t]*(?:\n[ \t]{0,3})?[ap]\.m\.", 0.85, "am_pm", IGNORECASE),
    # A clock with a point, as Australia and Britain write it, before am or pm ("2.40 am",
    # "[11.02 AM]"); a point alone is a decimal's ("2.51 kg", "at 2.5").
    _p("TIME", r"(?<![\d.])(?:1[0-2]|0?[1-9])\.[0-5]\d[ \t]*(?i:[ap]\.m\.|[ap]m\b)", 0.85, "dotted_clock"),
    # A clock with a point the words around it say is one, without am or pm: after a
    # word that says when ("at about 9.30 in the morning", "until 9.00 at night", "left
    # at 7.15 that evening", "Arrested: 08.55 hrs"), a part of the day or a day after it
    # ("in the morning", "that evening", a Malay record's "malam", "hrs on 12/03/2024").
    # Not a reading, a price or an amount of hours ("His sugar was 7.20 in the morning",
    # "it traded at about 9.30, then fell", "I billed 14.25 hrs that week").
    _p(
        "TIME",
        r"(?:\b(?:at|by|until|till|from|since|before|after|around|about|approximately|to)[ \t]*\n?[ \t]*"
        r"(?:(?:about|around|approximately|roughly)[ \t]*\n?[ \t]*)?"
        r"|\b(?:time|commenced|concluded|started|ended|finished|began|arrested|arrived|departed)[ \t]*:[ \t]*)"
        r"(?P<v>(?:[01]?\d|2[0-3])\.[0-5]\d(?!\d|\.\d)(?:[ \t]+hrs\b)?)"
        rf"(?:(?<=hrs)|(?={_A_DAY_S_PART}))",
        0.8,
        "dotted_clock",
        IGNORECASE,
    ),
    # A Malay record's clock word says so too, its clause ending or the day's part after
    # it ("jam 9.00,", "pukul 10.15.", "jam lebih kurang 10.40 malam").
    _p(
        "TIME",
        r"\b(?:jam|pukul)(?:[ \t]+lebih[ \t]+kurang)?[ \t]+(?P<v>(?:[01]?\d|2[0-3])\.[0-5]\d)(?!\d|\.\d)"
        rf"(?=[ \t]*(?:[,;)]|\.(?!\d)|$)|{_A_DAY_S_PART})",
        0.8,
        "dotted_clock",
        IGNORECASE,
    ),
    # A twenty-four-hour clock of four figures: a log's column after a date ("10/08/24
    # 0855    Entrance"), a figure that opens with a nought after "at", "by", "until",
    # "notified" and the like ("notified 0830", "on at 0625": no year opens so), or any
    # before "hours"/"hrs" ("at 1400 hours"). Not a year ("at 2015 levels").
    _p(
        "TIME",
        r"\d/\d\d(?:\d\d)?[ \t]{2,}(?P<v>(?:[01]\d|2[0-3])[0-5]\d)(?=[ \t]{2,}\S)",
        0.85,
        "military_clock",
    ),
    _p(
        "TIME",
        r"\b(?i:at|by|until|till|from|since|around|about|approximately|notified|activated|cancelled|canceled)"
        r"[ \t]+(?P<v>0\d[0-5]\d)\b(?![-/.]\d)",
        0.85,
        "military_clock",
    ),
    # "hrs" written apart stays outside ("1400 hrs"); written on the figures it is part
    # of the word ("1100hrs", a Nigerian police file's way), which no span cuts.
    _p("TIME", r"\b(?:[01]\d|2[0-3])[0-5]\d(?:(?=[ \t]+(?i:hours|hrs)\b)|(?i:hrs)\b)", 0.85, "military_clock"),
    # A watch's or a log's span of four-figure clocks, two spans ("AIS data, 0300 to 0430
    # local", "the front watch, 0600 to 1200 and 1800 to 2400"): one opens with a nought
    # or the other is midnight's 2400, which no span of years does ("1950 to 2000"), and
    # a watch's or a log's word stands before it, no document's ("Bates 0001 through
    # 0045": `_a_watch_s_range`).
    _p(
        "TIME",
        r"(?<![\w/.-])(?P<a>(?:[01]\d|2[0-3])[0-5]\d)[ \t]*(?:to|through|until|till)[ \t]*"
        r"(?P<b>(?:[01]\d|2[0-3])[0-5]\d|2400)(?![\w/-]|\.\d)",
        0.85,
        "military_range",
    ),
    _p("PHONE_NUMBER", r"(?<!\w)(?:\+?1[-.\s]?)?\(?\d{3}\)?[-.\s]\d{3}[-.\s]\d{4}\b", 0.8, "us_phone"),
    # An IP address: four numbers up to 255 joined by dots ("203.0.113.47"; not a
    # version's "1.2.3" nor a longer dotted run), or an IPv6 one with "::" or five
    # groups and more (a clock's "10:30:15" has three).
    _p(
        "IP_ADDRESS",
        r"(?<![\w.])(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(?![\w]|\.\d)",
        0.9,
        "ipv4",
    ),
    _p(
        "IP_ADDRESS",
        r"(?<![\w:])(?=[0-9A-Fa-f:]*::|(?:[0-9A-Fa-f]{1,4}:){4})(?:[0-9A-Fa-f]{1,4}|:)(?::[0-9A-Fa-f]{0,4}){2,7}(?![\w:])",
        0.85,
        "ipv6",
    ),
    # Anchored at the start of the local part, or a long run with no "@" is quadratic.
    _p("EMAIL_ADDRESS", r"(?<![\w.+-])[\w.+-]+@[\w-]+(?:\.[\w-]+)+\b", 0.95, "email"),
    # An address said aloud ("koduya14 at gmail dot com"), as speech recognition writes
    # it: a mail provider's name, or a user's name with a figure in it ("look at this
    # dot com" is none).
    _p(
        "EMAIL_ADDRESS",
        r"(?<![\w.+-])(?:[a-z](?=[\w.+-]*\d)[\w.+-]*[ \t]+at[ \t]+[a-z][\w-]*"
        r"|[a-z][\w.+-]*[ \t]+at[ \t]+(?:gmail|yahoo|hotmail|outlook|icloud|aol|comcast|protonmail|proton|live|msn))"
        r"[ \t]+dot[ \t]+(?:com|net|org|edu|gov|us|co|io)\b",
        0.85,
        "email_spoken",
        IGNORECASE,
    ),
    _p("URL", r"\bhttps?://[^\s<>\"']+[^\s<>\"'.,;:!?)]", 0.9, "url"),
    _p("URL", r"\bwww\.[^\s<>\"']+[^\s<>\"'.,;:!?)]", 0.85, "www"),
)


# One letter three times in a row inside a spaced run: a stutter, not a spelling.
# (Checked on the match, not in the pattern: a lookahead over the rest of a long
# line of lower-case speech made the search quadratic.)
_STUTTER = re.compile(r"(?<![a-z])([a-z]) \1 \1(?![a-z])")


def _a_state(written: str) -> bool:
    """A US state's name in title case or capitals ("Ohio", "NEW YORK"), or its code
    in capitals ("OH"); the two words a state may have, or its last one ("Dayton,
    New York"; "Dayton Ohio")."""
    for name in (written, written.split(" ")[-1]):
        if name.isupper() and len(name) == 2:
            if name in _STATE_NAMES:
                return True
        elif (name.istitle() or name.isupper()) and name.lower() in _STATE_NAMES:
            return True
    return False


def _crossing(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """The ordinal at text[start:end] and the street it crosses: "At Elm and 5th"
    (an ordinal that counts no grade or place after it), "on 5th and Main"."""
    before = _STREET_THEN_AND.search(text, max(0, start - 40), start)
    if before is not None and _NOT_A_STREET_AFTER_RE.match(text, end):
        return [before.span("n"), (start, end)]
    after = _AND_STREET.match(text, end)
    # Between two ordinals, the sentence stops or names its streets after the second
    # ("the alley between 33rd and 34th."); "between 9th and 10th week", "between 1st
    # and 15th of the month" count other things.
    if (
        after is not None
        and after.group("n")[:1].isdigit()
        and _BETWEEN_BEFORE.search(text, max(0, start - 10), start)
        and not _STOP_OR_STREETS_AFTER.match(text, after.end())
    ):
        return []
    if (
        after is not None
        and _CROSSING_BEFORE_RE.search(text, max(0, start - 8), start)
        and not is_given_name(after.group("n"))  # "on 5th and Maria came later"
        and not _CALENDAR.fullmatch(after.group("n"))  # "on 3rd and Thursday"
    ):
        return [(start, end), after.span("n")]
    return []


# A word after a number that is no conjunction: the number counts it.
_A_NOUN_AFTER = re.compile(r"[ \t]+(?!(?:and|or|but|then|is|was)\b)[A-Za-z]")
_ACCOUNT_BEFORE = re.compile(
    r"(?i)\b(?:account|acct|card|bank|checking|savings|IOLTA|trust|loan|VIN|policy|social[ \t]+security|SSN)\b"
)
_LIFE_EVENT = re.compile(rf"(?i)\b(?:{LIFE_EVENTS})\b")
# How far back in its sentence an age's event is looked for.
_EVENT_REACH = 80


def _in_its_sentence(words: re.Pattern[str], text: str, start: int) -> bool:
    """One of `words` before `start` in its sentence (at most `_EVENT_REACH` back)."""
    begin = max(0, start - _EVENT_REACH)
    end_of_last = max(text.rfind(mark, begin, start) for mark in ".?!")
    return words.search(text, max(begin, end_of_last + 1), start) is not None


def _a_life_event_before(text: str, start: int) -> bool:
    """An event of a life (`LIFE_EVENTS`) before `start` in its sentence."""
    return _in_its_sentence(_LIFE_EVENT, text, start)


def _a_life_event_after(text: str, end: int) -> bool:
    """An event of a life opening the clause right after an age: "at fifteen I quit",
    "at 16 she dropped out" (a subject, then at most one word, then the event)."""
    return _EVENT_AFTER.match(text, end) is not None


_EVENT_AFTER = re.compile(rf"(?i),?[ \t]+(?:I|he|she|they|we|you)[ \t]+(?:\w+[ \t]+)?(?:{LIFE_EVENTS})\b")

# An age said again or corrected beside one found: "Forty -- I'm 44. Forty-four.",
# "thirty-eight. No, thirty-nine.", "seventy -- seventy-one years old". The other
# number must be near it in value (a false start or a slip, not another count).
_NUMBER = rf"(?:\d{{1,3}}|{NUMBER_WORDS})"
_RESTATED_BEFORE = re.compile(
    rf"(?i)(?<![\w-])(?P<n>{_NUMBER})[ \t]*(?:--|—|–)[ \t]*(?:(?:I['’]m|I[ \t]+am|I[ \t]+was|(?:he|she)['’]s"
    rf"|(?:he|she)[ \t]+(?:is|was))\s+)?$"
)
_RESTATED_AFTER = re.compile(
    # "fifty-one -- no,⏎12  fifty-two" (a printed line number between), "Thirty -- sorry,
    # thirty-one", "sixty-nine -- no, seventy".
    rf"(?i)(?:[ \t]*(?:--|—|–)[ \t]*(?:(?:no|I[ \t]+mean|sorry|wait|I['’]m[ \t]+sorry)[.,]?\s+"
    rf"(?:\d{{1,2}}[ \t]+(?=[a-z]))?)?"
    rf"|[.!][ \t]+(?:(?:no|I[ \t]+mean|sorry)[.,]?[ \t]+)?"
    # A range or a choice said of one age: "maybe 22, 23", "at 12 or 13", "they're 6
    # and 9" (the second number must end its clause too).
    rf"|,[ \t]+|[ \t]+(?:or|and)[ \t]+)(?P<n>{_NUMBER})"
    # "Twenty-five. Twenty-six in September.": the next birthday's month.
    rf"(?![\w-])(?=[ \t]*(?:[.,;!?\n]|$|--|years?[ \t-]+old\b|since\b|now\b|in[ \t]+{MONTHS}\b))"
)
_UNIT_VALUES = {w: i for i, w in enumerate("one two three four five six seven eight nine".split(), 1)}
_WORD_VALUES = {
    **_UNIT_VALUES,
    **{
        w: i
        for i, w in enumerate(
            "ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen".split(), 10
        )
    },
    **{w: 10 * i for i, w in enumerate("twenty thirty forty fifty sixty seventy eighty ninety".split(), 2)},
}
# An age asked back, answered on the next line: "So you are 41?⏎13  A.  Forty-one.",
# "So you're 36 today?⏎A.  36, yes." The answer's line may open with a printed line
# number, a recording's clock (and a dispatcher's position letter: "21:45:17  C"), a
# speaker's label or "A.".
_ANSWERED_AFTER = re.compile(
    # No other question asked between: "You were 16 then. How many times did he hit
    # you?⏎A. Twelve." answers the count.
    r"(?![^\n?]{0,40}\b(?i:how|what|which|where|when|who|why|and|or)\b)"
    r"[^\n?]{0,40}\?[ \t]*\n(?:[ \t]*\n)?[ \t]*"
    r"(?:\[[\d:]+\][ \t]*|\d{1,2}(?::\d\d){1,2}[ \t]+(?:[A-Z]{1,3}[ \t]+)?|\d{1,2}[ \t]+)?"
    # The answer's mark or its speaker's label: a numbered blank line is no answer
    # ("16 at the time?⏎13⏎14  MR. PIKE:").
    r"(?:[A-Z][A-Z .'’-]{0,60}:|[QA]\.|A(?=[ \t]))[ \t]*"
    rf"(?P<n>(?i:{_NUMBER}))(?![\w-])(?=[ \t]*(?:[.,!;\n]|--|$))"
)
# How far apart in years a false start and the age it restarts may be.
_RESTATED_REACH = 10


# Speech recognition's clause end without punctuation: a pronoun right after the number.
_PRONOUN_AFTER = re.compile(r"[ \t]+(?i:i|he|she|his|her|we|they|my)\b")
# A printed line number inside the match ("you⏎ 2  were 19").
_PRINTED_NUMBER_INSIDE = re.compile(r"\n[ \t]*\d{1,2}[ \t]{2,}")


def _a_being_s_age(text: str, match: re.Match[str], start: int, end: int) -> bool:
    """Whether an `age_after_being` match stays one where it leans on its weaker
    readings: past a printed line number, or ended by a pronoun with no stop between
    (as speech recognition writes), the number is an age only from thirteen up (a
    seat, a count or a false start below: "who was⏎12  3, Your Honor?", "i'm 5 i'm 5
    minutes away"); after a pronoun, only in words, as speech recognition writes them."""
    value = _value(text[start:end])
    if value is None:
        return False
    if _PRINTED_NUMBER_INSIDE.search(match.group()) and value < 13:
        return False
    return not (_PRONOUN_AFTER.match(text, end) and (value < 13 or text[start].isdigit()))


def _value(number: str) -> int | None:
    """The number an age's text opens with ("12", "forty-four years old", "forty
    four") as an integer; None when it opens with none."""
    found = re.match(_NUMBER, number, re.IGNORECASE)
    if found is None:
        return None
    if found.group().isdigit():
        return int(found.group())
    parts = re.split(r"[- ]+", found.group().lower())
    values = [_WORD_VALUES.get(p) for p in parts]
    return None if None in values else sum(v for v in values if v is not None)


def _restated_ages(text: str, ages: list[Candidate]) -> list[Candidate]:
    """The numbers around the ages found that restart or repeat them (a chain:
    "thirty -- thirty-eight. No, thirty-nine. Thirty-nine.")."""
    found: list[Candidate] = []
    queue = list(ages)
    # The characters the ages cover: a check per number in its own length, whatever
    # the count of ages (a text of thousands of them stays linear).
    covered = {i for a in ages for i in range(a.start, a.end)}
    while queue:
        age = queue.pop()
        value = _value(age.text)
        if value is None:
            continue
        before = _RESTATED_BEFORE.search(text, max(0, age.start - 40), age.start)
        after = _RESTATED_AFTER.match(text, age.end)
        answered = _ANSWERED_AFTER.match(text, age.end)
        for match in (m for m in (before, after, answered) if m is not None):
            start, end = match.span("n")
            other = _value(match.group("n"))
            if other is None or abs(other - value) > _RESTATED_REACH:
                continue
            if any(i in covered for i in range(start, end)):
                continue  # an age already ("seventy-one" of "seventy-one years old")
            covered.update(range(start, end))
            new = Candidate(start, end, "AGE", text[start:end], (SOURCE,), age.score, "pattern:age_restated")
            found.append(new)
            queue.append(new)
    return found


# A number read out digit by digit, as speech recognition writes it ("nine oh nine
# five five five oh one four seven"): ten or seven digits are a phone number, six
# or more otherwise a record's number (five after a letter). Not a count ("one two
# three four five"), nor an odometer's five digits.
_DIGIT_WORD = r"(?:zero|oh|one|two|three|four|five|six|seven|eight|nine)"
_SPOKEN_DIGITS = re.compile(
    # A licence's or a warrant's letter first ("b seven four one two nine oh six"):
    # a record's number, whatever its length; not "a" or "I".
    rf"(?i)(?<![\w'’-])(?P<letter>(?![ai][ \t])[a-z][ \t]+)?{_DIGIT_WORD}(?:[ \t,-]+{_DIGIT_WORD}){{4,}}(?![\w'’-])"
)
_DIGIT_VALUES = {"zero": 0, "oh": 0, **_UNIT_VALUES}
# Digits that say a phone number: a local one and one with its area code.
_PHONE_DIGITS = (7, 10, 11)
# The fewest digits read out that make a record's number without a letter before them.
_RECORD_DIGITS = 6


def _spoken_numbers(text: str) -> list[Candidate]:
    """Numbers read out digit by digit (`_SPOKEN_DIGITS`), labelled by their length."""
    found = []
    for match in _SPOKEN_DIGITS.finditer(text):
        digits = [
            _DIGIT_VALUES[w.lower()] for w in re.findall(r"[A-Za-z]+", match.group())[bool(match.group("letter")) :]
        ]
        steps = {b - a for a, b in zip(digits, digits[1:], strict=False)}
        if steps in ({1}, {-1}, {0}):
            continue  # counting up or down, or one word over and over ("oh oh oh oh oh")
        if len(digits) < _RECORD_DIGITS and not match.group("letter"):
            continue  # an odometer's or a count's five digits
        label = "PHONE_NUMBER" if len(digits) in _PHONE_DIGITS and not match.group("letter") else "ID"
        found.append(
            Candidate(match.start(), match.end(), label, match.group(), (SOURCE,), 0.8, "pattern:spoken_digits")
        )
    return found


# A recording's elapsed time: in brackets or parentheses opening a line, counted
# from zero or before a speaker's label ("(00:09) FEMALE:", "[01:15] INMATE:"; a
# log's "[14:32] Inmate placed call" is a time of day), or a length ("Duration:
# 00:01:41").
_STAMP_OPENS_LINE = re.compile(r"(?:^|\n)[ \t]*[\[(]$")
# A speaker's label after a recording's stamp ("(00:09) FEMALE:", "00:21  DCI HOLLOWAY:").
# (Irish and other capitals with their accents too: "CÓC:".)
_STAMPED_LABEL = r"[A-ZÀ-ÖØ-Þ][A-ZÀ-ÖØ-Þ0-9 .'’-]{0,40}:"
_LABEL_AFTER_STAMP = re.compile(rf"[\])][ \t]*{_STAMPED_LABEL}")
_LENGTH_BEFORE = re.compile(r"(?i)\b(?:duration|length|elapsed|run[ \t]*time)[ \t]*:?[ \t]*$")


# A subtitle file's timing ("00:14:02,340 --> 00:14:05,120"): milliseconds after
# the clock, an arrow on its line.
_MILLISECONDS_AFTER = re.compile(r"[,.]\d{3}(?=[ \t]*-->|[ \t]*(?:\n|$))")
# A meeting's transcript as its software exports it: the speaker's name, two blanks
# and the clock ending the line ("Genevieve Stolz  00:00:04"); its chat's lines
# opening with the clock ("00:01:58 From Radomir Szczepanik to Everyone:").
_NAME_BEFORE_STAMP = re.compile(r"\S[ \t]{2,}\[?$")
_STAMP_ENDS_LINE = re.compile(r"\]?[ \t]*(?:\n|$)")
_CHAT_AFTER_STAMP = re.compile(r"[ \t]+From[ \t]+\S[^\n]*[ \t]to[ \t][^\n]*:[ \t]*(?:\n|$)")
_RECORDING_FROM_ZERO = re.compile(r"^(?P<line>[^\n]{0,200}\S[ \t]{2,}\[?)(?P<stamp>0?0:00:\d\d)", re.MULTILINE)
# A meeting app may write minutes and seconds alone ("Speaker 2   0:43"). Such a
# transcript gives several speakers' stamps in its first minute, one speaker twice; a
# night's log of clocks ("Call received   0:15", "Unit 4 on scene   0:31") gives events.
_MEETING_FROM_ZERO = re.compile(r"^(?P<line>[^\n]{0,200}\S[ \t]{2,}\[?)(?P<stamp>0:[0-5]\d)(?![:\d])", re.MULTILINE)
_MEETING_STAMPS = 4
_MINUTES_SECONDS = re.compile(r"\d{1,3}:[0-5]\d")


_RECORDING = DocumentAnswers()
# A subtitle file's timing, or lines opened by a recording's stamp from its first minute
# ("[00:00:04] MONTAÑEZ:"): the text is a recording's transcript.
_TIMED_CUES = re.compile(r"\d\d:\d\d:\d\d[.,]\d{3}[ \t]+-->|^[ \t]*[\[(]?0?0:00(?::\d\d)?[\])]?[ \t]", re.MULTILINE)
_TRANSCRIPT_OF_A_RECORDING = DocumentAnswers()
_HOURS_MINUTES = re.compile(r"(?P<h>\d{1,2}):\d{2}(?P<s>:\d{2})?")


def recording_offset(text: str, start: int, end: int) -> bool:
    """The clock text[start:end] counts into a recording, no time of day: more hours
    than a day has ("End of file 1, 58:07"), or hours, minutes and seconds from zero
    inside a transcriber's bracketed note of a recording's transcript ("[Paralegal
    note: the video dropped at 00:07:06.]"); what a speaker says ("It was 00:30:00
    when the alarm went off") stays a time of day."""
    match = _HOURS_MINUTES.fullmatch(text, start, end)
    if match is None:
        return False
    hours = int(match.group("h"))
    if hours > 24 or (hours == 24 and not text.startswith("24:00", start)):
        return True
    if not (match.group("s") and text.startswith(("00:", "0:"), start) and _in_a_bracketed_note(text, start)):
        return False
    return _TRANSCRIPT_OF_A_RECORDING.get(text, "", lambda: _TIMED_CUES.search(text) is not None)


_NOTE_REACH = 300


def _in_a_bracketed_note(text: str, start: int) -> bool:
    """A square bracket opened before `start` (within `_NOTE_REACH`) and not closed."""
    head = text[max(0, start - _NOTE_REACH) : start]
    return head.rfind("[") > head.rfind("]")


# A tape's counter opening a speaker's line, unbracketed ("00:21  DC SHEIKH:", a
# British record of interview): where the document's counter starts from zero.
_LINE_OPENS_BEFORE = re.compile(r"(?:^|\n)[ \t]*$")
_LABEL_AFTER_COUNTER = re.compile(rf"[ \t]+{_STAMPED_LABEL}")
_COUNTER_LINE = re.compile(rf"^[ \t]*(?:(?P<h>\d\d):)?(?P<m>\d\d):(?P<s>\d\d)[ \t]+{_STAMPED_LABEL}", re.MULTILINE)
# How far into the recording its first two stamps may stand ("00:00:04  SNB:", then
# "00:00:25  CMGC:", a Garda video's counter), in seconds.
_FIRST_STAMP_REACH = 30
_SECOND_STAMP_REACH = 120
_COUNTER = DocumentAnswers()


def _counts_from_zero(text: str) -> bool:
    """The document's first clock-and-label line is "00:00" and its second within the
    first minute: a tape's counter in minutes and seconds, not a log's clock that
    started near midnight ("00:04 DISPATCH:", "02:14 ALARM:"). With its hours, the
    first two within half a minute and two minutes of the start, in turn ("00:00:04",
    "00:00:25")."""
    lines = list(islice(_COUNTER_LINE.finditer(text), 2))
    if len(lines) < 2:
        return False
    if lines[0].group("h") is None or lines[1].group("h") is None:
        first_two = [(int(m.group("m")), int(m.group("s"))) for m in lines]
        return first_two[0] == (0, 0) and first_two[1][0] == 0
    first, second = (int(m.group("h")) * 3600 + int(m.group("m")) * 60 + int(m.group("s")) for m in lines)
    return first <= _FIRST_STAMP_REACH and first < second <= _SECOND_STAMP_REACH


def a_tape_counter(text: str, start: int, end: int) -> bool:
    """The clock text[start:end] is a tape's counter opening a speaker's line, in a
    document whose counter starts from zero."""
    if _LINE_OPENS_BEFORE.search(text, max(0, start - 20), start) is None:
        return False
    if _LABEL_AFTER_COUNTER.match(text, end) is None:
        return False
    return _COUNTER.get(text, "", lambda: _counts_from_zero(text))


def _elapsed(text: str, start: int, end: int) -> bool:
    """The clock text[start:end] is a recording's, no time of day: a stamp opening a
    line in brackets from zero or before a label, a length, or a subtitle's timing
    or a meeting transcript's stamp (`recording_stamp`), or an offset into one
    (`recording_offset`)."""
    stamp = text[end : end + 1] in ("]", ")") and _STAMP_OPENS_LINE.search(text, max(0, start - 20), start)
    from_zero = text.startswith(("00:", "0:"), start)
    return bool(
        recording_stamp(text, start, end)
        or recording_offset(text, start, end)
        or (stamp and (from_zero or _LABEL_AFTER_STAMP.match(text, end)))
        or a_tape_counter(text, start, end)
        or _LENGTH_BEFORE.search(text, max(0, start - 20), start)
    )


def recording_stamp(text: str, start: int, end: int) -> bool:
    """The clock text[start:end] is a subtitle's timing or a meeting transcript's
    stamp: a file's layout says so, which a model reading the words does not see
    (the filters drop its TIME there too). A meeting's stamp ends its speaker's line
    and an utterance follows; a field's ("Dispatched:   00:42:10") or a log's, whose
    next line ends in a clock too, is a time of day. The text must hold a speaker's
    stamp in the recording's first minute. Only the line's last `_STAMP_REACH`
    characters are read: a text of one long line stays linear."""
    head = text[max(0, start - _STAMP_REACH) : start]
    newline = head.rfind("\n")
    line = head[newline + 1 :] if newline >= 0 or start <= _STAMP_REACH else None
    if line is None:
        return False
    if _MILLISECONDS_AFTER.match(text, end) and "-->" in line + text[end : end + 30]:
        return True
    if text.count(":", start, end) != 2 and _MINUTES_SECONDS.fullmatch(text, start, end) is None:
        return False
    chat = newline >= 0 and line == "" and _CHAT_AFTER_STAMP.match(text, end) is not None
    speaker = _speaker_s_stamp(text, line, end)
    return (chat or speaker) and _RECORDING.get(text, "", lambda: _recording(text))


_STAMP_REACH = 200
_CLOCK_ENDS_LINE = re.compile(r"\d:\d\d(?::\d\d)?\]?[ \t]*$")


def _speaker_s_stamp(text: str, line: str, end: int) -> bool:
    """A name, two blanks or more, the stamp ending the line; no field's colon before
    it; the next line an utterance (no clock at its end)."""
    if _NAME_BEFORE_STAMP.search(line) is None or line.rstrip(" \t[").endswith(":"):
        return False
    after = _STAMP_ENDS_LINE.match(text, end)
    if after is None:
        return False
    begin = after.end()
    newline = text.find("\n", begin, begin + _STAMP_REACH)
    next_line = text[begin : newline if newline >= 0 else begin + _STAMP_REACH]
    return bool(next_line.strip()) and _CLOCK_ENDS_LINE.search(next_line) is None


def _recording(text: str) -> bool:
    """The text holds a speaker's stamp in its first minute ("Genevieve Stolz  00:00:04"),
    an utterance after it."""
    for match in _RECORDING_FROM_ZERO.finditer(text):
        if _speaker_s_stamp(text, match.group("line"), match.end("stamp")):
            return True
    # A meeting's speakers come back: some label says two stamps of the first minute
    # (a log's lines are events, each its own: "Call received", "Unit 4 dispatched").
    labels: list[str] = []
    for match in _MEETING_FROM_ZERO.finditer(text):
        if _speaker_s_stamp(text, match.group("line"), match.end("stamp")):
            labels.append(" ".join(match.group("line").split()).rstrip("["))
        if len(labels) >= _MEETING_STAMPS and len(set(labels)) < len(labels):
            return True
    return False


# An agency's acronym then "No.", and the number of a register it may hold ("ODOC No.
# 287114", "NRIC No. S7241208J"), checked in `_rejected`.
_AGENCY_NO = re.compile(r"[A-Z]{2,5}[ \t]*(?:No|NO)\.")
_A_REGISTER_S_NUMBER = re.compile(r"[A-Z]?\d{5,}[A-Z]?")


# What follows a length that makes it a thing's size or a distance, no one's height
# ("eight foot long", "two foot thick", "six feet away", "five-foot centers"); not
# "from what I could see", which a witness says after a height.
_A_THING_S_SIZE_AFTER = re.compile(
    r"[ \t-]+(?:high|long|wide|thick|deep|away|apart|behind|below|above|across|square|in[ \t]+diameter"
    r"|centers|centres|intervals|fence|wall|drop|ladder|pole|ceiling|beam)\b"
)
# A watch's or a log's words before a range of four-figure clocks, and a document's
# numbers' words, which rule it out.
_WATCH_BEFORE = re.compile(r"(?i)\b(?:watch|shift|duty|from|between|hours|log|data|recording|channel)\b")
_DOCUMENTS_BEFORE = re.compile(
    r"(?i)\b(?:bates|pages?|pp\.|lines?|exhibits?|paragraphs?|documents?|invoices?|nos?\.|numbers?|items?|records?)\b"
)
_RANGE_REACH = 40


def _a_watch_s_range(text: str, start: int) -> bool:
    before = text[max(0, start - _RANGE_REACH) : start]
    return _WATCH_BEFORE.search(before) is not None and _DOCUMENTS_BEFORE.search(before) is None


# The words before "number" that number no person's record: a telephone's, a page's,
# a document's part, a seat's, a product's, a place's.
_NOT_A_RECORD_S_NUMBER = re.compile(
    r"(?i:\b(?:phone|telephone|cell|cellphone|mobile|fax|contact|callback|page|pages|line|lines|exhibits?"
    r"|paragraphs?|para|sections?|rules?|counts?|room|seat|jersey|model|part|version|lot|route|highway|channel"
    r"|tab|items?|bates|house|street|suite|apartment|apt|box|zip|postal|frame|track|size|style|catalog"
    r"|catalogue|sku|tel|whatsapp|landline"
    # A law's, an order's, a patent's, a form's, a drug's, a filing's number.
    r"|l|law|order|resolution|ordinance|patent|form|ndc|ex|exh|dkt|ecf|bill|act)['’]?s?\.?)\s*$"
)
# A telephone's, a date's, a span of years' and an amount's shapes.
_NO_RECORD_S_CODE = re.compile(
    r"(?:\d{3}[-. ])?\d{3}[-. ]\d{4}|[2-9]\d{9}|1[2-9]\d{9}|0\d{9,10}|\d{1,4}[/.-]\d{1,2}[/.-]\d{1,4}"
    # A blood pressure's two readings ("150/95").
    r"|\d{2,3}/\d{2,3}"
    r"|(?:19|20)\d\d[-/](?:19|20)?\d\d|\d+\.\d+"
)


_A_TOWN_S_STATE = re.compile(r"[A-Za-z],[ \t]*$")
# "is", "was" between a count's "number" and its figure ("The number was 25000").
_SAID_OF_THE_NUMBER = re.compile(r"\b(?:is|was|are|were)\b")
# "No." opening a sentence or an answer: the word no ("A. No. 45000 is what I made").
_NO_OPENS_A_SENTENCE = re.compile(r"(?:^|[.?!:]|\b[QA]\.)[ \t]*$")
_A_COURT_S_YEAR = re.compile(r"[ ](?:of|OF)[ ]")
_A_RECORD_S_WORD_BEFORE = re.compile(rf"(?i:\b(?:{_RECORD_WORDS}))[ \t]+$")
# (A check's number is short too: "check number 2214".)
_A_SHORT_NUMBER_S_WORD = re.compile(
    r"(?i:\b(?:collar|badge|shield|star|payroll|clock|warrant|staff|check|cheque))[ \t]+$"
)


def _a_record_s_code(text: str, cue: int, start: int, end: int) -> bool:
    """A code after "number" is a record's where no telephone's, page's or document's
    word names the number, and the code is none of a telephone's, a date's or an
    amount's shapes: a capital and three digits, or five digits (a capital prefix
    apart: four)."""
    if _NOT_A_RECORD_S_NUMBER.search(text, max(0, cue - 20), cue):
        return False
    code = text[start:end]
    digits = sum(c.isdigit() for c in code)
    between = text[cue:start]
    named = _A_RECORD_S_WORD_BEFORE.search(text, max(0, cue - 24), cue) is not None
    # "My DOC number is 0893312": a record's word names the number a count's "is" follows.
    if code.replace(" ", "").isdigit() and ("," in between or (_SAID_OF_THE_NUMBER.search(between) and not named)):
        return False  # "a large number, 25000", "The number was 25000": a count, an amount
    if text.startswith(("N", "n"), cue) and _NO_OPENS_A_SENTENCE.search(text, max(0, cue - 6), cue):
        return False  # "A. No. 45000 is what I made": the word "no"
    if " " in code and not _A_COURT_S_YEAR.search(code):
        # (Digits in groups alone may be a telephone's written abroad, "0722 555 148",
        # "020 7946 0958", but for a file's or a case's, "VA File No. 29 114 667".)
        return (code[:1].isalpha() or named) and digits >= 4 and not _NO_RECORD_S_CODE.fullmatch(code)
    if _NO_RECORD_S_CODE.fullmatch(code):
        return False
    if text.startswith("ID", cue):
        # "Operator ID 2207", not Idaho's ZIP code after its town ("Boise, ID 83702").
        return digits >= 3 and not _A_TOWN_S_STATE.search(text, max(0, cue - 30), cue)
    # A badge's or a collar's number may be short ("collar number 2761").
    return (
        digits >= 3
        if any(c.isalpha() for c in code) or _A_SHORT_NUMBER_S_WORD.search(text, max(0, cue - 12), cue)
        else digits >= 5
    )


# Where a street of the grid stands without its house's number: after a word that
# places ("on North 35th", "off South 2nd", "at West 5th and Main").
# (The word may end the line before, a printed line number opening this one.)
_A_STREET_S_WORD_BEFORE = re.compile(
    r"(?:(?i:\b(?:on|off|at|to|from|near|down|up|along|onto|and|of|by|past))|&)"
    r"(?:[ \t]+|[ \t]*\n[ \t]*(?:\d{1,3}[ \t]+)?)$"
)


def _a_grid_street(text: str, start: int) -> bool:
    return text[start].isdigit() or _A_STREET_S_WORD_BEFORE.search(text, max(0, start - 16), start) is not None


def _common_words_only(text: str, start: int, end: int) -> bool:
    """Every word of text[start:end] is a common English word (unlike `cues`' check of a
    name, a known name's word counts: "Crew Chief")."""
    words = re.findall(r"[A-Za-z][\w'’-]*", text[start:end])
    return bool(words) and all(is_common_word(w) for w in words)


# The rules whose match the words around it rule out, one check each.
_CONTEXT_CHECKS: dict[str, Callable[[str, re.Match[str], int, int], bool]] = {
    "street_address": lambda text, match, start, end: not _an_address(text, match),
    "hash_number": lambda text, match, start, end: not _a_record_s_hash(text, start),
    # Seventeen capitals and digits whose check digit fails: a hash, a part number.
    "vin": lambda text, match, start, end: not _vin_checks(match.group()),
    # "Officer Ruiz, Unit 7": a police unit, no street's address before it.
    "address_unit": lambda text, match, start, end: not _ADDRESS_BEFORE.search(text, max(0, start - 60), start),
    # "(00:09) FEMALE:", "Duration: 00:01:41": a recording's clock, no time of day.
    "clock": lambda text, match, start, end: _elapsed(text, start, end),
    # "a slab eight foot long", "bolted on five-foot centers": a thing's size.
    "height": lambda text, match, start, end: _A_THING_S_SIZE_AFTER.match(text, end) is not None,
    # "Bates 0001 through 0045", "pages 0201 to 0233": numbers of documents.
    "military_range": lambda text, match, start, end: not _a_watch_s_range(text, start),
    # "Flight Crew Chief (#C-100)": an office's words, no one's name.
    "badge_after_name": lambda text, match, start, end: _common_words_only(text, match.start(), start),
    # "page number 12345", "the number is 5595551234": no record's code.
    "code_after_number": lambda text, match, start, end: not _a_record_s_code(text, match.start(), start, end),
    # "He finished North 3rd overall", "The North 2nd Battalion": no street.
    "directional_street": lambda text, match, start, end: not _a_grid_street(text, start),
    # "Suite 18000", "Room 12345": no state before the number.
    "zip_code": lambda text, match, start, end: not _a_state(match.group("state")),
}


# A unit after a number: a measure, no register's number ("parcel 1500 feet").
_A_MEASURE = re.compile(
    r"[ \t]*(?:%|(?i:feet|foot|ft|yards?|yds?|met(?:er|re)s?|m|miles?|kilomet(?:er|re)s?|km|acres?|hectares?|ha"
    r"|square|sq|pounds?|lbs?|kilos?|kg|dollars|bucks|grand|shillings|percent|block)\b)"
)


def _no_parcel_s(match: re.Match[str], text: str, end: int) -> bool:
    """A number after "parcel" without a register's dashes that is a year, or a
    measure's ("parcel 1500 feet", "the parcel 2019 sale", "parcel 1200 block")."""
    return _A_YEAR.fullmatch(match.group("v")) is not None or _A_MEASURE.match(text, end) is not None


_A_YEAR = re.compile(r"(?:19|20)\d\d")


def _no_plate_s_letters(letters: str) -> bool:
    """A currency's code, a vehicle's make or a word: no plate's letters."""
    folded = letters.casefold()
    return letters in currency_codes() or folded in VEHICLE_MAKES or is_common_word(folded)


# A person the sentence speaks of before a hedged age ("Kavya was aged about 21 years",
# "A1, examined on 17/03/2020, aged about 27 years"): a pronoun, a party's or a
# relation's word, a record's accused, or a capitalised word no common one; not "The
# whisky was aged", "The building, aged about 40 years".
_A_PERSON_S_WORD = re.compile(
    r"(?i:\b(?:he|she|him|her|accused|deceased|victim|complainant|witness|defendant|patient|child|boy|girl|man"
    rf"|woman|{FAMILY_RELATIONS})\b)|\bA\d\b"
)
_CAPITALISED = re.compile(r"\b[A-Z][a-z]+\b")


def _a_person_before_aged(before: str) -> bool:
    return _A_PERSON_S_WORD.search(before) is not None or any(
        not is_common_word(word) for word in _CAPITALISED.findall(before)
    )


_SENTENCE_END = re.compile(r"[.!?][ \t\n]+(?=[A-Z])")


def _the_sentence_before(text: str, start: int) -> str:
    """The words before `start` in its sentence, up to 120 characters."""
    window = text[max(0, start - 120) : start]
    ends = list(_SENTENCE_END.finditer(window))
    return window[ends[-1].end() :] if ends else window


# A law's name right before its number ("S.I. No.", "Statutory Instrument No.",
# "Regulation No.", "the Act, No.").
_A_LAW_BEFORE = re.compile(
    r"\b(?i:act|acts|s\.i\.|si|statutory[ \t]+instrument|regulations?|law|ordinance|decree|rules?|order|resolution)"
    r",?\s*$"
)


# What names an Irish PPS number before it ("his PPS number on the report is …").
_PPS_CUE = re.compile(r"\b(?:PPSN?|(?i:personal[ \t]+public[ \t]+service))\b")
# A constable's name before the belt number, on its line or the one before ("Amjad Ali
# 3319/C", "Tanveer Abbas⏎1127/HC"): a capitalised name or a word no common word.
_A_SURNAME_BEFORE = re.compile(r"\b([A-Z][a-z]+)\s+$")
# A parent's or a husband's name after the marker ("s/o Feroz Din", "S/o GHULAM HAIDER",
# "W/o Late Sri. Siddegowda"); a clinician's "w/o fever", "s/o Pneumonia" go on in
# lower case or in an English word.
_PARENTAGE_GIVEN = re.compile(rf"(?<![\w/]){PARENTAGE_MARK}[ \t]+(?:Late[ \t]+)?([A-Z][A-Za-z]+)")
_PARENTAGE_RECORDS = DocumentAnswers()


def _only_english_words(words: str) -> bool:
    """ "Sepsis", "Pulmonary Embolism": words of English, no place's own name."""
    return all(is_common_word(w) or is_english_word(w) for w in words.split())


def _a_name_word(word: str) -> bool:
    return is_known_name(word) or not is_common_word(word)


def _gives_parentage(text: str) -> bool:
    """A South Asian record that names a party by the parent or the husband ("s/o",
    "d/o", "w/o"), where "r/o" is "resident of"."""
    return _PARENTAGE_RECORDS.get(
        text, "", lambda: any(not is_english_word(m.group(1)) for m in _PARENTAGE_GIVEN.finditer(text))
    )


def _pps_checks(number: str) -> bool:
    """The PPS number's check letter (the eighth character) is the weighted sum of its
    seven figures (weights 8 to 2) and of its ninth letter's place in the alphabet
    (weight 9), modulo 23, as a letter (0 is W)."""
    total = sum(int(d) * w for d, w in zip(number[:7], range(8, 1, -1), strict=True))
    if len(number) == 9 and number[8] != "W":
        total += (ord(number[8]) - 64) * 9
    return "WABCDEFGHIJKLMNOPQRSTUV"[total % 23] == number[7]


def _rejected(rule: str, match: re.Match[str], text: str, start: int, end: int) -> bool:
    """Whether a pattern's match is none of its label's after all: the checks a regex
    cannot make (the words around it, a check digit, a state's code)."""
    if rule == "plate_after_vehicle" and _no_plate_s_letters(match.group("letters")):
        return True  # "the taxi, UGX 5000": a currency's code; "a truck, MAN 1830": a make's model
    if rule == "pps_number" and not (_PPS_CUE.search(text, max(0, start - 60), start) or _pps_checks(match.group())):
        return True  # "Part 1234567B", "2500000MW": seven figures and a letter, no PPS number's cue nor check
    named = _A_SURNAME_BEFORE.search(text, max(0, start - 40), start) if rule == "belt_number" else None
    if rule == "belt_number" and (named is None or not _a_name_word(named.group(1))):
        return True  # "Engine 350/HC", "Ratio 100/C": no constable's name before the number
    if rule == "resident_of" and (not _gives_parentage(text) or _only_english_words(match.group("v"))):
        return True  # a clinician's "r/o Sepsis", "r/o Pulmonary Embolism": rule out
    if rule == "number_of_year" and _A_LAW_BEFORE.search(text, max(0, match.start() - 40), match.start()):
        return True  # "S.I. No. 146 of 2000", "the Act, No. 3 of 2011": a law's number, no one's record
    if rule == "age_hedged" and not _a_person_before_aged(_the_sentence_before(text, start)):
        return True  # "The whisky was aged about 12 years.": a thing's age
    if rule == "spelled_spaces" and _STUTTER.search(text, start, end):
        return True  # "a i i i": an answer's marker, then a stutter
    if (
        rule == "id_with_cue"
        and match.group("parcel")
        and "-" not in match.group("v")
        and _no_parcel_s(match, text, end)
    ):
        return True  # "the parcel 1500 feet from the school", "the parcel 2019 sale": no parcel's number
    agency = match.group("agency") if rule == "id_with_cue" else None
    if agency and is_common_word(agency) and agency not in _ID_ACRONYMS:
        return True  # "PAGE NUMBER 1234", "HIS PHONE NUMBER IS 5595551234"
    if rule == "age_after_birth_date" and not _BIRTH_CUE.search(text, max(0, start - 2000), start):
        return True  # "filed 01/02/2020 (3)": a count; a roster's "DOB (age)" column, a "born" says age
    if rule == "age_at" and not (_a_life_event_before(text, start) or _a_life_event_after(text, end)):
        return True
    if rule == "age_after_being" and not _a_being_s_age(text, match, start, end):
        return True
    if rule == "phonetic_spelling" and len(set(match.group().split("-"))) < 3:
        return True
    if rule == "account_ending" and len(match.group("v")) > 4 and "VIN" not in text[max(0, start - 40) : start]:
        return True  # "last 4 are 662812": six characters end only a VIN's number
    if rule == "account_ending" and match.group("last") and _A_NOUN_AFTER.match(text, end):
        return True  # "the last four 1040 returns", "the last four 2023 reports": a count of things
    if rule == "account_ending" and not match.group("last") and not _in_its_sentence(_ACCOUNT_BEFORE, text, start):
        return True
    check = _CONTEXT_CHECKS.get(rule)
    if check is not None and check(text, match, start, end):
        return True
    # An agency's acronym then "No." numbers a custody's or a register's record with
    # five digits or more, or a letter and digits ("ODOC No. 287114", "NRIC No.
    # S7241208J"), not a filing's, a product's or a form's ("ECF No. 1045", "OMB No.
    # 1545-0074").
    return bool(
        rule == "id_with_cue"
        and match.group("agency")
        and _AGENCY_NO.search(match.group())
        and not _A_REGISTER_S_NUMBER.fullmatch(match.group("v"))
    )


_CALENDAR_LABELS = frozenset({"DATE", "TIME"})


def recognize(text: str, patterns: tuple[Pattern, ...] = TRANSCRIPT_PATTERNS) -> list[Candidate]:
    # The calendar's patterns read the page without its printed line numbers, which
    # break a date in two ("November⏎25    8, 1997"); the spans keep the text's own.
    # (The others read the numbers: "11     One Monument Circle" is a house's.)
    calendar = tuple(p for p in patterns if p.label in _CALENDAR_LABELS)
    found = [
        replace(c, text=text[c.start : c.end]) for c in _matched(without_printed_line_numbers(text), calendar)
    ] + _matched(text, tuple(p for p in patterns if p.label not in _CALENDAR_LABELS))
    found = _without_page_marks(text, found)
    # "Badge 1987": a number its record's word names is no year.
    identified = {(c.start, c.end) for c in found if c.rule == "pattern:id_with_cue"}
    found = [c for c in found if not (c.rule == "pattern:year" and (c.start, c.end) in identified)]
    found += _listed_after(text, found)
    ages = [c for c in found if c.label == "AGE"]
    return found + _restated_ages(text, ages) + _spoken_numbers(text) + _ages_in_an_age_column(text)


def _matched(text: str, patterns: tuple[Pattern, ...]) -> list[Candidate]:
    found = []
    for pattern in patterns:
        for match in pattern.regex.finditer(text):
            if "v" in pattern.regex.groupindex and match.group("v") is not None:
                start, end = match.span("v")
            else:
                start, end = match.span()
            if _rejected(pattern.rule, match, text, start, end):
                continue
            several = _several_spans(pattern, match, text, start, end)
            if several is not None:
                found += several
                continue
            if start < end:
                found.append(
                    Candidate(
                        start, end, pattern.label, text[start:end], (SOURCE,), pattern.score, f"pattern:{pattern.rule}"
                    )
                )
    return found


# A table's heading row in capitals, three columns or more two spaces apart, one of
# them "AGE" and one a person's ("NAME   ROLE  SEX  DOB          AGE     SCHOOL /
# GRADE"): a roster of a household or a case's people, not of vehicles, buildings or
# cheeses ("VEHICLE  MAKE  AGE  MILEAGE"), nor a group's figures ("AVERAGE AGE").
_HEADING_CELL = r"[A-Z][A-Z/#.()]*(?:[ ][A-Z/#.()]+)*"
_AGE_HEADING = re.compile(rf"(?m)^[ \t]*{_HEADING_CELL}(?:[ \t]{{2,}}{_HEADING_CELL}){{2,}}[ \t]*$")
# A whole cell: the line's start or two blanks on each side.
# (From the second blank of a run only, its blanks read once: a long run stays linear.)
_AGE_CELL = re.compile(r"(?:^|(?<=[ \t]{2})(?<![ \t]{3}))[ \t]*+AGE(?=[ \t]{2,}|[ \t]*$)")
# (A date of birth's, a sex's or a race's column: a NAME alone heads an invoice's
# aging or a fleet's list too.)
_PERSON_CELL = re.compile(
    r"(?:^|(?<=[ \t]{2})(?<![ \t]{3}))[ \t]*+(?:DOB|D\.O\.B\.|SEX|GENDER|RACE|DATE OF BIRTH)(?=[ \t]{2,}|[ \t]*$)"
)
# A cell's number under the heading, alone in its cell: up to three digits, a doubt's
# "?" after it; an infant's with its unit, which is part of the age ("22 mo", as "two
# months").
_CELL_NUMBER = re.compile(
    r"(?:^|(?<=[ \t]{2})(?<![ \t]{3}))[ \t]*+"
    r"(?P<v>\d{1,3}(?:[ ]?(?:mos?|months?|wks?|weeks?|days?)\b\.?)?)\??(?=[ \t]{2,}|[ \t]*$)"
)
# How many rows a heading reads.
_ROWS = 40
_LEADING_DIGITS = re.compile(r"\d+")


def _ages_in_an_age_column(text: str) -> list[Candidate]:
    """The numbers under a people's table's "AGE" heading, row by row until a blank
    line or a rule of dashes: each a person's age (a column's position is its
    meaning). A cell's number must stand under the heading's letters, give or take a
    character (a right-aligned bed's number beside it is not the age)."""
    found: list[Candidate] = []
    for heading in _AGE_HEADING.finditer(text):
        line = heading.group()
        cell = _AGE_CELL.search(line)
        if cell is None or _PERSON_CELL.search(line) is None:
            continue
        left, right = cell.end() - 3 - 1, cell.end() + 1
        at = heading.end() + 1
        for _ in range(_ROWS):
            line_end = text.find("\n", at)
            line_end = len(text) if line_end < 0 else line_end
            row = text[at:line_end]
            if not row.strip() or set(row.strip()) <= set("-=_ ") or _AGE_HEADING.fullmatch(row):
                break  # the table's end, a rule, or the next table's heading
            for number in _CELL_NUMBER.finditer(row):
                a, b = number.span("v")
                digits = int(_LEADING_DIGITS.match(number.group("v")).group())  # type: ignore[union-attr]
                if a < right and b > left and 0 < digits < 120:
                    found.append(Candidate(at + a, at + b, "AGE", row[a:b], (SOURCE,), 0.85, "pattern:age_column"))
            at = line_end + 1
            if at > len(text):
                break
    return found


# The rules whose record's code may head a list of its like ("Case Nos. CR24001187-00
# and CR24001188-00", "serial numbers 41187 and⏎41192", "Receipts Nos. GHE/0417 and
# GHE/0452").
_LISTING_RULES = frozenset({"id_with_cue", "id_after_record_word", "code_after_number", "number_of_record"})
# A list's joint, over a wrapped line and its printed number, then the next code.
_NEXT_IN_LIST = re.compile(
    r"(?:[ \t]*+,[ \t]*+(?:(?:and|or|&)(?=\s)[ \t]*+)?|[ \t]++(?:and|or|&)(?=\s)[ \t]*+)"
    r"(?:\n[ \t]*+(?:\d{1,2}[ \t]{2,})?)?"
    r"(?P<v>[A-Z0-9](?:[A-Z0-9]|[./-](?=[A-Z0-9]))*)(?![\w/-])"
    # (Not an amount or a count after the record: "Claim number 22145, 30000 dollars".)
    r"(?![ \t]+(?:dollars|euros|pounds|percent|people|other|others|times|units|pages|miles)\b)"
)
_LETTERS = re.compile(r"[A-Z]")
_DIGITS = re.compile(r"\d")


def _shape(code: str) -> str:
    return _DIGITS.sub("9", _LETTERS.sub("A", code))


def _listed_after(text: str, found: list[Candidate]) -> list[Candidate]:
    """The codes listed after a record's code in its very shape (its capitals, its
    digits and its joints in the same places): the same record's kind, numbered in
    turn."""
    listed: list[Candidate] = []
    heads: set[tuple[int, int]] = set()  # two rules may find one code: its list is read once
    for candidate in found:
        if candidate.label != "ID" or candidate.rule.removeprefix("pattern:") not in _LISTING_RULES:
            continue
        if (candidate.start, candidate.end) in heads:
            continue
        heads.add((candidate.start, candidate.end))
        shape, end = _shape(candidate.text), candidate.end
        while (following := _NEXT_IN_LIST.match(text, end)) is not None and _shape(following.group("v")) == shape:
            a, end = following.span("v")
            listed.append(Candidate(a, end, "ID", text[a:end], (SOURCE,), candidate.score, "pattern:listed_record"))
    return listed


_A_LISTED_AGE = re.compile(rf"\d{{1,2}}|(?i:{NUMBER_WORDS})(?![\w-])")
# A house's number ending the line before ("living at number 2214⏎27  Nkwenkwezi
# Street"): the street's line opens with the page's printed number. Without it the
# street starts after the printed number's gap ("19  East 40th Street").
# The street's name may begin on that line too ("114 Tillman⏎13  Ferry Road").
_HOUSE_NUMBER_ENDS_LINE = re.compile(r"(?<![\w.,/$#:-])\d{1,6}[A-Za-z]?(?:[ \t]+[A-Z][\w'’-]*){0,2}[ \t]*\n$")


# Where the number ending the line is no house's: a year's or a count's word before it
# ("moved there in 2004", "Call 911", "Unit 4").
_NO_HOUSE_BEFORE = re.compile(r"(?i:\b(?:call|dial|unit|apt|apartment|suite|room|in|since|from|until|by|of))[ \t]+$")


def _a_house_s_number(text: str, house: re.Match[str]) -> bool:
    """The number (and the words) ending the line before a street are a house's: no
    year's, no count's (common words after it: "3 Kids"), none a call's or a unit's."""
    words = house.group().split()
    if _year_shaped(words[0]) or _NO_HOUSE_BEFORE.search(text, max(0, house.start() - 12), house.start()):
        return False
    return not any(is_common_word(w) for w in words[1:])


def _house_before_the_line_number(text: str, match: re.Match[str]) -> tuple[int, int]:
    """An address whose number is the page's printed line number: from the house's
    number at the end of the line before, or from the street's name."""
    line_start = text.rfind("\n", 0, match.start("n")) + 1
    house = _HOUSE_NUMBER_ENDS_LINE.search(text, text.rfind("\n", 0, max(0, line_start - 1)) + 1, line_start)
    if house is not None and _a_house_s_number(text, house):
        return house.start(), match.end()
    gap = _LINE_NUMBER_GAP.match(text, match.end("n"))
    return (gap.end() if gap is not None else match.start("name")), match.end()


def _several_spans(pattern: Pattern, match: re.Match[str], text: str, start: int, end: int) -> list[Candidate] | None:
    """The spans of a match that gives more than one (a point's two coordinates, a
    crossing's two streets), or other than its own (an address over a page's printed
    line number); None for any other pattern."""
    if pattern.rule == "coordinates":
        if not _a_point(match.group("lat"), match.group("lon")):
            return []  # "0.0812, 0.0790": two readings of a breath test
        spans = [match.span("lat"), match.span("lon")]
    elif pattern.rule == "ordinal_crossing":
        spans = list(_crossing(text, start, end))
    elif pattern.rule == "ages_listed":
        spans = [m.span() for m in _A_LISTED_AGE.finditer(text, *match.span("list"))]
    elif pattern.rule == "street_address" and _a_printed_line_number(text, match):
        spans = [_house_before_the_line_number(text, match)]
    elif pattern.rule == "military_range":
        if not (match.group("a").startswith("0") or match.group("b") == "2400"):
            return []  # "1950 to 2000": as likely two years
        spans = [match.span("a"), match.span("b")]
    else:
        return None
    return [
        Candidate(a, b, pattern.label, text[a:b], (SOURCE,), pattern.score, f"pattern:{pattern.rule}") for a, b in spans
    ]


_DEGREES = re.compile(r"-?\d+\.\d+")


def _a_point(lat: str, lon: str) -> bool:
    """A latitude and a longitude that can be: within ±90° and ±180°, not both
    under one degree (two small measures, "0.0812, 0.0790")."""
    a, b = (float(_DEGREES.match(v).group()) for v in (lat, lon))  # type: ignore[union-attr]
    return abs(a) <= 90 and abs(b) <= 180 and (abs(a) >= 1 or abs(b) >= 1)


# How many numbers of one letter, one after the other, make a run of pages.
PAGE_RUN = 3
_LETTER_NUMBER = re.compile(r"([A-Z]{1,2})-?(\d{4,6})")


def _without_page_marks(text: str, found: list[Candidate]) -> list[Candidate]:
    """Less a prisoner's number shaped as one letter and its digits that is a page's
    mark: a transcript numbering its pages "P-1234", "P-1235", "P-1236" (an
    Australian commission's, a court's running numbers) alone on their lines or
    past a column's gap, where one letter's numbers run on one after the other. A
    roster's numbers inside its lines stay ("Whitacre P12345, Lemieux P12346")."""
    # Each mark's place, its letter and its number (a dict: a long transcript's
    # candidates are many, and a list's `in` compared each to every mark).
    marks: dict[tuple[int, int], tuple[str, int]] = {}
    for c in found:
        furniture = c.rule == "pattern:cdcr_number" and _furniture_at(text, c.start, c.end)
        if furniture and (m := _LETTER_NUMBER.fullmatch(c.text)) is not None:
            marks[(c.start, c.end)] = (m.group(1), int(m.group(2)))
    by_letter: dict[str, set[int]] = {}
    for letter, number in marks.values():
        by_letter.setdefault(letter, set()).add(number)

    def a_page_mark(c: Candidate) -> bool:
        if c.rule != "pattern:cdcr_number" or (mark := marks.get((c.start, c.end))) is None:
            return False
        letter, n = mark
        numbers = by_letter[letter]
        return any(all(k + i in numbers for i in range(PAGE_RUN)) for k in range(n - PAGE_RUN + 1, n + 1))

    return [c for c in found if not a_page_mark(c)]


# A page's furniture: alone on its line, or set off by a column's gap on either side.
_GAP_BEFORE = re.compile(r"(?:^|[ \t]{4,})$")
_GAP_AFTER = re.compile(r"[ \t]*(?:\n|$)|[ \t]{4,}")


def _furniture_at(text: str, start: int, end: int) -> bool:
    line_start = text.rfind("\n", 0, start) + 1
    return _GAP_BEFORE.search(text[line_start:start]) is not None and _GAP_AFTER.match(text, end) is not None
