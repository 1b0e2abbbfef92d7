"""Per-label validity rules, in the spirit of seed 000's AnnotationChecker.

A rejected candidate is kept with its reason (`Filtered`) so that statistics and
the UI can say why the machine dropped it, rather than losing it silently.
"""

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace

from pipelines.candidate import BASE_ONLY, Candidate
from pipelines.detection.answers import DocumentAnswers
from pipelines.detection.case import caseless_at
from pipelines.detection.config import ACRONYM_PERSON_SCORE, FILTER_RULES, NAMED_WORK_SCORE, WEEKDAY_ALONE_SCORE
from pipelines.detection.filtering.words import FilterWords, filter_words
from pipelines.detection.places import (
    barrister_s_title,
    broken_only_after_prefixes,
    has_institution_word,
    institution_broken_by_a_line,
    is_acronym,
    is_known_place,
    names_a_record,
    soft_wrap,
)
from pipelines.detection.recognizers.cues import PRONOUN_TAGGED, an_office_addressed
from pipelines.detection.recognizers.patterns import (
    a_tape_counter,
    a_year_s_event,
    recording_offset,
    recording_stamp,
    street_named,
)
from pipelines.gazetteers import (
    first_names,
    is_common_word,
    is_english_word,
    is_given_name,
    is_kin_word,
    is_known_name,
    is_person_given_name,
    is_stop_word,
    languages,
    last_names,
    spoken_languages,
)
from pipelines.lexicons import (
    BODY_NAME_WORDS,
    CIVIC_OFFICE,
    CLINICAL_FIELD_LABELS,
    DEGREES,
    EPONYMOUS_CONDITIONS,
    FORM_FIELD_LABELS,
    FORM_OF_ADDRESS,
    HOLIDAYS,
    HONORIFICS,
    INSTRUMENT_NOUNS,
    KIN_TITLES,
    LEGAL_EPONYMS,
    LEGAL_LATIN,
    NAME_PARTICLES,
    NATIONALITIES,
    NATO_ALPHABET,
    NUMBER_FIELD_ACRONYMS,
    NUMBER_WORDS,
    OFFICE_HEADS,
    OFFICE_MODIFIERS,
    POST_NOMINALS,
    RELATIONS,
    REPLY_WORDS,
    REPORTER_CREDENTIALS,
    ROLE_WORDS,
    SPEAKER_ROLES,
    STREET_TYPES,
    TITLE_JUST_BEFORE,
    TITLES_BEFORE_A_NAME_ONLY,
    VEHICLE_COLOURS,
    VEHICLE_MAKES,
)


@dataclass(frozen=True, slots=True)
class Filtered:
    candidate: Candidate
    reason: str


_HAS_DIGIT = re.compile(r"\d")
_WORDS = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)*")
# The recognizers that guess (a model, a lexicon): what they propose alone is
# checked against word frequencies; cues, patterns, the header and people are not.
MODEL_SOURCES = frozenset({"spacy", "presidio", "gazetteer"})
NAME_LABELS = frozenset({"PERSON", "ORGANIZATION", "LOCATION", "NRP"})


def _words(c: Candidate) -> list[str]:
    return _WORDS.findall(re.sub(r"['’]s?$", "", c.text.strip()))


def _model_only(c: Candidate) -> bool:
    return bool(c.sources) and set(c.sources) <= MODEL_SOURCES


def _person_single_character(c: Candidate, text: str, w: FilterWords) -> str | None:
    return "single character" if len(c.text.strip()) < 2 else None


def _person_digits(c: Candidate, text: str, w: FilterWords) -> str | None:
    return "contains digits" if _HAS_DIGIT.search(c.text) else None


def _person_acronym(c: Candidate, text: str, w: FilterWords) -> str | None:
    """Programmes, tests and units are acronyms ("You took GOGI, AA, NA"), and a
    model reads one in a sentence as a name. A person in capitals inside a sentence
    in lower case is rare in a text with case (a speaker label is a cue's, and "Mr.
    JONES" is a known name): a model's one word shaped as an acronym, on a line
    with lower-case words, that no name list knows, is capped below the bulk-accept
    score, not dropped: short surnames no list holds look the same ("XIONG", "MOUA")."""
    word = c.text.strip()
    if not _model_only(c) or not is_acronym(word) or _caseless(text, c):
        return None
    if is_known_name(word) and not column_s_letters(c):
        return None
    line_start = text.rfind("\n", 0, c.start) + 1
    line_end = text.find("\n", c.end)
    line = text[line_start : line_end if line_end != -1 else len(text)]
    if not any(ch.islower() for ch in line):
        return None
    return "an acronym in a sentence, no known name"


# A code with a digit after a field's letters ("DIN 07-B-4418", "FPS: 748213D").
_A_CODE_AFTER = re.compile(r"[ \t]*+[:#]?[ \t]*+[A-Z0-9-]*\d")


def _person_number_field(c: Candidate, text: str, w: FilterWords) -> str | None:
    """A record's number's field letters before the number ("Jovan Fortune, DIN
    07-B-4418"): a model's piece of a name, never a name."""
    if c.text.strip() in NUMBER_FIELD_ACRONYMS and _model_only(c) and _A_CODE_AFTER.match(text, c.end):
        return "a record number's field"
    return None


def column_s_letters(c: Candidate) -> bool:
    """Three capitals or fewer a model's name left past a column's gap ("KOSTELNIK,
    Leland F.   DOC NT-6302" on every page's footer): an agency's letters before its
    number, whatever name lists hold them ("Doc")."""
    return c.rule.endswith(":piece") and len(c.text.strip()) <= 3


def _caseless(text: str, c: Candidate) -> bool:
    """The candidate stands where the text writes no name with a capital (a
    lower-case transcript, one in capitals, or the answers of an interview left as
    speech recognition wrote them: `case.caseless_at`): the rules below, which read a
    lower-case word as no name, stay off there, or they would drop every name of it."""
    return caseless_at(text, c.start)  # an empty or short text is taken as cased


def _person_lowercase(c: Candidate, text: str, w: FilterWords) -> str | None:
    stripped = c.text.strip()
    if c.rule == PRONOUN_TAGGED:
        return None  # "kestrel o (she/they):": a display name as its owner typed it
    return "all lowercase" if stripped == stripped.lower() and not _caseless(text, c) else None


# Who may propose a one-word person the document itself writes as a word: the
# model, the name lists and the cues; never the header, the corpus or a reviewer.
_GUESSING_SOURCES = MODEL_SOURCES | {"cues"}
_TITLE_CASE_WORD = re.compile(r"[A-Z][a-z]+")
# Cues where the text says a word is someone's name: "called him Will", "my name is".
_NAMED_BY_A_CUE = re.compile(r"cue:(?:called|my_name_is|nickname|title|honorific)")
# A title's period is no sentence's end: "Mr. Paramour" is named.
_TITLED = re.compile(TITLE_JUST_BEFORE)


def _person_word_of_the_text(c: Candidate, text: str, w: FilterWords) -> str | None:
    """A one-word PERSON that the document itself writes as a word: in lower case
    in its sentences twice or more ("BM and paramour", "stated paramour"), and with
    a capital only where a sentence opens ("Paramour confirmed", "Paramour's mother
    Darla Ringo"). A name the lists know ("Young", "Rose") or give ("Will") and a
    text without case are left alone; one capital inside a sentence makes it a name
    ("do what u gotta do dallas" beside "Dallas said")."""
    word = c.text.strip()
    if not set(c.sources) <= _GUESSING_SOURCES or not _TITLE_CASE_WORD.fullmatch(word):
        return None
    # Common words are names often enough ("Mr. Salt", "Dr. Gold", "Peaches"): only a
    # rarer word ("paramour") is read from the document's own use.
    if is_common_word(word) or is_known_name(word) or is_given_name(word) or _caseless(text, c):
        return None
    if _NAMED_BY_A_CUE.search(c.rule or ""):
        return None  # "They called him Will", "Mr. Paramour": what he is called
    if _WRITTEN_AS_A_WORD.get(text, word, lambda: _written_as_a_word(text, word)):
        return "a word the document writes in lower case, capitalised only where a sentence opens"
    return None


_WRITTEN_AS_A_WORD = DocumentAnswers()


def _written_as_a_word(text: str, word: str) -> bool:
    """`text` writes `word` in lower case twice or more where it writes case, and
    never with a capital inside a sentence."""
    lower = 0
    for m in re.finditer(rf"(?<![\w'’-]){re.escape(word)}(?![\w-])", text, re.IGNORECASE):
        found = m.group()
        if found.islower():
            lower += not caseless_at(text, m.start())
        elif found[0].isupper() and not found.isupper():
            if _TITLED.search(text, max(0, m.start() - 8), m.start()):
                return False
            if not _opens_a_sentence(text, m.start()):
                return False
    return lower >= 2


# A determiner or a possessive right before a word, on its line ("the mike", "your mike").
_DETERMINER_BEFORE = re.compile(r"(?<![\w'’-])(?:the|a|an|this|that|my|your|his|her|our|their|its)[ \t]+$")


def _person_after_determiner(c: Candidate, text: str, w: FilterWords) -> str | None:
    """In a text without case a word's capital cannot say "name": a model's one-word
    person after a determiner or a possessive is a common noun there ("close to the
    mike", "this is your mike"), where "Big Mike" or "mike said" keep theirs. In a
    cased text the capital decides ("the Smiths" aside, "the Mike I knew" is rare),
    so the rule stays off."""
    if not _model_only(c) or len(c.text.split()) != 1 or not _caseless(text, c):
        return None
    before = _DETERMINER_BEFORE.search(text, max(0, c.start - 8), c.start)
    return "a determiner before one word, in a text without case" if before else None


# English's suffixes of abstract and derived nouns, after a stem of three letters
# or more, that surnames hardly ever have (the name lists hold three of them:
# "Hession", "Klement"). Not "-ness", "-ity", "-ance", "-ence": "Harkness",
# "Garrity", "Moriarity", "Durrance" are surnames no list may hold.
_NOUN_SUFFIX = re.compile(r"(?i)^[a-z]{3,}(?:tion|sion|ment|ism|ology|itis)$")


def _person_noun_shape(c: Candidate, text: str, w: FilterWords) -> str | None:
    """In a text without case the model has no capital to go by, and a repeated
    medical or legal noun ("HE HAD AN ABRASION") reads as a name to it: a model's
    one word shaped as an English abstract noun that no name list knows is none."""
    if not _model_only(c) or not _caseless(text, c):
        return None
    word = c.text.strip()
    if " " in word or not _NOUN_SUFFIX.match(word) or is_known_name(word) or is_known_place(word):
        return None
    return "a common noun's shape, no known name, in a text without case"


def _is_role(word: str, roles: frozenset[str]) -> bool:
    """A role word, or its plural ("Commissioners", "witnesses")."""
    return word in roles or (word.endswith("s") and word[:-1] in roles) or (word.endswith("es") and word[:-2] in roles)


def _in_name_lists(word: str) -> bool:
    title = word.title()
    return title in first_names() or title in last_names()


# What may stand before a speaker's label on its line: blanks, a timestamp ("[00:04:22]").
_LABEL_LEAD = re.compile(r"[ \t]*(?:\[[\d:.]+\][ \t]*)?")


def _speaker_label(c: Candidate, text: str) -> bool:
    """The candidate is a line's speaker label: only blanks or a timestamp before it
    on its line, a colon after it ("ALJ:", "[00:01:12] ATTY:")."""
    line_start = text.rfind("\n", 0, c.start) + 1
    labelled = text[c.end : c.end + 1] == ":"
    return labelled and _LABEL_LEAD.fullmatch(text, line_start, c.start) is not None


