"""One notion of "the same name" (issue 12): the name identity, and a table that
proves propagation, apply-to-all grouping (the service's siblings and the side
panel's entities), export-time completion and the leak gate agree, case by case."""

import re

import pytest

from pipelines.candidate import Candidate
from pipelines.detection.merging.propagate import propagate
from pipelines.export.leak_check import find_leaks
from pipelines.export.writer import ExportDocument, render_document
from pipelines.gazetteers import is_common_word
from pipelines.names import NameIdentity, name_key
from review.models import Span, SpanStatus
from review.selectors.document import Filters, entity_groups
from review.services.decisions import siblings

# (accepted form, its label, a line with «the occurrence», is it that name?, is it
# the same entity for apply-to-all — None where it is another form of the name, a
# part or a spelling, which the side panel lists as an entity of its own).
TABLE = [
    # case variants
    ("John Smith", "PERSON", "Later «JOHN SMITH» spoke.", True, True),
    ("John Smith", "PERSON", "Later «john smith» spoke.", True, True),
    ("Walter Kowalczyk", "PERSON", "Later «walter kowalczyk» spoke.", True, True),
    ("Kowalczyk", "PERSON", "Later «kowalczyk» spoke.", True, True),
    ("Kowalczyk", "PERSON", "Later «KOWALCZYK» spoke.", True, True),
    # possessives
    ("John Smith", "PERSON", "It was «John Smith»'s car.", True, True),
    ("Kowalczyk", "PERSON", "It was «Kowalczyk»’s car.", True, True),
    # name parts
    ("John Smith", "PERSON", "He saw «Smith» there.", True, None),
    ("John Smith", "PERSON", "He saw «SMITH» there.", True, None),
    ("Walter Kowalczyk", "PERSON", "He saw «kowalczyk» there.", True, None),
    ("Walter Kowalczyk", "PERSON", "He saw «Walter» there.", True, None),
    # joined and hyphenated first + last names
    ("John Smith", "PERSON", "File «johnsmith» here.", True, None),
    ("John Smith", "PERSON", "File «JohnSmith» here.", True, None),
    ("Walter Kowalczyk", "PERSON", "File «walter-kowalczyk» here.", True, None),
    ("Walter Kowalczyk", "PERSON", "File «Walter_Kowalczyk» here.", True, None),
    # broken across a line end
    ("John Smith", "PERSON", "Then «John\nSmith» spoke.", True, True),
    ("Kowalczyk", "PERSON", "Then «Kowal-\nczyk» spoke.", True, True),
    # spelled and spaced letters
    ("Kowalczyk", "PERSON", "Spell it: «K-O-W-A-L-C-Z-Y-K».", True, None),
    ("John Smith", "PERSON", "Spell it: «S m i t h».", True, None),
    ("John Smith", "PERSON", "Spell it: «s.m.i.t.h».", True, None),
    # the case policy: a lower-case common word is the word...
    ("Tom Young", "PERSON", "He was «young» then.", False, False),
    ("Rose Kowalczyk", "PERSON", "A «rose» in bloom.", False, False),
    ("Will Black", "PERSON", "I «will» go.", False, False),
    ("Will Black", "PERSON", "A «black» car.", False, False),
    ("Martha King", "PERSON", "The «king» said so.", False, False),
    ("Maria May", "PERSON", "It «may» rain.", False, False),
    ("George Bush", "PERSON", "Behind a «bush» there.", False, False),
    ("Mike Brown", "PERSON", "Turn the «mike» off.", False, False),
    ("Board Hearing", "ORGANIZATION", "A «board hearing» was set.", False, False),
    # A word the frequencies call a name's more than a word's is the name in lower
    # case too, even where it may be the word ("brown" of Frank Brown): a quoted text
    # message or a tattoo writes names so ("it says gray across his knuckles" of
    # Anthony Gray), and a leak is worse than a colour a reviewer rejects.
    ("Frank Brown", "PERSON", "The car was «brown», not gray.", True, None),
    ("Anthony Gray", "PERSON", "It says «gray» across his knuckles.", True, None),
    # ...unless a name context says so: a title, a speaker label, a first name beside it
    ("Young", "PERSON", "Ask Mr. «young» now.", True, True),
    ("Young", "PERSON", "«young»: Yes, sir.", True, True),
    ("Tom Young", "PERSON", "Ask Mr. «young» now.", True, None),
    ("Tom Young", "PERSON", "Then «tom young» left.", True, True),
    ("Frank Brown", "PERSON", "Then «frank brown» left.", True, True),
    ("Brown", "PERSON", "Ask Mr. «brown» now.", True, True),
    # ...and the name in capitals or title case is the name
    ("Young", "PERSON", "He said «Young» was there.", True, True),
    ("Young", "PERSON", "He said «YOUNG» was there.", True, True),
    ("Tom Young", "PERSON", "He said «Young» was there.", True, None),
    ("Board Hearing", "ORGANIZATION", "At the «BOARD HEARING» today.", True, True),
    # not the name at all
    ("John Smith", "PERSON", "The «Smithson» file.", False, False),
]


