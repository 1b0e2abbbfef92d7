"""Merging candidates from every recognizer into one non-overlapping span list.

The resolution policy, in order:
1. Overlapping candidates form a cluster. In a cluster, each label is weighed by
   the sum over its sources of each source's best score times the source weight;
   the heaviest label wins (ties: the longer extent, then the earlier label in `LABEL_PRIORITY`).
2. The winner spans the union of its own label's candidates, so "John" (spaCy) and
   "John Doe" (cue) become "John Doe"; it keeps every agreeing source, and a
   noisy-or of their scores.
3. Candidates of the cluster that do not overlap the winner are resolved again,
   so a losing label never swallows text outside the winner; nor does the winner
   swallow a loser's text outside itself: that part ("Yazzie" of a losing
   "Crystal Yazzie") is resolved again too, when the cut falls between words.
4. Adjacent spans of the same label separated only by a gap that the label allows
   (seed 000: "John" + "Doe" across one space) are merged.

Before the merge, `vote` can keep only the candidates that enough distinct
sources agree on (the per-corpus modes "intersection" and "vote", see config.py).
"""

import re
from bisect import bisect_left
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import replace

from pipelines.candidate import Candidate, joined
from pipelines.detection import places
from pipelines.detection.case import caseless_at
from pipelines.detection.config import SOURCE_WEIGHTS
from pipelines.detection.merging.edges import (
    COMPANY_FORM,
    ends_an_institution,
    ends_in_a_join,
    short_given_name_before,
    surname_first_part,
    tidy,
)
from pipelines.gazetteers import (
    first_names,
    is_common_word,
    is_english_word,
    is_given_name,
    is_known_name,
    is_stop_word,
    wide_last_names,
)
from pipelines.lexicons import (
    ABBREVIATED_NAME_SUFFIXES,
    MONTHS,
    NAME_END_STREET_TYPES,
    NAME_PARTICLES,
    STREET_ORDINALS,
    US_STATES,
)

# On equal weight, more specific labels win: a spelled name is a person's name in
# letters, an ID is more specific than a date-looking number.
LABEL_PRIORITY: tuple[str, ...] = (
    "SPELLED_NAME",
    "EMAIL_ADDRESS",
    "URL",
    "PHONE_NUMBER",
    "ID",
    "AGE",
    "HEIGHT",
    "TIME",
    "DATE",
    "PERSON",
    "SPELLED_OUT_ITEM",
    "ORGANIZATION",
    "LOCATION",
    "NRP",
)
ADJACENT_GAPS: dict[str, re.Pattern[str]] = {
    # A space, or a middle initial no one read ("Austin W. Marchetti").
    "PERSON": re.compile(r"[ \t]|[ \t][A-Z]\.[ \t]"),
    "ORGANIZATION": re.compile(r"[ \t]"),
    # Not across a comma: "Folsom, California" is a city and a state (the shared
    # guideline: comma-separated parts are separate spans).
    "LOCATION": re.compile(r"[ \t]"),
    "DATE": re.compile(r"[ \t]|,[ \t]|[ \t]of[ \t]"),
}


# Words with their contractions ("I'm": a stop word, `is_stop_word`).
_WORDS = re.compile(r"\w+(?:['’]\w+)*")


def _priority(label: str) -> int:
    return LABEL_PRIORITY.index(label) if label in LABEL_PRIORITY else len(LABEL_PRIORITY)


def _combined_score(scores: Iterable[float]) -> float:
    miss = 1.0
    for score in scores:
        miss *= 1.0 - min(max(score, 0.0), 1.0)
    return 1.0 - miss


def _clusters(candidates: list[Candidate]) -> list[list[Candidate]]:
    clusters: list[list[Candidate]] = []
    end = -1
    for candidate in sorted(candidates, key=lambda c: (c.start, -c.end)):
        if clusters and candidate.start < end:
            clusters[-1].append(candidate)
            end = max(end, candidate.end)
        else:
            clusters.append([candidate])
            end = candidate.end
    return clusters


def _resolve_cluster(text: str, cluster: list[Candidate], source_weights: dict[str, float]) -> list[Candidate]:
    # Each source votes once per label, with its best candidate: two pieces of one
    # spaCy DATE ("1111", "1111") must not outweigh presidio's whole credit card.
    best: dict[tuple[str, str], float] = {}
    for c in cluster:
        for s in c.sources:
            key = (c.label, s)
            best[key] = max(best.get(key, 0.0), c.score * source_weights.get(s, 1.0))
    weights: dict[str, float] = defaultdict(float)
    for (label_, _source), weight in best.items():
        weights[label_] += weight

    def extent(label: str) -> int:
        members = [c for c in cluster if c.label == label]
        return max(c.end for c in members) - min(c.start for c in members)

    label = max(weights, key=lambda lb: (round(weights[lb], 6), extent(lb), -_priority(lb)))
    members = [c for c in cluster if c.label == label]
    start = min(c.start for c in members)
    end = max(c.end for c in members)
    sources = tuple(sorted({s for c in members for s in c.sources}))
    rules = sorted({c.rule for c in members if c.rule})
    best_per_source: dict[str, float] = {}
    for c in members:
        for s in c.sources:
            best_per_source[s] = max(best_per_source.get(s, 0.0), c.score)
    winner = Candidate(
        start, end, label, text[start:end], sources, _combined_score(best_per_source.values()), ",".join(rules)
    )
    rest = [c for c in cluster if not (c.start < end and start < c.end)]
    rest += [
        r
        for c in cluster
        if c.label != label and c.start < end and start < c.end
        for r in _remainders(text, c, start, end)
    ]
    return [winner, *resolve_overlaps(text, rest, source_weights)] if rest else [winner]


