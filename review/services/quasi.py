"""Quasi-identifier flags (issue 18): stored per document, decided by reviewers."""

from pipelines.candidate import Candidate


def store_quasi(document_id: int, found: list[Candidate]) -> int:
    """Store a machine pass's quasi-identifier flags for the document (replacing
    undecided ones from an earlier pass); returns how many were added."""
    return 0
