"""PDF text extraction with pdfplumber: each page's text lines in reading order,
rebuilt by the transcript layout parser into text plus a layout map.

A PDF is hostile input: a 0.5 MB file can hold a content stream that inflates to
500 MB, and pdfminer inflates whole streams in memory. So the parse runs under
two guards (`ExtractionLimits`):
- every stream of the file (pages, forms, fonts and /ToUnicode maps, images,
  object streams; an encrypted file's after decryption with the empty password)
  is inflated first in bounded steps and counted (`pdf_budget`): one past
  MAX_PDF_STREAM_BYTES, or a file past MAX_PDF_INFLATED_MB in all, is refused
  with a message naming the limit, before pdfminer sees it;
- the whole parse runs in a child process (`pdf_sandbox`) with an address-space
  and CPU-time limit, so that whatever slips past the first guard kills that
  child, never the worker or the web process.
"""

import io
import json
import os
import re
import signal
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from pipelines.extraction.limits import DEFAULT_LIMITS, ExtractionLimits, LimitExceeded, size, too_many_chars
from pipelines.extraction.pdf_budget import check_inflated_size
from pipelines.extraction.text import ExtractionError
from pipelines.extraction.transcript_layout import Extraction, build_extraction

NO_TEXT_LAYER = "The PDF has no text layer: OCR needed (it looks like a scanned image)."

DEFAULT_MAX_PAGES = DEFAULT_LIMITS.max_pdf_pages
_ROOT = Path(__file__).resolve().parents[2]


def extract_pdf(data: bytes, limits: ExtractionLimits | int = DEFAULT_LIMITS) -> Extraction:
    if isinstance(limits, int):  # the former signature: a page limit alone
        limits = ExtractionLimits(max_pdf_pages=limits)
    if limits.sandbox:
        return _extract_in_child(data, limits)
    return extract_pdf_here(data, limits)


def extract_pdf_here(data: bytes, limits: ExtractionLimits) -> Extraction:
    """The extraction itself, in this process (the child runs this)."""
    extraction = build_extraction(_page_lines(data, limits))
    # Page numbers alone (stamped on a scan) are no text layer either.
    if not extraction.text.strip():
        raise ExtractionError(NO_TEXT_LAYER)
    if len(extraction.text) > limits.max_document_chars:
        raise too_many_chars(len(extraction.text), limits.max_document_chars)
    return extraction


# -- the child process ------------------------------------------------------------------


def _extract_in_child(data: bytes, limits: ExtractionLimits) -> Extraction:
    arguments = json.dumps(
        {
            "max_pdf_pages": limits.max_pdf_pages,
            "max_pdf_stream_bytes": limits.max_pdf_stream_bytes,
            "max_pdf_inflated_bytes": limits.max_pdf_inflated_bytes,
            "max_pdf_parse_memory_bytes": limits.max_pdf_parse_memory_bytes,
            "max_pdf_parse_seconds": limits.max_pdf_parse_seconds,
            "max_document_chars": limits.max_document_chars,
        }
    )
    env = {**os.environ, "PYTHONPATH": str(_ROOT)}
    try:
        done = subprocess.run(
            [sys.executable, "-m", "pipelines.extraction.pdf_sandbox", arguments],
            input=data,
            capture_output=True,
            cwd=_ROOT,
            env=env,
            # CPU time is limited inside; this bounds a child that sleeps or blocks.
            timeout=limits.max_pdf_parse_seconds * 2 + 30,
            check=False,
        )
    except subprocess.TimeoutExpired as exc:
        raise LimitExceeded(_time_message(limits)) from exc
    if done.returncode == 0:
        try:
            payload = json.loads(done.stdout)
        except ValueError as exc:
            raise ExtractionError(
                "This PDF could not be read: the reader stopped with a damaged answer. Upload it again."
            ) from exc
        if "error" in payload:
            kind = LimitExceeded if payload.get("limit") else ExtractionError
            raise kind(payload["error"])
        return Extraction(
            text=payload["text"],
            layout=[tuple(entry) for entry in payload["layout"]],
            pages=payload["pages"],
            metadata=payload["metadata"],
        )
    if done.returncode in (-signal.SIGXCPU, -signal.SIGKILL):
        raise LimitExceeded(_time_message(limits))
    # Out of address space: malloc failed (MemoryError) or the runtime aborted.
    raise LimitExceeded(_memory_message(limits))


