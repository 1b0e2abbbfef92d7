"""Propagation: a confident name found once is a name everywhere in the document.

Every confident PERSON (whole and by part), ORGANIZATION, LOCATION, ID and spelled
name is searched for at all its other occurrences through the name identity
(`pipelines.names`: case variants under its case policy, possessives, names
broken across a line, joined and spelled forms), the same identity that groups
apply-to-all and that the export's leak gate uses. Uncovered occurrences become
candidates from the source "propagation".

Only confident names spread (a wrong name spread is a wrong span at every
occurrence): one that comes from the transcript's header, that a cue or a
pattern backs, that two sources agree on, or that a reviewer accepted. A form
that is a closed-class word ("And", "We") or a common English word that is no
known name ("Correct") never spreads.

The words read are the text's language's (`FilterWords`, filtering/words.py):
English's by default; French reads its own closed-class, title and common words
("Monsieur", "Cour" never spread) and its name identity's particles and
determiners. A rule whose list the language lacks does not run.
"""

import re
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterable, Iterator

from pipelines.candidate import Candidate
from pipelines.detection import places
from pipelines.detection.case import carries_case
from pipelines.detection.filtering.filters import column_s_letters, titled_somewhere, verb_before_its_object
from pipelines.detection.filtering.words import FilterWords, filter_words
from pipelines.detection.merging.edges import COMPANY_FORM
from pipelines.gazetteers import is_common_word, is_given_name, is_known_name, is_stop_word
from pipelines.lexicons import HONORIFICS, INSTRUMENT_NOUNS, KIN_TITLES, ORGANIZATION_WORDS, PLACE_WORDS
from pipelines.names import NameIdentity, Occurrence, name_key, name_parts
from pipelines.names import spelled_words as _spelled_words

SOURCE = "propagation"
PROPAGATED_LABELS = frozenset({"PERSON", "ORGANIZATION", "LOCATION", "ID", "SPELLED_NAME"})
# A name already found in this document is strong evidence wherever it recurs:
# above a lone model guess of another label (spaCy scores 0.6), below cues.
SCORE = 0.8
# Sources that are evidence enough on their own: the header's own participant
# list, rules that read a cue or a pattern, and people (reviewers, the corpus
# admin's lists and regexes, and the corpus memory: names reviewers accepted in
# the corpus's approved documents).
CONFIDENT_SOURCES = frozenset({"header", "cues", "patterns", "human", "allow_list", "corpus", "corpus-memory"})
PEOPLE = frozenset({"human", "allow_list", "corpus-memory"})


def confident(
    span: Candidate, repeated: bool = False, words: FilterWords | None = None, lower_case: bool = False
) -> bool:
    """Header, cue, pattern or person; two sources; the model's own finding at two
    places of the document (`repeated`); or a lexicon that agrees with the model:
    a person's name whose every part the name lists (Faker's, in any case) know
    (the gazetteer's vote, also for names in capitals, "JAMES WOOD", and surnames
    it cannot pair, "King White"), a known or place-shaped place, an
    organization word or type, or an acronym."""
    lexicon = words or filter_words()
    sources = set(span.sources) - {SOURCE}
    if sources & CONFIDENT_SOURCES or len(sources) >= 2 or repeated:
        return True
    if span.label == "LOCATION":  # the place lexicons agree
        shaped = lexicon.place_words and places.is_place_shaped(span.text)
        return places.is_known_place(span.text) or shaped
    if span.label == "ORGANIZATION":  # "… Police Department", "… State Prison", "CDCR"
        if lexicon.organization_words is not None:  # the language's own ("Banque", "Société")
            return any(w.casefold() in lexicon.organization_words for w in places.words_of(span.text))
        return organization_signal(span.text)
    if span.label != "PERSON":
        return False
    parts = name_parts(span.text, span.label, lexicon.names)
    if len(parts) == 1:
        return is_known_name(parts[0])
    # Several capitalized words, one of them a known name: "Big Mike", not "Rigor mortis".
    # In a text in lower case capitals say nothing: also a given name first and no
    # common word among the parts ("denise okafor", not "rigor mortis" or "will say").
    # (In capitals the capital check holds: "KEVIN WOOD" is confident as before.)
    words = span.text.split()
    if lower_case and is_given_name(parts[0]) and not any(is_common_word(p) for p in parts):
        return True
    return any(is_known_name(p) for p in parts) and all(w[:1].isupper() for w in words)


def organization_signal(text: str) -> bool:
    return places.organization_signal(text, is_known_name, is_common_word)


