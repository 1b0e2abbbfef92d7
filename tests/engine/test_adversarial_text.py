"""Issue 15, finding 3: linear time on adversarial text. Presidio's URL recognizer
spent 2.5 ms per character of "a.a.a.…" (40,000 characters: most of a minute) and
the transcript layout parser was quadratic in the numbered lines of a page.

Measured in CPU seconds (time.process_time), which a busy machine does not
inflate the way it inflates wall time; each bound is far from both the linear
and the old cost. bench/bench_adversarial.py measures the doubling ratios of whole
processes."""

import os
import time

os.environ.setdefault("TLDEXTRACT_PUBLIC_SUFFIX_LIST_URLS", "")

from pipelines.detection.recognizers.url_guard import LinearUrlRecognizer, install  # noqa: E402
from pipelines.extraction.transcript_layout import _number_chain, build_extraction  # noqa: E402


def cpu(function, *args) -> float:
    started = time.process_time()
    function(*args)
    return time.process_time() - started


def doubling_ratio(function, small, large, repeat: int = 5) -> float:
    """The fastest CPU time on the doubled input over the fastest on the input.

    The fastest of several runs, not the median: a busy machine (the suite runs
    on two workers) only ever adds time, and a median of three runs of ten
    milliseconds once read 3.05 for a linear pass (CI, session 25)."""
    smalls = [cpu(function, small) for _ in range(repeat)]
    larges = [cpu(function, large) for _ in range(repeat)]
    return min(larges) / max(min(smalls), 1e-4)


def _urls(text: str) -> list[str]:
    return [text[r.start : r.end] for r in LinearUrlRecognizer().analyze(text, ["URL"], None)]


def test_urls_in_a_dot_chain_cost_linear_time():
    recognizer = LinearUrlRecognizer()
    chain = "a." * 20_000  # 40,000 characters: 45 s with presidio's recognizer
    assert cpu(recognizer.analyze, chain, ["URL"], None) < 1.0
    for crafted in ("a." * 40_000, "1.2." * 20_000, "a-" * 40_000, "a.ac." * 16_000):
        # 80,000 characters each: a quadratic pass would take minutes
        assert cpu(recognizer.analyze, crafted, ["URL"], None) < 2.0, crafted[:8]
    ratio = doubling_ratio(lambda text: recognizer.analyze(text, ["URL"], None), "a." * 80_000, "a." * 160_000)
    assert ratio < 3.0, ratio


def test_the_linear_recognizer_finds_what_presidios_finds_in_ordinary_text():
    assert _urls("Visit www.example.com/path?x=1 today.") == ["www.example.com/path?x=1"]
    assert _urls("See https://cdcr.ca.gov/parole and http://foo.org.") == [
        "https://cdcr.ca.gov/parole",
        "http://foo.org",
    ]
    assert _urls("Go to docs.python.org, then sleep.") == ["docs.python.org"]
    assert _urls("Version 1.2.3, e.g. at 9 a.m.") == []
    # A top-level domain must end the host: no ".com" out of ".community".
    assert _urls("the example.community center") == ["example.community"]
    # An address hidden behind a long chain is still found.
    assert _urls("x " + "a." * 100 + "example.com") == ["a." * 100 + "example.com"]
    # A number's abbreviation before its figures is no Norwegian host.
    assert _urls("land bearing Sy.No.47/2, pending in O.S.No.311/2016; mail.no works.") == ["mail.no"]
    assert _urls("land in Cr.No. 112/2020 and Sy.No. 47/2") == []
    assert _urls("The scam ran through cheapdeals.net. 14 victims lost money.") == ["cheapdeals.net"]


def test_install_replaces_presidios_url_recognizer_in_a_registry():
    from presidio_analyzer import RecognizerRegistry

    registry = RecognizerRegistry(supported_languages=["en"])
    registry.load_predefined_recognizers(languages=["en"])
    install(registry)
    urls = [r for r in registry.recognizers if "URL" in r.supported_entities]
    assert len(urls) == 1 and isinstance(urls[0], LinearUrlRecognizer)


def test_line_number_chains_cost_linear_time():
    """Every line of a crafted page starts with a number: trying each line as the
    start of a chain and scanning the rest was quadratic (20,000 lines: minutes)."""
    page = [f"{n % 7} word" for n in range(20_000)]
    assert cpu(build_extraction, [page]) < 3.0
    # Four times the input: a linear pass reads about 4, a quadratic one 16. (Doubling
    # read 3.26 for this linear pass on a busy two-core VM without VNNI, session 31.)
    ratio = doubling_ratio(_number_chain, [n % 7 for n in range(100_000)], [n % 7 for n in range(400_000)])
    assert ratio < 8.0, ratio


def test_the_linear_chain_is_the_one_the_quadratic_search_found():
    def quadratic(values):
        best: dict[int, int] = {}
        for start, value in enumerate(values):
            if value is None:
                continue
            chain, expected = {start: value}, value + 1
            for index in range(start + 1, len(values)):
                if values[index] == expected:
                    chain[index] = expected
                    expected += 1
            extent = max(chain) - min(chain)
            if len(chain) > len(best) or (len(chain) == len(best) and extent < max(best) - min(best)):
                best = chain
        return best

    import random

    generator = random.Random(15)
    for _ in range(3000):
        values = [generator.choice([None, 1, 2, 3, 4, 5]) for _ in range(generator.randint(0, 14))]
        assert _number_chain(values) == quadratic(values), values


def test_the_patterns_cost_linear_time_on_hyphened_runs():
    from pipelines.detection.recognizers import patterns

    # 40,000 characters of "a-": 14.5 s when an age's owner ("Malloy's son") could
    # start at every hyphen and scan the run again (session 28).
    for crafted in ("a-" * 20_000, "report " + "A1-" * 10_000):
        assert cpu(patterns.recognize, crafted) < 2.0, crafted[:8]


def test_the_cues_cost_linear_time_on_hyphened_runs():
    from pipelines.detection.recognizers import cues

    # 100,000 characters of "A-1-B-2-": 22 s when the initials after a name's surname
    # could start at every capital and scan the run again (session 36).
    assert cpu(cues.recognize, "A-1-B-2-" * 12_500) < 3.0


def test_a_record_acronym_before_a_long_blank_run_costs_linear_time():
    from pipelines.detection.recognizers import cues, patterns

    # "IMEI" then 50,000 blanks: 13 s in the union-local cue and 10 s in the record
    # cue pattern when two blank runs side by side were tried every way (session 37).
    run = "IMEI" + " " * 50_000 + "x"
    assert cpu(cues.recognize, run) < 3.0
    assert cpu(patterns.recognize, run) < 3.0
