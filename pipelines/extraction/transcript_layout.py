"""Transcript pages to clean text plus a layout map (page, line per character range).

Pure Python (no Django). Input is the text lines of each PDF page in reading
order; output is an `Extraction`. Court and parole-hearing transcripts carry
printed line numbers (left or right margin), a page number, a vendor's name in
every header or footer and an INDEX page; all of that is furniture that would
otherwise end up in the middle of sentences. Body pages are rebuilt as one
utterance per line so that detection sees whole sentences.

The layout map is the bridge back to the paper: every character of the text
except newlines belongs to exactly one `(start, end, page, line)` entry, `line`
being the printed line number, or the line's position on the page (1-based,
counting every text line) when the page is not numbered.
"""

import bisect
import re
from collections import Counter
from dataclasses import dataclass, field
from itertools import groupby
from operator import attrgetter

from pipelines.extraction.header import empty_header, has_header, parse_header
from pipelines.extraction.text import normalize_text

LayoutEntry = tuple[int, int, int, int]


@dataclass(frozen=True)
class Extraction:
    text: str
    layout: list[LayoutEntry]
    pages: int
    metadata: dict = field(default_factory=dict)


@dataclass(frozen=True)
class Fragment:
    """One printed line, cleaned: where it came from and what it says."""

    text: str
    page: int
    line: int


# Up to six words and a colon: "PRESIDING COMMISSIONER DOE:", "DEPUTY COMMISSIONER
# ROE :", "MR. McDONALD:", "INMATE NÚÑEZ:". Capitals are checked in is_turn_start.
_LABEL_WORD = r"[^\W\d_][^\W\d_'.\-]*(?:['.\-][^\W\d_]*)*"
_SPEAKER = re.compile(rf"^((?:{_LABEL_WORD}\s+){{0,5}}{_LABEL_WORD})\s*:(?=\s|$)")
_QA_TURN = re.compile(r"^[QA][.:](?=\s|$)")
_LEADING_NUMBER = re.compile(r"^(\d{1,4})(?:\s+|$)")
_TRAILING_NUMBER = re.compile(r"(?:^|\s+)(\d{1,4})$")
_PAGE_NUMBER = re.compile(r"^(?:page\s+)?[-\u2013\u2014]?\s*\d{1,4}\s*[-\u2013\u2014]?(?:\s+of\s+\d{1,4})?$", re.I)
_INDEX_TITLE = re.compile(r"^(?:I\s*N\s*D\s*E\s*X|(?:TABLE\s+OF\s+)?CONTENTS)\b[\s(A-Z)]*$", re.I)
# The page reference may itself have been taken for a line number and stripped.
_DOTTED_REF = re.compile(r"(?:\.\s*){4,}\d{0,4}$")
_ENDS_WITH_REF = re.compile(r"\s\d{1,4}$")
# "Case Factors --": an index entry for a section the hearing did not reach.
_NO_PAGE_REF = re.compile(r"\s(?:[-\u2013\u2014]\s*){1,3}$")
_HYPHENATED = re.compile(r"[A-Za-z]-$")

# A line-number column must number a good share of the page's lines.
_MIN_NUMBERED_LINES = 3
_MIN_NUMBERED_SHARE = 0.4
# Header/footer lines looked at on pages without a line-number column.
_FURNITURE_ZONE = 3


def is_turn_start(text: str) -> bool:
    """A speaker label or a Q./A. turn: where a new utterance begins."""
    if _QA_TURN.match(text):
        return True
    match = _SPEAKER.match(text)
    if not match:
        return False
    letters = [c for c in match.group(1) if c.isalpha()]
    return len(letters) >= 2 and sum(c.isupper() for c in letters) >= 0.8 * len(letters)


