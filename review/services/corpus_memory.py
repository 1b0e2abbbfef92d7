"""A corpus's memory (issue 17): accepted names and suppressed forms, built from
its approved documents and handed to detection (pipelines.detection.memory)."""

from pipelines.detection.memory import CorpusMemory


def corpus_memory(corpus_id: int) -> CorpusMemory | None:
    """What detection of a document of this corpus should remember; None: nothing."""
    return None