def _a_model_s_acronym(span: Candidate, caseless: bool, in_full_names: set[str]) -> bool:
    """A model's person written as an acronym no name list holds and whose letters
    open no word, in a text with case ("ATU Local 1764 v. MVRTA" on every page), or
    three capitals past a column gap ("DOC NT-6302"): a programme's or a body's
    letters; held for the reviewer where found (filters' `person_acronym`), never
    spread. Not a surname the document writes in a full name ("Mai XIONG"), nor one
    whose letters open as a syllable does ("XIONG said", `_no_word_s_opening`)."""
    word = span.text.strip()
    if word in in_full_names:
        return False
    found_by_rules = set(span.sources) & (CONFIDENT_SOURCES | PEOPLE)
    return (
        span.label == "PERSON"
        and not found_by_rules
        and not caseless
        and places.is_acronym(word)
        and (column_s_letters(span) or (not is_known_name(word) and _no_word_s_opening(word)))
    )


_VOWELS = frozenset("AEIOUY")
# Two consonants that open English and romanised names' syllables ("THAO", "NGUYEN",
# "SHAH"): letters that no list holds but open so are a surname's as often ("XIONG",
# "THAO" spread); "MVRTA", "CDCR", "BPH" open no word.
_ONSETS = frozenset(
    "BL BR CH CL CR DR DW FL FR GH GL GN GR GW KH KL KN KR KW NG NY PH PL PR PS QU RH SC SH SK SL SM SN SP ST SW "
    "SZ TH TR TS TW TZ VL VR WH WR ZH".split()
)


def _no_word_s_opening(word: str) -> bool:
    """Letters no word opens with: none a vowel, or two consonants first that open no syllable."""
    letters = word.upper()
    if not _VOWELS & set(letters):
        return True
    return len(letters) > 1 and not _VOWELS & set(letters[:2]) and letters[:2] not in _ONSETS


def _whole_code(text: str, end: int, label: str) -> int:
    """Where an ID the identity found ending at `end` ends: the identity reads
    "25-01873" in "No. 25-01873-jd" (a judge's letters after a case's number)."""
    rest = _CODE_GOES_ON.match(text, end) if label == "ID" else None
    return rest.end() if rest is not None else end


def spelled_words(text: str) -> list[str]:
    """ "R-U-F-F" → ["RUFF"]; "J-O-H-N S-M-I-T-H" → ["JOHN", "SMITH"]: the words a
    spelled name spells (letters joined by hyphens, words apart by spaces)."""
    return [w.upper() for w in _spelled_words(text) if len(w) >= 3]


# A contraction no name takes ("I'm", "they've", "we'll"); not the possessive "'s",
# which names take ("Will's").
_A_PRONOUN_S_CONTRACTION = re.compile(r"['’](?:m|ll|ve|d|re)$")


def _spreadable(text: str, cued: bool = False, words: FilterWords | None = None, caseless: bool = False) -> bool:
    """A form worth spreading: never a closed-class word ("And", "We", "Correct");
    for a model's guess, also no other stop word and no common word that is no
    known name ("Weather"), nor a word that names a place or an institution unless
    it is also a name ("Facility" of a misread institution; but "Wood", "Hall").
    A cue's or the header's name may be a stop word ("called him Will"). In a text
    that writes no name with a capital (`caseless`), a common word never spreads,
    even one that is also a name: "SAID" or "CASE" cannot be told from the word."""
    lexicon = words or filter_words()
    found = [w for w in text.replace("-", " ").split() if w]
    if not found:
        return False
    if len(found) > 1:
        return True
    word = found[0].strip(".,'’:").lower()
    if _A_PRONOUN_S_CONTRACTION.search(word) and _A_PRONOUN_S_CONTRACTION.sub("", word) in lexicon.names.stop_words:
        return False  # "I'm", "we'll", "they've": a pronoun, whatever span held it
    if word in lexicon.never_spread or not any(c.isalpha() for c in word) or _ORDINAL.fullmatch(word):
        return False  # a number or an ordinal names a street only beside its crossing ("1st and 2nd grade")
    if cued:
        return True
    if word in lexicon.names.stop_words:
        return False
    common = lexicon.names.common_word
    if common is not None and common(word) and (caseless or not (is_known_name(word) or places.is_known_place(word))):
        return False
    if not lexicon.place_words:
        return True
    return not ((places.has_institution_word(word) or word in PLACE_WORDS) and not is_known_name(word))


def _forms(span: Candidate, words: FilterWords) -> list[str]:
    """The span's text and, for a person, its name parts (keys of `_dominant_labels`)."""
    return [span.text, *name_parts(span.text, span.label, words.names)]


