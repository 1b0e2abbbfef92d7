"""Name cues: titles, ranks, relations and speaker labels that announce a
person's name, a case's caption that names its parties, the head word that
announces an institution's name and the creed that names a political party.

Transcripts print names in capitals ("PRESIDING COMMISSIONER DOE:") where the
small spaCy model sees nothing; these cues catch them with a high score.
"""

import re
from collections import Counter
from collections.abc import Callable
from dataclasses import replace

from pipelines.candidate import Candidate
from pipelines.detection import places
from pipelines.detection.case import carries_case, caseless_spans
from pipelines.gazetteers import (
    countries,
    first_names,
    is_common_word,
    is_derived_noun,
    is_english_word,
    is_given_name,
    is_kin_word,
    is_known_name,
    is_person_given_name,
    is_stop_word,
    last_names,
    stop_words,
    us_states,
)
from pipelines.lexicons import (
    AGE_NUMBER_WORDS,
    CALENDAR_WORDS,
    CLINICAL_FIELD_LABELS,
    CLOSED_CLASS,
    COMPOUND_RANKS,
    COURT_KINDS,
    DEGREES,
    FAMILY_RELATIONS,
    FORM_FIELD_LABELS,
    FORM_FIELD_SURNAMES,
    FORM_OF_ADDRESS,
    HONORIFICS,
    HONORIFICS_AFTER_A_NAME,
    INSTITUTION_HEADS,
    IRISH_PARTICLE_LINKS,
    IRISH_PARTICLES,
    KIN_NAMES,
    KIN_TITLES,
    LEGAL_FORMS,
    MILITARY_RANKS,
    MONTHS,
    NAME_END_STREET_TYPES,
    NAME_PARTICLES,
    NAME_SUFFIXES_OF_ADDRESS,
    NUMBERED_THINGS,
    OFFICE_HEADS,
    OFFICE_MODIFIERS,
    ORGANIZATION_WORDS,
    PLACE_WORDS,
    POLITICAL,
    POST_NOMINALS,
    RELATIONS,
    REPLY_WORDS,
    REPORTER_CREDENTIALS,
    ROLE_LETTERS,
    ROLE_WORDS,
    SHOP_WORDS,
    SPEAKER_ROLES,
    STREET_ORDINALS,
    STREET_TYPES,
    TITLE_JUST_BEFORE,
    TITLE_WORDS,
    TITLES,
    TITLES_BEFORE_A_NAME_ONLY,
    TITLES_ONLY_WITH_THEIR_PERIOD,
    TRADE_WORDS,
)

SOURCE = "cues"

# A hyphenated given name may go on in lower case ("Sung-min", "Ji-woo").
# A name's letters are any alphabet's ("José", "Bébé", "Ngātai", "Łukasz"): a capital
# of Latin-1 or Latin Extended-A opens it.
_CAPITAL = "[A-ZÀ-ÖØ-Þ" + "".join(c for c in map(chr, range(0x100, 0x180)) if c.isupper()) + "]"
_LETTERS = r"(?:[^\W\d_]|['’])+"
_NAME = _CAPITAL + _LETTERS + r"(?:-[^\W\d_]" + _LETTERS + ")?"
# What someone is called may open with one letter and a hyphen ("T-Dub", "J-Lo").
_NICKNAME = r"(?:" + _NAME + r"|[A-Z]-" + _CAPITAL + _LETTERS + ")"
# Only an abbreviated title takes a period ("Dr.", "Sgt."): after a whole word
# ("Secret Agent. Things have grown") the period ends the sentence. The
# abbreviations are the short titles; "Miss" is a whole word.
_ABBREVIATED = tuple(t for t in TITLES if len(t) <= 4 and t != "Miss")
# [ \t] rather than \s: a title ending one line never names the next line's words.
# Between a name's words one or two spaces: more is a cover page's column gap
# ("Deputy Commissioner     MELISSA TAKAHASHI" names no "Commissioner MELISSA").
_SP = r"[ ]{1,2}"


# An Irish surname's particle before its word ("Caoimhe Ní Fhlaithearta", "Úna Nic
# Giolla Easpaig", "Mr Ó Briain"): the name goes on past it.
_IRISH_PARTICLE = rf"(?:(?:{'|'.join(IRISH_PARTICLES)})(?:[ ](?:{'|'.join(IRISH_PARTICLE_LINKS)}))?[ ])"


def _name_after(lead: str, more_words: str, not_name: str = "") -> re.Pattern[str]:
    """`lead` (a title), a gap on its line, then a name: its first word and
    `more_words` more ("?", "{0,2}"), one or two spaces apart; `not_name`: a
    lookahead's words the name never opens with."""
    # Three blanks at most after the title: more are a page's column gap ("Pastor         Mount Pisgah").
    # Initials may open the name ("Hon. E. W. Nyaboke", "Dr. J. R. Okafor").
    # (The surname's first letter may follow an Irish mutation's: "Ó hAodha", "an tSaoi".)
    word = "(?:" + _IRISH_PARTICLE + "[hnt]?)?" + _NAME
    name = r"(?P<v>(?:[A-Z]\.[ ]?){0,3}" + word + r"(?:" + _SP + word + r")" + more_words + ")"
    return re.compile(lead + r"[ \t]{1,3}" + not_name + name)


# "Judge Pro Tem Castellano": the office's "pro tem" is no part of the name, nor a
# "General" after any title ("Assistant Attorney General Noelani Fairweather",
# "Major General Ruiz"): the rank's own cue, the honorific's, names the person.
# "Hon." only with its period ("Hon. E. W. Nyaboke"; "Hon" is a given name too).
_TITLE_RE = _name_after(
    r"\b(?:(?:"
    + "|".join(_ABBREVIATED)
    + r")\.?|(?:"
    + "|".join(TITLES + TITLES_BEFORE_A_NAME_ONLY)
    + r")|(?:Hon|HON|Barr|BARR)\.)"
    r"(?:[ \t]+(?i:pro[ \t]+tem(?:pore)?))?",
    "?",
    r"(?!(?i:pro[ \t]+tem)\b)(?!General[ \t])",
)
# An abbreviated title, its period ending a line of prose, the name on the next
# ("… Medical Center. Dr.⏎Haverford came out"): only where prose wrapped the line
# (`places.soft_wrap`), never a cover page's or a form's line.
_TITLE_WRAP_RE = re.compile(
    r"\b(?:" + "|".join(_ABBREVIATED) + r")\.[ \t]*\n[ \t]*(?P<v>" + _NAME + r"(?:" + _SP + _NAME + r")?)"
)
# An honorific or a rank before a surname ("Lord Diplock", "General Prelogar",
# "Senator Sarvis"): a title of address the hearing titles above do not hold. Not a
# saint (a place: "St. Louis") nor a relative (the relation cue's). Its name's
# words must not all be common words: "General Motors", "Major Crimes Unit",
# "Private Property" name things.
_ADDRESS_TITLES = sorted(HONORIFICS - {"saint", "st", "brother", "uncle", "aunt"} - TITLE_WORDS, key=lambda t: -len(t))
# A military rank is matched as written ("CPT", "SSgt"), not capitalised ("Cpt").
_RANK = r"(?:" + "|".join(sorted(MILITARY_RANKS, key=lambda t: -len(t))) + r")"
_HONORIFIC_RE = _name_after(
    r"(?<![\w'’-])(?:" + "|".join(t.capitalize() for t in _ADDRESS_TITLES) + "|" + _RANK + r")\.?", "{0,2}"
)
# A whole word of address then a period ends its sentence ("My Lord. If Your
# Lordships"); an abbreviation takes it ("Gen. Prelogar", "Pfc. Tran", "Sra. Quispe").
_WORD_AND_PERIOD = re.compile(r"(?P<w>[A-Za-z]{4,})\.")
_RANK_LEAD = re.compile(_RANK + r"\.?[ \t]")
_MY_NAME_RE = re.compile(r"\bmy name is\s+(?P<v>" + _NAME + r"(?:\s+" + _NAME + r"){0,2})", re.IGNORECASE)
# People are named by their relation to the speaker ("my aunt Rose", "his brother
# Sokhom", "my sponsor, Twyla Day") and by what they are called ("called him Will").
# Given names that are also words (Hope, Will, Faith) are found only this way.
# A given name may be hyphenated in lower case after the hyphen ("Ji-woo"); the
# pronoun's contractions are none ("her older son, I'm sixty-five").
_GIVEN = r"(?!I['’](?:m|d|ll|ve)\b)" + _NAME
_RELATION_RE = re.compile(
    # Case-insensitive for the cue words only: the name must be capitalized.
    # "my ex-girlfriend, April", "her former husband Dale".
    # A page may wrap between the words, past its printed number ("My son⏎23   Travis is",
    # "My⏎23   wife, Renee").
    r"\b(?i:(?:my|his|her|their|our|your|the)"
    + places.LINE_GAP
    + r"(?:(?:older|younger|little|big|late|oldest|youngest|former)[ \t]+)?"
    r"(?:ex-)?"
    r"(?:" + RELATIONS + r")s?),?" + places.LINE_GAP + r"(?P<v>" + _GIVEN + r"(?:[ \t]+" + _NAME + r")?)"
)
# A kin word written as a title, capitalised, before a name ("Uncle Dragan",
# "Grandma Rose"): what the family calls the person.
_KIN_TITLE_RE = re.compile(r"(?<![\w'’-])(?:" + "|".join(KIN_TITLES) + r")" + _SP + r"(?P<v>" + _GIVEN + r")\b")
# The same in a text without case ("my son jamal", as speech recognition writes):
# the name is one word, read as one only when it is a given name and no English word.
_RELATION_CASELESS_RE = re.compile(
    r"\b(?i:(?:my|his|her|their|our|your)[ \t]+(?:(?:older|younger|little|big|late|oldest|youngest)[ \t]+)?"
    r"(?:" + RELATIONS + r")s?),?[ \t]+(?P<v>[A-Za-z][a-z'’]+)\b"
)
# In a text without case, a title of address before a word ("mrs bukowski", "mister
# haddad", "officer ruiz"): a person when the word is no English word (`_caseless_people`).
# A title may follow a rank ("detective sergeant lopez"), and a name may open with
# its particles ("officer van dyke", "mister de la cruz").
_CASELESS_TITLES = (
    r"mister|mr|mrs|ms|missus|dr|doctor|officer|detective|sergeant|sgt|deputy|agent|lieutenant|lt|captain|capt"
    r"|trooper|nurse|judge|father|uncle|aunt|auntie|grandma|grandpa|pastor|reverend|coach"
)
_CASELESS_PARTICLES = r"(?:(?:de|la|del|della|van|von|der|den|da|di|le|du|dos|das|st|mc|mac|bin|ibn|al|el)[ \t]+){0,3}"
_TITLE_CASELESS_RE = re.compile(
    rf"(?<![\w'’-])(?i:{_CASELESS_TITLES})\.?(?:[ \t]+(?i:{_CASELESS_TITLES})\.?)*[ \t]+"
    rf"(?P<v>(?i:{_CASELESS_PARTICLES})(?:[A-Za-z][a-z'’-]+|[A-Z][A-Z'’-]+))\b"
)
# In a text without case, a word before a verb of saying ("as bob said"): a person
# when it is a given name and no English word, with no determiner before it.
_SAID_CASELESS_RE = re.compile(
    r"(?<![\w'’-])(?<!the )(?<!a )(?<!my )(?<!his )(?<!her )(?<!our )(?<!your )(?<!their )"
    r"(?P<v>[a-z][a-z'’]+)[ \t]+(?:said|says|told|asked|testified|stated|explained|mentioned)\b"
)
# In a text without case, a word after "named" ("a dude named hector"): a person when
# it is a given name and no English word, as before a verb of saying.
_NAMED_CASELESS_RE = re.compile(r"(?<![\w'’-])(?i:named)[ \t]+(?P<v>[a-z][a-z'’]+)\b")
# A clause's end or a function word after a name ("jamal| he was").
_FUNCTION_WORD_AFTER = re.compile(
    r"[ \t]*(?:[.,;:!?)\n]|$|(?:he|she|they|i|we|you|and|but|so|was|is|who|that|said|says)\b)", re.IGNORECASE
)
# "Chastity's mother", "Luis's brother": a name that owns a relation.
_POSSESSOR_RE = re.compile(r"(?<![\w'’-])(?P<v>" + _GIVEN + r")['’]s[ \t]+(?i:" + RELATIONS + r")s?\b")
# What a person is called: "called him Will", "they call me Ada", "a man they call
# Ti Makak", "goes by Hunt", "went by Junebug"; "call" without its object only
# before a given name ("I call Walt", not "I call Dispatch"); "we called" without a
# person before it telephoned ("we called CPS").
# After "called him" or "a man they called", the name may open the next line, a
# printed line number before it ("They called him⏎10   Will."): the object the verb
# waits for, not a new sentence.
_NAME_MAY_WRAP = places.LINE_GAP
_INITIALS_NICKNAME = r"(?:[A-Z]\.){2,3}(?![\w.])"
_CLOCK_OR_SERVICE_LETTERS = re.compile(r"A\.M\.|P\.M\.|E\.M\.S\.|E\.R\.|U\.S\.|D\.C\.")
_THEM = re.compile(r"\bthem\b", re.IGNORECASE)
_CALLED_RE = re.compile(
    r"\b(?:(?:called|calling|named|go(?:es)?[ \t]+by|went[ \t]+by"
    r"|(?P<known>known|knew|knows|know)(?:[ \t]+(?P<known_object>him|her|them|me))?[ \t]+as"
    # What a record or a witness gives as someone's other name, quoted after it
    # ('a/k/a "Bird"', 'the moniker "Pinky"').
    r"|(?P<aka>(?i:a/k/a|a\.k\.a\.|aka|nicknamed|nickname|moniker))"
    # A record's other name after a person's ("SSEBAGALA MUZAMIRU alias KANYAMA",
    # "Ram Kumar alias Rama"), as Commonwealth and Indian charge sheets write it.
    r"|(?<=[A-Za-z'’-][ ])(?P<alias>alias|ALIAS))"
    # The object may open the next line ("We called⏎      him "Shug,""); a name
    # alone there would be a new sentence's word.
    + r"(?:[ \t]+|"
    + _NAME_MAY_WRAP
    + r"(?=(?:him|her|me|them)\b))"
    + r"(?P<pronoun>(?:him|her|me|them)"
    + _NAME_MAY_WRAP
    + ")?"
    r"|(?P<namer>(?i:man|woman|guy|girl|boy|kid|dude|lady|fellow|person|one|someone|somebody)[ \t]+"
    r"(?i:they|people|everyone|everybody|folks|we)" + _NAME_MAY_WRAP + "call(?:ed)?" + _NAME_MAY_WRAP + ")"
    r"|(?P<bare>(?i:call(?:s|ing)?))" + _NAME_MAY_WRAP + "(?P<object>(?:him|her|me|them)" + _NAME_MAY_WRAP + ")?)"
    # A nickname in quotes ('who goes by "Pooh."').
    # A name may end in an initial ("Daddy T.", "Big J.").
    # Initials may be what someone goes by ("Call me O.L.", "they call him J.R.").
    r"[\"“'‘]?(?P<v>" + _INITIALS_NICKNAME + "|" + _NICKNAME + r"(?:[ ](?:" + _NAME + r"\b|[A-Z]\.)|\b))"
)
# A Commonwealth court's record heads each witness's evidence with the number the side
# that called them gives ("PW4 - AMANI KIPRONO SANG, adult male, sworn", "DW1 – JULIUS
# KIPROTICH CHEPKWONY, sworn"): prosecution, defence, court witnesses; the whole name,
# in capitals, to its comma.
_NUMBERED_WITNESS_RE = re.compile(
    r"(?m)^[ \t]*(?:PW|DW|CW)[ \t]?\d{1,2}[ \t]*[-–—:][ \t]*"
    # A police rank or a courtesy before the name ("PW5 - IP GRACE WANJIRU").
    r"(?:(?:IP|PC|CPL|SGT|CI|ASP|SP|INSP|SSP|OCS|DR|MR|MRS|MS|MISS)\.?[ ])?"
    r"(?P<v>[A-Z][A-Z'’-]+(?:[ ](?:[A-Z][A-Z'’-]+|[A-Z]\.)){0,4})(?=[ \t]*[,(]|[ \t]*$)"
)


def _numbered_witnesses(text: str) -> list[Candidate]:
    """The names `_NUMBERED_WITNESS_RE` heads a witness's evidence with; not a heading
    of common or role words ("PW1 - NOT AVAILABLE", "DW1 - THE ACCUSED, unsworn")."""
    found = []
    for match in _NUMBERED_WITNESS_RE.finditer(text):
        start, end = match.span("v")
        words = [w for w in match.group("v").split() if not re.fullmatch(r"[A-Z]\.", w)]
        named = not all(_only_common_words(w) or w.lower() in ROLE_WORDS or places.is_known_place(w) for w in words)
        if not named or words[0] == "THE":
            continue  # "PW3 - ADULT FEMALE", "CW2: THE OCS KILIMANI": no name
        found.append(Candidate(start, end, "PERSON", text[start:end], (SOURCE,), 0.85, "cue:numbered_witness"))
    return found


# A prison's correctional officer by surname ("C/O Dunleavy", "c/o Early came"): one
# word, no common word and no other name after it; "c/o" is also "care of" ("c/o
# Harbor House Shelter") and a clinician's "complains of" ("C/O Shortness Of Breath").
_CORRECTIONAL_OFFICER_RE = re.compile(r"\b[Cc]/[Oo][ \t]+(?P<v>" + _NAME + r")\b(?![ \t]*(?:&|[A-Z]))")
# An Indian record names a parent or a husband after "S/o", "D/o", "W/o" (son,
# daughter, wife of), the dead after "Late", a title or not ("S/o Late Kempegowda",
# "W/O LATE SRI. SIDDEGOWDA", "S/o Sh. Ram Kumar"); not "C/o" ("care of"), a clinician's
# "H/O" ("history of"), nor Singapore's registered "Ravindran s/o Subramaniam" (one name).
# A clinician's "W/O" ("without") and "S/O" ("significant other") `_son_of` turns away.
_SON_OF_RE = re.compile(
    r"(?<![\w/])[SDW]/(?P<o>[Oo])\.?[ \t]+(?:(?i:late|sri|shri|sh|smt|mr|mrs|dr)\.?[ \t]+)*"
    r"(?P<v>" + _NAME + r"(?:" + _SP + r"(?:[A-Z]\.[ ]?)*" + _NAME + r"){0,2})"
)


# Children listed by name and age, two or more on one line: "Tobi is nine, Dami is six
# and the baby Ife is two." One alone may be a thing's count ("Chapter is 9").
_NAMED_BY_AGE_RE = re.compile(
    rf"(?<![\w'’-])(?P<v>{_NAME})[ \t]+(?:is|was)[ \t]+(?:\d{{1,2}}|(?i:{AGE_NUMBER_WORDS}))"
    r"(?![\w-])(?=[ \t]*(?:[.,;]|and\b|$))",
    re.MULTILINE,
)
_SIBLINGS_REACH = 80


# Inside the list, after its comma or its "and", a capitalised word is no sentence's
# first: "Tou is eight and May is four" names May.
_LISTED_BEFORE = re.compile(r"(?:,|\band)[ \t]+$")


