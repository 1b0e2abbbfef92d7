"""Minutes' members and their initials, other courts' courtesies, languages, aliases and
references (session 36, from made-up batch 31)."""

from pipelines.candidate import Candidate
from pipelines.detection.merging import propagate
from pipelines.detection.recognizers import cues, patterns
from pipelines.names import name_parts
from tests.engine.span_support import people as _people
from tests.engine.span_support import spans as _spans


def _ids(text: str) -> list[str]:
    return [t for t, _ in _spans(text, "ID")]


MINUTES = (
    "Present\n"
    "  Gillian Ormerod (GO)     Independent Chair and Author, Ormerod Safeguarding\n"
    "                           Reviews Ltd\n"
    "  DCI Graham March (GM)    West Yorkshire Police, Safeguarding Review Team\n"
    "  Louise Sowerby (LS)      Service Manager, Brightwater Domestic Abuse Service\n"
    "\n"
    "1.1  GO welcomed members, in particular DCI March. LS noted that the notes\n"
    "     record two calls. GM accepted that seven weeks was too long.\n"
    "8.1  Approved by G. Ormerod.\n"
)


def test_a_member_introduced_with_the_initials_of_both_names_is_a_person() -> None:
    introduced = [(c.text, c.label) for c in cues.recognize(MINUTES) if c.rule == "cue:initials_after_name"]
    for name in ("Graham March", "GM", "Louise Sowerby", "LS", "GO"):
        assert (name, "PERSON") in introduced
    # A body's name a given name opens, with its initials, is no one.
    bodies = "We wrote to Royal Mail (RM) and to Victoria Police (VP) in May.\n"
    assert [c.text for c in cues.recognize(bodies) if c.rule == "cue:initials_after_name"] == []


def _person(text: str, name: str, at: int = 0) -> Candidate:
    start = text.index(name, at)
    return Candidate(start, start + len(name), "PERSON", name, ("spacy",), 0.9)


def test_initials_have_one_owner_when_a_name_is_written_again_with_its_initial() -> None:
    text = "Gillian Ormerod (GO) chaired. GO spoke. Approved by G. Ormerod.\n"
    spans = [_person(text, "Gillian Ormerod"), _person(text, "G. Ormerod")]
    found = propagate._initials_introduced(text, spans, propagate._Disjoint([]), propagate._Disjoint([]))
    assert [c.text for c in found] == ["GO", "GO"]
    # Two people who share the initials: they name no one.
    two = "Jane Smith (JS) and John Smith attended. JS spoke.\n"
    spans = [_person(two, "Jane Smith"), _person(two, "John Smith")]
    assert propagate._initials_introduced(two, spans, propagate._Disjoint([]), propagate._Disjoint([])) == []


def test_minutes_write_their_members_by_the_initials_they_introduced() -> None:
    people = _people(MINUTES)
    # "G. Ormerod" is "Gillian Ormerod" again: the initials keep one owner.
    assert people.count("GO") == 2
    assert "GM" in people and "LS" in people
    assert "Graham March" in people and "Louise Sowerby" in people


def test_other_courts_courtesies_and_ranks_stay_outside_the_name() -> None:
    text = (
        "A:   I was at the store of Aling Nena Villacorta. Kuya Berto, the driver,\n"
        "     brought us. Our chairman is Kapitan Nestor Mendiola.\n"
        "He told us Hajji Kasule Sulaiman bought it. I gave the CD to Inspektor Kavitha\n"
        "and we went with Sarjan Mohd Faizal. DCI March attended for Supt Ackroyd.\n"
    )
    people = _people(text)
    for name in ("Nena Villacorta", "Berto", "Nestor Mendiola", "Kasule Sulaiman", "Kavitha", "Ackroyd"):
        assert name in people
    assert not any(p.split()[0] in {"Aling", "Kuya", "Kapitan", "Hajji", "Inspektor", "Supt"} for p in people)
    # "Mang" is a Chin and a Hmong given name too, part of the name.
    assert "Mang Hlei" in _people("A. My cousin is Mang Hlei. He lives in Indianapolis.\n")