_COMMA_BEFORE = re.compile(r"\w,[ \t]*$")
_CREDENTIALS = REPORTER_CREDENTIALS | DEGREES
_NAME_PHRASE_ENDS = re.compile(r"[ \t]*(?::|\r?\n|$)|[ \t]+(?i:for|with|appearing|instructed|and[ \t]+\w+[ \t]+for)\b")


_CIVIC_OFFICE = re.compile(CIVIC_OFFICE)
_COURTESY_BEFORE = re.compile(r"\b(?:Mr|Mrs|Ms|Madam|Madame|Mister)\.?[ \t]+$")
_A_LABEL_S_NAME_AFTER = re.compile(r"[ \t]+[A-Z][A-Z'’-]+[ \t]*:")


def _inside_a_civic_office(c: Candidate, text: str) -> bool:
    """The span lies inside an office of two words or more ("Vice" of "Vice Mayor");
    not a body's name the office's words go on from ("Security Council members")."""
    office = _CIVIC_OFFICE.match(text, c.start)
    return office is not None and c.end <= office.end()


def _an_office_s_or_a_label_s_word(c: Candidate, text: str, words: list[str]) -> bool:
    """A town's office, addressed or inside its words, or a label's role: no one's name."""
    # "Vice" of "Vice Mayor Rush", "County" of "County Executive Dunmore": a town's or
    # a board's office the span lies inside.
    if _inside_a_civic_office(c, text):
        return True
    if len(words) != 1:
        return False
    # "Mr. Mayor" where the document names the mayor ("MAYOR WHITLOCK:"): the office
    # addressed, a model's person (`cues.an_office_addressed`).
    if _COURTESY_BEFORE.search(text, max(0, c.start - 9), c.start) and an_office_addressed(text, c.text.strip()):
        return True
    # "CSHO TOLLIVER:": a label's role before the speaker's name, a model's organization.
    return words[0] in SPEAKER_ROLES and _A_LABEL_S_NAME_AFTER.match(text, c.end) is not None


def _role_word(c: Candidate, text: str, w: FilterWords) -> str | None:
    words = [word.strip(".,'’:").lower() for word in c.text.split()]
    roles = w.role_words or frozenset()
    if all(_is_role(word, roles) for word in words):
        return "role word"
    if words and all(word in BODY_NAME_WORDS for word in words):
        return "a body's name's word"  # "Síochána" of "Garda Síochána", its rank's title taken off
    if _an_office_s_or_a_label_s_word(c, text, words):
        return "role word"
    # A role that is a word or a surname elsewhere, where a speaker's label names it
    # ("ALJ:", "CLMT:", "MEMBER:"): lexicons.SPEAKER_ROLES.
    if words and all(word in SPEAKER_ROLES or _is_role(word, roles) for word in words) and _speaker_label(c, text):
        return "role word"
    # "GRAND JUROR:", "PROSPECTIVE JUROR:": common words before a role, in a label
    # (the speaker-label cue's `_role_named`); "KENNETH CHIEF:" keeps its given name.
    lead = words[:-1]
    common_lead = lead and all(is_common_word(word) and word.title() not in first_names() for word in lead)
    if common_lead and _is_role(words[-1], roles | SPEAKER_ROLES) and _speaker_label(c, text):
        return "role word"
    # "QUESTIONS BY GRAND JURORS", "the grand jury": the body and its members, not a
    # person named Grand.
    if len(words) == 2 and words[0] == "grand" and words[1] in ("juror", "jurors", "jury"):
        return "role word"
    # "Coram: Hon. E. W. Nyaboke": a Commonwealth court's record names the bench after
    # the Latin "before", a field's word, though a town in New York bears it.
    if len(words) == 1 and words[0] == "coram" and text[c.end : c.end + 1] == ":":
        return "a form's field"
    # "DOB:", "EMPL:" inside a record's line: the field's name, whoever reads it.
    if len(words) == 1 and c.text.isupper() and c.text in _FIELD_LABELS and text[c.end : c.end + 1] == ":":
        return "a form's field"
    # "B. O. AKINSANYA, SAN", "HELEN CRAWSHAW, QC": a lawyer's rank after the name.
    # Only where the letters end the name's phrase: "CHEN, AO, LIU" lists surnames.
    if (
        c.text.strip() in POST_NOMINALS
        and _COMMA_BEFORE.search(text, max(0, c.start - 4), c.start)
        and _NAME_PHRASE_ENDS.match(text, c.end)
    ):
        return "post-nominal letters after a name"
    # A court reporter's or a clinician's letters after a name ("Janelle Prather, RDR,
    # CRR - Official Court Reporter", "BASCOMBE, MSN, APRN, FNP-C"): no one's and no
    # body's name, whatever follows them. A degree's letters may be a state's ("Erie,
    # PA", "Washington, DC"): those stay places; a reporter's are no place's.
    if (
        (key := c.text.strip().lower()) in _CREDENTIALS
        and (c.label != "LOCATION" or key in REPORTER_CREDENTIALS)
        and _COMMA_BEFORE.search(text, max(0, c.start - 4), c.start)
    ):
        return "post-nominal letters after a name"
    # "Colonel", "the General": a title alone that is nobody's name.
    # A title that is someone's name in the narrow name lists stays ("King", "Major").
    # After "Mr." the title is the surname ("Mr. Constable", "Ms. Sheriff"), and where
    # the document writes it so, everywhere ("Constable may continue").
    # A court a title names is an institution ("Magistrate Court", "Chief Magistrate Court").
    named_court = c.label == "ORGANIZATION" and len(words) > 1 and has_institution_word(words[-1])
    if all(_is_role(word, roles) or (word in w.honorifics and not _in_name_lists(word)) for word in words) and not (
        _COURTESY_BEFORE.search(text, max(0, c.start - 8), c.start)
        or (len(words) == 1 and titled_somewhere(text, c.text.strip()))
        or named_court
    ):
        return "title alone"
    # "Fire Marshal", "Battalion Chief" before the name they title ("Deputy Fire Marshal
    # Owen Thibodeaux"): common words and the title, no one's name.
    title_last = _is_role(words[-1], roles) or words[-1] in w.honorifics or words[-1] in _OFFICES
    # "Orange County Sheriff Deputy Mark Ruiz": a jurisdiction's office, no title alone.
    office = c.label == "ORGANIZATION" and any(word in _JURISDICTIONS for word in lead)
    if common_lead and title_last and not office and _NAME_AFTER.match(text, c.end):
        return "title alone"
    # "Meemaw", "Paw-Paw", "Grandpa" alone, as the model reads them: what a family calls
    # someone, a kin word (a cue's "Nana Roz" keeps its name).
    # The model may take one for a place or a body too ("at Kokum's house").
    if _model_only(c) and len(words) == 1 and is_kin_word(words[0]):
        return "kin word"  # not "Tia" nor "Nana", given names too
    # "Hon." before a judge's name, "Barr." (a barrister, as Nigerian records write it)
    # before counsel's: names too, titles only with their period.
    if words == ["hon"] and text[c.end : c.end + 1] == "." and _NAME_AFTER.match(text, c.end + 1):
        return "title alone"
    if words == ["barr"] and barrister_s_title(text, c.end) and not _TITLED.search(text, max(0, c.start - 8), c.start):
        return "title alone"  # "Barr. U. Mbanefo", "BARR. IKWUEMESI:"; not "Mr. Barr. He said wait."
    # "Thank you, Garda.": the rank alone, as a person, where the record writes it
    # before names ("Garda Lavelle"); the force or a firm named so stays a body.
    rank = c.text.strip()
    if c.label == "PERSON" and rank in TITLES_BEFORE_A_NAME_ONLY and _a_rank_before_names(text, rank):
        return "title alone"
    # "Rt Hon", "the Right Hon.": the Right Honourable, a title however written.
    if words == ["hon"] and _RIGHT_BEFORE.search(text, max(0, c.start - 8), c.start):
        return "title alone"
    return None


_NAME_AFTER = re.compile(r"[ \t]+[A-Z]")
_RANKS_BEFORE_NAMES = DocumentAnswers()


def _a_rank_before_names(text: str, rank: str) -> bool:
    def anywhere() -> bool:
        return re.search(rf"(?<![\w'’-]){re.escape(rank)}[ \t]+[A-Z]", text) is not None

    return _RANKS_BEFORE_NAMES.get(text, rank, anywhere)


_RIGHT_BEFORE = re.compile(r"\b(?:Rt\.?|Right)[ \t]+$")
# Offices a trade's or a service's word opens ("Fire Marshal", "Park Ranger"): surnames
# and given names alone ("Marshal's my cousin"), so only after such a word and before a
# name are they titles. A constable and a sheriff are ranks (lexicons.HONORIFICS).
_OFFICES = frozenset({"marshal", "ranger", "principal"})
_JURISDICTIONS = frozenset({"county", "city", "state", "parish", "borough", "township", "district"})
_FIELD_LABELS = CLINICAL_FIELD_LABELS | FORM_FIELD_LABELS


_SAID_TO_ANYONE = frozenset({"sir", "ma'am", "ma’am", "madam"})


def _closed_class(c: Candidate, text: str, w: FilterWords) -> str | None:
    """A model's name made of stop words ("And", "We"); a cue's or the header's is
    left alone ("DEPUTY DISTRICT ATTORNEY HER:", "Mr. Her": Her is a surname)."""
    words = _words(c)
    stop = w.stop_words or frozenset()
    # A word in capitals inside running text is an acronym or a name ("US"), not a pronoun.
    if any(word.isupper() and len(word) > 1 for word in words) and not text[max(0, c.start - 40) : c.start].isupper():
        return None
    # "I'm", "we'll": a pronoun with its verb contracted (`is_stop_word`).
    # "Ma'am", "Sir": forms of address alone, which spaCy's stop words lack (the
    # lexicon's CLOSED_CLASS holds them too, with replies the filter reads apart).
    closed = stop | _SAID_TO_ANYONE
    if _model_only(c) and words and all(word.lower() in closed or is_stop_word(word) for word in words):
        return "closed-class word (pronoun, determiner, conjunction…)"
    return None


def _notation(c: Candidate, text: str, w: FilterWords) -> str | None:
    words = _words(c)
    if words and all(word.lower() in (w.notations or ()) for word in words):
        return "transcript notation"
    if _model_only(c) and _SPACED_LETTERS.fullmatch(c.text.strip()) and _a_spaced_heading(text, c):
        return "transcript notation"  # "P R O C E E D I N G S", "I N D E X": a heading letter-spaced
    return None


_SPACED_LETTERS = re.compile(r"[A-Z](?: [A-Z])+")
_SPACED_LINE = re.compile(r"[ \t]*(?:[A-Z] )+[A-Z][ \t]*")


def _a_spaced_heading(text: str, c: Candidate) -> bool:
    """The candidate's line is letters and single spaces only ("P R O [C E E D] I N G S")."""
    line_end = text.find("\n", c.end)
    return (
        _SPACED_LINE.fullmatch(text, text.rfind("\n", 0, c.start) + 1, len(text) if line_end < 0 else line_end)
        is not None
    )


_SENTENCE_START = re.compile(r"(?:^|[.?!:;]|--|—)[\s\"'“‘(\[]*$")


_SENTENCE_REACH = 200


def _sentence_initial(c: Candidate, text: str) -> bool:
    """The span opens a sentence or an utterance ("A. Correct.", "Q. Weather?"),
    where every word is capitalized and the capital says nothing."""
    return _opens_a_sentence(text, c.start)


