"""First-page header of a Board of Parole Hearings-style transcript.

Pure Python (no Django): takes the cleaned lines of the cover page and returns a
plain dict. Cover pages are typeset in two columns (a caption box drawn with ")"
and "_"), so text extraction interleaves them; the parser strips that furniture
and looks for each field on its own instead of assuming a line order.
"""

import datetime as dt
import re

HEADER_KEYS = (
    "hearing_type",
    "date",
    "time",
    "facility",
    "city",
    "state",
    "cdcr_number",
    "inmate_name",
    "participants",
    "transcriber",
)

_MONTHS = {
    name: number
    for number, name in enumerate(
        "january february march april may june july august september october november december".split(), start=1
    )
}
_STATES = {
    "ALABAMA", "ALASKA", "ARIZONA", "ARKANSAS", "CALIFORNIA", "COLORADO", "CONNECTICUT", "DELAWARE", "FLORIDA",
    "GEORGIA", "HAWAII", "IDAHO", "ILLINOIS", "INDIANA", "IOWA", "KANSAS", "KENTUCKY", "LOUISIANA", "MAINE",
    "MARYLAND", "MASSACHUSETTS", "MICHIGAN", "MINNESOTA", "MISSISSIPPI", "MISSOURI", "MONTANA", "NEBRASKA",
    "NEVADA", "NEW HAMPSHIRE", "NEW JERSEY", "NEW MEXICO", "NEW YORK", "NORTH CAROLINA", "NORTH DAKOTA", "OHIO",
    "OKLAHOMA", "OREGON", "PENNSYLVANIA", "RHODE ISLAND", "SOUTH CAROLINA", "SOUTH DAKOTA", "TENNESSEE", "TEXAS",
    "UTAH", "VERMONT", "VIRGINIA", "WASHINGTON", "WEST VIRGINIA", "WISCONSIN", "WYOMING",
}  # fmt: skip

# "SUBSEQUENT PAROLE CONSIDERATION HEARING", but not "BOARD OF PAROLE HEARINGS".
_HEARING_TYPE = re.compile(r"^(?:[A-Z][A-Z'\-]* )*HEARING$")
_CDCR = re.compile(r"\bCDCR\s*(?:Number|No\.?|#)?\s*:?\s*([A-Z]{1,2}-?\d{4,6})\b", re.IGNORECASE)
_MATTER_OF = re.compile(r"in\s+the\s+matter\s+of\b.*?\bhearing\s+of\s*:?", re.IGNORECASE | re.DOTALL)
_FACILITY = re.compile(r"\b(?:FACILITY|PRISON|INSTITUTION|CORRECTIONAL|PENITENTIARY|CENTER|CAMP)\b")
_CITY_STATE = re.compile(r"^([A-Z][A-Za-z .'\-]*[A-Za-z.]),\s*([A-Za-z][A-Za-z ]*[A-Za-z])\.?$")
_LONG_DATE = re.compile(r"\b([A-Za-z]{3,9})\.?\s+(\d{1,2}),?\s+(\d{4})\b")
_NUMERIC_DATE = re.compile(r"\b(\d{1,2})/(\d{1,2})/(\d{4})\b")
_TIME = re.compile(r"\b(\d{1,2}):(\d{2})\s*([AaPp])\.?\s*[Mm]\.?(?![A-Za-z])")
_BLOCK_TITLE = re.compile(r"^(PANEL|OTHERS)\s+PRESENT\s*:?\s*(.*)$", re.IGNORECASE)
# Names may carry accents ("JOSÉ"), so words are any letters; capitals are checked in code.
_WORD = r"[^\W\d_][^\W\d]*(?:[.'\-][^\W\d_]*)*\.?"
# "JOHN Q. PUBLIC, JR., Inmate": a suffix after the first comma is still the name.
_SUFFIX = r",\s*(?:Jr|JR|Sr|SR|II|III|IV)\.?"
_PARTICIPANT = re.compile(rf"^({_WORD}(?:\s+{_WORD}){{0,5}}(?:{_SUFFIX})?),\s*([^\W\d_][\w .,'&/()\-]*)$")
_TRANSCRIBER = re.compile(r"\btranscribed\s+by\s*:?\s*(.*)$", re.IGNORECASE)
_NAME = re.compile(rf"^{_WORD}(?:,?\s+{_WORD}){{0,5}}$")
# Caption-box furniture: free-standing ")" columns and "____" rules.
_CAPTION_FURNITURE = re.compile(r"(?:^|(?<=\s))\)+(?=\s|$)|_{2,}")


def empty_header() -> dict:
    return {key: ([] if key == "participants" else None) for key in HEADER_KEYS}


