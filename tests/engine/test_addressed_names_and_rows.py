"""Names said after a verb or a greeting, a speaker's role before a surname, names in
a table's rows and across a sentence's end, initials of the harmed and registers'
numbers (session 34, from made-up batch 29)."""

from pipelines.candidate import Candidate
from pipelines.detection.merging import edges, propagate
from pipelines.detection.recognizers import cues, gazetteer, patterns, spacy_ner
from tests.engine.span_support import people as _people
from tests.engine.span_support import spans as _spans


def _ids(text: str) -> list[str]:
    return [c.text for c in patterns.recognize(text) if c.label == "ID"]


def test_a_pronoun_s_contraction_is_no_surname_and_never_spreads() -> None:
    text = (
        "THORSGAARD:       Tell Mare to tell Willow I'm gonna be late for the birthday,\n"
        "                  not gone. Late. Tell Chase to feed Ranger. I'm tired.\n"
        "HALLORAN:         Willow will be fine. I'm here, and I'm not leaving.\n"
    )
    assert not [c for c in gazetteer.recognize(text) if "I'm" in c.text]
    people = _people(text)
    assert not [p for p in people if "I'm" in p]
    assert "Willow" in people and "Chase" in people


def test_a_verb_or_a_greeting_before_a_name_stays_outside_it() -> None:
    text = (
        "SHEP:       Tell Amari I'm coming to his game. Tell Cuba bring the receipt.\n"
        "ADJUSTER FERRAND:  Spell Thibodeaux for me?\n"
        "INSURED ADEBAYO:  T-H-I-B-O-D-E-A-U-X. My sister is Ottilie Thibodeaux.\n"
        "SHEP:       Tell him I got it. Tell your man stop saying stuff.\n"
    )
    people = _people(text)
    assert not [p for p in people if p.split()[0] in ("Tell", "Spell")]
    assert "Thibodeaux" in people
    # A given name that is also such a word stays the person's ("Hope Ruiz", not "Tell").
    assert ("Hope Ruiz", "PERSON") in _spans("Ask the clerk. Hope Ruiz testified next.", "PERSON")


def test_a_common_word_or_a_role_before_one_surname_in_a_label_is_the_role() -> None:
    text = (
        "ADJUSTER FERRAND:  This is Colette Ferrand with Bluewater Mutual.\n"
        "INSURED ADEBAYO:  Yes, I understand.\n"
        "ADJUSTER FERRAND:  Please state your full name.\n"
        "INSURED ADEBAYO:  Oluwaseun Adebayo.\n"
    )
    people = _people(text)
    assert people.count("FERRAND") == 2 and people.count("ADEBAYO") == 2
    assert not [p for p in people if p.startswith(("ADJUSTER", "INSURED"))]


def test_a_prosecutor_called_general_keeps_the_rank_out_of_the_name() -> None:
    text = (
        " 5                      Assistant District Attorneys General\n"
        " 6                      Office of the District Attorney General\n"
        "17   represented by General Leopold Strand. In Tennessee we call our prosecutors\n"
        '18   "General," so do not let that confuse you.\n'
        "21        THE COURT: General Strand.\n"
        "22        GENERAL STRAND: Thank you, Judge.\n"
    )
    people = _people(text)
    assert "Strand" in people and "STRAND" in people and "Leopold Strand" in people
    assert not [p for p in people if p.lower().startswith("general")]
    # A man named Major, said alone, keeps his name ("Major Harris … Major said").
    assert ("Major Harris", "PERSON") in _spans("My sponsor is Major Harris. Major said yes.", "PERSON")


def _tidied(text: str, word: str, rule: str, sources: tuple[str, ...]) -> list[str]:
    start = text.index(word)
    candidate = Candidate(start, start + len(word), "PERSON", word, sources, 0.8, rule)
    return [c.text for c in edges.tidy(text, [candidate])]


def test_a_name_ends_at_a_sentence_s_end() -> None:
    text = (
        "20        JUROR LEDFORD: Dwight Ledford, but everybody calls me\n"
        "21   Buck. Corryton. I'm a lineman for KUB, thirty-one years.\n"
        "22        THE COURT: Also present: Det. Lorenzo Abernathy of the Knoxville Police\n"
        "24   Department. Leopold Strand, would you read your witness list?\n"
    )
    assert _tidied(text, "Buck. Corryton", "spacy:PERSON", ("spacy",)) == ["Buck"]
    assert _tidied(text, "Department. Leopold Strand", "cue:participant_line", ("cues",)) == ["Leopold Strand"]
    # A short abbreviation of a name is no sentence's end.
    deed = "Deed recorded by Chas. Whitfield and Jos. Merriman, grantors."
    assert _tidied(deed, "Jos. Merriman", "spacy:PERSON", ("spacy",)) == ["Jos. Merriman"]
    # A title's abbreviation is no sentence's end (the title's own rule takes it off).
    assert _tidied("Then Mrs. Ruiz came in.", "Mrs. Ruiz", "spacy:PERSON", ("spacy",)) == ["Mrs. Ruiz"]


