"""The index files hold one entry a line, whatever line breaks the originals hold,
and a kept file-name stem is pseudonymized like the text: the same placeholder
numbers, and an ordinary token such as "cdcr" is no person (issue 27 item 8)."""

import io
import re
import zipfile

import pytest

from pipelines.candidate import Candidate
from pipelines.export.quasi import QuasiFlag
from pipelines.export.writer import COMPLETED, ExportDocument, render_document, write_zip
from pipelines.names import NameIdentity
from pipelines.pseudonymize.engine import PseudonymizationConfig

ENTRY = re.compile(r"[A-Z_]+ \| \S(?:.*\S)? ➡ \S(?:.*\S)? \| \d+(?: \| completed at export)?|QI .+")


def accepted(text: str, needle: str, label: str = "PERSON", nth: int = 0) -> Candidate:
    start = -1
    for _ in range(nth + 1):
        start = text.index(needle, start + 1)
    return Candidate(start, start + len(needle), label, needle, ("human",), 1.0)


def test_an_original_broken_over_a_line_is_one_index_entry() -> None:
    text = "Good morning, Sheila\nWhirley. Then Sheila Whirley spoke, and later Sheila\n  Whirley left.\n"
    spans = [accepted(text, "Sheila\nWhirley"), accepted(text, "Sheila Whirley")]
    output = render_document(ExportDocument(1, "t.txt", text, spans))
    lines = output.index_text.splitlines()
    assert all(ENTRY.fullmatch(line) for line in lines), lines
    assert lines == [
        "PERSON | Sheila Whirley ➡ [PERSON_1] [PERSON_2] | 2",
        f"PERSON | Sheila Whirley ➡ [PERSON_1] [PERSON_2] | 1 | {COMPLETED}",
    ]
    # The text itself keeps its line breaks.
    assert "morning, [PERSON_1]\n[PERSON_2]." in output.redacted_text
    assert "later [PERSON_1]\n  [PERSON_2] left" in output.redacted_text


def test_the_file_index_and_a_generalisation_hold_one_entry_a_line() -> None:
    text = "Walter Kowalczyk lived in Fresno until 2019."
    start = text.index("Fresno")
    flag = QuasiFlag(start, start + 6, "LOCATION", "generalise", "a city\nin California")
    output = render_document(
        ExportDocument(
            1, "Walter\r\nKowalczyk\u2028hearing.txt", text, [accepted(text, "Walter Kowalczyk")], quasi=[flag]
        )
    )
    assert (
        output.index_text.splitlines()[-1] == f"QI LOCATION | generalise | a city in California | @{start}-{start + 6}"
    )
    buffer = io.BytesIO()
    write_zip(buffer, [output], {})
    index = zipfile.ZipFile(buffer).read("index/Index.txt").decode()
    assert index == "Walter Kowalczyk hearing.txt ➡ 00001_document.txt\n"


TEXT = (
    "PRESIDING COMMISSIONER: Good morning, Sheila Whirley. Your CDCR number is K-48213.\n"
    "Mr. Dalton O'Neil, your attorney, is here.\n"
)
SPANS = [
    accepted(TEXT, "Sheila Whirley"),
    accepted(TEXT, "CDCR", "ORGANIZATION"),
    accepted(TEXT, "K-48213", "ID"),
    accepted(TEXT, "Dalton O'Neil"),
]


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        # The text: [PERSON_1] [PERSON_2] ... [ORGANIZATION_1] ... [ID_1] ... [PERSON_3] [PERSON_4]
        ("whirley_sheila_cdcr_2019.txt", "00001_[PERSON_2]_[PERSON_1]_[ORGANIZATION_1]_[YEAR].txt"),
        ("cdcr-K48213-whirley.txt", "00001_[ORGANIZATION_1]-[ID_1]-[PERSON_2].txt"),
        ("oneil-dalton.txt", "00001_[PERSON_4]-[PERSON_3].txt"),
        ("SheilaWhirley.txt", "00001_[PERSON_1][PERSON_2].txt"),
    ],
)
def test_a_kept_stem_takes_the_texts_placeholders(name: str, expected: str) -> None:
    output = render_document(ExportDocument(1, name, TEXT, SPANS), keep_stem=True)
    assert output.redacted_text.startswith(
        "PRESIDING COMMISSIONER: Good morning, [PERSON_1] [PERSON_2]. Your [ORGANIZATION_1] number is [ID_1].\n"
        "Mr. [PERSON_3] [PERSON_4],"
    )
    assert output.redacted_name == expected
    assert not NameIdentity([(s.text, s.label) for s in SPANS]).find(output.redacted_name)


def test_with_one_number_per_person_the_stem_says_what_the_text_says() -> None:
    config = PseudonymizationConfig(person_numbering="entity")
    output = render_document(ExportDocument(1, "whirley_sheila_oneil.txt", TEXT, SPANS), config, keep_stem=True)
    assert "morning, [PERSON_1]." in output.redacted_text and "Mr. [PERSON_2]," in output.redacted_text
    assert output.redacted_name == "00001_[PERSON_1]_[PERSON_1]_[PERSON_2].txt"
    # A word only the file name holds names no one person: the bare label.
    other = render_document(ExportDocument(1, "whirley_kowalczyk.txt", TEXT, SPANS), config, keep_stem=True)
    assert other.redacted_name == "00001_[PERSON_1]_[PERSON].txt"


@pytest.mark.parametrize(
    ("text", "name", "expected"),
    [
        # CDCR is in the text, and no reviewer replaced it: the file name leaves it too.
        ("Good morning, Sheila Whirley. The CDCR file.", "cdcr_whirley.txt", "00001_cdcr_[PERSON_2].txt"),
        # Not in the text at all: an abbreviation (no vowel) is no person either.
        ("Good morning, Sheila Whirley.", "whirley_cdcr_hearing.txt", "00001_[PERSON_2]_cdcr_hearing.txt"),
        # A name that occurs only in the file name is still replaced, in the document's map.
        ("Good morning, Sheila Whirley.", "whirley_kowalczyk.txt", "00001_[PERSON_2]_[PERSON_3].txt"),
        # A name the lists know stays a name even when the text leaves it (a pending span).
        ("Good morning, Sheila Whirley. Robert said so.", "robert_whirley.txt", "00001_[PERSON_3]_[PERSON_2].txt"),
    ],
)
def test_an_ordinary_token_is_no_person(text: str, name: str, expected: str) -> None:
    output = render_document(ExportDocument(1, name, text, [accepted(text, "Sheila Whirley")]), keep_stem=True)
    assert output.redacted_name == expected
