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

import codecs
import csv
import io
import re
import stat
import zipfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import PurePath, PurePosixPath
from typing import BinaryIO

from pipelines.extraction.text import ExtractionError, normalize_text

MB = 1024 * 1024

# Files that operating systems add to folders and archives behind the user's back
# (Finder's resource forks, thumbnail caches): skipped silently, never reported.
SYSTEM_FILE_NAMES = frozenset({".DS_Store", "Thumbs.db", "desktop.ini"})
SYSTEM_DIRECTORIES = frozenset({"__MACOSX"})


@dataclass(frozen=True)
class BulkLimits:
    # Documents one upload may become: files, archive members, CSV rows (members of
    # members included), across all the files of one upload (MAX_UPLOAD_DOCUMENTS).
    max_members: int = 1000
    max_total_bytes: int = 200 * MB  # everything one archive expands to
    max_member_bytes: int = 50 * MB  # one file inside an archive, or one CSV
    max_ratio: float = 100.0  # uncompressed / compressed size of one member
    # Short, repetitive text compresses far beyond 100:1 and is harmless; the ratio
    # only matters once there is enough data to hurt.
    ratio_min_bytes: int = 1 * MB
    # Characters of one CSV cell (MAX_CSV_CELL_CHARS): a row is a document.
    max_cell_chars: int = 3_000_000

    @classmethod
    def for_file_limit(cls, max_file_bytes: int, **others) -> "BulkLimits":
        """Limits consistent with a per-file upload limit: a member may be as large
        as an uploaded file, an archive as large as four of them."""
        return cls(max_member_bytes=max_file_bytes, max_total_bytes=4 * max_file_bytes, **others)


class UploadBudget:
    """How many more documents this upload may become. One budget is shared by
    every file of an upload and everything inside them (files, archive members,
    CSV rows), so no mix of members turns a few kilobytes into thousands of
    documents. `recent` is what the same uploader stored within the last
    `window_seconds` (UPLOAD_BUDGET_WINDOW_SECONDS): uploads repeated within that
    window share the one cap instead of each getting a new one."""

    def __init__(self, limit: int, recent: int = 0, window_seconds: int = 0) -> None:
        self.limit = limit
        self.recent = min(max(recent, 0), limit)
        self.window_seconds = window_seconds
        self.left = limit - self.recent

    def take(self, count: int = 1) -> bool:
        if count > self.left:
            return False
        self.left -= count
        return True

    def _limit(self) -> str:
        limit = f"the limit is {self.limit:,} documents per upload (MAX_UPLOAD_DOCUMENTS)"
        if self.recent:
            limit += (
                f", and you stored {self.recent:,} in the last {self.window_seconds:,} seconds "
                "(UPLOAD_BUDGET_WINDOW_SECONDS)"
            )
        return limit

    def refusal(self, what: str, count: int) -> str:
        holds = f"{what} holds {count:,} {'rows' if 'CSV' in what else 'files'}"
        if self.left == self.limit:
            return f"{holds}; {self._limit()}."
        return f"{holds}; {self._limit()}, and {self.left:,} more fit in this one."

    def used_up(self) -> str:
        """Why one file was not stored: the budget was spent by what came before."""
        later = f" or wait {self.window_seconds:,} seconds" if self.window_seconds else ""
        return f"not stored: {self._limit()}, and none are left; upload it in another upload{later}."


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


Source = bytes | BinaryIO


def expand_upload(
    name: str,
    data: Source,
    limits: BulkLimits,
    csv_options: CsvOptions | None = None,
    budget: UploadBudget | None = None,
) -> list[UploadItem]:
    return list(iter_upload(name, data, limits, csv_options, budget))


def iter_upload(
    name: str,
    data: Source,
    limits: BulkLimits,
    csv_options: CsvOptions | None = None,
    budget: UploadBudget | None = None,
) -> Iterator[UploadItem]:
    """The items of one uploaded file, one at a time: the caller stores each before
    the next is read, so an archive never sits in memory expanded. `data` may be
    bytes or a seekable binary file (an upload spooled to disk)."""
    budget = budget or UploadBudget(limits.max_members)
    extension = PurePath(name).suffix.lower()
    if extension == ".zip":
        yield from _expand_zip(name, _as_file(data), limits, csv_options or CsvOptions(), budget)
    elif extension == ".csv":
        yield from _expand_csv(name, _as_file(data), limits, csv_options or CsvOptions(), budget)
    elif not budget.take():
        yield UploadItem(name, None, budget.used_up())
    else:
        # Everything else goes on unchanged; the normal path validates and extracts it.
        yield UploadItem(name, data if isinstance(data, bytes) else _read_all(data))


def _as_file(data: Source) -> BinaryIO:
    if isinstance(data, bytes):
        return io.BytesIO(data)
    data.seek(0)
    return data


def _read_all(handle: BinaryIO) -> bytes:
    handle.seek(0)
    return handle.read()