def test_a_name_ends_with_its_row() -> None:
    text = (
        "                              I N D E X\n"
        "19   WITNESS                                            PAGE\n"
        "20   YUSUF DEMIRCI\n"
        "21     Examination by Mr. Goodloe ..................... 408\n"
        "22     Cross-Examination by Ms. Farouk ................ 410\n"
        "\n"
        "  CRUMBS       Rodell PINKNEY\n"
        "  MOOKIE       Jerome WHITLOCK\n"
        "  CUBA         Yosvany FERRER LABRADA\n"
        "  CHALO        Gonzalo CARDENAS URIBE\n"
    )
    people = _people(text)
    assert "YUSUF DEMIRCI" in people
    assert not [p for p in people if "\n" in p]
    assert "Examination" not in people
    # A name prose broke across its lines stays whole.
    wrapped = "The next witness was Shelia\nWhirley, who lived on the corner.\n"
    assert "Shelia\nWhirley" in _people(wrapped)


def test_a_kin_word_s_name_takes_its_surname_past_a_printed_line_number() -> None:
    text = (
        " 7             MS. GREENLEAF:  That's my mom, Gwendolyn\n"
        " 8   Greenleaf. My son Jaylen, he's 12. My sister Marit\n"
        " 9   said she would come.\n"
    )
    assert _tidied(text, "Gwendolyn", "cue:relation", ("cues",)) == ["Gwendolyn\n 8   Greenleaf"]
    # A common word opening the next line is no surname.
    assert _tidied(text, "Marit", "cue:relation", ("cues",)) == ["Marit"]
    people = _people(text)
    assert "Gwendolyn\n 8   Greenleaf" in people and "Marit" in people


def test_initials_of_a_person_harmed_or_whose_kin_are_named() -> None:
    text = (
        "24  Mr Dalgleish was convicted on 21st November 2006 of the murder of R.M., then\n"
        "25  aged 19, and of the assault of K.S. at the same place.\n"
        "15        MS RENNIE:  R.M.'s mother remains registered.\n"
        "16        THE CHAIR:  And K.S.'s mother?\n"
        "17        MR RUTHVEN:  The U.S.'s children were not involved.\n"
    )
    found = [c.text for c in cues.recognize(text) if c.rule == "cue:protected_initials"]
    assert found.count("R.M.") == 2 and found.count("K.S.") == 2
    assert "U.S." not in found


def test_quoted_nicknames_after_a_name_and_its_comma() -> None:
    text = (
        'Target Subject:       Antwan DESHIELDS, a/k/a "Shep," "Ant"\n'
        'UM-2 was later identified as Cortez FAIRLEY, "Tez" (Session 1412).\n'
        "CRUMBS:     What's good, Ant. I'm at the Jade Garden with Tez.\n"
    )
    nicknames = [c.text for c in cues.recognize(text) if c.rule in ("cue:called", "cue:nickname")]
    assert {"Shep", "Ant", "Tez"} <= set(nicknames)
    people = _people(text)
    assert people.count("Ant") == 2 and people.count("Tez") == 2
    # A quotation after an office is no nickname.
    assert not [c for c in cues.recognize('The Court, "Please be seated."') if c.rule == "cue:nickname"]


def test_social_security_s_last_digits_are_an_id() -> None:
    assert _ids("Kody Birdwell, Social Security number ending 4719. Employer, Ozark.") == ["4719"]
    assert _ids("His SSN ending 8812 was on the form.") == ["8812"]
    # A lease's end is no account's.
    assert _ids("The lease ending in 2024 was not renewed.") == []


def test_a_court_reporter_s_licence_after_her_name_is_no_organization() -> None:
    text = "Reported by: Mavis Thornquist, LCR No. 482\n     Mavis Thornquist, LCR -- Official Court Reporter\n"
    assert not _spans(text, "ORGANIZATION")


