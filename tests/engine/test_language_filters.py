"""The filters, the calibration and the quasi-identifier flags read the text's
language's words (filtering/words.py, languages/<code>.json): English lists never run
on French text, and every label a language can emit has a colour."""

import re
from pathlib import Path

import pytest

from pipelines.candidate import Candidate
from pipelines.detection import languages
from pipelines.detection.config import DetectionConfig
from pipelines.detection.filtering.filters import apply_filters
from pipelines.detection.filtering.words import filter_words
from pipelines.detection.languages import language, rules
from pipelines.detection.merging import calibration
from pipelines.detection.pipeline import detect_text
from pipelines.labels import LABEL_COLOURS

FR = filter_words("fr")
EN = filter_words("en")
RULES_ONLY = DetectionConfig(recognizers=frozenset({"patterns", "cues", "gazetteer"}))
LABELS_CSS = Path(__file__).resolve().parents[2] / "static" / "labels.css"


def at(text: str, needle: str, label: str, sources: tuple[str, ...] = ("spacy",)) -> Candidate:
    start = text.index(needle)
    return Candidate(start, start + len(needle), label, needle, sources, 0.6)


def test_english_keeps_every_rule_and_french_only_those_it_has_words_for():
    assert EN.off == frozenset()
    # The wordfreq English-word rules, the English determiners, the English kinds of
    # work, the English names of peoples, languages and holidays have no French list;
    # every other rule has one.
    assert FR.off == {
        "place_nationality",
        "holiday",
        "common_word",
        "person_common_phrase",
        "person_noun_shape",
        "person_after_determiner",
        "person_names_a_work",
    }
    assert EN.place_context and not FR.place_context


@pytest.mark.parametrize("text", ["Le 1er mars, M. Dupont est venu.", "Il est revenu le 12 janvier avec Mme Roussel."])
def test_a_french_date_without_a_year_passes_the_date_filter(text):
    # The English calendar (no "mars", no "1er") used to drop these as "no calendar date".
    result = detect_text(text, "", config=RULES_ONLY, language_code="fr")
    dates = [s.text for s in result.spans if s.label == "DATE"]
    assert dates and not [f for f in result.filtered if f.candidate.label == "DATE"], result.filtered


def test_an_english_word_list_does_not_judge_a_french_text():
    text = "Weather a été vu à Lyon."
    weather = at(text, "Weather", "PERSON")
    assert apply_filters([weather], text=text)[0] == []  # English: a common English word opening a sentence
    assert apply_filters([weather], text=text, words=FR)[0] == [weather]


def test_french_role_words_stop_words_and_non_dates_are_filtered_in_french_only():
    text = "Le Greffier et Nous avons attendu pendant 15 ans."
    greffier = at(text, "Greffier", "PERSON")
    nous = at(text, "Nous", "LOCATION")
    duration = at(text, "15 ans", "DATE", ("presidio",))
    kept, dropped = apply_filters([greffier, nous, duration], text=text, words=FR)
    no_date = "no calendar date (month, weekday, year, decade, day or numeric date)"
    assert kept == [] and {d.reason for d in dropped} >= {"role word", no_date}
    assert any(d.reason.startswith("closed-class") for d in dropped)
    kept_en, _ = apply_filters([greffier, nous], text=text)
    assert kept_en == [greffier, nous]  # neither is an English role or stop word


def test_a_french_amount_of_time_is_no_time_in_french():
    text = "Il a attendu pendant 15 ans, jusqu'au 3 mars 2019."
    amount = at(text, "15 ans", "TIME", ("presidio",))
    point = at(text, "3 mars 2019", "DATE", ("patterns",))
    kept, dropped = apply_filters([amount, point], text=text, words=FR)
    assert kept == [point] and [d.reason for d in dropped] == ["an amount of time, not a point in time"]
    assert apply_filters([amount], text=text)[0] == [amount]  # "ans" is no English time unit


