"""Span edges (pipelines/detection/merging/edges.py): no suggestion cuts a word or
carries a stray bracket, quote, comma or a word that is not part of the value."""

from dataclasses import replace

import pytest

from pipelines.candidate import Candidate
from pipelines.detection.languages import language
from pipelines.detection.merging.edges import cuts_a_word, tidy, title_letters
from pipelines.detection.merging.ensemble import merge


def span(text: str, needle: str, label: str, nth: int = 0) -> Candidate:
    start = -1
    for _ in range(nth + 1):
        start = text.index(needle, start + 1)
    return Candidate(start, start + len(needle), label, needle, ("spacy",), 0.9)


def texts(text: str, spans: list[Candidate]) -> list[tuple[str, str]]:
    out = tidy(text, spans)
    for c in out:
        assert text[c.start : c.end] == c.text
    return [(c.text, c.label) for c in out]


def test_a_span_inside_a_word_is_no_suggestion():
    text = "There was nothing there."
    assert cuts_a_word(text, text.index("thing"), text.index("thing") + 5)
    assert texts(text, [span(text, "thing", "PERSON")]) == []


def test_stray_brackets_quotes_and_commas_leave_the_edges():
    text = 'He said (Smith, and "Jones" left.'
    assert texts(text, [span(text, "(Smith,", "PERSON"), span(text, '"Jones"', "PERSON")]) == [
        ("Smith", "PERSON"),
        ("Jones", "PERSON"),
    ]


def test_a_bracket_that_belongs_to_the_value_stays():
    text = "Call (559) 555-0147 today."
    assert texts(text, [span(text, "(559) 555-0147", "PHONE_NUMBER")]) == [("(559) 555-0147", "PHONE_NUMBER")]


def test_a_time_keeps_its_digits_and_clock_words_only():
    text = "It was 12:33 approximately, or about 8:40 AM, at noon."
    found = texts(
        text,
        [span(text, "12:33 approximately", "TIME"), span(text, "about 8:40 AM", "TIME"), span(text, "noon", "TIME")],
    )
    assert found == [("12:33", "TIME"), ("8:40 AM", "TIME"), ("noon", "TIME")]


def test_a_number_after_a_name_goes_unless_it_is_part_of_the_place():
    text = "Smith 12 went to San Quentin 12 years ago, then to Highway 101 and Local 12."
    found = texts(
        text,
        [
            span(text, "Smith 12", "PERSON"),
            span(text, "San Quentin 12", "ORGANIZATION"),
            span(text, "Highway 101", "LOCATION"),
            span(text, "Local 12", "ORGANIZATION"),
        ],
    )
    assert found == [
        ("Smith", "PERSON"),
        ("San Quentin", "ORGANIZATION"),
        ("Highway 101", "LOCATION"),
        ("Local 12", "ORGANIZATION"),
    ]


def test_the_merge_applies_the_edges():
    text = "Later (Marcus Delgado arrived; nothing else."
    merged = merge(text, [span(text, "(Marcus Delgado", "PERSON"), span(text, "thing", "PERSON")])
    assert [(c.text, c.label) for c in merged] == [("Marcus Delgado", "PERSON")]


def test_an_article_is_left_out_of_a_name():
    text = "I worked for the St. Louis Delivery Service."
    assert texts(text, [span(text, "the St. Louis Delivery Service", "ORGANIZATION")]) == [
        ("St. Louis Delivery Service", "ORGANIZATION")
    ]


def test_a_place_takes_the_word_before_it_that_makes_a_known_place():
    """A model trained on GUM, whose tagger reads "United" as a verb, proposed
    "States" alone: the word before joins when the two make a place the lists know."""
    text = "He taught in the United States, then in New York. The Grand Canyon and Old Dallas."
    spans = [span(text, "States", "LOCATION"), span(text, "York", "LOCATION"), span(text, "Canyon", "LOCATION")]
    spans.append(span(text, "Dallas", "LOCATION"))
    assert texts(text, spans) == [
        ("United States", "LOCATION"),
        ("New York", "LOCATION"),
        ("Canyon", "LOCATION"),  # "Grand Canyon" is no place the lists hold: left as found
        ("Dallas", "LOCATION"),  # "Old Dallas" neither
    ]
    # Another span on the word keeps it.
    text = "Rebecca New York was here."
    assert texts(text, [span(text, "Rebecca New", "PERSON"), span(text, "York", "LOCATION")]) == [
        ("Rebecca New", "PERSON"),
        ("York", "LOCATION"),
    ]


