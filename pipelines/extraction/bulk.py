"""Bulk input: one uploaded file (a zip, a CSV, or a single transcript) becomes the
list of items to ingest. Each item fails alone with a reason; nothing here touches
the database, so the rules can be tested (and reused by the command line) in plain
Python.

Choices, so that an archive can never hurt the server:
- path-traversal names (`../x.txt`, `/etc/x`, `C:\\x`) are refused per member, not
  sanitized: a hostile name is a sign the archive was not made by the uploader's
  tools, and nothing is ever written to disk under a member's name anyway;
- nested archives are refused per member ("nested archives are not supported");
- sizes are checked from the central directory before anything is inflated, and
  again while reading, so a zip bomb stops before it costs memory.
"""

import csv
import io
import re
import stat
import zipfile
from dataclasses import dataclass
from pathlib import PurePath, PurePosixPath

from pipelines.extraction.text import ExtractionError, decode_text

MB = 1024 * 1024

# Files that operating systems add to folders and archives behind the user's back
# (Finder's resource forks, thumbnail caches): skipped silently, never reported.
SYSTEM_FILE_NAMES = frozenset({".DS_Store", "Thumbs.db", "desktop.ini"})
SYSTEM_DIRECTORIES = frozenset({"__MACOSX"})


@dataclass(frozen=True)
class BulkLimits:
    max_members: int = 1000  # files in one archive, or rows in one CSV
    max_total_bytes: int = 200 * MB  # everything one archive expands to
    max_member_bytes: int = 50 * MB  # one file inside an archive, or one CSV
    max_ratio: float = 100.0  # uncompressed / compressed size of one member
    # Short, repetitive text compresses far beyond 100:1 and is harmless; the ratio
    # only matters once there is enough data to hurt.
    ratio_min_bytes: int = 1 * MB

    @classmethod
    def for_file_limit(cls, max_file_bytes: int) -> "BulkLimits":
        """Limits consistent with a per-file upload limit: a member may be as large
        as an uploaded file, an archive as large as four of them."""
        return cls(max_member_bytes=max_file_bytes, max_total_bytes=4 * max_file_bytes)


@dataclass(frozen=True)
class CsvOptions:
    text_column: str = "text"
    id_column: str | None = None


@dataclass(frozen=True)
class UploadItem:
    """One file to ingest. `error` is set (and `data` is None) when it failed alone;
    the error is a reason without the name, which is in `name`."""

    name: str
    data: bytes | None
    error: str | None = None


def expand_upload(
    name: str, data: bytes, limits: BulkLimits, csv_options: CsvOptions | None = None
) -> list[UploadItem]:
    extension = PurePath(name).suffix.lower()
    if extension == ".zip":
        return _expand_zip(name, data, limits, csv_options or CsvOptions())
    if extension == ".csv":
        return _expand_csv(name, data, limits, csv_options or CsvOptions())
    # Everything else goes on unchanged; the normal path validates and extracts it.
    return [UploadItem(name, data)]


def is_system_file(path: str) -> bool:
    parts = PurePosixPath(path.replace("\\", "/")).parts
    return bool(parts) and (parts[-1] in SYSTEM_FILE_NAMES or any(part in SYSTEM_DIRECTORIES for part in parts[:-1]))


def _megabytes(size: int) -> str:
    return f"{size / MB:.0f} MB" if size >= MB else f"{size:,} bytes"


def _failed(name: str, reason: str) -> list[UploadItem]:
    return [UploadItem(name, None, reason)]


# --- zip ---------------------------------------------------------------------


def _expand_zip(name: str, data: bytes, limits: BulkLimits, csv_options: CsvOptions) -> list[UploadItem]:
    if not data:
        return _failed(name, "the file is empty.")
    if len(data) > limits.max_total_bytes:
        return _failed(name, f"the archive is larger than {_megabytes(limits.max_total_bytes)}.")
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        members = [m for m in archive.infolist() if not m.is_dir() and not is_system_file(m.filename)]
    except Exception:  # zipfile raises many types on hostile input (IndexError, struct.error…)
        return _failed(name, "the zip archive is damaged or not a zip file.")
    with archive:
        if len(members) > limits.max_members:
            return _failed(name, f"the archive holds {len(members):,} files; the limit is {limits.max_members:,}.")
        # The central directory is checked before anything is inflated; reading is
        # bounded again below in case the declared sizes lie.
        declared = sum(m.file_size for m in members)
        if declared > limits.max_total_bytes:
            return _failed(
                name,
                f"the archive would expand to {declared:,} bytes, more than the "
                f"{_megabytes(limits.max_total_bytes)} limit; refused as a possible zip bomb.",
            )
        items: list[UploadItem] = []
        budget = limits.max_total_bytes
        for member in sorted(members, key=lambda m: m.filename):
            item_name = f"{name}/{member.filename}"
            reason = _member_refusal(member, limits)
            if reason is not None:
                items.append(UploadItem(item_name, None, reason))
                continue
            try:
                content = _read_bounded(archive, member, min(limits.max_member_bytes, budget))
            except _TooLarge:
                items.append(UploadItem(item_name, None, "expands beyond the declared size; refused as a zip bomb."))
                continue
            except Exception:  # as above: a damaged member fails alone, whatever zipfile raises
                items.append(UploadItem(item_name, None, "could not be extracted; the archive is damaged."))
                continue
            budget -= len(content)
            if PurePath(member.filename).suffix.lower() == ".csv":
                items.extend(_expand_csv(item_name, content, limits, csv_options))
            else:
                items.append(UploadItem(item_name, content))
        return items


