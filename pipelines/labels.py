"""Canonical label names and their display colours.

Every recognizer maps its own entity names onto these; Presidio entity names that
have no canonical equivalent (US_SSN, CREDIT_CARD, IP_ADDRESS…) pass through.
"""

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
)

# Direct identifiers (TAB's term): what names a person on its own. The residual-risk
# counts, the dashboard and the export's "not fully anonymized" warning count these.
DIRECT_IDENTIFIER_LABELS: tuple[str, ...] = ("PERSON", "SPELLED_NAME", "ID", "PHONE_NUMBER", "EMAIL_ADDRESS", "URL")

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
}
OTHER_COLOUR = "#eeeeee"


def label_colour(label: str) -> str:
    return LABEL_COLOURS.get(label, OTHER_COLOUR)