def test_a_street_takes_its_house_number():
    text = "I live at 1452 North Peach Avenue, near 7B Elm St. and 2020 Canfield."
    spans = [span(text, "North Peach Avenue", "LOCATION"), span(text, "Elm St.", "LOCATION")]
    spans.append(span(text, "Canfield", "LOCATION"))
    assert texts(text, spans) == [
        ("1452 North Peach Avenue", "LOCATION"),
        ("7B Elm St.", "LOCATION"),
        ("Canfield", "LOCATION"),  # no street's type: a number before a name may be a year
    ]


def test_glued_text_and_unspaced_scripts_are_no_cut_words():
    """PDF text glues words and numbers; Chinese has no spaces: only a cut inside
    one cased word ("thing" in "nothing") is dropped."""
    cases = [
        ("I met Sean O'Brien12 and", "Sean O'Brien", "PERSON"),
        ("At 10:30hrs we left.", "10:30", "TIME"),
        ("held onMarch 3, 2019", "March 3, 2019", "DATE"),
        ("It was March 3rd.", "March 3", "DATE"),
        ("我叫王小明，今天来了", "王小明", "PERSON"),
    ]
    for text, needle, label in cases:
        assert texts(text, [span(text, needle, label)]) == [(needle, label)], needle


def test_a_typewritten_pages_ocr_digits_inside_a_name_are_its_letters():
    """OCR reads "l" as "1": "Cu" of "Cu1breth" would be a span ending inside the
    name; a number glued after a name stays out of it."""
    for text, needle, whole in [
        ("Cross-Examination by Mr. Cu1breth . . . . 8", "Cu", "Cu1breth"),
        ("I told Mr. Ho11and so.", "Ho", "Ho11and"),
        ("I met Sean O'Brien12 and", "Sean O'Brien", "Sean O'Brien"),
        ("Call Sean O'Brien 10am", "Sean O'Brien", "Sean O'Brien"),
        ("Call Sean O'Brien10am today", "Sean O'Brien", "Sean O'Brien"),
    ]:
        assert texts(text, [span(text, needle, "PERSON")]) == [(whole, "PERSON")], text


def test_a_capitalised_article_is_part_of_a_name():
    text = "AN NGUYEN: My name is An Nguyen. We flew to The Hague."
    found = texts(text, [span(text, "An Nguyen", "PERSON"), span(text, "The Hague", "LOCATION")])
    assert found == [("An Nguyen", "PERSON"), ("The Hague", "LOCATION")]


def test_a_number_before_a_colon_stays_with_a_place():
    text = "driving on Highway 101: then Ward 5% of the time"
    assert texts(text, [span(text, "Highway 101", "LOCATION")]) == [("Highway 101", "LOCATION")]


def test_a_name_takes_its_initials_but_not_a_question_or_answer_marker():
    text = "Kent 108 (P. Simmons 84; J. R. Smith 5)\nQ. Wilson, where were you?\nA. Brown was there."
    got = texts(
        text,
        [
            span(text, "Simmons", "PERSON"),
            span(text, "Smith", "PERSON"),
            span(text, "Wilson", "PERSON"),
            span(text, "Brown", "PERSON"),
        ],
    )
    assert got == [("P. Simmons", "PERSON"), ("J. R. Smith", "PERSON"), ("Wilson", "PERSON"), ("Brown", "PERSON")]


def test_a_full_name_ends_before_of_and_where_the_person_is_from():
    text = "said John Casesa of Schroder Wertheim, beat Peter Nicol of Scotland; Joan of Arc"
    got = texts(
        text,
        [
            span(text, "John Casesa of Schroder Wertheim", "PERSON"),
            span(text, "Peter Nicol of Scotland", "PERSON"),
            span(text, "Joan of Arc", "PERSON"),
        ],
    )
    # What followed "of" stays a span of its own: cut off the person, it must not be readable.
    assert got == [
        ("John Casesa", "PERSON"),
        ("Schroder Wertheim", "ORGANIZATION"),
        ("Peter Nicol", "PERSON"),
        ("Scotland", "LOCATION"),
        ("Joan of Arc", "PERSON"),
    ]
    # Unless another span already names it.
    both = [span(text, "Peter Nicol of Scotland", "PERSON"), span(text, "Scotland", "LOCATION")]
    assert texts(text, both) == [("Peter Nicol", "PERSON"), ("Scotland", "LOCATION")]


def test_a_title_is_no_initial():
    text = "Ask Mr. Smith and Dr. Jones."
    assert texts(text, [span(text, "Smith", "PERSON"), span(text, "Jones", "PERSON")]) == [
        ("Smith", "PERSON"),
        ("Jones", "PERSON"),
    ]


def test_a_given_name_before_a_surname_joins_it_unless_it_is_a_common_word():
    text = "said John Kornblum on Monday. Will Carling said so."
    assert texts(text, [span(text, "Kornblum", "PERSON"), span(text, "Carling", "PERSON")]) == [
        ("John Kornblum", "PERSON"),
        ("Carling", "PERSON"),
    ]