_EDGE = " \t\n,;:.&-–—'’\"()"


def _remainders(text: str, loser: Candidate, start: int, end: int) -> list[Candidate]:
    """The parts of a losing candidate outside the winner [start, end): they stay
    in the running. "Crystal Yazzie" (PERSON, 0.5) losing "Crystal" to a stronger
    ORGANIZATION must not take "Yazzie" down with it. A part is kept only when the
    cut falls between words and it holds a word that is not a stop word."""
    parts = []
    if loser.start < start:
        parts.append((loser.start, start))
    if loser.end > end:
        parts.append((end, loser.end))
    kept = []
    for a, b in parts:
        for cut in (a, b):
            if 0 < cut < len(text) and text[cut - 1].isalnum() and text[cut].isalnum():
                break  # the winner ends inside a word: no clean part
        else:
            while a < b and text[a] in _EDGE:
                a += 1
            while b > a and text[b - 1] in _EDGE:
                b -= 1
            words = _WORDS.findall(text[a:b])
            if words and not all(is_stop_word(w) for w in words):
                kept.append(Candidate(a, b, loser.label, text[a:b], loser.sources, loser.score, loser.rule))
    return kept


def resolve_overlaps(
    text: str, candidates: list[Candidate], source_weights: dict[str, float] | None = None
) -> list[Candidate]:
    weights = SOURCE_WEIGHTS if source_weights is None else source_weights
    resolved: list[Candidate] = []
    for cluster in _clusters(candidates):
        resolved.extend(_resolve_cluster(text, cluster, weights))
    return sorted(resolved, key=lambda c: c.start)


# A nickname in quotes inside a name ('Beatrice "Bea" Okonjo'): one name, as
# annotators mark it.
_QUOTE_OPENS = re.compile(r"[ \t]+[\"“]")
_UNREAD_NICKNAME = re.compile(r"[ \t]+[\"“][A-Z][\w'’-]*(?:[ ][A-Z][\w'’-]*)?[\"”][ \t]+")
_QUOTE_CLOSES = re.compile(r"[\"”][ \t]+")


def _quoted_nickname(text: str, spans: list[Candidate], i: int, last: Candidate) -> bool:
    """spans[i] is a nickname in quotes between `last` and spans[i + 1], all persons."""
    if i + 1 >= len(spans) or not (last.label == spans[i].label == spans[i + 1].label == "PERSON"):
        return False
    nick, after = spans[i], spans[i + 1]
    return bool(
        _QUOTE_OPENS.fullmatch(text, last.end, nick.start) and _QUOTE_CLOSES.fullmatch(text, nick.end, after.start)
    )


# A numbered page's wrap: a line's end, the next line's number and its left margin;
# a heading centred on the next line sits far past the margin ("Junction City
# Campus⏎ 19                   Treatment Mall": two names).
_NUMBERED_LINE_BREAK = re.compile(places.LINE_END + r"\d{1,2}[ \t]{1,8}")
_INSTITUTION_LABELS = frozenset({"ORGANIZATION", "LOCATION"})


def _institution_across_a_numbered_line(text: str, last: Candidate, span: Candidate, between: str) -> bool:
    """A place or a name ending one numbered line and an institution opening the
    next, which the model read as two ("San Diego County⏎16  District Attorney's
    Office", "Southwestern⏎20  College"): one institution. Only across a printed
    line number (a page's wrap, not a heading over the next line) and only where
    the second holds an institution's word; across a plain line's end, where prose
    wrapped (a word in lower case before it on its line) and the second ends in an
    institution's or a trade's head ("I went to Piedmont⏎Family Urgent Care")."""
    if last.label not in _INSTITUTION_LABELS or span.label not in _INSTITUTION_LABELS:
        return False
    if _NUMBERED_LINE_BREAK.fullmatch(between) is not None and places.has_institution_word(span.text):
        return True
    return (
        _LINE_BREAK.fullmatch(between) is not None
        and ends_an_institution(span.text)
        and _PROSE_BEFORE.search(text, text.rfind("\n", 0, last.start) + 1, last.start) is not None
    )


# A word in lower case: the line is prose, not a heading or a list in capitals.
_PROSE_BEFORE = re.compile(r"\b[a-z]{2,}\b")


_BLANKS = re.compile(r"[ \t]+")


