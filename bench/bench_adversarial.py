"""Adversarial inputs, each a whole process (start-up included), input doubled.

    .venv/bin/python bench/bench_adversarial.py [--repeat 3]

For every case the same process runs on an input of size N and on 2N,
alternately, `--repeat` times each; the medians give the ratio T(2N) / T(N),
against the named baseline of the same run (the process on N). A linear path
doubles (or less: start-up is included); a quadratic one quadruples. Peak
resident memory (ru_maxrss of the process, and of its children: the PDF parser's
sandbox) is reported for the larger input.

Cases (issue 15):
- url:      the URL recognizer on "a.a.a.…" (presidio's took 2.5 ms a character)
- layout:   the transcript layout parser on a page whose every line is numbered
- patterns: 100 catastrophic corpus patterns, then 200, on a tiny document: the
            per-document time budget holds the time flat
- pdf_bomb: a PDF whose content stream inflates to 250 MB, then 500 MB: refused at
            MAX_PDF_STREAM_BYTES, time and memory flat

Issue 28: bombs the former stream check never saw, each 250 MB then 500 MB,
refused at MAX_PDF_STREAM_BYTES by the per-file count (pdf_budget):
- pdf_encrypted: the page-content bomb encrypted with an empty user password
- pdf_tounicode: a font's /ToUnicode map
- pdf_objstm:    an object stream holding the catalog, pages and font
- pdf_image:     an image's samples
- pdf_fonts:     4, then 8, fonts each with a 30 MB /ToUnicode map (every stream
                 under MAX_PDF_STREAM_BYTES): 120 MB is read, 240 MB is refused
                 at MAX_PDF_INFLATED_MB; the accepted one is the worst case a
                 default budget lets through

Cases (issue 28):
- spelled_A, spelled_a, spelled_1, spelled_slash: the whole detection (`detect_texts`,
            model included) on "A-A-A-…", "a-a-a-…", "1-1-1-…", "a/a/a/…" of N
            characters (48 s and 800 MB at 40,000 before)
- captures: the corpus pattern `(?:(a)|(b))+` over "abab…" (430 MB on 3 MB before)
- captures4: four `(?:(((.))))+` over lines of 999 characters (926 MB before)
- allow_list: an allow list at its limits (5,000 entries, 200,000 characters) on a
            document of N characters (a 9.5 MB list: 1,339 MB and 31 s on 285 KB before)
"""

import argparse
import contextlib
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CASES = {
    "url": 4_000_000,
    "layout": 100_000,
    "patterns": 100,
    "pdf_bomb": 250,
    "pdf_encrypted": 250,
    "pdf_tounicode": 250,
    "pdf_objstm": 250,
    "pdf_image": 250,
    "pdf_fonts": 4,
    "spelled_A": 40_000,
    "spelled_a": 40_000,
    "spelled_1": 40_000,
    "spelled_slash": 40_000,
    "captures": 1_500_000,
    "captures4": 1_500_000,
    "allow_list": 285_000,
}
SPELLED = {"spelled_A": "A-", "spelled_a": "a-", "spelled_1": "1-", "spelled_slash": "a/"}


def _builders() -> dict:
    """Each PDF case's file, by size (MB inflated, or fonts for pdf_fonts)."""
    sys.path.insert(0, str(ROOT))
    from tests import pdf_fixture

    return {
        "pdf_bomb": pdf_fixture.bomb_pdf,
        "pdf_encrypted": pdf_fixture.encrypted_bomb_pdf,
        "pdf_tounicode": pdf_fixture.tounicode_bomb_pdf,
        "pdf_objstm": pdf_fixture.object_stream_bomb_pdf,
        "pdf_image": pdf_fixture.image_bomb_pdf,
        "pdf_fonts": lambda fonts: pdf_fixture.tounicode_bomb_pdf(30, fonts=fonts),
    }