def _named_by_their_ages(text: str) -> list[Candidate]:
    """The names of a list of people said with their ages, two or more on a line, no
    common word ("Tobi is nine, Dami is six"); a common word only where the list goes
    on to it from a name that is none ("Tou is eight and May is four", not "Chapter
    is 9, Verse is 12")."""
    matches = [
        m
        for m in _NAMED_BY_AGE_RE.finditer(text)
        if m.group("v").lower() not in NUMBERED_THINGS  # "Line is 4, Page is 5": a form's
    ]
    plain = [not is_common_word(m.group("v")) for m in matches]
    found: list[Candidate] = []
    for i, match in enumerate(matches):
        near = [
            j
            for j in range(max(0, i - 1), min(len(matches), i + 2))
            if j != i
            and abs(matches[j].start() - match.start()) <= _SIBLINGS_REACH
            and "\n" not in text[min(matches[j].start(), match.start()) : max(matches[j].start(), match.start())]
        ]
        word = match.group("v")
        listed = _LISTED_BEFORE.search(text, max(0, match.start() - 8), match.start()) is not None
        # ... and a common word must be a given name or a month's ("May"), not "Room is 12".
        listed = listed and (is_given_name(word) or re.fullmatch(MONTHS, word) is not None)
        after_a_name = i - 1 in near and plain[i - 1]
        if (plain[i] and any(plain[j] for j in near)) or (listed and after_a_name):
            start, end = match.span("v")
            found.append(Candidate(start, end, "PERSON", text[start:end], (SOURCE,), 0.8, "cue:named_by_age"))
    return found


def _son_of(text: str) -> list[Candidate]:
    """The parent or husband `_SON_OF_RE` names: its words up to the first common word
    no name list holds ("S/o Kariyappa Resident Of Mandya" names Kariyappa; "W/O
    Incident", "S/O Present" name no one)."""
    found = []
    for match in _SON_OF_RE.finditer(text):
        if match.group("o") == "O" and not match.group("v").isupper():
            continue  # a clinician's "W/O Zofran", "D/O Lisinopril"; "S/O LATE SRI. NAGARAJU" in capitals
        kept = []
        for word in re.finditer(r"\S+", match.group("v")):
            bare = word.group().strip(".")
            if is_common_word(bare) and not is_known_name(bare):
                break
            kept.append(word)
        if kept:
            start, end = match.start("v") + kept[0].start(), match.start("v") + kept[-1].end()
            found.append(Candidate(start, end, "PERSON", text[start:end], (SOURCE,), 0.8, "cue:relation"))
    return found


# A name before the word of address said after it ("Dong-su oppa", "Geum-ja unni",
# "Pouran Khanum") or joined to it ("Kim-ssi"), the name said alone: not after another
# name's word ("Lee Hee-chan").
_AFTER_A_NAME = "|".join(sorted(HONORIFICS_AFTER_A_NAME - {"Esq", "ESQ", "Esquire", "ESQUIRE"}))
_NAME_THEN_ADDRESS_RE = re.compile(
    r"(?<![\w'’-])(?P<v>" + _CAPITAL + r"[a-z]+(?:-[a-z]+)?)"
    r"(?:[ \t]+(?:" + _AFTER_A_NAME + r")|-(?:" + "|".join(sorted(NAME_SUFFIXES_OF_ADDRESS)) + r"))(?![\w'’-])"
)
# A nickname quoted in brackets right after a full name, as a record introduces it
# ('Rodell Whitacre ("Dook")', 'Foreman Jonas Zook ("Big J")').
_BRACKETED_NICKNAME_RE = re.compile(
    r"(?<![\w'’-])(?P<name>[A-Z][a-z][\w'’-]*[ \t]+[A-Z][\w'’-]+)[ \t]*\((?:a/k/a[ \t]+|aka[ \t]+)?[\"“]"
    r"(?P<v>" + _NICKNAME + r"(?:[ ](?:" + _NAME + r"|[A-Z]\.?))?)[\"”]\)"
)
# A nickname quoted after a full name and its comma ('Cortez FAIRLEY, "Tez"'), or one
# more quoted after a first ('a/k/a "Shep," "Ant"', '"Shep" or "Ant"').
_COMMA_NICKNAME_RE = re.compile(
    r"(?<![\w'’-])(?P<name>[A-Z][a-z][\w'’-]*[ \t]+[A-Z][\w'’-]+),[ \t]+(?:a/k/a[ \t]+|aka[ \t]+)?[\"“]"
    r"(?P<v>" + _NICKNAME + r")[\"”]"
)
_ANOTHER_QUOTED_NICKNAME = re.compile(
    r"[,.]?[\"”](?:[ \t]*,)?[ \t]+(?:(?:and|or)[ \t]+)?[\"“](?P<v>" + _NICKNAME + r")[,.]?[\"”]"
)


def _quoted_nicknames(text: str, found: list[Candidate]) -> list[Candidate]:
    """Nicknames quoted after a full name and a comma, its first word a given name
    ('Cortez FAIRLEY, "Tez"'), and each further quoted one after a quoted nickname a
    cue read ('a/k/a "Shep," "Ant"')."""
    spans: set[tuple[int, int]] = set()
    for match in _COMMA_NICKNAME_RE.finditer(text):
        # The name's given name, and the nickname used again outside its quotes: no
        # title of a work quoted after its author ('Toni Morrison, "Beloved"').
        word = match.group("v")
        if is_given_name(match.group("name").split()[0]) and len(re.findall(rf"\b{re.escape(word)}\b", text)) > 1:
            spans.add(match.span("v"))
    for c in found:
        if c.rule not in ("cue:called", "cue:nickname"):
            continue
        at = c.end
        while (after := _ANOTHER_QUOTED_NICKNAME.match(text, at)) is not None:
            spans.add(after.span("v"))
            at = after.end("v")
    return [
        Candidate(start, end, "PERSON", text[start:end], (SOURCE,), 0.8, "cue:nickname")
        for start, end in sorted(spans)
        if not _no_nickname(text[start:end]) and not any(c.start == start and c.end == end for c in found)
    ]


def _no_nickname(word: str) -> bool:
    """A reply, a kin word or a stop word quoted is what was said ('"Yes,"', '"Mom,"',
    '"Correct"'), no one's other name."""
    folded = word.lower()
    return folded in REPLY_WORDS or is_kin_word(word) or folded in stop_words()


# One name, its nickname quoted in brackets and an age, as a family's list gives them
# ('Tameisha ("Meesh"), 31, a nursing assistant'): both name the sibling.
_NAME_NICKNAME_AGE = (
    r"(?<![\w'’-])(?P<one>" + _NAME + r")[ \t]*\([\"“](?P<short>" + _NICKNAME + r")[\"”]\),[ \t]+\d{1,2}\b"
    # The age ends its clause or counts years: not 'Metformin ("Glucophage"), 50 units',
    # 'The Seller ("Vendor"), 45 days'.
    r"(?=[ \t]*(?:[,;.)]|years?\b|y/?o\b))"
)
_NAMED_WITH_AN_AGE_RE = re.compile(_NAME_NICKNAME_AGE.replace("?P<one>", "?P<v>"))
_NICKNAMED_WITH_AN_AGE_RE = re.compile(_NAME_NICKNAME_AGE.replace("?P<short>", "?P<v>"))
# An author cited with "et al." ("Daily et al.", "as Smith et al. found"): a
# surname, whatever word it also is.
# A name said to its bearer after a greeting or thanks ("Thank you, Yesi.", "Good
# morning, Jamal."): a name, a common word too ("Thanks, Hope."), unless a role, a
# title or a word of address ("Thank you, Judge.", "Hi, everyone.").
_FORM_OF_ADDRESS = re.compile(FORM_OF_ADDRESS)
_VOCATIVE_RE = re.compile(
    r"\b(?i:thank[ \t]+you|thanks|good[ \t]+(?:morning|afternoon|evening|night)|hi|hello|bye|goodbye)"
    r",[ \t]+(?P<v>" + _NAME + r")(?=[ \t]*[.!?,])"
)
_KIN_WORD = re.compile(
    rf"(?i)(?:{RELATIONS}|mom|mommy|mum|ma|mama|dad|daddy|papa|pa|grandma|grandpa|granny|nana"
    r"|sis|auntie|bro|god|jesus|lord)s?"
)
_ADDRESS_WORDS = frozenset(
    """sir ma'am maam madam everyone everybody all guys folks man buddy honey sweetheart baby dear friend friends
    son sweetie babe bro dude ladies gentlemen team again darling love hon sugar doll council board commission
    committee panel members colleagues""".split()
)
# A family named by its surname: "the Olorunnishola family", "the Kowalczyk household"
# (not "the Royal family", "the Texas family": `_names_no_one`).
_FAMILY_RE = re.compile(r"\b(?i:the)[ \t]+(?P<v>[A-Z][\w'’-]*[a-z][\w'’-]*)[ \t]+(?i:family|families|clan|household)\b")
# A message log's sender as the phone saved the contact: "From: Nini 💅", "From:
# Mondo Cuz", a name alone after "From:" up to an emoji or the line's end.
_SENDER_RE = re.compile(r"(?m)\bFrom:[ \t]+(?P<v>[A-Z][\w'’-]*(?:[ \t]+[A-Z][\w'’-]*)?)(?=[ \t]*(?:[^\w\s.,:;@<(]|$))")
_ET_AL_RE = re.compile(r"(?<![\w'’.-])(?P<v>" + _NAME + r")[ \t]+et[ \t]+al\b")
# Someone named, then their age: "two children, Journey, who is nine", "my daughter,
# Harper, who is eight" (a name that is a word too). Not a count after it ("who is
# 12 blocks away").
_WHOSE_AGE_RE = re.compile(
    # Not a reply ("Okay, who is 12?", a juror's seat); a numbered page's line number
    # may come between ("who is⏎12  nine").
    rf"(?<![\w'’-])(?!(?i:{'|'.join(sorted(REPLY_WORDS))})\b)(?P<v>{_NAME}(?:[ ]{_NAME})?),[ \t]+"
    r"who(?:[ \t]+(?:is|was)|['’]s)\s+(?:\d{1,2}[ \t]{2,})?"
    rf"(?i:(?:only|just|about|almost|nearly)\s+)?(?:\d{{1,2}}|(?i:{AGE_NUMBER_WORDS}))\b"
    r"(?=[ \t]*(?:[.,;!?)\n]|$|(?i:years?[ \t-]+old|and)\b))"
)
# "a drink called Santorum", "a book called Opus", "a programme called Euro" name
# things; "a guy named Will", "my friend called Tom", "called him Will" name people.
_PERSON_BEFORE_CALLED = re.compile(
    r"(?i)\b(?:(?:man|woman|men|women|guy|boy|girl|kid|lady|gentleman|fellow|someone|somebody|person|people"
    # "Trevon Sams, who goes by".
    r"|friend|officer|detective|teacher|doctor|nurse|" + RELATIONS + r")s?|he|she|i|who)"
    # "who everybody⏎16   knows as June Bug": who, those who call them so, a printed
    # line number where the line breaks.
    r"(?:[ \t\n]+(?:\d{1,3}[ \t]+)?(?:everybody|everyone|people|they|we|folks))?"
    r",?[ \t\n]+(?:\d{1,3}[ \t]+)?(?:was[ \t]+|is[ \t]+|am[ \t]+)?$"
)
# A preliminary hearing officer and the accused ("PHO:", "ACC:") label an Article 32
# hearing's turns; an investigating officer ("IO:") its older form's.
_COURT_MARTIAL_LABELS = frozenset({"MJ", "TC", "DC", "ATC", "ADC", "WIT", "PHO", "ACC", "IO"})
_COURT_MARTIAL = re.compile(r"(?i)\bcourts?[- ]martial\b|\bmilitary judge\b|\btrial counsel\b")
# (Or a title before the name, whatever the given name: "Ms. Nabukeera Zaina, also
# known as Nalongo".)
_FULL_NAME_ALSO = re.compile(
    r"(?P<title>\b(?:Mr|Mrs|Ms|Miss|Mx|Dr)\.?[ \t]+)?(?P<given>\b[A-Z][a-z]+)[ \t]+[A-Z][\w'’-]+,?[ \t\n]+also[ \t\n]+$"
)
# The word right before "alias": a name in capitals or one the lists know and no
# English word ("MUZAMIRU alias", "Ram Kumar alias"; not "the Tool alias", "the DNS
# alias").
_NAME_BEFORE_ALIAS = re.compile(r"\b([A-Z][\w'’-]+)[ \t]+$")
# A relation's word right before a name ("half-brother Ruaridh").
# Its given name may stand between ("her boyfriend, Cletus⏎Varnado").
_RELATION_BEFORE = re.compile(rf"(?i:\b(?:half-|step-)?(?:{RELATIONS}))(?:,?\s+[A-Z][a-z]+)?,?\s+$")
# A given name right before the surname, a line's end between them or not.
_GIVEN_BEFORE_A_BREAK = re.compile(r"\b([A-Z][a-z]+)\s+$")


def _a_person_s_name_before(text: str, named: re.Match[str]) -> bool:
    """The word before "known as" is a person's: a given name, or any name after a
    relation's word ("Her half-brother Ruaridh, known as Roo"); not a drug's nor a
    gang's ("Suboxone, known as Subs", "Nuestra, known as Norteños")."""
    word = named.group("name")
    if is_common_word(word) or places.is_known_place(word):
        return False
    before = text[max(0, named.start() - 30) : named.start()]
    given = _GIVEN_BEFORE_A_BREAK.search(before)  # a given name, a line's end, the surname
    return (
        is_given_name(word)
        or _RELATION_BEFORE.search(before) is not None
        or (given is not None and is_person_given_name(given.group(1)))  # "Cletus⏎Varnado, known as"
    )


# A name alone, its comma, then "known as" ("Her half-brother Ruaridh,⏎ known as Roo").
_NAME_THEN_KNOWN = re.compile(r"\b(?P<name>[A-Z][a-z]+),[ \t]*\n?[ \t]*(?:\d{1,3}[ \t]+)?(?:also[ \t\n]+)?$")
# A speaker label opens a line: capitals, optional role words, then a colon.
# A printed line number may open the line ("16   MR. BRENNAN:").
# Latin-1's capitals too: "SGT. QUIÑONES:", "MS. NÚÑEZ:".
# A printed line number or a recording's clock may open the line ("00:21  DC SHEIKH:").
_SPEAKER_RE = re.compile(
    r"^[ \t]*(?:\d{1,3}[ \t]+|\d{1,2}:\d{2}(?::\d{2})?[ \t]+)?(?P<label>[A-ZÀ-ÖØ-Þ][A-ZÀ-ÖØ-Þ .'’-]{1,60}?)[ \t]*:",
    re.MULTILINE,
)
_A_CLOCK_OPENS = re.compile(r"[ \t]*\d{1,2}:\d{2}")
_CAP_WORD_RE = re.compile(r"[A-ZÀ-ÖØ-Þ][A-ZÀ-ÖØ-Þ'’-]+")
_LABEL_INITIAL = re.compile(r"[ \t]+[A-Z]\.")
# A building's rooms and floors: after a comma they place a hearing, no one's role.
_ROOMS = frozenset("room rooms hall floor wing suite courtroom chambers building".split())
# Header participant lines: "EVELYN HARTWELL, Presiding Commissioner", also as one
# of a cover page's columns (three spaces or a tab apart: "DOLORES PAGE, Presiding
# Commissioner    LUIS NAVARRETE, Inmate").
_PARTICIPANT_RE = re.compile(
    # No "[ \t]*" after the lookbehinds: at every space of a long run it would
    # re-read the run (quadratic on a layout's blank lines).
    # A printed line number may open the line (" 8  HUDA KUHLANI, SENIOR INVESTIGATIVE
    # COUNSEL"); a degree may end it ("PIERS HESKETH, M.D.,", "OSIAN GENTILE, ESQ.").
    r"(?:^[ \t]*(?:\d{1,3}[ \t]+)?|(?<=   )|(?<=\t))(?P<v>[A-Z][A-Za-z.'’-]+(?:[ ]{1,2}[A-Z][A-Za-z.'’-]+){1,3})"
    r"[ \t]*,[ \t]*(?P<role>[A-Za-z][A-Za-z.-]*(?:[ ]{1,2}[A-Za-z][A-Za-z.-]*){0,6})[ \t]*,?(?=[ \t]*$|[ ]{3}|\t)",
    re.MULTILINE,
)


# A cover's or a form's field that names who held a role, the name alone after it
# on its line: "TRANSCRIBER:        ZODWA MABASO", "Interviewer:  Audra Pruszynski".
# Two to four name words, not a firm ("Reporter: Lone Star Reporting"), a language
# ("Interpreter: Spanish") or a phrase of common words ("Interpreter: Not Required").
_ROLE_FIELD_WORDS = (
    "INTERPRETER|TRANSCRIBER|TRANSCRIPTIONIST|TRANSCRIBED BY|REPORTER|COURT REPORTER|INTERVIEWER|INTERVIEWEE|NARRATOR"
    "|VIDEOGRAPHER|STENOGRAPHER|ARBITRATOR|MEDIATOR|CASEWORKER|SOCIAL WORKER|INVESTIGATOR|EXAMINER|CLERK"
)
_ROLE_FIELD_RE = re.compile(
    rf"^[ \t]*(?i:{_ROLE_FIELD_WORDS})[ \t]*:[ \t]*"
    r"(?P<v>" + _NAME + r"(?:[ ]{1,2}(?:[A-Z]\.[ ]?)?" + _NAME + r"){1,3})[ \t]*$",
    re.MULTILINE,
)


def _role_fields(text: str) -> list[Candidate]:
    """The names role fields give: every word a name's, none a common word no name list
    holds ("Hello Maria", "Okay Ramona", "Verbit Transcription", "Haitian Kreyol"), no
    place's or body's ("Maricopa County", "JAMS Los Angeles")."""
    found = []
    for match in _ROLE_FIELD_RE.finditer(text):
        name = match.group("v")
        words = [w.strip(".") for w in name.split()]
        if any((is_common_word(w) and not is_known_name(w)) or w.lower() in ORGANIZATION_WORDS for w in words):
            continue
        mixed = not name.isupper() and any(len(w) > 1 and w.isupper() for w in words)  # "JAMS Los Angeles"
        if mixed or places.has_institution_word(name) or places.is_known_place(name) or places.is_place_shaped(name):
            continue
        start, end = match.span("v")
        found.append(Candidate(start, end, "PERSON", name, (SOURCE,), 0.85, "cue:role_field"))
    return found


