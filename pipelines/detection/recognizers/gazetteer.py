"""First- and last-name gazetteers: full names the model misses.

The lists are Faker's per-locale person providers (Latin-script locales), so they
are maintained upstream and general, not tuned to any evaluation set. A candidate
is a run of capitalized words that starts with a known first name and ends with a
known last (or first) name, e.g. "Kowalczyk" alone is never proposed, "Anna
Kowalczyk" is. Single words are left to cues and propagation.
"""

import re

from pipelines import gazetteers
from pipelines.candidate import Candidate
from pipelines.detection import places
from pipelines.detection.case import carries_case
from pipelines.gazetteers import first_names, last_names
from pipelines.lexicons import HONORIFICS, ORGANIZATION_TYPES, PLACE_WORDS, ROLE_WORDS

SOURCE = "gazetteer"
SCORE = 0.7
SHAPE_SCORE = 0.5

# A run starts at the start of a word: not after a letter, an apostrophe or a
# hyphen, so that the engine never retries from inside a word. Each retry reads to
# the end of the word, so retries inside "A-A-A-…" were quadratic (48 s on forty
# thousand characters). The one start inside a word that names need is after a
# lower-case particle of one to three letters opening the word ("al-Hassan",
# "d'Artagnan", "da-Silva"): at most one more try per word. Possessive repeats: a
# word is read once, never given back letter by letter.
_AT_WORD = r"(?<![^\W\d_])(?<!['’-])"
_AFTER_PARTICLE = "|".join(rf"(?<=(?<![^\W\d_])(?<!['’-])[a-z]{{{n}}}['’-])" for n in (1, 2, 3))
# Where a run may start: tests count these places (one per word, at most two).
RUN_START = re.compile(rf"(?:{_AT_WORD}|{_AFTER_PARTICLE})[A-Z]")
_NAME_WORD = r"[A-Z][^\W\d_]*+(?:['’-][^\W\d_]+)*+"
# Words of a name are apart by up to three blanks (justified text), or by one line
# end where a name is broken across lines ("Shelia\nWhirley"); more blanks are a page's column gap
# ("WITNESS: RUSSELL EDWARD HILL                  PAGE").
_RUN = re.compile(
    rf"(?:{_AT_WORD}|{_AFTER_PARTICLE}){_NAME_WORD}"
    rf"(?:(?:[ \t]{{1,3}}|[ \t]*\n[ \t]*)(?:[A-Z]\.[ \t]+)?{_NAME_WORD})+"
)
_WORD = re.compile(r"[A-Z][^\W\d_]*(?:['’-][^\W\d_]+)*")


def _looked_up(word: str) -> str:
    return word.title() if len(word) > 1 and word.isupper() else word


def _names_a_place(word: str) -> bool:
    return word.lower() in PLACE_WORDS or places.has_institution_word(word)


def _unknown_surname(first: str, word: str) -> bool:
    """`word` after a known given name reads as a surname the lists lack
    ("Marisol Quintrell", "Anna Zyskowski"): not a common word, a title, a date word, or
    a word that names a place or an institution, and the pair is no known place. An
    English word is only the shape of a surname ("the 2012 Summer Paralympics", "The
    Brooklyn Paper"): the lists hold many surnames that are English words (Baker,
    Young); one they lack ("Darnell Hurt") is left to the encoder, whose one-word given
    name takes it (`edges._take_surname`). A frequent name is no English word
    (`is_english_word`: "Colbert")."""
    return (
        len(word) > 2
        and not word.isupper()
        and not gazetteers.is_english_word(word)
        # A pronoun's contraction is no surname ("tell Willow I'm gonna be late").
        and not gazetteers.is_stop_word(word)
        and word.lower() not in ROLE_WORDS
        and word.lower() not in HONORIFICS
        and not gazetteers.is_date_word(word)
        and not _names_a_place(word)
        and not places.is_known_place(f"{first} {word}")
    )


_TITLE_WORDS = HONORIFICS | ROLE_WORDS


def _institution_word(word: str) -> bool:
    """The word itself is an institution's ("Church", "School", "Department"), not
    a surname that holds one ("Churchill", "Campbell")."""
    folded = word.lower()
    return places.has_institution_word(word) or any(re.fullmatch(rx, folded) for _t, rx in ORGANIZATION_TYPES)


def _a_place_s_name(text: str, start: int, end: int, names: list[str]) -> bool:
    """A given name and a surname the lists know that name a place where they stand:
    a name ending in a place's word, or a known town, where one lives or beside its
    state ("up in Troy Hill", "Olive Branch, Mississippi"; not "Jennifer Park's car",
    "They swore in Lucy Hall")."""
    if text.startswith(("'s", "’s"), end):
        return False
    placed = _names_a_place(names[-1]) or places.is_known_place(text[start:end])
    return placed and (
        _WHERE_ONE_LIVES_BEFORE.search(text, max(0, start - 40), start) is not None
        or places.in_a_town_and_state(text, start, end)
    )


