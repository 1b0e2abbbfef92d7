"""A year alone is a DATE (annotation guideline: "Specific dates, years…"): French
patterns for a year in context (fr.json, rules "year_*"), never a number that is an
article of a code, an amount or a count."""

import pytest

from pipelines.detection.config import DetectionConfig
from pipelines.detection.pipeline import detect_text

RULES_ONLY = DetectionConfig(recognizers=frozenset({"patterns"}))


def years(text: str) -> list[str]:
    result = detect_text(text, "fr_core_news_sm", config=RULES_ONLY, language_code="fr")
    return [s.text for s in result.spans if s.label == "DATE"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Le roman est paru en 1983.", ["1983"]),
        ("En 1998, il quitte Lyon.", ["1998"]),
        ("Il y vit depuis 2004 avec sa famille.", ["2004"]),
        ("L'année 2012 fut difficile, comme l'an 2000.", ["2012", "2000"]),
        ("Le film (1987) a été tourné vers 1985.", ["1987", "1985"]),
        ("Jean Moulin (1899-1943) est mort en juin 1943.", ["1899", "1943", "juin 1943"]),
        ("Il a joué entre 1990 et 1995, puis de 1996 à 1998.", ["1990", "1995", "1996", "1998"]),
        # The merge joins dates across ", " ("October 24, 2024", ensemble.ADJACENT_GAPS).
        ("Elle a gagné en 1987, 1989 et 1991.", ["1987, 1989", "1991"]),
        ("À partir de 1958, la saison 2012-2013 et à la mi-1998.", ["1958", "2012", "2013", "1998"]),
    ],
)
def test_a_year_in_context_is_a_date(text, expected):
    assert years(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "Vu les articles 1103 et 1104 du code civil et l'article 1240.",
        "Au titre de l'article 700 du code de procédure civile, la somme de 1500 euros.",
        "Il paiera de 2000 € et les articles 1382 à 1386 s'appliquent ; pièce n° 1998.",
        "Le tirage en 2000 exemplaires existe depuis 1500 ans.",
        "Il était armé d'un Colt M 1911.",
    ],
)
def test_an_article_an_amount_or_a_count_is_no_year(text):
    assert years(text) == []