def _institution_goes_on(text: str, last: Candidate, span: Candidate) -> bool:
    """An organization and what completes its name, read as two: its legal form
    ("GOLDEN STATE RESIDENTIAL FUND III" + ", LLC"), or the place or the name its
    dangling "of" takes, on its line or the next ("Housing Authority of the
    County of" + "San Joaquin")."""
    if last.label != "ORGANIZATION":
        return False
    # The form whole, or a piece of it a model read ("(PTY" of "(PTY) LTD").
    form = COMPANY_FORM.match(text, last.end)
    if form is not None and last.end <= span.start and span.end <= form.end():
        return True
    between = text[last.end : span.start]
    return (
        span.label in _INSTITUTION_LABELS
        and ends_in_a_join(last.text)
        and (_BLANKS.fullmatch(between) is not None or _LINE_BREAK.fullmatch(between) is not None)
    )


# A date's year on the next line, after the page's printed line number ("March 22,⏎ 4
# 2025", "29th day of April,⏎14  2024"): one date, as a court transcript breaks it.
_LINE_BREAK_IN_A_DATE = re.compile(r",?[ \t]*\n[ \t]*(?:\d{1,2}[ \t]+)?")
_A_YEAR = re.compile(r"(?:\d{1,2}[ \t]+)?(?:1[89]|20)\d\d")
_A_MONTH = re.compile(rf"(?i)\b{MONTHS}\b")


# The year ends the date's phrase: "in May,⏎5  1999 Corolla" is a car's model year,
# "June,⏎8  2000 people" a count.
_PHRASE_ENDS = re.compile(r"[ \t]*(?:[.,;:)]|\n|$)")


def _year_on_the_next_line(text: str, last: Candidate, span: Candidate, between: str) -> bool:
    return (
        last.label == "DATE"
        and _PHRASE_ENDS.match(text, span.end) is not None
        and _LINE_BREAK_IN_A_DATE.fullmatch(between) is not None
        and _A_YEAR.fullmatch(span.text) is not None
        and re.search(r"\d{4}", last.text) is None
        and _A_MONTH.search(last.text) is not None
    )


# A weekday's or a month's day in apposition, by its number or its ordinal ("on Monday,
# the 8th of July 2024", "in September, the 20th", "Friday, the eighth of September").
_THE_DAY_AFTER = re.compile(r",[ \t]the[ \t]")
_DAY_ORDINALS = "|".join(sorted(STREET_ORDINALS | {"thirtieth"}, key=len, reverse=True))
# (A day's number, not a year: "In March, the 2020 budget" is a month and a year.)
_A_DAY_S_NUMBER = re.compile(rf"(?:[12]\d|3[01]|0?[1-9])(?!\d)|(?i:(?:(?:twenty|thirty)[- ]?)?(?:{_DAY_ORDINALS}))\b")


def _the_day_in_apposition(last: Candidate, span: Candidate, between: str) -> bool:
    """Not a date then its weekday ("21 July, the Monday going into the Tuesday") nor a
    year then another date ("Later 1980, the May 18th thing"): two dates."""
    return (
        last.label == "DATE"
        and _THE_DAY_AFTER.fullmatch(between) is not None
        and _A_DAY_S_NUMBER.match(span.text) is not None
        and _A_DAY_S_NUMBER.match(last.text) is None
    )


def merge_adjacent(text: str, spans: list[Candidate]) -> list[Candidate]:
    merged: list[Candidate] = []
    named = _given_then_surname(spans)
    i = 0
    while i < len(spans):
        span = spans[i]
        if merged:
            last = merged[-1]
            if _quoted_nickname(text, spans, i, last):
                merged[-1] = joined(text, [last, span, spans[i + 1]])
                i += 2
                continue
            gap = ADJACENT_GAPS.get(span.label)
            between = text[last.end : span.start]
            if last.label == span.label == "PERSON" and _UNREAD_NICKNAME.fullmatch(between):
                merged[-1] = joined(text, [last, span])  # 'Orville "Hoss" Hatchett': no one read "Hoss"
                i += 1
                continue
            if last.label == "PERSON" and _particles_join(last, span, between):
                merged[-1] = joined(text, [last, span], "PERSON")  # "Efraín de| la Cruz": a model's place
                i += 1
                continue
            if _an_abbreviated_given_name(text, last, span):
                merged[-1] = joined(text, [last, span], "PERSON")  # "Ma. Teresita": María, not Massachusetts
                i += 1
                continue
            if last.label == span.label and (
                (gap is not None and gap.fullmatch(between))
                or _name_broken_across_lines(text, last, span, between)
                or _year_on_the_next_line(text, last, span, between)
                or _the_day_in_apposition(last, span, between)
            ):
                merged[-1] = joined(text, [last, span])
                i += 1
                continue
            surname_first = _surname_first(named, last, span, between) or _capitals_surname_first(
                text, last, span, between
            )
            if surname_first and _INITIALS_ONLY.fullmatch(span.text):
                merged[-1] = joined(text, [last, span], "PERSON")  # "ROBERTS, C.J.": a surname and its initials
                i += 1
                continue
            if surname_first:
                # Two names, the surname and the given names, as the guideline keeps
                # comma-separated parts; both a person's, whatever a model read. A
                # middle initial ends the given names ("FONTENOT, LEROY D.").
                initial = _TRAILING_INITIAL.match(text, span.end)
                merged[-1] = surname_first_part(replace(last, label="PERSON"))
                given = surname_first_part(replace(span, label="PERSON"))
                i += 1
                # The initial a model read as a thing of its own ("D." a place) is the name's.
                if initial is not None and i < len(spans) and _only_the_initial(spans[i], initial):
                    i += 1
                if initial is not None and (i == len(spans) or spans[i].start >= initial.end()):
                    given = replace(given, end=initial.end(), text=text[span.start : initial.end()])
                merged.append(given)
                continue
            if _institution_across_a_numbered_line(text, last, span, between) or _institution_goes_on(text, last, span):
                merged[-1] = joined(text, [last, span], "ORGANIZATION")
                i += 1
                # A form a model read in pieces ("(PTY" and "LTD"): the name takes it whole.
                form = COMPANY_FORM.match(text, last.end) if last.label == "ORGANIZATION" else None
                if form is not None and form.end() > merged[-1].end:
                    while i < len(spans) and spans[i].end <= form.end():
                        i += 1
                    merged[-1] = replace(merged[-1], end=form.end(), text=text[merged[-1].start : form.end()])
                continue
        merged.append(span)
        i += 1
    return merged


