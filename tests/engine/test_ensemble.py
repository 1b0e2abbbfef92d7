"""The resolution policy of the ensemble merge, case by case."""

import pytest

from pipelines.candidate import Candidate
from pipelines.detection.merging.ensemble import merge


def cand(text: str, needle: str, label: str, source: str, score: float = 0.8, occurrence: int = 0) -> Candidate:
    start = -1
    for _ in range(occurrence + 1):
        start = text.index(needle, start + 1)
    return Candidate(start, start + len(needle), label, needle, (source,), score)


TEXT = "Yesterday John Doe met Officer Smith at San Quentin on March 3, 1985."


def test_identical_candidates_from_two_sources_become_one_span_with_both_sources():
    spans = merge(TEXT, [cand(TEXT, "John Doe", "PERSON", "spacy"), cand(TEXT, "John Doe", "PERSON", "cues")])
    assert [(s.text, s.label, s.sources) for s in spans] == [("John Doe", "PERSON", ("cues", "spacy"))]
    assert spans[0].score == pytest.approx(1 - 0.2 * 0.2)


def test_nested_same_label_takes_the_union_without_truncation():
    spans = merge(TEXT, [cand(TEXT, "John", "PERSON", "spacy"), cand(TEXT, "John Doe", "PERSON", "cues")])
    assert [s.text for s in spans] == ["John Doe"]


def test_partial_overlap_same_label_spans_both_ends():
    spans = merge(TEXT, [cand(TEXT, "March 3", "DATE", "spacy"), cand(TEXT, "3, 1985", "DATE", "patterns")])
    assert [s.text for s in spans] == ["March 3, 1985"]


def test_label_conflict_goes_to_the_heavier_source():
    spans = merge(
        TEXT,
        [cand(TEXT, "San Quentin", "PERSON", "spacy", 0.6), cand(TEXT, "San Quentin", "LOCATION", "patterns", 0.9)],
    )
    assert [(s.text, s.label) for s in spans] == [("San Quentin", "LOCATION")]


def test_equal_weight_conflict_prefers_the_more_specific_label():
    spans = merge(TEXT, [cand(TEXT, "1985", "DATE", "spacy", 0.6), cand(TEXT, "1985", "ID", "presidio", 0.6)])
    assert spans[0].label == "ID"


def test_loser_outside_the_winner_is_kept():
    # ORGANIZATION "Smith at San Quentin" loses to PERSON "Smith" but "San Quentin"
    # (LOCATION, not overlapping the winner) survives.
    spans = merge(
        TEXT,
        [
            cand(TEXT, "Smith", "PERSON", "cues", 0.9),
            cand(TEXT, "Smith at San", "ORGANIZATION", "spacy", 0.3),
            cand(TEXT, "San Quentin", "LOCATION", "spacy", 0.6),
        ],
    )
    assert [(s.text, s.label) for s in spans] == [("Smith", "PERSON"), ("San Quentin", "LOCATION")]


def test_adjacent_same_label_across_one_space_merge():
    spans = merge(TEXT, [cand(TEXT, "John", "PERSON", "spacy"), cand(TEXT, "Doe", "PERSON", "presidio")])
    assert [(s.text, s.sources) for s in spans] == [("John Doe", ("presidio", "spacy"))]


def test_adjacent_different_labels_or_wide_gaps_do_not_merge():
    text = "John  Doe\nSmith"
    spans = merge(
        text,
        [
            Candidate(0, 4, "PERSON", "John", ("spacy",), 0.6),
            Candidate(6, 9, "PERSON", "Doe", ("spacy",), 0.6),
            Candidate(10, 15, "LOCATION", "Smith", ("spacy",), 0.6),
        ],
    )
    assert [s.text for s in spans] == ["John", "Doe", "Smith"]


def test_output_is_sorted_and_non_overlapping():
    text = "a b c d e f g h"
    candidates = [
        Candidate(i, i + 3, "PERSON" if i % 4 else "DATE", text[i : i + 3], ("spacy",), 0.5) for i in range(0, 12, 2)
    ]
    spans = merge(text, candidates)
    for a, b in zip(spans, spans[1:], strict=False):
        assert a.end <= b.start
    assert all(s.text == text[s.start : s.end] for s in spans)


def test_a_source_votes_once_per_label_in_a_cluster():
    text = "card 4111 1111 1111 1111"
    spans = merge(
        text,
        [
            Candidate(5, 24, "CREDIT_CARD", text[5:24], ("presidio",), 1.0),
            Candidate(10, 14, "DATE", "1111", ("spacy",), 0.6),
            Candidate(15, 19, "DATE", "1111", ("spacy",), 0.6),
        ],
    )
    assert [(s.text, s.label) for s in spans] == [("4111 1111 1111 1111", "CREDIT_CARD")]