# An institution is named by capitalised words ending in its head word ("County
# Police", "the Medical Examiner's Office", "Justice Department") or followed by
# "of" and its name ("Department of Justice"): the head word is the second signal
# an ORGANIZATION needs, which a model's guess on a capitalised phrase lacks. The
# words are title case (a line in capitals is a heading or a legal notice, not a
# name), an acronym ("FBI", "U.S.") or "St."; one line break may fall between two
# words, as transcripts wrap. Only heads that name an institution whatever precedes
# them: not "Court" (a street: "Florissant Court"), "Board" ("Board Hearing"),
# "Service" ("Memorial Service"), "School" ("in High School") or "Party" ("the
# Moving Party"). A prison, a circuit of the courts and a church are named ones
# ("Folsom State Prison", "the Ninth Circuit", "St. Anne's Church"); so is a title
# of the press ("Slate Magazine", "the Associated Press"), a witness's employer or
# the source a speaker quotes.
_INSTITUTION_HEADS = (
    "|".join(INSTITUTION_HEADS)
    + "|"
    + "|".join(sorted(w.upper() if w.startswith("ll") or w == "pllc" else w.capitalize() for w in TRADE_WORDS))
    # A business by its trade (lexicons.TRADE_WORDS: "Valley Harvest Packing").
)
# Not a pronoun's contraction ("That's Authority Exhibit 3"); a middle initial
# before a name's next word ("Richard J. Donovan Correctional Facility").
_TITLE_WORD = (
    r"(?:(?!(?:That|It|There|What|Here|He|She|Who|Where|Let)['’]s\b)[A-Z][a-z][A-Za-z'’-]*"
    r"|[A-Z]\.(?:[A-Z]\.)+|(?<=[a-z][ ])[A-Z]\.(?=[ ][A-Z][a-z])|[A-Z]{2,5}|St\."
    # A court's or a district's ordinal ("323rd District Court", "the 9th Circuit").
    r"|\d{1,3}(?:st|nd|rd|th))"
)
# One line break at most: a blank line ends a name; three blanks at most: more are a
# page's column gap ("Pastor         Mount Pisgah …").
# A deposition's printed line number may open the next line ("Napa⏎10   State Hospital").
_GAP = r"(?:[ \t]{1,3}|[ \t]*\n[ \t]*(?:\d{1,2}[ \t]{2,10}(?=\S))?)"
# "Court" names an institution after a court's kind ("Fresno County Superior Court",
# "the District Court"); after any other name it may be a street ("Florissant Court").
_COURT_HEAD = "(?:" + "|".join(rf"(?<={kind.capitalize()}\s)" for kind in sorted(COURT_KINDS)) + ")Court"
# "Center" names an institution after a kind of care or custody ("Saint Columba
# Regional Medical Center", "the Juvenile Detention Center"); after any other name it
# may be a place ("Civic Center", "Rockefeller Center").
_CENTER_KINDS = ("Medical", "Health", "Treatment", "Detention", "Rehabilitation", "Counseling", "Cancer", "Trauma")
_CENTER_HEAD = "(?:" + "|".join(rf"(?<={kind}\s)" for kind in _CENTER_KINDS) + ")Cent(?:er|re)"
_INSTITUTION_RE = re.compile(
    # "&" joins two names ("Kovacs & Lindgren Plumbing").
    rf"(?<![\w'’.-])(?P<v>(?:(?:{_TITLE_WORD}|&){_GAP}){{0,6}}(?:{_INSTITUTION_HEADS}|{_COURT_HEAD}|{_CENTER_HEAD})s?"
    # The name after "of" stays on the head's line: the next line may open with a person.
    rf"(?:[ \t]+of[ \t]+(?:the[ \t]+)?{_TITLE_WORD}(?:[ \t]+(?:and[ \t]+)?{_TITLE_WORD}){{0,3}})?)(?![\w'’-])"
    # Not a form's field ("Interview Type:  Reappearance⏎    Facility:  Otisville"),
    # nor a mail address's box ("Post Office Box 5147"), nor a street named after the
    # head ("4410 South Academy Boulevard", "College Avenue").
    r"(?![ \t]*:)(?![ \t]+(?i:box)\b)"
    # In capitals only: "St. Vincent Hospital drive-up", "the Grace Church road trip".
    rf"(?![ \t]+(?:{'|'.join(sorted(t.capitalize() for t in STREET_TYPES | {'drive'}))})\b)"
)
# Heads that also name a rite or a kind of thing ("the Memorial Services"): two
# name words before them.
_WEAK_HEADS = frozenset({"Services"})
_FIRM_SUFFIXES = frozenset({"LLP", "LLC", "PLLC"})
_HEAD_RE = re.compile(rf"^(?:{_INSTITUTION_HEADS}|Court|Cent(?:er|re))s?$")


# A case's caption names its parties ("Lynch v. Overholser", "Green versus United
# States"): a party that is a name word, where no model reads "Green" as one. A
# party that is a government, a place or an institution ("State", "United States",
# "Board of Education", "Acuff-Rose Music") is no person; its words stay to the
# other recognizers. "against" is left out: "Democrats against Republicans"; and
# "vs.", "versus" and a bare "v" name parties only in a text about law: "Lakers
# versus Celtics" and "Birmingham v Barnsley" are matches, "v." a caption wherever
# it stands.
_PARTY = rf"{_NAME}(?:[ \t]+{_NAME}){{0,2}}"
_CASE_RE = re.compile(
    rf"(?<![\w'’-])(?P<a>{_PARTY})[ \t]+(?P<v>v\.?|vs\.?|versus)[ \t]+(?:the[ \t]+)?(?P<b>{_PARTY})(?![\w'’-])"
)
_LEGAL_WORD = re.compile(
    r"(?i)\b(court|appeals?|precedents?|statutes?|plaintiffs?|defendants?|counsel|jury|verdict|ruling|"
    r"amendment|circuit|testimony|prosecut\w+|lawsuit|attorney)\b"
)
# Two distinct legal words: a basketball interview has its "court" alone.
_LEGAL_TEXT = 2


def _about_law(text: str) -> bool:
    return len({m.group(1).lower().rstrip("s") for m in _LEGAL_WORD.finditer(text)}) >= _LEGAL_TEXT


# Parties that are the state or a local government, by whatever name a caption gives it.
_SOVEREIGN = frozenset(
    {"state", "states", "people", "commonwealth", "government", "crown", "king", "queen", "republic", "regina", "rex"}
    | {"city", "county", "town", "village", "township", "district", "borough", "municipality"}
)


def _case_party(text: str, start: int, end: int) -> tuple[int, int] | None:
    """The person's words of one side of a caption, or None. A sentence's opening
    words ("In Lynch", "Citing Lynch") are not the party's."""
    words = _without_leading(list(re.finditer(r"\S+", text[start:end])), _is_stop_word)
    # Nor is a verb or a preposition before it ("Citing Lynch", "Following Roe"):
    # a common word leading several is no part of a name.
    words = _without_leading(words, _only_common_words, keep=1)
    if not words:
        return None
    begin, finish = start + words[0].start(), start + words[-1].end()
    party = text[begin:finish]
    folded = [w.group().lower() for w in words]
    # The sovereign opens the party's name ("State of Ohio", "People"); "Rodney King"
    # is a man.
    if folded[0] in _SOVEREIGN or places.has_institution_word(party):
        return None
    # A role ("Plaintiff v. Defendant") or an acronym ("EPA v. NRDC") is no person.
    if all(w in ROLE_WORDS for w in folded) or (len(words) == 1 and party.isupper()):
        return None
    # A state or a country is the sovereign ("Miranda v. Arizona"); a town's name
    # that is also a surname is the party ("Green", "Ferguson").
    place = " ".join(folded)
    if place in us_states() or place in countries() or (places.is_known_place(party) and party not in last_names()):
        return None
    # "Acuff-Rose Music": a firm's common last word; "Green" alone is the party's name.
    last = words[-1].group()
    if len(words) > 1 and is_common_word(last) and not is_known_name(last):
        return None
    return begin, finish


def _no_author(word: str) -> bool:
    """A body or a role cited with "et al." ("the Committee et al.", "State et al."),
    not an author's surname."""
    folded = word.lower()
    return folded in ROLE_WORDS or folded in _SOVEREIGN or places.has_institution_word(word)


def _one_common_word(party: str) -> bool:
    return " " not in party and is_common_word(party)


def _case_parties(text: str) -> list[Candidate]:
    found = []
    law: bool | None = None  # read once, for the first caption that needs it
    for match in _CASE_RE.finditer(text):
        if match.group("v") != "v.":
            law = _about_law(text) if law is None else law
            if not law:
                continue
        parties = [_case_party(text, *match.span(side)) for side in ("a", "b")]
        # Said aloud, one common word on each side is a contest, not a caption
        # ("Black versus White", "Democrats vs. Republicans"); beside the sovereign a
        # common word is the party's name ("Green versus United States"), and "v."
        # is a caption's ("Roe v. Wade").
        spoken = match.group("v").startswith(("vs", "versus"))
        if spoken and all(p is not None and _one_common_word(text[p[0] : p[1]]) for p in parties):
            continue
        for party in parties:
            if party is not None:
                begin, finish = party
                found.append(Candidate(begin, finish, "PERSON", text[begin:finish], (SOURCE,), 0.8, "cue:case_party"))
    return found


def _is_stop_word(word: str) -> bool:
    return word.lower() in stop_words()


def _without_leading(words: list[re.Match[str]], drop: Callable[[str], bool], keep: int = 0) -> list[re.Match[str]]:
    """`words` without the leading ones `drop` says are no part of a name, keeping
    `keep` words at least."""
    n = 0
    while n < len(words) - keep and drop(words[n].group()):
        n += 1
    return words[n:]


def _is_surname(word: str) -> bool:
    return not _HEAD_RE.match(word) and is_known_name(word) and not is_common_word(word)


def _persons_office(words: list[re.Match[str]]) -> bool:
    """A title or role, then a name ("Judge Smith's Office", "Officer Smith Police"):
    a person's, which the title cue takes; not "Justice Department"."""
    for n in range(min(2, len(words) - 1)):
        after = words[n + 1].group()
        if words[n].group().lower().rstrip(".") in TITLE_WORDS | ROLE_WORDS and (
            re.search(r"['’]s$", after) or _is_surname(after)
        ):
            return True
    return False


# What may stand before a name that ends its line and is its own field: nothing,
# a column gap or a field's label ("For Trinity Ridge Credit Union:   Loretta
# Fairbanks").
_FIELD_OPENS = re.compile(r"(?:^|[ ]{3}|\t|:)[ \t]*$")


def _a_person_with_an_initial(names: list[str], head: str) -> bool:
    """The name's words are a given name and initials, the head a surname the lists
    know ("Ruth A. Church", "Larry D. Press"): a person, where "Jerry L. Pettis
    Memorial VA Medical Center" names more than one word after the initial."""
    initials = [n for n in names if re.fullmatch(r"[A-Z]\.", n)]
    given = [n for n in names if n not in initials]
    return bool(initials) and len(given) == 1 and is_given_name(given[0]) and is_known_name(head)


# The titles and roles a person's name follows, not the role words that open an
# office's name too ("District", "Court", "Board") nor a saint's ("St. Louis County").
_PERSONS_TITLES = (ROLE_WORDS | HONORIFICS | TITLE_WORDS) - frozenset(
    "the a q by district court board panel present members staff others hearing saint st person".split()
)
# The words an appearance's role ends in ("Assistant Prosecuting Attorney" over "Lucas
# County Prosecutor's Office"); not "District", a role's word that opens an office's
# name ("Allegheny County District⏎ Attorney's Office").
_OFFICE_HOLDERS = frozenset(
    "attorney counsel prosecutor defender solicitor advocate investigator officer agent clerk reporter commissioner"
    " examiner judge esquire esq representative".split()
)


def _institution_on_the_next_line(before: str, matched: str, rest: str) -> bool:
    """The words an institution's match holds before a line's end (`matched`; `before`
    the line's words before the match, `rest` the match after the break) end in an
    office holder's word ("Assistant Prosecuting Attorney⏎Lucas County Prosecutor's
    Office"), name someone after a title or a role ("Detective Sam Porter⏎12 Oakland
    Police Department"), or end an institution of their own where the next line names
    a whole one too ("Fresno Police Department⏎ 5 Clovis Police Department"; not
    "Toledo Police⏎17 Department"). The institution starts on the next line."""
    words = matched.split()
    if words and words[-1].strip(",.").lower() in _OFFICE_HOLDERS:
        return True
    # A title in the match or right before it ("Investigator Ray Cortez⏎Tulare County …"),
    # with a name after it on its line ("by the Justice⏎Department" names none); a comma
    # ends the title's phrase ("Deputy District Attorney, Fresno⏎County …").
    titled = [*(w for w in before.split()[-1:] if not w.endswith(",") and words), *words[:-1]]
    if any(w.strip(".,").lower() in _PERSONS_TITLES for w in titled):
        return True
    after = [w for w in rest.split() if not w.isdigit()]
    return bool(words) and _HEAD_RE.match(words[-1]) is not None and len(after) >= 2


def _a_person_s_line(text: str, start: int, broken: int) -> bool:
    """text[start:broken] is the rest of its line, a field of its own, and reads as
    a person's name: two or three words, a given name first, a known name or no
    English word last, and no place or institution ("Opal Redding"; not "Douglas
    County", "Grace Community")."""
    line_start = text.rfind("\n", 0, start) + 1
    name = text[start:broken].strip()
    words = name.split()
    return (
        _FIELD_OPENS.search(text[line_start:start]) is not None
        and 2 <= len(words) <= 3
        and is_given_name(words[0])
        and (is_known_name(words[-1]) or not is_english_word(words[-1].lower()))
        and not places.is_place_shaped(name)
        and not places.is_known_place(name)
        and not places.has_institution_word(name)
    )


def _a_signer_s_role(text: str, start: int, words: list[re.Match[str]]) -> bool:
    """The first of `words` (found from `start`) is a role or a reporter's credential
    after a name's comma, its line ending after it ("Renata Skeet, Transcriber⏎",
    "Genevieve Moqbel, RPR⏎Clinch Valley Reporting")."""
    first = words[0]
    at = start + first.start()
    return (
        (first.group().lower() in ROLE_WORDS or first.group().rstrip(".,").lower() in REPORTER_CREDENTIALS)
        and text[max(0, at - 40) : at].rstrip(" \t").endswith(",")
        and len(words) > 1
        and "\n" in text[start + first.end() : start + words[1].start()]
    )


# A rank's next word ("Detective Police Constable", "Police Community Support Officer").
_A_RANK_AFTER = re.compile(r"[ \t]+(?:Constable|Sergeant|Inspector|Officer|Superintendent|Community)\b")
_RANK_WORDS = TITLE_WORDS | ROLE_WORDS


# Words of the stop list that open institutions' names, capitalised ("Front Range
# Deposition Services", "First Baptist Church", "Third District Court"): a name's.
_NAMING_STOP_WORDS = frozenset("front first third bottom twelve fifteen twenty forty fifty sixty hundred".split())


def _institutions(text: str) -> list[Candidate]:
    """Institutions named by a head word and a name word beside it. Left out before
    the name: a sentence's first word and other function words ("The", "When"), and
    a person's name ("Marcus Delgado⏎Police Department", "told Jim Police were
    coming"), which the person's recognizers take; after "of", the name ends before
    a function word or a given name. A title or role before it makes it a person's
    office ("Judge Smith's Office"): no institution. A head word with no name word
    ("the Police", "Department of") names none; nor does one of a kind ("a Medical
    Examiner's Office")."""
    found = []
    stop = stop_words()
    for match in _INSTITUTION_RE.finditer(text):
        start, end = match.span("v")
        words = list(re.finditer(r"[^\s]+", text[start:end]))
        if _persons_office(words):
            continue
        # A person's name on a line of its own over the firm's ("Opal Redding⏎
        # Clearwater Reporting Services", a signature): the firm starts on the next
        # line. A name that starts mid-line runs across its wrap ("by the Justice⏎
        # Department").
        broken = text.find("\n", start, end)
        if broken >= 0 and (
            _a_person_s_line(text, start, broken)
            or _institution_on_the_next_line(
                text[text.rfind("\n", 0, start) + 1 : start], text[start:broken], text[broken:end]
            )
        ):
            words = [w for w in words if start + w.start() > broken]
        while words:
            first = words[0].group()
            if (
                (first.lower() in stop and not (first[:1].isupper() and first.lower() in _NAMING_STOP_WORDS))
                or first == "&"
                # A role after a name's comma on the line above the firm ("Renata
                # Skeet, Transcriber⏎Tsegi Transcription Services"): the signer's, not
                # the firm's (no comma: "by the Justice⏎Department" is one name).
                or _a_signer_s_role(text, start, words)
                or (_HEAD_RE.match(first) and len(words) > 1 and words[1].group() != "of")
            ):
                words.pop(0)
            elif (
                len(words) > 2
                and is_person_given_name(first)
                and _is_surname(words[1].group())
                and words[-1].group() not in _FIRM_SUFFIXES  # "Doyle Pacheco LLP" is named after people
            ):
                del words[:2]  # "Marcus Delgado⏎Police Department": the person before it
            else:
                break
        # After "of": up to the first function word (but "the", "and" inside) or given name.
        of = next((n for n, w in enumerate(words) if w.group() == "of"), None)
        if of is not None:
            cut = len(words)
            for n in range(of + 1, len(words)):
                word = words[n].group()
                inner = word in ("the", "and") and n + 1 < len(words)
                if (word.lower() in stop and not inner) or is_person_given_name(word):
                    cut = n
                    break
            words = words[:cut]
            while words and words[-1].group() in ("of", "the", "and"):
                words.pop()
        names = [w.group() for w in words if not _HEAD_RE.match(w.group()) and w.group().lower() not in stop | {"&"}]
        # A rank's words are no name ("Detective Police Constable 51873"); "Justice
        # Department" is one.
        if names and _A_RANK_AFTER.match(text, end) and all(n.lower().rstrip(".") in _RANK_WORDS for n in names):
            continue
        # A name word, and the head last unless an "of" name follows it.
        if not names or (of is None and not _HEAD_RE.match(words[-1].group())):
            continue
        if of is None and words[-1].group() in _WEAK_HEADS and len(words) < 3:
            continue  # "the Memorial Services", not "Atkinson-Bright Reporting Services"
        if of is None and words[-1].group() == "Group" and _only_common_words(" ".join(names)):
            continue  # "the Support Group", not "Przybylski Law Group"
        begin, finish = start + words[0].start(), start + words[-1].end()
        if places.one_of_a_kind(text, begin, finish, is_common_word):
            continue  # "a Medical Examiner's Office": any one, not a named one
        if _a_person_with_an_initial(names, words[-1].group()):
            continue  # "Ruth A. Church", "Larry D. Press": a person whose surname is a head's word
        found.append(Candidate(begin, finish, "ORGANIZATION", text[begin:finish], (SOURCE,), 0.75, "cue:institution"))
    return found


# A political party is named by its creed ("the Republican party", "the Kurdistan
# Democratic Party"): a creed's word, then "party" in any case. "Party" alone is no
# head ("the Moving Party", "an Interested Party", "the Logan party").
_CREEDS = POLITICAL | {"labour", "labor", "national", "nationalist", "reform", "workers"}
_PARTY_RE = re.compile(
    r"(?<![\w'’-])(?P<v>(?:[A-Z][A-Za-z]+[ \t]+){0,2}"
    r"(?P<creed>(?:" + "|".join(sorted(w.capitalize() for w in _CREEDS)) + r"))[ \t]+[Pp]arty)(?![\w'’-])"
)


def _political_parties(text: str) -> list[Candidate]:
    found = []
    for match in _PARTY_RE.finditer(text):
        # Its name's words before the creed ("Kurdistan Democratic Party"), not a
        # sentence's opening word ("The Democratic Party"); no creed is a stop word.
        start, end = match.span("v")
        start += _without_leading(list(re.finditer(r"\S+", text[start:end])), _is_stop_word, keep=1)[0].start()
        found.append(Candidate(start, end, "ORGANIZATION", text[start:end], (SOURCE,), 0.75, "cue:party"))
    return found


def _a_defined_term(match: re.Match[str]) -> bool:
    """The bracketed name shortens the one before it, or that one is a body's: a
    contract's or a judgment's defined term ('Ford Motor Company ("Ford")'), no
    nickname."""
    before = match.group("name").split()
    if any(w.lower().strip(".,") in ORGANIZATION_WORDS or w.lower().strip(".,") in LEGAL_FORMS for w in before):
        return True
    return match.group("v").split()[0].casefold() in {w.casefold() for w in before}


_A_NUMBER_NEXT = re.compile(r"[ \t-]?\d")
# Someone named or pointed at earlier in the sentence: a full name (in capitals too),
# a personal pronoun, "who", a person's role.
_PERSON_IN_THE_SENTENCE = re.compile(
    r"(?:\b[A-Z][a-zA-Z'’-]+[ \t]+[A-Z][a-zA-Z'’-]+\b|\b(?i:he|she|him|her|who|man|woman|boy|girl|inmate"
    r"|victim|cousin|brother|sister|friend|cellmate|porter|guy)\b)[^.!?\n]*$"
)


