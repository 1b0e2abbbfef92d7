"""A cased text with stretches written without case: an interview whose questions
a person corrected while the answers stayed as speech recognition wrote them, a
hotline call whose second half no one reviewed. The rules for a text without case
run in those stretches, and the ones that take a lower-case word for no name stay
off there. Every example is invented here."""

from django.conf import settings

from pipelines.candidate import Candidate
from pipelines.detection.case import caseless_at, caseless_spans
from pipelines.detection.filtering.filters import apply_filters
from pipelines.detection.pipeline import detect_text
from pipelines.detection.recognizers.cues import recognize as cues

ANSWER = (
    "[00:00:33] PRICE: south stockton um off of airport way my grandmother had the house on eighth by the "
    "church there me and my sister and my little brother marcus and my mama she still goes to work at the "
    "laundromat and a dude named hector um he did eleven years himself so he gets it and mister bayliss too\n"
)
INTERVIEW = (
    "[00:00:03] INTERVIEWER: Okay, we're recording. I'm here with Lonnie Price in Stockton.\n\n"
    + ANSWER
    + "\n[00:00:31] INTERVIEWER: Where did you grow up, and who raised you?\n"
)
# Cased prose wrapped at fifty characters: a long sentence with no capital for forty
# words is still cased (its commas say so), and a sentence opens with a capital.
PROSE = (
    "MR. MCCULLOCH: Good morning. Sheila Whirley and Kathi Alizadeh are\n"
    "here with me, and Judge Hart spoke to you. Everything will be recorded. Starting\n"
    "with the oath by the court reporter and everything\n"
    "that is being said now and everything that anybody\n"
    "says, whether it is a witness, whether it is one of\n"
    "the attorneys, or one of the jurors, will be\n"
    "recorded as we are going along, and kept.\n"
)


def test_an_answer_left_as_speech_recognition_wrote_it_is_a_stretch_without_case() -> None:
    spans = caseless_spans(INTERVIEW)
    assert len(spans) == 1
    start, end = spans[0]
    assert INTERVIEW[start:end] == ANSWER.rstrip("\n")
    assert caseless_at(INTERVIEW, INTERVIEW.index("marcus"))
    assert not caseless_at(INTERVIEW, INTERVIEW.index("Lonnie"))


def test_cased_prose_wrapped_without_a_capital_is_no_stretch_without_case() -> None:
    assert caseless_spans(PROSE) == ()
    assert caseless_spans("short answer in lower case\n") == ()


def test_a_text_without_case_is_one_stretch() -> None:
    text = " ".join(["and then my son jamal he was there"] * 10)
    assert caseless_spans(text) == ((0, len(text)),)


def test_the_rules_for_a_text_without_case_run_in_its_stretches() -> None:
    found = {c.text: c.rule for c in cues(INTERVIEW)}
    assert found.get("marcus") == "cue:relation"
    assert found.get("hector") == "cue:said"
    assert found.get("bayliss") == "cue:title"
    # The same words in cased prose are no one's: "my little brother marcus" there
    # would be capitalised.
    assert not [c for c in cues(PROSE) if c.rule in ("cue:relation", "cue:said")]


def test_a_lower_case_name_the_model_reads_in_a_stretch_without_case_is_kept() -> None:
    at = INTERVIEW.index("marcus")
    lower = Candidate(at, at + 6, "PERSON", "marcus", ("spacy",), 0.8)
    cased_at = INTERVIEW.index("recording")
    in_cased = Candidate(cased_at, cased_at + 9, "PERSON", "recording", ("spacy",), 0.8)
    kept, filtered = apply_filters([lower, in_cased], frozenset(), INTERVIEW)
    assert [c.text for c in kept] == ["marcus"]
    assert [f.reason for f in filtered] == ["all lowercase"]


def test_a_mixed_case_interview_end_to_end() -> None:
    found = [(c.text, c.label) for c in detect_text(INTERVIEW, settings.SPACY_MODEL).spans]
    assert ("Lonnie Price", "PERSON") in found
    assert ("marcus", "PERSON") in found and ("hector", "PERSON") in found


def test_a_label_with_a_number_or_in_mixed_case_opens_a_stretch_and_an_abbreviation_opens_no_sentence() -> None:
    words = "and then my son jamal he was there and we " * 6
    for label in ("SPEAKER 2:", "Price:", "00:00:33 PRICE:"):
        text = f"INTERVIEWER: Where did you go, Mr. Smith?\n{label} {words}\n"
        assert len(caseless_spans(text)) == 1, label
    prose = PROSE.replace("along, and kept.", "along at ten p.m. because etc. and so on")
    assert caseless_spans(prose) == ()


def test_finding_stretches_and_replies_costs_linear_time_on_a_text_of_one_line() -> None:
    import time

    def seconds(text: str) -> float:
        at = [i for i in range(0, len(text), 97) if text[i : i + 4] == "Fine"]
        candidates = [Candidate(i, i + 4, "PERSON", "Fine", ("spacy",), 0.8) for i in at]
        started = time.process_time()
        apply_filters(candidates, frozenset(), text)
        caseless_spans(text)
        return time.process_time() - started

    unit = "he said Fine. " + "x" * 83  # 97 characters, one candidate each
    small, large = seconds(unit * 1000), seconds(unit * 4000)
    assert large < 8 * small + 0.5, (small, large)  # four times the text: linear is ~4x, quadratic ~16x


def test_a_filler_after_a_title_is_no_name() -> None:
    from pipelines.detection.recognizers.cues import recognize

    text = "so the sheriff came it was deputy um deputy fairweather like the weather and he wrote it all down " * 3
    assert {c.text for c in recognize(text) if c.label == "PERSON"} == {"fairweather"}
