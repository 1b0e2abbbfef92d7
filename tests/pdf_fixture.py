"""A tiny, valid PDF with a real text layer, built by hand (no PDF library needed
to make test input); and a decompression bomb."""

import zlib

MB = 1024 * 1024


def _escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")


def make_pdf(pages: list[list[str]]) -> bytes:
    objects: list[bytes] = []
    page_ids = []
    font_id = 3 + 2 * len(pages)
    for n, lines in enumerate(pages):
        page_id, content_id = 3 + 2 * n, 4 + 2 * n
        page_ids.append(page_id)
        stream = "BT /F1 11 Tf 14 TL 72 720 Td " + " ".join(f"({_escape(line)}) Tj T*" for line in lines) + " ET"
        objects.append(
            f"{page_id} 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] "
            f"/Resources << /Font << /F1 {font_id} 0 R >> >> /Contents {content_id} 0 R >> endobj\n".encode()
        )
        data = stream.encode("latin-1")
        objects.append(
            f"{content_id} 0 obj << /Length {len(data)} >> stream\n".encode() + data + b"\nendstream endobj\n"
        )
    kids = " ".join(f"{i} 0 R" for i in page_ids)
    head = [
        b"1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n",
        f"2 0 obj << /Type /Pages /Kids [{kids}] /Count {len(pages)} >> endobj\n".encode(),
    ]
    tail = [f"{font_id} 0 obj << /Type /Font /Subtype /Type1 /BaseFont /Helvetica >> endobj\n".encode()]
    body = head + objects + tail
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for obj in body:
        offsets.append(len(out))
        out += obj
    xref = len(out)
    out += f"xref\n0 {len(body) + 1}\n0000000000 65535 f \n".encode()
    out += b"".join(f"{o:010d} 00000 n \n".encode() for o in offsets)
    out += f"trailer << /Size {len(body) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode()
    return bytes(out)


def bomb_pdf(inflated_mb: int) -> bytes:
    """A one-page PDF whose content stream inflates to `inflated_mb` MB of spaces:
    about 0.5 MB for 500 MB. Compressed a megabyte at a time, so building it costs
    this process nothing."""
    head = b"BT /F1 11 Tf 72 720 Td (Decompression bomb) Tj ET\n"
    packer = zlib.compressobj(9)
    chunk = b" " * MB
    stream = packer.compress(head) + b"".join(packer.compress(chunk) for _ in range(inflated_mb)) + packer.flush()
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> "
        b"/Contents 4 0 R >>",
        b"<< /Length %d /Filter /FlateDecode >>\nstream\n" % len(stream) + stream + b"\nendstream",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer << /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    return bytes(out)


# -- bombs outside the page contents (issue 28) ----------------------------------------