def test_a_given_name_held_by_another_span_is_not_taken_twice():
    text = "said John Kornblum today."
    got = texts(text, [span(text, "said John", "ORGANIZATION"), span(text, "Kornblum", "PERSON")])
    assert ("Kornblum", "PERSON") in got


def test_a_name_never_ends_in_a_common_lower_case_word_but_keeps_a_lower_case_surname():
    text = "said Lynn Reaser of First Interstate; and darren wilson of; Dana whitfield came"
    assert texts(
        text,
        [
            span(text, "Lynn Reaser of", "PERSON"),
            span(text, "darren wilson of", "PERSON"),
            span(text, "Dana whitfield", "PERSON"),
        ],
    ) == [("Lynn Reaser", "PERSON"), ("darren wilson of", "PERSON"), ("Dana whitfield", "PERSON")]


def test_in_a_text_without_case_a_name_never_ends_in_a_common_word():
    """Speech recognition writes no capital: there "michael brown shooting" ends in a
    common word all the same, and a surname that is a common word stays ("brown")."""
    text = (
        "q and this is about the michael brown shooting, right?\na yes. the letter from father miguel ortega of st."
        " anne's church came. we talked to him and he said so. then we went home and that was all.\n"
        # Enough words for the text to be read as having no case (case.CASE_EVIDENCE).
        + "q and then what happened next? a we talked for a while and then we all left the room.\n"
        * 3
    )
    found = texts(text, [span(text, "michael brown shooting", "PERSON"), span(text, "miguel ortega of", "PERSON")])
    assert found == [("michael brown", "PERSON"), ("miguel ortega", "PERSON")]


def test_an_answer_marker_only_where_there_are_questions():
    text = "A. Ranatunga lbw b Fleming 0"
    assert texts(text, [span(text, "Ranatunga", "PERSON")]) == [("A. Ranatunga", "PERSON")]
    # A numbered question-and-answer transcript: "A." after a line number is the marker.
    text = "12   Q. Where were you?\n13   A. Brown was there.\n14   Q: And then?\n15   A. Green left."
    assert texts(text, [span(text, "Brown", "PERSON"), span(text, "Green", "PERSON")]) == [
        ("Brown", "PERSON"),
        ("Green", "PERSON"),
    ]
    text = "14   Q: And then?\n15   A. Green left."
    assert texts(text, [span(text, "Green", "PERSON")]) == [("Green", "PERSON")]


def test_initials_written_together_and_a_numbered_turn_marker():
    text = "J.R. Smith came.\n12   Q. Wilson, where were you?\nQ. J. Brown?\nM. Waugh c Healy b Law 50"
    got = texts(
        text,
        [
            span(text, "Smith", "PERSON"),
            span(text, "Wilson", "PERSON"),
            span(text, "Brown", "PERSON"),
            span(text, "Waugh", "PERSON"),
        ],
    )
    # In English "M." is an initial like any other (a scorecard's "M. Waugh").
    assert got == [("J.R. Smith", "PERSON"), ("Wilson", "PERSON"), ("J. Brown", "PERSON"), ("M. Waugh", "PERSON")]


def test_a_one_letter_title_of_the_texts_language_is_no_initial():
    text = "M. DUPONT répond. P. Martin aussi."
    titles = title_letters(language("fr").titles)
    assert titles == {"M"}
    got = tidy(text, [span(text, "DUPONT", "PERSON"), span(text, "Martin", "PERSON")], titles)
    assert [c.text for c in got] == ["DUPONT", "P. Martin"]
    assert title_letters(language("en").titles) == frozenset()


def test_a_french_text_keeps_its_title_out_of_the_name_through_the_pipeline():
    from pipelines.detection.pipeline import detect_text

    result = detect_text("L'audience reprend. M. Dupont répond au tribunal.", "fr_core_news_sm", language_code="fr")
    assert any(s.text == "Dupont" for s in result.spans), [s.text for s in result.spans]
    assert not any(s.text.startswith("M.") for s in result.spans)


def test_tidying_twice_changes_nothing():
    text = "Then John P. Smith and Mary Kornblum spoke."
    once = tidy(text, [span(text, "Smith", "PERSON"), span(text, "Kornblum", "PERSON")])
    assert [c.text for c in once] == ["John P. Smith", "Mary Kornblum"]
    assert tidy(text, once) == once


