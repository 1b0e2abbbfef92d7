"""The default detection pipeline and the `detect` command-line contract."""

import json
import subprocess
import sys
from pathlib import Path

from django.conf import settings

from pipelines.detection.pipeline import detect_text
from tests.conftest import DEMO_TEXT

ROOT = Path(__file__).resolve().parents[2]


def test_ensemble_finds_transcript_entities_with_provenance():
    result = detect_text(DEMO_TEXT, settings.SPACY_MODEL)
    found = {(s.label, s.text) for s in result.spans}
    assert ("PERSON", "Marcus Delgado") in found
    assert ("PERSON", "HARTWELL") in found  # speaker label: the model alone misses it
    assert ("PERSON", "DELGADO") in found
    assert ("ID", "K-48213") in found
    assert ("SPELLED_NAME", "D-E-L-G-A-D-O") in found
    assert ("AGE", "19") in found
    assert ("PHONE_NUMBER", "(559) 555-0147") in found
    assert ("DATE", "March 14, 2023") in found
    phone = next(s for s in result.spans if s.label == "PHONE_NUMBER")
    assert set(phone.sources) == {"patterns", "presidio"}  # presidio ran over the same Doc
    for span in result.spans:
        assert span.text == DEMO_TEXT[span.start : span.end]
        assert span.sources and 0 < span.score <= 1


def test_filters_keep_their_reason():
    result = detect_text("PRESIDING COMMISSIONER: Good morning.\n", settings.SPACY_MODEL)
    assert not any(s.label == "PERSON" and s.text == "COMMISSIONER" for s in result.spans)


def test_propagation_finds_every_occurrence_of_a_found_name():
    # A lower-case "kowalczyk" is the name too: no common English word is spelled so
    # (the name identity's case policy); a lower-case common word ("young") is not.
    text = "Officer Kowalczyk arrived. Later, kowalczyk was gone but Kowalczyk came back."
    spans = [s for s in detect_text(text, settings.SPACY_MODEL).spans if s.label == "PERSON"]
    assert [s.text for s in spans] == ["Kowalczyk", "kowalczyk", "Kowalczyk"]
    assert "propagation" in spans[1].sources
    text = "Officer Young arrived. He was young then, and Young came back."
    spans = [s for s in detect_text(text, settings.SPACY_MODEL).spans if s.label == "PERSON"]
    assert [s.text for s in spans] == ["Young", "Young"]


def run_detect(input_text: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "manage.py", "detect", "-", "--out", "-"],
        input=input_text,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=300,
    )


def test_detect_command_contract():
    lines = [{"id": "a", "text": DEMO_TEXT}, {"id": 2, "text": "Nothing here."}, {"id": "c", "text": ""}]
    proc = run_detect("".join(json.dumps(line) + "\n" for line in lines))
    assert proc.returncode == 0, proc.stderr
    out = [json.loads(line) for line in proc.stdout.splitlines()]
    assert [o["id"] for o in out] == ["a", 2, "c"]
    spans = out[0]["spans"]
    assert spans and out[2]["spans"] == []
    for a, b in zip(spans, spans[1:], strict=False):
        assert a["end"] <= b["start"]
    for s in spans:
        assert set(s) == {"start", "end", "label", "text", "sources", "score"}
        assert DEMO_TEXT[s["start"] : s["end"]] == s["text"]


def test_detect_command_rejects_bad_input_clearly():
    proc = run_detect('{"id": 1, "text": "ok"}\nnot json\n')
    assert proc.returncode != 0
    assert "line 2" in proc.stderr


def test_propagation_spreads_a_form_only_under_its_dominant_label():
    from pipelines.candidate import Candidate
    from pipelines.detection.merging.propagate import propagate

    text = "Marcus Delgado spoke. Marcus Delgado left. Marcus Delgado, Marcus Delgado."
    starts = [i for i in range(len(text)) if text.startswith("Marcus Delgado", i)]
    spans = [
        Candidate(starts[0], starts[0] + 14, "PERSON", "Marcus Delgado", ("cues",), 0.9),
        Candidate(starts[1], starts[1] + 14, "PERSON", "Marcus Delgado", ("spacy",), 0.6),
        Candidate(starts[2], starts[2] + 14, "LOCATION", "Marcus Delgado", ("spacy",), 0.6),
    ]
    found = propagate(text, spans)
    assert {(c.start, c.label) for c in found} >= {(starts[2], "PERSON"), (starts[3], "PERSON")}
    assert not any(c.label == "LOCATION" for c in found)


