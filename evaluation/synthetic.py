"""Synthetic parole-hearing transcripts with exact gold spans, for `make eval`.

A seeded generator (same seed, same documents, byte for byte) of Board of Parole
Hearings-style transcripts: a cover page (hearing type, the inmate's name, CDCR
number, facility, date and time, participant lines), then one utterance per line
behind a capitalised speaker label, as ingestion produces them. Every entity is
written through `_Writer`, which records its offsets as it appends the text, so a
gold span can never drift from its text (a test checks `text[start:end]`).

Names come from the hand-written lists below, not from Faker: the detector's
gazetteer is built from Faker's person providers, and names drawn from those lists
would flatter it. The lists mix names that are also words (Hope, Rose, Baker,
Young, Price…), Spanish names with accents, Vietnamese, Hmong, Korean, Punjabi,
Nigerian, Somali, Navajo… and multi-word or hyphenated surnames. Many common names
are in Faker's lists anyway; `gazetteer_overlap()` measures the share (printed by
`generate_transcripts`). With Faker 40.54 it was 44% of the 215 first names and 57% of
the 282 surnames (whole names, as a first or last name).

Labelling conventions (those of `pipelines.detection`: cues, patterns, filters):
- PERSON: the name only. Titles and roles stay outside ("Mr. [Tran]",
  "PRESIDING COMMISSIONER [HARTWELL]:", "Dr. [Anita Patel]"), and so does a
  possessive ("[Tran]'s", "[Hastings]'"). Speaker labels and cover-page
  participant lines are annotated in their capitals. A name inside an
  organization's name belongs to the organization.
- SPELLED_NAME: the spelled letters with their hyphens ("[T-R-A-N]").
- AGE: the number only, as the shared guideline takes it ("[19] years old", "I
  was [19]", "at [14]", "at the age of [16]", a bare "[47]." answering "How old
  are you?"); the engine's edges cut its patterns' "years old" and "age of" off.
- DATE: calendar dates, months with a year, years (digits or spoken) and decades
  ("[March 14, 2023]", "[3/14/2023]", "the [14th of March, 2023]", "in
  [nineteen ninety-eight]", "the [1990s]"); "the" and "summer of" stay outside.
  Durations ("fifteen years", "two weeks") identify nobody and are not DATE.
- TIME: clock times ("[9:05 a.m.]"). ID: CDCR and court case numbers, without
  their cue ("CDCR number [K-48213]"). PHONE_NUMBER: the whole number.
- ORGANIZATION: prisons, jails, the board, CDCR, employers, schools, churches,
  programmes ("[Alcoholics Anonymous]"); a leading "the" stays outside. LOCATION:
  cities (with their state as one span, as the ensemble joins them: "[Stockton,
  California]"), counties, states, countries and streets.
- Every mention of an entity of these labels is gold, including those every
  hearing shares (CDCR, the Board of Parole Hearings, the State of California).
"""

import json
import random
import unicodedata
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from evaluation.scoring import GoldDocument, GoldSpan

LABELS: frozenset[str] = frozenset(
    {"PERSON", "SPELLED_NAME", "LOCATION", "ORGANIZATION", "DATE", "TIME", "AGE", "ID", "PHONE_NUMBER"}
)