def test_the_philippines_prosecutor_is_a_role_in_his_label() -> None:
    text = (
        "COURT: Fiscal, your witness?\n"
        "FISCAL MANALASTAS: Your Honor, our witness this morning is the wife.\n"
        "ATTY. DIMAANO: No objection.\n"
    )
    people = _people(text)
    assert "MANALASTAS" in people and "FISCAL MANALASTAS" not in people
    assert "Fiscal" not in people
    # Scotland's prosecutor's office keeps its name.
    orgs = [t for t, _ in _spans("Procurator Fiscal Depute Alan Reid appeared.\n", "ORGANIZATION")]
    assert "Procurator" not in orgs


def test_a_given_name_written_short_opens_the_name() -> None:
    text = (
        "FISCAL REYES: Our witness this morning is Ma. Teresita\n"
        "Magsino, the wife of the complainant.\n"
        "A:   Ma. Teresita Perlas Magsino po.\n"
        "\n"
        "MA. TERESITA PERLAS MAGSINO, of legal age, married, after having been sworn.\n"
    )
    people = _people(text)
    assert "Ma. Teresita\nMagsino" in people
    assert "Ma. Teresita Perlas Magsino" in people
    assert "MA. TERESITA PERLAS MAGSINO" in people
    assert "Ma" not in people and "MA" not in people
    # Its short given name is no name of its own to look for elsewhere ("Ma" is a mother).
    assert "Ma" not in name_parts("Ma. Teresita Magsino")
    # A state's code after a town's comma is no given name, nor a degree or a mother
    # before a name.
    for other in (
        "He lived in Boston, MA. Teresita Smith said so.\n",
        "She holds an MA. Jennifer Lopez testified next.\n",
        "I went home to Ma. Peter was there.\n",
    ):
        found = [t for t, _ in _spans(other, "PERSON", "LOCATION", "ORGANIZATION")]
        assert not any(t.startswith(("MA. ", "Ma. ")) for t in found), found


def test_a_clinician_s_assessment_and_plan_joins_no_two_names() -> None:
    # Malaysia's "a/p" (daughter of) is written so too; two people merged would be worse.
    people = _people("Discussed with Dr Jones a/p Smith to review the scan.\n")
    assert "Jones" in people and not any("a/p" in p for p in people)


def test_a_language_the_document_names_is_no_one_anywhere_in_it() -> None:
    text = (
        "Mr. Ssempala Ismail, Court Interpreter (Luganda/Runyankore-Rukiga/English).\n"
        "Indictment read and explained to both accused in Luganda for A1.\n"
        "PW1: Katende Ronald, adult male. Sworn on the Bible. States in Luganda:\n"
        "    I ride a boda boda. A2 spoke in Runyankore and Luganda mixed.\n"
        "COURT: Mr. Interpreter, swear in the witness in Tagalog. She testified in Tagalog.\n"
    )
    found = [t for t, _ in _spans(text, "PERSON", "LOCATION", "ORGANIZATION")]
    assert "Luganda" not in found and "Tagalog" not in found
    # A name said after "in" stays a name where the document never speaks it, and a
    # clause's "spoke" before the next one's subject says nothing.
    assert "Garcia" in _people("The motion was argued in Garcia's absence. Maria Garcia left.\n")
    assert "Jessica" in _people("When I spoke Jessica hung up the phone.\n")
    # Speaking "in" a word no list knows as a language names no language elsewhere: a
    # village's name is one too.
    village = "The chief spoke in Kimaanya on Sunday. Later the raid at Kimaanya left two dead.\n"
    assert "Kimaanya" in [t for t, _ in _spans(village, "PERSON", "LOCATION")]


def test_an_alias_in_a_charge_is_a_person_s_other_name() -> None:
    text = "A1. SSEBAGALA MUZAMIRU alias KANYAMA\nA2. TUMWESIGYE INNOCENT\n"
    assert ("KANYAMA", "PERSON") in _spans(text, "PERSON", "LOCATION")
    assert "Rama" in _people("Ram Kumar alias Rama was arrested at the stage.\n")
    # A tool's alias is a word, a system's letters are no name.
    assert "Hammer" not in _people("Use the Tool alias Hammer to set it.\n")
    assert "Billing" not in _people("The SMTP alias Billing forwards to finance.\n")
    titled = "Bail went to Ms. Nabukeera Zaina, also known as Nalongo, of Kalungu.\n"
    assert "Nalongo" in [c.text for c in cues.recognize(titled) if c.rule == "cue:called"]
    # In a text in capitals, capitals say nothing.
    assert "HAMMER" not in [c.text for c in cues.recognize("USE THE TOOL ALIAS HAMMER TO SET IT.\n")]