def build_extraction(pages: list[list[str]]) -> Extraction:
    """Turn each page's text lines into clean text with its layout map."""
    cleaned = _drop_furniture(_strip_line_numbers(pages))
    cleaned = [[] if _is_index_page(page) else _without_index(page) for page in cleaned]
    header = parse_header([f.text for f in cleaned[0]]) if cleaned else empty_header()
    # Only a cover page has a header: a memo's date and city are not hearing metadata.
    cover = 1 if has_header(header) else 0
    text, layout = _assemble(_blocks(cleaned, cover))
    return Extraction(text=text, layout=layout, pages=len(pages), metadata=header if cover else empty_header())


class Locator:
    """(page, line) lookups over one layout map, sorting it once for many lookups."""

    def __init__(self, layout: list[LayoutEntry]) -> None:
        self.layout = layout
        self.starts = [entry[0] for entry in layout]

    def locate(self, offset: int) -> tuple[int, int] | None:
        index = bisect.bisect_right(self.starts, offset) - 1
        if index >= 0 and self.layout[index][0] <= offset < self.layout[index][1]:
            return self.layout[index][2], self.layout[index][3]
        return None


def locate(layout: list[LayoutEntry], offset: int) -> tuple[int, int] | None:
    """(page, line) of the character at `offset`, or None (a newline)."""
    return Locator(layout).locate(offset)


# -- line numbers ---------------------------------------------------------------------


@dataclass
class _Line:
    text: str
    page: int
    line: int
    numbered: bool


def _strip_line_numbers(pages: list[list[str]]) -> list[list[_Line]]:
    # Normalized here, before any offset exists, so the text never changes later.
    texts = [[t for t in (" ".join(normalize_text(raw).split()) for raw in page) if t] for page in pages]
    chains = [_page_chain(page) for page in texts]
    sides = Counter(side for _chain, side in chains if side)
    if sides:
        # A short last page may number only a line or two; once the document is known
        # to be numbered in one margin, a run from 1 in that margin is enough.
        side = sides.most_common(1)[0][0]
        chains = [
            (chain, found) if found else _short_chain(page, side)
            for page, (chain, found) in zip(texts, chains, strict=True)
        ]
    return [
        _lines(page, number, *chain) for number, (page, chain) in enumerate(zip(texts, chains, strict=True), start=1)
    ]


_SIDES = {"leading": _LEADING_NUMBER, "trailing": _TRAILING_NUMBER}


def _page_chain(texts: list[str]) -> tuple[dict[int, int], str | None]:
    """The page's line-number column, as ({line index: number}, side) or ({}, None)."""
    leading = _number_chain([_number(_LEADING_NUMBER, t) for t in texts])
    trailing = _number_chain([_number(_TRAILING_NUMBER, t) for t in texts])
    chain, side = (leading, "leading") if len(leading) >= len(trailing) else (trailing, "trailing")
    if len(chain) < max(_MIN_NUMBERED_LINES, _MIN_NUMBERED_SHARE * len(texts)):
        return {}, None
    return chain, side


def _short_chain(texts: list[str], side: str) -> tuple[dict[int, int], str | None]:
    chain = _number_chain([_number(_SIDES[side], t) for t in texts])
    return (chain, side) if chain and min(chain.values()) == 1 else ({}, None)


def _lines(texts: list[str], page: int, chain: dict[int, int], side: str | None) -> list[_Line]:
    lines = []
    for index, text in enumerate(texts):
        if side and index in chain:
            lines.append(_Line(_SIDES[side].sub("", text, count=1).strip(), page, chain[index], True))
        else:
            lines.append(_Line(text, page, index + 1, False))
    return lines


def _number(pattern: re.Pattern, text: str) -> int | None:
    match = pattern.search(text)
    return int(match.group(1)) if match else None