FEMALE_FIRST_NAMES: tuple[str, ...] = (
    "Hope", "Rose", "Faith", "Grace", "Joy", "Dawn", "June", "April", "Destiny", "Precious", "Keisha", "Latoya",
    "Shanice", "Kayla", "Crystal", "Amber", "Misty", "Tammy", "Imani", "Aaliyah", "Ebony", "Nia", "Zora", "Tanisha",
    "Guadalupe", "Socorro", "Concepción", "Xochitl", "Itzel", "Yesenia", "Araceli", "Maribel", "Nayeli", "Inés",
    "Sofía", "Marisol", "Lupita", "Rocío", "Huong", "Linh", "Phuong", "Thuy", "Chanthy", "Sokha", "Vanna", "Mai",
    "Seo-yeon", "Ji-woo", "Akiko", "Yuki", "Mei", "Xiu", "Lakshmi", "Priya", "Gurpreet", "Manpreet", "Harjit",
    "Maricel", "Lani", "Malia", "Losa", "Fatima", "Amira", "Leila", "Shirin", "Nasrin", "Ngozi", "Abena",
    "Thandiwe", "Selam", "Hodan", "Ayaan", "Oksana", "Svetlana", "Tallulah", "Winona", "Cheyenne", "Dakota",
    "Mercy", "Charity", "Bernadette", "Loretta", "Earlene", "Velma", "Twyla", "Ophelia", "Magnolia", "Ivy", "Pearl",
    "Opal", "Ruby", "Sunny", "Star", "Brandy", "Chastity", "Kimberly", "Deborah", "Yolanda", "LaShonda", "Dominique",
    "Paj", "Nou", "Xee", "Bich", "Ngoc", "Kalani",
)  # fmt: skip
MALE_FIRST_NAMES: tuple[str, ...] = (
    "Will", "Marcus", "Darnell", "Tyrone", "Deshawn", "Jamal", "Dwayne", "Travis", "Cody", "Dustin", "Brandon",
    "Earl", "Floyd", "Leroy", "Otis", "Clarence", "Vernon", "Wendell", "Curtis", "Rodney", "Reggie", "Terrell",
    "Andre", "Jerome", "Cedric", "Lamar", "Malik", "Tariq", "Rashad", "Kareem", "DeAndre", "Jaylen", "Tremaine",
    "Jesús", "José", "Ramón", "Refugio", "Rigoberto", "Heriberto", "Eduardo", "Alejandro", "Joaquín", "Ulises",
    "Efraín", "Chuy", "Beto", "Nicanor", "Fidel", "Thanh", "Minh", "Bao", "Duc", "Kiet", "Somchai", "Vuthy",
    "Sokhom", "Jae-won", "Min-jun", "Hiroshi", "Kenji", "Wei", "Jian", "Xiaoming", "Anil", "Deepak", "Sanjay",
    "Ravi", "Arjun", "Jericho", "Rizalino", "Keoni", "Sione", "Tevita", "Omar", "Yusuf", "Khalid", "Hassan",
    "Dariush", "Arash", "Chidi", "Emeka", "Oluwaseun", "Adebayo", "Kwame", "Tendai", "Mesfin", "Abdirahman",
    "Dmitri", "Vasyl", "Bogdan", "Zoltan", "Tobias", "Ezekiel", "Obadiah", "Jedediah", "Lonnie", "Royce", "Sonny",
    "King", "Chance", "Deacon", "Rusty", "Buck", "Chayton", "Nkosi", "Tou", "Pao", "Vang", "Cheng",
)  # fmt: skip
SURNAMES: tuple[str, ...] = (
    # Also English words.
    "Baker", "Young", "Black", "Brown", "White", "Long", "Love", "King", "Rich", "Price", "Woods", "Hill", "Wise",
    "Small", "Strong", "Fox", "Bird", "Day", "Rice", "Cash", "Bell", "Banks", "Booker", "Carpenter", "Cook",
    "Fisher", "Hunter", "Mason", "Porter", "Potter", "Sawyer", "Shepherd", "Singer", "Stone", "Swift", "Walker",
    "Ward", "Weaver", "Wolf", "Little", "Sharp", "Moody", "Noble", "Church", "Chambers", "Frost", "Snow", "Bush",
    "Lake", "Marsh", "Brooks", "Grant", "Hardy", "Guest", "Bond", "Sterling", "Golden", "Winter", "Summers",
    "Gentry", "Knight", "Savage", "Hale", "Lovely", "Goodman", "Freeman", "Pope", "Sparks", "Flowers", "Means",
    # Spanish, with and without accents.
    "Ramírez", "Gutiérrez", "Villanueva", "Castañeda", "Orozco", "Zepeda", "Barragán", "Ochoa", "Quintero",
    "Arreola", "Magaña", "Ibarra", "Cervantes", "Esparza", "Montoya", "Trujillo", "Valenzuela", "Zamora",
    "Bustamante", "De La Cruz", "De León", "Del Toro", "Sandoval", "Camacho", "Ayala", "Olvera", "Preciado",
    "Lozano", "Saucedo", "Tapia", "Carrillo", "Aguirre", "Mejía", "Fuentes", "Solís", "Ruiz-Ortega", "Quiñones",
    "Arellano", "Benavides", "Cisneros", "Escobedo", "Galindo", "Huerta", "Jáuregui", "Leyva", "Madrigal",
    # Vietnamese, Khmer, Hmong, Korean, Japanese, Chinese.
    "Nguyen", "Tran", "Pham", "Huynh", "Truong", "Dang", "Bui", "Vo", "Le", "Nguyen-Tran", "Sok", "Chhim",
    "Prak", "Keo", "Vang", "Xiong", "Thao", "Lor", "Moua", "Yang", "Her", "Kim", "Park", "Choi", "Jung", "Kang",
    "Yoon", "Tanaka", "Nakamura", "Watanabe", "Yamamoto", "Chen", "Wong", "Zhang", "Liu", "Huang", "Zhou", "Xu",
    # Punjabi, Indian, Bangladeshi.
    "Kaur", "Singh", "Gill", "Sandhu", "Dhillon", "Grewal", "Patel", "Shah", "Desai", "Iyer", "Reddy",
    "Chowdhury", "Rahman", "Hossain",
    # Filipino, Pacific.
    "Dela Cruz", "Bautista", "Manalo", "Macaraeg", "Pangilinan", "Dimaculangan", "Tuiasosopo", "Fifita",
    "Kahananui", "Tupou",
    # West and East African, Arabic, Persian.
    "Okonkwo", "Adeyemi", "Oyelaran", "Mensah", "Asante", "Boateng", "Mwangi", "Kamau", "Otieno", "Haile",
    "Tesfaye", "Gebremedhin", "Abdullahi", "Warsame", "Farah", "Haddad", "Nasser", "Khoury", "Mansour", "Aziz",
    "Karimi", "Hosseini", "Tehrani", "Rostami", "Eze", "Nwosu",
    # Eastern European.
    "Kowalczyk", "Wiśniewski", "Petrenko", "Shevchenko", "Kuznetsov", "Horvath", "Novak", "Popescu", "Dumitru",
    "Zielinski", "Babich",
    # Irish, Scottish.
    "O'Neill", "O'Brien", "McAllister", "MacLeod", "Fitzgerald", "Gallagher", "Donnelly", "McCray", "Mulcahy",
    # Navajo, Lakota.
    "Yazzie", "Begay", "Tsosie", "Benally", "Redhorse", "Whitecloud", "Attakai", "Nez",
    # Louisiana, Southern US.
    "Boudreaux", "Thibodeaux", "LeBlanc", "Fontenot", "Arceneaux", "Broussard", "Tillman", "Pettigrew",
    "Crenshaw", "Spivey", "Mabry", "Haskins", "Whitfield", "Blackwell", "Hairston", "Ledbetter", "Funderburk",
    "Dunlap", "Pruitt", "Honeycutt", "Grissom", "Toliver", "Washington", "Jefferson", "Battle", "Peoples",
    "Merriweather", "Hastings", "Childs", "Dukes",
    # Jewish, Italian, German, Greek, Armenian.
    "Goldberg", "Rosenthal", "Weiss", "Katz", "Feldman", "Shapiro", "Esposito", "Russo", "Marchetti", "Lombardi",
    "Bianchi", "Schneider", "Hoffmann", "Becker", "Papadopoulos", "Karamanlis", "Petrosyan", "Sarkisian",
    "Hovsepian", "Ghazarian",
)  # fmt: skip