def _quoted_other_name(text: str, match: re.Match[str]) -> bool:
    """A quoted other name after "known as", "goes by" or "a/k/a" ('known as "Sprout,"',
    'goes by "Boo."', 'a/k/a "Bird"'): a person's, even where a town bears it, when a
    person stands before it in its sentence; "a drink called "Santorum"" names a thing."""
    quoted = text[match.start("v") - 1 : match.start("v")] in "\"“'‘"
    # A name and its number name a thing ('a comet also known as "Wild 2"').
    numbered = _A_NUMBER_NEXT.match(text, match.end("v")) is not None
    cue = bool(match.group("known") or match.group("aka") or "by" in match.group().split())
    if not quoted or not cue or numbered:
        return False
    # A common word or a town's name needs a person before it in its sentence
    # ('Darnell Mosley, who was nineteen, known as "Sprout,"', 'who goes by "Boo."');
    # 'a drug known as "Spice"', 'the city known as "Compton"' name things.
    name = match.group("v")
    if _PERSON_IN_THE_SENTENCE.search(text, max(0, match.start() - 80), match.start()) is not None:
        return True
    return not _only_common_words(name) and not places.is_known_place(name)


# Everybody calls a person by a name; no one telephones a person "June" ("Everybody
# calls him June", "folks call her April"; "I'll call him Monday" telephones).
_EVERYONE_BEFORE = re.compile(r"(?i)\b(?:everybody|everyone|people|folks|y'all)[ \t]+$")
# The name ends its clause: a word after it makes the day one telephoned or a kind
# ("called me Sunday night", "called them Sunday people").
_CLAUSE_ENDS = re.compile(r"[ \t]*(?:[.,;:!?\"'”’)]|\n|$)")


def _everyone_calls(text: str, match: re.Match[str]) -> bool:
    """ "Everybody calls him June": the calendar's word is what he is called, said in
    the present of a habit; "Everybody called me Sunday night" telephoned."""
    said_to = match.group("object") and match.group("bare").lower() in ("call", "calls")
    return (
        bool(said_to)
        and _EVERYONE_BEFORE.search(text, max(0, match.start() - 20), match.start()) is not None
        and _CLAUSE_ENDS.match(text, match.end("v")) is not None
    )


def _calls_a_person(text: str, match: re.Match[str]) -> bool:
    """ "called him Will", "a guy named Will", or a known given name ("called
    Tom"): the words name a person, not a drink, a book or a programme. (A quoted
    other name is asked before, in `_names_no_one`.)"""
    # ("I didn't know him as Tray until": the pronoun before "as" says a person too.)
    initials = re.fullmatch(_INITIALS_NICKNAME, match.group("v")) is not None
    if initials and (_CLOCK_OR_SERVICE_LETTERS.fullmatch(match.group("v")) or _THEM.search(match.group())):
        return False  # "call me A.M.", "called them E.M.S.": a clock's or a service's letters
    if match.group("pronoun") or match.group("object") or match.group("namer") or match.group("known_object"):
        return True
    if initials and (match.group("known") or "by" in match.group().split()):
        return True  # "went by J.R.", "known as A.J."
    if initials:
        return False  # "called F.B.I. agents": initials are someone's only when "him" or "me" says so
    if match.group("aka"):
        return False  # unquoted: "the nickname Bob is common" says little
    if match.group("alias"):
        before = _NAME_BEFORE_ALIAS.search(text, max(0, match.start() - 40), match.start())
        word = before.group(1) if before else ""
        if len(word) < 2 or is_english_word(word):
            return False
        # A name in capitals, a record's ("MUZAMIRU alias KANYAMA"), in a text with case:
        # not a system's letters ("the DNS alias Www", "SMTP alias Billing"), nor any
        # word of a text in capitals ("USE THE TOOL ALIAS HAMMER").
        capitals = word.isupper() and match.group("v").isupper() and len(word) > 5 and carries_case(text)
        return capitals or (not word.isupper() and is_known_name(word))
    first = match.group("v").split()[0]
    if not match.group("bare") and _PERSON_BEFORE_CALLED.search(text, max(0, match.start() - 40), match.start()):
        return True
    # "Trevon Sams, also known as Pooh": a person's full name before; not "Mumbai,
    # also known as Bombay".
    also = _FULL_NAME_ALSO.search(text, max(0, match.start() - 60), match.start())
    if also is not None and (is_person_given_name(also.group("given")) or also.group("title")):
        return True
    # A person's name, then "known as" (`_a_person_s_name_before`: "Ruaridh, known as
    # Roo"), not a city's ("Mumbai, also known as Bombay") nor a word's.
    if match.group("known"):
        named = _NAME_THEN_KNOWN.search(text, max(0, match.start() - 40), match.start())
        if named is not None and _a_person_s_name_before(text, named):
            return True
    return is_person_given_name(first)


def _capitals_say_nothing(text: str, name: str) -> bool:
    """A cue's name of common words only, where its capitals say nothing: in a text
    without case, or written in capitals ("AS YOU KNOW, YOUR TERM AS JURORS"). In
    running text a capitalised common word after a cue is a name ("my son Will")."""
    return (not carries_case(text) or name.isupper()) and _only_common_words(name)


_CALENDAR_WORD = re.compile(CALENDAR_WORDS, re.IGNORECASE)
# An English contraction ("DIDN'T", "they're"): a common word, which wordfreq's
# alphabetic list does not hold.
_CONTRACTION = re.compile(r"(?i)^[a-z]+(?:n['’]t|['’](?:re|ll|ve|m|d))$")
# Titles of address written short: inside a speaker's label the name follows them.
# Titles after which every word of a speaker label is the name ("MR. JUDGE:", "CPT
# STERLING:").
# Titles written short before a name in a label ("MR.", "DET.", "OFC.", "SGT."):
# after one, every word is the name.
_ADDRESS_ABBREVIATIONS = frozenset(
    {t.lower() for t in _ABBREVIATED}
    | {"miss", "shri", "smt"}  # an Indian record's ("SMT. P. SOWMYA")
    | {rank.lower() for rank in MILITARY_RANKS}
)


def _a_title_in_a_label(text: str, label_start: int, word: re.Match[str]) -> bool:
    folded = word.group().lower()
    period = text[label_start + word.end() : label_start + word.end() + 1] == "."
    return folded in _ADDRESS_ABBREVIATIONS or (folded in TITLES_ONLY_WITH_THEIR_PERIOD and period)


def _only_common_words(name: str) -> bool:
    """Every word of `name` is a common English word and none is a known name."""
    parts = [w.strip(".,;'’") for w in name.split()]
    return all((is_common_word(w) or _CONTRACTION.match(w)) and not is_known_name(w) for w in parts if w)


def _name_words(found: str) -> list[re.Match[str]]:
    """The words of a cue's name: not the role words trailing it ("Officer Smith
    Inmate"), nothing after a possessive ("Dr. Whitfield's CRA" names Whitfield)."""
    words = list(re.finditer(r"\S+", found))
    while words and words[-1].group().lower().rstrip(".") in ROLE_WORDS:
        words.pop()
    owner = next((n for n, w in enumerate(words) if w.group().endswith(("'s", "’s"))), None)
    return words if owner is None else words[: owner + 1]


def _caseless_people(text: str, within_start: int, within_end: int) -> list[Candidate]:
    """A text without case's people that no capital can announce: a given name
    before a verb of saying ("as bob said"), after "named" ("a dude named hector") or
    after a relation ("my son jamal"),
    any word no English word after a title of address ("mrs bukowski").
    wordfreq counts "jamal" as common (it is frequent as a name): here a given name
    that is no English word ("said", "told", every stop word are) is the name; after
    a relation, one that is also a common word only before a function word or the
    clause's end ("my son jamal he was", not "my sister rose early"). Within the
    stretch of `text` from `within_start` to `within_end` (`case.caseless_spans`)."""
    found = []
    rules = (
        (_SAID_CASELESS_RE, "said"),
        (_NAMED_CASELESS_RE, "said"),
        (_RELATION_CASELESS_RE, "relation"),
        (_TITLE_CASELESS_RE, "title"),
    )
    for regex, rule in rules:
        for match in regex.finditer(text, within_start, within_end):
            name = match.group("v")
            last = name.split()[-1]  # after a name's particles ("van dyke")
            # A filler is no one's name ("deputy um deputy fairweather"): CLOSED_CLASS.
            folded = last.lower()
            if is_english_word(last) or folded in stop_words() or folded in ROLE_WORDS or folded in CLOSED_CLASS:
                continue
            if _CONTRACTION.match(last):
                continue  # "my father didn't live to see it"
            # After a title any surname ("mrs bukowski", "mister haddad"); otherwise a given name.
            if rule != "title" and not is_given_name(name):
                continue
            start, end = match.span("v")
            if rule == "relation" and is_common_word(name) and not _FUNCTION_WORD_AFTER.match(text, end):
                continue
            found.append(Candidate(start, end, "PERSON", name, (SOURCE,), 0.8, f"cue:{rule}"))
    return found


# The roles a speaker label opens or ends with: the role words, and the roles that
# are surnames too, which only a label's place says are roles ("MEMBER BIRD:").
_LABEL_ROLES = ROLE_WORDS | SPEAKER_ROLES
# An Indian record's learned public prosecutor ("LD. PP", "APP", "SPP").
_LEARNED_PROSECUTOR = frozenset({"LD", "PP", "APP", "DPP", "SPP"})
_EXAMINATION_WORD = re.compile(r"EXAMINATION|\b(?:CROSS|DIRECT|REDIRECT|RECROSS)\b")


def _role_named(words: list[re.Match[str]]) -> bool:
    """A speaker's label that names a role: common words, then a role's word
    ("GRAND JUROR:", "COURT REPORTER:", "ADJUDICATION OFFICER:"). "KENNETH CHIEF:", "MARGARET COURT:" name
    people: a given name or a word no common word stands before the role."""
    head = list(words)
    while len(head) > 1 and head[-1].group().lower().strip("'’-") in _LABEL_ROLES:
        head.pop()
    # A common given name ("KENNETH"), not one of the wide lists' rare ones ("CASE").
    given = first_names()
    return len(head) < len(words) and all(
        (is_common_word(w.group()) or is_derived_noun(w.group())) and w.group().title() not in given for w in head
    )


def _a_rank_of_address(word: str) -> bool:
    """An honorific that is no person's given name ("GENERAL", "SHRI")."""
    return word.lower() in HONORIFICS and not is_person_given_name(word)


_PERSONAL_TITLE = re.compile(r"(?:Mr|Mrs|Ms|Miss|Mx|Dr)\.?[ \t\n]")


def _said_to_a_person(name: str) -> bool:
    """A word said to someone after thanks or a greeting that names them: a given
    name or no common word ("Yesi", "Hope"); not a role, a title, kin ("Mom"), a
    word of address ("everyone", "Class"), a place ("Fresno") or a calendar word."""
    folded = name.lower()
    if folded in ROLE_WORDS | TITLE_WORDS | HONORIFICS | _ADDRESS_WORDS or _KIN_WORD.fullmatch(name):
        return False
    if name in TITLES_BEFORE_A_NAME_ONLY:  # "Thank you, Garda."
        return False
    if _FORM_OF_ADDRESS.fullmatch(name):
        return False  # "Good morning, M'Lady."
    if _CALENDAR_WORD.fullmatch(name) or places.is_known_place(name):
        return False
    return is_given_name(name) or not is_common_word(folded)


_NAME_WORD_BEFORE = re.compile(r"(?<![\w'’-])([A-Z][a-z]+)[ ]$")


def _after_a_name_word(text: str, at: int) -> bool:
    """A capitalised word no common word right before `at` ("Lee Hee-chan"; not "Then
    Dong-su oppa")."""
    before = _NAME_WORD_BEFORE.search(text, max(0, at - 30), at)
    return before is not None and not is_common_word(before.group(1))


# The words whose "'s" is "is" or "has" ("It's Mom", "That's Nephew, Kentrell"): the
# closed class, and the adverbs that open such a sentence.
_CONTRACTING_IS = CLOSED_CLASS | {"there", "here", "how"}


_WORD_AFTER = re.compile(r"[ \t]+([A-Za-z]+)")


def _a_role_s_first_word(text: str, end: int, name: str) -> bool:
    """An office's first word, then its head ("Vice| Chair", "Deputy| Speaker",
    "Acting| Chief"): the office's name, addressed after the title."""
    after = _WORD_AFTER.match(text, end)
    return after is not None and name.lower() in OFFICE_MODIFIERS and after.group(1).lower() in OFFICE_HEADS


# Who a person is to another, as a record writes it capitalised where a line opens
# ("Paramour's mother", "Babysitter's boyfriend"): no one's name.
_RELATION_OWNER = re.compile(rf"(?i:{RELATIONS}|paramour|babysitter|caregiver|roommate|landlord|landlady)")


def an_office_addressed(text: str, name: str) -> bool:
    """An office after a title ("Mr. Member", "Madam Chair", "Mr. Commissioner") that
    the document also writes as the office: capitalised after "the" ("Tell the
    Member") or as a speaker's label in capitals ("MEMBER:"). A surname that is a
    role's word ("Ms. Sheriff said that Sheriff's statement…", "Mr. Driver … the
    driver of the van") is written neither way."""
    if " " in name or name.lower() not in _OFFICES_OR_ROLES or len(name) < 3:
        return False
    word, label = re.escape(name.capitalize()), re.escape(name.upper())
    # ... or before its holder's name, in a label or a sentence ("MAYOR WHITLOCK:",
    # "Mayor Whitlock said": "Mr. Mayor" is the office addressed).
    office = rf"\b(?i:the)[ \t]+{word}\b|^[ \t]*{label}(?:[ \t]+[A-Z][A-Z'’.-]+)?[ \t]*:|\b{word}[ \t]+[A-Z][a-z]"
    return re.search(office, text, re.MULTILINE) is not None


_OFFICES_OR_ROLES = OFFICE_HEADS | ROLE_WORDS


# A person's dotted initials in brackets right after the name, an age after them or
# not: "Ms Donnachie (S.D., 34)", "Mr Mowat (G.M.)", "Aileen Donnachie (A.D.)".
# (A name's words are bounded and taken whole: from every capital of a hyphened run,
# "A-1-B-2-…", an unbounded surname would scan the run again, 37 s for 128,000
# characters.)
_INITIALS_AFTER_A_NAME_RE = re.compile(
    r"\b(?P<title>(?:Mr|Mrs|Ms|Miss|Mx|Dr)\.?[ \t]+)?(?P<given>[A-Z][a-z]{1,30}+[ \t]+)?"
    r"(?P<surname>[A-Z][\w'’-]{1,40}+)"
    # Dotted ("(W.F.)") or, as minutes introduce their members, undotted ("Louise
    # Sowerby (LS)"), which the minutes then write alone ("LS noted that").
    r"[ \t]*\([ \t]*(?P<v>(?:[A-Z]\.[ ]?){1,3}[A-Z]\.|[A-Z]{2,3})[ \t]*(?=[,;)])"
)


def _initials_after_a_name(text: str) -> list[Candidate]:
    """Initials a record gives a person it names, in brackets after the name, dotted
    or not (`_a_member_introduced`): the last letter the surname's, the first the
    given name's where it is written, after a title or a given name (not "the Court
    (S.C.)" nor "Form (I.D.)")."""
    found = []
    for match in _INITIALS_AFTER_A_NAME_RE.finditer(text):
        letters = [c for c in match.group("v") if c.isupper()]
        joined = "".join(letters)
        if joined in POST_NOMINALS or joined.lower() in DEGREES:
            continue  # "Ms Carter (Q.C.)", "Dr Dunn (M.D.)": her rank, his degree
        given = match.group("given")
        if not (match.group("title") or given) or letters[-1] != match.group("surname")[0]:
            continue
        if "." not in match.group("v"):
            found += _a_member_introduced(text, match, letters)
            continue
        if given and (letters[0] != given[0] or not is_person_given_name(given.strip())):
            continue
        start, end = match.span("v")
        found.append(Candidate(start, end, "PERSON", text[start:end], (SOURCE,), 0.85, "cue:initials_after_name"))
    return found


def _a_member_introduced(text: str, match: re.Match[str], letters: list[str]) -> list[Candidate]:
    """A given name and a surname, then the capitals of both in brackets, as minutes
    introduce their members ("Graham March (GM)", "Louise Sowerby (LS)"): the name
    and its initials, PERSON, whatever a model read the surname as (a month, a town).
    Not a body's words that a given name opens ("Royal Mail (RM)", "Victoria Police
    (VP)"): two common words, or a body's or a place's word last."""
    given, surname = (match.group("given") or "").strip(), match.group("surname")
    if not given or letters[0] != given[0] or not is_given_name(given):
        return []
    folded = surname.casefold()
    if folded in ORGANIZATION_WORDS or folded in PLACE_WORDS or (is_common_word(given) and is_common_word(surname)):
        return []
    return [
        Candidate(start, end, "PERSON", text[start:end], (SOURCE,), 0.85, "cue:initials_after_name")
        for start, end in ((match.start("given"), match.end("surname")), match.span("v"))
    ]


# A given name, then the dotted initials a report calls the person by, the first of
# them the name's ("And Haven,⏎25   H.A., who was six"): a word that is a name there,
# a word as it may be.
_NAME_THEN_ITS_INITIALS_RE = re.compile(
    rf"\b(?P<n>[A-Z][a-z]+),{places.LINE_GAP}(?P<i>(?:[A-Z]\.){{2,3}})(?=[,;)]|[ \t]*\n|[ ]+[a-z])"
)


# A firm's legal form in dotted letters ("Pell, P.S.", "Poole, P.C.").
_DOTTED_LEGAL_FORMS = frozenset({"PS", "PC", "PA", "LP", "LLP", "LLC", "PLLC", "SC", "APC"})


def _names_then_their_initials(text: str) -> list[Candidate]:
    found = []
    for match in _NAME_THEN_ITS_INITIALS_RE.finditer(text):
        name, initials = match.group("n"), match.group("i")
        joined = initials.replace(".", "")
        if initials[0] != name[0] or joined in POST_NOMINALS | _DOTTED_LEGAL_FORMS or joined.lower() in DEGREES:
            continue  # "Dawson, D.O.": a degree; "Haskins & Pell, P.S.": a firm's legal form
        if name.lower() in ROLE_WORDS or places.is_known_place(name) or is_kin_word(name):
            continue
        if is_common_word(name) and not is_given_name(name):
            continue  # "Mother, M.O.", "Exhibit, E.X.", "United, U.S., Army": words, no names
        for group in ("n", "i"):
            start, end = match.span(group)
            found.append(Candidate(start, end, "PERSON", text[start:end], (SOURCE,), 0.85, "cue:initials_after_name"))
    return found


# The roles a tribunal's rules name with a participle after them ("PERSON CONCERNED",
# "PARTY APPEARING", "COUNSEL APPEARING", "MEMBER PRESIDING").
_PARTICIPLE_ROLES = frozenset("person persons party parties counsel member".split())


def _a_role_s_participle(role: str, word: str) -> bool:
    """A participle after a tribunal's role: an English word (wordfreq's, names aside)
    that ends in -ed or -ing and no name list holds ("OFFICER SPEED:", "WITNESS
    BOWLING:", "CLAIMANT SAEED:" name their speakers; "THE WITNESS HURT:" too)."""
    return (
        role.lower() in _PARTICIPLE_ROLES
        and word.lower().endswith(("ed", "ing"))
        and is_english_word(word.lower())
        and not is_known_name(word)
    )


