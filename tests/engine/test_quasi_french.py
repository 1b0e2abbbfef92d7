"""Quasi-identifier flags in French (issue 30): the categories of the English flags,
read from French lexicons and patterns given as data in fr.json ("quasi")."""

import pytest

from pipelines.candidate import Candidate
from pipelines.detection.languages import language
from pipelines.detection.models.nlp import load_nlp
from pipelines.detection.pipeline import detect_text
from pipelines.detection.quasi import flags as quasi

FR = quasi.rules_for(language("fr"))


def flags(text: str) -> set[tuple[str, str]]:
    assert FR is not None
    return {(q.label, q.text) for q in quasi.recognize(load_nlp("fr_core_news_sm")(text), FR)}


def final(text: str) -> tuple[set[tuple[str, str]], list[Candidate]]:
    result = detect_text(text, "fr_core_news_sm", language_code="fr")
    return {(q.label, q.text) for q in result.quasi}, result.spans


@pytest.mark.parametrize(
    ("text", "flag"),
    [
        ("Mme Roussel, âgée de 42 ans, a été entendue.", "âgée de 42 ans"),
        ("Sa sœur, âgée de trente-quatre ans, est partie.", "âgée de trente-quatre ans"),
        ("Le témoin, alors âgé d'environ 30 ans, a reconnu les faits.", "âgé d'environ 30 ans"),
        ("La victime avait 17 ans au moment des faits.", "17 ans"),
        ("Un mineur de 15 ans a été interpellé.", "15 ans"),
        ("Le conducteur (34 ans) a été placé en garde à vue.", "34 ans"),
    ],
)
def test_ages_in_words_and_figures(text, flag):
    assert ("DEM", flag) in flags(text)


def test_an_age_is_not_a_delay_or_a_seniority():
    found = flags("Il a 2 ans pour agir. Elle a 10 ans d'ancienneté dans l'entreprise.")
    assert not any(rule == "DEM" and "ans" in text for rule, text in found), found


def test_occupation_nationality_religion_ethnicity_education():
    found = flags(
        "Il travaillait comme chauffeur routier. Elle est infirmière depuis dix ans. "
        "Le prévenu, boulanger, demeurant à Lyon, est de nationalité algérienne. "
        "Un homme d'origine maghrébine, musulman, titulaire d'un CAP et d'un baccalauréat."
    )
    assert {
        ("DEM", "chauffeur routier"),
        ("DEM", "infirmière"),
        ("DEM", "boulanger"),
        ("DEM", "algérienne"),
        ("DEM", "d'origine maghrébine"),
        ("DEM", "musulman"),
        ("DEM", "CAP"),
        ("DEM", "baccalauréat"),
    } <= found


def test_a_profession_named_in_general_is_not_flagged():
    # No article, copula or "comme" before it: the profession in general, not someone's.
    assert not any(label == "DEM" for label, _ in flags("Les infirmières et les médecins de garde."))


def test_relatives_and_social_relations():
    found = flags(
        "Sa sœur aînée et son ex-compagnon étaient présents. La mère de la victime a témoigné. "
        "Il vivait chez son ancien codétenu, avec leur voisine."
    )
    assert {
        ("RELATION", "Sa sœur aînée"),
        ("RELATION", "son ex-compagnon"),
        ("RELATION", "La mère de la victime"),
        ("RELATION", "son ancien codétenu"),
        ("RELATION", "leur voisine"),
    } <= found


def test_places_of_detention_with_or_without_their_town():
    found = flags("Il est détenu au centre pénitentiaire de Fresnes, puis à la maison d’arrêt.")
    assert ("LOC", "centre pénitentiaire de Fresnes") in found
    assert ("LOC", "maison d’arrêt") in found


def test_events_conditions_injuries_marks_items_vehicles():
    found = flags(
        "Après le vol à main armée, la victime présentait une plaie au visage et une fracture du poignet droit. "
        "Diabétique, elle porte une cicatrice sur la joue. Il détenait 12 grammes de résine de cannabis et un "
        "couteau, et conduisait un véhicule Renault Clio."
    )
    assert {
        ("MISC", "vol à main armée"),
        ("MISC", "plaie au visage"),
        ("MISC", "fracture du poignet droit"),
        ("MISC", "Diabétique"),
        ("MISC", "cicatrice sur la joue"),
        ("MISC", "résine de cannabis"),
        ("MISC", "couteau"),
        ("MISC", "Renault Clio"),
        ("QUANTITY", "12 grammes"),
    } <= found


def test_durations_money_and_weekends():
    found = flags("Il a travaillé pendant trois ans, le week-end, pour 1 500 euros par mois.")
    assert {("DATETIME", "trois ans"), ("DATETIME", "week-end"), ("QUANTITY", "1 500 euros")} <= found


def test_a_detention_place_is_cut_to_its_piece_outside_a_direct_place():
    text = "Il a été incarcéré à la maison d'arrêt de Fleury-Mérogis."
    found, spans = final(text)
    assert ("LOCATION", "Fleury-Mérogis") in {(s.label, s.text) for s in spans}
    # The town is a direct span; the flag keeps the rest, without its trailing "de".
    assert ("LOC", "maison d'arrêt") in found


def test_the_whole_pipeline_flags_french_and_never_repeats_a_direct_span():
    text = (
        "M. Jean-Pierre DUPONT, âgé de 34 ans, boulanger, demeurant 12 rue de la Paix, 75002 Paris, "
        "a déclaré que sa fille était scolarisée au lycée."
    )
    found, spans = final(text)
    assert {("DEM", "âgé de 34 ans"), ("DEM", "boulanger"), ("RELATION", "sa fille")} <= found
    for label, flag in found:
        assert not any(flag in s.text for s in spans), (label, flag)


def test_a_language_without_a_quasi_section_raises_no_flags():
    # A third language that brings no quasi lexicons: no English list runs on its text.
    from dataclasses import replace

    bare = replace(language("fr"), quasi={})
    assert quasi.rules_for(bare) is None and not bare.quasi_identifiers
    assert quasi.rules_for(language("en")) is quasi.ENGLISH
