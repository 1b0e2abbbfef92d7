"""The words the filters and the calibration read, per language: data, not code.

English is what it was before languages existed: lexicons.py and gazetteers.py
(role words, spaCy's English stop words, English months and weekdays, wordfreq's
English words, the English place and institution words). Another language brings
its own lists in its file's "filter_words" (languages/<code>.json). A rule that
needs a list the language does not give does not run on that language's texts
(`FilterWords.off`): no English list is read on French text, and a third language
adds lists to its file, not code.
"""

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

from pipelines.detection.languages import Language
from pipelines.detection.languages import language as language_of
from pipelines.gazetteers import common_words_in, is_common_word, is_frequent_name, stop_words
from pipelines.lexicons import (
    CLOSED_CLASS,
    HONORIFICS,
    MONTHS,
    NAME_PARTICLES,
    NUMBER_WORDS,
    NUMBERED_THINGS,
    OCR_DAY_ORDINAL,
    RELATIVE_TIME,
    ROLE_WORDS,
    SPOKEN_YEAR,
    TIME_UNITS,
    TRANSCRIPT_NOTATIONS,
    WEEKDAYS,
)
from pipelines.names import NameWords, english_name_words


@dataclass(frozen=True)
class FilterWords:
    code: str
    role_words: frozenset[str] | None
    # Titles that are no one's name alone ("Colonel", "Maître"), lower case.
    honorifics: frozenset[str]
    stop_words: frozenset[str] | None
    # Lower-case words a person's name may hold ("de la", "van der", "al-").
    name_words: frozenset[str] | None
    notations: frozenset[str] | None
    numbered_things: frozenset[str] | None
    # The words between a numbered thing and its number ("Exhibit Number 1").
    number_words: frozenset[str]
    # A word before a number, as the numbered-thing rule reads them.
    word_before: re.Pattern[str]
    calendar: re.Pattern[str] | None
    weekday_alone: re.Pattern[str] | None
    # Searched in the span and the words before it, anchored at the span's end.
    weekday_recurring: re.Pattern[str] | None
    duration: re.Pattern[str] | None
    point_in_time: re.Pattern[str] | None
    clock: re.Pattern[str] | None
    time_words: re.Pattern[str] | None
    # wordfreq's English-word rules (common_word, person_common_phrase): English only.
    english_words: bool
    # The names-as-places rule (place_context.py): English cues ("came down Chambers").
    place_context: bool
    # Calibration: a word common in the language's running text (not as a name)...
    common_word: Callable[[str], bool] | None
    # ...and the words that make a text an organization's name; None: English's
    # (places.organization_signal, with its acronym context).
    organization_words: frozenset[str] | None
    # The name identity's words (names.py): parts, titles, determiners, the case policy.
    names: NameWords
    # Propagation: one-word forms that never spread, even a cue's ("And"; "Monsieur",
    # "Cour"); and whether the English place and institution words may stop a form.
    never_spread: frozenset[str]
    place_words: bool
    # The corpus memory: one of the commonest surnames ("Smith"), alone, says little
    # (US census shares: English only).
    frequent_name: Callable[[str], bool] | None

    def runs(self, rule: str) -> bool:
        return all(getattr(self, need) for need in NEEDS.get(rule, ()))

    @property
    def off(self) -> frozenset[str]:
        """The filter rules this language lacks the words for."""
        return frozenset(rule for rule in NEEDS if not self.runs(rule))


# What each filter rule reads (filters.py); a rule not listed reads no words.
NEEDS: dict[str, tuple[str, ...]] = {
    "role_word": ("role_words",),
    "closed_class": ("stop_words",),
    "transcript_notation": ("notations",),
    "common_word": ("english_words",),
    "person_name_shape": ("name_words",),
    "person_common_phrase": ("english_words",),
    # Its suffixes are English.
    "person_noun_shape": ("english_words",),
    # The kinds of work are English words.
    "person_names_a_work": ("english_words", "stop_words"),
    # Its determiners are English.
    "person_after_determiner": ("english_words",),
    # Its nationalities and language names are English.
    "place_nationality": ("english_words",),
    # Its holidays are written as English writes them.
    "holiday": ("english_words",),
    "numbered_thing": ("numbered_things",),
    "date_words": ("calendar",),
    "weekday_recurring": ("weekday_alone", "weekday_recurring"),
    "weekday_alone": ("weekday_alone",),
    "duration": ("duration", "point_in_time", "clock"),
    "time_words": ("time_words",),
}