def _no_one_s_possessive(name: str) -> bool:
    """ "It's Mom", "That's Nephew": a pronoun and its verb, no possessor; "Babysitter's
    boyfriend", "Paramour's mother", "Victim's sister": a relation or a role owns the
    relation. A word otherwise is a name, a nickname too ("Rabbit's nephew", "Hope's
    brother", "Will's sister")."""
    lower = name.lower()
    return lower in _CONTRACTING_IS or lower in ROLE_WORDS or _RELATION_OWNER.fullmatch(name) is not None


def _a_surname_barr(text: str, match: re.Match[str]) -> bool:
    """ "Barr." before a name that is no counsel's (places.barrister_s_title)."""
    return match.group(0)[:4].lower() == "barr" and not places.barrister_s_title(text, match.start() + 4)


def _names_no_one(text: str, rule: str, match: re.Match[str], name: str) -> bool:
    """A cue whose words name no person after all."""
    # A quoted other name is a person's (`_quoted_other_name`), asked once.
    quoted = rule == "called" and _quoted_other_name(text, match)
    named = rule == "called" and (
        bool(match.group("pronoun") or match.group("object") or match.group("namer") or match.group("alias")) or quoted
    )
    # "California's children", "a town called Fresno"; "call me Ada" is Ada; "With Oppa
    # and his wife": a kin word said as a name after a sentence's word.
    # "Thanks oppa", "Rain oppa": a common word no name list holds is no one's name
    # here; "Lee Hee-chan", "Kim Jae-nim": a name's last word, not one said alone.
    stop = rule == "address_after" and (
        (is_common_word(name) and not is_known_name(name)) or _after_a_name_word(text, match.start())
    )
    if rule in ("relation", "called", "address_after") and not named and (stop or places.is_known_place(name)):
        return True
    if rule == "called" and not quoted and _CALENDAR_WORD.fullmatch(name) and not _everyone_calls(text, match):
        return True  # "call me Monday"; not 'Anfernee Lusby, who went by "Sunday,"'
    if rule == "called" and is_kin_word(name):
        return True  # "the grandkids call him Paw-Paw": a kin word ("calls her Tia" is Tia)
    if rule == "called" and not quoted and not _calls_a_person(text, match):
        return True
    if rule == "nickname_age" and _only_common_words(match.groupdict().get("one") or name):
        return True  # 'The Seller ("Vendor"), 45': a contract's defined terms; not 'Ellery ("Moose"), 16'
    # An initial that is the named person's says nickname ('Jonas Zook ("Big J")'); any
    # other letter after a word is a defined term ('Robert Lee ("Seller A")', '("Party B")').
    initialled = rule == "nickname" and _initial_of_the_name(match, name)
    if rule == "nickname" and (_a_defined_term(match) or (_only_common_words(name) and not initialled)):
        return True  # 'Caldicott Provisions Limited ("Caldicott")', 'Maria Lopez ("Tenant")': a defined term
    if rule == "vocative" and not _said_to_a_person(name):
        return True  # "Thank you, Judge.", "Hi, everyone.", "Hi, Mom.", "Hello, Fresno!"
    if rule == "et_al" and _no_author(name):
        return True  # "the Committee et al.", "State et al.": a body, cited as a party
    # "Mr. Childs", "Ms. Hope", "SPC Brooks": after a personal title or a rank one
    # word is the surname, a common word too.
    personal = " " not in name and (
        (rule == "title" and _PERSONAL_TITLE.match(match.group(0)) is not None)
        or (rule == "honorific" and _RANK_LEAD.match(match.group(0)) is not None)
    )
    # "Squadron Officer School": a thing named after the title, no one; "Sergeant
    # Major", "called First Sergeant Rudd": a rank of two words.
    if not personal and (
        (rule in ("title", "honorific") and _only_common_words(name))
        or (rule in ("title", "honorific", "called") and _part_of_a_rank(text, match, name))
    ):
        return True
    if rule == "called" and places.is_place_shaped(re.sub(r"['’]s$", "", name)):
        return True  # "went by Main Street", "called Minneapolis Center's coordinator"
    if rule == "honorific" and (places.is_place_shaped(name) or places.has_institution_word(name)):
        return True  # "King Street", "General Hospital"
    ended = _WORD_AND_PERIOD.match(match.group(0)) if rule == "honorific" else None
    if ended is not None and is_common_word(ended.group("w").lower()):
        return True  # "My Lord. If Your Lordships permit": the sentence ended at the title
    if rule == "honorific" and _TITLE_JUST_BEFORE.search(text, max(0, match.start() - 12), match.start()):
        return True  # "Mr. Haj Ali": after a title the honorific's word is the surname's (the title cue's)
    if rule == "honorific" and places.is_known_place(f"{match.group(0).split()[0].rstrip('.')} {name}"):
        return True  # "Prince Albert", "Prince George": a town the title opens
    if rule in ("relation", "called") and " " in name and places.has_institution_word(name):
        return True  # "the Victim Services Division": a body's name after the word
    if rule == "relation" and _business_after(text, match.end("v")):
        return True  # "Uncle Jun's Carryout", "Mama Rosa's Pizzeria": a business's name
    if rule in ("family", "sender"):
        return _no_family_or_sender(rule, name)
    # "HIS MOTHER OUT IN THE CROWD"; but "my son Will" is Will
    return rule == "relation" and _capitals_say_nothing(text, name)


# The first two words of each rank of two words or more ("first sergeant",
# "sergeant first"): a name said before the next word may open one.
_RANK_OPENINGS = frozenset(" ".join(rank.split()[:2]) for rank in COMPOUND_RANKS)


def _part_of_a_rank(text: str, match: re.Match[str], name: str) -> bool:
    """`name` is a rank's word: the title and the name are a rank of two words or
    more ("Sergeant Major", "Command Sergeant Major"), or the name opens one with the
    next word ("called First Sergeant Rudd"). Not a surname a rank's word spells
    ("Officer King", "Major King", "called him Major")."""
    said = " ".join(re.findall(r"[A-Za-z]+", match.group(0))).lower()
    named = len(name.split())
    if any((said == rank or said.endswith(f" {rank}")) and named < len(rank.split()) for rank in COMPOUND_RANKS):
        return True
    after = _WORD_AFTER.match(text, match.end("v"))
    return after is not None and f"{name.lower()} {after.group(1).lower()}" in _RANK_OPENINGS


def _initial_of_the_name(match: re.Match[str], nickname: str) -> bool:
    """A one-letter word of the nickname is the initial of a word of the name before it."""
    initials = {w[0] for w in match.group("name").split() if w[:1].isupper()}
    return any(len(w.rstrip(".")) == 1 and w[0] in initials for w in nickname.split())


def _a_contact_s_tag(word: str) -> bool:
    """A word a phone's contact list adds after a name: kin or where one reaches them."""
    return bool(_KIN_WORD.fullmatch(word)) or word.lower() in ("cuz", "work", "home", "cell", "mobile", "office")


_TITLE_JUST_BEFORE = re.compile(TITLE_JUST_BEFORE)


def _no_family_or_sender(rule: str, name: str) -> bool:
    """ "the Royal family", "the Texas family", "the Mexican family": a word, a place
    or a people, not a surname; "From: Customer Service", "From: Officer Ruiz" (the
    title cue's): no sender's name."""
    if rule == "family":
        return is_common_word(name) or places.is_known_place(name) or places.has_nationality(name)
    if places.is_known_place(name) or places.has_institution_word(name):
        return True  # "From: Lagos⏎To: Abuja", "From: Chase Bank"
    return _only_common_words(name) or name.split()[0].lower().rstrip(".") in ROLE_WORDS | TITLE_WORDS


_POSSESSIVE_WORDS = re.compile(r"(?:['’]s)?(?P<words>(?:[ \t]+[A-Z][\w'’&-]*){1,3})")


def _business_after(text: str, end: int) -> bool:
    """The name's possessive, then a business's name that ends in its trade word
    ("'s Carryout", "'s Auto Repair Services")."""
    after = _POSSESSIVE_WORDS.match(text, end)
    possessive = text[end - 2 : end] in ("'s", "’s") or (after is not None and after.group().startswith(("'", "’")))
    return after is not None and possessive and after.group("words").split()[-1].lower() in ORGANIZATION_WORDS


def _running_headers(text: str, speakers: list[re.Match[str]]) -> set[str]:
    """Labels each of whose lines goes on with the same words, four or more and no
    sentence's stop, every time ("CONFIDENTIAL: Forensic Psychiatry Act / FIN 0042"
    atop each page): a page's running header; a speaker says something else each
    turn, or a sentence."""
    rests: dict[str, set[str]] = {}
    counts: Counter[str] = Counter()
    for match in speakers:
        label = " ".join(match.group("label").split())
        end = text.find("\n", match.end())
        rest = " ".join(text[match.end() : end if end != -1 else len(text)].split())
        # A speaker's sentence ends with its stop ("I don't remember that at all."); a
        # header's line does not.
        header = len(rest.split()) >= 4 and not rest.endswith((".", "?", "!", '"', "”"))
        rests.setdefault(label, set()).add(rest if header else f"{match.end()}")
        counts[label] += 1
    return {label for label, found in rests.items() if counts[label] >= 2 and len(found) == 1}


def _examiner(words: list[re.Match[str]]) -> tuple[list[re.Match[str]], bool, bool]:
    """The name an examination's heading gives: its witness's, between "OF" and "BY"
    ("DIRECT EXAMINATION OF TWYLA DAY BY PLAINTIFF:"), else its examiner's after "BY",
    less a learned prosecutor's letters and what a party's "FOR" adds ("CHIEF-EXAMINATION
    BY LD. PUBLIC PROSECUTOR SRI. T. RANGASWAMY:"; "RE-EXAMINATION BY LD. PP:",
    "CROSS-EXAMINATION BY COUNSEL FOR PLAINTIFF:" none). With whether a witness was
    read (a name whatever its words, as after a title), and whether the words are an
    examiner's (a name only if a word of them is no common word: "BY JUROR NUMBER
    THREE:", "BY COURT APPOINTED COUNSEL:" name no one)."""
    by = [n for n, w in enumerate(words) if w.group() == "BY"]
    if not by or not any(_EXAMINATION_WORD.search(w.group()) for w in words[: by[-1]]):
        return words, False, False
    after = words[by[-1] + 1 :]
    if any(w.group().lower() in _ADDRESS_ABBREVIATIONS for w in after):
        return words, False, False  # "… BY MS. WILL:": the title names the examiner
    of = [n for n, w in enumerate(words[: by[-1]]) if w.group() == "OF"]
    if of and of[-1] + 1 < by[-1]:
        witness = words[of[-1] + 1 : by[-1]]
        # "OF THE DEFENDANT BY DEFENSE:": a role, no one named.
        return ([] if witness[0].group() == "THE" else witness), True, False
    while after and after[0].group() in _LEARNED_PROSECUTOR:
        after = after[1:]
    cut = next((n for n, w in enumerate(after) if w.group() in ("FOR", "OF", "ON")), len(after))
    return after[:cut], False, True


# A transcript's key to its labels ("Key:  FI = forensic interviewer."): the letters a
# role's words in lower case spell out.
_LEGEND_ENTRY = re.compile(
    r"(?<![\w.])(?P<abbr>[A-Z]{1,3})[ \t]*=[ \t]*(?P<words>[a-z][a-z'’ -]{2,40}?)(?=[.;,)]|[ \t]*$)", re.M
)


def _roles_in_a_legend(text: str) -> frozenset[str]:
    """The labels a key spells out as a role in common words, no one's name."""
    return frozenset(
        m.group("abbr")
        for m in _LEGEND_ENTRY.finditer(text)
        if all(is_common_word(w) and not is_known_name(w.title()) for w in m.group("words").split())
    )


def _speaker_labels(text: str) -> list[Candidate]:
    """The names speaker labels give ("MR. HADDAD:", "KOWALCZYK:"), not the roles."""
    found: list[Candidate] = []
    speakers = list(_SPEAKER_RE.finditer(text))
    # A label that comes back is a speaker's turn; a form's field is written once.
    turns = Counter(" ".join(m.group("label").split()) for m in speakers)
    # A court-martial's labels ("MJ:", "TC:", "DC:"): roles where two of them speak;
    # elsewhere two letters may be a speaker's initials ("MJ:" in an interview).
    military = len(_COURT_MARTIAL_LABELS & set(turns)) >= 2 and _COURT_MARTIAL.search(text) is not None
    headers = _running_headers(text, speakers)
    # "NARRATIVE:" under a record's fields each time: that record's section heading.
    # A key's roles too ("FI = forensic interviewer").
    sections = _section_headings(text, speakers) | _roles_in_a_legend(text)
    for match in speakers:
        label = " ".join(match.group("label").split())
        # "HER LADYSHIP:", "HIS HONOUR:": the judge, by the office; "RN:": a nurse's
        # entry in a team's notes, by the degree.
        if (
            _FORM_OF_ADDRESS.fullmatch(label)
            or label.lower() in DEGREES
            or label in sections
            or (label in headers and _only_common_words(label))
        ):
            # "CONFIDENTIAL: Forensic Psychiatry Act / FIN 0042" on every page: a page's
            # header; a speaker who says the same each time ("MR. LONG: Thank you, Your
            # Honor.", "SWEET: I don't remember that at all.") keeps the name.
            continue
        label_start = match.start("label")
        # After a clock a line's words in capitals may be a log's entry.
        clocked = _A_CLOCK_OPENS.match(match.group()) is not None
        if "  " in match.group("label") and clocked:
            continue  # "03:12:40  INC CLOSED  DISPO:": a log's columns after its clock, no speaker
        words = [w for w in _CAP_WORD_RE.finditer(match.group("label")) if len(w.group()) >= 2]
        if words and words[0].group() == "UNIDENTIFIED":
            continue  # "UNIDENTIFIED FEMALE:", "UNIDENTIFIED SPEAKER:": no one named
        if military and label in _COURT_MARTIAL_LABELS:
            continue
        # Roles lead the label ("PRESIDING COMMISSIONER"); from the first word that
        # is not a role on, it is the name, even "MARGARET COURT".
        words, roled, examiner = _examiner(words)
        # A heading's "BY" and a title inside the label: the name follows the title
        # ("CROSS-EXAMINATION BY MR. HADDAD:" names HADDAD).
        titled = [n for n, w in enumerate(words) if _a_title_in_a_label(text, label_start, w)]
        if titled and titled[-1] == len(words) - 1 and len(words) > 1:
            continue  # "RPT OFCR:", a record's field: its officer's name follows the colon
        if titled and titled[-1] + 1 < len(words):
            # After "MR." every word is the name, a role's word too ("MR. JUDGE:").
            words = words[titled[-1] + 1 :]
            roled = True
        else:
            article = bool(words) and words[0].group() == "THE"
            roles = 0
            last_role = ""
            while words and (
                words[0].group().lower().strip("'’-") in _LABEL_ROLES
                # A role's letters before the surname ("DLC PRUSZYNSKI:", a deputy labor
                # commissioner): three or four and no vowel, so no one's name ("NG" is).
                or (
                    len(words) > 1
                    and re.fullmatch(ROLE_LETTERS, words[0].group()) is not None
                    # No field's word ("PNC ID:") nor another common word ("NBC NEWS:",
                    # "NPR HOST:", "KRS ONE:"): the letters are a body's, or a name's.
                    and not is_common_word(words[1].group())
                    and words[1].group() not in _FIELD_WORDS
                )
                # "SR. ADV. PAREKH:": a senior advocate, "SR" only before a role
                or (words[0].group() == "SR" and len(words) > 2 and words[1].group().lower() in _LABEL_ROLES)
                # After a role an office's rank is the role's too ("SOLICITOR GENERAL
                # CHAUHAN:"), not a given name ("PRINCE JACKSON:" is his).
                or (roled and len(words) > 1 and _a_rank_of_address(words[0].group()))
            ):
                last_role = words.pop(0).group()
                roled = True
                roles += 1
            # "THE CHILD:", "THE VIDEOGRAPHER:": a name takes no article. After a role
            # ("THE WITNESS HURT:") a common word is the name, as after a title.
            # "PERSON CONCERNED:", "COUNSEL APPEARING:": the role, said as the rules say it.
            participle = roles > 0 and len(words) == 1 and _a_role_s_participle(last_role, words[0].group())
            a_role_s_phrase = article and roles == 1 and _only_common_words(" ".join(w.group() for w in words) or "the")
            if participle or a_role_s_phrase:
                continue
        if not roled and _role_named(words):
            continue
        examined = examiner and not titled  # after "MR." a common word is the name ("BY MS. WILL:")
        if _a_sentence(words) or (examined and _only_common_words(" ".join(w.group() for w in words) or "the")):
            continue  # "BE READ INTO THE RECORD IN PART:" in capitals; "EXAMINATION BY JUROR NUMBER THREE:"
        if words and words[-1].group().lower() in _PREPOSITIONS_BEFORE_A_NAME:
            continue  # "TRANSCRIBED INTERVIEW OF:", "PRESENT FOR:": a heading whose name comes after it
        if (
            not titled
            and words
            and _a_heading_noun(words[-1].group())
            and _only_common_words(" ".join(w.group() for w in words[:-1]) or "the")
        ):
            continue  # "DECISION:", "PATIENT SIGNATURE:", "FINDINGS:": a document's heading or field
        if any(w.group().endswith(("'S", "’S")) for w in words[:-1]):
            continue  # "OFFENDER'S VERSION:", "DEFENDANT'S EXHIBITS:": a heading, whose thing is owned
        # A speaker label is in capitals in any transcript: after a title or a role,
        # or as a turn that comes back ("SWEET:" twice), a common word is the name
        # ("MR. WILL:"). A label of common words alone is none: in a text without case
        # any such line ("IN THE MATTER OF …:"), and in a text with case a form's
        # field, written once ("ISSUER:", "PAYING AGENT:", "NOTE:").
        common = bool(words) and _only_common_words(" ".join(w.group() for w in words))
        # (A heading's words may be surnames too: "DATE OF DECISION:".)
        if (
            bool(words)
            and all(is_common_word(w.group().strip(".,;'’")) for w in words)
            and not roled
            and any(_is_stop_word(w.group()) and w.group().lower() not in NAME_PARTICLES for w in words)
        ):
            continue  # "DEATHS IN FEDERAL CUSTODY:" on the cover and the title page: a heading's phrase
        written = turns[label]
        recurs = written >= 2
        # A clinical note's field ("DOB:", "HPI:", "C-SSRS:"): a list, since short
        # surnames no name list holds speak once or twice too ("WU:", "THAO:").
        field = (
            not roled
            and len(words) == 1
            and (
                words[0].group() in CLINICAL_FIELD_LABELS | FORM_FIELD_LABELS
                or (words[0].group() in FORM_FIELD_SURNAMES and written == 1)
                # "VIN: 1HGCM82633A004352" on every vehicle, "SID: 08127734" on every
                # subject: a number's field however often; "SID: At my mom's." a speaker.
                or (words[0].group() in _NUMBER_FIELDS and _A_NUMBER_AFTER.match(text, match.end()) is not None)
                # "PRN:        62093318", written once: a code alone on the line is a
                # field's value; a speaker says words ("PRICE:   17", a surname, may
                # answer once with a figure).
                or (
                    written == 1
                    and not is_known_name(words[0].group())
                    and _ONLY_A_CODE_AFTER.match(text, match.end()) is not None
                )
            )
        ) or _a_form_s_field(text, match, words, written)
        # Common words after a clock ("13:15 COUNT:") name someone only after a role.
        if words and not field and (not common or ((roled or (recurs and not clocked)) and carries_case(text))):
            start, end = label_start + words[0].start(), label_start + words[-1].end()
            # A surname's initial ends the name ("JOURNEY M.:", a dependency court's
            # child): it is part of how the person is named.
            if (initial := _LABEL_INITIAL.fullmatch(text, end, match.end("label"))) is not None:
                end = initial.end()
            found.append(Candidate(start, end, "PERSON", text[start:end], (SOURCE,), 0.9, "cue:speaker_label"))
    return found