# Where one lives or stays, before a neighbourhood's or a town's name ("up in Troy Hill",
# "reside in the Troy Hill", "outside Troy Hill"); not any "in" ("swore in Lucy Hall").
_WHERE_ONE_LIVES_BEFORE = re.compile(
    r"(?i)\b(?:(?:up|live[sd]?|living|reside[sd]?|residing|born|raised|grew[ \t]+up|stay(?:s|ed|ing)?|moved)"
    r"[ \t]+in|outside)[ \t]+(?:the[ \t]+)?$"
)


def recognize(text: str) -> list[Candidate]:
    """Known given name + known surname (score 0.7); a run of exactly two words
    where a known given name precedes an unknown surname (score 0.5, lower: the
    surname is only a shape)."""
    firsts, lasts = first_names(), last_names()
    stop = gazetteers.stop_words()
    # In a text that writes no name with a capital (case.carries_case), every word
    # opens a run: a name there holds no stop word and does not end in a common
    # word ("SHEILA HAS A CASE", "BOB SAID"). The encoder reads such a text caseless
    # and finds its names ("MICHAEL BROWN") without the lists.
    caseless = not carries_case(text)
    found: list[Candidate] = []
    for run in _RUN.finditer(text):
        # Transcripts print names in capitals ("JAMES WOOD"): such a word is looked
        # up in title case. A shape-only surname is never guessed in capitals.
        words = [
            (run.start() + w.start(), run.start() + w.end(), _looked_up(w.group())) for w in _WORD.finditer(run.group())
        ]
        # A capitalized sentence opener is not part of the name ("Then Marisol Quintrell").
        # (Sliced, not popped one by one: a run of thousands of stop words, "A\nA\n…".)
        opener = next((n for n, word in enumerate(words) if word[2].lower() not in stop), len(words))
        words = words[opener:]
        # A title is no given name ("Pastor Altidor", "Deacon Mills"): the cues read it.
        titled = bool(words) and words[0][2].lower() in _TITLE_WORDS
        if len(words) == 2 and words[0][2] in firsts and words[1][2] not in lasts and not titled:
            if not text[words[1][0] : words[1][1]].isupper() and _unknown_surname(words[0][2], words[1][2]):
                start_char, end_char = words[0][0], words[1][1]
                found.append(
                    Candidate(
                        start_char,
                        end_char,
                        "PERSON",
                        text[start_char:end_char],
                        (SOURCE,),
                        SHAPE_SCORE,
                        "gazetteer:first_capitalized",
                    )
                )
            continue
        i = 0
        while i < len(words) - 1:
            if words[i][2] not in firsts and not gazetteers.is_hyphenated_given_name(words[i][2]):
                i += 1
                continue
            if words[i][2].lower() in _TITLE_WORDS and "\n" in text[words[i][1] : words[i + 1][0]]:
                i += 1  # "and then Pastor⏎Figueroa": a title ending its line, the name on the next
                continue
            # No role inside a name: a list of those present runs on past a line's end
            # into the next name's title ("Gunnar Lindgren⏎Senator Patrick Doyle").
            ends = [
                j
                for j in range(min(len(words) - 1, i + 3), i, -1)
                if words[j][2] in lasts
                and not any(w[2].lower() in ROLE_WORDS and w[2].lower() not in stop for w in words[i + 1 : j])
                and places.one_broken_name(text, words[i][0], words[j][1])
                # A place's word inside and at the end is a place's name ("Marion City
                # Hall"), no person's; "Mary Hill Smith" is one.
                and not (_names_a_place(words[j][2]) and any(_names_a_place(w[2]) for w in words[i + 1 : j]))
            ]
            if caseless:
                # The longest name that holds no stop word and ends in no common word
                # ("THEN MICHAEL BROWN SAID": "MICHAEL BROWN", not "MICHAEL BROWN SAID").
                ends = [
                    j
                    for j in ends
                    if not any(w[2].lower() in stop for w in words[i + 1 : j + 1])
                    and not gazetteers.is_common_word(words[j][2])
                ]
            # The longest name whose last word does not name a place, else the
            # longest: "Thomas Jefferson | Bridge" but "Jennifer Park", "Mary Jo Wood".
            # A surname that is an institution's word ends no name of three words or
            # more ("Grace Community Church" is the church): a shorter one is tried.
            ends = [j for j in ends if j == i + 1 or not _institution_word(words[j][2])]
            end = next((j for j in ends if not _names_a_place(words[j][2])), ends[0] if ends else None)
            if end is None:
                i += 1
                continue
            # The word after the name, never the surname itself (Park, Hall, Wood
            # are surnames): "Thomas Jefferson Bridge" is no person.
            if end + 1 < len(words) and _names_a_place(words[end + 1][2]):
                i = end + 2  # "Thomas Jefferson Bridge", "Mary Ellen Theatre"
                continue
            start_char, end_char = words[i][0], words[end][1]
            if _a_place_s_name(text, start_char, end_char, [w[2] for w in words[i : end + 1]]):
                i = end + 1
                continue
            found.append(
                Candidate(
                    start_char, end_char, "PERSON", text[start_char:end_char], (SOURCE,), SCORE, "gazetteer:first_last"
                )
            )
            i = end + 1
    return found
