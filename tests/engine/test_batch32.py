"""Parentage, Irish names and ranks, Nigerian and Pakistani titles, British police ranks,
role labels, register numbers and residences (session 37, from made-up batch 32)."""

from pipelines.candidate import Candidate
from pipelines.detection.merging import edges
from pipelines.detection.recognizers import cues, patterns
from pipelines.gazetteers import is_derived_noun
from tests.engine.span_support import people as _people
from tests.engine.span_support import spans as _spans


def _found(text: str, rule: str) -> list[str]:
    return [c.text for c in patterns.recognize(text) if c.rule == f"pattern:{rule}"]


def _person(text: str, name: str, source: str = "spacy") -> Candidate:
    start = text.index(name)
    return Candidate(start, start + len(name), "PERSON", name, (source,), 0.9)


def test_parentage_separates_the_two_people_it_names() -> None:
    text = "PW-3 Muhammad Ishaq s/o Feroz Din, aged about 62 years, Nikah Registrar.\n"
    found = _people(text)
    assert "Muhammad Ishaq" in found and "Feroz Din" in found
    assert not any("s/o" in name for name in found)
    # A wife is never part of her husband's name.
    married = "Kavya W/o Ravikumar came to the court."
    split = edges._split_at_parentage(married, [_person(married, "Kavya W/o Ravikumar")])
    assert [c.text for c in split] == ["Kavya", "Ravikumar"]
    # A grandfather after the father.
    line = "Ali Khan s/o Ahmed Raza s/o Gul Din came."
    split = edges._split_at_parentage(line, [_person(line, "Ali Khan s/o Ahmed Raza s/o Gul Din")])
    assert [(c.text, line[c.start : c.end]) for c in split] == [(n, n) for n in ("Ali Khan", "Ahmed Raza", "Gul Din")]


def test_a_singapore_tamil_name_with_its_father_s_stays_one_name() -> None:
    text = "PW 2 Rajendran s/o Pakirisamy said so."
    whole = _person(text, "Rajendran s/o Pakirisamy")
    assert edges._split_at_parentage(text, [whole]) == [whole]


def test_an_irish_surname_keeps_its_particle() -> None:
    assert "Ó Gaora" in _people("The injured party, Mr Ó Gaora, lives four hundred metres away.\n")
    text = "  DPP v Mac an Iomaire; DPP v Ó Conghaile        18/02/2025\n"
    read = [_person(text, "Mac", "cues"), _person(text, "Iomaire"), _person(text, "Conghaile")]
    grown = [c.text for c in edges._with_irish_particles(text, read)]
    assert grown == ["Mac an Iomaire", "Ó Conghaile"]
    # A particle at the end of the line before, the name after the printed number.
    broken = "This was Garda Ó\n17    Cadhain's case?"
    assert [c.text for c in edges._with_irish_particles(broken, [_person(broken, "Cadhain")])] == ["Ó\n17    Cadhain"]
    # A model's piece inside the particle goes into the name, once; two particles after "Bean".
    solicitor = "Ms Úna Nic Giolla Easpaig, Solicitor"
    pieces = [_person(solicitor, "Giolla"), _person(solicitor, "Easpaig")]
    assert [c.text for c in edges._with_irish_particles(solicitor, pieces)] == ["Nic Giolla Easpaig"]
    married = "Bríd Bean Uí Mhic Fhlannchadha came"
    pieces = [_person(married, "Mhic"), _person(married, "Fhlannchadha")]
    assert [c.text for c in edges._with_irish_particles(married, pieces)] == ["Uí Mhic Fhlannchadha"]
    # A place that holds the particle keeps it.
    place = "at Ros Mac Gearailt Road"
    held = [Candidate(3, 10, "LOCATION", "Ros Mac", ("spacy",), 0.9), _person(place, "Gearailt")]
    assert [c.text for c in edges._with_irish_particles(place, held)] == ["Ros Mac", "Gearailt"]


