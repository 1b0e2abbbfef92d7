"""What people are called and the batch-30 shapes (session 35, from made-up batch 30):
a nickname's pronoun on the next line, initials someone goes by."""

from pipelines.candidate import Candidate
from pipelines.detection.filtering.filters import apply_filters
from pipelines.detection.recognizers import cues, patterns
from tests.engine.span_support import people as _people
from tests.engine.span_support import spans as _spans


def _called(text: str) -> list[str]:
    return [c.text for c in cues.recognize(text) if c.rule == "cue:called"]


def test_the_object_of_called_may_open_the_next_line() -> None:
    text = 'My sergeant was Royce Moody. We called\n      him "Shug," I don\'t know why.\n'
    assert "Shug" in _called(text)
    # Without "him" the next line's word opens a sentence of its own.
    assert _called("We called\n      Monday morning and nobody answered.\n") == []
    assert _called("We called\n 5   him at home and he said no.\n") == []


def test_initials_are_a_nickname_only_when_the_verb_has_its_object() -> None:
    assert "O.L." in _called("[laughs] Call me O.L.\n      Everybody does.\n")
    assert "A.J." in _called("She called me A.J. when I was little.\n")
    assert _called("He called F.B.I. agents to the scene.\n") == []
    assert "O.L." in _people("[laughs] Call me O.L.\n      Everybody does.\n")


def test_a_form_s_initials_line_names_the_person() -> None:
    text = "   Administrator: P.O. B. Winter #1571       Witness initials: D.M.A.\n"
    assert "D.M.A." in [c.text for c in cues.recognize(text) if c.rule == "cue:protected_initials"]
    quoted = '              [Witness initials "D.M.A." and writes "3/6/25" on the back.]\n'
    assert "D.M.A." in [c.text for c in cues.recognize(quoted) if c.rule == "cue:protected_initials"]


def test_everybody_calls_him_by_a_month_s_name() -> None:
    assert "June" in _called("Junius Hargrove. Everybody calls him June. He lives on Clay.\n")
    # One telephones someone on a weekday.
    assert _called("I'll call him Monday about the truck.\n") == []


def test_a_town_s_offices_stay_outside_the_names() -> None:
    text = (
        "PRESENT:  Mayor Cornelius J. Whitlock, presiding; Vice Mayor Benita Rush;\n"
        "STAFF:    Desiree Kimbrough, City Manager; Timothy Spindle, City Attorney;\n"
        "CITY CLERK MARROW-WHITT: Council Member Baek?\n"
        "COUNCIL MEMBER BAEK: Here.\n"
        "CITY CLERK MARROW-WHITT: You have a quorum, Mr. Mayor.\n"
        "MR. MADDALI: Thank you, Mr. Mayor, members of Council. The two parcels total\n"
        "VICE MAYOR RUSH: Then there's no rush to defer.\n"
        "CITY MANAGER KIMBROUGH: Yes, Mr. Mayor.\n"
    )
    people = _people(text)
    assert "Benita Rush" in people and "Baek" in people and "BAEK" in people
    assert "RUSH" in people and "KIMBROUGH" in people and "MARROW-WHITT" in people
    offices = ("Mayor", "Council", "City", "CITY", "Vice", "Council Member", "City Manager")
    assert not [p for p in people if p in offices or p.lower().startswith(("vice", "council", "city"))]
    assert not [t for t, label in _spans(text, "ORGANIZATION") if t in ("Council", "COUNCIL")]
    assert _people("Yesterday Deputy Mayor Rush said no.\n") == ["Rush"]
    # A body's name the office's words go on from keeps its name.
    assert ("Security Council", "ORGANIZATION") in _spans(
        "Security Council members expressed concern.\n", "ORGANIZATION"
    )


def test_a_name_written_surname_first_is_two_names() -> None:
    text = (
        "Examinee:            PENNY, Jalen Booker        DOB: 11/03/1996    Age: 28\n"
        "Witness: AMARAL, Delphine M.                              Page 2\n"
        "Ms. King, Jr. was not there.\n"
    )
    people = _people(text)
    assert "PENNY" in people and "Jalen Booker" in people
    assert "AMARAL" in people and "Delphine M." in people
    assert not [p for p in people if ", " in p and "Jr" not in p]


def test_a_commonwealth_court_s_numbered_witness_and_its_record() -> None:
    text = (
        "Coram:            Hon. E. W. Nyaboke - S.R.M.\n"
        "Interpretation:   English/Kiswahili\n\n"
        "PW4 - AMANI KIPRONO SANG, adult male, sworn (interpreted into Kiswahili):\n"
        "I am the village elder.\n"
    )
    spans = _spans(text, "PERSON", "LOCATION")
    assert ("E. W. Nyaboke", "PERSON") in spans and ("AMANI KIPRONO SANG", "PERSON") in spans
    assert not [t for t, label in spans if t in ("Coram", "Kiswahili")]


