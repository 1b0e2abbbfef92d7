"""Quasi-identifier flags in the engine (issue 18): detection per category from the
same Doc as the direct spans, `resolve` against the direct spans, generalisation."""

import pytest
from django.conf import settings

from pipelines.candidate import Candidate
from pipelines.detection.models.nlp import load_nlp
from pipelines.detection.pipeline import detect_text
from pipelines.detection.quasi import flags as quasi


def flags(text: str) -> set[tuple[str, str]]:
    return {(q.label, q.text) for q in quasi.recognize(load_nlp(settings.SPACY_MODEL)(text))}


def final(text: str) -> tuple[set[tuple[str, str]], list[Candidate]]:
    result = detect_text(text, settings.SPACY_MODEL)
    return {(q.label, q.text) for q in result.quasi}, result.spans


def test_dem_occupation_age_religion_ethnicity_education() -> None:
    found = flags(
        "A. I was a truck driver for the county. She worked as a registered nurse.\n"
        "Q. And he is Catholic? A. Yes. The caller said a black male, about 23 years old.\n"
        "He got his GED inside."
    )
    assert ("DEM", "truck driver") in found
    assert ("DEM", "nurse") in found
    assert ("DEM", "Catholic") in found
    assert ("DEM", "black male") in found
    assert ("DEM", "23 years old") in found
    assert ("DEM", "GED") in found


def test_an_occupation_named_in_general_is_not_flagged() -> None:
    # "what does a medical investigator do" would be flagged by the article; a bare
    # mention of the profession without an article or copula is not.
    assert not any(label == "DEM" for label, _ in flags("The investigators talked to the doctors."))


def test_datetime_dates_and_durations() -> None:
    found = flags("Q. How long have you done this? A. 25 years, 32 hours a week, mostly weekends.")
    assert ("DATETIME", "25 years") in found
    assert ("DATETIME", "32 hours a week") in found
    assert ("DATETIME", "weekends") in found
    assert ("DATETIME", "the summer of 1998") in flags("It happened in the summer of 1998 near the river.")


def test_vague_dates_and_greetings_are_not_flagged() -> None:
    assert not any(label == "DATETIME" for label, _ in flags("Good morning. Today we talk about it now."))
    deictic = flags("We will meet again next week. It took the whole day, and the next month too.")
    assert not any(label == "DATETIME" for label, _ in deictic), deictic


def test_loc_quantity_from_entities_and_patterns() -> None:
    found = flags("We drove from Sacramento to Reno. He carried $40 and walked 100 yards to the car.")
    assert ("LOC", "Sacramento") in found
    assert ("LOC", "Reno") in found
    assert ("QUANTITY", "$40") in found
    assert ("QUANTITY", "100 yards") in found


def test_misc_events_conditions_injuries_marks_items_vehicles() -> None:
    found = flags(
        "This was about the shooting on Canfield. He is diabetic and uses a wheelchair.\n"
        "He had two gunshot wounds and a tattoo on his left arm. There was one in the chest.\n"
        "We found marijuana in his pocket. He drove a Cadillac."
    )
    assert ("MISC", "shooting") in found
    assert ("MISC", "diabetic") in found
    assert ("MISC", "wheelchair") in found
    assert ("MISC", "gunshot wounds") in found
    assert ("MISC", "tattoo on his left arm") in found
    assert ("MISC", "one in the chest") in found
    assert ("MISC", "marijuana") in found
    assert ("MISC", "Cadillac") in found


def test_a_bare_injury_noun_says_nothing_without_its_type_or_location() -> None:
    found = flags("Did you see the wounds? The injuries were photographed. A wound on his hand.")
    assert {t for label, t in found if label == "MISC"} == {"wound on his hand"}


def test_a_count_and_a_body_part_without_an_injury_word_is_no_injury() -> None:
    assert not any(label == "MISC" for label, _ in flags("She put one in the back of the truck."))


def test_relations_are_anchored_by_a_possessive() -> None:
    found = flags("My aunt raised me. His cellmate testified. Her late husband worked nights.")
    assert ("RELATION", "My aunt") in found
    assert ("RELATION", "His cellmate") in found
    assert ("RELATION", "Her late husband") in found
    assert not any(label == "RELATION" for label, _ in flags("We would call the family and a friend."))


def test_flags_are_never_auto_accepted_and_carry_their_rule() -> None:
    for flag in quasi.recognize(load_nlp(settings.SPACY_MODEL)("My sister is a nurse in Fresno.")):
        assert flag.sources == (quasi.SOURCE,)
        assert flag.score == quasi.SCORE < 0.9
        assert flag.label in quasi.CATEGORIES
        assert flag.rule