def test_widening_looks_at_the_other_spans_once_not_once_per_person(monkeypatch):
    """A long transcript has thousands of persons: the overlap check of a widened
    one reads a coverage map built once per tidy, never a pass over every span
    per person (that was quadratic: minutes on a long document)."""
    from pipelines.detection.merging import edges

    built = []
    original = edges._Covered.any_in

    def counting(self, start, end):
        if self.marks is None:
            built.append(1)
        return original(self, start, end)

    monkeypatch.setattr(edges._Covered, "any_in", counting)
    line = "Then John Kornblum and P. Simmons met Wilson.\n"
    text = line * 2000
    spans = []
    for n in range(2000):
        base = n * len(line)
        for needle in ("Kornblum", "Simmons", "Wilson"):
            start = base + line.index(needle)
            spans.append(Candidate(start, start + len(needle), "PERSON", needle, ("spacy",), 0.9))
    out = tidy(text, spans)
    assert [c.text for c in out[:3]] == ["John Kornblum", "P. Simmons", "Wilson"]
    assert len(out) == 6000 and built == [1]


def test_an_organizations_capitalised_the_is_left_out_but_a_places_stays():
    """A sentence's first word is capitalised whatever it is ("A The County Police
    did"), and the guideline leaves articles out of an organization's name ("The
    Onion" is ORGANIZATION "Onion"); a place keeps its own ("The Hague")."""
    text = "A The County Police did. The Onion ran it. The Hague agreed."
    found = texts(
        text,
        [
            span(text, "The County Police", "ORGANIZATION"),
            span(text, "The Onion", "ORGANIZATION"),
            span(text, "The Hague", "LOCATION"),
        ],
    )
    assert found == [("County Police", "ORGANIZATION"), ("Onion", "ORGANIZATION"), ("The Hague", "LOCATION")]


def test_a_given_name_the_model_took_alone_takes_the_surname_after_it():
    """ "Darnell Hurt": a surname that is also a common word, capitalised right after
    a given name on its line, is the rest of the name (also before "'s" or a
    sentence's period); a weekday, a place or institution word, a role or a
    function word is not."""
    cases = [
        ("arguing for appellant Darnell Hurt. Uh, counsel", "Darnell", "Darnell Hurt"),
        ("in Darnell Hurt's favor", "Darnell", "Darnell Hurt"),
        ("then Ann Green said so", "Ann", "Ann Green"),
        ("I saw Mary Tuesday", "Mary", "Mary"),
        ("near the Jordan River", "Jordan", "Jordan"),
        ("at Grace Hospital", "Grace", "Grace"),
        ("told Mary The end", "Mary", "Mary"),
        ("Mary Officer Jones", "Mary", "Mary"),
        ("it was Mary\nGreen said", "Mary", "Mary"),  # the next line's first word
        ("Mary Yes I did", "Mary", "Mary"),
    ]
    for text, needle, expected in cases:
        assert texts(text, [span(text, needle, "PERSON")]) == [(expected, "PERSON")], text


def test_only_the_models_given_name_takes_a_surname():
    """A name list's or propagation's one word is no reading of the sentence: "Summer"
    of "the 1988 Summer Olympics" stays one word (and the entity veto drops it)."""
    text = "the 1988 Summer Olympics"
    listed = replace(span(text, "Summer", "PERSON"), sources=("gazetteer",))
    assert texts(text, [listed]) == [("Summer", "PERSON")]


def test_a_surname_another_span_holds_is_not_taken():
    text = "Darnell Hurt County"
    found = texts(text, [span(text, "Darnell", "PERSON"), span(text, "Hurt County", "LOCATION")])
    assert found == [("Darnell", "PERSON"), ("Hurt County", "LOCATION")]


def test_a_date_is_its_value_without_a_hedge_or_the_period_it_sits_in():
    """The guideline's smallest span holding the value: "Approximately 1430" is
    "1430", "the summer of 1998" is "1998"; a day's ordinal stays ("the 10th of May")."""
    text = (
        "A Approximately 1430, 2:30. It was the summer of 1998, in the middle of October,"
        " on the 10th of May, around 2003, in the month of August, about March 3, the summer\nof 1987."
    )
    needles = [
        "Approximately 1430",
        "the summer of 1998",
        "the middle of October",
        "the 10th of May",
        "around 2003",
        "the month of August",
        "about March 3",
        "the summer\nof 1987",
    ]
    assert texts(text, [span(text, n, "DATE") for n in needles]) == [
        ("1430", "DATE"),
        ("1998", "DATE"),
        ("October", "DATE"),
        ("10th of May", "DATE"),
        ("2003", "DATE"),
        ("August", "DATE"),
        ("March 3", "DATE"),
        ("1987", "DATE"),
    ]