def _dominant_labels(spans: list[Candidate], words: FilterWords) -> dict[str, str]:
    """For each name (its key), the label it carries most in the document.

    A form is only propagated under that label: spaCy calling one "Marcus Delgado" a
    place must not spread LOCATION over the two other times he is a PERSON."""
    weights: dict[str, dict[str, float]] = {}
    for span in spans:
        label = "PERSON" if span.label == "SPELLED_NAME" else span.label
        for form in _forms(span, words):
            per_label = weights.setdefault(name_key(form, words=words.names), {})
            per_label[label] = per_label.get(label, 0.0) + span.score
    # On a tie the name wins: masking a place as a person leaks nothing.
    return {
        form: max(per_label, key=lambda label: (per_label[label], label == "PERSON"))
        for form, per_label in weights.items()
    }


class _Disjoint:
    """Sorted, non-overlapping intervals with overlap and containment tests by
    bisection: a long transcript has thousands of spans and of occurrences, and a
    scan of every span per occurrence was quadratic."""

    def __init__(self, intervals: list[tuple[int, int]]) -> None:
        ordered = sorted(intervals)
        self.starts = [s for s, _ in ordered]
        self.ends = [e for _, e in ordered]

    def overlaps(self, start: int, end: int) -> bool:
        # Disjoint and sorted, so ends are sorted too: only the last interval
        # starting before `end` can reach past `start`.
        i = bisect_left(self.starts, end)
        return i > 0 and self.ends[i - 1] > start

    def inside_longer(self, start: int, end: int) -> bool:
        i = bisect_right(self.starts, start) - 1
        return i >= 0 and self.ends[i] >= end and self.ends[i] - self.starts[i] > end - start

    def end_of_interval_at(self, position: int) -> int | None:
        """The end of the interval holding `position`, if one does."""
        i = bisect_right(self.starts, position) - 1
        return self.ends[i] if i >= 0 and self.ends[i] > position else None

    def add(self, start: int, end: int) -> None:
        i = bisect_left(self.starts, start)
        self.starts.insert(i, start)
        self.ends.insert(i, end)


_ORDINAL = re.compile(r"\d+(?:st|nd|rd|th)")
# A page's furniture: a word in capitals alone on its line, indented as a heading
# or a column's title is ("                PAGE"), or a word before a page's number
# that ends its line or its column ("DECISION PAGE 1    11/07/2024", "Page 3 of 10").
# Not a name in speech: "I gave Young 50 dollars", a wrapped line "Long⏎testified".
_HEADING_BEFORE = re.compile(r"(?:^|\n)[ \t]{4,}$")
_ALONE_AFTER = re.compile(r"[ \t]*(?:\n|$)")
# The page's number one or two spaces after the word, in capitals ("DECISION PAGE 1
# 11/07/2024") or before "of" ("Page 3 of 10"); not an index's name and its page far
# apart ("YOUNG          12"), nor speech ("I gave Young 50").
_PAGE_NUMBER_AFTER = re.compile(r"[ ]{1,2}\d{1,4}(?:[ ]+of[ ]+\d{1,4}|(?:[ \t]*(?:\n|$)|[ \t]{3}))")
_OF_PAGES_AFTER = re.compile(r"[ ]{1,2}\d{1,4}[ ]+of[ ]+\d{1,4}")


def _furniture(text: str, start: int, end: int) -> bool:
    """A common word where a page's furniture stands: a name that is a common word
    ("Page", "Hunter") spreads to its uses as a name, not to a heading."""
    word = text[start:end]
    if not is_common_word(word):
        return False
    heading = (
        word.isupper()
        and _HEADING_BEFORE.search(text, max(0, start - 80), start) is not None
        and _ALONE_AFTER.match(text, end) is not None
    )
    numbered = word.isupper() and _PAGE_NUMBER_AFTER.match(text, end) is not None
    record = places.names_a_record(text, start, end)  # "Case No. C2214873"
    return (
        heading
        or numbered
        or record
        or _an_acronym_in_a_sentence(text, start, end)
        or _OF_PAGES_AFTER.match(text, end) is not None
        or _a_heading_s_phrase(text, start, end)
    )


# A determiner or a possessive before a word in capitals, a word in lower case after it:
# the word names a thing the sentence goes on about ("Your TIGER assessment", "the LUZ
# program", "an ASL interpreter").
_DETERMINER_BEFORE = re.compile(r"\b(?i:the|a|an|your|my|his|her|our|their|its|this|that)[ \t]+$")
_A_NOUN_AFTER = re.compile(r"[ \t]+[a-z]")