def _opens_a_sentence(text: str, start: int) -> bool:
    # Bounded: a text of one line is not read again from its start for each candidate.
    reach = max(0, start - _SENTENCE_REACH)
    line_start = max(text.rfind("\n", reach, start) + 1, reach)
    # A speaker label or a question/answer mark ("Q.", "A ") opens an utterance.
    before = re.sub(r"^[ \t]*(?:[A-Z][A-Z .'’-]{0,60}:|[QA]\.?(?=[ \t]))", "", text[line_start:start])
    return bool(_SENTENCE_START.search(before)) if before.strip() else True


# The names a prosecution goes by in a criminal case: the party, no organization that
# tells anyone apart.
_PROSECUTING_PARTIES = frozenset({"commonwealth", "state", "people", "crown", "government", "prosecution"})
# The prosecution as a party: after "the" ("The Commonwealth calls", "counsel for the
# Crown") or before "v." ("Commonwealth v. Stavrakis"), with no capitalised word after
# ("the State Department", "the Crown Prosecution Service"). Alone it may be a firm
# ("He worked at Commonwealth", "Crown fired me", "People magazine").
_THE_BEFORE = re.compile(r"(?i)\bthe[ \t]+$")
# (The name may go on past a line's end after "of": "the Commonwealth of⏎Virginia"; a
# line's end right after the party's word ends it, "for the State⏎MR. OKAFOR:".)
_CAPITAL_WORD_AFTER = re.compile(r"[ \t]+(?:of\s+)?[A-Z]")
_VERSUS_AFTER = re.compile(r"[ \t]+(?:v\.|vs\.?|versus)[ \t]")
# A roman numeral of two letters or more ("Vol. IV"), and a volume's word.
_ROMAN_NUMERAL = re.compile(r"(?=[IVX]{2})X{0,3}(?:IX|IV|V?I{0,3})")
_VOLUME_WORDS = frozenset({"Vol", "VOL"})
# A letter is nowhere only at a series' end ("A through H.", "C and D"): a model's
# piece before a word may be an initial of a name ("R Saravanan", "L Magazine").
_A_SERIES_BEFORE = re.compile(r"(?i:\b(?:through|thru|and|or|to))[ \t]+$")
# A numeral before a capitalised word is a name's piece ("II Corps").
_NAME_WORD_AFTER = re.compile(r"[ \t]+[A-Z]")


def _a_volume_or_a_series_mark(c: Candidate, text: str) -> bool:
    """A model's one-word place or body that marks a volume or a series' place: a
    letter at a series' end, a numeral alone, "Vol." with its period."""
    word = c.text.strip()
    if _LETTER_WITH_STOP.fullmatch(word):
        return _A_SERIES_BEFORE.search(text, max(0, c.start - 12), c.start) is not None
    if _ROMAN_NUMERAL.fullmatch(word):
        return _NAME_WORD_AFTER.match(text, c.end) is None
    return word in _VOLUME_WORDS and text.startswith(".", c.end)


# A party's exhibit ("Move State's 42 into evidence", "Commonwealth's 7").
_A_PARTY_S_EXHIBIT = re.compile(r"['’]s[ \t]+\d")


def _a_party_s_name(text: str, c: Candidate) -> bool:
    if _VERSUS_AFTER.match(text, c.end):
        return True
    return _THE_BEFORE.search(text, max(0, c.start - 8), c.start) is not None and not _CAPITAL_WORD_AFTER.match(
        text, c.end
    )


# An object pronoun right after a word: the word is a verb ("Tell us about", "Call me
# when"), whatever surname it also is.
_OBJECT_AFTER = re.compile(r"[ \t]+(?:us|me|him|them)\b")


def verb_before_its_object(text: str, start: int, end: int) -> bool:
    """text[start:end], one English word opening a sentence, is a verb before its
    object pronoun ("Tell us about", "Call me when"), whatever surname it also is."""
    return (
        _OBJECT_AFTER.match(text, end) is not None
        and is_english_word(text[start:end])
        and _opens_a_sentence(text, start)
    )


# A street's name or its ordinal right before its type, over a line's end too
# ("Seventh⏎Avenue", "West 35th⏎Street"): the type a model cut from its name.
_A_STREET_S_NAME_BEFORE = re.compile(
    r"(?:\b(?!(?:The|A|An|This|That|On|In|At|Of|And|To)\b)[A-Z][\w'’-]*|\d(?:st|nd|rd|th)?)[ \t]*\n?[ \t]*$"
)


# What a body is, said alone: the council, the board, the court a transcript speaks
# of, which the model reads as an organization though no body is named.
# (Not where a name's word goes on: "COUNCIL BLUFFS", a model's half of a town.)
_A_NAME_WORD_NEXT = re.compile(r"[ \t]+[A-Z]")
_A_BODY_S_WORD = frozenset(
    """council board court commission committee department agency bureau ministry tribunal panel authority
    office administration""".split()
)


def _common_word(c: Candidate, text: str, w: FilterWords) -> str | None:
    """A model's one-word guess that is a common English word ("Correct" as an
    organization, "Weather" as a person, "Anything" as a place) that no name or
    place list knows, at the start of a sentence where its capital means nothing.
    Mid-sentence, a capitalized common word is a proper noun ("a job at Costco").
    "English word" is wordfreq's: common in English, much rarer in other languages'
    text (a famous name, "Stalin", "Boeing", is frequent in all of them).
    Capitals in short acronyms ("FBI", "ER") are left alone: wordfreq folds case."""
    if not _model_only(c):
        return None
    words = _words(c)
    if _a_compound_of_words(c, text, words):
        return "a compound of common English words opening its line or sentence ('Cross-Examination by')"
    if len(words) != 1 or (len(words[0]) <= 4 and words[0].isupper()):
        return None
    word = words[0]
    if (
        c.label in ("ORGANIZATION", "LOCATION")
        and word.casefold() in _PROSECUTING_PARTIES
        and (_a_party_s_name(text, c) or _A_PARTY_S_EXHIBIT.match(text, c.end) is not None)
    ):
        return "the prosecution's name as a party ('The Commonwealth calls', 'the People rest'), no body's"
    if text and _a_reply(c, text, word):
        return "common English word said as a reply ('A. Good, sir.', 'Q. Okay.')"
    if text and verb_before_its_object(text, c.start, c.end):
        return "a verb opening a sentence, before its object ('Tell us', 'Call me')"
    if (
        c.label == "LOCATION"
        and c.text.strip().casefold() in STREET_TYPES
        and not _A_STREET_S_NAME_BEFORE.search(text, max(0, c.start - 30), c.start)
    ):
        return "a street's type alone, no street's name before it, no place"
    if c.label == "ORGANIZATION" and word.casefold() in _A_BODY_S_WORD and not _A_NAME_WORD_NEXT.match(text, c.end):
        return "a body's word alone ('members of Council', 'the Commission'), no body's name"
    if is_known_name(word) or is_known_place(word) or (c.label != "PERSON" and has_institution_word(word)):
        return None
    if is_english_word(word) and (not text or _sentence_initial(c, text)):
        return "common English word opening a sentence, no known name or place"
    return None


def _a_compound_of_words(c: Candidate, text: str, words: list[str]) -> bool:
    """A model's person that is one hyphenated token of common words whose head (its
    last) is an English word no name is, opening a sentence or a line
    ("Cross-Examination by Ms. Farouk"): no name ("Smith-Jones", "Ward-Smith" end in
    names), and no place's compound ("London-based")."""
    return (
        c.label == "PERSON"
        and len(words) > 1
        and not any(is_known_place(w) for w in words)  # "London-based", "Pro-Moscow"
        and "-" in c.text
        and " " not in c.text.strip()
        and all(is_common_word(w) or is_english_word(w) for w in words)
        and is_english_word(words[-1])
        and not is_known_name(words[-1])
        and (not text or _sentence_initial(c, text))
    )


_CLAUSE_ENDS = re.compile(r"[ \t]*[,.!?;]")


def _a_reply(c: Candidate, text: str, word: str) -> bool:
    """A reply word (`lexicons.REPLY_WORDS`) that opens an answer, a turn or a
    sentence and ends its clause ("A. Good, sir.", "Q. Okay.", "Fine."), even where it
    is a surname too ("Good"). Only those words: a one-word answer is as often a
    surname ("A. Fox.") or a place ("A. Buffalo.")."""
    return word.lower() in REPLY_WORDS and _CLAUSE_ENDS.match(text, c.end) is not None and _sentence_initial(c, text)


_RELATION_WORD = re.compile(rf"(?i)(?:{RELATIONS})s?")
_ADDRESS_WORDS = frozenset({"preacher", "pastor", "reverend", "rev", "deacon", "elder", "coach", "brother", "sister"})
_ADDRESS_WORDS = _ADDRESS_WORDS | ROLE_WORDS | HONORIFICS


_FORM_OF_ADDRESS = re.compile(FORM_OF_ADDRESS)


_SECTION_NUMBER = re.compile(r"(?:[IVX]{1,4}|[A-Z]|\d{1,2})\.[ \t]+")


# A document may hold thousands of ranks: the answer is the document's, per word.
_TITLED_SOMEWHERE = DocumentAnswers()
_COURTESY = r"\b(?i:mr|mrs|ms|mx|miss|dr)\.?[ \t]+"
_COURTESY_BEFORE = re.compile(_COURTESY + "$")


def titled_somewhere(text: str, word: str) -> bool:
    """The document writes `word` after a courtesy title somewhere ("Mr. Constable",
    "MR. CONSTABLE:"): a surname there."""
    pattern = rf"{_COURTESY}(?i:{re.escape(word)})(?![\w'’-])"
    return _TITLED_SOMEWHERE.get(text, word.casefold(), lambda: re.search(pattern, text) is not None)


def _person_common_phrase(c: Candidate, text: str, w: FilterWords) -> str | None:
    """A model's PERSON of two or more words that are all English words, none a
    given name: a heading or a phrase in capitals ("Closing Statements", "Board
    Hearing"), not a person ("Will Rose" keeps its given name)."""
    if not _model_only(c):
        return None
    if _FORM_OF_ADDRESS.fullmatch(c.text.strip()):
        return "a form of address"  # "Your Honor": "Honor" is a given name too
    words = _words(c)
    if len(words) >= 2 and " ".join(words).lower() in LEGAL_LATIN:
        return "a legal term"  # "Habeas Corpus", "Amicus Curiae"; not "Alia Rea"
    if len(words) < 2 or any(is_given_name(word) for word in words):
        return None
    # "I. OFFENSE INFORMATION", "B. Medical History": common words after a section's
    # number heading its line.
    heading = _SECTION_NUMBER.match(c.text) and _LABEL_LEAD.fullmatch(text, text.rfind("\n", 0, c.start) + 1, c.start)
    if heading and all(is_common_word(word) and not is_known_name(word) for word in words[1:]):
        return "a section's heading"
    # "Preacher Wise", "Grandma Day": a way of addressing someone, then the name.
    if _RELATION_WORD.fullmatch(words[0]) or words[0].lower() in _ADDRESS_WORDS:
        return None
    if len(words) == 2 and words[0].lower() in OFFICE_MODIFIERS and words[1].lower() in OFFICE_HEADS:
        return "an office's name"  # "Mr. Vice Chair", "Madam Deputy Speaker": an office, addressed
    if all(is_english_word(word) for word in words):
        return "English words, no given name"
    # The base model's second opinion the encoder did not share: common words that are
    # nobody's names ("RECORD MERGE WARNING", "Depart Scene"); "Young Brown" stays.
    # An initial or a name's particle says name ("B. Tuck", "el Mono").
    second_opinion = c.sources == ("spacy",) and f":{BASE_ONLY}" in (c.rule or "")
    named = any(len(word) == 1 or word.lower() in NAME_PARTICLES for word in words)
    if second_opinion and not named and all(is_common_word(word) and not is_known_name(word) for word in words):
        return "common words, no name (the base model alone)"
    return None


