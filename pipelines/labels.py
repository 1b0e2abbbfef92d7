"""Canonical label names and their display colours.

Every recognizer maps its own entity names onto these; Presidio entity names that
have no canonical equivalent (US_SSN, CREDIT_CARD, IP_ADDRESS…) pass through.
A language (pipelines/detection/languages/<code>.json) may add labels, their
colours, which of them are direct identifiers and which are people told apart by
a role (a lawyer, a judge); they are read here from the files, this module
importing nothing of the engine.
"""

import json
from pathlib import Path

_LANGUAGES = Path(__file__).resolve().parent / "detection" / "languages"


def _language_data() -> list[dict]:
    return [json.loads(p.read_text(encoding="utf-8")) for p in sorted(_LANGUAGES.glob("*.json"))]


def _from_languages(key: str) -> list:
    return [item for data in _language_data() for item in data.get(key, [])]


CANONICAL_LABELS: tuple[str, ...] = (
    "PERSON",
    "SPELLED_NAME",
    "ORGANIZATION",
    "LOCATION",
    "NRP",
    "DATE",
    "TIME",
    "AGE",
    "HEIGHT",
    "ID",
    "PHONE_NUMBER",
    "EMAIL_ADDRESS",
    "URL",
    "SPELLED_OUT_ITEM",
    *dict.fromkeys(label for label in _from_languages("labels") if label not in ("PERSON", "ORGANIZATION")),
)
# People told apart by their role (LAWYER, JUDGE_CLERK): names like a PERSON's.
PERSON_ROLE_LABELS: frozenset[str] = frozenset(_from_languages("role_labels"))

# Direct identifiers (TAB's term): what names a person on its own. The residual-risk
# counts, the dashboard and the export's "not fully anonymized" warning count these.
DIRECT_IDENTIFIER_LABELS: tuple[str, ...] = tuple(
    dict.fromkeys(
        ("PERSON", "SPELLED_NAME", "ID", "PHONE_NUMBER", "EMAIL_ADDRESS", "URL", *_from_languages("direct_identifiers"))
    )
)

# Light backgrounds so black text stays readable (WCAG AA on all of them).
LABEL_COLOURS: dict[str, str] = {
    "PERSON": "#ffb0cb",
    "SPELLED_NAME": "#fdbffd",
    "ORGANIZATION": "#97d7f7",
    "LOCATION": "#92fda6",
    "NRP": "#f39afb",
    "DATE": "#e4f799",
    "TIME": "#fae6b8",
    "AGE": "#99f5e2",
    "HEIGHT": "#cdf2be",
    "ID": "#c7c7c7",
    "PHONE_NUMBER": "#fcac92",
    "EMAIL_ADDRESS": "#d9fdfa",
    "URL": "#e9daff",
    "SPELLED_OUT_ITEM": "#ffcdc8",
    **{label: colour for data in _language_data() for label, colour in data.get("label_colours", {}).items()},
}
OTHER_COLOUR = "#eeeeee"


def label_colour(label: str) -> str:
    return LABEL_COLOURS.get(label, OTHER_COLOUR)
