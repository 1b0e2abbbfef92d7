"""A court reporter's text export (.txt) with printed line numbers and page numbers:
the same furniture as a PDF transcript's, taken off the same way
(pipelines/extraction/extract.py: numbered_pages, then transcript_layout)."""

from pipelines.extraction.extract import extract, numbered_pages
from pipelines.extraction.transcript_layout import locate
from tests.ingestion.test_transcript_pdf import assert_layout_covers


def _page(number: int, lines: list[str], feed: bool = False) -> str:
    head = ("\f" if feed else "") + f"{'':>60}{number}\n\n"
    return head + "".join(f"{n:>2}   {line}\n" for n, line in enumerate(lines, start=1))


FIRST = [
    "Q.   And where were you employed at that time?",
    "A.   I was a nurse at Barnes-Jewish Hospital.",
    "Q.   What happened on the night of October 12th?",
    "A.   I called my supervisor, Dr. Amanda",
    "Feldman. Her number is (314) 555-0187.",
    "MR. BRENNAN:  Objection, Your Honor.",
    "THE COURT:  Sustained.",
    "BY MS. OKAFOR:",
    "Q.   Ms. Greene, how old were you then?",
    "A.   I was 34.",
]
SECOND = [
    "Q.   And did Detective Ray Hollis of the St. Louis County",
    "Police Department interview you?",
    "A.   Yes, on the 14th.",
    "Q.   Anything else?",
    "A.   No.",
    "MR. BRENNAN:  Nothing further.",
    "THE COURT:  You may step down.",
    "(Witness excused.)",
    "THE COURT:  Call your next witness.",
    "MS. OKAFOR:  The State calls Officer Lee.",
]


def test_printed_line_and_page_numbers_come_off_and_utterances_join() -> None:
    for feed in (False, True):
        raw = _page(45, FIRST) + _page(46, SECOND, feed=feed)
        extraction = extract("testimony.txt", raw.encode())
        assert extraction.pages == 2
        text = extraction.text
        assert "Dr. Amanda Feldman. Her number" in text  # a name no longer broken by a number
        assert "St. Louis County Police Department interview you?" in text
        assert "MR. BRENNAN: Objection, Your Honor." in text.split("\n")
        assert not any(line.strip().isdigit() for line in text.split("\n"))
        assert_layout_covers(extraction)
        # Provenance: the printed page and line.
        assert locate(extraction.layout, text.index("Feldman")) == (1, 5)
        assert locate(extraction.layout, text.index("Police Department")) == (2, 2)


def test_a_text_with_a_few_numbers_is_left_as_written() -> None:
    raw = "INMATE SMITH: I was 12 when it started.\n" + "".join(f"Line {n} of prose here.\n" for n in range(20))
    raw += "1 thing I remember.\n2 things I do not.\n"
    assert numbered_pages(raw) is None
    extraction = extract("a.txt", raw.encode())
    assert extraction.text == raw and extraction.pages == 1


def test_three_pages_and_a_trailing_form_feed_are_three_pages() -> None:
    raw = _page(1, FIRST) + _page(2, SECOND) + _page(3, FIRST) + "\f"
    extraction = extract("testimony.txt", raw.encode())
    assert extraction.pages == 3
    assert not any(line[:2].strip().isdigit() for line in extraction.text.split("\n"))
    assert_layout_covers(extraction)


def test_a_chronology_and_a_numbered_list_stay_as_written() -> None:
    chronology = "".join(f"{day} May 2019 booked into the county jail again.\n" for day in range(1, 15))
    assert numbered_pages(chronology) is None
    assert extract("dates.txt", chronology.encode()).text == chronology
    # Numbered apart by two spaces, but not running on: a list of items, not lines.
    items = "".join(f"{n}  item of the inventory.\n" for n in (3, 7, 12, 5, 9, 1, 14, 2, 8, 11, 6, 4))
    assert numbered_pages(items) is None


def test_many_blank_lines_before_a_new_page_cost_no_quadratic_time() -> None:
    import time

    raw = "".join(f"{n:>2}   Q.   Line {n}.\n" for n in range(1, 11)) + "\n" * 200_000 + " 1   A.   Yes.\n"
    started = time.perf_counter()
    pages = numbered_pages(raw)
    assert pages is not None and len(pages) == 2
    assert time.perf_counter() - started < 2.0
