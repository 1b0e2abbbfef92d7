"""French names through the name identity, propagation and the corpus memory
(issue 30): they read the language's words (filtering/words.py, fr.json), so
particles ("de", "du", "Le"), titles ("Maître", "Monsieur") and French determiners
("la fontaine") are handled in French, hyphenated first names and upper-case
surnames match, and French common words never spread."""

import pytest

from pipelines.candidate import Candidate
from pipelines.detection.filtering.words import filter_words
from pipelines.detection.merging.propagate import propagate
from pipelines.detection.pipeline import detect_text
from pipelines.detection.recognizers.memory import CompiledMemory, CorpusMemory, MemoryName
from pipelines.names import NameIdentity, english_name_words, name_key, name_parts

FR = filter_words("fr")
EN = filter_words("en")


def at(text: str, needle: str, label: str = "PERSON", sources: tuple[str, ...] = ("cues",), nth: int = 0) -> Candidate:
    start = -1
    for _ in range(nth + 1):
        start = text.index(needle, start + 1)
    return Candidate(start, start + len(needle), label, needle, sources, 0.9)


def found(identity: NameIdentity, text: str) -> list[str]:
    return [text[o.start : o.end] for o in identity.find(text) if o.kind != "spelled"]


def test_english_keeps_its_own_name_words():
    assert EN.names is english_name_words()
    assert FR.names.code == "fr" and FR.names.common_word is not None


@pytest.mark.parametrize(
    ("name", "parts"),
    [
        ("Maître Paul MARTIN", ["paul", "martin"]),
        ("Monsieur Jean-Pierre DUPONT", ["jean-pierre", "jean", "pierre", "dupont"]),
        ("Président Claire DURAND", ["claire", "durand"]),
        ("Pierre des Essarts", ["pierre", "essarts"]),
        ("Sophie Le Goff", ["sophie", "goff"]),
        ("Hélène de La Fontaine", ["hélène", "fontaine"]),
    ],
)
def test_french_titles_and_particles_are_no_name_parts(name, parts):
    assert name_parts(name, words=FR.names) == parts


def test_english_words_would_keep_french_titles_as_parts():
    # What this fixes: on English words "Maître" and "des" were parts of the name.
    assert "maître" in name_parts("Maître Paul MARTIN")
    assert "des" in name_parts("Pierre des Essarts")


def test_the_identity_matches_french_forms_and_not_the_common_noun():
    text = (
        "Mme Claire Fontaine a signé. La fontaine du jardin fuyait. FONTAINE conteste. "
        "M. Jean-Pierre Dupont et JEAN-PIERRE DUPONT ; Jean-Pierre est venu. Des pièces ; Le Goff plaide."
    )
    identity = NameIdentity(
        [("Claire Fontaine", "PERSON"), ("Jean-Pierre DUPONT", "PERSON"), ("Sophie Le Goff", "PERSON")], FR.names
    )
    hits = found(identity, text)
    assert hits.count("Claire Fontaine") == 1 and "FONTAINE" in hits
    assert "fontaine" not in hits  # "la fontaine": a common noun after a French article
    assert {"Jean-Pierre Dupont", "JEAN-PIERRE DUPONT", "Jean-Pierre", "Le Goff"} <= set(hits)
    assert "Des" not in hits and "Le" not in hits
    # On English words the determiner rule does not know "la": the noun was the name.
    assert "fontaine" in found(NameIdentity([("Claire Fontaine", "PERSON")]), text)


def test_name_keys_agree_across_case_and_titles():
    keys = {name_key(t, words=FR.names) for t in ("DUPONT", "Dupont", "dupont")}
    assert keys == {"dupont"}
    text = "la fontaine"
    assert name_key("fontaine", context=(text, 3, 11), words=FR.names).startswith("~")


def test_propagation_spreads_french_names_with_particles_hyphens_and_capitals():
    text = (
        "Monsieur Jean-Pierre DUPONT, appelant. Maître Sophie Le Goff, avocate.\n"
        "La Cour relève que M. Dupont a signé. Jean-Pierre a quitté Lyon. Le Goff a plaidé pour DUPONT.\n"
        "Le Tribunal a statué. La Cour confirme."
    )
    spans = [at(text, "Jean-Pierre DUPONT"), at(text, "Sophie Le Goff")]
    new = {(c.text, c.label) for c in propagate(text, spans, FR)}
    assert {("Dupont", "PERSON"), ("Jean-Pierre", "PERSON"), ("Le Goff", "PERSON"), ("DUPONT", "PERSON")} <= new
    assert not any(t in {"Le", "La", "Cour", "Monsieur", "Maître"} for t, _ in new), new


@pytest.mark.parametrize("word", ["Monsieur", "Madame", "Cour", "Tribunal", "Maître"])
def test_french_common_words_never_spread_even_from_a_cue(word):
    text = f"{word} a parlé. {word} a répondu. Puis {word} est parti."
    spans = [at(text, word, sources=("cues", "spacy"))]
    assert propagate(text, spans, FR) == []


def test_a_model_guess_that_is_a_common_french_word_does_not_spread():
    text = "Selon Justice, la justice est lente. La justice passe. Justice encore."
    spans = [at(text, "Justice", sources=("spacy",), nth=0), at(text, "Justice", sources=("spacy",), nth=1)]
    assert not any(c.text.lower() == "justice" for c in propagate(text, spans, FR))


def test_the_corpus_memory_reads_french_words():
    memory = CorpusMemory(names=(MemoryName("Maître Claire Fontaine", "PERSON", (3,)),))
    compiled = CompiledMemory(memory, FR.names, FR.frequent_name)
    text = "Claire Fontaine est présente. La fontaine du village. Maître a parlé. FONTAINE plaide."
    hits = [c.text for c in compiled.candidates(text)]
    assert "Claire Fontaine" in hits and "FONTAINE" in hits
    assert "fontaine" not in hits and "Maître" not in hits
    # English words keep "Maître" as a part of the remembered name.
    assert "Maître" in [c.text for c in CompiledMemory(memory).candidates(text)]


def test_french_detection_end_to_end_finds_the_surname_and_not_the_common_noun():
    text = (
        "ENTRE : Monsieur Jean-Pierre DUPONT, né le 3 mars 1975, appelant.\n"
        "ET : Madame Hélène de La Fontaine, intimée.\n"
        "Selon DUPONT, la fontaine du jardin était hors d'usage. La Cour relève que Mme de La Fontaine conteste."
    )
    result = detect_text(text, "fr_core_news_sm", language_code="fr")
    texts = [(s.text, s.label) for s in result.spans]
    assert ("Jean-Pierre DUPONT", "PERSON") in texts
    assert texts.count(("DUPONT", "PERSON")) == 1
    assert not any(t == "fontaine" for t, _ in texts)
    assert not any(t in {"La Cour", "Cour", "Madame", "Monsieur"} and label == "PERSON" for t, label in texts)