def _memory_message(limits: ExtractionLimits) -> str:
    return (
        f"Reading the PDF needed more than {size(limits.max_pdf_parse_memory_bytes)} of memory "
        "(MAX_PDF_PARSE_MEMORY_MB); refused as a possible decompression bomb."
    )


def _time_message(limits: ExtractionLimits) -> str:
    return (
        f"Reading the PDF took more than {limits.max_pdf_parse_seconds:,} seconds of processing "
        "(MAX_PDF_PARSE_SECONDS); refused."
    )


def child_main(arguments: str, data: bytes) -> dict:
    """What the child prints: the extraction, or {"error", "limit"}."""
    limits = ExtractionLimits(**json.loads(arguments), sandbox=False)
    try:
        extraction = extract_pdf_here(data, limits)
    except LimitExceeded as exc:
        return {"error": str(exc), "limit": True}
    except ExtractionError as exc:
        return {"error": str(exc), "limit": False}
    except MemoryError:
        return {"error": _memory_message(limits), "limit": True}
    return {
        "text": extraction.text,
        "layout": [list(entry) for entry in extraction.layout],
        "pages": extraction.pages,
        "metadata": extraction.metadata,
    }


# -- parsing ----------------------------------------------------------------------------


def _check_streams(data: bytes, limits: ExtractionLimits) -> None:
    """Count what every stream of the file inflates to, in bounded steps, before
    pdfminer (which inflates whole streams at once) sees any; then the page count."""
    pages = check_inflated_size(data, limits).pages
    if pages is not None and pages > limits.max_pdf_pages:
        raise _too_many_pages(pages, limits)


def _too_many_pages(pages: int, limits: ExtractionLimits) -> LimitExceeded:
    return LimitExceeded(
        f"The PDF has {pages} pages; the limit is {limits.max_pdf_pages} (MAX_PDF_PAGES). Split it into volumes."
    )


def _page_lines(data: bytes, limits: ExtractionLimits) -> list[list[str]]:
    # Imported here: only PDF uploads need pdfplumber (a tenth of a second to import).
    import pdfplumber
    from pdfminer.pdfparser import PDFSyntaxError

    _check_streams(data, limits)
    page_number = 0  # the page being read when the parser gave up (0: while opening)
    try:
        with pdfplumber.open(io.BytesIO(data)) as pdf:
            # Checked before any page is parsed: a huge PDF fails fast, not after minutes.
            if len(pdf.pages) > limits.max_pdf_pages:
                raise _too_many_pages(len(pdf.pages), limits)
            pages = []
            chars = 0
            for page in pdf.pages:
                page_number += 1
                lines = _reading_order(page)
                chars += sum(len(line) + 1 for line in lines)
                if chars > limits.max_document_chars * 2:
                    # Counted while reading: no need to parse the rest to know.
                    raise too_many_chars(f"more than {limits.max_document_chars:,}", limits.max_document_chars)
                pages.append(lines)
                # pdfplumber caches every parsed object of a page; without this a
                # 100-page transcript holds hundreds of MB until the file is closed.
                page.close()
            return pages
    except ExtractionError:
        raise
    except MemoryError:
        raise
    except (PDFSyntaxError, ValueError, KeyError, TypeError) as exc:
        raise ExtractionError(damaged(page_number)) from exc
    except Exception as exc:  # pdfminer raises many private types for broken files
        if _ran_out_of_memory(exc):
            # pdfplumber wraps pdfminer's MemoryError: a bomb, not a damaged file.
            raise MemoryError from exc
        if _is_password_error(exc):
            raise ExtractionError(PASSWORD_PROTECTED) from exc
        raise ExtractionError(damaged(page_number)) from exc


# What the reviewer reads on the corpus page: what is wrong and what to do, in their
# words; the parser's exception type means nothing to them (it stays in the chain).
PASSWORD_PROTECTED = (
    "This PDF is password-protected (encrypted): open it, save a copy without the password, and upload that copy."
)