# Degrees written as a state's postal code is ("MD", "PA", "DC"; "Md." is Maryland's
# too): a degree only with a period between its letters ("M.D.", "D.O.").
_POSTAL_DEGREES = frozenset({"MD", "PA", "DC", "DO"})


# The prepositions a heading ends in before the name it introduces; not "TO", "ON",
# "AN", "DO" (Vietnamese and Chinese names' syllables) nor "WILL", "HER" (names too).
_PREPOSITIONS_BEFORE_A_NAME = frozenset("of for by with from at into about regarding concerning".split())


# The endings of English abstract nouns ("DECISION", "SIGNATURE", "STIPULATIONS",
# "ASSESSMENT"): a label of one such word heads a part of a record.
# Not "-INGS", "-NESS", "-ANCE", "-ENCE": surnames end so ("STALLINGS", "NESS", "PENCE").
_HEADING_NOUN_END = re.compile(r"(?:TION|SION|MENT|TURE|ITY)S?")


def _a_heading_noun(word: str) -> bool:
    """An English abstract noun that no name list holds: a record's heading, however
    often it comes back ("DECISION:" under each level of an appeal); "SWEET:" and
    "WILL:" that come back are a speaker's turns, "MARION:" a name."""
    word = word.rsplit("-", 1)[-1]  # "RE-EXAMINATION:", "CROSS-EXAMINATION:"
    if _HEADING_NOUN_END.search(word[-6:]) is None or is_known_name(word):
        return False
    return is_common_word(word) or (word.endswith("S") and is_common_word(word[:-1]))


# Labels that are given names too, a number's field when a number follows them.
_NUMBER_FIELDS = frozenset({"VIN", "SID", "DIN", "DAY"})
_A_NUMBER_AFTER = re.compile(r"[ \t]*#?[A-Z0-9-]*\d")
# A code with a figure, and nothing else, to the line's end.
# One run (its figure looked for ahead), so that a long run without its line's end
# backtracks linearly.
# A code may hold one space between its letters and its digits ("OTN: G 771904-2").
_ONLY_A_CODE_AFTER = re.compile(
    r"[ \t]*#?(?=[A-Z0-9/.-]*(?:[ ][A-Z0-9/.-]*)?\d)[A-Z0-9][A-Z0-9/.-]*(?:[ ][A-Z0-9/.-]*\d[A-Z0-9/.-]*)?"
    r"(?<!\.)[ \t]*(?:\n|$)"
)


def _a_sentence(words: list[re.Match[str]]) -> bool:
    """Three words or more of which two are stop words that are no name's particles
    ("BE READ INTO THE RECORD IN PART"): a sentence, where "DEPUTY DISTRICT
    ATTORNEY HER" holds one (a surname) and "MARIA DE LA CRUZ" particles."""
    stops = [w for w in words if is_stop_word(w.group()) and w.group().lower() not in NAME_PARTICLES]
    # A sentence's stop words of three letters or more ("INTO", "THE"): two-letter
    # ones are Vietnamese and Korean names too ("MS. DO THI AN:", "TO VAN AN").
    return len(words) >= 3 and len(stops) >= 2 and any(len(w.group()) > 2 for w in stops)


# A form's field of several words, written once, its value aligned after it: "DATE OF
# OFFENSE:  03/09/2024", "RVR LOG NO.:      7481220", "INCIDENT LOG NO.:". A word of a
# record or a date in the label, or a value that opens with a digit.
# Words that make a label of several words a clinical or a report's section written
# once, wherever its text starts ("CHIEF COMPLAINT: Altered mental status").
_SECTION_WORDS = frozenset(
    """COMPLAINT HISTORY DIAGNOSIS ASSESSMENT PLAN MEDICATIONS ALLERGIES DISPOSITION NARRATIVE IMPRESSION
    FINDINGS""".split()
)
_FIELD_WORDS = (
    frozenset("DATE TIME NO NUMBER LOG RULE OFFENSE HEARING INCIDENT DOB ID CODE TYPE STATUS SUMMARY".split())
    | _SECTION_WORDS
)
_ALIGNED_VALUE = re.compile(r"[ \t]{2,}(?P<digit>\d)?")
_FIGURE_AFTER = re.compile(r"[ \t]*\d")


def _a_field_s_code(words: list[re.Match[str]]) -> bool:
    """A label that is a field's code: an acronym no name list holds ("DPP", "ADA"),
    or common words only ("UNIT", "YARD"); not a speaker's name ("OKONKWO-BELL")."""
    label = " ".join(w.group() for w in words)
    acronym = len(words) == 1 and len(label) <= 5 and not is_known_name(label)
    return bool(words) and (acronym or _only_common_words(label))


# Another field on the label's line, past a column's gap: a form's row of fields.
_MORE_FIELDS_ON_THE_LINE = re.compile(r"[^\n]*?\S[ \t]{3,}[A-Z][A-Za-z/ .'()-]{0,30}:(?!\d)")


_NOTHING_AFTER_ON_THE_LINE = re.compile(r"[ \t]*(?:\r?\n|$)")
# A record's field with its value on the line: "LOCATION: Deming Elementary".
_FIELD_LINE = re.compile(r"[ \t]*(?P<label>[A-Z][A-Z /'’.-]{1,40}):[ \t]+\S[^\n]*\n[ \t]*$")


def _section_headings(text: str, speakers: list[re.Match[str]]) -> set[str]:
    """Labels that head a record's section every time, and twice or more: a
    speaker's label alone on its line once under a form's fields ("LOCATION:
    Oakland⏎SWEET:⏎Well, I was born…") is still a speaker's."""
    headed: dict[str, list[bool]] = {}
    for m in speakers:
        headed.setdefault(" ".join(m.group("label").split()), []).append(_a_section_s_heading(text, m))
    return {label for label, marks in headed.items() if len(marks) >= 2 and all(marks)}


def _a_section_s_heading(text: str, match: re.Match[str]) -> bool:
    """ "NARRATIVE:" alone on its line under a record's fields ("LOCATION: Deming
    Elementary"), over each contact note's text: one English word that no name list
    holds, after a field of such words that is no role. A speaker's label alone on
    its line ("SWEET:⏎") follows a turn."""
    words = _CAP_WORD_RE.findall(match.group("label"))
    if len(words) != 1 or _NOTHING_AFTER_ON_THE_LINE.match(text, match.end()) is None:
        return False
    if not _a_field_s_word(words[0]):
        return False
    line_start = text.rfind("\n", 0, match.start()) + 1
    previous = text.rfind("\n", 0, max(0, line_start - 1)) + 1
    field = _FIELD_LINE.match(text, previous, line_start)
    return field is not None and all(_a_field_s_word(w) for w in _CAP_WORD_RE.findall(field.group("label")))


def _a_field_s_word(word: str) -> bool:
    """An English word no name list holds and no role ("LOCATION", "NARRATIVE")."""
    return is_common_word(word) and not is_known_name(word) and word.lower() not in _LABEL_ROLES


def _a_form_s_field(text: str, match: re.Match[str], words: list[re.Match[str]], written: int) -> bool:
    # The whole label: a role may lead it ("CHIEF COMPLAINT:").
    label = {w.strip(".") for w in _CAP_WORD_RE.findall(match.group("label"))}
    if written == 1 and len(label) >= 2 and label & _SECTION_WORDS:
        return True
    if written == 1 and _a_field_s_code(words) and _MORE_FIELDS_ON_THE_LINE.match(text, match.end()):
        return True  # "DPP: NONE        ADA: DNH (wrist)": a form's row of fields
    if written > 1 or len(words) < 2:
        return False
    field_word = any(w.group().strip(".") in _FIELD_WORDS for w in words)
    # "PROJ. RELEASE DATE: 08/14/2031": a field's word, a figure after it.
    if field_word and _FIGURE_AFTER.match(text, match.end()):
        return True
    aligned = _ALIGNED_VALUE.match(text, match.end())
    if aligned is None:
        return False
    return aligned.group("digit") is not None or field_word


# A victim, a minor or a witness a record names by initials only, to protect them:
# "contact with the victim, S.A., or", "Registered victims (S.A.; H.A.)", "the minor
# child J.R.M.".
_INITIALS = re.compile(r"[A-Z]\.[ ]?[A-Z]\.(?:[ ]?[A-Z]\.)?")
# A child's case is captioned by the child's initials ("In re K.R.T. and A.N.", "In the
# Matter of J.M."), and a parent is the parent of them ("Father of K.R.T."), a guardian
# the guardian of the person of them.
_PROTECTED_INITIALS_RE = re.compile(
    r"\b(?P<cue>(?i:victims?|complainants?|minors?|child(?:ren)?|juveniles?|witness(?:es)?|informants?|survivors?"
    # A school's discipline record names its students so ("student M.A.", "Student:   M.A.").
    r"|students?"
    # A patient a board's or a clinic's record names by initials ("patient R.W., a
    # 71-year-old woman"), a ward in a guardianship's caption ("Guardianship of G.F.S.").
    r"|patients?|clients?|residents?"
    # A protective order's "referred to as Jane Doe or by her initials, A.K.".
    # ("referred to in the report by the initials A.R.")
    r"|(?:her|his|their|by(?:[ \t]+the)?)[ \t]+initials"
    # A form's line for them ("Witness initials: D.M.A.", 'Examinee initials "J.B.P."').
    r"|(?:witness|examinee|subject|interviewee|declarant|signer)[ \t]+initials"
    r"|in[ \t]+re|in[ \t]+the[ \t]+matter[ \t]+of|(?:father|mother|parent|guardian)[ \t]+of"
    r"|(?:guardianship|conservatorship|custody|adoption)[ \t]+of|the[ \t]+person[ \t]+of"
    # A person harmed, named by initials in a sentence's record ("convicted of the
    # murder of R.M.", "the assault of K.S."); not a thing's ("abuse of P.C.P.", "an
    # injury of the A.C.L.").
    r"|(?:murder|killing|death|manslaughter|assault|rape|stabbing|shooting|kidnapping|abduction)"
    r"[ \t]+of))"
    # (The initials may open the next line: "by the initials⏎K.M.".)
    r"(?:,[ \t]+|[ \t]+\(|:?(?:[ \t]+|[ \t]*\n[ \t]*)[\"“]?)(?P<list>"
    + _INITIALS.pattern
    + r"(?:(?:[;,][ \t]*|[ \t]+(?:and|&)[ \t]+)"
    + _INITIALS.pattern
    + r")*)"
    # Not a company's initials before its name ("In re W.R. Grace & Co.", "In re E.I. du
    # Pont de Nemours & Co.").
    r"(?![\w.])(?![ \t]+(?:[A-Z][a-z]|(?:" + "|".join(sorted(NAME_PARTICLES)) + r")[ \t]+[A-Z]))"
)


# A chart's dotted abbreviations after "patient", "client" or "resident": no initials.
_CLINICAL_LETTERS = frozenset(
    """DOB NPO DNR DNI PO DOA ROM ED ER OT PT RT IV IM SQ LMP SOB AA NA BP HR RR MD RN NP PA DO UA CT GI OR ICU
    PRN QD BID TID QID HS AMA ADL""".split()
)
_CHART_PEOPLE = frozenset({"patient", "client", "resident"})
# Dotted letters that are a word's, not a person's: a country's, a capital's, the
# clock's, an identity card's, "O.K.", a veterans' agency, a city, degrees, a school's
# and a clinic's abbreviations ("the victim I.D.'d him", "student V.A. benefits",
# "student G.P.A."). A state's postal code is a person's initials as often ("student
# M.A.", "minor C.A.").
_NO_ONE_S_INITIALS = frozenset(
    """US USA UK DC EU UN AM PM ID OK VA LA NY MS BA BS MD DO PA RN LPN PE AP OT TV PC PR HR IQ QA
    GPA IEP ADA GED SAT ACT ROTC PHD MBA CPA EMT""".split()
)


# What follows a degree's letters ("student M.A. program", "law student J.D. candidate").
_A_DEGREE_S_WORD = re.compile(
    r"[ \t]+(?:programs?|degrees?|candidates?|in|thesis|level|courses?|holders?|residents?|citizens?)\b"
)


# Initials whose kin the record names ("R.M.'s mother remains registered"): a person's.
_INITIALS_BEFORE_THEIR_KIN = re.compile(
    rf"(?<![\w.])(?<!(?i:the)[ ])(?P<i>{_INITIALS.pattern})['’]s[ \t]+(?i:{FAMILY_RELATIONS})s?\b"
)


def _initials_before_their_kin(text: str) -> list[Candidate]:
    """Initials a person's kin are named after ("R.M.'s mother", "K.S.'s sons"); not an
    agency's after "the" ("the D.A.'s victim advocate")."""
    found = []
    for match in _INITIALS_BEFORE_THEIR_KIN.finditer(text):
        start, end = match.span("i")
        if match.group("i").replace(".", "").replace(" ", "") in _NO_ONE_S_INITIALS:
            continue  # "the U.S.'s children", "L.A.'s kids"
        found.append(Candidate(start, end, "PERSON", text[start:end], (SOURCE,), 0.8, "cue:protected_initials"))
    return found


def _initials_of_the_protected(text: str) -> list[Candidate]:
    """Initials a record gives a victim, a minor, a witness, a patient or a ward in the
    name's place."""
    found = []
    for match in _PROTECTED_INITIALS_RE.finditer(text):
        for initials in _INITIALS.finditer(text, match.start("list"), match.end("list")):
            start, end = initials.span()
            letters = initials.group().replace(".", "").replace(" ", "")
            if letters in _NO_ONE_S_INITIALS or text.startswith(("'d", "’d"), end) or _A_DEGREE_S_WORD.match(text, end):
                continue  # "the victims U.S. citizens", "the children A.M. and P.M. sessions", "O.K.'d"
            if letters in _CLINICAL_LETTERS and match.group("cue").lower().rstrip("s") in _CHART_PEOPLE:
                continue  # "patient N.P.O. after midnight", "Patient P.T. evaluation": a chart's
            found.append(Candidate(start, end, "PERSON", text[start:end], (SOURCE,), 0.8, "cue:protected_initials"))
    return found


# A body's last word: "JEFFERSON COUNTY GRAND JURY, PANEL C" heads a caption, no one
# is named there.
# ("PARISH", "COUNCIL", "DIVISION" are surnames: "XOCHITL PARISH, Court Interpreter".
# "COURT", "BOARD", "PANEL" are role words, already out of the name.)
_A_BODY_S_LAST_WORD = frozenset("jury county committee commission department".split())


def recognize(text: str) -> list[Candidate]:
    found: list[Candidate] = []
    for regex, rule, score in (
        (_TITLE_RE, "title", 0.85),
        (_TITLE_WRAP_RE, "title", 0.85),
        (_HONORIFIC_RE, "honorific", 0.8),
        (_MY_NAME_RE, "my_name_is", 0.9),
        (_RELATION_RE, "relation", 0.8),
        (_CALLED_RE, "called", 0.8),
        (_BRACKETED_NICKNAME_RE, "nickname", 0.8),
        (_NAMED_WITH_AN_AGE_RE, "nickname_age", 0.8),
        (_NICKNAMED_WITH_AN_AGE_RE, "nickname_age", 0.8),
        (_CORRECTIONAL_OFFICER_RE, "title", 0.85),
        (_NAME_THEN_ADDRESS_RE, "address_after", 0.8),
        (_KIN_TITLE_RE, "relation", 0.8),
        (_POSSESSOR_RE, "relation", 0.8),
        (_ET_AL_RE, "et_al", 0.85),
        (_WHOSE_AGE_RE, "whose_age", 0.8),
        (_VOCATIVE_RE, "vocative", 0.8),
        (_FAMILY_RE, "family", 0.8),
        (_SENDER_RE, "sender", 0.8),
    ):
        for match in regex.finditer(text):
            start, end = match.span("v")
            if regex is _TITLE_WRAP_RE and not places.soft_wrap(text, match.start(), start):
                continue
            words = _name_words(text[start:end])
            if rule == "honorific":
                # After a rank, a leading common word: "General Director Ljubomir
                # Acimovic" names Ljubomir Acimovic. Two words at most are the name.
                words = _without_leading(words, _only_common_words, keep=1)[:2]
            # In a text without case "MY NAME IS MARCUS DELGADO AND" reads on: no
            # name ends in a stop word.
            while len(words) > 1 and not carries_case(text) and words[-1].group().lower() in stop_words():
                words.pop()
            while rule == "sender" and len(words) > 1 and _a_contact_s_tag(words[-1].group()):
                words.pop()  # "Mondo Cuz", "Jalisa Work": how the phone tells contacts apart
            if not words:
                continue
            start, end = start + words[0].start(), start + words[-1].end()
            if _names_no_one(text, rule, match, text[start:end]):
                continue
            if rule == "relation" and "\n" in text[match.start() : start] and not is_given_name(words[0].group()):
                continue  # "my son⏎23   Then he left": past a page's wrap, only a given name is one
            if regex is _POSSESSOR_RE and _no_one_s_possessive(text[start:end]):
                continue
            if rule == "title" and _a_surname_barr(text, match):
                continue  # "I called Barr. Maria answered": a surname, then the next sentence
            if rule == "title" and _a_role_s_first_word(text, end, text[start:end]):
                continue  # "Mr. Vice Chair", "Madam Deputy Speaker": the title's addressee is an office
            if rule == "title" and an_office_addressed(text, text[start:end]):
                continue  # "Good morning, Mr. Member." where "MEMBER:" speaks: the office, addressed
            found.append(Candidate(start, end, "PERSON", text[start:end], (SOURCE,), score, f"cue:{rule}"))
    found += _quoted_nicknames(text, found) + _numbered_witnesses(text)
    found += _initials_of_the_protected(text) + _initials_before_their_kin(text)
    for start, end in caseless_spans(text):
        found += _caseless_people(text, start, end)
    stop = stop_words()
    for match in _PARTICIPANT_RE.finditer(text):
        # Common words only are no participant: a transcript in capitals has lines
        # shaped like "AS YOU KNOW, YOUR TERM AS JURORS". The role must be a role's
        # word, not the article a speaker label may hold ("IN THE STREET, ASKED THEM
        # TO EXIT THE").
        # The name must hold a word that is no role's and no common word's
        # ("Correctional Officer, Unidentified", "Reporting Services, certify").
        role = [w.lower().strip(".") for w in match.group("role").split()]
        named = [w for w in match.group("v").split() if w.lower().strip(".") not in ROLE_WORDS]
        # A period is a degree's ("M.D.", "ESQ."), not a sentence's end ("Evander
        # Banning, the general counsel." is an answer, not a list of appearances).
        # Not a state's postal code without its periods ("Camp Hill, PA", "Chevy Chase, MD").
        raw_role = match.group("role")
        degree = len(role) == 1 and role[0].replace(".", "") in DEGREES
        degree = degree and (
            raw_role.replace(".", "").upper() not in _POSTAL_DEGREES or re.search(r"\w\.\w", raw_role) is not None
        )
        if "." in raw_role and not degree:
            continue
        if (
            (degree or any(w in ROLE_WORDS and w not in stop for w in role))
            # "Treatment Mall, Hearing Room B": a room of a building, no one's role
            # ("Courtroom Deputy", "Floor Supervisor" are roles).
            and not (role[-1] in _ROOMS or (len(role) > 1 and role[-2] in _ROOMS and len(role[-1]) <= 3))
            and named
            and named[-1].lower() not in _A_BODY_S_LAST_WORD
            and not _only_common_words(" ".join(named))
            and not _capitals_say_nothing(text, match.group("v"))
        ):
            start, end = match.span("v")
            found.append(Candidate(start, end, "PERSON", text[start:end], (SOURCE,), 0.9, "cue:participant_line"))
    found += _role_fields(text) + _son_of(text) + _initials_after_a_name(text) + _named_by_their_ages(text)
    found += _names_then_their_initials(text)
    found += _speaker_labels(text) + _numbered_questions(text) + _pronoun_tagged_names(text)
    found += _record_names(text)
    found += _institutions(text) + _institutions_in_capital_headings(text)
    found += _union_locals(text)
    return found + _firms(text) + _trade_names(text) + _case_parties(text) + _political_parties(text)