def _length(handle: BinaryIO) -> int:
    handle.seek(0, io.SEEK_END)
    size = handle.tell()
    handle.seek(0)
    return size


def is_system_file(path: str) -> bool:
    parts = PurePosixPath(path.replace("\\", "/")).parts
    return bool(parts) and (parts[-1] in SYSTEM_FILE_NAMES or any(part in SYSTEM_DIRECTORIES for part in parts[:-1]))


def _megabytes(size: int) -> str:
    return f"{size / MB:.0f} MB" if size >= MB else f"{size:,} bytes"


# --- zip ---------------------------------------------------------------------


def _expand_zip(
    name: str, data: BinaryIO, limits: BulkLimits, csv_options: CsvOptions, budget: UploadBudget
) -> Iterator[UploadItem]:
    size = _length(data)
    if not size:
        yield UploadItem(name, None, "the file is empty.")
        return
    if size > limits.max_total_bytes:
        yield UploadItem(name, None, f"the archive is larger than {_megabytes(limits.max_total_bytes)}.")
        return
    try:
        archive = zipfile.ZipFile(data)
        members = [m for m in archive.infolist() if not m.is_dir() and not is_system_file(m.filename)]
    except Exception:  # zipfile raises many types on hostile input (IndexError, struct.error…)
        yield UploadItem(name, None, "the zip archive is damaged or not a zip file.")
        return
    with archive:
        if len(members) > budget.left:
            yield UploadItem(name, None, budget.refusal("the archive", len(members)))
            return
        # The central directory is checked before anything is inflated; reading is
        # bounded again below in case the declared sizes lie.
        declared = sum(m.file_size for m in members)
        if declared > limits.max_total_bytes:
            yield UploadItem(
                name,
                None,
                f"the archive would expand to {declared:,} bytes, more than the "
                f"{_megabytes(limits.max_total_bytes)} limit; refused as a possible zip bomb.",
            )
            return
        left = limits.max_total_bytes
        for member in sorted(members, key=lambda m: m.filename):
            item_name = f"{name}/{member.filename}"
            reason = _member_refusal(member, limits)
            if reason is not None:
                yield UploadItem(item_name, None, reason)
                continue
            try:
                content = _read_bounded(archive, member, min(limits.max_member_bytes, left))
            except _TooLarge:
                yield UploadItem(item_name, None, "expands beyond the declared size; refused as a zip bomb.")
                continue
            except Exception:  # as above: a damaged member fails alone, whatever zipfile raises
                yield UploadItem(item_name, None, "could not be extracted; the archive is damaged.")
                continue
            left -= len(content)
            if PurePath(member.filename).suffix.lower() == ".csv":
                # Its rows are the documents, counted by the CSV's expansion.
                yield from _expand_csv(item_name, io.BytesIO(content), limits, csv_options, budget)
            elif budget.take():
                yield UploadItem(item_name, content)
            else:
                # The CSVs before it spent the budget: this member alone is refused,
                # by name, and the ones already taken stay stored.
                yield UploadItem(item_name, None, budget.used_up())


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


def _expand_csv(
    name: str, data: BinaryIO, limits: BulkLimits, options: CsvOptions, budget: UploadBudget
) -> Iterator[UploadItem]:
    if not options.text_column:
        yield UploadItem(name, None, "choose the CSV column that holds the text.")
        return
    if _length(data) > limits.max_member_bytes:
        yield UploadItem(name, None, f"the CSV file is larger than {_megabytes(limits.max_member_bytes)}.")
        return
    try:
        encoding = _csv_encoding(data)
    except ExtractionError as exc:
        yield UploadItem(name, None, str(exc))
        return
    header_line = _first_line(data, encoding, limits.max_cell_chars)
    if not header_line.strip():
        yield UploadItem(name, None, "the CSV file is empty.")
        return
    delimiter = _delimiter(header_line, options.text_column)
    # Counted first (streaming, nothing kept): a CSV with more rows than the upload
    # may hold fails as a whole instead of being cut somewhere.
    try:
        header, count = None, 0
        for number, row in _csv_rows(data, encoding, delimiter, limits.max_cell_chars):
            if header is None:
                header = [cell.strip() for cell in row] if isinstance(row, list) else []
            elif number and (not isinstance(row, list) or any(cell.strip() for cell in row)):
                count += 1
    except _CsvError as exc:
        yield UploadItem(name, None, f"not a valid CSV file ({exc}).")
        return
    if header is None:
        yield UploadItem(name, None, "the CSV file is empty.")
        return
    missing = [c for c in (options.text_column, options.id_column) if c and c not in header]
    if missing:
        columns = ", ".join(h for h in header if h) or "(none)"
        yield UploadItem(name, None, f"no column named “{missing[0]}”; the columns are: {columns}.")
        return
    if not count:
        yield UploadItem(name, None, "the CSV file has no rows under its header.")
        return
    if not budget.take(count):
        yield UploadItem(name, None, budget.refusal("the CSV file", count))
        return
    rows = _csv_rows(data, encoding, delimiter, limits.max_cell_chars)
    next(rows)  # the header
    for number, row in rows:
        if isinstance(row, str):
            yield UploadItem(_row_name(name, str(number)), None, f"row {number}: {row}")
        elif any(cell.strip() for cell in row):
            yield _csv_item(name, number, row, header, options)