# The kind of work a title names, right before the title ("the novel Dark Matters",
# "his film Erin Brockovich", "author of Alice in Wonderland"): the name is the
# work's, or a character's in it. "called" and "named" are the cues' own rule.
_WORK_BEFORE = re.compile(
    r"(?i)(?:\b(?:the|a|an|his|her|their|my|our|your|its)[ \t]+(?:new[ \t]+|first[ \t]+|last[ \t]+|latest[ \t]+)?"
    r"(?:novel|book|film|movie|song|album|play|poem|painting|series|sitcom|musical|opera|documentary|"
    r"webcomic|comic|column|essay|memoir|biography)"
    r"|\bauthor[ \t]+of|\bwriter[ \t]+of|\bdirector[ \t]+of|\bcomposer[ \t]+of)[ \t]+[\"“‘']?$"
)


# The word after a span, on its line ("Tom gave me": "gave").
_NEXT_WORD = re.compile(r"[ \t]+([a-z][\w'’]*)")


def _person_names_a_work(c: Candidate, text: str, w: FilterWords) -> str | None:
    """A model's person right after the kind of work it would title. The score is
    capped, not the span dropped; and a person doing something is no title: "the
    book Tom gave me" names Tom (the word after it is a lower-case word that is no
    function word), where "Alice in Wonderland" goes on with one."""
    if not _model_only(c) or not text:
        return None
    if not _WORK_BEFORE.search(text, max(0, c.start - 40), c.start):
        return None
    after = _NEXT_WORD.match(text, c.end)
    if after is not None and after.group(1) not in (w.stop_words or frozenset()):
        return None
    return "a work's title, after its kind"


# What a person's name names when it names no person: a procedure, a test, a
# doctrine or a disease called after someone ("an Olson review", "the Franklin
# factors"), or, with a possessive, a law, a holiday, a syndrome or a clinical sign
# ("Marsy's Law", "Valentine's Day", "Down's Syndrome", "Murphy's sign", "Hartmann's
# solution", "Huntington's" of the conditions' list). Not what follows a party's or a
# patient's name ("Kowalczyk's hearing", "the Delgado motion", "Ramirez's test results").
_EPONYM_AFTER = re.compile(
    # Not "hearing", "motion" or "claim": "the Johnson hearing" may be a person's; nor
    # a verb's form ("Darnell tests positive", "Keisha warning him").
    r"[ \t]+(?:review|factors|doctrine|warnings|syndrome|disease|criteria|principles?|maneuver|amendment"
    r"|obligations|materials|standard|exception|rights"
    # A clinical note's devices and signs ("Jackson-Pratt drains", "a Foley catheter",
    # "Babinski reflex").
    r"|drains?|catheter|reflex)\b"
    r"|['’]s[ \t]+(?:Law|Act|Rule|Syndrome|Disease|Day(?![ \t]*(?:Care|Spa|Camp|School|Center))|Eve)\b"
    # The law's word may open the next line ("as Marsy's⏎Law requires"); not a firm's
    # ("Marcus's⏎Law firm").
    r"|['’]s[ \t]*\n[ \t]*Law\b(?![ \t]+(?i:firm|office|offices|school|clerk|enforcement|practice|degree|group))"
    # "Murphy's sign", "Hartmann's solution": only after a word that is no given name
    # ("Jamal's sign said no justice", "Tariq's solution was to move").
    r"|(?P<clinical>['’]s[ \t]+(?:syndrome|disease|signs?|solution|cyst|maneuver|fracture|palsy|triad|phenomenon"
    r")\b)"
    # A disease named by its eponym's possessive alone or with a patient's noun
    # ("Huntington's on her father's side", "Dupuytren's contracture"): only a name
    # the conditions' list holds ("Okonkwo's dementia" is a patient's).
    r"|(?P<condition>['’]s)(?:(?=[ \t]*(?:[^\w \t]|$))|[ \t]+(?P<next>[a-z]+)\b)"
)
# What a condition named after someone may be ("Dupuytren's contracture").
_CONDITION_NOUNS = frozenset("contracture contractures dementia chorea disease lymphoma ulcer ulcers".split())
# A possessive beside another, neither followed by its noun ("Kernig's and
# Brudzinski's have poor sensitivity"): the pair names what each names elsewhere.
_COORDINATED_POSSESSIVE = re.compile(r"['’]s,?[ \t]+(?:and|or)[ \t]+[A-Z][\w-]*['’]s\b")
_COORDINATED_BEFORE = re.compile(r"[A-Z][\w-]*['’]s,?[ \t]+(?:and|or)[ \t]+$")
# A clinical examination's finding after an article: "a positive Tinel's and
# Phalen's", "the negative Spurling's", "a positive Hawkins-Kennedy". Not "I'm
# positive Johnson did it" (no article), nor a given name ("a positive Marcus").
_EPONYM_BEFORE = re.compile(
    r"(?i:\b(?:a|an|the|and|with)[ \t]+(?:positive|negative))[ \t]+(?:[A-Z][\w-]*['’]s?,?\s+(?:and|or)\s+)?$"
)


# What follows a doctrine called by a party's name (lexicons.LEGAL_EPONYMS): "a Marsden
# motion", "Brady material", "a Batson challenge", "an Alford plea".
# Only nouns no person's name takes ("the Romero report", "the Brady hearing" of a
# family court and "the Strickland claim" may be a party's).
_LEGAL_EPONYM_AFTER = re.compile(
    r"[ \t]+(?:motion|challenge|plea|waiver|violation|material|admonition|advisement|instruction|disclosure"
    r"|right|warning)s?\b"
)
# Miranda read to a suspect or invoked ("read him Miranda", "read her her Miranda",
# "he invoked Miranda"), or bare at a clause's end ("after Miranda."): not "after
# Romero left", "without Brady".
_READ_TO_BEFORE = re.compile(
    r"(?i:\b(?:read[ \t]+(?:him|her|them|you|me)|waived|invoked)(?:[ \t]+(?:his|her|their|your|my))?)[ \t]+$"
)
_CLAUSE_BEFORE = re.compile(r"(?i:\b(?:after|before|without|under))[ \t]+$")
_CLAUSE_END_AFTER = re.compile(r"[ \t]*(?:[.,;?!]|$)")


# A page's production number in discovery, called after its stamp's maker: "Bates
# BWM-0006001", "Bates-stamped", "the Bates numbers", "Bates range".
_BATES_AFTER = re.compile(r"(?:-|[ \t]+)(?:stamp(?:ed|s)?|numbers?|numbered|range|labels?|(?i:no)\.|[A-Z]{2,}[-_]?\d)")


def _legal_eponym_at(text: str, start: int, word: str) -> bool:
    """`word`, at `start`, is a doctrine of criminal procedure by its party's name,
    or the Bates stamp of a produced page."""
    if word.casefold() == "bates":
        return _BATES_AFTER.match(text, start + len(word)) is not None
    if word.casefold() not in LEGAL_EPONYMS:
        return False
    if _LEGAL_EPONYM_AFTER.match(text, start + len(word)) is not None:
        return True
    if word.casefold() != "miranda":
        return False
    return _READ_TO_BEFORE.search(text, max(0, start - 30), start) is not None or (
        _CLAUSE_BEFORE.search(text, max(0, start - 10), start) is not None
        and _CLAUSE_END_AFTER.match(text, start + len(word)) is not None
    )


def _eponym_after(text: str, at: int, word: str) -> bool:
    match = _EPONYM_AFTER.match(text, at)
    if match is None:
        return False
    if match.group("condition") is not None:
        # Punctuation, a function word or a patient's noun after it: "Huntington's on
        # her father's side", "Dupuytren's contracture", not "Parkinson's lawyer"; and
        # no given name ("Addison's with her father" is a girl's "is").
        following = match.group("next")
        after = following is None or is_stop_word(following) or following in _CONDITION_NOUNS
        return word.casefold() in EPONYMOUS_CONDITIONS and after and not _a_first_name(word)
    return not (match.group("clinical") and _a_first_name(word))


def _coordinated_possessive(text: str, start: int, word: str) -> bool:
    """ "Kernig's and Brudzinski's": `word` (at `start`) is a bare possessive beside another."""
    return _COORDINATED_POSSESSIVE.match(text, start + len(word)) is not None or (
        text.startswith(("'s", "’s"), start + len(word))
        and _COORDINATED_BEFORE.search(text, max(0, start - 40), start) is not None
    )


def _eponym_at(text: str, start: int, word: str) -> bool:
    """`word`, written at `start`, names a procedure, a test, a law or a sign."""
    return (
        _eponym_after(text, start + len(word), word)
        or _legal_eponym_at(text, start, word)
        or (_EPONYM_BEFORE.search(text, max(0, start - 60), start) is not None and not _a_first_name(word))
    )


def _a_first_name(word: str) -> bool:
    """A name read first as a given one: in the first-name lists, or a given name no
    surname list holds ("Jamal", "Tariq"; not "Murphy", "Hartmann", "Graves")."""
    return word in first_names() or (is_given_name(word) and word not in last_names())


# The filter asks once per candidate; the answer is the document's.
_EPONYM_ANSWERS = DocumentAnswers()


def _only_as_eponym(text: str, word: str) -> bool:
    """Every time `word` is written in `text`, an eponym's noun follows it."""

    def every_use() -> bool:
        # Each use names the eponym, or stands in a pair of possessives beside one
        # that does; at least one use says it outright.
        uses = [u.start() for u in re.finditer(rf"(?<![\w'’-]){re.escape(word)}(?![\w-])", text, re.IGNORECASE)]
        named = [_eponym_at(text, at, word) for at in uses]
        return any(named) and all(
            n or _coordinated_possessive(text, at, word) for n, at in zip(named, uses, strict=True)
        )

    return _EPONYM_ANSWERS.get(text, word.lower(), every_use)


def _person_eponym(c: Candidate, text: str, w: FilterWords) -> str | None:
    """A model's one-word person that names a procedure, a test or a law, and
    nothing else in the document (`_only_as_eponym`); a model's one-word body only
    where it names a doctrine or a Bates stamp (`_legal_eponym_at`). A name the document uses
    alone too ("the Navarrete review" where Mr. Navarrete speaks) stays a person."""
    # One word, a hyphenated one too ("Jackson-Pratt drains").
    words = re.sub(r"['’]s?$", "", c.text.strip()).split()
    if not _model_only(c) or not text or len(words) != 1:
        return None
    if not (_eponym_at(text, c.start, words[0]) or _coordinated_possessive(text, c.start, words[0])):
        return None
    if c.label == "ORGANIZATION" and not _legal_eponym_at(text, c.start, words[0]):
        return None  # a model's one-word body read as a doctrine or a stamp only ("Bates BWM-0006001")
    if _only_as_eponym(text, words[0]):
        return "names a law, a procedure or a test, never a person in the document"
    return None


