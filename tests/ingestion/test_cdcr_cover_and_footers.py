"""The real CDCR hearing PDF (issue 27, item 7): its cover prints the caption in
two columns with no ")" between them, its INDEX sits on the cover after
"Transcribed by:", and each decision page carries a footer with the inmate's
name, CDCR number, date and "DECISION PAGE n". The PDF is typeset here with fpdf2
the way that transcript is (no real one can be shipped)."""

import pytest
from fpdf import FPDF

from pipelines.extraction.extract import extract
from pipelines.extraction.transcript_layout import Extraction, build_extraction

BODY_TOP, LINE_PITCH = 70, 26
NAME, CDCR = "MARCUS DELGADO", "AK2960"
INDEX = [
    ("Proceedings", "3"),
    ("Case Factors", "--"),
    ("Pre-Commitment Factors", "--"),
    ("Post-Commitment Factors", "--"),
    ("Parole Plans", "--"),
    ("Closing Statements", "--"),
    ("Recess", "4"),
    ("Decision", "5"),
    ("Adjournment", "6"),
    ("Transcript Certification", "7"),
]
DECISION = [
    [
        "CALIFORNIA BOARD OF PAROLE HEARINGS",
        "DECISION PAGE",
        "The panel has reviewed the record and finds",
        "Mr. Delgado not suitable for parole.",
    ],
    ["This decision will be final on July 12, 2023.", "Parole is denied for three years."],
]


def _cover(pdf: FPDF) -> None:
    pdf.add_page()
    y = 60
    for x, line in [(190, "SUBSEQUENT PAROLE CONSIDERATION HEARING"), (240, "STATE OF CALIFORNIA")]:
        pdf.text(x, y, line)
        y += 16
    pdf.text(230, y, "BOARD OF PAROLE HEARINGS")
    # The caption: two columns a wide gap apart, no ")" column between them.
    for left, right in [("In the matter of the Parole", f"CDCR Number: {CDCR}"), ("Consideration Hearing of:", "")]:
        y += 14
        pdf.text(72, y, left)
        pdf.text(340, y, right)
    y += 28
    pdf.text(72, y, NAME)
    y += 20
    for line in ["CALIFORNIA STATE PRISON, SOLANO", "VACAVILLE, CALIFORNIA", "MARCH 14, 2023", "9:05 A.M."]:
        y += 14
        pdf.text(220, y, line)
    y += 14
    for line in [
        "PANEL PRESENT:",
        "MARY SMITH, Presiding Commissioner",
        "OTHERS PRESENT:",
        f"{NAME}, Inmate",
        "CORRECTIONS TO THE DECISION HAVE BEEN MADE",
        "Transcribed by: Pat Q. Typist",
    ]:
        y += 14
        pdf.text(72, y, line)
    # The INDEX, on the cover under "Transcribed by:": titles on the left, the page
    # (or "--" for a section not reached) at the right margin.
    y += 24
    pdf.text(285, y, "INDEX")
    y += 16
    pdf.text(480, y, "Page")
    for title, page in INDEX:
        y += 14
        pdf.text(100, y, title)
        pdf.text(484, y, page)


def _numbered_page(pdf: FPDF, lines: list[str], footer: str | None = None) -> None:
    pdf.add_page()
    for row in range(1, 26):
        y = BODY_TOP + row * LINE_PITCH
        pdf.text(58 - (8 if row < 10 else 14), y, str(row))
        if row <= len(lines):
            pdf.text(80, y, lines[row - 1])
    if footer:
        pdf.text(72, 760, footer)


def footer(page: int) -> str:
    return f"{NAME}  {CDCR}  MARCH 14, 2023  DECISION PAGE {page}"


def delgado_hearing() -> bytes:
    pdf = FPDF(format="letter", unit="pt")
    pdf.set_auto_page_break(False)
    pdf.set_font("Courier", size=11)
    _cover(pdf)
    _numbered_page(
        pdf,
        [
            "PRESIDING COMMISSIONER SMITH: We are on the record for the",
            "hearing of Marcus Delgado.",
            "INMATE DELGADO: Good morning. I was going to --",
            "PRESIDING COMMISSIONER SMITH: Go on.",
        ],
    )
    _numbered_page(pdf, ["PRESIDING COMMISSIONER SMITH: We will recess now."])
    _numbered_page(pdf, DECISION[0], footer(1))
    _numbered_page(pdf, DECISION[1], footer(2))
    _numbered_page(pdf, ["CERTIFICATE AND DECLARATION OF TRANSCRIBER", "I, Pat Q. Typist, transcribed it."])
    return bytes(pdf.output())


@pytest.fixture(scope="module")
def hearing() -> Extraction:
    return extract("delgado.pdf", delgado_hearing())