# A video call's display name with the pronouns its owner set ("kestrel o (she/they):",
# "Graciela Ferreira-Dunn (she/her):", a chat's 'from "kestrel o (she/they)"'): a
# person's name however it is cased, a surname's initial and all. It opens its line
# (after a cue's clock, "[00:03:12] ") or a quotation.
PRONOUN_TAGGED = "cue:pronoun_tagged"
_PRONOUN_TAG = r"(?i:she|he|they|ze|xe|her|him|them|hers|his|theirs|zir|any)"
_PRONOUN_TAGGED_RE = re.compile(
    r"(?:^[ \t]*(?:\[?\d{1,2}:\d{2}(?::\d{2})?(?:[.,]\d{1,3})?\]?[ \t]+)?|(?<=[\"“]))"
    r"(?P<v>[^\W\d_][\w'’.-]*(?:[ ][^\W\d_][\w'’.-]*){0,3})"
    # A label's colon or the chat's closing quotation after the pronouns: "He said
    # (he/him) was" names no one.
    rf"[ ]\({_PRONOUN_TAG}/{_PRONOUN_TAG}(?:/{_PRONOUN_TAG})?\)(?=[ \t]*:|[\"”])",
    re.MULTILINE,
)
_LEADING_WORD = re.compile(r"(\S+)[ ]+")
# What a meeting's display name says that names no one: its roles, the app's words.
_NO_ONE_S_DISPLAY_NAME = frozenset(
    """host co-host cohost panelist panelists teacher translator admin administrator anonymous everyone user
    guest speaker participant moderator facilitator caller name names pronoun pronouns thank thanks survivor
    friend neighbor neighbour iphone ipad android phone room conference zoom teams audio public comment defender
    son sons parent parents foster social worker""".split()
)


def _pronoun_tagged_names(text: str) -> list[Candidate]:
    """Display names tagged with pronouns (`_PRONOUN_TAGGED_RE`), less a role's, a
    kin word's, an app's or a function word ("Interviewer (she/her):", "Mom
    (she/her):", "Zoom User (they/them):" name no one). One word alone must be no
    common word or a name the lists know."""
    found = []
    for match in _PRONOUN_TAGGED_RE.finditer(text):
        start, end = match.span("v")
        # A title before the name stays outside it ("dr. amara okafor (she/her):").
        while (lead := _LEADING_WORD.match(text, start, end)) and lead.group(1).lower().strip(".") in TITLE_WORDS:
            start = lead.end()
        words = [w.lower().strip(".") for w in text[start:end].split()]
        if any(
            w in ROLE_WORDS or w in SPEAKER_ROLES or w in _NO_ONE_S_DISPLAY_NAME or is_kin_word(w) or is_stop_word(w)
            for w in words
        ):
            continue
        if len(words) == 1 and is_common_word(words[0]) and not is_known_name(words[0].title()):
            continue
        found.append(Candidate(start, end, "PERSON", text[start:end], (SOURCE,), 0.9, PRONOUN_TAGGED))
    return found


# A trade union's local by its number, its union's letters before it or not ("ILGWU
# Local 62", "the Local 23-25 hiring hall", "ATU Local 1764"): a body that names its
# members' trade and town. "Local" written with its capital, a number after it.
# The union before it by its letters or its trade's plural ("Teamsters Local 4412",
# "Carpenters⏎Local 2291").
# (The blanks taken possessively: two runs side by side, tried every way, made "IMEI"
# before 50,000 blanks cost thirteen seconds.)
_UNION_LOCAL_RE = re.compile(
    r"(?<![\w-])(?P<v>(?:(?:[A-Z]{2,6}|[A-Z][a-z]+(?:ers|ists|men))[ \t]*+(?:\n[ \t]*+)?)?"
    r"Local[ \t]+\d{1,4}(?:-\d{1,3})?)(?![\w-])"
)


# A bare "Local" before a broadcaster's, a bus's or an emergency number names no union.
_NO_UNION_AFTER = re.compile(r"[ \t]+(?i:news|number|bus|route|dispatch|time|channel|station|weather|call)\b")


def _union_locals(text: str) -> list[Candidate]:
    """A union's local (`_UNION_LOCAL_RE`); alone, "Local" needs a number of two figures
    or more that is no emergency's ("Local 911") nor a station's ("Local 4 news")."""
    found = []
    for match in _UNION_LOCAL_RE.finditer(text):
        start, end = match.span("v")
        number = match.group("v").split()[-1]
        bare = match.group("v").startswith("Local")
        if bare and (len(number.split("-")[0]) < 2 or number == "911" or _NO_UNION_AFTER.match(text, end)):
            continue
        found.append(Candidate(start, end, "ORGANIZATION", text[start:end], (SOURCE,), 0.85, "cue:union_local"))
    return found


# A heading in capitals on a cover page or a letterhead ("RICHARD J. DONOVAN
# CORRECTIONAL FACILITY", "CALIFORNIA STATE PRISON, SOLANO"): a line of two to eight
# words, none in lower case, no speaker's label, in a text that is otherwise cased.
_CAPITAL_HEADING = re.compile(r"^[ \t]*(?P<h>[A-Z][A-Z0-9.,&'’ -]*[A-Z.])[ \t]*$", re.MULTILINE)
_HEADING_WORDS = (2, 8)
_SMALL_HEADING_WORDS = frozenset({"of", "the", "and", "for", "at", "in", "on"})


def _headline_case(heading: str) -> str:
    """The heading as a title writes it, of the same length ("RICHARD J. DONOVAN
    CORRECTIONAL FACILITY" → "Richard J. Donovan Correctional Facility"): the
    institution rule reads names by their capitals."""

    def word(match: re.Match[str]) -> str:
        w = match.group()
        if w.lower() in _SMALL_HEADING_WORDS and match.start() > 0:
            return w.lower()
        return w if len(w) == 1 else w[0] + w[1:].lower()

    return re.sub(r"[A-Za-z]+", word, heading)


def _institutions_in_capital_headings(text: str) -> list[Candidate]:
    """An institution a heading in capitals names, read as a title would write it
    (`_institutions`), in a text that carries case: a text in capitals throughout has
    its sentences in capitals too."""
    if not carries_case(text):
        return []
    found: list[Candidate] = []
    for match in _CAPITAL_HEADING.finditer(text):
        heading = match.group("h")
        if not _HEADING_WORDS[0] <= len(heading.split()) <= _HEADING_WORDS[1]:
            continue
        if heading.endswith(".") and len(heading.split()[-1]) > 4:
            continue  # "ATTORNEY'S OFFICE.": a sentence in capitals ends there, wrapped
        offset = match.start("h")
        for c in _institutions(_headline_case(heading)):
            words = [re.sub(r"['’]s$", "", w) for w in c.text.split()]
            names = [w for w in words if not _HEAD_RE.match(w) and w.lower() not in _SMALL_HEADING_WORDS]
            if all(is_common_word(w) for w in names):
                continue  # "PROBATE DEPARTMENT", "TRIBAL COURT": a court's division, a heading's words
            if len(words) == 2 and is_given_name(words[0]) and is_known_name(words[1]):
                continue  # "DIRECT EXAMINATION OF ELLEN CHURCH": a witness, "Church" her surname
            start, end = offset + c.start, offset + c.end
            found.append(replace(c, start=start, end=end, text=text[start:end]))
    return found


# A record's or a table's name in capitals, surname first, alone in its field: the
# column, the pipe, a badge's "#" or an inmate's number ends it ("CORCORAN, KIERAN
# |", "RASKU, TOVA          EMT-B", "ENEMY: STAGG, BARNABY BB1174").
_RECORD_NAME_RE = re.compile(
    r"(?<![\w'’-])(?P<v>(?P<surname>[A-Z][A-Z'’-]+(?:[ ][A-Z][A-Z'’-]+)?),[ ](?P<given>[A-Z][A-Z'’-]+)"
    r"(?:[ ][A-Z][A-Z'’-]+)?(?:[ ][A-Z]\.?)?)"
    rf"(?={places.FIELD_END}|[ \t]*\||[ ][A-Z]{{1,2}}\d{{4,6}}\b)"
)


# A select committee's record numbers each question and names who asks it in mixed case
# ("Q194 Rhys ap Gwilym: Diolch.", "Q12 Chair: Welcome."): the asker, a name's
# particles inside it, unless the label is a role.
_NUMBERED_QUESTION_RE = re.compile(
    rf"(?m)^[ \t]*Q\d{{1,4}}[ \t]+(?P<v>{_NAME}(?:[ ](?:(?:{'|'.join(sorted(NAME_PARTICLES))})[ ])?{_NAME}){{0,3}}):"
)


def _numbered_questions(text: str) -> list[Candidate]:
    """The askers `_NUMBERED_QUESTION_RE` names: two name words at least, not all roles
    or common words."""
    found: list[Candidate] = []
    for match in _NUMBERED_QUESTION_RE.finditer(text):
        name = match.group("v")
        words = [w for w in name.split() if w.lower() not in NAME_PARTICLES and w.lower() not in HONORIFICS]
        if len(words) < 2 or all(w.lower() in ROLE_WORDS or is_common_word(w) for w in words):
            continue  # "Q12 Chair:", "Q7 Kilkenny: 52 percent.": a role, a place or a brand, one word
        start, end = match.span("v")
        found.append(Candidate(start, end, "PERSON", name, (SOURCE,), 0.85, "cue:speaker_label"))
    return found


# A list's or a table's row that opens with a name, its surname in capitals and the
# given name as written ("  CZARNECKI, Zbigniew        3501    3C", "1.  STILL, Verla M.
# MRN 0041822", a sign-in sheet, a roster of patients): the row's column ends it; a
# nickname in brackets may stand between ('BARAJAS, Refugio ("Cuco")').
_UPPER_WORD = _CAPITAL + r"(?:" + _CAPITAL + r"|['’-])+"
# A given name's letters after its capital, any alphabet's lower case ("Małgorzata").
_LOWER_LETTERS = r"(?:(?![A-ZÀ-ÖØ-Þ])[^\W\d_]|['’-])+"
_ROW_NICKNAME = r"[ ]\(?[\"“][^\"”\n]{1,20}[\"”]\)?"
_ROW_NAME_RE = re.compile(
    # A row's number ("12.", " 1 "), or its code and a column's gap ("R2   ", "S4   ": a
    # survey's resident, a staff list's member).
    r"(?m)^[ \t]*(?:\d{1,3}[.)]?[ \t]+|[A-Z]{1,3}\d{1,4}[ \t]{2,})?"
    rf"(?P<v>(?P<surname>{_UPPER_WORD}(?:[ ]{_UPPER_WORD})?),[ ](?P<given>{_CAPITAL}{_LOWER_LETTERS})"
    rf"(?:[ ]{_CAPITAL}{_LOWER_LETTERS})?(?:[ ][A-Z]\.?)?)"
    # A nickname after the given names, in quotes, bracketed or not ('"Doc"'); the
    # column after it may start one space on when the nickname overran it ('"Doc" 118-A').
    rf"(?:{_ROW_NICKNAME}(?=[ ][\w-]*\d)|(?:{_ROW_NICKNAME})?(?={places.FIELD_END}))"
)


def _record_names(text: str) -> list[Candidate]:
    """Names in a record's fields (`_RECORD_NAME_RE`): the given name one the narrow
    lists hold, the surname no common word, no state and no place where the given
    name is one ("DALLAS, AUSTIN"). Rows that open with a name: `_row_names`."""
    found = []
    given_names = first_names()
    for match in _RECORD_NAME_RE.finditer(text):
        surname, given = match.group("surname"), match.group("given")
        if given.title() not in given_names or given.casefold() in us_states():
            continue
        if any(is_common_word(w) for w in surname.split()) or surname.casefold() in us_states():
            continue
        if places.is_known_place(surname) and places.is_known_place(given):
            continue
        start, end = match.span("v")
        found.append(Candidate(start, end, "PERSON", text[start:end], (SOURCE,), 0.8, "cue:record_name"))
    return found + _row_names(text)


def _in_a_roster(text: str, at: int, named: list[int]) -> bool:
    """Two rows whose surnames are no words stand within three lines of `at`: the
    rows are one list's."""
    near = [n for n in named if abs(n - at) < _ROSTER_REACH]
    return sum(text.count("\n", min(n, at), max(n, at)) <= 3 for n in near) >= 2


_ROSTER_REACH = 600


def _row_names(text: str) -> list[Candidate]:
    """A list's rows that open with "SURNAME, Given" (`_ROW_NAME_RE`): two names, as
    the guideline keeps a comma's parts apart ("CHEVRIER", "Rémi A."). The given name
    may be one only the wide lists hold ("Verla") or none ("HULEWICZ, Genowefa": no
    word and no place beside a surname no word either). A surname that is a word
    ("STILL, Verla M.") counts only in a roster, two rows within three lines having
    surnames no word is, and before one given name: "TO, Mark Jones", "ATTENTION,
    Dorothy" are a memo's labels."""
    given_names = first_names()
    rows: list[tuple[re.Match[str], bool, bool]] = []
    for match in _ROW_NAME_RE.finditer(text):
        surname, given = match.group("surname"), match.group("given")
        uncommon = not any(is_common_word(w) for w in [*surname.split(), given])
        known = given.title() in given_names or is_given_name(given) or (uncommon and not places.is_known_place(given))
        if given.casefold() in us_states() or surname.casefold() in us_states():
            continue
        if places.is_known_place(surname) and places.is_known_place(given):
            continue
        if given.lower().removesuffix("'s").removesuffix("’s") in ROLE_WORDS:
            continue  # "AMBER KOWALCZYK-REYES, Transcriber": a role
        # A given name no list holds that is a word ("CASTLEBERRY, June M."): a name
        # only in a roster, as a surname that is a word.
        if not known and places.is_known_place(given):
            continue
        weak = not known
        rows.append((match, any(is_common_word(w) for w in surname.split()), weak))
    named = [m.start() for m, worded, weak in rows if not (worded or weak)]
    found: list[Candidate] = []
    for match, worded, weak in rows:
        given = text[match.start("given") : match.end("v")].split()
        one_given = len(given) == 1 or (len(given) == 2 and re.fullmatch(r"[A-Z]\.?", given[1]) is not None)
        if worded and not (one_given and _in_a_roster(text, match.start(), named)):
            continue
        if weak and (worded or not _in_a_roster(text, match.start(), named)):
            continue
        for start, end in ((match.start("surname"), match.end("surname")), (match.start("given"), match.end("v"))):
            found.append(Candidate(start, end, "PERSON", text[start:end], (SOURCE,), 0.8, "cue:record_name"))
    return found


# A firm named after its partners, with its legal form: "STRAUB, FEENEY & KLINE LLP",
# "Gentry & Balogun Trial Lawyers, P.C.", "LAW OFFICE OF NIKHIL BHATT, LLC". The
# legal form is the second signal: its partners' surnames are no persons there (a
# deposition's appearances list them under the lawyers' names).
# "Esquire" follows a lawyer's name, never a partner's ("Mairead Voll, Esquire, Voll &
# Vandersloot").
_FIRM_WORD = r"(?!(?i:esq(?:uire)?)\b)[A-Z][A-Za-z'’-]*"
# A list of partners whose last is joined by "&", the "&" at a line's end or not:
# a deposition's numbered lines break "Straub, Feeney &⏎12  Kline".
_LINE_GAP = _NAME_MAY_WRAP
_PARTNERS_TAIL = rf"(?:,{_LINE_GAP}{_FIRM_WORD}){{0,5}},?[ \t]+&{_LINE_GAP}{_FIRM_WORD}"
_FIRM_FORM = r"(?:L\.L\.P\.|LLP|L\.L\.C\.|LLC|PLLC|P\.C\.|P\.A\.|A\.P\.C\.|APC)(?![\w-])"
# Wisconsin's service corporation and Washington's professional service corporation
# ("Hartigan & Pope, S.C.", "Dunmore Haskins & Pell, P.S."): a firm's form only after
# partners or a law firm's word (`_firms`), since "Greenville, S.C." is a state.
_SERVICE_FORM = r"(?:S\.C\.|P\.S\.)(?![\w-])"
_LAW_WORDS = frozenset({"law", "lawyers", "legal", "attorneys", "advocates", "counsel"})
_FIRM_RE = re.compile(
    r"(?<![\w'’.&-])(?P<v>(?:(?i:(?:the[ \t]+)?law[ \t]+offices?[ \t]+of)[ \t]+)?"
    # Partners: a list whose last is joined by "&" ("Maria and Castillo Roofing LLC"
    # names two), or one name. At most five before it: a line of names
    # comma after comma is tried from each of its words. A first partner of two
    # names ("Dunmore Haskins & Pell"): a given name there is a lawyer's (`_firms`).
    rf"{_FIRM_WORD}(?:[ \t]+{_FIRM_WORD}[ \t]+&{_LINE_GAP}{_FIRM_WORD}|{_PARTNERS_TAIL})?"
    # Then the firm's own words ("Trial Lawyers", "Law Group").
    rf"(?:[ \t]+{_FIRM_WORD}){{0,4}},?[ \t]+(?:{_FIRM_FORM}|(?P<service>{_SERVICE_FORM})))"
)
# Partners joined by "&" without a legal form ("Fitzgerald & Amezcua, for
# Applicant"): "&" between surnames is one signal, a firm's context the other
# (`_a_firm_s_context`); "Tom & Jerry" and "Mom & Dad" are no firm, so `_firms`
# wants every partner a word that is neither a given name nor a common word.
_PARTNERS_RE = re.compile(rf"(?<![\w'’.&-])(?P<v>{_FIRM_WORD}{_PARTNERS_TAIL})(?![\w'’&-])")


# A given name right before a word, over a line's end too ("Brennan⏎Whitcomb, Whitcomb &
# Sato, P.C."): the word is her surname, the firm's partner after it.
_A_GIVEN_NAME_BEFORE = re.compile(r"(?<![\w'’-])(?P<g>[A-ZÀ-Þ][^\W\d_A-ZÀ-Þ]+)[ \t]*\n?[ \t]*$")


def _the_lawyer_before_her_firm(text: str, start: int, first: str, second: str) -> bool:
    """A firm's first partner, a comma, then the same word: the lawyer's surname before
    her firm named after her, where her name is in capitals and the firm's as written
    ("INES QUARTERMAN, Quarterman & Sayre") or her given name stands before it
    ("Jocasta Fairley, Fairley & Dunagin"); "Jones, Jones & Day LLP" is a firm's."""
    if not (first.endswith(",") and first[:-1].lower() == second.lower()):
        return False
    if first.isupper() and not second.isupper():
        return True
    given = _A_GIVEN_NAME_BEFORE.search(text, max(0, start - 30), start)
    return given is not None and (is_given_name(given.group("g")) or not is_common_word(given.group("g")))