def _a_full_name_ending_in(text: str, word: str) -> bool:
    """The document writes a given name and `word` as a surname ("Mark Price")."""
    return re.search(rf"\b[A-Z][a-z]+[ \t]+{re.escape(word.title())}\b", text) is not None


def _an_acronym_in_a_sentence(text: str, start: int, end: int) -> bool:
    """A common word in capitals between a determiner and a word in lower case, in a
    text with case: a programme's, a test's or an office's letters ("Your TIGER
    assessment is low"), not the nickname "Tiger" said elsewhere, nor a surname in
    capitals ("FAVORS, Dequarius", "Oga TAC would sort it out")."""
    word = text[start:end]
    # The look around the word first; the looks over the whole document last.
    return (
        word.isupper()
        and len(word) >= 3
        and _DETERMINER_BEFORE.search(text, max(0, start - 8), start) is not None
        and _A_NOUN_AFTER.match(text, end) is not None
        and carries_case(text)
        and not titled_somewhere(text, word)  # "Mr. King … The KING file": his surname
        and not _a_full_name_ending_in(text, word)  # "Mark Price testified. The PRICE exhibit"
    )


# The next word on the line, in capitals: "WILL CONTEST", "HUNTER SAFETY".
_CAPITAL_WORD_AFTER = re.compile(r"[ ](?P<w>[A-Z]{3,})\b")


def _a_heading_s_phrase(text: str, start: int, end: int) -> bool:
    """A common word in capitals that opens a phrase of common words on a line in
    capitals, in a text that writes in lower case elsewhere: a caption's or a
    heading's words ("IN RE ESTATE OF SZALAI -- WILL CONTEST"), not the name of Will
    who spoke; a name in capitals beside it ("WILL HUNTER") still is one. A text all
    in capitals says nothing: its names look the same."""
    word = text[start:end]
    if not word.isupper():
        return False
    line_start, line_end = text.rfind("\n", 0, start) + 1, text.find("\n", end)
    line = text[line_start : line_end if line_end != -1 else len(text)]
    if any(ch.islower() for ch in line) or not carries_case(text):
        return False
    # A caption's column or a short heading ("…SZALAI   )   WILL CONTEST"), not a
    # narrative a report writes in capitals ("BOOTH WAS DETAINED AND ADVISED").
    if len(line.split()) > 5 and not re.search(r"\S(?:[ \t]*\)|[ ]{3})[ \t]*$", text[line_start:start]):
        return False
    after = _CAPITAL_WORD_AFTER.match(text, end)
    return after is not None and is_common_word(after.group("w")) and not is_known_name(after.group("w"))