def test_pipeline_flags_have_whole_text_offsets_and_never_repeat_direct_spans() -> None:
    text = (
        "PAROLE HEARING\n" * 3 + "A. My sister Elena Delgado drove me to Fresno. I was 19 years old. I was a welder.\n"
    )
    found, spans = final(text)
    assert ("RELATION", "My sister") in found
    assert ("DEM", "welder") in found
    result = detect_text(text, settings.SPACY_MODEL)
    for flag in result.quasi:
        assert text[flag.start : flag.end] == flag.text
        assert not any(flag.overlaps(span) for span in spans), flag
    # The age and the place are direct spans (AGE, LOCATION): not flagged again,
    # nor the age's words around the number the AGE span holds.
    assert not any(t in ("19 years old", "Fresno") for _, t in found)
    assert not any(word in t for _, t in found for word in ("years", "old", "age")), found


def test_an_ages_words_left_beside_its_span_are_no_flag() -> None:
    text = "Q. How old were you?\nA. I was 19 years old, and at the age of 30 he left, aged\n42.\n"
    found, spans = final(text)
    assert [s.text for s in spans if s.label == "AGE"] == ["19", "30", "42"]
    assert not [t for _, t in found if not any(ch.isdigit() for ch in t)], found


def c(text: str, sub: str, label: str, rule: str = "") -> Candidate:
    start = text.index(sub)
    return Candidate(start, start + len(sub), label, sub, ("x",), 0.5, rule)


def test_resolve_drops_covered_flags_and_trims_overlapping_ones() -> None:
    text = "It was the summer of 1998 in Fresno, about 19 years old."
    found = [
        c(text, "the summer of 1998", "DATETIME", "date"),
        c(text, "Fresno", "LOC", "place"),
        c(text, "about 19 years old", "DATETIME", "date"),
    ]
    direct = [c(text, "1998", "DATE"), c(text, "Fresno", "LOCATION"), c(text, "19 years old", "AGE")]
    resolved = quasi.resolve(text, found, direct)
    assert [(q.label, q.text, q.rule) for q in resolved] == [("DATETIME", "summer", "date")]
    assert resolved[0].sources == (quasi.SOURCE,)


def test_resolve_keeps_the_longest_of_overlapping_flags() -> None:
    text = "He had a tattoo on his arm."
    found = [c(text, "tattoo", "MISC", "mark"), c(text, "tattoo on his arm", "MISC", "mark")]
    assert [q.text for q in quasi.resolve(text, found, [])] == ["tattoo on his arm"]


@pytest.mark.parametrize(
    ("text", "category", "rule", "expected"),
    [
        ("March 3, 1985", "DATETIME", "date", "1985"),
        ("the summer of 1998", "DATETIME", "date", "1998"),
        ("the 1990s", "DATETIME", "date", "the 1990s"),
        ("August 9th", "DATETIME", "date", "August"),
        ("9:05 a.m.", "DATETIME", "time", "in the morning"),
        ("10:40 p.m.", "DATETIME", "time", "at night"),
        ("25 years", "DATETIME", "duration", "decades"),
        ("32 hours a week", "DATETIME", "duration", "many hours"),
        ("Saturday", "DATETIME", "date", "a day of the week"),
        ("Folsom", "LOC", "place", "a city in California"),
        ("Ferguson", "LOC", "place", "a city in Missouri"),
        ("California", "LOC", "place", "a US state"),
        ("Mexico", "LOC", "place", "a country"),
        ("the corner by the creek", "LOC", "place", "a place"),
        ("19", "DEM", "age", "late teens"),
        ("42 years old", "DEM", "age", "early forties"),
        ("nineteen", "DEM", "age", "late teens"),
        ("truck driver", "DEM", "occupation", "a worker"),
        ("Catholic", "DEM", "religion", "religious"),
        ("7", "QUANTITY", "measure", "fewer than 10"),
        ("100 yards", "QUANTITY", "measure", "between 100 and 200 yards"),
        ("$40", "QUANTITY", "money", "between $40 and $50"),
        ("My aunt", "RELATION", "kinship", "a relative"),
        ("His cellmate", "RELATION", "social", "an acquaintance"),
        ("diabetic", "MISC", "condition", "a medical condition"),
        ("tattoo on his arm", "MISC", "mark", "a distinctive mark"),
        ("shooting", "MISC", "event", "an incident"),
    ],
)
def test_generalise(text: str, category: str, rule: str, expected: str) -> None:
    from pipelines.pseudonymize.generalize import generalize

    assert generalize(text, category, rule) == expected


def test_generalise_without_a_rule_uses_the_category_and_never_returns_the_original() -> None:
    from pipelines.pseudonymize.generalize import generalize

    for category in quasi.CATEGORIES:
        out = generalize("Zanzibar Street 12", category)
        assert out and "Zanzibar" not in out
    with pytest.raises(ValueError, match="category"):
        generalize("x", "NOPE")
