"""The placeholder strategy: seed 000's typed placeholders, label by label."""

import re

from pipelines.candidate import Candidate
from pipelines.labels import PERSON_ROLE_LABELS
from pipelines.names import name_parts
from pipelines.pseudonymize.counters import NumberedMap
from pipelines.pseudonymize.dates import date_replacement, numbers_replacement
from pipelines.pseudonymize.organization import is_institution, location_replacement, organization_replacement
from pipelines.pseudonymize.person import person_replacement, spelled_name_replacement
from pipelines.pseudonymize.place_types import nrp_key, nrp_type


def _value_key(label: str, text: str) -> str:
    if label == "ID":
        # IDs are keyed by their digits: "K-48213" and "K48213" are one person.
        digits = re.sub(r"\D", "", text)
        return digits or text.upper()
    return re.sub(r"\s+", " ", text.strip()).lower()


def placeholder_for(span: Candidate, numbers: NumberedMap, person_numbering: str = "part") -> str:
    label = span.label
    if label == "PERSON":
        return person_replacement(span.text, numbers, person_numbering, span.entity)
    if label == "SPELLED_NAME":
        return spelled_name_replacement(span.text, numbers)
    if label in PERSON_ROLE_LABELS:
        return role_replacement(label, span.text, numbers)
    if label == "ORGANIZATION" or (label == "LOCATION" and is_institution(span.text)):
        # spaCy tags "San Quentin State Prison" as a facility (LOCATION); as a
        # place people are held it is better typed as a PRISON.
        return organization_replacement(span.text, numbers)
    if label == "LOCATION":
        return location_replacement(span.text, numbers)
    if label == "NRP":
        return numbers.placeholder(nrp_type(span.text), nrp_key(span.text))
    if label == "DATE":
        return date_replacement(span.text)
    if label == "TIME":
        return "[TIME]"
    if label in ("AGE", "HEIGHT"):
        return numbers_replacement(span.text, label)
    return numbers.placeholder(label, _value_key(label, span.text))


def role_replacement(label: str, text: str, numbers: NumberedMap) -> str:
    """A lawyer or a judge (LAWYER, JUDGE_CLERK) is one `[LAWYER_n]` per person: a
    later mention by part of the name ("Me MARTIN" after "Paul MARTIN") takes the
    number of the one earlier name it fits."""
    parts = name_parts(text, label)
    key = " ".join(parts) or _value_key(label, text)
    if parts and numbers.get(label, key) is None:
        fits = [k for k in numbers.keys(label) if set(parts) <= set(k.split())]
        if len(fits) == 1:
            key = fits[0]
    return numbers.placeholder(label, key)