def propagate(text: str, spans: list[Candidate], words: FilterWords | None = None) -> list[Candidate]:
    """New candidates for uncovered occurrences of the confident spans' names.
    `spans` are the merge's output: sorted and non-overlapping; `words` are the
    text's language's (English by default)."""
    lexicon = words or filter_words()
    names = lexicon.names

    def key_of(form: str, label: str = "PERSON") -> str:
        return name_key(form, label, words=names)

    dominant = _dominant_labels(spans, lexicon)
    caseless = not carries_case(text)
    lower_case = caseless and not text.isupper()
    # The words of full names: a surname in capitals no list holds ("Mai XIONG") spreads.
    in_full_names = {w for s in spans if s.label == "PERSON" and len(s.text.split()) > 1 for w in s.text.split()}
    # An occurrence under a span of the same label is already found. One under a
    # different label is proposed anyway: the ensemble then weighs "Delgado" as a
    # propagated PERSON against spaCy's lone guess that it is a place.
    covered = {label: _Disjoint([(s.start, s.end) for s in spans if s.label == label]) for label in PROPAGATED_LABELS}
    # An occurrence inside a longer span of any label is part of that name: "WOOD"
    # (ORGANIZATION elsewhere) must not split "JAMES WOOD".
    extents = _Disjoint([(s.start, s.end) for s in spans])
    forms: dict[str, list[tuple[str, str]]] = {}
    # The model's findings of one name at several places agree with each other.
    found_at: dict[tuple[str, str], int] = {}
    for span in spans:
        if SOURCE not in span.sources or len(span.sources) > 1:
            key = (span.label, key_of(span.text, span.label))
            found_at[key] = found_at.get(key, 0) + 1
    for span in spans:
        repeated = found_at.get((span.label, key_of(span.text, span.label)), 0) >= 2
        if (
            span.label not in PROPAGATED_LABELS
            or not confident(span, repeated, lexicon, lower_case)
            or _a_model_s_acronym(span, caseless, in_full_names)
        ):
            continue
        label = "PERSON" if span.label == "SPELLED_NAME" else span.label
        if span.label == "SPELLED_NAME":
            # A spelled name links back to the name it spells: "R-U-F-F" makes "Ruff"
            # (in any case: "McDonald" is spelled M-C-D-O-N-A-L-D) a PERSON.
            spelled = [w for w in spelled_words(span.text) if dominant.get(key_of(w), "PERSON") == "PERSON"]
            forms.setdefault("PERSON", []).extend((w.lower(), "PERSON") for w in spelled)
            continue
        # What a person decided spreads as the identity says; a machine's guess only
        # when it is no closed-class or common word.
        decided = bool(set(span.sources) & PEOPLE)
        cued = bool(set(span.sources) & CONFIDENT_SOURCES)
        if (
            not (decided or _spreadable(span.text, cued, lexicon, caseless))
            or dominant.get(key_of(span.text), label) != label
        ):
            # The whole form does not spread; a person's parts still may ("Judge Smith").
            if label != "PERSON":
                continue
        else:
            forms.setdefault(label, []).append((span.text, span.label))
            forms[label] += [(short, label) for short in _short_forms(span, dominant, key_of)]
        if label == "PERSON":
            for part in name_parts(span.text, words=names):
                spreads = decided or _spreadable(part, cued, lexicon, caseless)
                if spreads and dominant.get(key_of(part), label) == label:
                    forms.setdefault(label, []).append((part, "PERSON"))
    found: list[Candidate] = []
    for label in sorted(forms):
        # A person's initials with their periods ("R.A.S.") spread only as written: the
        # identity's loose forms of them are words ("as") and other initials ("A.S").
        dotted = _dotted_initials(forms[label], label)
        identity = NameIdentity([f for f in forms[label] if f[0].strip().rstrip(".") not in dotted], names)
        found += _initials_as_written(text, dotted, label, covered[label], extents)
        found += _ranks_as_surnames(text, forms[label], label, covered[label], extents)

        def blocked(start: int, end: int, label: str = label) -> bool:
            return covered[label].overlaps(start, end) or extents.inside_longer(start, end)

        occurrences = identity.find(text, blocked, covered[label].end_of_interval_at)
        stopped = {key_of(form, label) for form, _ in forms[label] if _STOP_INSIDE.search(form)}
        for occurrence in _within_sentences(text, occurrences, stopped):
            start, end = occurrence.start, occurrence.end
            if label == "ORGANIZATION" and places.one_of_a_kind(text, start, end, is_common_word):
                continue  # "a Medical Examiner's Office" is any one, not the one named
            if occurrence.kind == "spelled" and extents.overlaps(start, end):
                continue  # the spelling itself, already a span
            if label == "PERSON" and _no_person_here(text, start, end):
                continue
            end = _whole_code(text, end, label)
            found_label = label if occurrence.kind != "spelled" else "SPELLED_NAME"
            found.append(Candidate(start, end, found_label, text[start:end], (SOURCE,), SCORE, f"propagation:{label}"))
            covered[label].add(start, end)
    found += _families(text, forms.get("PERSON", []), covered["PERSON"], extents)
    found += _initials_introduced(text, spans, covered["PERSON"], extents)
    return sorted(found, key=lambda c: (c.start, c.end))


def _within_sentences(text: str, occurrences: Iterable[Occurrence], stopped: set[str]) -> Iterator[Occurrence]:
    """The occurrences that cross no sentence's end, unless the form they are (its key
    in `stopped`) holds one: the identity reads past punctuation ("Parole Board" in
    "voted to grant parole.⏎Board Members"; "Dept. of Corrections" keeps its stop)."""
    return (o for o in occurrences if o.key in stopped or _STOP_INSIDE.search(text, o.start, o.end) is None)


# A test named after its author, after the name: up to three capitalised words (a
# printed line number may break them), then the instrument's noun, capitalised ("Kaufman
# Brief Intelligence Test", "Hare⏎15   Psychopathy Checklist"; not "Okonkwo tests clean",
# "the Dunleavy battery case").
_INSTRUMENTS = "|".join(sorted(n.capitalize() for n in INSTRUMENT_NOUNS))
_INSTRUMENT_AFTER = re.compile(
    rf"(?:\s+(?:\d{{1,2}}[ \t]+)?[A-Z][\w]*(?:-[A-Z][\w]*)?){{0,3}}\s+(?:\d{{1,2}}[ \t]+)?"
    rf"(?:{_INSTRUMENTS})\b"
)