def test_irish_particles_cost_linear_time() -> None:
    import time

    text = "Mr Ó Gaora said yes. " * 9500
    names = [Candidate(at + 5, at + 10, "PERSON", "Gaora", ("spacy",), 0.9) for at in range(0, len(text), 21)]
    started = time.process_time()
    grown = edges._with_irish_particles(text, names)
    assert time.process_time() - started < 2.0
    assert len(grown) == 9500 and all(c.text == "Ó Gaora" for c in grown)


def test_the_irish_police_s_rank_and_name_are_no_person() -> None:
    text = (
        "AN GARDA SÍOCHÁNA\n"
        "Q.   You're Garda Caoimhe Ní Fhlaithearta, attached to Carna Garda Station?\n"
        "A.   I am. I was on patrol with Garda Lavelle that night.\n"
    )
    found = _people(text)
    assert "Caoimhe Ní Fhlaithearta" in found and "Lavelle" in found
    assert not any("Garda" in name or "GARDA" in name or "SÍOCHÁNA" in name for name in found)
    for force in ("I rang the Garda Síochána that night.\n", "Members of An Garda Síochána attended.\n"):
        assert not [name for name in _people(force) if "Síochána" in name]
    # Alone, "Garda" is a body's name (the force, a security firm), kept.
    firm = "Q. Were you driving a Garda armored truck? A. Yes, I am a Garda employee. Q. Where? A. At Garda.\n"
    assert [t for t, _ in _spans(firm, "ORGANIZATION", "PERSON")].count("Garda") == 3
    # Said alone to the officer, where the record writes the rank before names.
    assert _people("Q. Garda Lavelle, the bench warrant? Thank you, Garda.\n") == ["Lavelle"]


def test_a_british_police_rank_s_letters_are_no_part_of_the_name() -> None:
    text = (
        "North Severn Police. Misconduct hearing.\n"
        'Q.  Everyone on the shift calls PC Ludlow "Ludo", don\'t they?\n'
        "A.  They do. DC Pendlebury said so.\n"
        "PC LUDLOW:  March this year, ma'am.\n"
    )
    found = _people(text)
    assert "Ludlow" in found and "LUDLOW" in found
    assert not any(name.startswith(("PC", "DC")) for name in found)
    assert not [t for t, label in _spans(text, "ORGANIZATION") if t.startswith("PC")]
    # A body's name of common words stays one.
    shop = "North Severn Police hearing. Q. Did you see PC Ludlow there? A. Yes, and PC World sold it.\n"
    assert "Ludlow" in _people(shop) and "World" not in _people(shop)
    # Where no police are in the record, two letters before a surname may be initials.
    assert edges._a_police_record("My cousin PC Jones came.") is False
    unpoliced = "My cousin PC Jones came."
    start = unpoliced.index("PC Jones")
    kept = edges.tidy(unpoliced, [Candidate(start, start + 8, "PERSON", "PC Jones", ("spacy",), 0.9)])
    assert [c.text for c in kept] == ["PC Jones"]


def test_a_nigerian_barrister_s_title_and_other_courtesies_stay_outside() -> None:
    text = (
        "ASP A. O. Akanbi for the Prosecution.\n"
        "Barr. A. C. Ikwuemesi for the Defendant.\n"
        "Barr. Okonkwo for the Second Defendant.\n"
        "BARR. IKWUEMESI: No objection, Your Worship.\n"
    )
    found = _people(text)
    assert "A. C. Ikwuemesi" in found and "IKWUEMESI" in found
    assert not any(name.upper().startswith("BARR") for name in found)
    assert "Okonkwo" in found
    assert "Barr" in _people("I spoke to Mr. Barr. Then he left the room.\n")
    # A sentence ending on the name Barr before another name.
    assert "Barr" in _people("I called Barr. Maria answered the phone.\n")
    assert any("Barr" in name for name in _people("A. It was argued by Barr. Whitfield for the state.\n"))
    titled = "The nikah was performed by Maulana Abdul Qayyum. PW-1 Mst. Sadaf Batool was examined.\n"
    found = _people(titled)
    for name in ("Abdul Qayyum", "Sadaf Batool"):
        assert name in found
    # Titles that are surnames too stay names said alone.
    assert _people("I spoke with Mallam yesterday. Mallam said the car was gone.\n") == ["Mallam", "Mallam"]


