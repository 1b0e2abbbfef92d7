"""Export of one long document: a document up to MAX_DOCUMENT_CHARS (3,000,000
characters) exports within the memory bound.

Builds one synthetic hearing of N characters, renders it and
writes the zip with every format (index, training files) with the real writer
to a temporary file, and prints the time and this process's peak RSS. The lines
are those of bench_export.py (seven accepted spans in 150 characters: a span per
23 characters, far denser than a transcript) and, with `--plain K`, K plain lines
of dialogue after each of them. Run it as its own process so the peak is the
export's:

    /usr/bin/time -v .venv/bin/python bench/bench_export_long.py 3000000
    /usr/bin/time -v .venv/bin/python bench/bench_export_long.py 3000000 --plain 9
"""

import argparse
import re
import resource
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.bench_export import LINE, NEEDLES  # noqa: E402
from pipelines.candidate import Candidate  # noqa: E402
from pipelines.export.writer import ExportDocument, ExportWriter, render_document  # noqa: E402

PLAIN = "INMATE: I understood the question, and I have thought about it for a long time since then.\n\n"


def long_document(chars: int, plain: int = 0) -> ExportDocument:
    lines, size, k = [], 0, 0
    while size < chars:
        line = LINE.format(n=k % 97, m=k % 10_000) + PLAIN * plain
        lines.append(line)
        size += len(line)
        k += 1
    text = "".join(lines)[:chars]
    spans = sorted(
        (
            Candidate(m.start(), m.end(), label, m.group(), ("bench",), 1.0)
            for pattern, label in NEEDLES
            for m in re.finditer(pattern, text)
        ),
        key=lambda s: s.start,
    )
    return ExportDocument(1, "hearing.txt", text, spans)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("chars", type=int, nargs="?", default=3_000_000)
    parser.add_argument("--plain", type=int, default=0, help="plain lines after each line with spans")
    args = parser.parse_args()
    doc = long_document(args.chars, args.plain)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    started = time.perf_counter()
    with tempfile.TemporaryFile() as target:
        writer = ExportWriter(target, {"bench": "long"})
        writer.add(render_document(doc))
        writer.close()
        size = target.tell()
    elapsed = time.perf_counter() - started
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(
        f"{len(doc.text):,} characters, {len(doc.spans):,} spans: {elapsed:.1f} s, zip {size / 1e6:.1f} MB, "
        f"peak RSS {peak:.0f} MB (before the export {before:.0f} MB)"
    )


if __name__ == "__main__":
    main()