def test_a_name_ending_in_an_abbreviated_suffix_takes_its_dot():
    """ "Sammy Davis Jr." is the name, as annotators mark it; the tokenizer often
    leaves the dot out, more so at a sentence's end."""
    text = "He met Sammy Davis Jr. Later John Smith Sr., a judge, and Carl Wood Jr.X came. Kim Jr. met Ann Lee."
    spans = merge(
        text,
        [
            cand(text, "Sammy Davis Jr", "PERSON", "spacy"),
            cand(text, "John Smith Sr", "PERSON", "spacy"),
            cand(text, "Carl Wood Jr", "PERSON", "spacy"),
            cand(text, ".X", "ID", "patterns"),  # the dot already belongs to another span
            cand(text, "Kim Jr", "ORGANIZATION", "spacy"),  # persons only
            cand(text, "Ann Lee", "PERSON", "spacy"),  # no suffix: the sentence's stop stays out
        ],
    )
    assert [s.text for s in spans] == ["Sammy Davis Jr.", "John Smith Sr.", "Carl Wood Jr", ".X", "Kim Jr", "Ann Lee"]
    assert all(text[s.start : s.end] == s.text for s in spans)


CASELESS = (
    "mr. mcculloch: thank you. i'm bob\nmcculloch, the prosecutor, for the record. q did you see it?\n"
    "a yes, i saw it from the car. q did you notice any rigor mortis on michael\nbrown? a it was starting.\n"
    "q and the hand? a just the abrasion\non the back of the left hand, nothing else that i saw then.\n"
)


@pytest.mark.parametrize(("first", "second"), [("bob", "mcculloch"), ("michael", "brown")])
def test_in_a_text_without_case_a_given_name_and_the_name_on_the_next_line_are_one(first, second) -> None:
    from pipelines.detection.merging.ensemble import merge_adjacent

    a = CASELESS.index(f"{first}\n{second}")
    b = a + len(first) + 1
    parts = [
        Candidate(a, a + len(first), "PERSON", first, ("spacy",), 0.7, "spacy:PERSON"),
        Candidate(b, b + len(second), "PERSON", second, ("spacy",), 0.5, "spacy:PERSON"),
    ]
    [joined] = merge_adjacent(CASELESS, parts)
    assert joined.text == f"{first}\n{second}" and joined.score == 0.7


def test_in_a_text_without_case_a_common_word_on_the_next_line_is_no_surname() -> None:
    from pipelines.detection.merging.ensemble import merge_adjacent

    a = CASELESS.index("the abrasion")
    on = CASELESS.index("\non the back") + 1
    parts = [
        Candidate(a + 4, a + 12, "PERSON", "abrasion", ("spacy",), 0.5, "spacy:PERSON"),
        Candidate(on, on + 2, "PERSON", "on", ("spacy",), 0.5, "spacy:PERSON"),
    ]
    assert len(merge_adjacent(CASELESS, parts)) == 2


def test_a_name_written_surname_first_is_two_persons_when_the_document_names_it_given_name_first() -> None:
    from pipelines.detection.merging.ensemble import merge_adjacent

    def person(text: str, word: str, after: int = 0) -> Candidate:
        at = text.index(word, after)
        return Candidate(at, at + len(word), "PERSON", word, ("spacy",), 0.9, "spacy:PERSON")

    footer = "Rosalind June Pettigrew spoke.\n PETTIGREW, ROSALIND   W-94217   DECISION PAGE 2\n"
    spans = [person(footer, "Rosalind June Pettigrew"), person(footer, "PETTIGREW"), person(footer, "ROSALIND")]
    # The guideline's comma-separated parts: the surname and the given name, both persons.
    assert [s.text for s in merge_adjacent(footer, spans)] == ["Rosalind June Pettigrew", "PETTIGREW", "ROSALIND"]
    # Without the name given first anywhere, a comma lists two people.
    roster = "Present were Okafor, Daniel and the clerk.\n"
    spans = [person(roster, "Okafor"), person(roster, "Daniel")]
    assert [s.text for s in merge_adjacent(roster, spans)] == ["Okafor", "Daniel"]
    # The name said again in full is no surname first; a middle initial ends one.
    again = "Leroy Fontenot works for Mr. Fontenot, Leroy Fontenot.\nFONTENOT, LEROY D.   C-58214\n"
    said = again.index("Mr. ")
    spans = [person(again, "Leroy Fontenot"), person(again, "Fontenot", said), person(again, "Leroy Fontenot", said)]
    spans += [person(again, "FONTENOT"), person(again, "LEROY")]
    assert [s.text for s in merge_adjacent(again, spans)] == [
        "Leroy Fontenot",
        "Fontenot",
        "Leroy Fontenot",
        "FONTENOT",
        "LEROY D.",
    ]