def test_an_age_is_its_number():
    text = (
        "I was 19 years old, he was aged 42, she a 7-year-old, and at the age of 30 he left,"
        " about 23 years old, aged\n61, twenty-one years\nold."
    )
    needles = [
        "19 years old",
        "aged 42",
        "7-year-old",
        "age of 30",
        "about 23 years old",
        "aged\n61",
        "twenty-one years\nold",
    ]
    assert texts(text, [span(text, n, "AGE") for n in needles]) == [
        ("19", "AGE"),
        ("42", "AGE"),
        ("7", "AGE"),
        ("30", "AGE"),
        ("23", "AGE"),
        ("61", "AGE"),
        ("twenty-one", "AGE"),
    ]


def test_a_place_broken_after_its_saints_abbreviation_takes_it():
    text = "deaths that occur in St.\nLouis County?\nA Correct. Fort\nWorth is far."
    found = texts(text, [span(text, "Louis County", "LOCATION"), span(text, "Worth", "LOCATION")])
    assert found == [("St.\nLouis County", "LOCATION"), ("Worth", "LOCATION")]
    # Not over another span: the abbreviation belongs to it.
    held = [span(text, "St.", "LOCATION"), span(text, "Louis County", "LOCATION")]
    assert texts(text, held) == [("St.", "LOCATION"), ("Louis County", "LOCATION")]
    # After a street's name the abbreviation ends that name: "Main St." on one line.
    address = "He lived at 12 Main St.\nLouisville, and on Elm St.\nMemphis."
    found = texts(address, [span(address, "Louisville", "LOCATION"), span(address, "Memphis", "LOCATION")])
    assert found == [("Louisville", "LOCATION"), ("Memphis", "LOCATION")]


# A transcript printed in capitals: long enough for its verdict (case.carries_case).
CAPITALS = (
    "PRESIDING COMMISSIONER HARTWELL: THE PANEL HAS A LETTER FROM FATHER MIGUEL ORTEGA OF ST. ANNE'S "
    "CHURCH IN STOCKTON. IT SAYS HE HAS DONE WELL IN THE PROGRAM. WE ALSO HAVE A LETTER FROM HIS SISTER.\n"
    "IN THE MATTER OF THE PAROLE CONSIDERATION HEARING OF: MARCUS DELGADO\nCDCR NUMBER: K-48213\n"
)


def test_in_capitals_a_name_ends_before_a_common_word_and_a_place_before_a_function_word():
    church = "ST. ANNE'S CHURCH IN"
    spans = [span(CAPITALS, "MIGUEL ORTEGA OF", "PERSON"), span(CAPITALS, church, "ORGANIZATION")]
    assert texts(CAPITALS, spans) == [("MIGUEL ORTEGA", "PERSON"), ("ST. ANNE'S CHURCH", "ORGANIZATION")]


def test_a_name_ending_a_line_is_not_joined_to_the_next_line_s_speaker_label():
    spans = [span(CAPITALS, "MARCUS DELGADO", "PERSON"), span(CAPITALS, "CDCR", "PERSON")]
    assert [c.text for c in merge(CAPITALS, spans)] == ["MARCUS DELGADO", "CDCR"]


def test_a_rank_stays_outside_the_name():
    text = "Co-Premiers Prince Norodom Ranariddh and Hun Sen agreed."
    merged = replace(span(text, "Prince Norodom Ranariddh", "PERSON"), rule="cue:honorific,spacy:PERSON")
    assert texts(text, [merged]) == [("Norodom Ranariddh", "PERSON")]
    # The model's reading alone too ("Pastor Élie Moïse": no cue reads "Élie").
    assert texts(text, [span(text, "Prince Norodom Ranariddh", "PERSON")]) == [("Norodom Ranariddh", "PERSON")]
    pastor = "A letter from Pastor Élie Moïse and Pastor Altidor."
    spans = [span(pastor, "Pastor Élie Moïse", "PERSON"), span(pastor, "Pastor Altidor", "PERSON")]
    # A church's office that English writes as a common word is the title before a
    # surname too ("Pastor" is a given name only in other languages).
    assert texts(pastor, spans) == [("Élie Moïse", "PERSON"), ("Altidor", "PERSON")]
    deacon = "Deacon Pryor read the letter."
    assert texts(deacon, [span(deacon, "Deacon Pryor", "PERSON")]) == [("Pryor", "PERSON")]
    # Before one word a rank that is a given name here stays: losing a given name
    # would leak it.
    # So does one the document says alone, or one after a title.
    text2 = "My sponsor is King White."
    king = replace(span(text2, "King White", "PERSON"), rule="cue:honorific,spacy:PERSON")
    assert texts(text2, [king]) == [("King White", "PERSON")]
    for text3 in ("My sponsor is Major Harris. Major said yes.", "Inmate Major Harris spoke."):
        assert texts(text3, [span(text3, "Major Harris", "PERSON")]) == [("Major Harris", "PERSON")]


# --- an organization's name as far as it goes ---------------------------------------------------