def _english() -> FilterWords:
    return FilterWords(
        code="en",
        role_words=ROLE_WORDS,
        honorifics=HONORIFICS,
        stop_words=stop_words(),
        # Particles, and the function words of epithets ("Alexander the Great").
        name_words=NAME_PARTICLES | stop_words(),
        notations=TRANSCRIPT_NOTATIONS,
        numbered_things=NUMBERED_THINGS,
        number_words=frozenset({"number", "no"}),
        word_before=re.compile(r"[A-Za-z]+"),
        # DATE means a calendar date, as seed 000 uses it: a month, a weekday, a
        # year, a decade, a day's ordinal or a numeric date.
        calendar=re.compile(
            rf"\b(?:{MONTHS}|{WEEKDAYS}s?|{SPOKEN_YEAR})(?!\w)"
            rf"|\b(?:1[0-9]|20)\d\d\b|['’]\d\d\b|\b\d{{1,2}}(?:st|nd|rd|th)\b|\b{OCR_DAY_ORDINAL}\b"
            r"|\b\d{1,4}[/.-]\d{1,2}(?:[/.-]\d{1,4})?\b|\b(?:19|20)?\d0['’]?s\b"
            r"|\b(?:twenties|thirties|forties|fifties|sixties|seventies|eighties|nineties)\b",
            re.IGNORECASE,
        ),
        weekday_alone=re.compile(
            rf"(?:(?:on|this|that|next|last|every|each|a|the|particular)\s+)*{WEEKDAYS}s?", re.IGNORECASE
        ),
        weekday_recurring=re.compile(
            rf"(?:\b(?:every|each|any)\s+(?:other\s+)?{WEEKDAYS}|\b{WEEKDAYS}s)[\s,.]*$", re.IGNORECASE
        ),
        # An amount of time, not a point in it: "15 years", "about 12 hours", "five-year".
        duration=re.compile(rf"\b{TIME_UNITS}\b|-year\b|\b{RELATIVE_TIME}\b", re.IGNORECASE),
        point_in_time=re.compile(
            rf"\b(?:{MONTHS}|{WEEKDAYS}s?|{SPOKEN_YEAR})(?!\w)|\b(?:1[0-9]|20)\d\d\b"
            r"|\b\d{1,4}[/.-]\d{1,2}[/.-]\d{1,4}\b",
            re.IGNORECASE,
        ),
        # (A twenty-four-hour clock with a point and its "hrs" is one too: "08.55 hrs".)
        clock=re.compile(
            r"\d:\d\d|\b\d{1,2}\s*[ap]\.?m\b|o'clock|\bnoon\b|\bmidnight\b|\b(?:[01]\d|2[0-3])\.[0-5]\d[ \t]+hrs\b",
            re.IGNORECASE,
        ),
        time_words=re.compile(rf"\b(?:{NUMBER_WORDS}|noon|midnight|o'clock)\b", re.IGNORECASE),
        english_words=True,
        place_context=True,
        common_word=is_common_word,
        organization_words=None,
        names=english_name_words(),
        never_spread=CLOSED_CLASS,
        place_words=True,
        frequent_name=is_frequent_name,
    )


def _from_language(lang: Language) -> FilterWords:
    words = lang.filter_words
    frequencies = words.get("word_frequencies")
    common = _common_word(frequencies, lang.given_name_locales) if frequencies else None
    honorifics = frozenset(t.casefold().rstrip(".") for t in lang.titles) | words.get("honorifics", frozenset())
    stop = words.get("stop_words") or frozenset()
    role = words.get("role_words") or frozenset()
    names = NameWords(
        code=lang.code,
        stop_words=stop,
        particles=words.get("name_particles") or frozenset(),
        suffixes=words.get("name_suffixes", frozenset()),
        role_words=role,
        honorifics=honorifics,
        determiners=words.get("determiners", frozenset()),
        common_word=common,
    )
    return FilterWords(
        code=lang.code,
        role_words=words.get("role_words"),
        # The file's titles ("M.", "Maître") and its titles of rank ("roi", "général").
        honorifics=honorifics,
        stop_words=words.get("stop_words"),
        name_words=words.get("name_particles"),
        notations=words.get("notations"),
        numbered_things=words.get("numbered_things"),
        number_words=words.get("number_words", frozenset()),
        word_before=re.compile(r"[^\W\d_]+"),
        calendar=words.get("calendar"),
        weekday_alone=words.get("weekday_alone"),
        weekday_recurring=words.get("weekday_recurring"),
        duration=words.get("duration"),
        point_in_time=words.get("point_in_time"),
        clock=words.get("clock"),
        time_words=words.get("time_words"),
        english_words=False,
        place_context=False,
        common_word=common,
        organization_words=words.get("organization_words", frozenset()),
        names=names,
        # Its closed-class words, titles, roles and the words no entity is made of
        # alone ("Monsieur", "Maître", "Cour", "Tribunal").
        never_spread=stop | honorifics | role | lang.not_entities,
        place_words=False,
        frequent_name=None,
    )


def _common_word(frequencies: str, locales: tuple[str, ...]) -> Callable[[str], bool]:
    def common(word: str) -> bool:
        return word.casefold() in common_words_in(frequencies, locales)

    return common


@cache
def filter_words(code: str = "en") -> FilterWords:
    lang = language_of(code)
    return _english() if lang.builtin_rules else _from_language(lang)


def name_words(code: str) -> NameWords:
    """A language's name-identity words by its code (the export's and the review's
    grouping read them); English's when the code's file is gone."""
    from pipelines.detection.languages import LanguageError

    try:
        return filter_words(code).names
    except LanguageError:
        return english_name_words()


def words_for(lang: Language | None) -> FilterWords:
    return filter_words(lang.code if lang is not None else "en")
