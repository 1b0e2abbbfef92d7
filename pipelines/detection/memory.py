"""A corpus's memory (issue 17): what its reviewers already decided.

Plain data handed to the pipeline by the caller: names accepted in the corpus's
approved documents (found again as the source `corpus-memory`) and surface forms
its reviewers rejected and never accepted (dropped as `corpus-suppression`), each
with the documents it came from. One corpus's memory never reaches another: the
caller builds it per corpus.
"""

from dataclasses import dataclass

MEMORY_SOURCE = "corpus-memory"
SUPPRESSION_SOURCE = "corpus-suppression"


@dataclass(frozen=True)
class CorpusMemory:
    """Empty by default: detection then runs exactly as without memory."""