def _deflated(head: bytes, filler: bytes, inflated_mb: int, tail: bytes = b"") -> bytes:
    """`head`, then `inflated_mb` MB of `filler` repeated, then `tail`, deflated a
    megabyte at a time (building a 300 MB bomb costs this process a megabyte)."""
    packer = zlib.compressobj(9)
    chunk = (filler * (MB // len(filler) + 1))[:MB]
    start = packer.compress(head)  # compressed in order: the stream is one sequence
    body = b"".join(packer.compress(chunk) for _ in range(inflated_mb))
    return start + body + packer.compress(tail) + packer.flush()


def _stream(dictionary: bytes, data: bytes) -> bytes:
    return b"<< %s /Length %d >>\nstream\n" % (dictionary, len(data)) + data + b"\nendstream"


def _assemble(objects: list[bytes]) -> bytes:
    """A PDF of these objects (numbered from 1, the first the catalog) with a
    classic cross-reference table."""
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer << /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    return bytes(out)


_PAGE_TEXT = b"BT /F1 11 Tf 72 720 Td (Mr. Smith spoke.) Tj ET"


def tounicode_bomb_pdf(inflated_mb: int, fonts: int = 1) -> bytes:
    """A one-page PDF with `fonts` fonts, each with a /ToUnicode map that
    inflates to `inflated_mb` MB (a valid map padded with blanks), each used for a
    line of text: pdfminer parses a font's map whole when it loads the font."""
    cmap_head = (
        b"/CIDInit /ProcSet findresource begin 12 dict begin begincmap "
        b"/CMapName /Bomb def 1 begincodespacerange <00> <FF> endcodespacerange "
        b"1 beginbfchar <41> <0041> endbfchar "
    )
    cmap_tail = b" endcmap CMapName currentdict /CMap defineresource pop end end"
    cmap = _stream(b"/Filter /FlateDecode", _deflated(cmap_head, b" ", inflated_mb, cmap_tail))
    # Objects: 1 catalog, 2 pages, 3 page, 4 contents, then (font, map) pairs.
    names = b" ".join(b"/F%d %d 0 R" % (n, 5 + 2 * n) for n in range(fonts))
    text = b" ".join(b"BT /F%d 11 Tf 72 %d Td (Mr. Smith spoke.) Tj ET" % (n, 720 - 14 * n) for n in range(fonts))
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << %s >> >> "
        b"/Contents 4 0 R >>" % names,
        _stream(b"", text),
    ]
    for n in range(fonts):
        objects.append(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /ToUnicode %d 0 R >>" % (6 + 2 * n))
        objects.append(cmap)
    return _assemble(objects)


def image_bomb_pdf(inflated_mb: int) -> bytes:
    """A page with a line of text and a grey image whose samples inflate to
    `inflated_mb` MB."""
    width = 4096
    height = inflated_mb * MB // width
    samples = _deflated(b"", b"\x80", inflated_mb)
    image = b"/Type /XObject /Subtype /Image /Width %d /Height %d /ColorSpace /DeviceGray " % (width, height)
    image += b"/BitsPerComponent 8 /Filter /FlateDecode"
    return _assemble(
        [
            b"<< /Type /Catalog /Pages 2 0 R >>",
            b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] "
            b"/Resources << /Font << /F1 5 0 R >> /XObject << /Im1 6 0 R >> >> /Contents 4 0 R >>",
            _stream(b"", _PAGE_TEXT + b"\nq 100 0 0 100 72 500 cm /Im1 Do Q"),
            b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
            _stream(image, samples),
        ]
    )


def object_stream_bomb_pdf(inflated_mb: int) -> bytes:
    """A PDF 1.5 file whose catalog, page tree, page and font live in an object
    stream that inflates to `inflated_mb` MB (blanks after the objects); pdfminer
    inflates the whole object stream to read any of them."""
    inner = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> >> "
        b"/Contents 5 0 R >>",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    index, bodies, at = [], b"", 0
    for number, body in enumerate(inner, start=1):
        index.append(b"%d %d" % (number, at))
        bodies += body + b"\n"
        at = len(bodies)
    header = b" ".join(index) + b"\n"
    packed = _deflated(header + bodies, b" ", inflated_mb)
    out = bytearray(b"%PDF-1.5\n")
    offsets = {}
    offsets[5] = len(out)
    out += b"5 0 obj\n" + _stream(b"", _PAGE_TEXT) + b"\nendobj\n"
    offsets[6] = len(out)
    out += b"6 0 obj\n" + _stream(b"/Type /ObjStm /N 4 /First %d /Filter /FlateDecode" % len(header), packed)
    out += b"\nendobj\n"
    offsets[7] = len(out)
    rows = [b"\x00" + (0).to_bytes(4, "big") + b"\xff\xff"]
    rows += [b"\x02" + (6).to_bytes(4, "big") + i.to_bytes(2, "big") for i in range(4)]
    rows += [b"\x01" + offsets[n].to_bytes(4, "big") + b"\x00\x00" for n in (5, 6, 7)]
    xref = b"".join(rows)
    out += b"7 0 obj\n" + _stream(b"/Type /XRef /Size 8 /W [1 4 2] /Root 1 0 R", xref) + b"\nendobj\n"
    out += b"startxref\n%d\n%%%%EOF\n" % offsets[7]
    return bytes(out)


def encrypted_bomb_pdf(inflated_mb: int) -> bytes:
    """`bomb_pdf(inflated_mb)` encrypted with an empty user password: it opens
    without asking (pdfminer reads it), and its streams are ciphertext until
    decrypted."""
    import io

    from pypdf import PdfReader, PdfWriter

    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(bomb_pdf(inflated_mb))))
    writer.encrypt(user_password="", owner_password="owner", algorithm="AES-128")
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()