def _number_chain(values: list[int | None]) -> dict[int, int]:
    """The longest run of consecutive numbers (n, n+1, …) in line order, as
    {line index: number}. Of equally long runs the tightest wins, so that a page
    number "1" above line "1" is not taken for the first line number; then the
    one that starts first.

    Linear in the number of lines: the run from a line follows the first later
    line holding the next number (taking the first is never worse), so one pass
    from the bottom gives every line's run length and last line. Trying every
    start and scanning forward was quadratic: a crafted page of numbered lines
    took minutes."""
    following: list[int | None] = [None] * len(values)
    length = [0] * len(values)
    last = [0] * len(values)
    first_below: dict[int, int] = {}
    for index in range(len(values) - 1, -1, -1):
        value = values[index]
        if value is None:
            continue
        successor = first_below.get(value + 1)
        following[index] = successor
        length[index] = 1 + (length[successor] if successor is not None else 0)
        last[index] = last[successor] if successor is not None else index
        first_below[value] = index
    best_start: int | None = None
    for index, value in enumerate(values):
        if value is None:
            continue
        longer = best_start is None or length[index] > length[best_start]
        if longer or (length[index] == length[best_start] and last[index] - index < last[best_start] - best_start):
            best_start = index
    chain: dict[int, int] = {}
    cursor = best_start
    while cursor is not None:
        chain[cursor] = values[cursor]  # type: ignore[assignment]
        cursor = following[cursor]
    return chain


# -- furniture: repeated headers/footers, page numbers, INDEX --------------------------