# A colour (after an article or a possessive, an age's word beside it) or a make
# right before the name: "a silver Mercedes", "her older maroon Monte Carlo",
# "a gray Toyota Sienna".
_VEHICLE_BEFORE = re.compile(
    r"\b(?i:a|an|the|his|her|my|their|your|our|that|this)[ \t]+(?:(?:dark|light|old|older|new|newer)[ \t]+)?"
    r"(?:(?P<colour>[a-z]+)[ \t]+)?(?:(?P<make>[A-Z][a-zA-Z]+)[ \t]+)?$"
)


# The radio alphabet (ICAO/NATO), as pilots, dispatchers and officers spell a
# registration, a plate or a call sign with it; and the figures said with it.
_RADIO_ALPHABET = NATO_ALPHABET
_RADIO_FIGURES = frozenset("zero one two three four five six seven eight nine niner tree fife".split())
# The words of a spelled run around a span: letters and figures one space apart, no
# comma between ("four one seven Sierra Kilo"; not "Victor Lima, 41,").
_RUN_BEFORE = re.compile(r"(?:[\w-]+[ \t]+){1,8}$")
_RUN_AFTER = re.compile(r"(?:[ \t]+[\w-]+){1,8}")


def _radio_run(words: list[str]) -> tuple[int, int]:
    """The letters and figures a run of words holds, from its first word on, up to
    the first word that is neither."""
    letters = figures = 0
    for word in words:
        folded = word.lower().strip(".")
        if folded in _RADIO_ALPHABET:
            letters += 1
        elif folded in _RADIO_FIGURES or folded.isdigit():
            figures += 1
        else:
            break
    return letters, figures


def _person_radio_spelling(c: Candidate, text: str, w: FilterWords) -> str | None:
    """Every word of the span is a letter of the radio alphabet, in a run of such letters
    and figures one space apart that spells something: three letters or more, or two
    and a figure ("November four one seven Sierra Kilo", "plate Charlie Delta 4 Bravo").
    A name a cue read, a name and its age ("Victor Lima, 41,") or names in a list
    ("Romeo, Juliet and I") stay."""
    words = c.text.split()
    if "cues" in c.sources or not words or not all(word.lower().strip(".,") in _RADIO_ALPHABET for word in words):
        return None
    before = _RUN_BEFORE.search(text, max(0, c.start - 80), c.start)
    after = _RUN_AFTER.match(text, c.end)
    back = _radio_run(list(reversed(before.group().split()))) if before is not None else (0, 0)
    ahead = _radio_run(after.group().split()) if after is not None else (0, 0)
    letters = len(words) + back[0] + ahead[0]
    figures = back[1] + ahead[1]
    if letters >= 3 or (letters >= 2 and figures >= 1):
        return "radio alphabet spelling a registration, a plate or a call sign"
    return None


def _vehicle(c: Candidate, text: str, w: FilterWords) -> str | None:
    """A model's person or organization that is a car: an article or a possessive,
    then a colour, a make or both before it ("a silver Mercedes", "his Toyota
    Sienna", "the white Tahoe"), or a make and its model after one ("a Chevy Tahoe").
    A make that is also a name ("Lincoln", "Ford") says nothing; a place is never a
    car ("Dodge Street", "Pontiac, Michigan"), nor a bare make and a word ("Toyota
    Tsusho", an employer)."""
    words = c.text.split()
    if not _model_only(c) or not text or len(words) > 2:
        return None
    before = _VEHICLE_BEFORE.search(text, max(0, c.start - 40), c.start)
    if before is None:
        return None
    colour, make = before.group("colour"), before.group("make")
    if len(words) == 2 and make is None and words[0].casefold() in VEHICLE_MAKES and not is_known_name(words[0]):
        make = words[0]  # "a Chevy Tahoe": the make opens the span
    if colour is not None and colour not in VEHICLE_COLOURS:
        return None
    if make is not None and (make.casefold() not in VEHICLE_MAKES or is_known_name(make)):
        return None
    return "a vehicle: a colour or a make before it" if colour or make else None


def _lower_name_word(word: str, w: FilterWords) -> bool:
    """Lower-case words names do have: particles ("de la", "al-Hazmi", "ibn"), and
    the function words of epithets ("Alexander the Great", "Catherine of Aragon")."""
    head = word.split("-")[0].strip(".,'’")
    return head in (w.name_words or ())


def _particle_in_place(words: list[str], n: int) -> bool:
    """Spanish "los"/"las" are a name's only after "de" ("María de los Ángeles");
    after a name they are an article ("Luis Soto los Lunes", "Pedro Gomez las
    Navidades")."""
    return words[n] not in ("los", "las") or (n > 0 and words[n - 1] == "de")


def _name_shape(c: Candidate, text: str, w: FilterWords) -> str | None:
    """A model's person whose words are not all capitalized ("Rigor mortis"):
    names capitalize every word but their particles ("Rosa de la Vega")."""
    words = c.text.split()
    lower = [
        x
        for n, x in enumerate(words)
        if x[:1].islower() and not (_lower_name_word(x, w) and _particle_in_place(words, n))
    ]
    if _model_only(c) and len(words) > 1 and lower:
        return None if _caseless(text, c) else "not shaped like a name (a lower-case word)"
    if _model_only(c) and len(words) == 1 and _COMPOUND_ADJECTIVE.search(words[0]):
        return "not shaped like a name (a compound adjective)"  # "Bates-stamped", "Jackson-based"
    # "Hare Psychopathy Checklist-Revised": three words at least, a surname first
    # ("Anthony Scales", "Marcus Battery" are people).
    last = words[-1].strip(".,;:").split("-")[0] if words else ""
    instrument = last[:1].isupper() and last.lower() in INSTRUMENT_NOUNS and not is_given_name(words[0])
    if _model_only(c) and len(words) > 2 and instrument:
        return "names a test"
    return None


# A name made an adjective by a hyphen ("Bates-stamped", "Kennedy-era", "Texas-based").
_COMPOUND_ADJECTIVE = re.compile(r"^[A-Z][\w'’]*-(?:[a-z]+ed|based|like|style|era|type|esque)$")


def _model_lowercase_place(c: Candidate, text: str, w: FilterWords) -> str | None:
    stripped = c.text.strip()
    if _model_only(c) and stripped == stripped.lower() and any(ch.isalpha() for ch in stripped):
        return None if _caseless(text, c) else "all lowercase"
    return None


def _place_nationality(c: Candidate, text: str, w: FilterWords) -> str | None:
    """ "She was Tongan", "affirmed in Hokkien", "the German barracks": a people's or a
    language's word says where someone is from, not a place of theirs (a quasi
    identifier at most). A language that is a place's name too ("Nauru") or that
    English rarely names ("Pali", "Venda", "Sango": towns too) is left to the model."""
    if not _model_only(c):
        return None
    key = c.text.strip().lower()
    if not key.isalpha():
        return None
    if (key in NATIONALITIES or key in spoken_languages()) and not is_known_place(key):
        return "a nationality or a language, no place"
    return None


# What says a word is a language: speaking, praying or writing "in" it, or its words
# after it ("(Speaks in Anishinaabemowin.)", "Cree and Anishinaabemowin words").
# (Not "spoke" without "in": a clause's verb before the next one's subject, "When I
# spoke Jessica hung up"; nor "stated in": "as the Court stated in Strickland".)
_IN_A_LANGUAGE_BEFORE = re.compile(
    r"(?i:\b(?:speaks?|spoke|spoken|speaking|says?|said|prays?|prayed|praying|sings?|sang|sung|writes?|wrote"
    r"|written|spelled|spelt|testif(?:y|ies|ied)|testifying|translated|interpreted|answers?|answered|greets?"
    r"|greeted)\s+in|(?:translated|interpreted)[ \t]+into)[ \t]+$"
)
# A translation into a word says it is a language by itself, as its words, an
# interpreter or an interpreter's list after it do (`_A_LANGUAGE_S_WORDS_AFTER`): the
# cues `_named_a_language` spreads from ("spoke in Kimaanya" may be a village's).
_INTO_BEFORE = re.compile(r"(?i:\b(?:translated|interpreted)[ \t]+into)[ \t]+$")
# Speaking "in" a place no list knows is rare beside speaking in a language ("the
# witness will speak in isiXhosa"); testifying, saying or writing in one is common.
# A Commonwealth court's record: "interpreted into Kiswahili"; after English, French or
# Spanish and a slash, another language ("Interpretation: English/Kiswahili").
_SPEAKING_IN_BEFORE = re.compile(
    r"(?i:\b(?:(?:speaks?|spoke|spoken|speaking|interpreted|translated)\s+in"
    r"|(?:interpreted|translated)[ \t]+into)|\b(?-i:English|French|Spanish)/)[ \t]*$"
)
# ... or whose interpreter works ("certified Hmong⏎interpreter", "a Karen translator").
# Or in an interpreter's list of languages ("Court Interpreter (Luganda/Runyankore-
# Rukiga/English)").
_A_LANGUAGE_S_WORDS_AFTER = re.compile(
    r"[ \t]+(?:words?|language|phrases?|prayers?|translation)\b|[ \t]*+(?:\n[ \t]*+)?(?:interpreters?|translators?)\b"
    r"|(?:/[A-Z][\w-]*){0,3}/(?:English|French|Spanish)\b"
)


def _named_as_a_language(c: Candidate, text: str, w: FilterWords) -> str | None:
    """A model's one word that the text speaks in, or whose words it names, is a
    language, no one's name ("(Speaks in Anishinaabemowin.)", "will speak in isiXhosa",
    "Cree and Anishinaabemowin words"); a known place stays ("speaks in Toronto"). So is
    the word wherever else the document writes it, where the document names it a
    language by itself somewhere (`_named_a_language`: "Court Interpreter (Luganda/
    English)", then "in Luganda for A1"), unless the lists know it as a name."""
    word = c.text.strip()
    if not _model_only(c) or not word.isalpha() or is_known_place(word.lower()):
        return None
    if text[c.end : c.end + 1] in ("'", "’"):
        return None  # "testified in Garcia's favor": a language is never anyone's
    # (A town one testifies in is a place, "testified in Wetaskiwin": a place's name is
    # a language's only where it is spoken or its words named.)
    # (A language's name the lists know is one wherever one speaks or testifies in it:
    # "testified in Tagalog".)
    listed = word.lower() in languages()
    if _said_as_a_language(text, c.start, c.end, c.label == "LOCATION" and not listed):
        return "a language, no name"
    # A word the document names as a language elsewhere is that language here too ("in
    # Luganda for A1", "in Runyankore and Luganda mixed"), unless it is a name too.
    if is_known_name(word) or not _LANGUAGES_NAMED.get(text, word, lambda: _named_a_language(text, word, listed)):
        return None
    return "a language, no name (the document names it so)"


def _said_as_a_language(text: str, start: int, end: int, as_a_place: bool) -> bool:
    """The words around [start, end) say it is a language there: speaking it (as a
    place's name, only its stronger cues: `_SPEAKING_IN_BEFORE`), or its words after."""
    cue = _SPEAKING_IN_BEFORE if as_a_place else _IN_A_LANGUAGE_BEFORE
    before = cue.search(text, max(0, start - 30), start)
    return before is not None or _A_LANGUAGE_S_WORDS_AFTER.match(text, end) is not None


def _named_a_language(text: str, word: str, listed: bool) -> bool:
    """Somewhere the document names `word` a language by itself: its words, an
    interpreter or a translation into it, or speaking it where the lists know it as a
    language ("testified in Tagalog"); not "spoke in Kimaanya", a village's name too."""
    # (The word is searched as a literal and its left edge checked here: a lookbehind
    # first would make the regex engine try every position of a long transcript.)
    for match in re.finditer(re.escape(word) + r"(?![\w'’-])", text):
        start, end = match.span()
        if start > 0 and (text[start - 1].isalnum() or text[start - 1] in "_'’-"):
            continue
        if _A_LANGUAGE_S_WORDS_AFTER.match(text, end) or _INTO_BEFORE.search(text, max(0, start - 30), start):
            return True
        if listed and _IN_A_LANGUAGE_BEFORE.search(text, max(0, start - 30), start):
            return True
    return False