def parse_header(lines: list[str]) -> dict:
    """Parse the cover page; every key is present, None (or []) when not found."""
    cleaned = [_clean(line) for line in lines]
    cleaned = [line for line in cleaned if line]
    header = empty_header()
    header["hearing_type"] = next((line for line in cleaned if _HEARING_TYPE.match(line)), None)
    header["cdcr_number"] = _first_group(_CDCR, cleaned)
    header["inmate_name"] = _inmate_name(cleaned)
    header["facility"] = next(
        (line for line in cleaned if line.isupper() and _FACILITY.search(line) and "BOARD OF" not in line), None
    )
    header["city"], header["state"] = _city_state(cleaned)
    header["date"] = _date(cleaned)
    header["time"] = _time(cleaned)
    header["participants"] = _participants(cleaned)
    header["transcriber"] = _transcriber(cleaned)
    return header


def has_header(header: dict) -> bool:
    """True when the page looks like a transcript cover (any identifying field)."""
    # Not the CDCR number alone: body pages mention it too.
    return any(header[key] for key in ("hearing_type", "inmate_name", "participants"))


def _clean(line: str) -> str:
    return " ".join(_CAPTION_FURNITURE.sub(" ", line).split())


def _first_group(pattern: re.Pattern, lines: list[str]) -> str | None:
    for line in lines:
        match = pattern.search(line)
        if match:
            return match.group(1)
    return None


def _inmate_name(lines: list[str]) -> str | None:
    # The caption spans several lines ("In the matter of the Parole" / "Consideration
    # Hearing of:"), so it is matched on the joined page; the name is what follows,
    # skipping the CDCR number that the right-hand column interleaves.
    joined = "\n".join(lines)
    match = _MATTER_OF.search(joined)
    if not match:
        return None
    for candidate in joined[match.end() :].split("\n"):
        candidate = _CDCR.sub(" ", candidate).strip(" ,:")
        if candidate and _is_name(candidate) and not _HEARING_TYPE.match(candidate):
            return candidate
        if candidate:
            return None
    return None


def _is_name(text: str) -> bool:
    return bool(_NAME.match(text)) and all(word[0].isupper() for word in text.replace(",", " ").split())


def _city_state(lines: list[str]) -> tuple[str | None, str | None]:
    for line in lines:
        match = _CITY_STATE.match(line)
        if not match:
            continue
        state = match.group(2)
        if state.upper() in _STATES or (len(state) == 2 and state.isupper()):
            return match.group(1), state
    return None, None


def _date(lines: list[str]) -> str | None:
    """ISO 8601 (YYYY-MM-DD), so that consumers need not parse printed dates."""
    for line in lines:
        for match in _LONG_DATE.finditer(line):
            month = _month_number(match.group(1))
            if month:
                iso = _iso_date(int(match.group(3)), month, int(match.group(2)))
                if iso:
                    return iso
        match = _NUMERIC_DATE.search(line)
        if match:
            iso = _iso_date(int(match.group(3)), int(match.group(1)), int(match.group(2)))
            if iso:
                return iso
    return None


def _month_number(word: str) -> int | None:
    word = word.lower()
    for name, number in _MONTHS.items():
        if name == word or (len(word) >= 3 and name.startswith(word)):
            return number
    return None


def _iso_date(year: int, month: int, day: int) -> str | None:
    try:
        return dt.date(year, month, day).isoformat()
    except ValueError:
        return None


def _time(lines: list[str]) -> str | None:
    """24-hour HH:MM."""
    for line in lines:
        match = _TIME.search(line)
        if match:
            hour, minute = int(match.group(1)) % 12, int(match.group(2))
            if match.group(3).lower() == "p":
                hour += 12
            if hour < 24 and minute < 60:
                return f"{hour:02d}:{minute:02d}"
    return None


def _participants(lines: list[str]) -> list[dict]:
    participants: list[dict] = []
    in_block = False
    for line in lines:
        title = _BLOCK_TITLE.match(line)
        if title:
            in_block = True
            line = title.group(2)
            if not line:
                continue
        if not in_block:
            continue
        match = _PARTICIPANT.match(line)
        if not match or not _is_name(match.group(1)):
            # The block ends at the first line that is not "NAME, Role".
            in_block = False
            continue
        participants.append({"name": match.group(1).strip(), "role": match.group(2).strip()})
    return participants


def _transcriber(lines: list[str]) -> str | None:
    for index, line in enumerate(lines):
        match = _TRANSCRIBER.search(line)
        if match:
            name = match.group(1).strip()
            if not name and index + 1 < len(lines):
                name = lines[index + 1].strip()
            return name or None
    return None


# A speaker label with its words ("PRESIDING COMMISSIONER BEGAY: We are on the
# record.") opens the hearing proper; a bare heading ("PANEL PRESENT:") does not.
_FIRST_SPEAKER = re.compile(r"^[ \t]*[A-Z][A-Z .'’-]{1,60}:[ \t]*\S", re.MULTILINE)
TEXT_COVER_LINES = 80


def parse_text_header(text: str) -> dict:
    """The cover page of a plain-text transcript: the lines before the first
    speaker label (at most `TEXT_COVER_LINES`), parsed like a PDF's first page.
    A text that does not look like a transcript cover gets the empty header."""
    first = _FIRST_SPEAKER.search(text)
    cover = (text[: first.start()] if first else text).split("\n")[:TEXT_COVER_LINES]
    header = parse_header(cover)
    return header if has_header(header) else empty_header()