def _firms(text: str) -> list[Candidate]:
    """Firms named with their legal form, less the role and function words a line
    holds before them ("FOR THE DEFENDANT …")."""
    found = []
    stop = stop_words()
    formed = list(_FIRM_RE.finditer(text))
    formless = [
        m
        for m in _PARTNERS_RE.finditer(text)
        # "Messrs." names a firm of solicitors whatever its partners are called, where
        # no sentence goes on about them ("Messrs. Patel & Shah, the appellants,",
        # "Messrs. Ahmed & Khan were convicted": people).
        if (
            (_partners_only(m.group("v")) and _a_firm_s_context(text, m.start(), m.end()))
            or _messrs_firm(text, m.start(), m.end())
        )
        and not any(f.start() < m.end() and m.start() < f.end() for f in formed)
    ]
    for match in sorted([*formed, *formless], key=lambda m: m.start()):
        start, end = match.span("v")
        words = list(re.finditer(r"\S+", text[start:end]))
        service = match.start("service") if match.re is _FIRM_RE and match.group("service") else None
        if service is not None and not _a_service_firm(text[start:service]):
            continue  # "Greenville, S.C.", "Charleston & Summerville, S.C.": a state's
        if (
            len(words) > 2
            and words[1].group() != "&"
            and words[2].group() == "&"
            and _no_partner(text, start, words[0])
        ):
            words.pop(0)  # "Jane Smith & Jones, LLP", "Yesterday Smith & Jones, LLP": no partner's name
        if len(words) > 2 and _the_lawyer_before_her_firm(text, start, words[0].group(), words[1].group()):
            words.pop(0)  # "INES QUARTERMAN, Quarterman & Sayre, P.C.": the lawyer, then her firm
        while (
            len(words) > 2
            and (
                (folded := words[0].group().lower().strip(",")) in stop or folded in ROLE_WORDS or folded in TITLE_WORDS
            )
            # A capitalised ordinal opens a firm's name ("First Coast Verbatim, LLC"), not
            # a list of partners ("First Smith & Jones, LLP filed it": the sentence's).
            and not (
                folded in STREET_ORDINALS
                and words[0].group()[:1].isupper()
                and not words[0].group().endswith(",")
                and not any(w.group() == "&" for w in words)
            )
        ):
            if folded in ("law", "the") and words[1].group().lower() in ("office", "offices", "law"):
                break  # "The Law Office of …" is the firm's name
            words.pop(0)
        # A lawyer's name before the firm ("Felix Obuya, Obuya & Reinholt PLLC"): the
        # list's first name is the lawyer's surname.
        before = _GIVEN_BEFORE.search(text, max(0, start - 40), start + words[0].start())
        if before is not None and is_given_name(before.group(1)) and words[0].group().endswith(","):
            words.pop(0)
        begin = start + words[0].start()
        end = _abbreviation_s_period(text, end)
        found.append(Candidate(begin, end, "ORGANIZATION", text[begin:end], (SOURCE,), 0.9, "cue:firm"))
    return found


def _a_service_firm(named: str) -> bool:
    """Whether the words before "S.C." or "P.S." name a firm: a law firm's word ("Sokol
    Ridley Injury Law, S.C."), or partners joined by "&" with no given name among them
    ("Tom & Jerry, P.S.": a postscript) and no town after the "&" ("Charleston &
    Summerville, S.C.": a state's letters)."""
    if _LAW_WORDS & {w.strip(",").lower() for w in named.split()}:
        return True
    return (
        "&" in named
        and not any(n.title() in first_names() for n in re.findall(r"[A-Za-z'’-]+", named))
        and not places.is_known_place(named.rsplit("&", 1)[-1].strip(" \t,").split()[0])
    )


def _no_partner(text: str, start: int, word: re.Match[str]) -> bool:
    """Whether the first of two words before a firm's "&" is no partner's name: a given
    name (a lawyer's), a common word (the sentence's: "Representing", "Yesterday") or
    a surname after a given name ("Maria Lopez Baker & Botts": the lawyer's)."""
    name = word.group()
    if is_given_name(name) or (is_common_word(name) and not is_known_name(name)):
        return True
    before = _GIVEN_BEFORE.search(text, max(0, start + word.start() - 40), start + word.start())
    return before is not None and is_given_name(before.group(1))


# What makes "Surname & Surname" a firm without its legal form, and not two people
# ("Officers Lusk & Brandt", "my clients Haddad & Kowalczyk"): a lawyer's name and
# a comma before it ("Conor Fitzgerald, Fitzgerald & Amezcua"), a party it appears
# for or a firm's word after it ("…, for Applicant", "… Family Law"), or being at
# it ("an associate at Carrow & Hale", "the therapy at Whitfield & Sandoval", "bike
# shops, like Spokes & Sprockets").
_LAWYER_BEFORE = re.compile(
    r"(?<![\w'’-])[A-Z][a-z]+(?:[ \t]+[A-Z]\.)?[ \t]+(?P<surname>[A-Z][\w'’-]+)(?:,[ \t]*(?i:esq\.?|esquire))?,[ \t]*$"
)
# A solicitor's firm in a Commonwealth record: "instructed by Chellaram & Lai".
_WORK_AT_BEFORE = re.compile(
    r"(?i)(?:\b(?:associate|partner|attorney|lawyer|paralegal|counsel|clerked)[ \t]+with|(?<![\w'’-])at|\blike"
    r"|\boffices?[ \t]+of|\binstructed[ \t]+by)[ \t]+$"
)
_MESSRS_BEFORE = re.compile(r"(?i)\bmessrs\.?[ \t]+$")
# Where a firm's name ends in an appearance: the line's end, a party it acts for, its
# solicitors' word ("instructed by Messrs. Chellaram & Lai,⏎ for D2").
_FIRM_ENDS = re.compile(r"(?i)\.?[ \t]*,?[ \t]*(?:\n|$|for\b|of\b|solicitors?\b|advocates?\b|instructed\b|;)")


def _messrs_firm(text: str, start: int, end: int) -> bool:
    """ "Messrs." and partners whose line goes on as an appearance does; not people a
    sentence goes on about ("Messrs. Ahmed & Khan were convicted", "Messrs. Patel &
    Shah (the directors)")."""
    before = _MESSRS_BEFORE.search(text, max(0, start - 12), start) is not None
    words = re.findall(r"[A-Za-z'’-]+", text[start:end])
    given = any(is_person_given_name(w) for w in words)
    company = bool(words) and words[-1].lower() in _FAMILY_FIRM  # "Messrs. Tong, Sit & Co., assigned by"
    return before and not given and (company or _FIRM_ENDS.match(text, end) is not None)


# An appearance's firm on its own line under its lawyer ("CONWAY M. BALLEW, ESQUIRE⏎
# Ballew, Lybrand & Sprouse⏎Post Office Box 5147"), its town after a comma or not.
_ESQUIRE_LINE_BEFORE = re.compile(r"(?i),?[ \t]+esq(?:uire|\.)?[ \t]*\n[ \t]*(?:\d{1,2}[ \t]+)?$")
_ALONE_ON_ITS_LINE_AFTER = re.compile(r"(?:,[ \t]*[A-Z][\w'’-]*(?:[ \t]+[A-Z][\w'’-]*)?)?[ \t]*(?:\n|$)")
_PARTY_AFTER = re.compile(
    r"(?:,?[ \t]+(?:for|on[ \t]+behalf[ \t]+of)[ \t]+(?:the[ \t]+)?(?i:applicant|plaintiff|defendant|respondent"
    r"|petitioner|claimant|appellant|appellee|employer|debtor|creditor|witness|state|people|county|city)s?\b"
    r"|(?:[ \t]+[A-Z][a-z]+){0,2}[ \t]+(?:Law|Attorneys|Lawyers|Legal)\b)"
)


def _a_firm_s_context(text: str, start: int, end: int) -> bool:
    # The lawyer's name may open the match: "Teresa Straub, Straub, Feeney & Kline"
    # (`_firms` then leaves the lawyer's surname out).
    given = _GIVEN_BEFORE.search(text, max(0, start - 40), start)
    items = re.findall(r"[A-Z][\w'’-]*", text[start:end])
    lawyer_first = given is not None and is_given_name(given.group(1)) and len(items) > 2 and items[0] == items[1]
    # The lawyer's surname is the first partner's ("Conor Fitzgerald, Fitzgerald &
    # Amezcua"); "Mike Tran, Nguyen & Pham" lists three people.
    lawyer = _LAWYER_BEFORE.search(text, max(0, start - 60), start)
    return bool(
        lawyer_first
        or (lawyer is not None and text.startswith(lawyer.group("surname"), start))
        or _WORK_AT_BEFORE.search(text, max(0, start - 40), start)
        or _PARTY_AFTER.match(text, end)
        or (
            _ESQUIRE_LINE_BEFORE.search(text, max(0, start - 80), start) is not None
            and _ALONE_ON_ITS_LINE_AFTER.match(text, end) is not None
        )
    )


def _partners_only(partners: str) -> bool:
    """Every name of "Feeney & Kline" a surname: no common given name ("Sam & Dave";
    the narrow list, where "Fitzgerald" is none), no common word that is no surname
    ("Mom & Dad", "Research & Development"; "Cawley & Finch" is a firm)."""
    given = first_names()
    names = [n.removesuffix("'s").removesuffix("’s") for n in re.findall(r"[A-Za-z'’-]+", partners)]
    # A partner may be a surname that is a word too ("Hartley & Moss", "Cawley & Finch"),
    # not every one ("Rock & Roll", "Black & White", "Young & Rich").
    return any(not is_common_word(n) for n in names) and all(
        n.title() not in given and (not is_common_word(n) or is_known_name(n)) for n in names
    )


# A shop or a practice named with "&" ("Brooks Tire & Auto", "Dorsey's Tire & Lube",
# "Tallmadge Savings & Loan", "DIMMITT & SONS COLLISION", "Hartley & Moss Physical
# Therapy"): capitalised words on both sides of the "&", the "&" at a line's end or
# not. What makes it a name and not two people or a title ("Tom & Jerry", "Pride &
# Prejudice", "Mom & Dad"), `_trade_name`: the trade's words around the "&" after a
# name of its own, "& Sons", or partners and the practice's words after them.
_TRADE_CAP = r"(?:[A-Z][a-z][\w'’-]*|[A-Z]{2,}(?![a-z]))"
_MIDDLE_INITIAL = r"(?<=[a-z][ ])[A-Z]\.(?=[ ][A-Z][a-z])"
_TRADE_NAME_RE = re.compile(
    # A founder's middle initial may stand in the lead ("Edward D. Jones & Co.").
    # One or two spaces between words: more are a table's columns ("…Services     MRN:").
    rf"(?<![\w'’.&-])(?P<v>(?P<lead>(?:(?:{_TRADE_CAP}(?:['’]s)?|{_MIDDLE_INITIAL})[ ]{{1,2}}){{0,3}})"
    rf"(?P<a>{_TRADE_CAP})[ ]{{1,2}}&{_LINE_GAP}"
    rf"(?P<b>{_TRADE_CAP})(?P<tail>(?:[ ]{{1,2}}{_TRADE_CAP}){{0,3}}))(?![\w'’&-])"
)
# What after "&" names a firm whatever its partner is called ("May & Sons", "Tong, Sit &
# Co.").
_FAMILY_FIRM = frozenset({"sons", "daughters", "brothers", "bros", "co", "company"})
# The firm's legal form after its name ("TRA MY NAILS & SPA, LLC", "Kovacs & Lindgren, Inc.").
_FORM_AFTER = re.compile(rf",?[ \t]+(?:{_FIRM_FORM}|L\.P\.A\.|LPA\b|(?:Inc|INC|Ltd|LTD|Corp|CORP)(?:\.|(?![\w'’-])))")
_ABBREVIATED_LAST = frozenset({"co", "bros", "corp", "inc", "ltd"})
_FIRM_PREPOSITION_BEFORE = re.compile(r"(?i)\b(?:of|at|with|by|for|from)[ \t]+$")
_RELATION_WORDS = frozenset(w for w in RELATIONS.split("|") if w.isalpha())
_ROLE_OR_TITLE = ROLE_WORDS | TITLE_WORDS


def _abbreviation_s_period(text: str, end: int) -> int:
    """`end`, past the period of an abbreviation that ends the name there ("Tong, Sit &
    Co.", "RUEHLE & SZCZEPANIK CO., L.P.A."): a sentence's full stop otherwise stays out."""
    last = _LAST_WORD.search(text, max(0, end - 12), end)
    if last is not None and last.group().lower() in _ABBREVIATED_LAST and text[end : end + 1] == ".":
        return end + 1
    return end


_LAST_WORD = re.compile(r"(?<![\w'’-])[A-Za-z]+$")


def _trade_word(word: str) -> bool:
    return is_common_word(word) and not is_given_name(word) and word.casefold() not in KIN_NAMES


def _bare(word: str) -> str:
    return word.removesuffix("'s").removesuffix("’s")


def _trade_name(text: str, match: re.Match[str]) -> tuple[int, int] | None:
    """The shop's name in `match` (its start and end), or None."""
    lead = list(re.finditer(r"\S+", match.group("lead")))
    # A line's role and function words before the name ("FROM LOCKHART MOVING", "At
    # Hartley & Moss"): the name starts after them.
    while lead and ((bare := _bare(lead[0].group()).lower()) in _ROLE_OR_TITLE or is_stop_word(bare)):
        lead.pop(0)
    names = [_bare(w.group()) for w in lead]
    # The shop's own name opens it: common words before it are the sentence's ("Call
    # Brooks Tire & Auto", "Underwriter Bear Stearns & Co"); a name of common words
    # only keeps them all ("Lone Star Tile & Stone").
    while len(lead) > 1 and is_common_word(names[0]) and any(not is_common_word(n) for n in names[1:]):
        lead.pop(0)
        names.pop(0)
    a, b = match.group("a"), match.group("b")
    capitals = a.isupper() and b.isupper()
    # The shop's own words after the "&", up to a function word ("… Tire & Auto On
    # Pulaski") or, in capitals, a common word no shop's ("MOTHER & SISTERS CAME").
    end = match.end("b")
    tail: list[str] = []
    for word in re.finditer(r"\S+", match.group("tail")):
        folded = word.group().lower()
        if is_stop_word(folded) or folded in ROLE_WORDS or (capitals and is_common_word(folded) and not _shop(folded)):
            break
        tail.append(word.group())
        end = match.start("tail") + word.end()
    start = match.start("lead") + lead[0].start() if lead else match.start("a")
    end = _abbreviation_s_period(text, end)
    if (form := _FORM_AFTER.match(text, end)) is not None:
        end = form.end()
    if b.lower() in _FAMILY_FIRM:
        # "May & Sons Funeral Home", "DIMMITT & SONS"; not "Linda & Sons" (a person's
        # given name), "Mother & Sisters" (kin) or other common words no one is named;
        # a name alone "& Co." is a firm where one is of it or at it ("of Adeleye-Oke &
        # Co."), not a crowd ("I met Rodriguez & Co. at the bar", "Holmes & Co. told me").
        kin = a.casefold() in KIN_NAMES or a.lower() in _RELATION_WORDS
        alone = not lead and not tail and form is None and b.lower() in ("co", "company")
        crowd = alone and _FIRM_PREPOSITION_BEFORE.search(text, max(0, start - 12), start) is None
        return (start, end) if a.title() not in first_names() and not kin and not crowd else None
    if any(w.lower().rstrip(".") in NAME_END_STREET_TYPES for w in (a, b, *tail)):
        return None  # "Broad St & Market St", "Elm St & Oak Ave": a crossing, no shop
    shop = any(_shop(w.lower()) for w in (a, b, *tail))
    if _trade_word(a) and _trade_word(b) and lead and shop:
        # The shop's own name ("Brooks", "Dorsey's"), or, out of a line of capitals,
        # common words its trade's word makes a name ("Lone Star Tile & Stone").
        own_name = any(w.group().endswith(("'s", "’s")) for w in lead) or any(not is_common_word(n) for n in names)
        return (start, end) if own_name or not capitals else None
    # Partners, then the practice's words ending in its trade's or a legal form ("Hartley
    # & Moss Physical Therapy", "Kovacs & Lindgren, Inc."); not a name or a verb after
    # them ("Kenny Rogers & Dolly Parton", "Lusk & Brandt Responded").
    practice = bool(tail) and _shop(tail[-1].lower()) and all(_trade_word(w) for w in tail)
    if _partners_only(f"{a} {b}") and (practice or (form is not None and not tail)):
        return match.start("a"), end
    return None


def _shop(folded: str) -> bool:
    return folded in SHOP_WORDS or folded in ORGANIZATION_WORDS or folded.removesuffix("s") in SHOP_WORDS


def _trade_names(text: str) -> list[Candidate]:
    found = []
    for match in _TRADE_NAME_RE.finditer(text):
        if (span := _trade_name(text, match)) is not None:
            start, end = span
            found.append(Candidate(start, end, "ORGANIZATION", text[start:end], (SOURCE,), 0.85, "cue:trade_name"))
    for match in _POSSESSIVE_SHOP_RE.finditer(text):
        owner = re.sub(r"^[OD]['’]", "", match.group("owner"))
        if is_common_word(owner) or _CALENDAR_WORD.fullmatch(owner) or owner.lower() in ROLE_WORDS:
            continue  # "Tuesday's Market", "the Children's Bakery": no one's shop by name
        if _TITLE_BEFORE_OWNER.search(text, max(0, match.start() - 16), match.start()):
            continue  # "Officer Dunn's Bar exam", "Ms. Ortiz's Bar admission": a person's
        start, end = match.span("v")
        found.append(Candidate(start, end, "ORGANIZATION", text[start:end], (SOURCE,), 0.85, "cue:trade_name"))
    return found


# A shop called by its owner's name in the possessive, then its trade ("Mulchrone's
# Bar", "Frizzell's Drug", "Casey's Bar and Grill"): the owner's name is the shop's.
# Only a shop's own word, last in the phrase (not "Garcia's Tax Return", "Officer
# Ramirez's Body Camera", "St. Mary's Market Street"), and no title before the owner.
_POSSESSIVE_SHOP_WORDS = (
    "Bar|Pub|Tavern|Saloon|Diner|Cafe|Café|Deli|Market|Grocery|Bakery|Pizzeria|Pizza|Restaurant|Kitchen|Grill"
    "|Salon|Barbershop|Garage|Drug|Drugs|Pharmacy|Hardware|Liquor|Liquors|Lounge|Tire|Tires|Lumber|Furniture"
    "|Jewelry|Pawn|Laundromat|Cleaners|Carryout|Creamery|Florist|Nursery|Store|Shop"
    "|Taqueria|Cantina|Tap|Taproom|Brewery|Bistro|Steakhouse|Smokehouse|Towing"
)
_OWNER_TITLES = "|".join(sorted(TITLE_WORDS | HONORIFICS | {"miss", "prof"}, key=len, reverse=True))
_TITLE_BEFORE_OWNER = re.compile(rf"(?<![\w'’-])(?i:{_OWNER_TITLES})\.?[ \t]+$")
_POSSESSIVE_SHOP_RE = re.compile(
    # The trade's word may open the next line ("Lupita's⏎    Taqueria").
    rf"(?<![\w'’&.-])(?P<v>(?P<owner>(?:[OD]['’])?{_CAPITAL}[a-z][\w-]*)['’]s{places.LINE_GAP}"
    rf"(?:{_POSSESSIVE_SHOP_WORDS})(?:[ \t]+(?:and|&)[ \t]+(?:{_POSSESSIVE_SHOP_WORDS}))?)(?![\w'’-])"
    # A capitalised word or an "&" after it: a longer name ("Dorsey's Tire & Lube").
    r"(?![ \t]+(?:[A-Z]|&))"
    # Not the bar a lawyer passes ("Garcia's Bar exam", "Ms. Ortiz's Bar admission").
    r"(?![ \t]+(?i:exam|examination|admission|association|license|licence|card|number|complaint)\b)"
)


_GIVEN_BEFORE = re.compile(r"(?<![\w'’-])([A-Z][a-z]+)[ \t]+$")
