"""One inflation budget per PDF, counted before pdfminer parses anything.

pdfminer inflates whole streams in memory, and not only page contents: fonts and
their /ToUnicode maps, object streams (which hold the file's other objects) and
streams of an encrypted file after decryption. A bomb in any of them took the
parser child past 500 MB. So every stream of the file is decoded here first,
incrementally, a bounded chunk at a time, counting the bytes each decoding step
produces; the count stops as soon as one stream passes MAX_PDF_STREAM_BYTES or
the file passes MAX_PDF_INFLATED_MB, so memory stays at one chunk and time at
what the budget allows, however far the stream would inflate.

Every stream counts (images too): which of them pdfminer will read depends on the
pages, fonts and operators that reference them, and a damaged file can hide those
references; counting them all is both simpler and never short. Image codecs that
pdfminer hands on undecoded (DCT, JPX, JBIG2, CCITT) count at their stored size.

Streams cannot live inside object streams (PDF 32000-1, 7.5.7), so walking the
cross-reference table's in-file objects reaches every stream, object streams
included."""

import io
import zlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from pipelines.extraction.limits import ExtractionLimits, LimitExceeded, size

# Decoded a chunk at a time: the most memory one step may take.
_CHUNK = 256 * 1024

# Filters pdfminer (and pypdf) decode, with their abbreviations (inline images).
_FLATE = {"/FlateDecode", "/Fl"}
_LZW = {"/LZWDecode", "/LZW"}
_HEX = {"/ASCIIHexDecode", "/AHx"}
_A85 = {"/ASCII85Decode", "/A85"}
_RUN_LENGTH = {"/RunLengthDecode", "/RL"}


class _Counter:
    """Bytes produced so far, for one stream and for the whole file."""

    def __init__(self, limits: ExtractionLimits) -> None:
        self.limits = limits
        self.total = 0
        self.stream = 0

    def add(self, n: int) -> None:
        self.stream += n
        self.total += n
        if self.stream > self.limits.max_pdf_stream_bytes:
            raise stream_too_big(self.limits)
        if self.total > self.limits.max_pdf_inflated_bytes:
            raise file_too_big(self.limits)


def stream_too_big(limits: ExtractionLimits) -> LimitExceeded:
    return LimitExceeded(
        f"A stream of the PDF (page content, font, image or object stream) inflates to more than "
        f"{size(limits.max_pdf_stream_bytes)} (MAX_PDF_STREAM_BYTES); refused as a possible decompression bomb."
    )


def file_too_big(limits: ExtractionLimits) -> LimitExceeded:
    return LimitExceeded(
        f"The PDF's streams (page contents, fonts, images, object streams) inflate to more than "
        f"{size(limits.max_pdf_inflated_bytes)} in all (MAX_PDF_INFLATED_MB); refused as a possible "
        "decompression bomb."
    )


@dataclass(frozen=True)
class Budget:
    inflated: int  # bytes all streams inflate to (as counted)
    pages: int | None  # None: the page tree could not be read (pdfplumber reports it)


def check_inflated_size(data: bytes, limits: ExtractionLimits) -> Budget:
    """Raise LimitExceeded if the PDF's streams inflate past a limit; otherwise
    say what they inflate to, and the page count. A file pypdf cannot open, or an
    encrypted one the empty password does not open, passes: pdfplumber then
    reports it with its usual message (and the sandbox's memory limit holds)."""
    import pypdf
    from pypdf.errors import LimitReachedError

    # pypdf's own decoders (the cross-reference stream read while opening, the
    # page tree read afterwards) stay within the same limit.
    cap = limits.max_pdf_stream_bytes
    with pypdf.apply_configuration(
        zlib_maximum_output_length=cap,
        lzw_maximum_output_length=cap,
        run_length_maximum_output_length=cap,
        brotli_maximum_output_length=cap,
        array_based_stream_maximum_output_length=cap,
        stream_decoding_work_maximum_length=max(cap, 1),
    ):
        try:
            reader = pypdf.PdfReader(io.BytesIO(data))
            if reader.is_encrypted and not _open_with_empty_password(reader):
                return Budget(0, None)
        except LimitReachedError as exc:
            raise stream_too_big(limits) from exc
        except MemoryError:
            raise
        except Exception:
            return Budget(0, None)  # damage: pdfplumber's to report
        counter = _Counter(limits)
        for generation, objects in list(reader.xref.items()):
            for number in list(objects):
                try:
                    stream = reader.get_object(pypdf.generic.IndirectObject(number, generation, reader))
                except MemoryError:
                    raise
                except Exception:
                    continue  # damage: pdfplumber's to report
                if not isinstance(stream, pypdf.generic.StreamObject):
                    continue
                counter.stream = 0
                try:
                    _count_stream(stream, counter)
                except (LimitExceeded, MemoryError):
                    raise
                except Exception:
                    continue  # a malformed filter list: damage, pdfplumber's to report
        # Counted first: reading the page tree may decode object streams, now known small.
        try:
            pages: int | None = len(reader.pages)
        except MemoryError:
            raise
        except Exception:
            pages = None
        return Budget(counter.total, pages)


