"""A quasi-identifier flag and the spans that overlap it in an export (issue 18).

A flag counts as covered only when one span whose strategy replaces text contains
it entirely; otherwise its mask or generalisation applies and the spans overlapping
it give way (the replacement grows over a span reaching past it)."""

from pipelines.candidate import Candidate
from pipelines.export.quasi import COVERED, QuasiFlag, Taken, apply
from pipelines.export.writer import ExportDocument, render_document
from pipelines.pseudonymize.engine import PseudonymizationConfig

TEXT = "She told us about the 2003 Henderson robbery at length. Henderson was never charged."
STRETCH = "the 2003 Henderson robbery"


def henderson() -> Candidate:
    at = TEXT.rindex("Henderson")
    return Candidate(at, at + 9, "PERSON", "Henderson", ("x",), 1.0)


def misc(decision: str = "mask", generalised: str = "") -> QuasiFlag:
    at = TEXT.index(STRETCH)
    return QuasiFlag(at, at + len(STRETCH), "MISC", decision, generalised)


def test_a_completed_name_inside_a_masked_flag_does_not_undo_the_mask() -> None:
    # The confirmed case: the export completes "Henderson" inside the flag.
    output = render_document(ExportDocument(1, "t.txt", TEXT, [henderson()], quasi=[misc()]))
    assert output.redacted_text == "She told us about [MISC] at length. [PERSON_1] was never charged."
    assert output.leaks == []
    assert COVERED not in output.index_text
    assert "QI MISC | mask | [MISC]" in output.index_text
    assert "Henderson" not in output.redacted_text


def test_an_accepted_span_inside_the_flag_gives_way_to_a_generalisation() -> None:
    inside = Candidate(TEXT.index("Henderson"), TEXT.index("Henderson") + 9, "PERSON", "Henderson", ("x",), 1.0)
    output = render_document(
        ExportDocument(1, "t.txt", TEXT, [inside, henderson()], quasi=[misc("generalise", "a robbery")])
    )
    assert output.redacted_text == "She told us about a robbery at length. [PERSON_1] was never charged."
    assert output.leaks == []
    assert "QI MISC | generalise | a robbery" in output.index_text


def test_a_keep_span_containing_the_flag_does_not_cover_it() -> None:
    at = TEXT.index("2003 Henderson robbery at")
    whole = Candidate(at - 4, TEXT.index(" at length"), "MISC", STRETCH, ("x",), 1.0)
    config = PseudonymizationConfig(per_label={"MISC": "keep"})
    output = render_document(ExportDocument(1, "t.txt", TEXT, [whole], quasi=[misc()]), config)
    assert output.redacted_text == "She told us about [MISC] at length. Henderson was never charged."
    assert COVERED not in output.index_text


def test_a_replacing_span_containing_the_flag_covers_it() -> None:
    at = TEXT.index(STRETCH)
    whole = Candidate(at, TEXT.index(" length"), "MISC", TEXT[at : TEXT.index(" length")], ("x",), 1.0)
    output = render_document(ExportDocument(1, "t.txt", TEXT, [whole], quasi=[misc()]))
    assert output.redacted_text == "She told us about [MISC_1] length. Henderson was never charged."
    assert f"QI MISC | mask | (left as written) | @{at}-{at + len(STRETCH)} | {COVERED}" in output.index_text


def test_a_span_reaching_past_the_flag_is_replaced_with_it() -> None:
    # The simplest safe behaviour: the flag's replacement grows over the whole span,
    # so neither the flag's nor the span's text is written as it was.
    at = TEXT.index("robbery")
    past = Candidate(at, at + len("robbery at"), "MISC", "robbery at", ("x",), 1.0)
    output = render_document(ExportDocument(1, "t.txt", TEXT, [past], quasi=[misc()]))
    assert output.redacted_text == "She told us about [MISC] length. Henderson was never charged."
    start = TEXT.index(STRETCH)
    assert f"replaces @{start}-{at + len('robbery at')}" in output.index_text


def test_flags_whose_stretches_meet_share_one_replacement() -> None:
    text = "aaa bbb ccc ddd"
    flags = [QuasiFlag(0, 3, "DEM", "mask"), QuasiFlag(8, 11, "LOC", "mask")]
    applied = apply(text, flags, [Taken(2, 9)])
    assert [(r.start, r.end, r.replacement) for r in applied.replacements] == [(0, 11, "[DEM]")]
    assert applied.dropped == {0}


def test_kept_and_undecided_flags_leave_the_spans_alone() -> None:
    applied = apply("aaa bbb", [QuasiFlag(0, 7, "DEM", "keep")], [Taken(4, 7)])
    assert applied.replacements == [] and applied.dropped == set()
