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