def _drop_furniture(pages: list[list[_Line]]) -> list[list[Fragment]]:
    candidates = [_furniture_candidates(page) for page in pages]
    counts = Counter(key for page in candidates for key in {_furniture_key(line.text) for line in page})
    # A vendor's name or running header repeats on most pages; one page proves nothing.
    threshold = max(2, (len(pages) + 1) // 2)
    repeated = {key for key, count in counts.items() if count >= threshold}
    result = []
    for page, page_candidates in zip(pages, candidates, strict=True):
        edges = {id(line) for line in page_candidates}
        numbered = any(line.numbered for line in page)
        kept = []
        for index, line in enumerate(page):
            if id(line) in edges and _furniture_key(line.text) in repeated:
                continue
            at_edge = numbered or index in (0, len(page) - 1)
            if id(line) in edges and at_edge and _PAGE_NUMBER.match(line.text):
                continue
            if id(line) in edges and _is_marked_footer(line.text):
                continue
            # Numbered blank lines and caption rules ("_____ )") say nothing.
            if any(c.isalnum() for c in line.text):
                kept.append(Fragment(line.text, line.page, line.line))
        result.append(kept)
    return result


def _furniture_candidates(page: list[_Line]) -> list[_Line]:
    """Lines that may be furniture: on a numbered page every unnumbered line (the
    vendor never numbers its header), elsewhere only the top and bottom lines."""
    if any(line.numbered for line in page):
        return [line for line in page if not line.numbered]
    zone = page[:_FURNITURE_ZONE] + page[_FURNITURE_ZONE:][-_FURNITURE_ZONE:]
    # "INMATE SMITH: Yes." may open many unnumbered pages; it is still testimony.
    return [line for line in zone if not is_turn_start(line.text)]


# A page marker: a section's page in capitals ("DECISION PAGE 1") or a page of
# a count ("PAGE 3 OF 20", "Page 3 of 20"), at either end of a line that says
# something else too: the footer a CDCR decision page prints ("MARCUS DELGADO
# AK2960 MARCH 14, 2023 DECISION PAGE 1"). Such a footer may be printed on one
# page only, so it is known by its marker, not by repeating. "page 3" and "ON
# PAGE 3" are testimony ("turn to page 3"), and a marker alone is a page number
# or a heading ("DECISION PAGE"), left to the rules for those.
_MARKER = r"(?:(?P<section>[A-Z]{3,})\s+PAGE\s+\d{1,4}|PAGE\s+\d{1,4}\s+OF\s+\d{1,4}|Page\s+\d{1,4}\s+of\s+\d{1,4})"
_MARKED_FOOTERS = (re.compile(rf"^\S.*\s+{_MARKER}$"), re.compile(rf"^{_MARKER}\s+.*\S$"))
# Words before "PAGE n" that make it a reference in a sentence, not a marker.
_REFERENCE_WORDS = frozenset("SEE THE THIS THAT NEXT LAST ONE AND FROM INTO ONTO WITH".split())


def _is_marked_footer(text: str) -> bool:
    match = next((m for pattern in _MARKED_FOOTERS if (m := pattern.match(text))), None)
    if match is None or is_turn_start(text):
        return False
    section = match.group("section")
    return section is None or section not in _REFERENCE_WORDS


def _furniture_key(text: str) -> str:
    # Digits are masked so that "Page 3 of 40" and "Page 4 of 40" are the same line.
    return re.sub(r"\d+", "#", text.casefold())


def _is_index_page(page: list[Fragment]) -> bool:
    """An INDEX / table of contents page: a title near the top and page references."""
    if not any(_INDEX_TITLE.match(f.text) for f in page[:5]):
        return False
    dotted = sum(bool(_DOTTED_REF.search(f.text)) for f in page)
    referenced = sum(bool(_ENDS_WITH_REF.search(f.text)) for f in page)
    return dotted >= 2 or (referenced >= 3 and referenced >= 0.4 * len(page))


def _without_index(page: list[Fragment]) -> list[Fragment]:
    """The page without an INDEX that fills only part of it: CDCR transcripts print
    "CORRECTIONS TO THE DECISION HAVE BEEN MADE" above it, or put it on the cover
    after "Transcribed by:", so the title is not at the top and most lines are no
    references. From the title, the index runs over its "PAGE" heading, its
    entries (a title and a page number, or "--" for a section not reached) and a
    closing "--oOo--"; it is removed when it has at least two entries, one with
    a page number."""
    for start, fragment in enumerate(page):
        if not _INDEX_TITLE.match(fragment.text):
            continue
        end, entries, referenced = start + 1, 0, 0
        while end < len(page):
            text = page[end].text
            if _DOTTED_REF.search(text) or (_ENDS_WITH_REF.search(text) and not is_turn_start(text)):
                entries += 1
                referenced += 1
            elif _NO_PAGE_REF.search(text) and not is_turn_start(text):
                entries += 1
            elif not (_INDEX_HEADING.match(text) or _END_MARKER.match(text)):
                break
            end += 1
        # "--" also ends a sentence cut short ("I was going to --"): an index has
        # page numbers too.
        if entries >= 2 and referenced:
            return page[:start] + page[end:]
    return page


_INDEX_HEADING = re.compile(r"^(?:PAGES?|SECTION|[IVX]+)$", re.I)
# "--oOo--", "-o0o-": the mark that closes a section or the hearing.
_END_MARKER = re.compile(r"^[-\u2013\u2014\s]*o\s*[O0]\s*o[-\u2013\u2014\s]*$")


# -- utterances -------------------------------------------------------------------------

# A block is a paragraph (blank line around it); each row becomes one line of text
# and its fragments are joined on that line.
Row = list[Fragment]
Block = list[Row]


def _blocks(pages: list[list[Fragment]], cover: int) -> list[Block]:
    """Before the first speaker turn (cover, appearances…) and in documents with no
    turns at all, each printed line stays a line and each page is a block. From the
    first turn on, page breaks vanish and each turn is a block of one row, except
    in a section that is no testimony (a decision page, the transcriber's
    certificate, after "--oOo--"): it starts at its heading, as a block of its
    own, each printed line a row, until the next turn."""
    flat = [fragment for page in pages for fragment in page]
    start = next((i for i, f in enumerate(flat) if f.page > cover and _opens_transcript(f.text)), len(flat))
    blocks: list[Block] = [[[f] for f in page] for _, page in groupby(flat[:start], key=attrgetter("page"))]
    headings = _mixed_case(flat[start:])
    openers = _section_openers(flat[start:], headings)
    in_section = False
    for fragment in flat[start:]:
        if is_turn_start(fragment.text):
            blocks.append([[fragment]])
            in_section = False
        elif id(fragment) in openers:
            blocks.append([[fragment]])
            in_section = True
        elif in_section:
            blocks[-1].append([fragment])
        else:
            blocks[-1][0].append(fragment)
    return blocks


# Headings of the sections that close a transcript. A line of capitals that
# names one, with no sentence punctuation, is a heading, not testimony.
_SECTION_WORDS = re.compile(
    r"\b(?:DECISION|CERTIFICATE|CERTIFICATION|DECLARATION|TRANSCRIBER'?S?|REPORTER'?S?|ADJOURN\w*|ERRATA)\b"
)
_STAGE_END = re.compile(r"^\(.*\b(?:adjourn|conclude)\w*\b.*\)$", re.I)


def _mixed_case(fragments: list[Fragment]) -> bool:
    """Headings are told apart by their capitals, which only works when the
    testimony itself is not typed in capitals."""
    letters = [c for f in fragments[:400] for c in f.text if c.isalpha()]
    return sum(c.islower() for c in letters) >= 0.2 * len(letters) if letters else False


def _section_openers(fragments: list[Fragment], headings: bool) -> set[int]:
    """The fragments (by id) that open a section: each section break, or the top
    of its page when the lines above it there are capitals too (a decision page
    opens with "CALIFORNIA BOARD OF PAROLE HEARINGS" above "DECISION PAGE")."""
    openers: set[int] = set()
    for _, group in groupby(fragments, key=attrgetter("page")):
        page = list(group)
        for index, fragment in enumerate(page):
            if not _is_section_break(fragment.text, headings):
                continue
            top = index
            if index < _FURNITURE_ZONE and all(_is_caption(f.text) for f in page[:index]):
                top = 0
            openers.add(id(page[top]))
    return openers


def _is_caption(text: str) -> bool:
    return not is_turn_start(text) and not any(c.islower() for c in text) and text[-1:] not in ".?!,;"


def _is_section_break(text: str, headings: bool) -> bool:
    if _END_MARKER.match(text) or _STAGE_END.match(text):
        return True
    if not headings or any(c.islower() for c in text) or text[-1:] in ".?!,;":
        return False
    return len(text.split()) <= 12 and bool(_SECTION_WORDS.search(text))


def _opens_transcript(text: str) -> bool:
    # "PANEL PRESENT:" or "APPEARANCES:" alone on a line is a heading, not a turn.
    return is_turn_start(text) and bool(_SPEAKER.sub("", text, count=1).strip() or _QA_TURN.match(text))


def _assemble(blocks: list[Block]) -> tuple[str, list[LayoutEntry]]:
    parts: list[str] = []
    layout: list[LayoutEntry] = []
    offset = 0
    for block_index, block in enumerate(blocks):
        if block_index:
            parts.append("\n\n")
            offset += 2
        for row_index, row in enumerate(block):
            if row_index:
                parts.append("\n")
                offset += 1
            for piece, fragment in _join(row):
                parts.append(piece)
                layout.append((offset, offset + len(piece), fragment.page, fragment.line))
                offset += len(piece)
    text = "".join(parts)
    return (text + "\n" if text else text), layout


def _join(row: Row) -> list[tuple[str, Fragment]]:
    """The pieces of one output line. The space that joins two printed lines belongs
    to the first one, so every character stays on exactly one printed line."""
    pieces: list[tuple[str, Fragment]] = []
    for index, fragment in enumerate(row):
        text = fragment.text
        following = row[index + 1].text if index + 1 < len(row) else None
        if following is None:
            pieces.append((text, fragment))
        elif _HYPHENATED.search(text) and following[:1].islower():
            # "Hern-" + "andez": a word broken by the line end, not a compound.
            pieces.append((text[:-1], fragment))
        elif _HYPHENATED.search(text) and following[:1].isupper():
            # "Garcia-" + "Lopez", "H-E-R-" + "N-A-N": a compound or a spelled name.
            pieces.append((text, fragment))
        else:
            pieces.append((text + " ", fragment))
    return pieces