# A code's further groups after a hyphen, opening with a letter ("25-01873-jd",
# "-CR-2"): the same code. Digits alone after a hyphen may end a range ("BLMC
# 000871-000879": the first page's number is the code).
# Three letters at most in a group: "25-01873-Supplemental" names a paper of the case.
# One letter group, then any groups: no two repeats side by side that trade hyphens.
_CODE_GOES_ON = re.compile(r"-[A-Za-z]{1,3}\d*(?:-[A-Za-z0-9]+)*(?![\w-])")
_DOTTED_INITIALS = re.compile(r"(?:[A-Z]\.[ ]?){1,3}[A-Z]\.?")
# A sentence's end inside a text: a word's last letters and a stop before a space (in
# capitals a longer word's: "St.", "DR." are abbreviations).
_STOP_INSIDE = re.compile(r"(?:[a-z]{2}|[A-Z]{4})[.!?]\s")


def _dotted_initials(forms: list[tuple[str, str]], label: str) -> set[str]:
    """A person's initials with their periods ("R.A.S."), the last period aside."""
    if label != "PERSON":
        return set()
    return {form.strip().rstrip(".") for form, _ in forms if _DOTTED_INITIALS.fullmatch(form.strip())}


def _initials_as_written(
    text: str, dotted: set[str], label: str, covered: "_Disjoint", extents: "_Disjoint"
) -> list[Candidate]:
    """Where the document writes these initials again as they were found, a period
    after the last letter or not ("patient R.W., a 71-year-old" … "with R.W.?")."""
    found: list[Candidate] = []
    for form in sorted(dotted):
        # Not inside a longer acronym ("J.R." of "J.R.C.").
        for match in re.finditer(rf"(?<![\w.]){re.escape(form)}(?:\.(?!\w)|(?![\w.]))", text):
            start, end = match.span()
            if covered.overlaps(start, end) or extents.overlaps(start, end) or _no_person_here(text, start, end):
                continue
            found.append(Candidate(start, end, label, text[start:end], (SOURCE,), SCORE, f"propagation:{label}"))
            covered.add(start, end)
    return found


# A rank used as one: a name after it, its possessive or a line's end between
# ("Constable Kejick", "Constable's Office", "Det. Constable⏎Kejick").
_RANK_USED_AS_A_RANK = re.compile(r"(?:['’]s)?[ \t]*(?:\n[ \t]*(?:\d{1,2}[ \t]+)?)?[ \t]*[A-Z]")
# ... or a word of the phrase it ends before it, on its line: an article, a possessive,
# another capitalised word that is no stop word ("the Sheriff", "our Sheriff", "County
# Sheriff", "Deputy Sheriff"); not a sentence's end or its first word ("Overruled.
# Constable may continue.", "Did Constable speak to her?").
_RANK_PHRASE_BEFORE = re.compile(r"(?:\b(?i:the|a|an|our|his|her|their|my|your|its)|(?P<word>[A-Z][\w'’-]*))[ \t]+$")


def _in_a_rank_s_phrase(text: str, start: int) -> bool:
    before = _RANK_PHRASE_BEFORE.search(text, max(0, start - 20), start)
    return before is not None and not (before.group("word") and is_stop_word(before.group("word")))


def _ranks_as_surnames(
    text: str, forms: list[tuple[str, str]], label: str, covered: "_Disjoint", extents: "_Disjoint"
) -> list[Candidate]:
    """A surname that is a rank ("Mr. Constable", "MR. CONSTABLE:"), which the name
    identity reads as a title: wherever the document writes it again capitalised and
    not as a rank, no name after it and no article before it ("Constable may
    continue"; not "Constable Kejick", "the Constable")."""
    ranks = {
        form.strip().casefold()
        for form, _ in forms
        if label == "PERSON"
        and " " not in form.strip()
        and form.strip().casefold() in HONORIFICS
        and not is_known_name(form.strip())
        and titled_somewhere(text, form.strip())
    }
    found: list[Candidate] = []
    for rank in sorted(ranks):
        for match in re.finditer(rf"(?<![\w'’-])(?i:{re.escape(rank)})(?![\w-])", text):
            start, end = match.span()
            if not text[start].isupper() or covered.overlaps(start, end) or extents.overlaps(start, end):
                continue
            if _RANK_USED_AS_A_RANK.match(text, end) or _in_a_rank_s_phrase(text, start):
                continue
            if _no_person_here(text, start, end):
                continue
            found.append(Candidate(start, end, "PERSON", text[start:end], (SOURCE,), SCORE, "propagation:PERSON"))
            covered.add(start, end)
    return found