def _member_refusal(member: zipfile.ZipInfo, limits: BulkLimits) -> str | None:
    if _is_unsafe_path(member.filename):
        return "unsafe path in the archive (absolute, or going up with '..'); refused."
    if stat.S_ISLNK(member.external_attr >> 16):
        return "symbolic links in archives are not supported."
    if PurePath(member.filename).suffix.lower() == ".zip":
        return "nested archives are not supported; unpack it and upload its files."
    if member.flag_bits & 0x1:
        return "the file is password-protected in the archive."
    if member.file_size > limits.max_member_bytes:
        return f"larger than {_megabytes(limits.max_member_bytes)} once uncompressed."
    ratio = member.file_size / max(member.compress_size, 1)
    if member.file_size >= limits.ratio_min_bytes and ratio > limits.max_ratio:
        return f"compressed {ratio:,.0f}:1 (the limit is {limits.max_ratio:,.0f}:1); refused as a possible zip bomb."
    return None


_DRIVE = re.compile(r"^[A-Za-z]:")


def _is_unsafe_path(filename: str) -> bool:
    path = filename.replace("\\", "/")
    return path.startswith("/") or bool(_DRIVE.match(path)) or ".." in PurePosixPath(path).parts


class _TooLarge(Exception):
    pass


def _read_bounded(archive: zipfile.ZipFile, member: zipfile.ZipInfo, limit: int) -> bytes:
    with archive.open(member) as handle:
        content = handle.read(limit + 1)
    if len(content) > limit:
        raise _TooLarge
    return content


# --- csv ---------------------------------------------------------------------


def _expand_csv(name: str, data: bytes, limits: BulkLimits, options: CsvOptions) -> list[UploadItem]:
    if not options.text_column:
        return _failed(name, "choose the CSV column that holds the text.")
    if len(data) > limits.max_member_bytes:
        return _failed(name, f"the CSV file is larger than {_megabytes(limits.max_member_bytes)}.")
    try:
        text = decode_text(data)
    except ExtractionError as exc:
        return _failed(name, str(exc))
    if not text.strip():
        return _failed(name, "the CSV file is empty.")
    header_line = text.split("\n", 1)[0]
    delimiter = _delimiter(header_line, options.text_column)
    # A transcript in one cell easily exceeds csv's default 128 KB field limit. The
    # limit is process-wide, so it is only ever raised, never lowered.
    csv.field_size_limit(max(csv.field_size_limit(), limits.max_member_bytes))
    try:
        rows = list(csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=True))
    except csv.Error as exc:
        return _failed(name, f"not a valid CSV file ({exc}).")
    header = [cell.strip() for cell in rows[0]]
    missing = [c for c in (options.text_column, options.id_column) if c and c not in header]
    if missing:
        return _failed(
            name, f"no column named “{missing[0]}”; the columns are: {', '.join(h for h in header if h) or '(none)'}."
        )
    records = [(number, row) for number, row in enumerate(rows[1:], start=1) if any(cell.strip() for cell in row)]
    if not records:
        return _failed(name, "the CSV file has no rows under its header.")
    if len(records) > limits.max_members:
        return _failed(name, f"the CSV file holds {len(records):,} rows; the limit is {limits.max_members:,}.")
    return [_csv_item(name, number, row, header, options) for number, row in records]


def _delimiter(header_line: str, text_column: str) -> str:
    """Spreadsheets in many locales write `;` (or tabs); the delimiter is the one
    that makes the chosen column appear in the header."""
    for candidate in (",", ";", "\t"):
        try:
            cells = next(csv.reader([header_line], delimiter=candidate))
        except (csv.Error, StopIteration):
            continue
        if text_column in (cell.strip() for cell in cells):
            return candidate
    return ","


def _csv_item(name: str, number: int, row: list[str], header: list[str], options: CsvOptions) -> UploadItem:
    source = PurePath(name)

    def item_name(label: str) -> str:
        return str(source.with_name(f"{source.stem}_{label}.txt"))

    # Rows are numbered from 1 after the header; a failed row keeps its number in
    # its name, so that it is easy to find in the spreadsheet.
    if len(row) != len(header):
        return UploadItem(
            item_name(str(number)), None, f"row {number}: {len(row)} fields, the header has {len(header)}."
        )
    cells = dict(zip(header, row, strict=True))
    label = str(number)
    if options.id_column:
        label = _safe_label(cells[options.id_column])
        if not label:
            return UploadItem(item_name(str(number)), None, f"row {number}: empty {options.id_column}.")
    text = cells[options.text_column]
    if not text.strip():
        return UploadItem(item_name(label), None, f"row {number}: empty text.")
    return UploadItem(item_name(label), text.encode("utf-8"))


def _safe_label(value: str) -> str:
    # The id becomes part of a file name: keep it readable and free of separators.
    return re.sub(r"[^\w.-]+", "_", value.strip()).strip("._")[:100]
