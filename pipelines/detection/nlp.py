"""The spaCy pipeline, loaded once per process and shared by every recognizer."""

from functools import lru_cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # spaCy is imported when a model is first loaded, not with the module
    from spacy.language import Language

# Detection needs tokens and entities only: no tagger, parse or lemmas (presidio's
# context words are matched on lower-cased tokens instead, see presidio.py). On
# en_core_web_sm the NER pass alone is ~2.2x faster than the full pipeline, with
# identical entities.
UNUSED_COMPONENTS = ("tagger", "parser", "attribute_ruler", "lemmatizer", "senter", "morphologizer")


@lru_cache(maxsize=2)
def load_nlp(model_name: str) -> "Language":
    import spacy

    from pipelines.detection.models import resolve

    # A registry name (sm, md, research: models.py), a package name or a directory.
    # spacy.load never downloads, so a missing model is an immediate, clear OSError
    # rather than a network call.
    nlp = spacy.load(resolve(model_name), exclude=list(UNUSED_COMPONENTS))
    if "tok2vec" in nlp.pipe_names and "ner" in nlp.pipe_names and not _listens(nlp.get_pipe("ner")):
        # The shared tok2vec only fed the excluded components; NER has its own.
        nlp.remove_pipe("tok2vec")
    return nlp


def _listens(component) -> bool:
    return any("listener" in node.name for node in component.model.walk())