def test_a_role_s_label_made_of_a_rarer_english_noun_names_no_one() -> None:
    text = (
        "ADJUDICATION OFFICER: Good morning, everyone. We're on the record.\n"
        "MR TIERNEY: Thank you.\n"
        "ADJUDICATION OFFICER: Ms Breathnach?\n"
        "MS BREATHNACH: Thank you.\n"
        "ADJUDICATION OFFICER: Mr Tierney, your first witness.\n"
    )
    assert not [c for c in cues.recognize(text) if "ADJUDICATION" in c.text]
    found = _people(text)
    assert "TIERNEY" in found and "BREATHNACH" in found
    assert is_derived_noun("ADJUDICATION") and is_derived_noun("enforcement")
    assert not is_derived_noun("Tierney") and not is_derived_noun("Breathnach") and not is_derived_noun("Manning")


def test_a_police_file_s_labels_and_fields_name_no_one() -> None:
    text = (
        "NAME:            Kabiru Abdullahi MAIGARI\n"
        "TRIBE:           Hausa\n"
        "LANGUAGE:        Hausa (interpreted into English)\n"
        "\n"
        "IPO: Sgt. C. O. Nwankwo          03/02/2024\n"
        "DPO: CSP A. O. Ige               06/02/2024\n"
        "IPO: Sgt. C. O. Nwankwo          04/02/2024\n"
        "DPO: CSP A. O. Ige               07/02/2024\n"
    )
    found = _people(text)
    assert "C. O. Nwankwo" in found
    for field in ("TRIBE", "LANGUAGE", "IPO", "DPO"):
        assert not [name for name in found if field in name]


def test_a_register_s_number_and_its_year_are_one_reference() -> None:
    text = (
        "Sessions Case No. 61 of 2024\n"
        "Family Suit No. 1187/FC of 2023\n"
        "That falls short of S.I. No. 146 of 2000, and Act No. 3 of 2011 says so.\n"
        "Statutory Instrument No. 7 of 2001; the Regulations, No. 9 of 2015; there is no 1 of 2019.\n"
    )
    assert _found(text, "number_of_year") == ["61 of 2024", "1187/FC of 2023"]
    ids = [t for t, _ in _spans(text, "ID")]
    assert "61 of 2024" in ids and "1187/FC of 2023" in ids
    assert not [t for t, _ in _spans(text, "DATE") if t in ("2024", "2023", "1187")]


def test_other_countries_numbers_are_ids() -> None:
    text = (
        "PWs Amjad Ali 3319/C and Tanveer Abbas 1127/HC are present.\n"
        "Judge, his PPS number on the report is 7726418WA.\n"
        "The boat's MMSI, 250009814, was registered to him.\n"
        "The Defendant gave his NIN as 48210573916.\n"
    )
    ids = [t for t, _ in _spans(text, "ID")]
    for number in ("3319/C", "1127/HC", "7726418WA", "250009814", "48210573916"):
        assert number in ids
    assert _found("The A/C was on. Cabin 3/C. Room 101/C. Engine 3500/HC.", "belt_number") == []
    # Not inside a longer record's number ("PNC 25/0093118N").
    assert _found("PNC 25/0093118N. Part 1234567AB-X.", "pps_number") == []


def test_where_a_party_resides_is_a_place() -> None:
    text = (
        "IMRAN HAIDER s/o GHULAM HAIDER, caste Jat, r/o Kot Rehmat,\n"
        "   Tehsil Ferozewala. ZEESHAN ALI r/o Mohallah\n"
        "   Pir Bukhsh Colony. Sadaf r/o House\nNo. B-412, and r/o house of Rana Akram.\n"
    )
    assert _found(text, "resident_of") == ["Kot Rehmat", "Mohallah\n   Pir Bukhsh Colony"]
    # Every word or none; a clinician's "rule out" is no residence.
    record = "Bashir s/o Nawaz, r/o Kot Rehmat who farms."
    assert _found(record, "resident_of") == ["Kot Rehmat"]
    assert _found("Plan: r/o ACS, r/o PE, R/O Sepsis. Consider r/o Pneumonia.", "resident_of") == []
    clinic = "HPI: 58 y/o M presents w/o fever, s/o Pneumonia? Plan: r/o Sepsis, r/o Pulmonary Embolism."
    assert _found(clinic, "resident_of") == []


