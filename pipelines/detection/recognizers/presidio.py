"""presidio-analyzer's recognizers, run over the spaCy Doc we already have.

Presidio is wrapped around our loaded pipeline (never a second spaCy load, never a
download) and given the Doc's NLP artifacts, so each text goes through spaCy once.
Presidio's own SpacyRecognizer is removed: it would report the very same Doc
entities as `spacy_ner` and count one model as two agreeing sources.
"""

import os
from functools import lru_cache

# Must be set before presidio (tldextract) is imported: no public-suffix download.
os.environ.setdefault("TLDEXTRACT_PUBLIC_SUFFIX_LIST_URLS", "")

from presidio_analyzer import AnalyzerEngine, RecognizerRegistry  # noqa: E402
from presidio_analyzer.nlp_engine import NerModelConfiguration, SpacyNlpEngine  # noqa: E402
from spacy.language import Language  # noqa: E402
from spacy.tokens import Doc  # noqa: E402

from pipelines.candidate import Candidate  # noqa: E402
from pipelines.detection.recognizers import url_guard  # noqa: E402

SOURCE = "presidio"
MIN_SCORE = 0.4

# Copied from presidio's conf/spacy.yaml so context handling behaves as upstream.
_NER_CONFIGURATION = NerModelConfiguration(
    model_to_presidio_entity_mapping={
        "PER": "PERSON",
        "PERSON": "PERSON",
        "NORP": "NRP",
        "FAC": "LOCATION",
        "LOC": "LOCATION",
        "LOCATION": "LOCATION",
        "GPE": "LOCATION",
        "ORG": "ORGANIZATION",
        "ORGANIZATION": "ORGANIZATION",
        "DATE": "DATE_TIME",
        "TIME": "DATE_TIME",
    },
    low_confidence_score_multiplier=0.4,
    labels_to_ignore=[
        "ORG",
        "ORGANIZATION",
        "CARDINAL",
        "EVENT",
        "LANGUAGE",
        "LAW",
        # The research model's label for names of things (albums, typefaces…), which
        # teaches it "not a person"; the product maps it to nothing.
        "MISC",
        "MONEY",
        "ORDINAL",
        "PERCENT",
        "PRODUCT",
        "QUANTITY",
        "WORK_OF_ART",
    ],
)

PRESIDIO_TO_LABEL: dict[str, str] = {
    "DATE_TIME": "DATE",
    "LOCATION": "LOCATION",
    "PERSON": "PERSON",
    "NRP": "NRP",
}

# Presidio's recognizers for these fire on almost any number in a transcript
# (line numbers, page numbers, amounts) at low scores; they drown reviewers.
_NOISY_ENTITIES = frozenset({"US_BANK_NUMBER", "US_DRIVER_LICENSE", "US_PASSPORT", "US_ITIN", "MEDICAL_LICENSE"})


class SharedSpacyNlpEngine(SpacyNlpEngine):
    """A presidio NLP engine over an already loaded spaCy pipeline."""

    def __init__(self, nlp: Language) -> None:
        # The pipeline's own language ("en", "fr"…): presidio's recognizers and
        # context words are chosen by it.
        self.language = nlp.lang
        super().__init__(
            models=[{"lang_code": self.language, "model_name": nlp.meta.get("name", "shared")}],
            ner_model_configuration=_NER_CONFIGURATION,
        )
        self.nlp = {self.language: nlp}

    def load(self) -> None:  # the pipeline is already loaded; never download
        return None

    def artifacts(self, doc: Doc):
        artifacts = self._doc_to_nlp_artifact(doc, self.language)
        if not doc.has_annotation("LEMMA"):
            # Without a lemmatizer, presidio's context enhancer matches its context
            # words ("phone", "email", "ssn"…) against lower-cased tokens instead.
            artifacts.lemmas = [token.lower_ for token in doc]
            # The keywords the enhancer compares were derived from the (empty)
            # lemmas at construction: derive them again.
            artifacts.keywords = artifacts.set_keywords(self, artifacts.lemmas, self.language)
        return artifacts


@lru_cache(maxsize=2)
def _engine(nlp: Language) -> tuple[AnalyzerEngine, SharedSpacyNlpEngine, tuple[str, ...]]:
    nlp_engine = SharedSpacyNlpEngine(nlp)
    languages = [nlp_engine.language]
    registry = RecognizerRegistry(supported_languages=languages)
    registry.load_predefined_recognizers(nlp_engine=nlp_engine, languages=languages)
    registry.remove_recognizer("SpacyRecognizer")
    # Presidio's URL pattern backtracks quadratically on "a.a.a…" (2.5 ms a
    # character): a linear recognizer over the same top-level domains replaces it.
    url_guard.install(registry, nlp_engine.language)
    analyzer = AnalyzerEngine(registry=registry, nlp_engine=nlp_engine, supported_languages=languages)
    entities = tuple(sorted(set(analyzer.get_supported_entities(nlp_engine.language)) - _NOISY_ENTITIES))
    return analyzer, nlp_engine, entities


def recognize(doc: Doc, nlp: Language) -> list[Candidate]:
    analyzer, nlp_engine, entities = _engine(nlp)
    text = doc.text  # built once: each doc.text joins every token
    results = analyzer.analyze(
        text=text,
        language=nlp_engine.language,
        entities=list(entities),
        nlp_artifacts=nlp_engine.artifacts(doc),
        score_threshold=MIN_SCORE,
        return_decision_process=True,
    )
    found = []
    for result in results:
        label = PRESIDIO_TO_LABEL.get(result.entity_type, result.entity_type)
        recognizer = (result.recognition_metadata or {}).get("recognizer_name", "")
        found.append(
            Candidate(
                result.start,
                result.end,
                label,
                text[result.start : result.end],
                (SOURCE,),
                float(result.score),
                f"presidio:{recognizer}{_explanation(result)}",
            )
        )
    return found


def _explanation(result) -> str:
    """Presidio's decision, kept with the span: the pattern that matched and the
    context word that raised the score. Rules are joined with commas by the
    ensemble, so none appear inside."""
    explanation = result.analysis_explanation
    if explanation is None:
        return ""
    parts = []
    if explanation.pattern_name:
        parts.append(f"pattern {explanation.pattern_name}")
    if explanation.supportive_context_word:
        parts.append(f"context '{explanation.supportive_context_word}' +{explanation.score_context_improvement:.2f}")
    return f"[{'; '.join(parts).replace(',', ';')}]" if parts else ""