def _case(form: str, label: str, line: str) -> tuple[str, Candidate, tuple[int, int]]:
    before, occurrence, after = re.split("[«»]", line)
    text = f"{form} spoke first.\n{before}{occurrence}{after}"
    start = len(form) + len(" spoke first.\n") + len(before)
    accepted = Candidate(0, len(form), label, form, ("human",), 1.0)
    return text, accepted, (start, start + len(occurrence))


def _span(pk: int, text: str, start: int, end: int, label: str, status: str = SpanStatus.PENDING) -> Span:
    return Span(pk=pk, document_id=1, start=start, end=end, label=label, text=text[start:end], status=status)


@pytest.mark.parametrize(("form", "label", "line", "is_name", "same_entity"), TABLE)
def test_propagation_grouping_completion_and_the_leak_gate_agree(
    form: str, label: str, line: str, is_name: bool, same_entity: bool | None
) -> None:
    text, accepted, where = _case(form, label, line)
    # The identity itself.
    identity = NameIdentity([(form, label)])
    assert (where in {(o.start, o.end) for o in identity.find(text)}) is is_name, "identity"
    # Propagation (detection) proposes a span there, or not.
    propagated = {(c.start, c.end) for c in propagate(text, [accepted])}
    assert (where in propagated) is is_name, "propagation"
    # Export-time completion replaces it, or not.
    output = render_document(ExportDocument(1, "x.txt", text, [accepted]))
    assert (where in {(c.start, c.end) for c in output.completed}) is is_name, "completion"
    # The leak gate flags it when it survives, or not.
    line_only = text[len(form) + len(" spoke first.\n") :]
    offset = where[0] - (len(form) + len(" spoke first.\n"))
    assert (offset in {leak.output_offset for leak in find_leaks(line_only, [accepted])}) is is_name, "leak gate"
    if same_entity is None:
        return
    # Apply-to-all: the service's siblings, and the side panel's entities.
    first = _span(1, text, 0, len(form), label)
    other = _span(2, text, *where, label)
    assert (siblings(first, [first, other], text) == [other]) is same_entity, "siblings"
    groups = entity_groups([first, other], Filters(), text)
    assert (len(groups[0].entities) == 1) is same_entity, "side panel"
    assert (name_key(form, label) == name_key(text[where[0] : where[1]], label, (text, *where))) is same_entity


@pytest.mark.parametrize(
    ("word", "common"),
    [
        ("young", True),
        ("rose", True),
        ("will", True),
        ("king", True),
        ("may", True),
        ("black", True),
        ("bush", True),
        ("correct", True),
        ("smith", False),
        ("garcia", False),
        ("walter", False),
        ("kowalczyk", False),
    ],
)
def test_common_words_come_from_word_and_name_frequencies(word: str, common: bool) -> None:
    # wordfreq says how often a word is met; Faker's census weights say how much of
    # that its use as a name explains ("smith" is met often, as a name).
    assert is_common_word(word) is common


