"""A corpus's patterns and lists are bounded in memory as well as time (issue 28,
finding 2).

Before: `(?:(a)|(b))+` added 430 MB on a 3 MB document (the `regex` module keeps a
capture per repetition of a group, and the match was as long as the document);
four `(?:(((.))))+` took the worker to 926 MB and a MemoryError; the allow list,
one alternation of every entry, skipped every limit: a 9.5 MB list took the
worker to 1,339 MB and 31 s on a 285 KB document. Now a pattern runs over windows
of twice MAX_CORPUS_PATTERN_MATCH_CHARS and a longer match skips it on the
document; matches are kept as spans; the lists have limits on entries, entry
length and size (MAX_LIST_*) in the configuration and the form; the allow list is
one Aho-Corasick automaton over its words.
"""

import re
import textwrap

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pipelines.detection.config import DEFAULT, ConfigError, DetectionConfig
from pipelines.detection.recognizers.corpus_patterns import (
    AllowList,
    PatternLimits,
    check_list,
    compile_pattern,
    scan,
)
from review.forms import DetectionConfigForm
from tests.memory_peak import run_peak


def _scan_code(patterns: list[str], text_expression: str, run_scan: bool) -> str:
    return textwrap.dedent(
        f"""
        from pipelines.detection.recognizers.corpus_patterns import compile_pattern, scan

        text = {text_expression}
        compiled = [compile_pattern(p) for p in {patterns!r}]
        RESULT = {{}}
        if {run_scan}:
            result = scan(text, compiled)
            RESULT = {{"matches": len(result.matches), "skipped": result.skipped}}
        """
    )


def _peak_of_scan(patterns: list[str], text_expression: str) -> dict:
    """The scan's result, and its peak memory above a process that builds the
    same text and compiles the same patterns without scanning (`added_mb`)."""
    baseline = run_peak(_scan_code(patterns, text_expression, run_scan=False), timeout=120)
    result = run_peak(_scan_code(patterns, text_expression, run_scan=True), timeout=120)
    return {**result, "added_mb": result["peak_mb"] - baseline["peak_mb"]}


def test_a_match_as_long_as_the_document_costs_no_memory_and_is_skipped_with_the_limit_named() -> None:
    """`(?:(a)|(b))+` on 3 MB: 514 MB above the process before, here a few. A
    lookbehind of any length (the `regex` module allows them) sees no further
    back than the window either: 560 MB before."""
    result = _peak_of_scan([r"(?:(a)|(b))+", r"(?<=(?:(a)|(b))+)c"], '"ab" * 1_500_000 + "c"')
    assert result["added_mb"] < 20, result
    assert result["matches"] == 1  # the "c", found by the lookbehind
    assert result["skipped"] == {
        "0": "skipped: a match longer than 1,000 characters in this document (MAX_CORPUS_PATTERN_MATCH_CHARS)"
    }


def test_many_long_matches_with_captures_are_kept_as_spans() -> None:
    """Four `(?:(((.))))+` over 3 MB of 999-character lines: 12,000 matches just
    under the limit, each of which held 999 × 4 captures as a match object."""
    result = _peak_of_scan([r"(?:(((.))))+"] * 4, '("x" * 999 + "\\n") * 1_000')
    assert result["added_mb"] < 20, result
    assert result["matches"] == 4_000 and result["skipped"] == {}


@settings(max_examples=300, deadline=None)
@given(
    text=st.text(alphabet="ab \n-1", max_size=80),
    pattern=st.sampled_from([r"a+", r"(?:a|b)+", r"\bab\b", r"a(?=b)", r"(?<=-)\d", r"(?P<v>b+)-", r"[ab]{2,3}"]),
)
def test_windows_find_what_a_search_of_the_whole_text_finds(text: str, pattern: str) -> None:
    """With every match shorter than the limit, the windowed search finds exactly
    what `finditer` over the whole text finds (a limit of 8 characters puts many
    window edges inside these texts)."""
    limits = PatternLimits(max_match_chars=8)
    compiled = compile_pattern(pattern)
    expected = [
        m.span("v") if "v" in compiled.groupindex and m.group("v") is not None else m.span()
        for m in compiled.finditer(text)
    ]
    result = scan(text, [compiled], limits)
    if any(m.end() - m.start() > 8 for m in compiled.finditer(text)):
        assert 0 in result.skipped and "MAX_CORPUS_PATTERN_MATCH_CHARS" in result.skipped[0]
    else:
        assert [(m.start, m.end) for m in result.matches] == expected


def _alternation(entries: dict[str, str], text: str) -> list[tuple[int, int, str]]:
    """What the allow list found before: one alternation, longest first."""
    labels = {t.strip().casefold(): label for t, label in entries.items()}
    forms = sorted({t.strip() for t in entries if t.strip()}, key=len, reverse=True)
    if not forms:
        return []
    pattern = re.compile(r"(?<!\w)(?:" + "|".join(re.escape(f) for f in forms) + r")(?!\w)", re.IGNORECASE)
    return [(m.start(), m.end(), labels[m.group().casefold()]) for m in pattern.finditer(text)]