def work(case: str, size: int) -> None:
    """The case on an input of `size`; with size 0, its imports alone (the start-up
    baseline)."""
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("TLDEXTRACT_PUBLIC_SUFFIX_LIST_URLS", "")
    if case == "url":
        from pipelines.detection.recognizers.url_guard import LinearUrlRecognizer

        recognizer = LinearUrlRecognizer()
        if size:
            recognizer.analyze("a." * (size // 2), ["URL"], None)
    elif case == "layout":
        from pipelines.extraction.transcript_layout import build_extraction

        if size:
            build_extraction([[f"{n % 7} word" for n in range(size)]])
    elif case == "patterns":
        from pipelines.detection.recognizers.corpus_patterns import PatternLimits, compile_pattern, scan

        compiled = [compile_pattern(r"(.*a){12}x") for _ in range(size)]
        scan("a" * 300, compiled, PatternLimits(budget_seconds=2.0))
    elif case in SPELLED:
        from pipelines.cli import model_name
        from pipelines.detection.pipeline import detect_texts

        text = SPELLED[case] * (size // 2) if size else "A-A"
        for _result in detect_texts([text], model_name()):
            pass
    elif case in ("captures", "captures4"):
        from pipelines.detection.recognizers.corpus_patterns import compile_pattern, scan

        if case == "captures":
            scan("ab" * (size // 2), [compile_pattern(r"(?:(a)|(b))+")])
        else:
            scan(("x" * 999 + "\n") * (size // 1000), [compile_pattern(r"(?:(((.))))+")] * 4)
    elif case == "allow_list":
        from pipelines.detection.recognizers.corpus_patterns import AllowList

        allow = AllowList({f"name{n:05d} " + "x" * 28: "PERSON" for n in range(5_000)})
        sentence = "word name00042 " + "x" * 28 + " and more words. "
        allow.find(sentence * (size // len(sentence)))
    elif case.startswith("pdf_"):
        from pipelines.extraction.extract import extract
        from pipelines.extraction.text import ExtractionError

        if size:
            with contextlib.suppress(ExtractionError):
                extract("bomb.pdf", _bomb_path(case, size).read_bytes())


def _bomb_path(case: str, size: int) -> Path:
    return Path(tempfile.gettempdir()) / f"bench_adversarial_{case}_{size}.pdf"


def outcome(case: str, size: int) -> str:
    """What the extraction says of the case's file (refused, and by which setting)."""
    sys.path.insert(0, str(ROOT))
    from pipelines.extraction.extract import extract
    from pipelines.extraction.text import ExtractionError

    try:
        extract("bomb.pdf", _bomb_path(case, size).read_bytes())
    except ExtractionError as exc:
        return str(exc).split("(")[-1].split(")")[0] if "(MAX_" in str(exc) else str(exc)
    return "read"


def measure(case: str, size: int) -> tuple[float, float, int, int]:
    """(wall seconds, CPU seconds, peak MB, children's peak MB) of one whole
    process. CPU time (user + system, of the process and its children) is what a
    shared machine's other load disturbs least."""
    with tempfile.TemporaryFile() as out:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        started = time.perf_counter()
        subprocess.run(
            [sys.executable, __file__, "--run", case, str(size)], cwd=ROOT, stdout=out, check=True, timeout=1800
        )
        elapsed = time.perf_counter() - started
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        out.seek(0)
        peaks = json.loads(out.read().decode().strip().splitlines()[-1])
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return elapsed, cpu, peaks["self_mb"], peaks["children_mb"]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--run", nargs=2, metavar=("CASE", "SIZE"))
    parser.add_argument("--case", action="append", choices=sorted(CASES))
    arguments = parser.parse_args()
    if arguments.run:
        work(arguments.run[0], int(arguments.run[1]))
        usage = resource.getrusage
        print(
            json.dumps(
                {
                    "self_mb": usage(resource.RUSAGE_SELF).ru_maxrss // 1024,
                    "children_mb": usage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024,
                }
            )
        )
        return
    print(
        "| case | N | start-up (N=0) wall / CPU s | T(N) wall / CPU s | T(2N) wall / CPU s "
        "| T(2N)/T(N) wall / CPU | same, start-up taken off (CPU) | peak MB at N / 2N (children) | N / 2N |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for case in arguments.case or list(CASES):
        size = CASES[case]
        verdict = ""
        if case.startswith("pdf_"):  # built here, not in the measured process
            for n in (size, 2 * size):
                _bomb_path(case, n).write_bytes(_builders()[case](n))
            verdict = f"{outcome(case, size)} / {outcome(case, 2 * size)}"
        runs: dict[int, list[tuple[float, float, int, int]]] = {0: [], size: [], 2 * size: []}
        for _ in range(arguments.repeat):  # alternated, so that noise hits all alike
            for n in runs:
                runs[n].append(measure(case, n))

        w0, c0, w1, c1, w2, c2 = (
            statistics.median(run[field] for run in runs[n]) for n in (0, size, 2 * size) for field in (0, 1)
        )
        peak = max((run[2], run[3]) for run in runs[2 * size])
        peak_n = max((run[2], run[3]) for run in runs[size])
        net = (c2 - c0) / max(c1 - c0, 1e-3)
        print(
            f"| {case} | {size:,} | {w0:.2f} / {c0:.2f} | {w1:.2f} / {c1:.2f} | {w2:.2f} / {c2:.2f} "
            f"| {w2 / w1:.2f} / {c2 / c1:.2f} | {net:.2f} "
            f"| {peak_n[0]} ({peak_n[1]}) / {peak[0]} ({peak[1]}) | {verdict} |"
        )


if __name__ == "__main__":
    main()