_PARTICLE = "(?:" + "|".join(sorted(NAME_PARTICLES)) + ")"
# A surname's particles between a given name and the rest ("Efraín de| la Cruz",
# "Commissioner van| der Berg"), or opening the rest.
_PARTICLES_BETWEEN = re.compile(rf"[ \t]+(?:{_PARTICLE}[ \t]+){{1,3}}")
_PARTICLE_OPENS = re.compile(rf"{_PARTICLE}(?:[ \t]+{_PARTICLE})*[ \t]+[A-Z]")


def _particles_join(last: Candidate, span: Candidate, between: str) -> bool:
    """`span`, a name a model read, goes on `last`'s person's name across or after a
    surname's particles."""
    if span.label not in _NAME_LABELS_READ or not set(span.sources) <= _MODEL_READ:
        return False
    across = _PARTICLES_BETWEEN.fullmatch(between) is not None and span.text[:1].isupper()
    opens = between in (" ", "\t") and _PARTICLE_OPENS.match(span.text) is not None
    return across or opens


def _an_abbreviated_given_name(text: str, last: Candidate, span: Candidate) -> bool:
    """`last` is what a model read of a given name written short before the rest of
    the name (`edges.short_given_name_before`: "Ma. Teresita Magsino", "MA. TERESITA",
    a model's "Ma" a state's code), not a state's code itself ("Boston, MA. Teresita")."""
    return (
        span.label == "PERSON"
        and last.label in _NAME_LABELS_READ
        and set(last.sources) <= _MODEL_READ
        and short_given_name_before(text, span.start) == last.start
    )


def _only_the_initial(span: Candidate, initial: re.Match[str]) -> bool:
    """`span` is a model's reading of the initial alone ("D." as a LOCATION)."""
    return span.start == initial.end() - 2 and span.end == initial.end() and set(span.sources) <= _MODEL_READ


_COMMA_GAP = re.compile(r",[ \t]+")
_A_SURNAME_S_COMMA_BEFORE = re.compile(r"(?<![\w'’-])(?P<s>[A-Z][A-Z'’-]+),[ \t]+$")
_INITIALS_ONLY = re.compile(r"(?:[A-Z]\.[ ]?){1,3}")
_TRAILING_INITIAL = re.compile(r"[ \t]+[A-Z]\.(?=[ \t\n]|$)")


def _given_then_surname(spans: list[Candidate]) -> frozenset[tuple[str, str]]:
    """(a word, a later word) of every person's name of two words or more, case
    folded: the pairs a name written surname first is checked against, once per
    merge (a long roster holds many)."""
    pairs: set[tuple[str, str]] = set()
    for span in spans:
        words = [w.casefold() for w in span.text.split()] if span.label == "PERSON" else []
        pairs.update((a, b) for i, a in enumerate(words) for b in words[i + 1 :])
    return frozenset(pairs)


def _surname_first(named: frozenset[tuple[str, str]], last: Candidate, span: Candidate, between: str) -> bool:
    """ "PETTIGREW, ROSALIND" (a decision page's footer, a roster): a name written
    surname first (two names, both the person's), when the document names the person
    given name first elsewhere ("Rosalind June Pettigrew": `named`,
    `_given_then_surname`). Without that, "Smith, John and I" lists two people."""
    if not (last.label == span.label == "PERSON" and _COMMA_GAP.fullmatch(between)):
        return False
    surname, given = last.text.split(), span.text.split()
    surname_key, given_key = surname[0].casefold(), given[0].casefold()
    # "Mr. Brown, Kevin Brown": the name said again in full, not surname first.
    if len(surname) != 1 or not 1 <= len(given) <= 2 or surname_key in (w.casefold() for w in given):
        return False
    return (given_key, surname_key) in named


_NAME_LABELS_READ = frozenset({"PERSON", "LOCATION", "ORGANIZATION"})
# What a model or a list read, not a cue, a pattern or a person.
_MODEL_READ = frozenset({"spacy", "presidio", "gazetteer", "propagation"})