class _CsvError(Exception):
    pass


class _LineTooLong(Exception):
    pass


def _csv_encoding(data: BinaryIO) -> str:
    """UTF-8 (with or without BOM), UTF-16 (BOM), else Windows-1252, as
    `decode_text` decides, checked by decoding in steps without keeping anything."""
    data.seek(0)
    head = data.read(4)
    data.seek(0)
    if head.startswith(codecs.BOM_UTF8):
        return "utf-8-sig"
    if head.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return "utf-16"
    for encoding in ("utf-8", "cp1252"):
        decoder = codecs.getincrementaldecoder(encoding)()
        try:
            while chunk := data.read(_READ):
                if b"\x00" in chunk:
                    raise ExtractionError("The file contains binary data (NUL bytes); it is not a text file.")
                decoder.decode(chunk)
            decoder.decode(b"", final=True)
        except UnicodeDecodeError:
            continue
        finally:
            data.seek(0)
        return encoding
    raise ExtractionError("The file is not text in UTF-8, UTF-16 or Windows-1252.")


_READ = 1024 * 1024


@contextmanager
def _text(data: BinaryIO, encoding: str) -> Iterator[io.TextIOWrapper]:
    data.seek(0)
    stream = io.TextIOWrapper(data, encoding=encoding, newline="")
    try:
        yield stream
    finally:
        stream.detach()  # the caller's file stays open


def _first_line(data: BinaryIO, encoding: str, limit: int) -> str:
    with _text(data, encoding) as stream:
        while True:
            line = stream.readline(limit)
            if not line or line.strip():
                return line.rstrip("\r\n")


class _Lines:
    """Physical lines for csv.reader, each at most `limit` characters (a longer one
    raises _LineTooLong after skipping it), counting the quotes of the record in
    progress: where a refused record ends is where its quotes balance."""

    def __init__(self, stream: io.TextIOBase, limit: int) -> None:
        self.stream = stream
        self.limit = limit
        self.quotes = 0
        self.line = 0

    def __iter__(self) -> "_Lines":
        return self

    def __next__(self) -> str:
        line = self.stream.readline(self.limit + 1)
        if not line:
            raise StopIteration
        self.line += 1
        self.quotes += line.count('"')
        if len(line) > self.limit and not line.endswith(("\n", "\r")):
            while line and not line.endswith(("\n", "\r")):
                line = self.stream.readline(_READ)
                self.quotes += line.count('"')
            raise _LineTooLong
        return line

    def skip_record(self) -> None:
        """Skip to the end of the record in progress (its quotes balanced)."""
        while self.quotes % 2:
            line = self.stream.readline(_READ)
            if not line:
                return
            self.quotes += line.count('"')
            if line.endswith(("\n", "\r")):
                self.line += 1


def _csv_rows(data: BinaryIO, encoding: str, delimiter: str, cell_limit: int) -> Iterator[tuple[int, list[str] | str]]:
    """(row number, cells) per record, the header being row 0; a record with a cell
    over the limit is (row number, reason) and reading goes on after it. Memory
    is one record: a cell stops being read at the limit."""
    too_large = f"a cell is larger than {cell_limit:,} characters (MAX_CSV_CELL_CHARS); refused."
    previous = csv.field_size_limit()
    csv.field_size_limit(cell_limit)
    try:
        with _text(data, encoding) as stream:
            lines = _Lines(stream, cell_limit + 64 * 1024)
            number = 0
            while True:
                reader = csv.reader(lines, delimiter=delimiter, strict=True)
                try:
                    for row in reader:
                        lines.quotes = 0
                        yield number, [_clean(cell) for cell in row]
                        number += 1
                    return
                except _LineTooLong:
                    lines.quotes = 0
                except csv.Error as exc:
                    if "field larger than field limit" not in str(exc):
                        raise _CsvError(str(exc)) from exc
                    lines.skip_record()
                    lines.quotes = 0
                except ExtractionError as exc:
                    yield number, str(exc)
                    number += 1
                    continue
                if number == 0:
                    raise _CsvError(f"the header is larger than {cell_limit:,} characters (MAX_CSV_CELL_CHARS)")
                yield number, too_large
                number += 1
    finally:
        csv.field_size_limit(previous)


def _clean(cell: str) -> str:
    if "\x00" in cell:
        raise ExtractionError("the cell contains binary data (NUL bytes).")
    return normalize_text(cell)


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


def _row_name(name: str, label: str) -> str:
    source = PurePath(name)
    return str(source.with_name(f"{source.stem}_{label}.txt"))


def _csv_item(name: str, number: int, row: list[str], header: list[str], options: CsvOptions) -> UploadItem:
    def item_name(label: str) -> str:
        return _row_name(name, label)

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