def test_an_institution_a_line_broke_is_one_organization() -> None:
    text = (
        "A.   I went to Piedmont\n"
        "           Family Urgent Care on Battleground on Saturday afternoon. Guilford\n"
        "           County EMS took her to the hospital.\n"
    )
    organizations = [t for t, _ in _spans(text, "ORGANIZATION")]
    assert "Piedmont\n           Family Urgent Care" in organizations
    assert "Guilford\n           County EMS" in organizations


def test_a_page_s_printed_line_number_is_no_piece_of_a_name() -> None:
    text = (
        " 3   I'm a nurse at Fort\n"
        " 4   Sanders Regional, on the cardiac step-down unit. He goes to Penn Street\n"
        " 5   Recovery Associates on Tuesdays.\n"
    )
    found = _spans(text, "PERSON", "LOCATION", "ORGANIZATION")
    assert not [t for t, _ in found if t.strip().isdigit() or t.rstrip()[-1:].isdigit()]
    assert ("Penn Street\n 5   Recovery Associates", "ORGANIZATION") in found


def test_a_compound_of_words_opening_an_index_line_is_no_name() -> None:
    text = (
        "19   WITNESS                                            PAGE\n"
        "20   NAOMI PENNINGTON-RUIZ\n"
        "21     Direct Examination by Ms. Farouk ............... 403\n"
        "22     Cross-Examination by Mr. Goodloe ............... 405\n"
        "23                        CROSS-EXAMINATION\n"
    )
    people = _people(text)
    assert "NAOMI PENNINGTON-RUIZ" in people
    assert not [p for p in people if "xamination" in p.lower() or "EXAMINATION" in p]


def test_a_rank_before_a_given_name_and_a_surname_broken_by_a_line() -> None:
    text = (
        "18   represented by General Leopold Strand and General Priyanka\n"
        "19   Venkataraman. Ms. Venkataraman will speak first.\n"
        " 9        GENERAL VENKATARAMAN: No objection, Your Honor.\n"
    )
    people = _people(text)
    assert "VENKATARAMAN" in people and not [p for p in people if p.upper().startswith("GENERAL")]


def test_what_the_new_rules_leave_alone() -> None:
    """Names the rules of this file must not cut (read-only probing of session 34)."""
    cases = {
        # A name's abbreviation is no sentence's end.
        "Victim: Mohd. Azlan Shah, 27, a delivery rider.": "Mohd. Azlan Shah",
        "The will names Mary Eliz. Barker as executrix.": "Mary Eliz. Barker",
        # A name prose or a justified page wrapped stays whole.
        "12   Ricardo Alberto\n13   Mendoza-Reyes, the defendant, was not present.": (
            "Ricardo Alberto\n13   Mendoza-Reyes"
        ),
        " 8   the statement of Detective Raymond\n 9   Okafor   was   taken   at   the   station": (
            "Raymond\n 9   Okafor"
        ),
        # A given name that is an English word shaped as a party's, in a label.
        "SAEED KHAN: I drove the taxi.\nTHE COURT: Go on.\nSAEED KHAN: That night.\n": "SAEED KHAN",
        "BRILLIANT MOYO: I work at the depot.\nTHE COURT: Go on.\nBRILLIANT MOYO: Yes.\n": "BRILLIANT MOYO",
        # A rank English also gives as a given name.
        "4 A. Prince Kwame Mensah.\n7 Q. And Prince Mensah is the name on the lease?\n": "Prince Mensah",
        "King Robert Jones was sworn. Later King Jones said yes.": "King Jones",
        # A given name that is also a greeting, opening a label.
        "MEET PATEL: I was driving.\nTHE COURT: Go on.\nMEET PATEL: Then I braked.\n": "MEET PATEL",
        # A surname that is an English word, after one given name across a wrap.
        " 8   I spoke to Officer Daniel\n 9   Fish about the case.\n": "Daniel\n 9   Fish",
        # An appearance page's surname under its given name, a cell after it.
        "  Plaintiff:       Priscilla Anne\n                   Okonkwo-Reyes     Pro Se\n": (
            "Priscilla Anne\n                   Okonkwo-Reyes"
        ),
    }
    for text, name in cases.items():
        assert name in _people(text), (text, _people(text))


def test_a_quoted_reply_or_kin_word_is_no_nickname() -> None:
    text = (
        'Then Darnell Hughes, "Objection." MR. PARK:  Objection.\n'
        'Maria Lopez, "Yes," she said. Ana Ruiz, "Mom," she called.\n'
        'Toni Morrison, "Beloved," was on the list.\n'
    )
    nicknames = [c.text for c in cues.recognize(text) if c.rule == "cue:nickname"]
    assert nicknames == []