def _capitals_surname_first(text: str, last: Candidate, span: Candidate, between: str) -> bool:
    """ "HOWELL, MIRACLE", "DOBBINS, LAMONTE R." (a call log's, a roster's fields in
    capitals): a surname, a comma, a given name, which a model read as two things
    (a town and a company). A person's two names: the surname one the lists know, the
    given name one and no place ("MADISON, GEORGIA" is a town in its state)."""
    if not (_COMMA_GAP.fullmatch(between) and last.label in _NAME_LABELS_READ and span.label in _NAME_LABELS_READ):
        return False
    if not set(last.sources) | set(span.sources) <= _MODEL_READ:
        return False
    surname, given = last.text.split(), span.text.split()
    if len(surname) != 1 or not 1 <= len(given) <= 2 or not (last.text.isupper() and given[0].isupper()):
        return False
    first = given[0].strip(".,")
    # The given name: one the narrow lists hold, or a given name that is no surname
    # too ("DEFENDANTS: SMITH, JOHNSON, AND WILLIAMS" lists surnames), or a word the
    # model read as a person that is no surname and no common word ("KENDARIUS").
    given_only = first.title() in first_names() or (
        (is_given_name(first) or (span.label == "PERSON" and not is_common_word(first)))
        and first.title() not in wide_last_names()
    )
    # The surname: one the lists know; one the model read as a person that is no word
    # and no place ("PETROVIC, NADIA M."); or, both halves read as a person's, a word
    # before a given name the narrow lists hold ("SWAN, ARVID TORVALD").
    known = (
        surname[0].title() in wide_last_names()
        or (last.label == "PERSON" and not is_common_word(surname[0]) and not places.is_known_place(surname[0]))
        or (last.label == span.label == "PERSON" and first.title() in first_names())
    )
    # A given name that is a town too ("ORVILLE") only where the model read a person;
    # no list going on after it.
    return (
        known
        and given_only
        and (span.label == "PERSON" or not places.is_known_place(first))
        and first.casefold() not in US_STATES
        and _LIST_GOES_ON.match(text, span.end) is None
    )


_LIST_GOES_ON = re.compile(r",?[ \t]+(?:AND|&|and)\b|,[ \t]*[A-Z]{2,}\b(?!\.)")


# A compass word a line's end broke from its place ("West⏎Florissant").
_DIRECTION_WORDS = frozenset("north south east west northeast northwest southeast southwest upper lower".split())
# A line's end, and the next line's printed number if it has one ("Dr. Harriet⏎ 8  Young").
_LINE_BREAK = re.compile(places.LINE_END + f"(?:{places.PRINTED_LINE_NUMBER})?")
# The rest of a speaker label ("…DELGADO⏎CDCR NUMBER: K-48213").
# Two more words at most: "MCCULLOCH TOLD THE GRAND JURY:" is a sentence.
_SPEAKER_AFTER = re.compile(r"(?:[ \t]+[A-Z.'’-]+){0,2}[ \t]*:")


# Only the particles no Romance sentence opens with may follow a line's break ("Maria⏎
# 8  la Migra" is no name).
_LINE_PARTICLES = "bin|binte|binti|bte|ibn|s/o|d/o|a/l|ap|ferch|verch|van|von"
# A surname a particle opens, in lower case before its capital ("al-Qutaybi", "van Dyke").
_A_PARTICLE_OPENS = re.compile(rf"(?:(?:al|el)-|(?:{_LINE_PARTICLES})[ ])(?=[A-Z])")