def damaged(page_number: int) -> str:
    if page_number:
        return (
            f"This PDF is damaged or encrypted: page {page_number} could not be read. "
            "Upload a repaired copy (re-save or print it to PDF)."
        )
    return (
        "This PDF could not be read: it is damaged or encrypted (its structure could not be opened). "
        "Upload a repaired copy (re-save or print it to PDF)."
    )


# -- two-column captions -----------------------------------------------------------------

# A caption box column: ")" printed on this many rows at one x position.
_MIN_CAPTION_ROWS = 2
_CAPTION_X_TOLERANCE = 4.0


def _reading_order(page) -> list[str]:
    """The page's text lines. A cover's caption box ("In the matter of the Parole
    ) CDCR Number: …") is two columns separated by a column of ")": pdfplumber
    reads across it and interleaves them, so the box is read column by column
    (left, then right), with the text above and below it as usual. A cover
    printed without the ")" column is split at the wide gap between its columns
    (`_gap_columns`)."""
    caption = _caption_box(page)
    if caption is None and getattr(page, "page_number", None) == 1:
        caption = _gap_columns(page)
    if caption is None:
        return _lines(page)
    top, bottom, left_edge, right_edge = caption
    width, height = float(page.width), float(page.height)
    parts = [
        page.within_bbox((0, 0, width, top), strict=False),
        page.within_bbox((0, top, left_edge, bottom), strict=False),
        page.within_bbox((right_edge, top, width, bottom), strict=False),
        page.within_bbox((0, bottom, width, height), strict=False),
    ]
    return [line for part in parts for line in _lines(part)]


def _lines(page) -> list[str]:
    return (page.extract_text() or "").split("\n")


def _caption_box(page) -> tuple[float, float, float, float] | None:
    """(top, bottom, x0, x1) of the ")" column of a caption box, or None."""
    parens = [c for c in page.chars if c["text"] == ")"]
    if len(parens) < _MIN_CAPTION_ROWS:
        return None
    # Parentheses closing a phrase "(like this)" sit anywhere; the caption's are
    # stacked: many at one x, each alone (spaces around it) on its row.
    words = page.extract_words()
    lone = [w for w in words if w["text"] == ")"]
    best: list[dict] = []
    for anchor in lone:
        column = [w for w in lone if abs(w["x0"] - anchor["x0"]) <= _CAPTION_X_TOLERANCE]
        if len(column) > len(best):
            best = column
    rows = {round(w["top"]) for w in best}
    if len(rows) < _MIN_CAPTION_ROWS:
        return None
    top = min(w["top"] for w in best) - 1
    bottom = max(w["bottom"] for w in best) + 1
    x0 = min(w["x0"] for w in best) - 0.5
    x1 = max(w["x1"] for w in best) + 0.5
    # Both sides must hold text on the box's rows, or this is no two-column box.
    inside = [w for w in words if w["top"] >= top and w["bottom"] <= bottom and w["text"] != ")"]
    if not any(w["x1"] <= x0 for w in inside) or not any(w["x0"] >= x1 for w in inside):
        return None
    return top, bottom, x0, x1


# -- two columns apart by a wide gap (a cover with no ")" column) ---------------------------

# The blank between two columns, in points: half an inch, about seven spaces of
# 11-point type. Words of one line are never this far apart unless tabbed into a
# column; a justified line stretches its spaces to a few points at most.
COLUMN_GAP = 36.0
# Words whose tops are this close (points) share a row.
_ROW_TOLERANCE = 3.0
# A column's lines start at one x (left-aligned), give or take this many points.
_COLUMN_X_TOLERANCE = 6.0
# Rows of one block follow each other at most this many row heights apart (a
# blank line or two inside the caption, not the space between two sections).
_MAX_ROW_STEP = 3.0
# A block is two columns when its left column holds at least this many lines:
# then the right column's text lands in the middle of a left column's phrase.
_MIN_LEFT_ROWS = 2
# "Proceedings        3", "Case Factors      --": an index's page reference
# tabbed to the right margin is no column.
_PAGE_REFERENCE = re.compile(r"^(?:\d{1,4}|[-\u2013\u2014]+|(?:\.\s*)+\d{0,4})$")


