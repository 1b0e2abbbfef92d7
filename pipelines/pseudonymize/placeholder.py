"""The default placeholder strategy over a document's accepted spans."""

import re
from collections.abc import Iterable

from pipelines.detection.candidate import Candidate
from pipelines.pseudonymize.counters import NumberedMap
from pipelines.pseudonymize.dates import date_replacement, numbers_replacement
from pipelines.pseudonymize.organization import is_institution, location_replacement, organization_replacement
from pipelines.pseudonymize.person import person_replacement, spelled_name_replacement
from pipelines.pseudonymize.result import Pseudonymized, Replacement


def _value_key(label: str, text: str) -> str:
    if label == "ID":
        # IDs are keyed by their digits: "K-12345" and "K12345" are one person.
        digits = re.sub(r"\D", "", text)
        return digits or text.upper()
    return re.sub(r"\s+", " ", text.strip()).lower()


def replacement_for(span: Candidate, numbers: NumberedMap) -> str:
    label = span.label
    if label == "PERSON":
        return person_replacement(span.text, numbers)
    if label == "SPELLED_NAME":
        return spelled_name_replacement(span.text, numbers)
    if label == "ORGANIZATION" or (label == "LOCATION" and is_institution(span.text)):
        # spaCy tags "San Quentin State Prison" as a facility (LOCATION); as a
        # place people are held it is better typed as a PRISON.
        return organization_replacement(span.text, numbers)
    if label == "LOCATION":
        return location_replacement(span.text, numbers)
    if label == "DATE":
        return date_replacement(span.text)
    if label == "TIME":
        return "[TIME]"
    if label in ("AGE", "HEIGHT"):
        return numbers_replacement(span.text, label)
    return numbers.placeholder(label, _value_key(label, span.text))


def pseudonymize(text: str, spans: Iterable[Candidate]) -> Pseudonymized:
    """Replace each span; spans must not overlap.

    PERSON spans are numbered before the others so that a spelled name earlier in
    the text still finds the person it spells.
    """
    ordered = sorted(spans, key=lambda s: (s.start, s.end))
    for a, b in zip(ordered, ordered[1:], strict=False):
        if b.start < a.end:
            raise ValueError(f"overlapping spans at {a.start}-{a.end} and {b.start}-{b.end}")
    numbers = NumberedMap()
    replaced: dict[int, str] = {}
    for i, span in enumerate(ordered):
        if span.label == "PERSON":
            replaced[i] = replacement_for(span, numbers)
    for i, span in enumerate(ordered):
        if i not in replaced:
            replaced[i] = replacement_for(span, numbers)
    pieces: list[str] = []
    cursor = 0
    replacements = []
    for i, span in enumerate(ordered):
        pieces.append(text[cursor : span.start])
        pieces.append(replaced[i])
        replacements.append(Replacement(span.start, span.end, span.label, span.text, replaced[i]))
        cursor = span.end
    pieces.append(text[cursor:])
    names = {key: numbers.placeholder("PERSON", key) for key in numbers.keys("PERSON")}
    return Pseudonymized("".join(pieces), replacements, names)