def test_a_reference_of_capitals_and_numbers_keeps_its_year() -> None:
    text = (
        "Case HCT-06-CR-SC-0143-2020 was called. DHR CVCSP/DHR/2023/02 and MP/2025/11873.\n"
        "Nyendo Police Station CRB 214/2020.\n"
    )
    ids = _ids(text)
    for code in ("HCT-06-CR-SC-0143-2020", "CVCSP/DHR/2023/02", "MP/2025/11873", "CRB 214/2020"):
        assert code in ids
    dates = [t for t, _ in _spans(text, "DATE")]
    assert "2020" not in dates and "2025" not in dates
    # Not a date, a form's name, a span of budget years, a release's month and year, a
    # date with a month's letters or a zone's.
    assert _ids("Filed 21/14/03/2020 on form DS-160 for FY 2019/2020. EPRD 11/2033.\n") == []
    dated = "Patient DOB: 12-JAN-1985. Timestamp: 2021-03-12-UTC. Incident: DEC 25/2020.\n"
    assert _ids(dated) == []
    assert "12-JAN-1985" in [t for t, _ in _spans(dated, "DATE")]


def test_national_and_tax_numbers_after_their_acronyms() -> None:
    text = (
        "SP1: MELATI BINTI HASHIM, No. K/P 830519-10-5542, 40 tahun.\n"
        "He showed his national identity card, NIN CM99031104RKXA.\n"
        "The EIN is 88-4027135.\n"
    )
    ids = [c.text for c in patterns.recognize(text) if c.label == "ID"]
    for number in ("830519-10-5542", "CM99031104RKXA", "88-4027135"):
        assert number in ids
    # "ein" is a German word; the acronyms open no longer word.
    for none in ("Das ist ein 12345 Test.\n", "See EINSTEIN-1234 and NINA-2019.\n"):
        assert [c.text for c in patterns.recognize(none) if c.label == "ID" and c.rule == "pattern:id_with_cue"] == []


def test_a_vehicle_s_registration_number() -> None:
    text = (
        "motorcycle, Bajaj Boxer, Registration No.\nUEK 417Q, valued at UGX 4,200,000.\n"
        "He came in a taxi, UAX 662K, from Masaka.\n"
    )
    ids = [c.text for c in patterns.recognize(text) if c.label == "ID"]
    assert "UEK 417Q" in ids and "UAX 662K" in ids
    none = "A Ford truck, 2019 model. The voter registration. The taxi, UGX 5000, and a car, BMW 5300.\n"
    assert [c.text for c in patterns.recognize(none) if c.label == "ID"] == []


def test_a_hedged_age_in_years_of_a_person() -> None:
    text = "A1, examined on 17/03/2020, aged about 27 years and of normal mental status.\n"
    assert [t for t, _ in _spans(text, "AGE")] == ["27"]
    things = (
        "The whisky was aged about 12 years. The building, aged about 40 years, fell. The cheddar, aged\n"
        "about 24 months.\n"
    )
    assert _spans(things, "AGE") == []


def test_a_clock_with_a_point_where_the_words_say_a_time() -> None:
    text = (
        "On 5 August 2023 at about 9.30 in the morning I lodged a report. He stayed until\n"
        "9.00 at night. He left at 7.15 that evening. Sambung bicara jam 9.00, untuk SP4.\n"
    )
    times = [t for t, _ in _spans(text, "TIME")]
    assert times == ["9.30", "9.00", "7.15", "9.00"]
    # A twenty-four-hour clock's "hrs" is the time's, no amount of time.
    assert [t for t, _ in _spans("Arrested:           08.55 hrs on 12/03/2024 at home.\n", "TIME")] == ["08.55 hrs"]
    # Prices, readings and hours worked with a point are no clocks.
    prices = "The price went from 1.25 to 1.50 and closed at 3.45. It cost 9.30 dollars. It held 12.50 litres.\n"
    assert _spans(prices, "TIME") == []
    readings = (
        "His blood alcohol was at approximately 0.15, almost twice the limit. The shares traded at about\n"
        "9.30, then fell. His sugar was 7.20 in the morning, fasting. I billed 14.25 hrs that week.\n"
    )
    assert _spans(readings, "TIME") == []