@settings(max_examples=300, deadline=None)
@given(
    entries=st.dictionaries(
        st.text(alphabet="abAB .-#", min_size=1, max_size=6).filter(lambda t: t.strip()),
        st.sampled_from(["PERSON", "ID"]),
        max_size=6,
    ),
    text=st.text(alphabet="abAB .-#x", max_size=60),
)
def test_the_allow_list_finds_what_the_alternation_found(entries: dict[str, str], text: str) -> None:
    expected = _alternation(entries, text)
    found = AllowList(entries).find(text)
    if all(e.strip()[0].isalnum() and e.strip()[-1].isalnum() for e in entries):
        assert found == expected
    else:
        # An entry that begins or ends with a sign ("..", "#12"): overlapping
        # places may be chosen differently, never more of them, and each one
        # found is an entry.
        folded = {e.strip().casefold() for e in entries}
        assert len(found) <= len(expected)
        assert all(text[start:end].casefold() in folded for start, end, _label in found)


def test_the_allow_list_on_names_and_case() -> None:
    allow = AllowList({"John Smith": "PERSON", "Smith": "PERSON", "K-12": "ID", "St. Mary's": "LOCATION"})
    text = "JOHN SMITH met smith at St. Mary's; K-12 but not K-123 or Smithson. straße"
    found = [(text[s:e], label) for s, e, label in allow.find(text)]
    assert found == [("JOHN SMITH", "PERSON"), ("smith", "PERSON"), ("St. Mary's", "LOCATION"), ("K-12", "ID")]
    folded = AllowList({"Straße": "LOCATION"})
    text = "Die STRASSE und die Straße, Ärger"
    assert [text[s:e] for s, e, _ in folded.find(text)] == ["STRASSE", "Straße"]
    assert not AllowList({})


def test_a_large_allow_list_is_found_in_one_pass_in_bounded_memory() -> None:
    """A list at the limits (5,000 entries, 200,000 characters) on a 285 KB
    document: before, the alternation of a 9.5 MB list took 1,339 MB."""
    code = textwrap.dedent(
        """
        from pipelines.detection.recognizers.corpus_patterns import AllowList

        entries = {f"name{n:05d} " + "x" * 28: "PERSON" for n in range(5_000)}
        text = ("word name00042 " + "x" * 28 + " and more words. ") * 5_000
        found = AllowList(entries).find(text)
        RESULT = {"found": len(found), "chars": len(text)}
        """
    )
    result = run_peak(code, timeout=120)
    assert result["found"] == 5_000 and result["chars"] > 285_000
    assert result["peak_mb"] < 150, result


def test_the_lists_are_limited_in_the_configuration() -> None:
    long_entry = "x" * 201
    with pytest.raises(ConfigError, match="MAX_LIST_ENTRY_CHARS"):
        DetectionConfig(allow={long_entry: "PERSON"})
    with pytest.raises(ConfigError, match="MAX_LIST_ENTRIES"):
        DetectionConfig(deny=tuple(f"w{n}" for n in range(5_001)))
    nine_mb = {f"{n:05d}" + "y" * 190: "PERSON" for n in range(5_000)}
    with pytest.raises(ConfigError, match="MAX_LIST_CHARS"):
        DetectionConfig.from_dict({"allow": nine_mb})
    assert check_list("deny list", ["a", "b"]) == []
    assert check_list("deny list", ["abc"], PatternLimits(max_list_chars=2)) == [
        "the deny list has 3 characters in all; the limit is 2 (MAX_LIST_CHARS)"
    ]


def test_the_form_refuses_a_list_over_the_limits_with_the_setting_named() -> None:
    data = {**DetectionConfigForm.initial_for(DEFAULT), "allow": "PERSON: " + "z" * 300, "deny": "ok"}
    form = DetectionConfigForm(data)
    assert not form.is_valid()
    assert "MAX_LIST_ENTRY_CHARS" in str(form.errors["allow"])
    data = {**DetectionConfigForm.initial_for(DEFAULT), "deny": "\n".join(f"w{n}" for n in range(5_001))}
    form = DetectionConfigForm(data)
    assert not form.is_valid()
    assert "MAX_LIST_ENTRIES" in str(form.errors["deny"])


def test_the_new_limits_come_from_the_settings(settings) -> None:
    from anonymizer_site.apps import configure_engine_limits
    from pipelines.detection.recognizers import corpus_patterns

    previous = corpus_patterns.current_limits()
    settings.MAX_CORPUS_PATTERN_MATCH_CHARS = 5
    settings.MAX_LIST_ENTRIES = 1
    try:
        configure_engine_limits()
        result = scan("aaaaaaa", [compile_pattern("a+")])
        assert "(MAX_CORPUS_PATTERN_MATCH_CHARS)" in result.skipped[0]
        assert check_list("allow list", ["a", "b"]) == [
            "the allow list has 2 entries; the limit is 1 (MAX_LIST_ENTRIES)"
        ]
    finally:
        corpus_patterns.configure(previous)