def merged(text: str, spans: list[Candidate]) -> list[tuple[str, str]]:
    return [(c.text, c.label) for c in merge(text, spans)]


def test_an_organization_takes_the_words_a_model_left_off_on_its_line():
    text = "Transcribed by Kestrel Legal Transcription. He paid Midland Credit Management, LLC and left."
    found = texts(text, [span(text, "Kestrel Legal", "ORGANIZATION"), span(text, "Midland Credit", "ORGANIZATION")])
    assert found == [
        ("Kestrel Legal Transcription", "ORGANIZATION"),
        ("Midland Credit Management, LLC", "ORGANIZATION"),
    ]


def test_an_organization_takes_an_ampersand_and_of_and_a_legal_form_after_a_numeral():
    text = "She works at Baylor Scott & White. He heads the International Brotherhood of Magicians. "
    text += "GOLDEN STATE RESIDENTIAL FUND III, LLC filed and PARKVIEW TERRACE HOLDINGS 2 LLC did too."
    found = texts(
        text,
        [
            span(text, "Baylor", "ORGANIZATION"),
            span(text, "International Brotherhood of", "ORGANIZATION"),
            span(text, "GOLDEN STATE RESIDENTIAL FUND", "ORGANIZATION"),
            span(text, "PARKVIEW TERRACE HOLDINGS", "ORGANIZATION"),
        ],
    )
    assert found == [
        ("Baylor Scott & White", "ORGANIZATION"),
        ("International Brotherhood of Magicians", "ORGANIZATION"),
        ("GOLDEN STATE RESIDENTIAL FUND III, LLC", "ORGANIZATION"),
        ("PARKVIEW TERRACE HOLDINGS 2 LLC", "ORGANIZATION"),
    ]


def test_an_organization_takes_no_role_date_label_document_or_law_after_it():
    text = (
        "Ask Apple CEO Tim. I was at DVI Tuesday. CDCR Number: AK2960. "
        "I hand you Nwosu Exhibit 2. The hearing on Senate Bill 318. FMCS Case No. 24. For the Defendants SwiftRoute."
    )
    found = texts(
        text,
        [
            span(text, "Apple", "ORGANIZATION"),
            span(text, "DVI", "ORGANIZATION"),
            span(text, "CDCR", "ORGANIZATION"),
            span(text, "Nwosu", "ORGANIZATION"),
            span(text, "Senate", "ORGANIZATION"),
            span(text, "FMCS", "ORGANIZATION"),
            span(text, "SwiftRoute", "ORGANIZATION"),
        ],
    )
    assert [t for t, _ in found] == ["Apple", "DVI", "CDCR", "Nwosu", "Senate", "FMCS", "SwiftRoute"]


def test_a_union_local_takes_its_number():
    text = "We met at the Teamsters Local 4412 hall."
    assert texts(text, [span(text, "Teamsters", "ORGANIZATION")]) == [("Teamsters Local 4412", "ORGANIZATION")]


def test_an_organization_takes_one_word_before_it_that_opens_no_sentence():
    text = "She joined the Full Gospel Church. Yesterday Gospel Church met. Then Capital One called."
    found = texts(
        text,
        [
            span(text, "Gospel Church", "ORGANIZATION"),
            span(text, "Gospel Church", "ORGANIZATION", nth=1),
            span(text, "Capital One", "ORGANIZATION"),
        ],
    )
    assert [t for t, _ in found] == ["Full Gospel Church", "Gospel Church", "Capital One"]


def test_a_word_opening_a_line_takes_its_organization_only_mid_sentence():
    text = "She joined the\nFull Gospel Church. He left.\nGospel Church met.\n 7  Eastside Gospel Church too."
    found = texts(
        text,
        [
            span(text, "Gospel Church", "ORGANIZATION"),
            span(text, "Gospel Church", "ORGANIZATION", nth=1),
            span(text, "Gospel Church", "ORGANIZATION", nth=2),
        ],
    )
    assert [t for t, _ in found] == ["Full Gospel Church", "Gospel Church", "Gospel Church"]


def test_an_organization_never_takes_another_spans_words_nor_a_heading_word_that_names_no_institution():
    text = "Ray Ortiz Brothers Towing came.\nCEDAR HOLLOW UNIFIED SCHOOL DISTRICT HEARING ROOM\n"
    found = texts(
        text,
        [
            span(text, "Ray", "PERSON"),
            span(text, "Ortiz Brothers", "ORGANIZATION"),
            span(text, "CEDAR HOLLOW UNIFIED", "ORGANIZATION"),
        ],
    )
    assert found == [
        ("Ray", "PERSON"),
        ("Ortiz Brothers Towing", "ORGANIZATION"),
        ("CEDAR HOLLOW UNIFIED SCHOOL", "ORGANIZATION"),
    ]