def test_the_identity_reports_the_form_that_matched() -> None:
    identity = NameIdentity([("Walter Kowalczyk", "PERSON"), ("Folsom State Prison", "ORGANIZATION")])
    text = "walter-kowalczyk-hearing at FOLSOM STATE PRISON; K o w a l c z y k."
    found = [(text[o.start : o.end], o.label, o.kind, o.key) for o in identity.find(text)]
    assert found == [
        ("walter-kowalczyk", "PERSON", "full", "walter kowalczyk"),
        ("FOLSOM STATE PRISON", "ORGANIZATION", "full", "folsom state prison"),
        ("K o w a l c z y k", "SPELLED_NAME", "spelled", "walter kowalczyk"),
    ]


def test_the_identity_finds_every_occurrence_in_a_long_transcript() -> None:

    def word(n: int) -> str:  # distinct made-up names: "Kaba", "Kabe", …
        letters = ""
        for _ in range(3):
            n, r = divmod(n, 5)
            letters += "bdgkm"[r] + "aeiou"[(n + r) % 5]
        return letters.capitalize()

    names = [(f"{word(i)} {word(i + 500)}", "PERSON") for i in range(200)]
    identity = NameIdentity(names)
    sentence = f"PRESIDING COMMISSIONER: And then {names[0][0]} said no to {word(507)} about it. "
    text = (sentence * 3000)[:140_000]
    # Its time, doubled input against input, is bench/bench_linear.py's.
    found = identity.find(text)
    assert len(found) > 3000


def test_the_memory_proposes_a_bare_common_surname_only_where_a_name_context_says_so() -> None:
    """Issue 27: "Young", "Brown", "Wilson" accepted in one document were proposed
    everywhere in the next. A rare surname stays proposed bare ("Kowalczyk")."""
    from pipelines.detection.recognizers.memory import CompiledMemory, CorpusMemory, MemoryName

    memory = CompiledMemory(
        CorpusMemory(
            names=tuple(MemoryName(n, "PERSON", (1,)) for n in ("Young", "Brown", "Wilson", "Kowalczyk", "Tom Young"))
        )
    )
    text = "Brown shoes. Wilson said so. Mr. Wilson came. Kowalczyk left. Young people. Tom Young agreed. BROWN:"
    found = [(c.text, c.start) for c in memory.candidates(text)]
    assert ("Brown", 0) not in found and ("Wilson", text.index("Wilson")) not in found
    assert ("Young", text.index("Young people")) not in found
    assert ("Wilson", text.index("Mr. Wilson") + 4) in found
    assert ("Kowalczyk", text.index("Kowalczyk")) in found
    assert ("Tom Young", text.index("Tom Young")) in found
    assert ("BROWN", text.index("BROWN")) in found  # a speaker label


def test_a_lower_case_word_is_the_name_where_the_text_has_no_case() -> None:
    # Speech recognition writes every name in lower case: there "brown" alone may be
    # Frank Brown, and the gate and propagation read it so (the adjective rule is off).
    asr = (
        "um so i talked to frank brown that night and he said he was going home "
        "and i said okay and then later on brown came back to the house and "
        "we talked for a while about the car and the kids and the money and "
        "he left again before midnight i think it was"
    )
    at = asr.index("brown came")
    accepted = Candidate(
        asr.index("frank brown"), asr.index("frank brown") + 11, "PERSON", "frank brown", ("human",), 1.0
    )
    assert (at, at + 5) in {(o.start, o.end) for o in NameIdentity([("Frank Brown", "PERSON")]).find(asr)}
    assert at in {leak.output_offset for leak in find_leaks(asr, [accepted])}
