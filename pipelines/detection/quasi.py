"""Quasi-identifiers (issue 18): ages, dates, places, occupations, relations, events.

Found from the same spaCy Doc as the direct identifiers (one pass per text), as
their own category: never auto-accepted, decided by a reviewer (mask, generalise,
keep). `recognize` runs per model chunk; `resolve` runs once per text, after the
direct spans are known.
"""

from pipelines.candidate import Candidate


def recognize(doc) -> list[Candidate]:
    """Candidate quasi-identifiers in one chunk's Doc (offsets within the chunk)."""
    return []


def resolve(text: str, found: list[Candidate], spans: list[Candidate]) -> list[Candidate]:
    """The text's quasi-identifiers, given the direct-identifier spans."""
    return found