PRISONS: tuple[str, ...] = (
    "Folsom State Prison", "San Quentin State Prison", "Salinas Valley State Prison", "Pelican Bay State Prison",
    "Corcoran State Prison", "Mule Creek State Prison", "Avenal State Prison", "Ironwood State Prison",
    "Chuckawalla Valley State Prison", "California Men's Colony", "California Medical Facility",
    "Sierra Conservation Center", "California Institution for Men", "Calipatria State Prison",
    "Correctional Training Facility", "High Desert State Prison", "Kern Valley State Prison",
    "Centinela State Prison", "Pleasant Valley State Prison", "Valley State Prison", "Deuel Vocational Institution",
    "Central California Women's Facility", "California Institution for Women", "Wasco State Prison",
)  # fmt: skip
JAILS: tuple[str, ...] = (
    "Men's Central Jail", "Fresno County Jail", "Santa Rita Jail", "Kern County Juvenile Hall",
    "Los Padrinos Juvenile Hall", "Preston Youth Correctional Facility",
)  # fmt: skip
PROGRAMS: tuple[str, ...] = (
    "Alcoholics Anonymous", "Narcotics Anonymous", "Criminals and Gang Members Anonymous", "Alternatives to Violence",
    "Prison Industry Authority", "Guiding Rage Into Power", "Inside Circle Foundation", "Delancey Street Foundation",
    "Homeboy Industries", "Amity Foundation", "Friends Outside", "Anti-Recidivism Coalition",
)  # fmt: skip
EMPLOYERS: tuple[str, ...] = (
    "Home Depot", "Safeway", "Kaiser Permanente", "Caltrans", "Foster Farms", "Sun-Maid", "Goodwill Industries",
    "the Salvation Army", "Teamsters Local 439", "Pacific Gas and Electric", "Costco", "Dignity Health",
)  # fmt: skip
CITIES: tuple[str, ...] = (
    "Fresno", "Bakersfield", "Stockton", "Modesto", "Oakland", "Compton", "Inglewood", "Pomona", "Riverside",
    "San Bernardino", "Salinas", "Visalia", "Merced", "Vallejo", "Santa Ana", "Long Beach", "Lancaster", "Hemet",
    "Eureka", "Redding", "Chico", "Sacramento", "San Diego", "Richmond", "Watsonville", "Delano", "Porterville",
    "Lodi", "El Centro", "Oxnard", "Hayward", "Pittsburg", "Barstow", "Victorville", "Tulare", "Madera",
)  # fmt: skip
COUNTIES: tuple[str, ...] = (
    "Fresno County", "Kern County", "Los Angeles County", "San Joaquin County", "Stanislaus County",
    "Alameda County", "Riverside County", "Tulare County", "Orange County", "Sacramento County",
    "Imperial County", "Monterey County",
)  # fmt: skip
ELSEWHERE: tuple[str, ...] = (
    "Mexico", "El Salvador", "Guatemala", "Vietnam", "Cambodia", "Laos", "the Philippines", "Arizona", "Nevada",
    "Texas", "Oregon", "Oklahoma", "Louisiana", "Guadalajara", "Tijuana", "Phnom Penh", "Manila", "Houston",
)  # fmt: skip
STATES = frozenset({"Arizona", "Nevada", "Texas", "Oregon", "Oklahoma", "Louisiana"})
AREA_CODES: tuple[str, ...] = ("559", "661", "209", "510", "323", "909", "951", "831", "916", "619", "707", "530")
MONTH_NAMES: tuple[str, ...] = (
    "January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November",
    "December",
)  # fmt: skip
_UNITS = ("", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")
_TEENS = (
    "ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen",
)  # fmt: skip
_TENS = ("", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety")


def number_words(n: int) -> str:
    """1–99 as a transcriber writes it: "nineteen", "twenty-two"."""
    if n < 10:
        return _UNITS[n]
    if n < 20:
        return _TEENS[n - 10]
    tens, units = divmod(n, 10)
    return _TENS[tens] + (f"-{_UNITS[units]}" if units else "")


def spoken_year(year: int, r: random.Random) -> str:
    """A year as said aloud: "nineteen ninety-eight", "two thousand and three", "twenty twelve"."""
    century, rest = divmod(year, 100)
    if century == 20 and (rest < 10 or r.random() < 0.5):
        return "two thousand" + ("" if rest == 0 else r.choice((" ", " and ")) + number_words(rest))
    head = "nineteen" if century == 19 else "twenty"
    if rest == 0:
        return f"{head} hundred"
    return f"{head} " + (f"oh-{number_words(rest)}" if rest < 10 else number_words(rest))


# A segment is plain text or (text, label): the writer records the labelled ones.
Segment = str | tuple[str, str]


class _Writer:
    def __init__(self) -> None:
        self.parts: list[str] = []
        self.spans: list[GoldSpan] = []
        self.length = 0

    def add(self, *segments: Segment) -> None:
        for segment in segments:
            if isinstance(segment, tuple):
                text, label = segment
                self.spans.append(GoldSpan(self.length, self.length + len(text), label))
            else:
                text = segment
            self.parts.append(text)
            self.length += len(text)

    def text(self) -> str:
        return "".join(self.parts)


@dataclass
class Person:
    first: str
    last: str
    female: bool
    role: str = ""  # speaker-label role ("PRESIDING COMMISSIONER"), empty for non-speakers

    @property
    def title(self) -> str:
        return "Ms." if self.female else "Mr."

    @property
    def full(self) -> str:
        return f"{self.first} {self.last}"

    def speaker(self) -> list[Segment]:
        """The speaker label, name in capitals: "PRESIDING COMMISSIONER ", ("HARTWELL", PERSON), ":"."""
        role = self.role or self.title.upper()
        return [f"{role} ", (self.last.upper(), "PERSON"), ": "]


def P(name: str) -> tuple[str, str]:
    return (name, "PERSON")


def possessive(name: str) -> list[Segment]:
    return [P(name), "'" if name.endswith("s") else "'s"]


@dataclass
class Cast:
    inmate: Person
    presiding: Person
    deputy: Person
    attorney: Person
    dda: Person | None
    victim: Person
    kin: Person | None  # the victim's relative who speaks
    mother: Person
    sibling: Person
    partner: Person
    child: Person
    co_defendant: Person
    psychologist: Person
    counselor: Person
    officer: Person
    sponsor: Person
    facility: str
    hometown: str
    offense_city: str
    county: str
    parole_city: str
    cdcr: str
    case_number: str
    hearing_year: int
    birth_year: int
    offense_year: int
    prisons: list[str] = field(default_factory=list)
    employer: str = ""
    program: str = ""
    # The document's name pool: people introduced later are new people.
    names: "_Names | None" = None


class _Names:
    """Draws distinct people for one document."""

    def __init__(self, r: random.Random) -> None:
        self.r = r
        self.used: set[str] = set()

    def person(self, female: bool | None = None, role: str = "", last: str | None = None) -> Person:
        if female is None:
            female = self.r.random() < 0.5
        while True:
            first = self.r.choice(FEMALE_FIRST_NAMES if female else MALE_FIRST_NAMES)
            surname = last or self.r.choice(SURNAMES)
            if first not in self.used and (last or surname not in self.used):
                break
        self.used.update({first, surname})
        return Person(first, surname, female, role)


def _cdcr_number(r: random.Random) -> str:
    letters = "ABCDEFGHJKLPTVWX"
    if r.random() < 0.5:
        number = r.choice(letters) + f"{r.randrange(10000, 99999)}"
    else:
        number = r.choice(letters) + r.choice(letters) + f"{r.randrange(1000, 9999)}"
    return number[0] + "-" + number[1:] if number[1].isdigit() and r.random() < 0.4 else number


def _phone(r: random.Random) -> str:
    area, exchange, line = r.choice(AREA_CODES), f"{r.randrange(200, 999)}", f"{r.randrange(0, 9999):04d}"
    shape = r.randrange(3)
    if shape == 0:
        return f"({area}) {exchange}-{line}"
    return f"{area}{'-' if shape == 1 else '.'}{exchange}{'-' if shape == 1 else '.'}{line}"


def _date(r: random.Random, year: int, style: str | None = None) -> list[Segment]:
    """One date of `year` in a random written form, "the" outside the span."""
    month, day = r.randrange(1, 13), r.randrange(1, 29)
    style = style or r.choice(("long", "long", "numeric", "ordinal", "month_year", "year", "spoken"))
    if style == "long":
        return [(f"{MONTH_NAMES[month - 1]} {day}, {year}", "DATE")]
    if style == "numeric":
        text = f"{month}/{day}/{year}" if r.random() < 0.6 else f"{month:02d}/{day:02d}/{year % 100:02d}"
        return [(text, "DATE")]
    if style == "ordinal":
        suffix = "th" if 10 <= day % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(day % 10, "th")
        return ["the ", (f"{day}{suffix} of {MONTH_NAMES[month - 1]}, {year}", "DATE")]
    if style == "month_year":
        return [(f"{MONTH_NAMES[month - 1]}{r.choice((' of ', ' '))}{year}", "DATE")]
    if style == "spoken":
        return [(spoken_year(year, r), "DATE")]
    return [(str(year), "DATE")]


def _age(r: random.Random, age: int, shape: str | None = None) -> list[Segment]:
    """An age in running text. Shapes: "bare" (a number that only context makes an
    age), "years_old", "age_of" ("at the age of 16"), "when" ("when I was 16"),
    "at" ("at 16")."""
    number = str(age) if r.random() < 0.6 else number_words(age)
    shape = shape or r.choice(("age_of", "when", "at", "years_old"))
    if shape == "years_old":
        return [(number, "AGE"), " years old"]
    if shape == "age_of":
        return ["at the age of ", (number, "AGE")] if r.random() < 0.7 else ["at age ", (number, "AGE")]
    if shape == "when":
        return ["when I was ", (number, "AGE")]
    if shape == "at":
        return ["at ", (number, "AGE")]
    return [(number, "AGE")]


def _spell(name: str, r: random.Random) -> str:
    # Transcribers spell without accents: "Gutiérrez" is G-U-T-I-E-R-R-E-Z.
    plain = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    letters = [c for c in plain.upper() if c.isalpha()]
    return (" - " if r.random() < 0.15 else "-").join(letters)


def _place(city: str) -> list[Segment]:
    # One span: the ensemble joins a city and its state across ", " (ensemble.ADJACENT_GAPS).
    return [(f"{city}, California", "LOCATION")]


def _org(name: str) -> list[Segment]:
    if name.startswith("the "):
        return ["the ", (name[4:], "ORGANIZATION")]
    return [(name, "ORGANIZATION")]


def _cast(r: random.Random) -> Cast:
    names = _Names(r)
    inmate = names.person(female=r.random() < 0.15, role="INMATE")
    hearing_year = r.randrange(2015, 2025)
    age_now = r.randrange(32, 68)
    birth_year = hearing_year - age_now
    offense_age = r.randrange(16, min(age_now - 10, 40))
    facility = r.choice([p for p in PRISONS if ("Women" in p) == inmate.female] or list(PRISONS))
    earlier = r.sample([p for p in PRISONS if p != facility], k=r.randrange(1, 4))
    victim = names.person()
    kin_speaks = r.random() < 0.5
    return Cast(
        inmate=inmate,
        presiding=names.person(role="PRESIDING COMMISSIONER"),
        deputy=names.person(role="DEPUTY COMMISSIONER"),
        attorney=names.person(role="ATTORNEY"),
        dda=names.person(role="DEPUTY DISTRICT ATTORNEY") if r.random() < 0.6 else None,
        victim=victim,
        # A relative often shares the victim's surname ("Ms. Tran, the victim's sister").
        kin=names.person(last=victim.last if r.random() < 0.7 else None) if kin_speaks else None,
        mother=names.person(female=True, last=inmate.last if r.random() < 0.5 else None),
        sibling=names.person(last=inmate.last),
        partner=names.person(female=not inmate.female),
        child=names.person(last=inmate.last),
        co_defendant=names.person(female=False),
        psychologist=names.person(),
        counselor=names.person(),
        officer=names.person(),
        sponsor=names.person(),
        facility=facility,
        hometown=r.choice(CITIES),
        offense_city=r.choice(CITIES),
        county=r.choice(COUNTIES),
        parole_city=r.choice(CITIES),
        cdcr=_cdcr_number(r),
        case_number=r.choice(("BA", "VA", "KA", "F", "SC")) + f"{r.randrange(100000, 999999)}",
        hearing_year=hearing_year,
        birth_year=birth_year,
        offense_year=birth_year + offense_age,
        prisons=earlier,
        employer=r.choice(EMPLOYERS),
        program=r.choice(PROGRAMS),
        names=names,
    )


def _header(w: _Writer, c: Cast, r: random.Random) -> None:
    hearing = r.choice(("SUBSEQUENT PAROLE CONSIDERATION HEARING", "INITIAL PAROLE CONSIDERATION HEARING"))
    w.add(f"{hearing}\nSTATE OF ", ("CALIFORNIA", "LOCATION"), "\n", ("BOARD OF PAROLE HEARINGS", "ORGANIZATION"))
    w.add("\n\nIn the matter of the Parole Consideration Hearing of: ", P(c.inmate.full.upper()), "\n")
    w.add(("CDCR", "ORGANIZATION"), " Number: ", (c.cdcr, "ID"), "\n")
    city = r.choice(CITIES)
    w.add((c.facility.upper(), "ORGANIZATION"), ", ", (f"{city.upper()}, CALIFORNIA", "LOCATION"))
    hour, minute = r.randrange(8, 11), r.choice((0, 5, 10, 15, 30, 38, 45))
    w.add("\n", *_date(r, c.hearing_year, "long"), ", ", (f"{hour}:{minute:02d} a.m.", "TIME"), "\n\nPANEL PRESENT:\n")
    w.add(P(c.presiding.full.upper()), ", Presiding Commissioner\n")
    w.add(P(c.deputy.full.upper()), ", Deputy Commissioner\n\nOTHERS PRESENT:\n")
    w.add(P(c.inmate.full.upper()), ", Inmate\n", P(c.attorney.full.upper()), ", Attorney for Inmate\n")
    if c.dda:
        w.add(P(c.dda.full.upper()), ", Deputy District Attorney\n")
    if c.kin:
        w.add(P(c.kin.full.upper()), ", Victim's Next of Kin\n")
    w.add("\n")


Utterance = tuple[Person, list[Segment]]
Section = Callable[[Cast, random.Random], list[Utterance]]


def _opening(c: Cast, r: random.Random) -> list[Utterance]:
    i, pc, dc = c.inmate, c.presiding, c.deputy
    hour, minute = r.randrange(8, 11), r.randrange(0, 60)
    out: list[Utterance] = [
        (
            pc,
            [
                "We are on the record. Today is ",
                *_date(r, c.hearing_year, "long"),
                ", and the time is ",
                (f"{hour}:{minute:02d} a.m.", "TIME"),
                f" This is a parole consideration hearing for {r.choice(('', 'inmate '))}",
                P(i.full),
                ", ",
                ("CDCR", "ORGANIZATION"),
                " number ",
                (c.cdcr, "ID"),
                ". We are at ",
                *_org(c.facility),
                " in ",
                *_place(r.choice(CITIES)),
                ". For the record, my name is ",
                P(pc.full),
                ", Commissioner. ",
                i.title,
                " ",
                P(i.last),
                ", please state your name and spell your last name for the record.",
            ],
        ),
    ]
    if " " in i.last or "-" in i.last or "'" in i.last or len([ch for ch in i.last if ch.isalpha()]) < 3:
        how = "two words" if " " in i.last else "like it sounds"
        out.append((i, [P(i.full), ". ", P(i.last), f", {how}."]))
    else:
        out.append(
            (
                i,
                [
                    P(i.full),
                    r.choice((", ", ". Last name ", ", that's ")),
                    (_spell(i.last, r), "SPELLED_NAME"),
                    ".",
                ],
            )
        )
    out.append((pc, ["Thank you. ", "Deputy Commissioner ", P(dc.last), "?"]))
    out.append((dc, [P(dc.full), ", Deputy Commissioner", r.choice((".", ", good morning.", ". Good morning."))]))
    out.append((c.attorney, [P(c.attorney.full), ", attorney for ", i.title, " ", P(i.last), "."]))
    if c.dda:
        out.append(
            (
                c.dda,
                [P(c.dda.full), ", Deputy District Attorney, ", (c.county, "LOCATION"), ", for the People."],
            )
        )
    if c.kin:
        relation = r.choice(("sister", "brother", "mother", "daughter", "son", "aunt"))
        out.append(
            (
                c.kin,
                [
                    P(c.kin.full),
                    f". I'm the {relation} of ",
                    P(c.victim.full),
                    ". ",
                    P(c.kin.last),
                    ", ",
                    (_spell(c.kin.last, r), "SPELLED_NAME")
                    if c.kin.last.isalpha() and len(c.kin.last) >= 3
                    else "like it sounds",
                    ".",
                ],
            )
        )
    return out


def _background(c: Cast, r: random.Random) -> list[Utterance]:
    i, dc = c.inmate, c.deputy
    out: list[Utterance] = []
    ask = r.choice(("How old are you now?", "How old are you today?", "And how old are you, sir?"))
    out.append((dc, [i.title, " ", P(i.last), f", let's go over your background. {ask}"]))
    out.append((i, _age(r, c.hearing_year - c.birth_year, "bare") + ["."]))
    born = _date(r, c.birth_year, r.choice(("long", "numeric", "ordinal")))
    out.append((dc, ["The file shows you were born on ", *born, " in ", *_place(c.hometown), ". Is that right?"]))
    out.append(
        (
            i,
            [
                "Yes, ma'am." if dc.female else "Yes, sir.",
                " My mom, ",
                P(c.mother.first),
                ", raised me and my ",
                "sister" if c.sibling.female else "brother",
                " ",
                P(c.sibling.first),
                " there until about ",
                *_date(r, c.birth_year + r.randrange(8, 14), r.choice(("year", "spoken"))),
                ".",
            ],
        )
    )
    drink_age = r.randrange(9, 16)
    out.append((dc, ["When did you start using alcohol or drugs?"]))
    out.append(
        (
            i,
            [
                "I started drinking ",
                *_age(r, drink_age, r.choice(("age_of", "when", "at"))),
                r.choice((". ", ", with my cousin. ", ". By the time I was in junior high I was using every day. ")),
                "My father left in ",
                *_date(r, c.birth_year + drink_age - 1, r.choice(("year", "spoken", "month_year"))),
                ", and after that nobody was watching us.",
            ],
        )
    )
    if r.random() < 0.6:
        out.append((dc, ["You were in juvenile hall?"]))
        out.append(
            (
                i,
                [
                    "Yes. ",
                    *_org(r.choice(JAILS)),
                    ", ",
                    *_age(r, drink_age + r.randrange(1, 4), r.choice(("age_of", "when", "years_old"))),
                    ". ",
                    r.choice(("I got out in ", "I was released in ")),
                    *_date(r, c.birth_year + drink_age + 3, r.choice(("month_year", "year", "spoken"))),
                    ".",
                ],
            )
        )
    out.append((dc, ["Any children?"]))
    child_age = r.randrange(8, 30)
    out.append(
        (
            i,
            [
                "One. ",
                P(c.child.first),
                ". ",
                "She" if c.child.female else "He",
                r.choice((" is ", "'s ")),
                *(
                    [(f"{child_age}", "AGE"), " years old"]
                    if r.random() < 0.5
                    else [(number_words(child_age), "AGE"), " years old"]
                ),
                " now. ",
                P(c.child.first),
                "'s mother, ",
                P(c.partner.full),
                ", brings ",
                "her" if c.child.female else "him",
                " to visit.",
            ],
        )
    )
    return out


def _offense(c: Cast, r: random.Random) -> list[Utterance]:
    i, pc, v, co = c.inmate, c.presiding, c.victim, c.co_defendant
    offense_age = c.offense_year - c.birth_year
    out: list[Utterance] = [
        (
            pc,
            [
                "Let's turn to the commitment offense. On ",
                *_date(r, c.offense_year, "long"),
                ", in ",
                *_place(c.offense_city),
                ", ",
                P(v.full),
                " was shot outside a liquor store. You were convicted in ",
                (c.county, "LOCATION"),
                ", case number ",
                (c.case_number, "ID"),
                ". How old were you?",
            ],
        ),
        (i, [r.choice(("", "I was ", "About ")), *_age(r, offense_age, "bare"), "."]),
        (pc, ["And who was with you that night?"]),
        (
            i,
            [
                P(co.full),
                ". Everybody called him ",
                P(co.first),
                ". ",
                P(co.first),
                " had the gun, but I'm the one who set it up. ",
                P(v.first),
                " didn't owe anybody anything.",
            ],
        ),
        (
            pc,
            [
                "According to ",
                "Officer ",
                P(c.officer.last),
                "'s report, you told ",
                "Detective " if r.random() < 0.5 else "Officer ",
                P(c.officer.last),
                " that ",
                "Mr. ",
                P(co.last),
                " planned it. Which is it?",
            ],
        ),
        (
            i,
            [
                "I lied back then. I was protecting myself. ",
                *possessive(v.last),
                " family deserved the truth in ",
                *_date(r, c.offense_year + 1, r.choice(("year", "spoken"))),
                " and I didn't give it to them.",
            ],
        ),
    ]
    if r.random() < 0.5:
        out.append((pc, ["How long had you known ", v.title, " ", P(v.last), "?"]))
        out.append(
            (
                i,
                [
                    "Since we were kids on ",
                    *r.choice(([("Maple Street", "LOCATION")], ["the east side"], [("Olive Avenue", "LOCATION")])),
                    ". ",
                    "His" if not v.female else "Her",
                    " brother ",
                    P(r.choice(MALE_FIRST_NAMES)),
                    " played ball with me when I was ",
                    (number_words(r.randrange(10, 15)), "AGE"),
                    ".",
                ],
            )
        )
    return out


def _institution(c: Cast, r: random.Random) -> list[Utterance]:
    i, dc = c.inmate, c.deputy
    arrived = c.offense_year + r.randrange(1, 3)
    out: list[Utterance] = [
        (
            dc,
            [
                "You were received by the department on ",
                *_date(r, arrived, r.choice(("long", "numeric"))),
                ", first at ",
                *_org(c.prisons[0]),
                ". Then you went to ",
                *_org(c.prisons[-1] if len(c.prisons) > 1 else c.facility),
                " in ",
                *_date(r, arrived + r.randrange(2, 8), r.choice(("year", "month_year", "spoken"))),
                "?",
            ],
        ),
        (i, ["Yes. I've been at ", *_org(c.facility), " since the ", (f"{(arrived // 10 + 1) * 10}s", "DATE"), "."]),
        (dc, ["Your last serious rules violation was in ", *_date(r, arrived + r.randrange(3, 10), "year"), "?"]),
        (
            i,
            [
                "Yes, a fight on the yard. After that I went to ",
                *_org(c.program),
                ". My sponsor, ",
                P(c.sponsor.full),
                ", has been with me ",
                r.choice(("eleven years", "since then", "the whole way")),
                ". ",
                P(c.sponsor.first),
                " says I talk too much in group.",
            ],
        ),
        (
            dc,
            [
                "The comprehensive risk assessment was done by ",
                "Dr. ",
                P(c.psychologist.full),
                " on ",
                *_date(r, c.hearing_year - 1, r.choice(("long", "numeric", "ordinal"))),
                ". Dr. ",
                P(c.psychologist.last),
                " rated you a moderate risk. Your counselor, ",
                P(c.counselor.full),
                ", wrote a chrono dated ",
                *_date(r, c.hearing_year - 1, "numeric"),
                ".",
            ],
        ),
        (
            i,
            [
                "I disagree with part of ",
                *possessive(c.psychologist.last),
                " report, but I understand why ",
                "she" if c.psychologist.female else "he",
                " wrote it.",
            ],
        ),
    ]
    return out


def _plans(c: Cast, r: random.Random) -> list[Utterance]:
    i, pc = c.inmate, c.presiding
    out: list[Utterance] = [
        (pc, ["Where would you live if you were found suitable?"]),
        (
            i,
            [
                "With my ",
                "sister" if c.sibling.female else "brother",
                ", ",
                P(c.sibling.full),
                ", in ",
                *_place(c.parole_city),
                ". ",
                "She" if c.sibling.female else "He",
                " has a room for me. ",
                P(c.sibling.first),
                "'s number is ",
                (_phone(r), "PHONE_NUMBER"),
                ".",
            ],
        ),
        (
            pc,
            [
                "There's a job offer letter from ",
                *_org(c.employer),
                " signed by ",
                P(c.sponsor.full if r.random() < 0.3 else r.choice(FEMALE_FIRST_NAMES) + " " + r.choice(SURNAMES)),
                ", dated ",
                *_date(r, c.hearing_year, r.choice(("long", "ordinal", "numeric"))),
                ". And a transitional housing acceptance from ",
                *_org(r.choice(PROGRAMS)),
                ". Anything from your family?",
            ],
        ),
        (
            i,
            [
                "My mother, ",
                *([P(c.mother.full)] if c.mother.last != i.last else ["Mrs. ", P(c.mother.last)]),
                ", wrote. She moved to ",
                *_elsewhere(r),
                " in ",
                *_date(r, c.hearing_year - r.randrange(2, 10), r.choice(("year", "month_year", "spoken"))),
                ". You can reach her at ",
                (_phone(r), "PHONE_NUMBER"),
                ".",
            ],
        ),
    ]
    return out


def _elsewhere(r: random.Random) -> list[Segment]:
    place = r.choice(ELSEWHERE)
    if place.startswith("the "):
        return ["the ", (place[4:], "LOCATION")]
    return [(place, "LOCATION")]


def _closing(c: Cast, r: random.Random) -> list[Utterance]:
    i, pc, v = c.inmate, c.presiding, c.victim
    out: list[Utterance] = []
    if c.dda:
        out.append(
            (
                c.dda,
                [
                    "The People oppose. ",
                    i.title,
                    " ",
                    P(i.last),
                    " was ",
                    *_age(r, c.offense_year - c.birth_year, "bare"),
                    ", not a child, and ",
                    P(v.full),
                    " was ",
                    (f"{r.randrange(17, 60)}", "AGE"),
                    " years old",
                    ". The inmate's account changed again today.",
                ],
            )
        )
    out.append(
        (
            c.attorney,
            [
                "Commissioner ",
                P(pc.last),
                ", my client has ",
                r.choice(("programmed", "done the work", "been disciplinary-free")),
                " since ",
                *_date(r, c.hearing_year - r.randrange(5, 12), "year"),
                ". ",
                i.title,
                " ",
                P(i.last),
                " is now ",
                (f"{c.hearing_year - c.birth_year}", "AGE"),
                " years old",
                ".",
            ],
        )
    )
    if c.kin:
        out.append(
            (
                c.kin,
                [
                    P(v.first),
                    " was my whole world. ",
                    "She" if v.female else "He",
                    " would have turned ",
                    *_age(r, c.hearing_year - c.offense_year + r.randrange(18, 40), "bare"),
                    " on ",
                    *_date(r, c.hearing_year, "long"),
                    ". I ask the panel to deny parole to ",
                    i.title,
                    " ",
                    P(i.last),
                    ".",
                ],
            )
        )
    out.append(
        (
            i,
            [
                "I want to say to ",
                *([c.kin.title, " ", P(c.kin.last)] if c.kin else ["the ", P(v.last), " family"]),
                " that I am sorry for what I took from you.",
            ],
        )
    )
    hour = r.randrange(1, 5)
    out.append(
        (
            pc,
            [
                "We will recess and return at ",
                (f"{hour}:{r.choice((5, 15, 20, 40, 50)):02d} p.m.", "TIME"),
                " with a decision. Thank you, ",
                i.title,
                " ",
                P(i.last),
                ".",
            ],
        )
    )
    return out


SCHOOLS: tuple[str, ...] = (
    "Coastline Community College", "Feather River College", "Lassen Community College", "Cal State Fresno",
    "Palo Verde College", "Chaffey College", "Bakersfield College", "Cerro Coso Community College",
)  # fmt: skip
CHURCHES: tuple[str, ...] = (
    "Greater New Hope Missionary Baptist Church", "St. Anne's Catholic Church", "Iglesia Bautista Emanuel",
    "Wat Khmer Buddhist Temple", "Masjid Al-Noor", "Bethel AME Church", "Cornerstone Christian Fellowship",
)  # fmt: skip


def _education(c: Cast, r: random.Random) -> list[Utterance]:
    i, dc = c.inmate, c.deputy
    ged = c.offense_year + r.randrange(2, 9)
    teacher = c.names.person()
    return [
        (dc, ["Tell us about your education since you came in."]),
        (
            i,
            [
                "I got my GED in ",
                *_date(r, ged, r.choice(("year", "month_year", "spoken"))),
                ". Then an associate's degree from ",
                *_org(r.choice(SCHOOLS)),
                " in ",
                *_date(r, ged + r.randrange(3, 8), "year"),
                ". My teacher, ",
                teacher.title,
                " ",
                P(teacher.last),
                ", pushed me. ",
                P(teacher.first),
                " ",
                r.choice(("retired last year.", "still writes to me.", "is the reason I read.")),
            ],
        ),
        (dc, ["And vocational?"]),
        (
            i,
            [
                "Welding, through ",
                *_org("Prison Industry Authority" if r.random() < 0.5 else "CALPIA"),
                ". I finished on ",
                *_date(r, ged + r.randrange(1, 6), r.choice(("long", "numeric", "ordinal"))),
                ".",
            ],
        ),
    ]


def _rules(c: Cast, r: random.Random) -> list[Utterance]:
    i, pc = c.inmate, c.presiding
    year = c.offense_year + r.randrange(3, 12)
    return [
        (
            pc,
            [
                "On ",
                *_date(r, year, r.choice(("long", "numeric"))),
                " you received a 115 for possession of a cell phone at ",
                *_org(r.choice(c.prisons)),
                ". Sergeant ",
                P(c.officer.last),
                " wrote it up at ",
                (f"{r.randrange(1, 12)}:{r.randrange(0, 60):02d} p.m.", "TIME"),
                ". Whose phone was it?",
            ],
        ),
        (
            i,
            [
                "Mine. I was calling my ",
                "sister" if c.sibling.female else "brother",
                " at ",
                (_phone(r), "PHONE_NUMBER"),
                " because our ",
                r.choice(("grandmother", "uncle", "dad")),
                " was dying in ",
                *_elsewhere(r),
                ". That's not an excuse, ",
                "ma'am" if pc.female else "sir",
                ".",
            ],
        ),
    ]


def _visits(c: Cast, r: random.Random) -> list[Utterance]:
    i, dc = c.inmate, c.deputy
    names = c.names
    aunt, cousin, nephew = names.person(female=True), names.person(), names.person(female=False, last=c.inmate.last)
    nephew_age = r.randrange(4, 17)
    return [
        (dc, ["Who visits you?"]),
        (
            i,
            [
                "My aunt ",
                P(aunt.first),
                " comes up from ",
                *_place(r.choice(CITIES)),
                " every other month, and my cousin ",
                P(cousin.full),
                " writes. ",
                P(cousin.first),
                r.choice(("'s the one who kept me going.", " never gave up on me.")),
                " My nephew ",
                P(nephew.first),
                ", he's ",
                (number_words(nephew_age) if r.random() < 0.5 else str(nephew_age), "AGE"),
                ", he draws me pictures.",
            ],
        ),
    ]


def _letters(c: Cast, r: random.Random) -> list[Utterance]:
    i, pc = c.inmate, c.presiding
    names = c.names
    pastor, niece = names.person(), names.person(female=True)
    church = r.choice(CHURCHES)
    return [
        (
            pc,
            [
                "We have letters of support. One from Pastor ",
                P(pastor.full),
                " of ",
                *_org(church),
                " in ",
                *_place(c.parole_city),
                ", dated ",
                *_date(r, c.hearing_year, r.choice(("long", "numeric", "ordinal"))),
                ". One from your niece, ",
                P(niece.full),
                ", who is ",
                (f"{r.randrange(18, 35)}", "AGE"),
                " years old",
                " and a nurse at ",
                *_org(r.choice(("Kaiser Permanente", "Dignity Health", "Valley Children's Hospital"))),
                ". Pastor ",
                P(pastor.last),
                " says you can stay with the congregation. How do you know ",
                "her" if pastor.female else "him",
                "?",
            ],
        ),
        (
            i,
            [
                "Through the chaplain here, ",
                "Chaplain ",
                P(c.counselor.last if r.random() < 0.3 else names.person().last),
                ". ",
                P(pastor.first),
                " came in with a prison ministry in ",
                *_date(r, c.hearing_year - r.randrange(2, 8), r.choice(("year", "spoken", "month_year"))),
                ".",
            ],
        ),
    ]


def _sections(r: random.Random) -> list[Section]:
    """A hearing's order: opening, background, offense, prison record (in some
    order, some parts optional), release plans, closing."""
    record: list[Section] = [_institution] + [x for x in (_rules, _education) if r.random() < 0.7]
    r.shuffle(record)
    plans: list[Section] = [x for x in (_visits,) if r.random() < 0.6] + [_plans]
    plans += [x for x in (_letters,) if r.random() < 0.7]
    return [_opening, _background, _offense, *record, *plans, _closing]


def _capitalized(segments: list[Segment]) -> list[Segment]:
    """An utterance opens with a capital ("Thirty-one."); same length, same offsets."""
    first = segments[0] if segments else ""
    if isinstance(first, tuple):
        return [(first[0][:1].upper() + first[0][1:], first[1]), *segments[1:]]
    if not first:
        return _capitalized(segments[1:]) if len(segments) > 1 else segments
    return [first[:1].upper() + first[1:], *segments[1:]]


def generate_document(seed: int, number: int) -> GoldDocument:
    """One transcript; the same (seed, number) always gives the same document."""
    r = random.Random(f"{seed}:{number}")
    c = _cast(r)
    w = _Writer()
    _header(w, c, r)
    for section in _sections(r):
        for speaker, segments in section(c, r):
            w.add(*speaker.speaker(), *_capitalized(segments), "\n\n")
    return GoldDocument(f"synthetic-{seed}-{number:03d}", w.text(), w.spans)


def generate(count: int, seed: int = 0) -> Iterator[GoldDocument]:
    for number in range(count):
        yield generate_document(seed, number)


def write_jsonl(documents: Iterable[GoldDocument], path: Path) -> int:
    path.parent.mkdir(parents=True, exist_ok=True)
    written = 0
    with open(path, "w", encoding="utf-8") as handle:
        for d in documents:
            spans = [{"start": s.start, "end": s.end, "label": s.label} for s in d.spans]
            handle.write(json.dumps({"id": d.id, "text": d.text, "spans": spans}, ensure_ascii=False) + "\n")
            written += 1
    return written


def gazetteer_overlap() -> dict[str, float]:
    """Share of our first names and surnames the detector's Faker gazetteer knows."""
    from pipelines.detection.recognizers import gazetteer

    firsts = set(FEMALE_FIRST_NAMES) | set(MALE_FIRST_NAMES)
    # Whole names only: the gazetteer matches whole words, so "De La Cruz" is unknown.
    return {
        "first_names": sum(n in gazetteer.first_names() for n in firsts) / len(firsts),
        "surnames": sum(n in gazetteer.last_names() for n in SURNAMES) / len(SURNAMES),
    }