def test_an_agency_s_letters_before_its_victims_are_no_person() -> None:
    found = [c.text for c in cues.recognize("The D.A.'s victim advocate called. The F.B.I.'s family liaison.")]
    assert "D.A." not in found and "F.B.I." not in found
    assert "R.M." in [c.text for c in cues.recognize("R.M.'s sons were in court.")]


def test_a_pronoun_s_contraction_spreads_from_no_cue() -> None:
    assert not propagate._spreadable("I'm", cued=True)
    assert propagate._spreadable("Will's", cued=True)


def test_an_office_s_rank_is_no_rank_said_alone() -> None:
    text = (
        " 5                      Assistant District Attorneys General\n"
        " 6                      Office of the District Attorney\n"
        "21        THE COURT: Thank you.\n"
    )
    assert not edges._said_alone(text, "General")
    numbered = "That was Major\n 5          Q.  Who?\n 6   A.  Major Tillman Reese.\n"
    assert edges._said_alone(numbered, "Major")


def test_a_middle_name_that_is_a_street_s_type_is_a_person_s() -> None:
    assert ("Kody Lane Birdwell", "PERSON") in _spans("Non-Custodial Person: Kody Lane Birdwell, pro se", "PERSON")
    text = "She lives at 41 Maple Lane Road in Dover. We drove down Cherry Lane Extension."
    places = [t for t, _ in _spans(text, "LOCATION")]
    assert "Cherry Lane Extension" in places and "41 Maple Lane Road" in places


def test_a_kin_word_s_name_past_a_page_s_wrap() -> None:
    text = (
        "22   My husband keeps books for our church. My son\n"
        "23   Travis is a deputy with the Knox County Sheriff. I am a machinist. My\n"
        "24   wife, Renee, teaches seventh grade.\n"
    )
    found = [c.text for c in cues.recognize(text) if c.rule == "cue:relation"]
    assert "Travis" in found and "Renee" in found


def test_past_a_page_s_wrap_a_kin_word_names_only_a_given_name() -> None:
    text = (
        " 4   A.   I went with my son\n 5   Then he drove home. I saw my friend\n 6   Thursday morning at the store.\n"
    )
    assert not [c for c in cues.recognize(text) if c.rule == "cue:relation"]
    assert "Thursday" not in _people(text) and "Then" not in _people(text)


def test_a_given_name_lane_and_a_surname_is_a_person() -> None:
    assert spacy_ner.corrected_label("Kody Lane Birdwell", "LOCATION") == "PERSON"


def _ages(text: str) -> list[str]:
    return [c.text for c in patterns.recognize(text) if c.label == "AGE"]


def test_the_age_a_birthday_brings() -> None:
    assert _ages("MR. BIRDSONG:  Lyric turns five on Saturday. We're doing a party.") == ["five"]
    assert _ages("Willow's seven, she turns eight on the twenty-sixth.") == ["eight"]
    assert "40" in _ages("She is turning 40 next month.")
    # An angle's or a count's turns are no age.
    assert _ages("The road turns 90 degrees at the bridge. The page turns 5 times.") == []


def test_an_age_a_life_s_event_happened_at_before_with() -> None:
    assert _ages("I left home at 19 with a sixth-grade education.") == ["19"]
    assert _ages("I clocked at 85 with the radar.") == []


def test_a_recording_s_file_named_without_its_extension_is_an_id() -> None:
    text = "Sergeant, Ochoa's file, X60A1965_20250614_222540, shows your car. The call is X60A1142_20250614_223612."
    assert _ids(text) == ["X60A1965_20250614_222540", "X60A1142_20250614_223612"]
    # A date and a time alone are no file.
    assert _ids("The stamp read 20250614_223612 on the screen.") == []


def test_a_plate_opening_the_line_after_its_cue() -> None:
    assert _ids("He drove a silver Nissan Altima, Maryland tag\n            7CW4418. The phone is his.") == ["7CW4418"]


def test_an_initial_the_line_s_end_left_before_its_surname() -> None:
    text = "Okay. I'll put him in my notes as G.\n           Pflueger until we confirm. Gerhard Pflueger drove.\n"
    assert "G.\n           Pflueger" in _people(text)
    # A thing's letter after its capitalised word is no initial.
    exhibit = " 4   marked as Exhibit A.\n 5   Smith testified next. John Smith did.\n"
    assert not [p for p in _people(exhibit) if p.startswith("A.")]
