"""Extraction of a CDCR-shaped hearing transcript (the export-trust issue): a
two-column cover read column by column, an INDEX under the "corrections" notice
removed, and the closing decision page and transcriber's certificate kept as
sections of their own, not glued into the last speaker's line. The PDF is
typeset here with fpdf2 the way CDCR transcripts are (no real one can be shipped)."""

import pytest
from fpdf import FPDF

from pipelines.extraction.extract import extract
from pipelines.extraction.transcript_layout import Extraction, locate

VENDOR = "Golden State Reporting & Transcription"
BODY_TOP, LINE_PITCH = 70, 26
LAST_UTTERANCE = "PRESIDING COMMISSIONER SMITH: Mr. Doe, parole is denied for three years. This hearing is adjourned."
DECISION_PAGE = [
    "CALIFORNIA BOARD OF PAROLE HEARINGS",
    "DECISION PAGE",
    "Inmate: John Doe CDCR Number: AK2960",
    "Hearing date: June 1, 2023",
    "PAROLE DENIED - THREE YEARS",
    "This decision will be final on September 29, 2023.",
]
CERTIFICATE = [
    "CERTIFICATE AND DECLARATION OF TRANSCRIBER",
    "I, Pat Q. Typist, a duly designated transcriber, do",
    "hereby declare that I have transcribed the recording",
    "of the hearing of John Doe, CDCR Number AK2960, held",
    "on June 1, 2023, and that it is true and accurate.",
    "Dated June 20, 2023, at Sacramento, California.",
    "Pat Q. Typist",
    "Transcriber",
]


def _numbered_page(pdf: FPDF, number: int, lines: list[str]) -> None:
    pdf.add_page()
    pdf.text(180, 30, VENDOR)
    pdf.text(540, 50, str(number))
    for row in range(1, 26):
        y = BODY_TOP + row * LINE_PITCH
        pdf.text(58 - (8 if row < 10 else 14), y, str(row))
        if row <= len(lines):
            pdf.text(80, y, lines[row - 1])


def cdcr_transcript() -> bytes:
    pdf = FPDF(format="letter", unit="pt")
    pdf.set_auto_page_break(False)
    pdf.set_font("Courier", size=11)
    # The cover: a caption box in two columns, the right one level with the first row.
    pdf.add_page()
    pdf.text(180, 30, VENDOR)
    y = 80
    for x, line in [(200, "SUBSEQUENT PAROLE CONSIDERATION HEARING"), (240, "STATE OF CALIFORNIA")]:
        pdf.text(x, y, line)
        y += 16
    pdf.text(230, y, "BOARD OF PAROLE HEARINGS")
    left = ["In the matter of the Parole", "Consideration Hearing of:", "", "JOHN DOE", "_" * 30]
    right = ["CDCR Number: AK2960", "", "", "", ""]
    for left_text, right_text in zip(left, right, strict=True):
        y += 14
        pdf.text(72, y, left_text)
        pdf.text(290, y, ")")
        pdf.text(310, y, right_text)
    y += 20
    for line in ["CALIFORNIA STATE PRISON, SOLANO", "VACAVILLE, CALIFORNIA", "JUNE 1, 2023", "9:05 A.M."]:
        y += 14
        pdf.text(220, y, line)
    y += 20
    for line in [
        "PANEL PRESENT:",
        "MARY SMITH, Presiding Commissioner",
        "PAUL BROWN, Deputy Commissioner",
        "",
        "OTHERS PRESENT:",
        "JOHN DOE, Inmate",
        "ANNA WHITE, Attorney for Inmate",
    ]:
        y += 14
        pdf.text(72, y, line)
    # Page 2: the corrections notice, then the INDEX below it.
    pdf.add_page()
    pdf.text(180, 30, VENDOR)
    pdf.text(540, 50, "2")
    y = 90
    for line in [
        "CORRECTIONS TO THE DECISION HAVE BEEN MADE",
        "______ No",
        "______ Yes",
        "See Review of Hearing Transcript",
        "Memorandum",
    ]:
        pdf.text(72, y, line)
        y += 16
    y += 20
    pdf.text(280, y, "I N D E X")
    pdf.text(480, y + 20, "PAGE")
    y += 36
    for title, page in [("Proceedings", 3), ("Case Factors", 3), ("Decision", 5), ("Transcriber Certification", 6)]:
        pdf.text(72, y, f"{title} {'.' * (50 - len(title))} {page}")
        y += 16
    pdf.text(280, y + 10, "--oOo--")
    _numbered_page(
        pdf,
        3,
        [
            "PRESIDING COMMISSIONER SMITH: We are on the record.",
            "This is the hearing of John Doe.",
            "INMATE DOE: Good morning.",
        ],
    )
    _numbered_page(
        pdf,
        4,
        ["PRESIDING COMMISSIONER SMITH: Mr. Doe, parole is denied", "for three years. This hearing is adjourned."],
    )
    _numbered_page(pdf, 5, DECISION_PAGE)
    _numbered_page(pdf, 6, CERTIFICATE)
    return bytes(pdf.output())