def _no_person_here(text: str, start: int, end: int) -> bool:
    """A person's name that names something else where it is written: Commissioner
    Page's name is no "PAGE" column heading nor "DECISION PAGE 1" (`_furniture`); Dr.
    Kaufman's in "the Kaufman Brief Intelligence Test" names the test; Sue Tell's
    is no "Tell us about" (`filters.verb_before_its_object`); Ms. Her's is no "her
    mother" written in lower case, a pronoun; K. A. Maigari's initials are no "k.a" of
    "a.k.a." (`_inside_a_dotted_abbreviation`)."""
    word = text[start:end]
    return (
        (word.islower() and is_stop_word(word))
        or (_LOWER_INITIALS.fullmatch(word) is not None and _inside_a_dotted_abbreviation(text, start, end))
        or _furniture(text, start, end)
        or _INSTRUMENT_AFTER.match(text, end) is not None
        or verb_before_its_object(text, start, end)
    )


# Letters and periods on either side of an occurrence: it is part of a longer dotted
# abbreviation ("a.k.a.", "e.g.", "i.e."), no one's initials.
# (Initials only: a surname in a handle, "oz.osterhaus", is still the name.)
_LOWER_INITIALS = re.compile(r"[a-z](?:\.[ ]?[a-z])+\.?")
_DOTTED_LETTER_BEFORE = re.compile(r"[A-Za-z]\.$")
_DOTTED_LETTER_AFTER = re.compile(r"\.?[A-Za-z]\.")


def _inside_a_dotted_abbreviation(text: str, start: int, end: int) -> bool:
    return (
        _DOTTED_LETTER_BEFORE.search(text, max(0, start - 2), start) is not None
        or _DOTTED_LETTER_AFTER.match(text, end) is not None
    )


# Initials a document introduces for a person in brackets ("Gavin Cordray, CEO (GC)",
# "incl. TA (BK below)", "Bryce Kohut (\"BK\")"), as a mediator's or a clinician's
# notes and a brief do: two or three capitals.
_INTRODUCED_INITIALS = re.compile(r"\((?:[\"“])?(?P<i>[A-Z]{2,3})(?:[\"”])?(?:[ \t]+below)?\)")


# Acronyms a transcript uses for other things than a person (states' postal codes among
# them): the initials of no one there.
_COMMON_ACRONYMS = frozenset(
    """IT MD PM AM US TV ID PC HR IQ DA DC LA NY PA VA CA TX FL GA MA NJ NC SC OH MI IL WA CO AZ NV UT NM AL AR
    KY TN MS MO MN WI IA KS NE SD ND MT WY ME NH VT RI CT DE WV AK HI RN NP DO DR MR JR SR AA AP BA BS GED CPS DUI
    DWI ER ICU EMT CPR BP HIV STD IEP SSI SSA VP CEO CFO COO CIO CTO PR QA IP UK EU UN""".split()
)


def _initials_introduced(
    text: str, spans: list[Candidate], covered: "_Disjoint", extents: "_Disjoint"
) -> list[Candidate]:
    """The introduced initials of one person the document names in full (the
    initials of "Gavin Cordray" are "GC"; with a middle name, "GAC" or "GC"),
    wherever they stand alone in capitals: that person, PERSON. Initials two
    people share, or that no full name has, name no one here ("Gillian Ormerod"
    and "G. Ormerod" are one person, "Jane Smith" and "John Smith" two)."""
    # Not initials that are a common acronym ("IT", "MD", "PM"), which the document
    # uses for that too. "OK" is let through: a document that names someone so
    # ("Orson Kirkland (OK)") writes the person's initials more than the word, and
    # a leak is worse than a reviewer's rejection.
    introduced = {i for m in _INTRODUCED_INITIALS.finditer(text) if (i := m.group("i")) not in _COMMON_ACRONYMS}
    if not introduced:
        return []
    owners: dict[str, set[str]] = {}
    for span in spans:
        words = [w for w in re.findall(r"[A-Za-z][\w'’-]*", span.text) if w[0].isupper()]
        if span.label != "PERSON" or len(words) < 2:
            continue
        name = (words[0].casefold(), words[-1].casefold())
        for initials in {"".join(w[0] for w in words), words[0][0] + words[-1][0]}:
            if initials in introduced:
                owners.setdefault(initials, set()).add(name)
    found = []
    for initials, names in owners.items():
        # "G. Ormerod" is "Gillian Ormerod" again, not a second owner of "GO": one
        # surname, and one given name written in full at most.
        if len({surname for _, surname in names}) != 1 or len({g for g, _ in names if len(g) > 1}) > 1:
            continue
        for match in re.finditer(rf"(?<![\w.'’&/-]){initials}(?![\w&/-])", text):
            start, end = match.span()
            # One a model typed otherwise ("(OK)" read as Oklahoma) is proposed anyway,
            # as propagation does; one inside a longer span is part of that name.
            if covered.overlaps(start, end) or extents.inside_longer(start, end):
                continue
            found.append(Candidate(start, end, "PERSON", initials, (SOURCE,), SCORE, "propagation:initials"))
            covered.add(start, end)
    return found