def _name_broken_across_lines(text: str, last: Candidate, span: Candidate, between: str) -> bool:
    """ "Bob" at a line end and "McCulloch" opening the next line, "West" and
    "Florissant": one name (a PDF line break), unless the second opens a speaker
    label ("…Smith\nWHIRLEY:") or each line holds a name of two words or more (a
    list). In a
    text without case no capital says so: there a given name ends the line and a
    name opens the next ("bob⏎mcculloch", "michael⏎brown"), a name that is no
    common word or a known one."""
    if span.label not in ("PERSON", "LOCATION") or not _LINE_BREAK.fullmatch(between):
        return False
    if _SPEAKER_AFTER.match(text, span.end) or not places.one_broken_name(text, last.start, span.end):
        return False
    # A roster's rows surname first in capitals ("YOUNG, AMBER L.⏎GREEN, FAITH"): the
    # given names after one surname's comma, the next row's surname before another, two
    # people; in prose a list's commas break no name ("Tom, Cletus⏎Varnado, and").
    roster = _A_SURNAME_S_COMMA_BEFORE.search(text, max(0, last.start - 40), last.start)
    # (A surname the lists hold or no common word: not "THE VICTIM, CYPRIAN⏎VAIL,".)
    word = roster.group("s") if roster is not None else ""
    surname = bool(word) and (word.title() in wide_last_names() or not is_common_word(word.lower()))
    if surname and span.text.isupper() and text.startswith(",", span.end):
        return False
    # A full name opening the next line after a word that is no given name ("Senior
    # Counsel, Vantorix⏎21  Claire Fennimore"): a list's two entries, not "Mary⏎Ann Smith".
    following = span.text.split()
    if len(following) >= 2 and is_given_name(following[0]) and not is_given_name(last.text.split()[-1]):
        return False
    # A place a line broke ("at West⏎Florissant?"): its words in capitals where case says so.
    # Not an address's lines ("Suite 2100⏎Philadelphia"), nor a person the model read as
    # a place ("Leroy⏎ 6  Fontenot", "Odessa⏎24 Brown": a given name the name lists hold,
    # or one before a known surname, opens it; the context rules judge its parts).
    # Nor two places ("Culver Street⏎Modesto", "Dayton⏎Ohio", "Mexico⏎Guadalajara",
    # "New York⏎Los Angeles"): a street's type or a number ends the first, each is a
    # place the lists know, or each is a name of two words or more.
    if span.label == "LOCATION":
        first, following = last.text.split()[0], span.text.split()[0]
        two_places = places.is_known_place(last.text) and places.is_known_place(span.text)
        return (
            span.text[:1].isupper()
            and last.text[:1].isupper()
            and not any(ch.isdigit() for ch in last.text)
            and last.text.split()[-1].lower().rstrip(".") not in NAME_END_STREET_TYPES
            and not (two_places and last.text.lower() not in _DIRECTION_WORDS)
            and not (len(last.text.split()) >= 2 and len(span.text.split()) >= 2)
            and first.title() not in first_names()
            and not (is_given_name(first) and is_known_name(following))
            and not caseless_at(text, last.start)
        )
    # Two whole names, one a line ("Senator Gunnar Lindgren⏎Senator Patrick Doyle",
    # a list of those present): a name broken by a line has one part on each side.
    if len(last.text.split()) >= 2 and len(span.text.split()) >= 2:
        return False
    if (span.text[:1].isupper() or _A_PARTICLE_OPENS.match(span.text)) and last.text[:1].isupper():
        return True  # "Khalid Musa'id Hadi⏎16  al-Qutaybi": a particle opens a surname
    if not caseless_at(text, last.start):
        return False
    given, surname = last.text.split()[-1], span.text.split()[0]
    return is_given_name(given) and (is_known_name(surname) or not is_common_word(surname))


def merge(
    text: str,
    candidates: Iterable[Candidate],
    source_weights: dict[str, float] | None = None,
    titles: frozenset[str] = frozenset(),
) -> list[Candidate]:
    """Sorted, non-overlapping spans from any number of overlapping candidates.
    `source_weights` replaces `SOURCE_WEIGHTS` (a corpus's own weights); `titles`
    are the language's one-letter titles (edges.title_letters)."""
    # Edges first, so that a candidate cutting a word gives way to another that
    # covers the same text; again after the merge, which glues neighbours.
    tidied = _without_dates_inside_codes(tidy(text, list(candidates), titles))
    merged = merge_adjacent(text, resolve_overlaps(text, tidied, source_weights))
    return with_suffix_stop(text, tidy(text, merged, titles))


_DATE_LABELS = frozenset({"DATE", "TIME", "DATE_TIME"})
# (A register's letters may stand apart: "HCC 214/2021".)
# A code of capitals and numbers ("HCT-06-CR-SC-0143-2020", "HCC 214/2021"), or a
# Commonwealth register's number and its year ("1187/FC of 2023", "61 of 2024").
_A_CODE = re.compile(
    r"(?=[^\n]*[A-Z])(?:[A-Z]{2,5}[ ])?[A-Z0-9]+(?:[-/][A-Z0-9]+)+"
    r"|\d{1,6}(?:[-/][A-Z]{1,4})?[ \t]+(?:of|OF)[ \t]*(?:\n[ \t]*)?(?:19|20)\d\d"
)


def _without_dates_inside_codes(candidates: list[Candidate]) -> list[Candidate]:
    """A year or a date inside a reference's code is part of the code
    ("HCT-06-CR-SC-0143-2020", a register's "HCC 214/2021", "61 of 2024"): the date's
    candidates strictly inside an ID's are dropped, or the merge would weigh the
    year's two readers against the code's one and cut the code at its year."""
    codes = sorted((c.start, c.end) for c in candidates if c.label == "ID" and _A_CODE.fullmatch(c.text))
    if not codes:
        return candidates
    starts = [a for a, _ in codes]
    longest = max(b - a for a, b in codes)

    def inside(c: Candidate) -> bool:
        first = bisect_left(starts, c.end - longest)
        return any(
            a <= c.start and c.end <= b and (a, b) != (c.start, c.end)
            for a, b in codes[first : bisect_left(starts, c.start + 1)]
        )

    return [c for c in candidates if c.label not in _DATE_LABELS or not inside(c)]


_ABBREVIATED_SUFFIX = re.compile(r"\b(?:" + "|".join(sorted(ABBREVIATED_NAME_SUFFIXES)) + r")$", re.IGNORECASE)


