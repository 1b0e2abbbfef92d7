"""The spaCy pipeline, loaded once per process and shared by every recognizer."""

from functools import lru_cache

import spacy
from spacy.language import Language


@lru_cache(maxsize=2)
def load_nlp(model_name: str) -> Language:
    # Loading by package name only: spacy.load never downloads, so a missing model
    # is an immediate, clear OSError rather than a network call.
    return spacy.load(model_name)