# A company's legal form at the end of its name, a comma before it or not.
_LEGAL_FORM_TAIL = re.compile(COMPANY_FORM.pattern + "$")


def short_company_name(name: str) -> str | None:
    """The name a company goes by in speech: its full name less its legal form and
    the trade words that end it ("Prairie Wind Freight Lines, Inc." → "Prairie
    Wind"). Two words at least ("Kittredge Auto Electric" gives none: one word may
    be its founder's surname), in one line, and no place ("St. Louis County" of
    "St. Louis County Police Department"); None when nothing is left off."""
    if "\n" in name:
        return None
    core = _LEGAL_FORM_TAIL.sub("", name.strip())
    words = core.split()
    while len(words) > 2 and words[-1].lower().strip(",") in ORGANIZATION_WORDS:
        words.pop()
    short = " ".join(words)
    if len(words) < 2 or short == name.strip() or "&" in words or any(w.lower() in ORGANIZATION_WORDS for w in words):
        return None
    if words[-1].lower() in PLACE_WORDS or places.is_known_place(short):
        return None  # "St. Louis County" of its Police Department is the county
    if words[0] in KIN_TITLES:
        return None  # "Uncle Jun's" of "Uncle Jun's Carryout" is how the family calls Jun too
    return short


def _short_forms(span: Candidate, dominant: dict[str, str], key_of: Callable[[str, str], str]) -> list[str]:
    """The short name of a company that spreads (`short_company_name`), or the letters
    an institution's name opens with ("MVRTA" of "MVRTA Administration Building"),
    unless the document gives that name another label."""
    if span.label != "ORGANIZATION":
        return []
    shorts = [short_company_name(span.text), _leading_acronym(span.text)]
    return [s for s in shorts if s is not None and dominant.get(key_of(s, span.label), span.label) == span.label]


def _leading_acronym(name: str) -> str | None:
    """The capitals that open an institution's name of several words, three or more and
    no word, name or place ("MVRTA Administration Building", not "ICE Hockey League")."""
    words = name.split()
    lead = words[0] if len(words) > 1 else ""
    if not (3 <= len(lead) <= 6 and lead.isalpha() and lead.isupper()) or name.isupper():
        return None
    if is_common_word(lead) or is_known_name(lead) or places.is_known_place(lead):
        return None
    return lead


def _families(text: str, forms: list[tuple[str, str]], covered: "_Disjoint", extents: "_Disjoint") -> list[Candidate]:
    """A family called by the plural of a confident surname: "the Haddads", "the
    Bukowskis"; capitalised where the text writes names so. Not a surname that is a
    common word ("Wood": "in the woods"), nor a plural that is one ("the Banks")."""
    caseless = not carries_case(text)
    surnames = {
        form.strip()
        for form, _ in forms
        if " " not in form.strip() and len(form.strip()) > 2 and not is_common_word(form.strip())
    }
    found: list[Candidate] = []
    if not surnames:
        return found
    # One pass over the text for all the surnames, longest first.
    alternatives = "|".join(re.escape(f) for f in sorted(surnames, key=lambda f: (-len(f), f)))
    plural = re.compile(
        rf"(?<![\w'’-])(?:the|both|those|these|all[ \t]+the)[ \t]+(?P<v>(?:{alternatives})(?:s|es))(?![\w-]|['’]\w)",
        re.IGNORECASE,
    )
    for match in plural.finditer(text):
        start, end = match.span("v")
        word = match.group("v")
        if not caseless and not word[0].isupper():
            continue
        if is_common_word(word) or covered.overlaps(start, end) or extents.overlaps(start, end):
            continue
        found.append(Candidate(start, end, "PERSON", word, (SOURCE,), SCORE, "propagation:PERSON:family"))
        covered.add(start, end)
    return found