def test_gazetteer_proposes_full_names_not_single_words():
    from pipelines.detection.recognizers import gazetteer

    found = [c.text for c in gazetteer.recognize("Then John F. Kennedy met Paris Hilton. Smith left in May. The Board")]
    assert found == ["John F. Kennedy", "Paris Hilton"]
    assert all(c.sources == ("gazetteer",) for c in gazetteer.recognize("Maria Garcia"))


def test_header_names_find_every_form_of_a_listed_participant():
    from pipelines.detection.pipeline import detect_text

    text = (
        "ZBIGNIEW QUARTERMAINE, Presiding Commissioner\n\n"
        "PRESIDING COMMISSIONER QUARTERMAINE: We begin. Quarter- Quartermaine here, Q-U-A-R-T-E-R-M-A-I-N-E.\n"
        "Z. Quartermaine signs.\n"
    )
    metadata = {"participants": [{"name": "ZBIGNIEW QUARTERMAINE", "role": "Presiding Commissioner"}]}
    spans = {(s.label, s.text) for s in detect_text(text, settings.SPACY_MODEL, metadata).spans}
    assert ("PERSON", "ZBIGNIEW QUARTERMAINE") in spans
    assert ("PERSON", "QUARTERMAINE") in spans
    # The stammer and the name, adjacent, merge into one span; the cut-off part
    # then takes the number of the part it starts.
    assert ("PERSON", "Quarter- Quartermaine") in spans
    from pipelines.pseudonymize.engine import pseudonymize

    redacted = pseudonymize(text, detect_text(text, settings.SPACY_MODEL, metadata).spans).text
    assert "[PERSON_2] [PERSON_2] here, [SPELLED_NAME_PERSON_2]" in redacted
    assert ("SPELLED_NAME", "Q-U-A-R-T-E-R-M-A-I-N-E") in spans
    assert ("PERSON", "Z. Quartermaine") in spans
    header = [s for s in detect_text(text, settings.SPACY_MODEL, metadata).spans if "header" in s.sources]
    assert len(header) == 5  # every span above carries the header source


def test_a_bare_number_answering_an_age_question_is_an_age():
    from pipelines.detection.recognizers import patterns

    text = (
        "DEPUTY COMMISSIONER OKAFOR: Mr. Delgado, how old were you at the time?\n\n"
        "INMATE DELGADO: 19.\n\n"
        "Q. How old are you?\nA. Twenty-two\n"
        "Q. How old is she?\nA. She lives on 19th street.\n"
    )
    ages = [c.text for c in patterns.recognize(text) if c.label == "AGE"]
    assert ages == ["19", "Twenty-two"]


def test_propagation_finds_a_name_broken_across_a_line_end():
    from pipelines.candidate import Candidate
    from pipelines.detection.merging.propagate import propagate

    text = "Marcus Delgado spoke. Later Marcus\nDelgado left."
    found = propagate(text, [Candidate(0, 14, "PERSON", "Marcus Delgado", ("cues",), 0.9)])
    assert [(c.text, c.label) for c in found] == [("Marcus\nDelgado", "PERSON")]


def test_presidio_context_words_work_and_its_decision_is_kept():
    text = "Call my phone (415) 555-1234 or email john.doe@example.org about card 4111 1111 1111 1111."
    spans = {s.label: s for s in detect_text(text, settings.SPACY_MODEL).spans}
    # Context words raise presidio's score even without a lemmatizer in the pipeline.
    assert "presidio:PhoneRecognizer[context 'phone' +" in spans["PHONE_NUMBER"].rule
    assert "presidio:EmailRecognizer[pattern Email (Medium); context 'email' +" in spans["EMAIL_ADDRESS"].rule
    # Two fragments of one spaCy DATE do not outvote presidio's whole card number.
    assert spans["CREDIT_CARD"].text == "4111 1111 1111 1111" and "DATE" not in spans


def test_an_ocr_read_day_beside_a_month_is_a_date_and_leaves_the_export() -> None:
    """A scanned page's "lOth" (10th): the pattern takes the whole date, not the
    month alone, and the day becomes a placeholder; a word is never read as one."""
    from pipelines.detection.recognizers.patterns import TRANSCRIPT_PATTERNS
    from pipelines.pseudonymize.dates import date_replacement

    text = "after\nSeptember lOth, your term ends on the llth of\n\nSeptember. We met May lst, not June Ord."
    found = [
        text[m.start() : m.end()]
        for p in TRANSCRIPT_PATTERNS
        if p.label == "DATE" and p.rule in ("month_day", "day_month")
        for m in p.regex.finditer(text)
    ]
    assert sorted(found) == sorted(["September lOth", "llth of\n\nSeptember", "May lst"])
    assert [date_replacement(f) for f in ("September lOth", "llth of\n\nSeptember")] == [
        "[MONTH] [DAY]",
        "[DAY] of\n\n[MONTH]",
    ]
