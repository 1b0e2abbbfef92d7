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

# Light backgrounds so black text stays readable (WCAG AA on all of them).
LABEL_COLOURS: dict[str, str] = {
    "PERSON": "#ffd6d6",
    "SPELLED_NAME": "#ffc2e5",
    "ORGANIZATION": "#d6e4ff",
    "LOCATION": "#d4f5d4",
    "NRP": "#f0dcff",
    "DATE": "#fff1b8",
    "TIME": "#ffe4c2",
    "AGE": "#c9f2ef",
    "HEIGHT": "#e2f0c9",
    "ID": "#e0e0e0",
    "PHONE_NUMBER": "#f9d9b0",
    "EMAIL_ADDRESS": "#cdebff",
    "URL": "#dfe7f2",
    "SPELLED_OUT_ITEM": "#f7e0cf",
}
OTHER_COLOUR = "#eeeeee"


def label_colour(label: str) -> str:
    return LABEL_COLOURS.get(label, OTHER_COLOUR)