def with_suffix_stop(text: str, spans: list[Candidate]) -> list[Candidate]:
    """ "George Tillman Jr" + "." → "George Tillman Jr.": the abbreviation's dot is
    part of the name (the tokenizer often splits it off, more so at a sentence's
    end), as annotators mark it; so is a surname's initial after a given name
    ("Kim H."), an initial's period ("LUNA M."), the given name and initial a
    record's field gives after a surname in capitals (a name of their own: "RUDKIN",
    "THORA L"), a surname's
    particles no one read ("Rami al-Sabbagh") and a suffix ("Lemuel Treadwell, Jr.",
    "III"). The export restores a sentence's full stop after a span that took it
    (`pseudonymize.engine._sentence_stop`)."""
    out: list[Candidate] = []
    for i, span in enumerate(spans):
        after = spans[i + 1].start if i + 1 < len(spans) else len(text)
        if (
            span.label == "PERSON"
            and text[span.end : span.end + 1] == "."
            and after > span.end
            and _ABBREVIATED_SUFFIX.search(span.text)
        ):
            span = replace(span, end=span.end + 1, text=text[span.start : span.end + 1])
        elif (
            span.label == "PERSON"
            and (initial := _SURNAME_INITIAL.match(text, span.end))
            and initial.end() <= after
            and is_given_name(span.text.split()[-1].strip(",'’"))
        ):
            span = replace(span, end=initial.end(), text=text[span.start : initial.end()])
        elif span.label == "PERSON" and _ENDS_IN_AN_INITIAL.search(span.text) and text[span.end : span.end + 1] == ".":
            # "LUNA M.", "Jazlyn Q.": the initial's period is the name's.
            span = replace(span, end=span.end + 1, text=text[span.start : span.end + 1])
        elif span.label == "PERSON" and (given := _given_in_its_field(text, span, after)) is not None:
            # The given names after the surname's comma are a name of their own, as the
            # guideline keeps comma-separated parts ("RUDKIN", "THORA L"); a surname's
            # initial alone stays with it ("OYAMA, D").
            rest = _GIVEN_NAMES_START.match(text, span.end)
            lone_initial = rest is not None and len(text[rest.end() : given].rstrip(".")) <= 1
            if "," in span.text or rest is None or lone_initial:
                span = replace(span, end=given, text=text[span.start : given])
            else:
                out.append(surname_first_part(span))
                span = surname_first_part(replace(span, start=rest.end(), end=given, text=text[rest.end() : given]))
        elif (
            span.label == "PERSON"
            and span.text.split()[-1] in _GAELIC_HEADS
            and (rest := _GAELIC_SURNAME_AFTER.match(text, span.end))
            and rest.end() <= after
        ):
            # "Tormod Mac an t-Saoir", "Iain Mac a' Phearsain": a Gaelic surname's article
            # and its mutated name, in lower case, that no one read.
            span = replace(span, end=rest.end(), text=text[span.start : rest.end()])
        elif (
            span.label == "PERSON"
            and (rest := _HYPHENATED_REST.match(text, span.end))
            and rest.end() <= after
            and _a_name_s_rest(span.text, rest.group("rest"))
        ):
            # "Mr. Gilst-⏎rap", "Zeb Little-⏎john": a typist's hyphen at the line's end.
            span = replace(span, end=rest.end(), text=text[span.start : rest.end()])
        elif span.label == "PERSON" and (rest := _PARTICLE_SURNAME_AFTER.match(text, span.end)) and rest.end() <= after:
            # "Rami al-Sabbagh", "Mr. Joost van der Berg": a surname with its particles no one read.
            parent = _PARENTAGE_MARK.search(rest.group())
            if parent is None or len(span.text.split()) < 2:
                span = replace(span, end=rest.end(), text=text[span.start : rest.end()])
            else:
                # A father's name after a full name is another person ("Ahmad Khan s/o Ali");
                # a Tamil given name's "Rajendran s/o Pakirisamy" is one name (edges).
                out.append(span)
                begin = rest.start() + parent.end()
                begin += len(text[begin : rest.end()]) - len(text[begin : rest.end()].lstrip())
                span = replace(span, start=begin, end=rest.end(), text=text[begin : rest.end()])
        elif span.label == "PERSON" and (suffix := _SUFFIX_AFTER.match(text, span.end)) and suffix.end() <= after:
            # "Lemuel Treadwell, Jr.", "Lemuel A. Treadwell III": the suffix is the name's.
            span = replace(span, end=suffix.end(), text=text[span.start : suffix.end()])
        out.append(span)
    return out


_ENDS_IN_AN_INITIAL = re.compile(r"\w[ \t]+[A-Z]$")
_PARENTAGE_MARK = re.compile(r"(?<![\w/])[SsDd]/[Oo](?![\w/])")
# The particles written apart from the surname; "al-" and "el-" are joined to it, and
# "le", "y", "zu", "ter", "ten" are words after a name as often ("Smith ten Dollars").
_SPACED_PARTICLES = sorted(NAME_PARTICLES - {"al", "el", "le", "y", "zu", "ter", "ten", "te"})
# A line's break (and its printed number) may come before the particle: "Muhammad
# Firdaus⏎ 7    bin Rahmat", a lower-case word no sentence opens with.
_PARTICLE_SURNAME_AFTER = re.compile(
    # Not "los"/"las" first: Spanish articles after a name ("Pedro Gomez las Navidades").
    rf"[ \t]+(?!(?:los|las)[ \t])(?:(?:{'|'.join(_SPACED_PARTICLES)})[ \t]+){{1,3}}[A-Z][\w'’-]+"
    rf"|{places.LINE_END}(?:{places.PRINTED_LINE_NUMBER})?(?:(?:{_LINE_PARTICLES})[ \t]+){{1,3}}[A-Z][\w'’-]+"
    r"|[ \t]+(?:al|el)-[A-Z][\w'’-]+"
)
# The rest of a name a typewriter's hyphen broke at a line's end: lower-case letters
# opening the next line, nothing joined after them.
_HYPHENATED_REST = re.compile(rf"-\r?\n[ \t]*(?:{places.PRINTED_LINE_NUMBER})?(?P<rest>[a-z]{{2,}})(?![\w-])")


