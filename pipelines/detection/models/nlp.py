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

# spaCy's own tokenizer factory, the one every model here is saved with.
SPACY_TOKENIZER = "spacy.Tokenizer.v1"
# Registered below: an empty spacy Tokenizer that `from_disk` then fills.
DEFERRED_TOKENIZER = "anonymizer.DeferredTokenizer.v1"


@lru_cache(maxsize=2)
def load_nlp(model_name: str) -> "Language":
    import spacy

    from pipelines.detection.models import minilm
    from pipelines.detection.models.catalog import resolve

    # A registry name (sm, md, research: models.py), a package name or a directory.
    # spacy.load never downloads, so a missing model is an immediate, clear OSError
    # rather than a network call.
    target = resolve(model_name)
    deferred = _saved_tokenizer(target) == SPACY_TOKENIZER
    overrides = {"nlp": {"tokenizer": {"@tokenizers": DEFERRED_TOKENIZER}}} if deferred else {}
    _register_deferred_tokenizer()
    # The encoder models' (open, research-trf) NER is a component spaCy must know before loading it.
    minilm.register()
    if load_nlp.cache_clear not in minilm.ON_LOAD_FAILURE:
        minilm.ON_LOAD_FAILURE.append(load_nlp.cache_clear)
    nlp = spacy.load(target, exclude=list(UNUSED_COMPONENTS), config=overrides)
    if deferred:
        # The pipeline's config says what it was saved with, as after a plain load.
        nlp._config["nlp"]["tokenizer"] = {"@tokenizers": SPACY_TOKENIZER}
    if "tok2vec" in nlp.pipe_names and "ner" in nlp.pipe_names and not _listens(nlp.get_pipe("ner")):
        # The shared tok2vec only fed the excluded components; NER has its own.
        nlp.remove_pipe("tok2vec")
    return nlp


def _register_deferred_tokenizer() -> None:
    """spaCy builds a pipeline's tokenizer twice on load: once from the language's
    defaults (its ~1,300 special cases, prefixes and suffixes) when the pipeline is
    constructed, then again from the model's own saved tokenizer, which replaces all
    of it, re-adding the special cases after each of the five patterns it sets. For
    a model saved with spaCy's plain tokenizer, starting from an empty one gives the
    same tokenizer (tests/engine/test_models.py compares the bytes) without the first
    build: ~0.05 s of a one-line `detect`."""
    from spacy.tokenizer import Tokenizer
    from spacy.util import registry

    if DEFERRED_TOKENIZER in registry.tokenizers:
        return

    @registry.tokenizers(DEFERRED_TOKENIZER)
    def deferred_tokenizer():
        def create(nlp: "Language") -> Tokenizer:
            return Tokenizer(nlp.vocab)

        return create


def _saved_tokenizer(target: str) -> str | None:
    """The tokenizer factory a model directory or package was saved with (its
    config.cfg's nlp.tokenizer), or None when that cannot be read."""
    from spacy.util import load_config

    from pipelines.detection.models.catalog import model_directory

    directory = model_directory(target)
    # Without its saved tokenizer the empty one would stay empty: only a model that
    # has both is deferred.
    if directory is None or not (directory / "config.cfg").is_file() or not (directory / "tokenizer").exists():
        return None
    try:
        config = load_config(directory / "config.cfg", interpolate=False)
        return config["nlp"]["tokenizer"]["@tokenizers"]
    except (KeyError, TypeError, ValueError, OSError):
        return None


def _listens(component) -> bool:
    return any("listener" in node.name for node in component.model.walk())
