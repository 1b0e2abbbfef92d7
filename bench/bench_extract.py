"""Transcript PDF extraction: time per 100 pages and peak memory.

A 100-page hearing transcript (cover, INDEX, numbered body pages with furniture) is
typeset with fpdf2 by the same builder the tests use. Baseline: pdfplumber's plain
`page.extract_text()` over every page (what seed 000 does), in the same run.
"""

import io
import os
import statistics
import sys
import time
import tracemalloc
from pathlib import Path

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "anonymizer_site.settings")
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import django  # noqa: E402

django.setup()

import pdfplumber  # noqa: E402

from pipelines.extraction.pdf import extract_pdf  # noqa: E402
from tests.ingestion.test_transcript_pdf import make_transcript  # noqa: E402

SPEAKERS = ["PRESIDING COMMISSIONER DOE:", "DEPUTY COMMISSIONER ROE:", "INMATE HERNANDEZ:", "ATTORNEY JONES:"]
WORDS = "the board has reviewed your file and the record of your programming since the last hearing".split()


def body(pages: int) -> list[list[str]]:
    out = []
    for p in range(pages):
        lines = []
        for n in range(25):
            words = " ".join(WORDS[(p + n + k) % len(WORDS)] for k in range(9))
            lines.append(f"{SPEAKERS[(p + n) % 4]} {words}." if n % 3 == 0 else f"{words} and")
        out.append(lines)
    return out


def baseline(data: bytes) -> str:
    with pdfplumber.open(io.BytesIO(data)) as pdf:
        return "\n".join(page.extract_text() or "" for page in pdf.pages)


def main() -> None:
    repeats = int(os.environ.get("BENCH_REPEATS", "3"))
    data = make_transcript(body(98))  # + cover and INDEX = 100 pages
    ours = statistics.median(_time(lambda: extract_pdf(data)) for _ in range(repeats))
    plain = statistics.median(_time(lambda: baseline(data)) for _ in range(repeats))
    tracemalloc.start()
    extraction = extract_pdf(data)
    _current, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    print(f"100-page transcript ({len(data) / 1e6:.1f} MB PDF, {len(extraction.text):,} characters out)")
    print(
        f"layout-aware extraction: {ours:.2f} s per 100 pages (median of {repeats}), peak traced memory "
        f"{peak / 1e6:.0f} MB"
    )
    print(f"pdfplumber extract_text baseline: {plain:.2f} s per 100 pages")
    print(f"ratio ours / baseline time: {ours / plain:.2f}")


def _time(fn) -> float:
    started = time.perf_counter()
    fn()
    return time.perf_counter() - started


if __name__ == "__main__":
    main()
