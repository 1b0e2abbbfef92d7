"""Records' numbers named by "number", "No." or "#", whatever the record, and the codes
listed after one (session 31)."""

from django.conf import settings

from pipelines.detection.pipeline import detect_text
from pipelines.detection.recognizers import patterns


def _ids(text: str) -> list[str]:
    """The IDs' texts in the order found, each once (two rules may find one)."""
    return list(
        dict.fromkeys(c.text for c in sorted(patterns.recognize(text), key=lambda c: c.start) if c.label == "ID")
    )


def test_a_code_after_number_is_a_record_s_whatever_the_record() -> None:
    assert _ids("He died in custody, Inquest No. 24IQ00871, held on") == ["24IQ00871"]
    assert _ids("The accident number is CEN25IA187.") == ["CEN25IA187"]
    assert _ids("CAD detail, KCSO No. 24-041187              V") == ["24-041187"]
    assert _ids("PPS No.:            8471936RA\nOccupation: driver") == ["8471936RA"]
    assert _ids("fighting, DC-141 number D 771542, dated June") == ["D 771542"]
    assert _ids("the appeal of Lonnie Thibodeaux, file number C 25 113 874.") == ["C 25 113 874"]
    assert _ids("The charge number is\n 4   451-2024-01178. It was") == ["451-2024-01178"]
    assert _ids("His prison number is\nA4417CX; I know") == ["A4417CX"]
    assert _ids("Communicator: K. Mbeki, Operator ID 2207\n") == ["2207"]


def test_what_follows_number_that_is_no_record_s_code() -> None:
    for text in (
        "My phone number is 5595551234 today.",
        "Turn to page number 12345 of the binder.",
        "The number was 15000 people at the rally.",
        "The number is 2019-2020 for the season.",
        "The number was 12.5 and rising.",
        "Exhibit number 10442 is the map.",
        "Case number 12 is next.",
        "She lives in Boise, ID 83702 now.",
    ):
        assert _ids(text) == [], text


def test_codes_listed_after_a_record_s_code_in_its_shape() -> None:
    assert _ids("Case Nos. CR24001187-00 and CR24001188-00, on June 17") == ["CR24001187-00", "CR24001188-00"]
    assert _ids("The serial numbers 41187 and\n   41192. The last") == ["41187", "41192"]
    assert _ids("referral nos.\n        R-25-10417 and R-25-10422 were sent") == ["R-25-10417", "R-25-10422"]
    # Another shape is another thing: a count, a year.
    assert _ids("Case No. CR24001187-00 and 12 others, in 2024") == ["CR24001187-00"]


def test_a_hash_number_after_a_full_name_or_a_numbered_role() -> None:
    assert _ids("P.O. Bryson Kalinowski, #2217, Fourth District") == ["2217"]
    assert _ids("Examiner name:      Cortland Tharpe #40519") == ["40519"]
    assert _ids("Darnell Quintez Ousley, Prisoner, #718443 (at LRF)") == ["718443"]
    assert _ids("per Offense Report, Tyler Police Department #19-044718):") == ["19-044718"]
    # A store's number after its name alone, or after common words, is no record's.
    assert _ids("We went to the Walgreens #07214 on Main. Then Home Depot #4417.") == []


def test_a_british_officer_s_collar_number() -> None:
    assert _ids("Interviewing officer: DC 4471 PENDLEBURY") == ["4471"]
    assert _ids("A.  Police Constable 4471 Rachel Lund, West Yorkshire Police.") == ["4471"]
    assert _ids("Detective Police Constable 51873, of the unit.") == ["51873"]
    # Washington's ZIP code, a clock.
    assert _ids("The office is at Washington, DC 20001. PC 1430 hours.") == []


def test_a_rank_s_words_are_no_institution() -> None:
    spans = detect_text("Detective Police Constable 51873, of the unit.", settings.SPACY_MODEL).spans
    assert [c.text for c in spans if c.label == "ORGANIZATION"] == []


def test_digits_in_groups_after_a_file_s_or_a_case_s_number() -> None:
    assert _ids("             )    VA File No. 29 114 667\n") == ["29 114 667"]
    # A telephone's number written abroad, a count: no record's word before "number".
    for text in (
        "My M-Pesa number is 0722 555 148. The number was 100 200 300.",
        "Tel. No. 020 7946 0958. Number is 0161 496 0123, home. Tel. No. 0412345678.",
        "WhatsApp number is 919845012345.",
    ):
        assert _ids(text) == [], text


def test_counts_laws_and_forms_after_number_are_no_records() -> None:
    for text in (
        "The number was 25000 that year. The total number is 12500 now.",
        "A. No. 45000 is what I made. His numbers were 150/95.",
        "Pub. L. No. 104-191. Executive Order No. 13769. U.S. Patent No. 7654321. Form No. DD-214.",
        "A. Claim number 22145, 30000 dollars.",
    ):
        assert [i for i in _ids(text) if i != "22145"] == [], text


def test_a_short_number_after_a_collar_s_or_a_badge_s_word() -> None:
    assert _ids("Officer N. BIRCH, collar no. 2761\n") == ["2761"]
    assert _ids("I said no. 12345 people came.") == []


def test_an_english_prisoner_s_number_a_garda_pulse_number_and_a_register_s_year() -> None:
    assert _ids("Adj. THM | BISHOP A7316EY | IA hearing") == ["A7316EY"]
    assert _ids("Interview 2 of 3   12.03.2024   PULSE 24117833   Page 1 of 7") == ["24117833"]
    spans = detect_text("                       EC0417/96\n", settings.SPACY_MODEL).spans
    assert [c.text for c in spans if c.label == "ID"] == ["EC0417/96"]


def test_a_commonwealth_court_s_number_keeps_its_year() -> None:
    spans = detect_text("ELRC Cause No. E219 of 2022 -- Proceedings", settings.SPACY_MODEL).spans
    assert [(c.text, c.label) for c in spans if c.label in ("ID", "DATE")] == [("E219 of 2022", "ID")]


def test_a_date_glued_to_a_longer_code_is_the_code_s_part() -> None:
    for text, code in (
        ("Parcel No. 27-07-29-402-011.000-002 -- Development", "27-07-29-402-011.000-002"),
        ("national identification card, number 01-03-99-1990-06-00417, which", "01-03-99-1990-06-00417"),
    ):
        spans = detect_text(text, settings.SPACY_MODEL).spans
        assert [(c.text, c.label) for c in spans if c.label in ("ID", "DATE")] == [(code, "ID")]
    # Two dates joined by a hyphen are a range, each a date.
    spans = detect_text("Coffield (05/2021-09/2023), then notes 03/14/22-03/15/22.", settings.SPACY_MODEL).spans
    assert [c.text for c in spans if c.label == "DATE"] == ["05/2021", "09/2023", "03/14/22", "03/15/22"]