_LANGUAGES_NAMED = DocumentAnswers()


def _holiday(c: Candidate, text: str, w: FilterWords) -> str | None:
    """ "Mardi Gras", "Rosh Hashanah", "Tet": a day of the year, no one and nowhere
    (`lexicons.HOLIDAYS`); a cue's or a list's ("Mr. Christmas") is left alone. A
    storm the document names so ("Hurricane Georges", then "After Georges I go less")
    is an event too, where no title names a person so."""
    if not _model_only(c):
        return None
    if " ".join(c.text.split()).lower() in HOLIDAYS:
        return "a holiday"
    # (The model may run on into a pronoun: "After Georges I go less".)
    words = c.text.split()
    word = words[0] if words and all(is_stop_word(w) for w in words[1:]) else ""
    if text and word.isalpha() and word[:1].isupper() and _a_storm_s_name(text, word):
        return "a storm's name ('Hurricane Georges')"
    return None


def _a_storm_s_name(text: str, word: str) -> bool:
    """The document names a storm so ("Hurricane Georges") and says the word only near
    a storm's word ("until the hurricane. Georges broke my sister's house"), and no
    title names anyone so: a daughter named after one ("Hurricane Katrina hit. …
    Katrina, my oldest, called") stays a person."""
    # One look for any storm's name per document: most name none.
    if not _STORMS.get(text, "", lambda: _NAMED_STORM.search(text) is not None):
        return False
    return _STORMS.get(text, word, lambda: _only_a_storm(text, word))


_STORMS = DocumentAnswers()
_STORM_WORD = re.compile(r"(?i:hurricane|typhoon|cyclone|storm|superstorm)")
_STORM_NAMER = r"\b(?:Hurricane|Typhoon|Cyclone|Tropical[ \t]+Storm|Superstorm)[ \t]+"
_NAMED_STORM = re.compile(_STORM_NAMER + "[A-Z]")
_STORM_REACH = 80


def _only_a_storm(text: str, word: str) -> bool:
    named = re.search(rf"{_STORM_NAMER}{re.escape(word)}\b", text)
    if named is None or titled_somewhere(text, word):
        return False
    mentions = list(re.finditer(rf"(?<![\w'’-]){re.escape(word)}(?![\w'’-])", text))
    said_of_a_person = (
        _KIN_OR_OWNER_BEFORE.search(text, max(0, m.start() - 30), m.start())
        or _A_PERSON_S_WORDS_AFTER.match(text, m.end())
        for m in mentions
    )
    if any(said_of_a_person):
        return False  # "my sister Sandy", "Hugo, my oldest,", "Michael said we should leave"
    return all(_STORM_WORD.search(text, max(0, m.start() - _STORM_REACH), m.start()) is not None for m in mentions)


# What says a person around a word: a kin word or a possessive before it, an apposition
# of kin or a verb of saying or being after it.
_KIN_OR_OWNER_BEFORE = re.compile(rf"\b(?i:my|his|her|our|their|(?:{RELATIONS})s?)[ \t]+$")
_A_PERSON_S_WORDS_AFTER = re.compile(
    r",?[ \t]+(?i:my|his|her|our|their|who|said|says|told|asked|called|cried|is[ \t]+\d|was[ \t]+\d|is[ \t]+[a-z]+ty)\b"
)


_NUMERIC_DATE = re.compile(r"\d{1,4}[/.-]\d{1,2}[/.-]\d{1,4}")
_LETTER_WITH_STOP = re.compile(r"[A-Z]\.?")


# A number after a word ("Page 2", "Page two.").
_NUMBER_AFTER = re.compile(rf"[ \t]+(?:\d+|(?i:{NUMBER_WORDS}))\b")
# Things lettered rather than numbered, and the letter after one ("Exhibit D", "Tab J").
_LETTERED_THINGS = frozenset({"exhibit", "exhibits", "tab", "appendix", "attachment", "schedule"})
_A_LETTER_AFTER = re.compile(r"[ \t]+[A-Z](?![\w'’-])")
# A list's number after a word, the list going on ("his sister, Factor 33 and 34"):
# not a count of time ("My niece Page 2 weeks ago").
_A_LIST_S_NUMBER_AFTER = re.compile(r"[ \t]+\d+(?=[ \t]*(?:[,;.)]|and\b|or\b))")
# A Bates stamp's prefix and its padded number ("Bates SPG 000118", "Bates BRPS-0077"):
# not a record's acronym and its number ("Bates SSN 123-45-6789", "BATES CDCR 12345").
_A_STAMP_AFTER = re.compile(r"[ \t]+(?:[A-Z]{2,6}[ _-]?)?0\d{2,}\b")
# The word before a letter the model read alone ("Tab| J."), and the word after it.
_THING_BEFORE = re.compile(r"([A-Za-z]+)[ \t]+$")
_WORD_AFTER_LETTER = re.compile(r"\.?[ \t]+([A-Za-z]+)")


# A telephone number as it is dialled, its area code and exchange set apart ("541-555-0190",
# "(412) 555-0187", "630.555.0119"): no form's, page's or line's number is written so.
_A_DIALLED_NUMBER = re.compile(r"(?:\+?1[ .-]?)?(?:\(\d{3}\)[ ]?|\d{3}[.-])\d{3}[.-]\d{4}")


def _numbered_thing(c: Candidate, text: str, w: FilterWords) -> str | None:
    """ "Form 1073", "Exhibit Number 1", "Tab G": the number or the letter names a
    form, not a person."""
    words = c.text.split()
    things = w.numbered_things or frozenset()
    if c.label == "PERSON":
        # Only a model's words, the second a capital, with its period only where a
        # sentence ends there ("Tab G", "at Tab J. He is", "as Exhibit F. The panel"):
        # "Page A. Morrow" is a person with her initial.
        lettered = (
            len(words) >= 2
            and _LETTER_WITH_STOP.fullmatch(words[1])
            and (words[1][-1] != "." or all(x.lower() in (w.stop_words or frozenset()) for x in words[2:]))
            and (len(words) == 2 or words[1][-1] == ".")
            and _model_only(c)
        )
        if lettered and words[0].lower() in things:
            return "letter of a tab or an exhibit"
        # "Case No. C2214873", "Case Nos. JD-1": the word of a numbered record.
        alone = len(words) == 1 or (len(words) == 2 and words[1].rstrip(".") in ("No", "Nos"))
        if alone and _model_only(c) and names_a_record(text, c.start, c.start + len(words[0])):
            return "the word of a numbered record"
        # "Page 2" heading a page, "Q. Page two.": the word of a numbered thing alone,
        # its number after it ("Dolores Page" keeps her given name; "Ms. Page" a cue).
        # A kin word's cue reads on past a list's comma ("his sister, Factor 33 and 34").
        listed = c.rule.startswith("cue:relation") and _A_LIST_S_NUMBER_AFTER.match(text, c.end) is not None
        if (
            len(words) == 1
            and words[0].lower() in things
            and (listed or _model_only(c) and _NUMBER_AFTER.match(text, c.end))
        ):
            return "number of a form or exhibit"
        if len(words) == 1 and words[0].lower() == "bates" and _model_only(c) and _A_STAMP_AFTER.match(text, c.end):
            return "a Bates stamp's word"
        # "the sister's letter, Exhibit D. Did you": a lettered exhibit, the model's span its word.
        lettered_alone = words[0].lower() in _LETTERED_THINGS and _A_LETTER_AFTER.match(text, c.end) is not None
        if len(words) == 1 and lettered_alone and _model_only(c):
            return "letter of a tab or an exhibit"
        # The letter alone, the model leaving out the word before it ("at Tab| J. He"),
        # a sentence going on after it ("Page J. Morrow" is a person's initial).
        if len(words) == 1 and _LETTER_WITH_STOP.fullmatch(words[0]) and _model_only(c):
            before = _THING_BEFORE.search(text, max(0, c.start - 20), c.start)
            after = _WORD_AFTER_LETTER.match(text, c.end)
            ends = after is None or after.group(1).lower() in (w.stop_words or frozenset())
            return "letter of a tab or an exhibit" if before and before.group(1).lower() in things and ends else None
        return None
    if len(words) > 1 and words[0].lower().strip(".") in things and _HAS_DIGIT.search(c.text):
        return "number of a form or exhibit"
    if len(words) == 1 and _model_only(c) and names_a_record(text, c.start, c.end):
        return "the word of a numbered record"  # "(Docket No.⏎9132CR2209)" read as a place
    if c.label in ("LOCATION", "ORGANIZATION") and _model_only(c) and _a_volume_or_a_series_mark(c, text):
        return "a letter, a volume's word or a numeral ('buildings A through H.', 'Vol. IV'), nowhere"
    if _NUMERIC_DATE.fullmatch(c.text.strip()):
        return None  # "page 3/14/2023": a numeric date is no page's number
    if c.label == "PHONE_NUMBER" and _A_DIALLED_NUMBER.fullmatch(c.text.strip()):
        return None  # "the on-call line, 541-555-0190": a telephone line's number, no transcript's line
    window = text[max(0, c.start - 30) : c.start]
    found = list(w.word_before.finditer(window))
    before = [m.group().lower() for m in found]
    # The thing's word stands right before the number: "PAGE 1 3/14/2023" numbers a
    # page, and the date after that number is a date.
    if not (c.text[:1].isdigit() and before) or _HAS_DIGIT.search(window, found[-1].end()):
        return None
    if before[-1] in things or (len(before) > 1 and before[-1] in w.number_words and before[-2] in things):
        return "number of a form or exhibit"
    return None


# A street's hundred block after the number ("the 1900 block of Broadway").
_BLOCK_AFTER = re.compile(r"[ \t\n]+block[ \t]+of\b", re.IGNORECASE)


# A street's name and type after a house's number ("1108 Houston St.").
_STREET_AFTER = re.compile(
    r"[ \t]+(?:[NSEW]\.?[ \t]+)?(?P<name>(?:[A-Z][\w'’-]*[ \t]+){1,3})(?P<type>[A-Z][A-Za-z]*)\b"
)


# A run of digits no calendar writes (a compact date has eight: "20231212").
_RECORD_DIGITS = re.compile(r"(?<!\d)(?:\d{5,7}|\d{9,})(?!\d)")


# A code's part on either side of a numbered date ("Parcel No. 27-07-29-402-011",
# "card number 01-03-99-1990-06-00417"): capitals or digits across a hyphen, a slash or
# a dot; not a range of two dates ("05/2021-09/2023", "03/14/22-03/15/22"), nor a
# file's extension ("log_2023-2024.xlsx").
_CODE_GOES_ON_BEFORE = re.compile(r"[A-Z0-9]{2}[-/.]$")
# A record's cue, then the code's earlier parts up to the date.
_A_RECORD_S_CUE_BEFORE = re.compile(r"(?i:\b(?:no|nos|number|id)\b\.?|#)[ \t]*:?\s*(?:[A-Z0-9]+[-/.])*$")
_CODE_GOES_ON_AFTER = re.compile(r"[-/.][A-Z0-9]")
_A_DATE_BEFORE = re.compile(r"(?:\d{1,2}[/.]){1,2}\d{1,4}-$")
_A_DATE_AFTER = re.compile(r"-(?:\d{1,2}[/.]){1,2}\d{1,4}(?!\d)")
_SEPARATED = re.compile(r"\d[-/.]\d")