def test_a_french_title_is_trimmed_off_a_name():
    text = "Le Président Jean Moulin a statué."
    kept, _ = apply_filters([at(text, "Président Jean Moulin", "PERSON")], text=text, words=FR)
    assert [c.text for c in kept] == ["Jean Moulin"]


def test_calibration_reads_the_language_organization_and_common_words():
    text = "Il travaille à la Caisse de Lyon depuis 2019."
    bank = at(text, "Caisse de Lyon", "ORGANIZATION")
    # English organization words do not know "Caisse": capped as an organization without a signal.
    assert calibration.probability(bank, text) <= calibration.ORGANIZATION_WITHOUT_SIGNAL
    assert calibration.probability(bank, text, FR) > calibration.ORGANIZATION_WITHOUT_SIGNAL
    common = calibration.FEATURES.index("common_words_only")
    semaine = at("La Semaine Sainte", "Semaine", "LOCATION")
    assert calibration.features(semaine, "", FR)[common] == 1.0
    assert calibration.features(semaine, "", EN)[common] == 0.0  # not an English word


def test_quasi_identifier_flags_run_for_french_from_its_own_lexicons():
    # French brings its quasi lexicons as data (fr.json "quasi"); English keeps its code.
    assert language("en").quasi_identifiers and language("fr").quasi_identifiers
    text = "Mme Roussel, âgée de 42 ans, infirmière, habite Rennes."
    result = detect_text(text, "fr_core_news_sm", language_code="fr")
    assert ("DEM", "âgée de 42 ans") in {(q.label, q.text) for q in result.quasi}


def test_presidio_entities_are_renamed_as_the_language_says():
    found = [Candidate(0, 27, "IBAN_CODE", "FR7630006000011234567890189", ("presidio",), 0.9)]
    assert [c.label for c in rules.relabel(found, language("fr").presidio_labels)] == ["ID"]
    text = "Virement sur le compte FR7630006000011234567890189 depuis l'adresse IP 192.168.1.20."
    result = detect_text(text, "fr_core_news_sm", language_code="fr")
    assert {(s.text, s.label) for s in result.spans} >= {("FR7630006000011234567890189", "ID"), ("192.168.1.20", "ID")}


def _emittable(code: str) -> set[str]:
    """Every label a language's pipeline can put on a span: its declared labels and
    role labels, its model's mapped labels, its patterns' and cues' labels, and
    presidio's entities over its model, renamed as the pipeline renames them."""
    from pipelines.detection.models.nlp import load_nlp
    from pipelines.detection.recognizers.presidio import PRESIDIO_TO_LABEL, _engine

    lang = language(code)
    labels = {*lang.labels, *lang.role_labels, *lang.model_labels.values()}
    labels |= {rule.label for rule in (*lang.patterns, *lang.cues)}
    _analyzer, _engine_, entities = _engine(load_nlp(lang.spacy_model))
    for entity in entities:
        label = PRESIDIO_TO_LABEL.get(entity, entity)
        labels.add(lang.presidio_labels.get(label, lang.presidio_labels.get(entity, label)))
    return labels


@pytest.mark.parametrize("code", [c for c in languages.codes() if not language(c).builtin_rules])
def test_every_label_a_language_can_emit_has_a_colour_and_an_accent(code):
    css = LABELS_CSS.read_text(encoding="utf-8")
    backgrounds = set(re.findall(r'\[data-label="([A-Z_]+)"\] \{ --c: #[0-9a-f]{6}; \}', css))
    accents = set(re.findall(r'\[data-label="([A-Z_]+)"\] \{ --b: #[0-9a-f]{6}; \}', css))
    labels = _emittable(code)
    assert {"PERSON", "LAWYER", "DATE", "RG"} <= labels
    assert labels - set(LABEL_COLOURS) == set(), "a label without a colour in pipelines/labels.py"
    assert labels - backgrounds == set(), "a label without a background in static/labels.css"
    assert labels - accents == set(), "a label without an accent in static/labels.css"