def test_the_cover_columns_apart_by_a_wide_gap_are_read_one_after_the_other(hearing):
    """Was: "In the matter of the Parole CDCR Number: AK2960" / "Consideration Hearing of:"."""
    cover = hearing.text.split("\n\n")[0].split("\n")
    at = cover.index("In the matter of the Parole")
    caption = ["In the matter of the Parole", "Consideration Hearing of:", NAME, "CDCR Number: AK2960"]
    assert cover[at : at + 4] == caption
    assert "Parole CDCR" not in hearing.text
    assert hearing.metadata["inmate_name"] == NAME
    assert hearing.metadata["cdcr_number"] == CDCR
    # The centred title above and the lines below are read as before.
    assert cover[:3] == ["SUBSEQUENT PAROLE CONSIDERATION HEARING", "STATE OF CALIFORNIA", "BOARD OF PAROLE HEARINGS"]
    assert cover[at + 4] == "CALIFORNIA STATE PRISON, SOLANO"


def test_the_index_on_the_cover_is_furniture(hearing):
    """Was: "INDEX / Page / Proceedings 3 / Case Factors -- / … / Transcript Certification 20" in the text."""
    for title, _page in INDEX:
        assert f"\n{title} " not in hearing.text, title
    for gone in ("INDEX", "Page\n", "Case Factors --", "Transcript Certification 7"):
        assert gone not in hearing.text, gone
    cover = hearing.text.split("\n\n")[0].split("\n")
    assert cover[-1] == "Transcribed by: Pat Q. Typist"
    assert hearing.metadata["transcriber"] == "Pat Q. Typist"
    # A sentence cut short with "--" is testimony, not an index entry.
    assert "INMATE DELGADO: Good morning. I was going to --" in hearing.text


def test_the_decision_page_footer_is_furniture_even_on_two_pages(hearing):
    """Was: "MARCUS DELGADO AK2960 MARCH 14, 2023 DECISION PAGE 1" in the decision's text."""
    assert "DECISION PAGE 1" not in hearing.text and "DECISION PAGE 2" not in hearing.text
    assert "MARCH 14, 2023 DECISION" not in hearing.text
    blocks = hearing.text.split("\n\n")
    decision = next(b for b in blocks if b.startswith("CALIFORNIA BOARD OF PAROLE HEARINGS"))
    assert decision.split("\n")[:2] == ["CALIFORNIA BOARD OF PAROLE HEARINGS", "DECISION PAGE"]
    assert decision.endswith("Parole is denied for three years.")


def test_a_page_marker_alone_or_in_a_sentence_is_no_footer():
    numbered = [f"{n} line {n} of the hearing" for n in range(1, 6)]
    pages = [
        ["SUBSEQUENT PAROLE CONSIDERATION HEARING", "Transcribed by: Pat Q. Typist"],
        ["DECISION PAGE 1", *numbered, "SEE PAGE 3", "the report on page 3 of the file"],
    ]
    text = build_extraction(pages).text
    for kept in ("DECISION PAGE 1", "SEE PAGE 3", "the report on page 3 of the file"):
        assert kept in text, kept
    pages[1].append("MARCUS DELGADO AK2960 MARCH 14, 2023 DECISION PAGE 1")
    pages[1].append("Golden State Reporting Page 2 of 7")
    assert build_extraction(pages).text == text


def test_an_index_block_needs_page_numbers_and_stops_at_the_first_other_line():
    cover = ["PAROLE HEARING", "Transcribed by: Pat Q. Typist", "INDEX", "Page", "Proceedings 3", "Decision --"]
    after = ["MARCUS DELGADO, Inmate", "MARY SMITH, Presiding Commissioner"]
    text = build_extraction([cover + after]).text
    assert text == "PAROLE HEARING\nTranscribed by: Pat Q. Typist\n" + "\n".join(after) + "\n"
    # Only "--" after the title: sentences cut short, not an index.
    lines = ["Contents", "I was going to --", "He said --"]
    assert build_extraction([lines]).text == "\n".join(lines) + "\n"


def test_a_wide_gap_on_one_line_or_in_an_index_splits_nothing():
    """Only a block of two left-aligned columns is split: one tabbed line between
    paragraph lines, or an index entry's page number, stays on its line."""
    pdf = FPDF(format="letter", unit="pt")
    pdf.set_auto_page_break(False)
    pdf.set_font("Courier", size=11)
    pdf.add_page()
    lines = [
        (72, "Memorandum to the file about the hearing held that morning."),
        (72, "Date: June 1, 2023"),
        (72, "The panel heard the inmate and his attorney at length and"),
        (72, "recessed before noon."),
    ]
    for row, (x, line) in enumerate(lines):
        pdf.text(x, 100 + 14 * row, line)
    pdf.text(380, 114, "Case No. 12345")
    pdf.text(100, 170, "Proceedings")
    pdf.text(484, 170, "3")
    pdf.text(100, 184, "Decision")
    pdf.text(484, 184, "5")
    text = extract("memo.pdf", bytes(pdf.output())).text
    assert text.split("\n")[:6] == [
        lines[0][1],
        "Date: June 1, 2023 Case No. 12345",
        lines[2][1],
        lines[3][1],
        "Proceedings 3",
        "Decision 5",
    ]