def test_a_dangling_of_takes_the_name_on_the_next_line_or_the_span_after_it_or_goes():
    text = "Officer, Georgia Department of\n          Youth Services\n"
    text += "the Housing Authority of the County of San Joaquin said. "
    text += "A member of the Board of. Then"
    found = merged(
        text,
        [
            span(text, "Georgia Department of", "ORGANIZATION"),
            span(text, "Housing Authority of the County of", "ORGANIZATION"),
            span(text, "San Joaquin", "LOCATION"),
            span(text, "Board of", "ORGANIZATION"),
        ],
    )
    assert found == [
        ("Georgia Department of\n          Youth Services", "ORGANIZATION"),
        ("Housing Authority of the County of San Joaquin", "ORGANIZATION"),
        ("Board", "ORGANIZATION"),
    ]


def test_a_title_after_of_is_the_institutions_subject():
    text = "He wrote to the Department of Justice about it."
    assert texts(text, [span(text, "Department of", "ORGANIZATION")]) == [("Department of Justice", "ORGANIZATION")]


def test_a_legal_form_read_apart_joins_its_company():
    text = "GOLDEN STATE RESIDENTIAL FUND III, LLC, filed 412 cases."
    fund = span(text, "GOLDEN STATE RESIDENTIAL FUND III", "ORGANIZATION")
    found = merged(text, [fund, span(text, "LLC", "ORGANIZATION")])
    assert found == [("GOLDEN STATE RESIDENTIAL FUND III, LLC", "ORGANIZATION")]


def test_an_organization_in_a_text_without_case_is_not_widened():
    text = "i worked at kestrel legal transcription for years"
    assert texts(text, [span(text, "kestrel legal", "ORGANIZATION")]) == [("kestrel legal", "ORGANIZATION")]


def test_a_word_in_capitals_after_a_name_in_capitals_must_name_an_institution():
    text = "Pt to SICU intubated.\n\nNICU ADMISSION NOTE       Time: 04:10\nTransported by Arrowhead EMS, Medic 4."
    found = texts(text, [span(text, "NICU", "ORGANIZATION"), span(text, "Arrowhead", "ORGANIZATION")])
    assert found == [("NICU", "ORGANIZATION"), ("Arrowhead EMS", "ORGANIZATION")]


def test_a_propagated_company_keeps_its_legal_form_comma_and_dot():
    from pipelines.detection.merging.propagate import propagate

    text = "KESTREL COURT REPORTING, INC.  (215) 555-0188\nA. Yes.\nKESTREL COURT REPORTING, INC.  (215) 555-0188\n"
    first = span(text, "KESTREL COURT REPORTING, INC.", "ORGANIZATION")
    found = propagate(text, [replace(first, sources=("cues",))])
    assert [(c.text, c.start) for c in found] == [("KESTREL COURT REPORTING, INC.", text.rindex("KESTREL"))]


def test_a_name_said_twice_in_one_breath_is_two_names():
    text = "my name is renee renee castellanos and i'm treadwell marcus treadwell okay, Mary Smith too"
    found = texts(
        text,
        [
            span(text, "renee renee castellanos", "PERSON"),
            span(text, "treadwell marcus treadwell", "PERSON"),
            span(text, "Mary Smith", "PERSON"),
        ],
    )
    assert [t for t, _ in found] == ["renee", "renee castellanos", "treadwell", "marcus treadwell", "Mary Smith"]


def test_a_name_then_its_full_form_after_a_full_stop_is_two_names():
    # The model reads "Shaquan. Shaquan Miller" as one person; an initial said
    # twice is no repeat.
    text = "Who was it? Shaquan. Shaquan Miller, and J. J. Watt."
    found = texts(text, [span(text, "Shaquan. Shaquan Miller", "PERSON"), span(text, "J. J. Watt", "PERSON")])
    assert [t for t, _ in found] == ["Shaquan", "Shaquan Miller", "J. J. Watt"]


def test_tidying_an_organization_twice_changes_nothing():
    text = "He wrote to the Department of the Treasury. Acme One Two Three Four Five Six Seven Eight Nine Ten."
    once = tidy(text, [span(text, "Department of the", "ORGANIZATION"), span(text, "Acme One", "ORGANIZATION")])
    assert tidy(text, once) == once
    assert [c.text for c in once] == [
        "Department of the Treasury",
        "Acme One Two Three Four Five Six Seven Eight Nine Ten",
    ]


def test_an_organization_stops_at_a_legal_form_that_ends_a_sentence():
    text = "A. We sued Midland Funding Inc. Then we waited. Acme CO. Denver was next."
    found = texts(text, [span(text, "Midland Funding", "ORGANIZATION"), span(text, "Acme", "ORGANIZATION")])
    assert [t for t, _ in found] == ["Midland Funding Inc.", "Acme CO."]