@dataclass
class _Row:
    top: float
    bottom: float
    words: list[dict]
    left_x: float  # where its first word starts
    right_x: float | None  # where the text after its widest gap starts, if that gap is a column's


def _rows(words: list[dict]) -> list[_Row]:
    rows: list[list[dict]] = []
    for word in sorted(words, key=lambda w: (w["top"], w["x0"])):
        if rows and abs(word["top"] - rows[-1][0]["top"]) <= _ROW_TOLERANCE:
            rows[-1].append(word)
        else:
            rows.append([word])
    result = []
    for row in rows:
        row.sort(key=lambda w: w["x0"])
        right_x = None
        gaps = [(row[i + 1]["x0"] - row[i]["x1"], i + 1) for i in range(len(row) - 1)]
        if gaps:
            gap, at = max(gaps)
            right = " ".join(w["text"] for w in row[at:])
            if gap >= COLUMN_GAP and not _PAGE_REFERENCE.match(right):
                right_x = row[at]["x0"]
        top, bottom = min(w["top"] for w in row), max(w["bottom"] for w in row)
        result.append(_Row(top, bottom, row, row[0]["x0"], right_x))
    return result


def _fits(row: _Row, left_x: float, right_x: float) -> str | None:
    """How `row` fits a block whose columns start at left_x and right_x: "both",
    "left", "right", or None (it crosses the gap or starts elsewhere)."""
    if row.right_x is not None:
        aligned = abs(row.left_x - left_x) <= _COLUMN_X_TOLERANCE and abs(row.right_x - right_x) <= _COLUMN_X_TOLERANCE
        return "both" if aligned else None
    if all(w["x1"] < right_x - _COLUMN_X_TOLERANCE for w in row.words):
        return "left" if abs(row.left_x - left_x) <= _COLUMN_X_TOLERANCE else None
    if abs(row.left_x - right_x) <= _COLUMN_X_TOLERANCE:
        return "right"
    return None


def _gap_columns(page) -> tuple[float, float, float, float] | None:
    """(top, bottom, x0, x1) of a block of two left-aligned columns set apart by a
    gap of COLUMN_GAP or more ("In the matter of the Parole      CDCR Number:
    AK2960" over "Consideration Hearing of:"), or None. The block grows from a
    row with text on both sides of the gap, up and down, over the rows that keep
    to one column or both and follow at most _MAX_ROW_STEP row heights apart;
    a centred title, an index line or a paragraph stops it."""
    rows = _rows(page.extract_words())
    for seed, row in enumerate(rows):
        if row.right_x is None:
            continue
        left_x, right_x = row.left_x, row.right_x
        step = _MAX_ROW_STEP * (row.bottom - row.top)
        first = last = seed
        while first > 0 and rows[first].top - rows[first - 1].top <= step and _fits(rows[first - 1], left_x, right_x):
            first -= 1
        while (
            last + 1 < len(rows)
            and rows[last + 1].top - rows[last].top <= step
            and _fits(rows[last + 1], left_x, right_x)
        ):
            last += 1
        block = rows[first : last + 1]
        if sum(_fits(r, left_x, right_x) in ("both", "left") for r in block) < _MIN_LEFT_ROWS:
            continue
        top = min(r.top for r in block) - 1
        bottom = max(r.bottom for r in block) + 1
        return top, bottom, right_x - 1, right_x - 1
    return None


def _ran_out_of_memory(exc: BaseException | None) -> bool:
    while exc is not None:
        if isinstance(exc, MemoryError):
            return True
        exc = exc.__cause__ or exc.__context__
    return False


def _is_password_error(exc: BaseException | None) -> bool:
    # pdfplumber wraps pdfminer's PDFPasswordIncorrect, so look down the chain too.
    while exc is not None:
        if "password" in str(exc).lower() or type(exc).__name__ == "PDFPasswordIncorrect":
            return True
        exc = exc.__cause__ or exc.__context__
    return False