def _open_with_empty_password(reader) -> bool:
    # pdfminer opens a file encrypted with an empty user password without asking,
    # so the budget must see its streams decrypted.
    from pypdf import PasswordType

    try:
        return reader.decrypt("") != PasswordType.NOT_DECRYPTED
    except Exception:
        return False


def _count_stream(stream, counter: _Counter) -> None:
    raw: bytes = stream._data  # stored bytes (decrypted by pypdf if the file is encrypted)
    filters = stream.get("/Filter")
    if filters is None:
        counter.add(len(raw))
        return
    filters = filters.get_object()
    names = [str(f.get_object()) for f in filters] if isinstance(filters, list) else [str(filters)]
    chunks: Iterable[bytes] = _pieces(raw)
    decoded = False
    for name in names:
        decoder = _DECODERS.get(name)
        if decoder is None:
            break  # an image codec (kept encoded) or one pdfminer does not know
        chunks = _counted(decoder(chunks), counter)
        decoded = True
    if not decoded:
        counter.add(len(raw))  # held as stored
        return
    for _chunk in chunks:  # pulling the chain decodes and counts every step
        pass


def _counted(chunks: Iterable[bytes], counter: _Counter) -> Iterator[bytes]:
    # Each decoding step's output counts: pdfminer holds each step's whole result.
    for chunk in chunks:
        counter.add(len(chunk))
        yield chunk


def _pieces(data: bytes) -> Iterator[bytes]:
    view = memoryview(data)
    for start in range(0, len(data), _CHUNK):
        yield bytes(view[start : start + _CHUNK])


def _inflate(chunks: Iterable[bytes]) -> Iterator[bytes]:
    """zlib, never more than _CHUNK out per call: a 1 KB input that inflates to
    1 GB is read 256 KB at a time and stopped by the counter."""
    inflater = zlib.decompressobj()
    try:
        for chunk in chunks:
            pending = chunk
            while not inflater.eof:
                out = inflater.decompress(pending, _CHUNK)
                pending = inflater.unconsumed_tail
                if out:
                    yield out
                if not pending and len(out) < _CHUNK:
                    break  # this input is used up and nothing is left waiting
            if inflater.eof:
                return
        tail = inflater.flush()  # at most a few bytes of a last copy
        if tail:
            yield tail
    except zlib.error:
        # pdfminer keeps what inflated before the damage; so does the count.
        return


def _lzw(chunks: Iterable[bytes]) -> Iterator[bytes]:
    from pdfminer.lzw import LZWDecoder
    from pdfminer.pdfexceptions import PDFException

    # pdfminer's own decoder, a generator: one code's output at a time.
    data = b"".join(chunks)
    buffered = bytearray()
    try:
        for out in LZWDecoder(io.BytesIO(data)).run():
            buffered += out
            if len(buffered) >= _CHUNK:
                yield bytes(buffered)
                buffered.clear()
    except (PDFException, EOFError, ValueError, IndexError):
        pass
    if buffered:
        yield bytes(buffered)


def _run_length(chunks: Iterable[bytes]) -> Iterator[bytes]:
    # Up to 64 times the input: decoded in steps, as zlib is.
    data = b"".join(chunks)
    out = bytearray()
    i = 0
    while i < len(data):
        length = data[i]
        if length == 128:
            break
        if length < 128:
            out += data[i + 1 : i + 2 + length]
            i += 2 + length
        else:
            out += data[i + 1 : i + 2] * (257 - length)
            i += 2
        if len(out) >= _CHUNK:
            yield bytes(out)
            out.clear()
    if out:
        yield bytes(out)


def _ascii_hex(chunks: Iterable[bytes]) -> Iterator[bytes]:
    from pdfminer.ascii85 import asciihexdecode

    # At most half the input: no bomb here, only a step to count.
    yield asciihexdecode(b"".join(chunks))


def _ascii85(chunks: Iterable[bytes]) -> Iterator[bytes]:
    from pdfminer.ascii85 import ascii85decode

    # "z" stands for four zero bytes: at most four times the input, itself bounded
    # by the upload limit.
    try:
        yield ascii85decode(b"".join(chunks))
    except ValueError:
        return


_DECODERS = {
    **dict.fromkeys(_FLATE, _inflate),
    **dict.fromkeys(_LZW, _lzw),
    **dict.fromkeys(_HEX, _ascii_hex),
    **dict.fromkeys(_A85, _ascii85),
    **dict.fromkeys(_RUN_LENGTH, _run_length),
}
