"""Export memory and speed: documents are streamed into the zip one at a time, so
peak memory must stay flat in the number of documents.

Builds N synthetic hearing documents (about 6 kB and 40 accepted spans each),
renders and writes them with the real writer to a temporary file, and reports the
tracemalloc peak and documents/s for 100 and 1,000 documents in the same run.
"""

import os
import re
import statistics
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pipelines.candidate import Candidate  # noqa: E402
from pipelines.export.writer import ExportDocument, ExportWriter, render_document  # noqa: E402
from pipelines.pseudonymize.counters import NumberedMap  # noqa: E402

LINE = (
    "PRESIDING COMMISSIONER HARTWELL{n}: Mr. Marcus Delgado{n}, on March 14, 2023 you were 19 years old, "
    "CDCR number K-{n:05d}, and you called (559) 555-{m:04d} from Fresno.\n\n"
)
NEEDLES = [
    (r"HARTWELL\d+", "PERSON"),
    (r"Marcus Delgado\d+", "PERSON"),
    (r"March 14, 2023", "DATE"),
    (r"19 years old", "AGE"),
    (r"K-\d{5}", "ID"),
    (r"\(559\) 555-\d{4}", "PHONE_NUMBER"),
    (r"Fresno", "LOCATION"),
]


def document(i: int) -> ExportDocument:
    text = "".join(LINE.format(n=(i * 7 + k) % 97, m=(i + k) % 10_000) for k in range(30))
    spans = sorted(
        (
            Candidate(m.start(), m.end(), label, m.group(), ("bench",), 1.0)
            for pattern, label in NEEDLES
            for m in re.finditer(pattern, text)
        ),
        key=lambda s: s.start,
    )
    return ExportDocument(i, f"hearing_{i}.txt", text, spans)


def export(count: int) -> None:
    with tempfile.TemporaryFile() as target:
        writer = ExportWriter(target, {"bench": count})
        for i in range(count):
            writer.add(render_document(document(i), numbers=NumberedMap()))
        writer.close()


def run(count: int) -> tuple[float, float]:
    """(peak traced MB, documents/s); timed without tracemalloc, which slows Python."""
    started = time.perf_counter()
    export(count)
    rate = count / (time.perf_counter() - started)
    tracemalloc.start()
    export(count)
    _current, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return peak / 1e6, rate


def main() -> None:
    repeats = int(os.environ.get("BENCH_REPEATS", "3"))
    run(10)  # warm up: spaCy's tokenizer and gazetteers load once
    results = {}
    for count in (100, 1000):
        samples = [run(count) for _ in range(repeats)]
        results[count] = (statistics.median(s[0] for s in samples), statistics.median(s[1] for s in samples))
        print(
            f"{count:5d} documents: peak traced memory {results[count][0]:.1f} MB, {results[count][1]:.0f} documents/s"
        )
    print(f"peak memory ratio 1000/100 documents: {results[1000][0] / results[100][0]:.2f}")


if __name__ == "__main__":
    main()