def test_an_osha_officer_s_label_and_a_lawyer_s_bar_number() -> None:
    assert _people("CSHO TOLLIVER:  Okay, we're recording.\nMR. PERALTA:  Yes.\n")[:1] == ["TOLLIVER"]
    ids = [t for t, _ in _spans("Mr. Anand Rao-Whitaker, SBN 24071835\n", "ID")]
    assert ids == ["24071835"]


def test_a_parcel_s_number_without_dashes_and_a_length() -> None:
    text = "The certificate shows parcel 1187 registered to the complainant.\n"
    assert [t for t, _ in _spans(text, "ID")] == ["1187"]
    assert _spans("The parcel 1500 feet from the school was sold.\n", "ID") == []


def test_dona_before_a_given_name_alone_is_an_honorific() -> None:
    assert "Fátima" in _people("My daughter was home with my mother, Dona Fátima. She is eleven.\n")
    assert "Don Johnson" in _people("I met Don Johnson there.\n")


def test_a_court_s_ordinal_opens_its_name() -> None:
    text = "          Dana K. Villasenor, CSR -- 323rd District Court\n\n 1   Q.   Hello.\n"
    assert ("323rd District Court", "ORGANIZATION") in _spans(text, "ORGANIZATION")


def test_a_plate_after_a_comma_or_says() -> None:
    assert [t for t, _ in _spans("PENNY:        Virginia tag, UJX-4172. It's his.\n", "ID")] == ["UJX-4172"]
    assert [t for t, _ in _spans("The white F-250, the plate says WADE1, you can't miss it.\n", "ID")] == ["WADE1"]


def test_the_first_review_s_counter_examples() -> None:
    # A town one states something in stays a town; a surname "Mayor" stays a name where
    # no mayor holds the office in the document.
    towns = _spans("PW2 states in Kaptembwo she saw the accused.\n", "LOCATION")
    assert ("Kaptembwo", "LOCATION") in towns
    mayor = "MR. MAYOR: I object, Your Honor.\nTHE COURT: Overruled, Mr. Mayor.\n"
    assert _people(mayor).count("Mayor") == 1 and "MAYOR" in _people(mayor)
    council = "MAYOR WHITLOCK: Thank you.\nCITY CLERK MARROW-WHITT: You have a quorum, Mr. Mayor.\n"
    assert "Mayor" not in _people(council)
    # A heading of common words names no witness.
    assert _people("PW1 - NOT AVAILABLE\nDW1 - THE ACCUSED, unsworn:\n") == []
    # "Don" is an English given name before another.
    assert "Don Wayne" in _people("My uncle Don Wayne drove.\n")
    # One telephones on a day, a night; a clock's letters are no nickname.
    assert _called("Everybody called me Sunday night.\n") == []
    assert _called("She said call her P.M. We called them E.M.S.\n") == []
    # A parcel's year or a block is no parcel's number.
    assert _spans("The parcel 2019 sale closed.\n", "ID") == []
    # The pronoun after a name said to someone is no middle initial.
    assert "Tyrone I" not in _people("Well, Tyrone I\n   think told me.\n")
    # A model's half of a town keeps its word; a label's role is no organization.
    town = "LAST KNOWN: COUNCIL BLUFFS, IOWA\n"
    kept, _ = apply_filters([Candidate(12, 19, "ORGANIZATION", "COUNCIL", ("spacy",), 0.5, "spacy:ORG")], text=town)
    assert [c.text for c in kept] == ["COUNCIL"]
    assert _spans("CSHO TOLLIVER:  Okay.\nCSHO ODEH:  Yes.\n", "ORGANIZATION") == []


def test_a_roster_s_rows_surname_first_stay_apart() -> None:
    people = _people("DEFENDANTS:\n  YOUNG, AMBER L.\n  GREEN, FAITH\n")
    assert "AMBER L." in people and not [p for p in people if "\n" in p]
    assert _people("ROBERTS, C.J., delivered the opinion.\n") == ["ROBERTS, C.J."]


def test_the_second_review_s_counter_examples() -> None:
    # A heading's role or body after the witness's number names no one; a middle
    # initial is the name's.
    text = "PW3 - ADULT FEMALE, sworn\nCW2: THE OCS KILIMANI (sworn)\nPW1 - JOHN O. ODHIAMBO, sworn\n"
    assert _people(text) == ["JOHN O. ODHIAMBO"]
    # A surname and its initial with its period stay one name.
    assert "OYAMA, D." in _people("Witness list: Hagood, Paul; OYAMA, D. #12\n")
    # One is called a kind of person on a day; initials one goes by.
    assert _called("People called them Sunday people.\n") == []
    assert _called("He went by J.R. in school. She goes by A.J.\n") == ["J.R.", "A.J."]
    # "Doña" before a given name and a surname stays outside the name, as before.
    assert "Chayo Ruiz" in _people("Doña Chayo Ruiz came.\n")
    # A word after the number that opens with a measure's letters is no measure.
    assert patterns._A_MEASURE.match(" Yardley Road") is None and patterns._A_MEASURE.match(" yards") is not None