def _a_longer_code_s_part(c: Candidate, text: str) -> bool:
    """A numeric date or a year glued to a longer code's other parts after a record's
    "No.", "number" or "#": a numbered date on either side, a year on both. Without
    the cue a date keeps its suffix ("01/15/2020-Present", "DOB 01/02/1980-M")."""
    if _A_RECORD_S_CUE_BEFORE.search(text, max(0, c.start - 40), c.start) is None:
        return False
    window = max(0, c.start - 12)
    before = _CODE_GOES_ON_BEFORE.search(text, max(0, c.start - 2), c.start) is not None
    before = before and _A_DATE_BEFORE.search(text, window, c.start) is None
    after = _CODE_GOES_ON_AFTER.match(text, c.end) is not None and _A_DATE_AFTER.match(text, c.end) is None
    if _SEPARATED.search(c.text):
        return before or after
    return c.text.isdigit() and before and after


# A Commonwealth court's number before its year ("Cause No. E219 of 2022", "I.A. No.
# 90415 of 2025").
_A_COURT_S_NUMBER_BEFORE = re.compile(r"(?:No|NO|Nos)\.?[ \t]*:?\s*[A-Z]{0,3}\d+[ ](?:of|OF)[ ]$")


# A law's year or a code's section before the number ("Criminal Justice Act, 1984",
# "Prison Rules 1999", "18 U.S.C. 1001", "§ 2019"): the law's, no one's date. The law's
# name before its kind ("I told Bill 1998 was the year" is a man's name).
_A_LAW_BEFORE = re.compile(
    r"(?:[A-Z][\w'’)-]*[ \t]+(?:Act|Acts|Regulations|Rules|Ordinance|Statute)"
    r"(?:[ \t]+\([A-Z][\w ]*\))?,?|U\.S\.C\.?(?:[ \t]*§+)?|§+)[ \t]*$"
)


# A reported case's year in brackets after its page ("42 Mass. App. Ct. 1118 (1997)").
_A_CITATION_S_YEAR_AFTER = re.compile(r"[ \t]*\((?:19|20)\d\d\)")
# A reporter's abbreviations before the page ("Mass. App. Ct.", "F. Supp. 2d", "N.E.2d").
_A_REPORTER_BEFORE = re.compile(r"\b(?:[A-Z][A-Za-z]{0,5}\.[ \t]*){1,4}(?:\d[a-z]{1,2}[ \t]+)?$")


# Figures alone a model read as a date, no year of the last two centuries: a
# transcript's page numbers ("1144", "1152   1152" of an exhibit list's columns).
_A_PAGE_S_NUMBERS = re.compile(r"\d{3,4}(?:[ \t]+\d{3,4})*")
_MODERN_YEAR = re.compile(r"(?:18|19|20)\d\d\b")


# Where a page's number stands: alone on its line far to the right, after an index's dot
# leader or a column's gap; the line's end or another column after it. ("at 1545", a
# clock of twenty-four hours, stands in a sentence; "Departure:      1445" after a
# field's colon, and "Time of arrival:⏎1545" at its line's start, are clocks too.)
_SET_APART_BEFORE = re.compile(r"(?:^|\n)[ \t]{8,}$|\.{3,}[ \t]*$|[^\s:][ \t]{3,}$")
_SET_APART_AFTER = re.compile(r"[ \t]*(?:\n|$)|[ \t]{3,}\d")


def _set_apart(c: Candidate, text: str) -> bool:
    return (
        _SET_APART_BEFORE.search(text, max(0, c.start - 40), c.start) is not None
        and _SET_APART_AFTER.match(text, c.end) is not None
    )


def _date(c: Candidate, text: str, w: FilterWords) -> str | None:
    if c.text.isdigit() and _A_LAW_BEFORE.search(text, max(0, c.start - 30), c.start):
        return "no calendar date (a law's year or section: 'Criminal Justice Act, 1984')"
    if _RECORD_DIGITS.search(c.text):
        return "no calendar date (a record's number: 'Case No: 2301234/2024')"
    if _a_longer_code_s_part(c, text) or _A_COURT_S_NUMBER_BEFORE.search(text, max(0, c.start - 40), c.start):
        return "no calendar date (a longer code's part: 'Parcel No. 27-07-29-402-011')"
    if c.text.isdigit() and _BLOCK_AFTER.match(text, c.end):
        return "no calendar date (a street's hundred block)"
    if (
        _model_only(c)
        and _A_PAGE_S_NUMBERS.fullmatch(c.text)
        and not _MODERN_YEAR.match(c.text)
        and _set_apart(c, text)
    ):
        return "no calendar date (a page's number: '1144' atop a transcript's page, an index's '1147')"
    if (
        c.text.isdigit()
        and _A_CITATION_S_YEAR_AFTER.match(text, c.end)
        and _A_REPORTER_BEFORE.search(text, max(0, c.start - 30), c.start)
    ):
        return "no calendar date (a reported case's page: '42 Mass. App. Ct. 1118 (1997)')"
    # A year stays a date after a year's word ("In 2015 California Highway Patrol",
    # "By 2012 Wall Street"); "RESIDENCE: 1987 ELM STREET" is a house's number.
    house = c.text.isdigit() and not a_year_s_event(text, c.start)
    street = _STREET_AFTER.match(text, c.end) if house else None
    if street is not None and street_named(street, c.text):
        return "no calendar date (a house's number)"
    if w.calendar is None or w.calendar.search(c.text):
        return None
    return "no calendar date (month, weekday, year, decade, day or numeric date)"


def _weekday_recurring(c: Candidate, text: str, w: FilterWords) -> str | None:
    """ "meet on Wednesdays", "every Wednesday", "any Thursday": a schedule or any
    such day, which pins no event to a day, so it identifies no one; "on Saturday",
    "that Saturday" and "on a Saturday" do (weekday_alone)."""
    if w.weekday_alone is None or w.weekday_recurring is None:
        return None
    if not w.weekday_alone.fullmatch(c.text.strip(" ,.")):
        return None
    # The words before the span too: the span is often the weekday alone.
    window = text[max(0, c.start - 20) : c.end] if text else c.text
    return "a weekday that recurs or is any one, no date" if w.weekday_recurring.search(window) else None


def _weekday_alone(c: Candidate, text: str, w: FilterWords) -> str | None:
    """ "on Saturday", "this particular Saturday": a weekday with no date; "Thursday,
    October 24" keeps its weekday inside the date's span and is not capped."""
    alone = w.weekday_alone is not None and w.weekday_alone.fullmatch(c.text.strip(" ,."))
    return "weekday without a date" if alone else None


def _duration(c: Candidate, text: str, w: FilterWords) -> str | None:
    if w.duration is None or w.point_in_time is None or w.clock is None:
        return None
    if not w.duration.search(c.text) or w.point_in_time.search(c.text) or w.clock.search(c.text):
        return None
    return "an amount of time, not a point in time"


def _time(c: Candidate, text: str, w: FilterWords) -> str | None:
    if _HAS_DIGIT.search(c.text) or w.time_words is None or w.time_words.search(c.text):
        return None
    return "no digit or clock word"


def _recording_clock(c: Candidate, text: str, w: FilterWords) -> str | None:
    """A model's reading of a subtitle's timing or a meeting transcript's stamp
    (`patterns.recording_stamp`)."""
    match = _CLOCK.search(c.text)
    if match is None or not text:
        return None
    start, end = c.start + match.start(), c.start + match.end()
    if not (
        recording_stamp(text, start, end) or a_tape_counter(text, start, end) or recording_offset(text, start, end)
    ):
        return None
    return "a recording's clock, no time of day"


_CLOCK = re.compile(r"\d{1,2}:\d{2}(?::\d{2})?")


# An initial ("P. ") or a capitalised word ("John ") right before a span.
_NAME_LEAD = re.compile(r"(?<![\w.'’-])(?:[A-Z]\.[ \t]?|([A-Z][a-z]+) )$")


def _second_opinion_one_word(c: Candidate, text: str, w: FilterWords) -> str | None:
    """The encoder read the words and saw no name; its base model's PERSON is kept
    as a second opinion only when it is a full name ("Big Mike", "S. Waugh"): one
    word alone ("Extras", "Briton", "Rotor") was its base model's error as often
    as a name on CoNLL's development set (BENCHMARKS.md). It stays muted on the
    review page, one key from accepted. In a text that writes no name with a
    capital, the base model reads every word in capitals as a name ("FELLOW GRAND
    JURORS WON'T SEE YOUR", "ABRASION"): there its person must be known names only."""
    if c.sources != ("spacy",) or f":{BASE_ONLY}" not in (c.rule or ""):
        return None
    if _caseless(text, c):
        names = _words(c)
        return None if names and all(is_known_name(n) for n in names) else "the base model alone, in a caseless text"
    if len(c.text.split()) > 1:
        return None
    # A given name the lists hold that is no common word ("Her sponsor is Denise"):
    # what a transcript calls a person by, which the encoder's context may miss.
    if c.text in first_names() and not is_common_word(c.text):
        return None
    # An initial or a given name right before it makes it a full name once the edges
    # take them ("P. Simmons", "John Kornblum"): the same words `_take_given_name` in
    # merging/edges.py takes (a given name that is no common word).
    lead = _NAME_LEAD.search(text, max(0, c.start - 30), c.start) if text else None
    if lead is not None:
        given = lead.group(1)
        if given is None or is_person_given_name(given):
            return None
    return "the base model alone called one word a name"


def _line_break(c: Candidate, text: str, w: FilterWords) -> str | None:
    # Transcript text has one utterance per line: a model entity that crosses
    # a line break has glued a heading to the next line; but not a place's name
    # broken after its "St." ("St.⏎Louis"), nor a name prose wrapped (`places.soft_wrap`).
    if "\n" not in c.text or c.sources != ("spacy",):
        return None
    whole = bool(text) and text[c.start : c.end] == c.text
    if whole and (
        broken_only_after_prefixes(text, c.start, c.end)
        or soft_wrap(text, c.start, c.end)
        or (
            c.label in ("ORGANIZATION", "LOCATION")
            and institution_broken_by_a_line(text, c.start, c.end, place=c.label == "LOCATION")
        )
    ):
        return None
    return "crosses a line break"


@dataclass(frozen=True, slots=True)
class Rule:
    name: str
    labels: frozenset[str] | None  # None: every label
    check: Callable[[Candidate, str, FilterWords], str | None]
    description: str
    # None: a firing rule drops the candidate. A number: the candidate stays,
    # its calibrated score capped there (`cap_scores`), the reason in its rule.
    cap: float | None = None