@pytest.mark.parametrize(
    ("text", "org", "expected"),
    [
        ("Hey Google Say it again.", "Google", "Google"),  # a verb, an interjection
        ("We filed Google Exhibit A today.", "Google", "Google"),  # a document's letter
        ("They met at Acme Tuesday's meeting.", "Acme", "Acme"),  # a date word with its possessive
        ("They met at Acme Mondays.", "Acme", "Acme"),
        ("Google & Apple & Microsoft sued.", "Google", "Google & Apple"),  # two ampersands are a list
        ("the Acme Smith's lawyer came", "Acme", "Acme"),  # a possessive ending the widening
        (
            "the Los Angeles County Sheriff's Department came",
            "Los Angeles County",
            "Los Angeles County Sheriff's Department",
        ),
        ("Q   Well Acme Corp called.", "Acme Corp", "Acme Corp"),  # a turn's mark opens the sentence
        ("7  Then Acme Corp called.", "Acme Corp", "Acme Corp"),
        ("the Øresund Bridge Authority met", "Bridge Authority", "Øresund Bridge Authority"),
    ],
)
def test_an_organization_s_widening_takes_no_word_that_is_no_name(text: str, org: str, expected: str) -> None:
    assert [t for t, _ in texts(text, [span(text, org, "ORGANIZATION")])] == [expected]


def test_an_organization_takes_no_given_name_of_the_person_after_it():
    text = "Ask Google Sarah Jones said."
    found = merged(text, [span(text, "Google", "ORGANIZATION"), span(text, "Jones", "PERSON")])
    assert ("Google", "ORGANIZATION") in found and not any(
        "Sarah" in t for t, label in found if label == "ORGANIZATION"
    )


def test_a_dangling_of_takes_no_turn_from_the_next_line():
    for text in ("the Georgia Department of\nMR. SMITH: Objection.", "the Georgia Department of\nQ. Did you go?"):
        assert [t for t, _ in texts(text, [span(text, "Georgia Department of", "ORGANIZATION")])] == [
            "Georgia Department"
        ]


@pytest.mark.parametrize(
    "text",
    ["Client city: Denver\nUnit: 4B", "We moved to Denver\nHome was a trailer", "I lived in Fresno\nCourt date: May 2"],
)
def test_a_place_takes_no_field_or_common_word_from_the_next_line(text: str) -> None:
    place = next(p for p in ("Denver", "Fresno") if p in text)
    assert texts(text, [span(text, place, "LOCATION")]) == [(place, "LOCATION")]


def test_a_long_line_of_organizations_is_tidied_in_linear_time():
    import time

    names = ["MIDLAND CREDIT MANAGEMENT LLC"] * 3000
    text = "They sued. PARTIES: " + " & ".join(names) + " and others"
    spans, at = [], text.index("MIDLAND")
    for _ in names:
        spans.append(Candidate(at, at + 8, "ORGANIZATION", "MIDLAND", ("spacy",), 0.9))
        at = text.find("MIDLAND", at + 1) if text.find("MIDLAND", at + 1) >= 0 else at
    started = time.process_time()
    tidy(text, spans[:3000])
    assert time.process_time() - started < 5


def test_an_organization_whose_join_ends_its_line_takes_the_next_line_s_name_without_failing():
    """A model's organization ending in "of" or "&" at a line's end widens onto the
    next line's word; that line's match has no join of its own (it raised
    IndexError, failing the document, until the eighteenth session)."""
    text = "He worked for the Housing Authority of\nFresno for years. He worked at Kovacs &\nLindgren Plumbing."
    found = texts(text, [span(text, "Housing Authority of", "ORGANIZATION"), span(text, "Kovacs &", "ORGANIZATION")])
    assert found == [("Housing Authority of\nFresno", "ORGANIZATION"), ("Kovacs &\nLindgren Plumbing", "ORGANIZATION")]


@pytest.mark.parametrize(
    ("text", "needle", "cuts"),
    [
        # a possessive's "s" is the word's before it
        ("MINISTER'S COUNSEL: Madam, when did you last see him?", "S COUNSEL", True),
        ("the Minister’s Counsel asked", "s Counsel", True),
        # an Irish or an Italian name's letter goes on after its apostrophe
        ("O'Sullivan said so.", "Sullivan", False),
        ("D'Souza said so.", "Souza", False),
    ],
)
def test_a_span_that_opens_at_a_possessive_s_cuts_a_word(text: str, needle: str, cuts: bool) -> None:
    start = text.index(needle)
    assert cuts_a_word(text, start, start + len(needle)) is cuts
