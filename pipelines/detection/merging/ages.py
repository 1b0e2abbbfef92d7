"""Ages said beside a person's name: "daughter Rose (19)", "Vesna Kadić, 71, lives
in", "Ketsia is 4.", "DANIEL VESPERMAN, WAS 23.", "Ernesto should be 43 today".

A bare number is an age only where a person is its subject, which the number's own
pattern cannot know; the merged PERSON spans do (the model's, the cues', the
lists'). So this reads the words right after each person's span, once the spans
are merged, and proposes the number as an AGE (source "patterns": a rule found
it). Plain data in, plain data out.

A count goes on with its noun ("Smith was 12 feet away", "Jones was 5 minutes
late") and is none: the number must end its clause or be followed by a word that
dates it ("today", "now", "when", "years").
"""

import re

from pipelines.candidate import Candidate
from pipelines.lexicons import NUMBER_WORDS

SOURCE = "patterns"
_MODELS = frozenset({"spacy", "presidio", "propagation"})
# An age is a person's: up to this many years.
MAX_AGE = 119
_NUMBER = rf"(?:\d{{1,3}}|{NUMBER_WORDS})"
# What may follow an age: the clause's end, or a word that dates or extends it.
_AGE_ENDS = r"(?=[ \t]*(?:[.,;:!?)\n]|$|(?:years?|yrs?|today|now|then|this|next|when|at|in|and|but|so|with|or)\b))"
_BESIDE = re.compile(
    # "Rose (19)"
    rf"[ \t]*\([ \t]*(?P<paren>\d{{1,3}})[ \t]*\)"
    # "Vesna Kadić, 71, lives": the number between commas, a lower-case word after.
    rf"|,[ \t]*(?P<apposed>\d{{1,3}}),[ \t]+(?=[a-z])"
    # "Ketsia is 4.", "DANIEL VESPERMAN, WAS 23.", "Ernesto should be 43 today".
    rf"|,?[ \t]+(?i:is|was|turned|turns|(?:will|would|should)[ \t]+be)"
    rf"[ \t]+(?i:(?:only|just|about|almost|nearly|maybe|now)[ \t]+)?(?P<said>{_NUMBER}){_AGE_ENDS}",
    re.IGNORECASE,
)
# How far after a name its age may stand.
_REACH = 40


def ages_beside_names(text: str, spans: list[Candidate]) -> list[Candidate]:
    """AGE candidates for the numbers said as a person's age right after a PERSON
    span (`_BESIDE`), none where an AGE or a rule's span already covers the number
    (a model's guess there, "43" as a TIME, is left to the merge)."""
    taken = [(s.start, s.end) for s in spans if s.label == "AGE" or not set(s.sources) <= _MODELS]
    found: dict[tuple[int, int], Candidate] = {}
    for span in spans:
        if span.label != "PERSON":
            continue
        match = _BESIDE.match(text, span.end, min(len(text), span.end + _REACH))
        if match is None:
            continue
        group = next(g for g in ("paren", "apposed", "said") if match.group(g) is not None)
        start, end = match.span(group)
        value = match.group(group)
        if value.isdigit() and not 0 < int(value) <= MAX_AGE:
            continue
        if any(a < end and start < b for a, b in taken):
            continue
        found[(start, end)] = Candidate(start, end, "AGE", value, (SOURCE,), 0.8, "pattern:age_beside_name")
    return list(found.values())