_NOT_PERSON = frozenset(
    {"ORGANIZATION", "LOCATION", "NRP", "ID", "DATE", "TIME", "AGE", "HEIGHT", "PHONE_NUMBER", "SPELLED_OUT_ITEM"}
)
# Rules are data: a corpus turns any of them off by name (see config.py, which
# lists the names and descriptions). They run in this order and the first that
# fires gives the reason.
_CHECKS: dict[str, tuple[frozenset[str] | None, Callable[[Candidate, str, FilterWords], str | None]]] = {
    "line_break": (None, _line_break),
    "role_word": (NAME_LABELS, _role_word),
    "closed_class": (NAME_LABELS, _closed_class),
    "transcript_notation": (None, _notation),
    "common_word": (frozenset({"PERSON", "ORGANIZATION", "LOCATION"}), _common_word),
    "person_name_shape": (frozenset({"PERSON"}), _name_shape),
    "person_single_character": (frozenset({"PERSON"}), _person_single_character),
    "person_digits": (frozenset({"PERSON"}), _person_digits),
    "person_number_field": (frozenset({"PERSON"}), _person_number_field),
    "person_acronym": (frozenset({"PERSON"}), _person_acronym),
    "person_lowercase": (frozenset({"PERSON"}), _person_lowercase),
    "person_word_of_the_text": (frozenset({"PERSON"}), _person_word_of_the_text),
    "person_after_determiner": (frozenset({"PERSON"}), _person_after_determiner),
    "person_common_phrase": (frozenset({"PERSON"}), _person_common_phrase),
    "person_noun_shape": (frozenset({"PERSON"}), _person_noun_shape),
    "person_names_a_work": (frozenset({"PERSON"}), _person_names_a_work),
    "person_eponym": (frozenset({"PERSON", "ORGANIZATION"}), _person_eponym),
    "person_radio_spelling": (frozenset({"PERSON"}), _person_radio_spelling),
    "vehicle": (frozenset({"PERSON", "ORGANIZATION"}), _vehicle),
    "second_opinion_one_word": (frozenset({"PERSON"}), _second_opinion_one_word),
    "model_lowercase_place": (frozenset({"ORGANIZATION", "LOCATION"}), _model_lowercase_place),
    "place_nationality": (frozenset({"LOCATION"}), _place_nationality),
    "named_as_a_language": (frozenset({"PERSON", "ORGANIZATION", "LOCATION"}), _named_as_a_language),
    "holiday": (frozenset({"PERSON", "ORGANIZATION", "LOCATION"}), _holiday),
    "numbered_thing": (_NOT_PERSON | {"PERSON"}, _numbered_thing),
    "date_words": (frozenset({"DATE"}), _date),
    "weekday_recurring": (frozenset({"DATE"}), _weekday_recurring),
    "weekday_alone": (frozenset({"DATE"}), _weekday_alone),
    "duration": (frozenset({"DATE", "TIME"}), _duration),
    "time_words": (frozenset({"TIME"}), _time),
    "recording_clock": (frozenset({"TIME"}), _recording_clock),
}
if list(_CHECKS) != list(FILTER_RULES):
    raise ImportError("filters.py must implement exactly config.FILTER_RULES, in order")
_CAPS: dict[str, float] = {
    "weekday_alone": WEEKDAY_ALONE_SCORE,
    "person_names_a_work": NAMED_WORK_SCORE,
    "person_acronym": ACRONYM_PERSON_SCORE,
}
RULES: tuple[Rule, ...] = tuple(
    Rule(name, *_CHECKS[name], FILTER_RULES[name], _CAPS.get(name)) for name in FILTER_RULES
)


def _skipped(rule: Rule, c: Candidate, disabled: frozenset[str], words: FilterWords) -> bool:
    """Turned off by the corpus, not for this label, or without its words in this language."""
    if rule.name in disabled or (rule.labels is not None and c.label not in rule.labels):
        return True
    return not words.runs(rule.name)


def reject_reason(
    c: Candidate, disabled: frozenset[str] = frozenset(), text: str = "", words: FilterWords | None = None
) -> str | None:
    """Why `c` is no span, or None. `text` is the document (some rules read the
    words before a candidate: "Form 1073"); `words` its language's (English by default)."""
    if not c.text.strip():
        return "blank"  # never a span, whatever the corpus says
    words = words or filter_words()
    for rule in RULES:
        if rule.cap is not None or _skipped(rule, c, disabled, words):
            continue
        reason = rule.check(c, text, words)
        if reason:
            return reason
    return None


def cap_scores(
    spans: list[Candidate], disabled: frozenset[str] = frozenset(), text: str = "", words: FilterWords | None = None
) -> list[Candidate]:
    """The capping rules on the final, calibrated spans: the span stays for the
    reviewer with its score lowered and the reason appended to its rule."""
    words = words or filter_words()
    out = []
    for c in spans:
        for rule in RULES:
            if rule.cap is None or _skipped(rule, c, disabled, words):
                continue
            reason = rule.check(c, text, words)
            if reason and c.score > rule.cap:
                c = replace(c, score=rule.cap, rule=f"{c.rule},{reason}" if c.rule else reason)
        out.append(c)
    return out


def trim_whitespace(c: Candidate) -> Candidate:
    stripped = c.text.strip()
    if stripped == c.text or not stripped:
        return c
    start = c.start + (len(c.text) - len(c.text.lstrip()))
    return Candidate(start, start + len(stripped), c.label, stripped, c.sources, c.score, c.rule)


_WORD = re.compile(r"\S+")
_POSSESSIVE = re.compile(r"(?:['’]s|s['’])$")


# The relations a sentence may open with before a name, as a title ("Daughter Rose"),
# less the kin titles a family calls someone by ("Nana Roz", `edges._strip_rank`).
_RELATION_WORDS = frozenset(w for w in RELATIONS.split("|") if w.isalpha()) - {t.lower() for t in KIN_TITLES}


def _title_at(words: list[re.Match[str]], i: int, lexicon: FilterWords) -> bool:
    """The entity's word `i` is a title, not part of the name: a role word
    ("Commissioner Robert Delgado") or an honorific that is no one's name ("General
    Robert Lee"); an honorific that is also a name only before a given name and one
    more capitalised word ("King Mohammed Idris", "Bishop Desmond Tutu"), since few
    people bear such a given name before a given name ("Major Harris", "Prince
    Jackson" keep theirs; "Lady Bird Johnson" loses hers, a rare price)."""
    word = words[i].group().strip(".,")
    if word.lower() in (lexicon.role_words or frozenset()):
        return True
    if word.lower() in _RELATION_WORDS and i + 1 < len(words) and not is_known_name(word):
        return True  # "Daughter Rose drove her", "Grandson Eli, who is 16": the relation, as a role
    if word.lower() in _OFFICES and 0 < i < len(words) - 1:
        # "Fire Marshal Owen Thibodeaux": an office after its service's common words.
        return all(is_common_word(w.group()) and not is_given_name(w.group()) for w in words[:i])
    if word.lower() not in lexicon.honorifics:
        return False
    if not is_known_name(word):
        return True
    after = [w.group().strip(".,") for w in words[i + 1 : i + 3]]
    return len(after) == 2 and is_given_name(after[0]) and after[1][:1].isupper()


def _name_after_titles(words: list[re.Match[str]], lexicon: FilterWords) -> int:
    """Where the name starts after a title inside the entity's leading words
    ("Prime Minister Tareq Aziz", "German Defence Minister Volker Ruehe", "Anglican
    Bishop Desmond Tutu") or a nationality before it ("American Oliver McCall"): the
    guideline keeps titles outside. A title that is someone's name (`_title_at`)
    or a nationality that is a given name ("German", "Christian") is left in."""
    roles = lexicon.role_words or frozenset()

    def before_a_title(word: str) -> bool:
        # "Prime", "Defence", "German": no one's name before the title ("Ruth Judge
        # Smith" keeps its given name).
        return (
            ((word.lower() in roles or word.lower() in lexicon.honorifics) and not is_known_name(word))
            or word.lower() in NATIONALITIES
            or (is_common_word(word) and not is_given_name(word))
        )

    for i in range(len(words) - 2, -1, -1):
        if not words[i + 1].group()[:1].isupper() or not _title_at(words, i, lexicon):
            continue
        if all(before_a_title(w.group().strip(".,")) for w in words[:i]):
            return i + 1
    first = words[0].group()
    if len(words) > 1 and first[:1].isupper() and first.lower() in NATIONALITIES and not is_given_name(first):
        return 1
    return 0


# Not a name, even when the model's entity runs over it: a detached clitic
# ("Okafor 's" in tokenized text) or stray punctuation ("Dana Whitfield &").
_TRAILING_JUNK = frozenset({"'s", "’s", "'", "’", "&", "-", "–", "—", "(", '"'})


def _heading_s_words(words: list[re.Match[str]]) -> int:
    """Where the name starts after a heading's common words and their "of"
    ("STATEMENT OF RHODA STRAYHORN", "Testimony of Dana Cole"): 0 where no such
    heading leads ("Catherine of Aragon" opens with a given name)."""
    for i, word in enumerate(words[:4]):
        if word.group().lower() == "of" and 0 < i < len(words) - 1:
            lead = [w.group() for w in words[:i]]
            if all(is_common_word(w) and not is_given_name(w) and not is_known_name(w) for w in lead):
                return i + 1
            return 0
    return 0


def _one_word_dropped(c: Candidate) -> bool:
    """The base model's second opinion alone read it (`_second_opinion_one_word`
    drops such a span of one word)."""
    return c.sources == ("spacy",) and f":{BASE_ONLY}" in (c.rule or "")


def trim_person(c: Candidate, lexicon: FilterWords | None = None) -> Candidate:
    """Drop leading titles (see `_title_at`), trailing punctuation and a
    possessive ("Doe's"): the title stays readable context, the possessive stays
    outside the placeholder."""
    lexicon = lexicon or filter_words()
    words = [w for w in _WORD.finditer(c.text)]
    words = words[_heading_s_words(words) :]
    # "Neighbor Gus" as the base model alone read it: the one word left would be
    # dropped (`_second_opinion_one_word`), so the relation stays.
    lead = words[0].group().lower() if words else ""
    relation_only = (
        lead in _RELATION_WORDS and lead not in (lexicon.role_words or ()) and lead not in lexicon.honorifics
    )
    kept_whole = len(words) == 2 and relation_only and _one_word_dropped(c)
    while len(words) > 1 and not kept_whole and _title_at(words, 0, lexicon):
        words.pop(0)
    if not kept_whole:
        words = words[_name_after_titles(words, lexicon) :]
    while len(words) > 1 and words[-1].group() in _TRAILING_JUNK:
        words.pop()
    if not words:
        return c
    start = c.start + words[0].start()
    end = c.start + words[-1].end()
    last = words[-1].group()
    # A final period belongs to an initial ("J.") but not to a sentence ("Smith.").
    trailing = re.search(r"[,;:]+$|(?<=\w\w)\.$", last)
    if trailing:
        end -= len(trailing.group())
        last = last[: -len(trailing.group())]
    possessive = _POSSESSIVE.search(last)
    if possessive and len(last) - len(possessive.group()) >= 2:
        # "Doe's" loses "'s"; "Jones'" loses only the apostrophe.
        end -= len(possessive.group()) - (1 if possessive.group().startswith("s") else 0)
    if (start, end) == (c.start, c.end):
        return c
    return Candidate(start, end, c.label, c.text[start - c.start : end - c.start], c.sources, c.score, c.rule)


def apply_filters(
    candidates: Iterable[Candidate],
    disabled: frozenset[str] = frozenset(),
    text: str = "",
    words: FilterWords | None = None,
) -> tuple[list[Candidate], list[Filtered]]:
    """Trimmed candidates that pass every enabled rule, and the others with their
    reason; `disabled` names rules (see `RULES`) a corpus turned off; `words` are
    the text's language's (a rule without its words there does not run)."""
    words = words or filter_words()
    kept: list[Candidate] = []
    dropped: list[Filtered] = []
    for candidate in candidates:
        candidate = trim_whitespace(candidate)
        if candidate.label == "PERSON":
            candidate = trim_person(candidate, words)
        reason = reject_reason(candidate, disabled, text, words)
        if reason:
            dropped.append(Filtered(candidate, reason))
        else:
            kept.append(candidate)
    return kept, dropped