def _a_name_s_rest(name: str, rest: str) -> bool:
    """`rest` goes on the name's last word ("Mehro-⏎tra", "Gilst-⏎rap", "Little-⏎john"),
    or the two joined are a name the lists know; not a word of the sentence going on
    ("Tanya-⏎well, actually", "Marcus-⏎or was it Devon": a stop word or a word
    markedly English, which a surname's tail is not)."""
    joined = name.split()[-1] + rest
    return is_known_name(joined) or not (is_english_word(rest) or is_stop_word(rest))


_GAELIC_HEADS = frozenset({"Mac", "MAC", "Nic", "NIC", "Mhic", "Nig"})
_GAELIC_SURNAME_AFTER = re.compile(
    r"[ \t]+(?:an|a['’]|na|nan|AN|A['’]|NA|NAN)[ \t]*\n?[ \t]*(?:[thTH]-?)?[A-Z][\w'’]*(?:-[A-Z][\w'’]*)?"
)
# Not a senior's title ("Jyotirmoy Borthakur, Sr. Adv.": a senior advocate), with
# its period or without it: the lookahead stands before the period so that dropping
# the period cannot get round it.
_SUFFIX_AFTER = re.compile(
    r",?[ \t]+(?:Jr|Sr|JR|SR)(?!\.?[ \t]+(?:[A-Z][a-z]{1,4}\.|Advocate\b|Counsel\b))(?:\.|\b)"
    r"|[ \t]+(?:II|III|IV)\b(?![.'’-])"
)


# A record's field in capitals: a surname, a comma, given names or an initial, then
# the column's end ("RUDKIN, THORA L #1427", "OYAMA, D   #0962", "HUSKEY, L   RTN
# OWNER"): the name's other half, which no model read.
_GIVEN_IN_FIELD = re.compile(
    rf",[ \t]+(?:(?P<given>[A-Z][A-Z'’-]+(?:[ ][A-Z][A-Z'’-]+)?)(?:[ ][A-Z]\.?)?|[A-Z]\.?)(?={places.FIELD_END})"
)
_INITIAL_IN_FIELD = re.compile(rf"[ ][A-Z]\.?(?={places.FIELD_END})")
_GIVEN_NAMES_START = re.compile(r",[ \t]+")


def _given_in_its_field(text: str, span: Candidate, after: int) -> int | None:
    """Where the name of a surname in capitals ends when a record's field gives the
    rest (`_GIVEN_IN_FIELD`): given names the lists know, none a state's."""
    if not span.text.isupper() or len(span.text) < 2:
        return None
    if "," in span.text:  # "RUDKIN, THORA" read, " L #1427" left: the initial ends it
        initial = _INITIAL_IN_FIELD.match(text, span.end)
        return initial.end() if initial is not None and initial.end() <= after else None
    if " " in span.text:
        return None
    match = _GIVEN_IN_FIELD.match(text, span.end)
    if match is None or match.end() > after:
        return None
    given = (match.group("given") or "").split()
    if any(not is_given_name(word) or word.casefold() in US_STATES for word in given):
        return None
    return match.end()


# A surname's initial after a given name, ending the name ("\"Kim H.\" received",
# "Journey M. is seven"): not one a capitalised word follows ("Mary A. Smith" is the
# edges' middle initial, "to Mary A. Then" a sentence).
_SURNAME_INITIAL = re.compile(r"[ \t]+[A-Z]\.(?=[\"'”’,;:)]|[ \t]+[a-z]|[ \t]*$|[ \t]*\n)", re.MULTILINE)


def vote(candidates: Iterable[Candidate], k: int) -> tuple[list[Candidate], list[Candidate]]:
    """(kept, dropped): a candidate is kept when at least `k` distinct sources found
    the same label on text that overlaps it (itself included). Overlap rather than
    equal offsets, because recognizers disagree on boundaries ("John" vs "John
    Doe") far more often than on whether a name is there."""
    by_label: dict[str, list[Candidate]] = defaultdict(list)
    for c in candidates:
        by_label[c.label].append(c)
    kept: list[Candidate] = []
    dropped: list[Candidate] = []
    for group in by_label.values():
        group.sort(key=lambda c: (c.start, -c.end))
        active: list[Candidate] = []  # earlier candidates still open at c.start
        for i, c in enumerate(group):
            active = [o for o in active if o.end > c.start]
            sources = set(c.sources).union(*(o.sources for o in active))
            for other in group[i + 1 :]:
                if other.start >= c.end:
                    break
                sources.update(other.sources)
            (kept if len(sources) >= k else dropped).append(c)
            active.append(c)
    return kept, dropped