@pytest.fixture(scope="module")
def hearing() -> Extraction:
    return extract("cdcr.pdf", cdcr_transcript())


def test_the_two_column_cover_is_read_column_by_column(hearing):
    """Today: "In the matter of the Parole CDCR Number: AK2960" / "Consideration
    Hearing of:" — the right column interleaved into the left one's sentence."""
    cover = hearing.text.split("\n\n")[0].split("\n")
    at = cover.index("In the matter of the Parole")
    assert cover[at : at + 4] == [
        "In the matter of the Parole",
        "Consideration Hearing of:",
        "JOHN DOE",
        "CDCR Number: AK2960",
    ]
    assert "Parole CDCR" not in hearing.text
    assert hearing.metadata["inmate_name"] == "JOHN DOE"
    assert hearing.metadata["cdcr_number"] == "AK2960"
    assert locate(hearing.layout, hearing.text.index("CDCR Number")) == (1, 9)


def test_an_index_below_the_corrections_notice_is_removed(hearing):
    """Today: the INDEX title is the sixth line of its page, so the page was not
    taken for an index and "Proceedings ....... 3" stayed in the clean text."""
    for gone in ("I N D E X", "Proceedings", "Case Factors", "Transcriber Certification", "....", "oOo"):
        assert gone not in hearing.text, gone
    # What the page says above the index is not index: it stays.
    assert "CORRECTIONS TO THE DECISION HAVE BEEN MADE" in hearing.text


def test_the_decision_page_and_certificate_are_sections_not_the_last_utterance(hearing):
    """Today: both closing pages were appended to the last speaker's line."""
    blocks = hearing.text.split("\n\n")
    last_turn = next(b for b in reversed(blocks) if b.startswith("PRESIDING COMMISSIONER"))
    assert last_turn == LAST_UTTERANCE
    assert "\n".join(DECISION_PAGE) in blocks
    assert "\n".join(CERTIFICATE) + "\n" in blocks
    # Each printed line of a section keeps its page and line.
    assert locate(hearing.layout, hearing.text.index("DECISION PAGE")) == (5, 2)
    assert locate(hearing.layout, hearing.text.index("Dated June 20")) == (6, 6)


def test_names_and_dates_in_the_closing_sections_are_still_detected(hearing):
    from pipelines.detection.config import DEFAULT_MODEL
    from pipelines.detection.pipeline import detect_text

    result = detect_text(hearing.text, DEFAULT_MODEL, hearing.metadata)
    found = {(span.label, span.text) for span in result.spans}
    section_start = hearing.text.index("CERTIFICATE AND DECLARATION")
    in_sections = {(s.label, s.text) for s in result.spans if s.start >= hearing.text.index("DECISION PAGE")}
    assert ("PERSON", "Pat Q. Typist") in found or ("PERSON", "Typist") in found, found
    assert any(label == "DATE" and "June 20, 2023" in text for label, text in in_sections), in_sections
    assert any(label == "DATE" and "September 29, 2023" in text for label, text in in_sections), in_sections
    assert any(label == "PERSON" and "Doe" in text for label, text in in_sections), in_sections
    assert any(s.start >= section_start and s.label == "PERSON" for s in result.spans)