def test_a_party_s_age_after_the_sex_or_in_a_description() -> None:
    text = (
        'That you, IKENNA ANOZIE, "M", 39 years, of No. 6. Mrs. Rukayat Maigari, F, 26 yrs, of No. 7.\n'
        "There's not a lot out here for a man of 44 whose trade is a forklift.\n"
        "He was a well-nourished man of 27, 1.82 metres tall. A man of 5 feet stood there.\n"
    )
    assert [t for t, _ in _spans(text, "AGE")] == ["39", "26", "44", "27"]
    assert _found("Sentenced under Part F, 10 years imprisonment. A man of God.", "age_after_sex") == []
    assert _found("Grades were A, B, C, D, F, 10 years ago.", "age_after_sex") == []


def test_a_clock_with_its_hours_written_on_is_one_time() -> None:
    text = "On 22/09/2023 at about 1100hrs the case was transferred; he left at 1400 hrs.\n"
    times = [t for t, _ in _spans(text, "TIME")]
    assert "1100hrs" in times and "1400" in times


def test_a_weekday_and_its_day_in_apposition_are_one_date() -> None:
    text = (
        "He died on Sunday, the 7th of July 2024, in the sea. In September, the 20th, I left.\n"
        "It was the night of 21 July, the Monday going into the Tuesday.\n"
    )
    dates = [t for t, _ in _spans(text, "DATE")]
    assert "Sunday, the 7th of July 2024" in dates and "September, the 20th" in dates
    assert "21 July" in dates and not any(d.startswith("21 July, the") for d in dates)


def test_the_new_titles_take_no_one_s_name() -> None:
    found = _people("Q. Have you heard of Oba Chandler? A. Yes. Oba Chandler was convicted in 1994.\n")
    assert found == ["Oba Chandler", "Oba Chandler"]
    # "Barr." before a full name is counsel's title; at a sentence's end, a name.
    assert _people("Counsel for the 3rd Defendant, Barr. Yewande Ilori-Ashafa, adopted them.\n") == [
        "Yewande Ilori-Ashafa"
    ]
    assert "Barr" in _people("Attorney General Barr. Mueller was not there.\n")


def test_an_irish_surname_s_mutation_and_a_father_after_a_full_name() -> None:
    found = _people("Q. Garda Nic an tSaoi, where were you? A. At home.\nQ. And Garda Ó hAodha? A. With me.\n")
    assert "Nic an tSaoi" in found and "Ó hAodha" in found
    found = _people("Ahmad Khan s/o Ali r/o Lahore\nTHE COURT: Proceed.\n")
    assert "Ahmad Khan" in found and "Ali" in found
    assert "Rajendran s/o Pakirisamy" in _people("PW 2 Rajendran s/o Pakirisamy said it.\n")


def test_a_month_and_a_year_in_apposition_stay_two() -> None:
    dates = [t for t, _ in _spans("In March, the 2020 budget passed.\n", "DATE")]
    assert not any(d.startswith("March, the") for d in dates)


def test_a_hostile_chain_of_parentage_is_split_without_recursion() -> None:
    text = "Ali Khan" + " s/o Ahmed Raza" * 1100 + " came."
    chain = Candidate(0, len(text) - 6, "PERSON", text[:-6], ("spacy",), 0.9)
    pieces = edges.tidy(text, [chain])
    assert len(pieces) == 1101 and all(c.text == text[c.start : c.end] for c in pieces)


def test_initials_are_not_found_inside_a_dotted_abbreviation() -> None:
    text = (
        "IPO: Sgt. K. A. MAIGARI\n"
        'The suspect, one Kabiru Abdullahi Maigari a.k.a. "Mai Shayi", was seen. K. A. Maigari signed.\n'
        'The witness Abubakar Sadiq Yunusa a.k.a. "Dogo" came, e.g. on Friday.\n'
    )
    found = _people(text)
    assert not [name for name in found if name.lower() in ("k.a", "k.a.", "a.k")]
