"""Evaluation: gold readers, matching, the synthetic hearing set, BENCHMARKS.md sections, the commands."""

import ast
import io
import json
import random
import re
from pathlib import Path

import pytest

from evaluation.__main__ import main as evaluation_main
from evaluation.scoring import (
    GoldSpan,
    Report,
    Score,
    markdown_section,
    match,
    read_conll,
    read_jsonl,
    replace_section,
    write_section,
)
from evaluation.synthetic import (
    LABELS,
    gazetteer_overlap,
    generate,
    generate_document,
    number_words,
    spoken_year,
    write_jsonl,
)
from pipelines.candidate import Candidate
from pipelines.labels import CANONICAL_LABELS
from pipelines.lexicons import ROLE_WORDS

CONLL = "John\tB-PER\nSmith\tI-PER\nvisited\tO\nParis\tB-LOC\n.\tO\n\nThe\tO\nUN\tB-ORG\nmet\tO\nEnglish\tB-MISC\n"


def test_conll_reader_rebuilds_text_and_spans(tmp_path):
    path = tmp_path / "gold.conll"
    path.write_text(CONLL)
    docs = list(read_conll(path, detokenize=False))
    assert [d.text for d in docs] == ["John Smith visited Paris .", "The UN met English"]
    assert docs[0].spans == [GoldSpan(0, 10, "PERSON"), GoldSpan(19, 24, "LOCATION")]
    assert docs[1].spans == [GoldSpan(4, 6, "ORGANIZATION")]  # MISC is not scored


def test_conll_reader_detokenizes_into_running_text(tmp_path):
    path = tmp_path / "gold.conll"
    rows = "Smith\tB-PER\n's\tO\nfilm\tO\n(\tO\n1998\tO\n)\tO\nwas\tO\nn't\tO\nshown\tO\nin\tO\nParis\tB-LOC\n.\tO\n"
    path.write_text(rows)
    (doc,) = read_conll(path)
    assert doc.text == "Smith's film (1998) wasn't shown in Paris."
    assert [doc.text[s.start : s.end] for s in doc.spans] == ["Smith", "Paris"]


def test_jsonl_reader(tmp_path):
    path = tmp_path / "gold.jsonl"
    path.write_text(json.dumps({"id": "a", "text": "Jo Li", "spans": [{"start": 0, "end": 5, "label": "PER"}]}) + "\n")
    assert list(read_jsonl(path))[0].spans == [GoldSpan(0, 5, "PERSON")]


def test_exact_and_overlap_matching():
    gold = [GoldSpan(0, 10, "PERSON"), GoldSpan(19, 24, "LOCATION")]
    predicted = [
        Candidate(5, 10, "PERSON", "Smith", ("s",), 1),
        Candidate(19, 24, "LOCATION", "Paris", ("s",), 1),
        Candidate(11, 18, "PERSON", "visited", ("s",), 1),
    ]
    exact: dict[str, Score] = {"PERSON": Score(), "LOCATION": Score()}
    overlap: dict[str, Score] = {"PERSON": Score(), "LOCATION": Score()}
    match(gold, predicted, {"PERSON", "LOCATION"}, overlap=False, scores=exact)
    match(gold, predicted, {"PERSON", "LOCATION"}, overlap=True, scores=overlap)
    assert (exact["PERSON"].tp, exact["PERSON"].fp, exact["PERSON"].fn) == (0, 2, 1)
    assert (overlap["PERSON"].tp, overlap["PERSON"].fp, overlap["PERSON"].fn) == (1, 1, 0)
    assert exact["LOCATION"].f1 == 1.0


def test_evaluate_command_reports_ensemble_and_each_source(tmp_path):
    path = tmp_path / "gold.conll"
    path.write_text(CONLL)
    out = io.StringIO()
    evaluation_main(["evaluate", str(path), "--json"], out=out)
    report = json.loads(out.getvalue())
    assert report["documents"] == 2
    assert {"ensemble", "spacy"} <= set(report["scores"])
    assert report["scores"]["ensemble"]["exact"]["PERSON"]["tp"] == 1


def test_evaluate_can_score_only_documents_that_hold_a_name(tmp_path):
    """Seed 001's protocol: sentences without a name are left out."""
    path = tmp_path / "gold.conll"
    path.write_text(CONLL)
    out = io.StringIO()
    evaluation_main(["evaluate", str(path), "--json", "--with-label", "PERSON"], out=out)
    report = json.loads(out.getvalue())
    assert report["documents"] == 1
    assert report["scores"]["ensemble"]["exact"]["PERSON"]["tp"] == 1
    out = io.StringIO()
    evaluation_main(["evaluate", str(path), "--json", "--with-label", "per"], out=out)  # the gold's own tag
    assert json.loads(out.getvalue())["documents"] == 1
    with pytest.raises(SystemExit, match="no documents"):
        evaluation_main(["evaluate", str(path), "--with-label", "AGE"], out=io.StringIO())


# --- synthetic hearing transcripts -------------------------------------------------


def test_generator_is_deterministic_per_seed():
    first = list(generate(3, seed=5))
    again = list(generate(3, seed=5))
    other = list(generate(3, seed=6))
    assert first == again
    assert [d.text for d in first] != [d.text for d in other]
    # A document depends on (seed, number) only, not on how many were asked for.
    assert generate_document(5, 2) == first[2]


def test_every_gold_span_is_exactly_its_text():
    documents = list(generate(25, seed=1))
    for document in documents:
        previous_end = 0
        for span in document.spans:
            text = document.text[span.start : span.end]
            assert text and text == text.strip(), (document.id, span)
            assert span.start >= previous_end, "gold spans are sorted and never overlap"
            previous_end = span.end
            assert span.label in LABELS
    used = {s.label for d in documents for s in d.spans}
    assert used == LABELS  # every label of the set occurs
    assert set(CANONICAL_LABELS) >= LABELS


def test_gold_follows_the_detectors_conventions():
    document = generate_document(1, 0)
    spans = [(document.text[s.start : s.end], s.label) for s in document.spans]
    persons = [t for t, label in spans if label == "PERSON"]
    # Titles, roles and possessives stay outside PERSON.
    assert not [p for p in persons if p.split()[0].rstrip(".").lower() in ROLE_WORDS]
    assert not [p for p in persons if p.endswith(("'s", "’s"))]
    # Speaker labels: the role outside, the name in capitals inside, up to the colon.
    person_spans = {(s.start, s.end) for s in document.spans if s.label == "PERSON"}
    offset = 0
    speakers = 0
    for line in document.text.splitlines(keepends=True):
        label, colon, _ = line.partition(": ")
        if colon and label.isupper():
            speakers += 1
            name = next(s for s, e in person_spans if e == offset + len(label))
            assert offset < name and document.text[name : offset + len(label)].isupper()
        offset += len(line)
    assert speakers > 20
    # The CDCR number is an ID without its cue; a city and its state are one LOCATION.
    assert any(label == "ID" and re.fullmatch(r"[A-Z]{1,2}-?\d{4,6}", t) for t, label in spans)
    assert any(label == "LOCATION" and t.endswith(", California") for t, label in spans)
    assert all(re.fullmatch(r"[A-Z](?: ?- ?[A-Z])+", t) for t, label in spans if label == "SPELLED_NAME")


def test_names_are_not_drawn_from_the_gazetteer():
    import evaluation.synthetic as module

    # The names are the module's own lists, never Faker's (which the gazetteer is).
    tree = ast.parse(Path(module.__file__).read_text())
    imported = [
        name
        for node in ast.walk(tree)
        if isinstance(node, ast.Import | ast.ImportFrom)
        for name in [getattr(node, "module", None) or "", *(alias.name for alias in node.names)]
    ]
    assert imported and not [name for name in imported if "faker" in name.lower()]
    overlap = gazetteer_overlap()
    # Common names are in Faker's lists anyway, but far from all of ours.
    assert 0 < overlap["first_names"] < 0.9
    assert 0 < overlap["surnames"] < 0.9


def test_jsonl_round_trip(tmp_path):
    documents = list(generate(2, seed=3))
    path = tmp_path / "gold.jsonl"
    assert write_jsonl(documents, path) == 2
    assert list(read_jsonl(path)) == documents


def test_spoken_forms():
    assert number_words(22) == "twenty-two"
    assert number_words(19) == "nineteen"
    r = random.Random(0)
    assert spoken_year(1998, r) == "nineteen ninety-eight"
    assert spoken_year(1905, r) == "nineteen oh-five"
    assert spoken_year(2003, r) in {"two thousand three", "two thousand and three"}


# --- BENCHMARKS.md sections ---------------------------------------------------------

BENCHMARKS = (
    "# Benchmarks\n\n## Other\n\nkeep me\n\n<!-- eval:dev:start -->\nold numbers\n<!-- eval:dev:end -->\n\ntail\n"
)


def test_replace_section_between_markers_leaves_the_rest():
    updated = replace_section(BENCHMARKS, "dev", "new \\1 numbers")
    assert "old numbers" not in updated
    assert "<!-- eval:dev:start -->\nnew \\1 numbers\n<!-- eval:dev:end -->" in updated
    assert updated.replace("new \\1 numbers", "old numbers") == BENCHMARKS
    assert replace_section(updated, "dev", "new \\1 numbers") == updated  # idempotent


def test_replace_section_appends_when_markers_are_absent():
    updated = replace_section(BENCHMARKS, "synthetic", "table")
    assert updated.startswith(BENCHMARKS.rstrip("\n"))
    assert updated.endswith("\n\n<!-- eval:synthetic:start -->\ntable\n<!-- eval:synthetic:end -->\n")
    # The other section is untouched, and a second write replaces rather than appends.
    again = replace_section(updated, "synthetic", "table 2")
    assert again.count("eval:synthetic:start") == 1 and "table 2" in again and "old numbers" in again


def test_write_section_creates_the_file(tmp_path):
    path = tmp_path / "B.md"
    write_section(path, "x", "body")
    assert path.read_text() == "<!-- eval:x:start -->\nbody\n<!-- eval:x:end -->\n"


def test_markdown_section_reports_run_and_scores():
    report = Report(documents=2, characters=100, words=20, seconds=0.5, peak_rss_mb=10)
    report.scores = {
        "ensemble": {"exact": {"PERSON": Score(8, 2, 2)}, "overlap": {"PERSON": Score(9, 1, 1)}},
        "spacy": {"exact": {"PERSON": Score(5, 1, 5)}, "overlap": {"PERSON": Score(5, 1, 5)}},
        "patterns": {"exact": {"PERSON": Score(0, 0, 10)}, "overlap": {"PERSON": Score(0, 0, 10)}},
    }
    report.covered = {"PERSON": Score(tp=9, fn=1)}
    body = markdown_section(report, title="T", command="python manage.py evaluate g.jsonl")
    assert body.startswith("### T\n")
    assert "`python manage.py evaluate g.jsonl`" in body and "cores" in body
    assert "2 documents, 100 characters, 20 words" in body and "200 chars/s" in body
    assert "| PERSON | 10 | 0.800 (0.900) | 0.800 (0.900) | 0.800 (0.900) | 0.900 |" in body
    assert "| spacy | 0.833 (0.833) | 0.500 (0.500) |" in body
    assert "| patterns |" not in body  # proposed no PERSON at all


def test_evaluate_command_on_synthetic_set_writes_benchmarks(tmp_path):
    gold = tmp_path / "synthetic.jsonl"
    out = io.StringIO()
    evaluation_main(["generate", str(gold), "--count", "2", "--seed", "3"], out=out)
    assert "2 transcripts" in out.getvalue() and "gazetteer" in out.getvalue()
    assert len(gold.read_text().splitlines()) == 2
    benchmarks = tmp_path / "BENCHMARKS.md"
    benchmarks.write_text(BENCHMARKS)
    out = io.StringIO()
    evaluation_main(
        ["evaluate", str(gold), "--benchmarks", str(benchmarks), "--markdown-section", "dev", "--title", "Syn"],
        out=out,
    )
    text = benchmarks.read_text()
    assert "old numbers" not in text and "keep me" in text and text.endswith("tail\n")
    section = text.split("<!-- eval:dev:start -->")[1].split("<!-- eval:dev:end -->")[0]
    assert "### Syn" in section and f"python -m evaluation evaluate {gold}" in section
    rows = {line.split(" | ")[0].lstrip("| ") for line in section.splitlines() if line.startswith("| ")}
    assert {"PERSON", "DATE", "AGE", "ID", "SPELLED_NAME", "**all**", "cues"} <= rows
    person = next(line for line in section.splitlines() if line.startswith("| PERSON |"))
    recall = float(person.split(" | ")[3].split()[0])
    assert recall > 0.5  # the pipeline does find the speakers and the people named
    assert "| ensemble | PERSON | exact |" in out.getvalue()
    # Speaker labels and cover-page names (capitals) are told apart from running text.
    assert re.search(r"capitals [\d,]+ spans, recall [\d.]+ \([\d.]+\); running text [\d,]+ spans", section)


def test_benchmarks_needs_a_section_name(tmp_path):
    gold = tmp_path / "g.jsonl"
    write_jsonl(generate(1, seed=0), gold)
    with pytest.raises(SystemExit, match="go together"):
        evaluation_main(["evaluate", str(gold), "--benchmarks", str(tmp_path / "B.md")])


def test_the_gold_recased_keeps_every_span_on_its_words():
    from evaluation.realgold import GoldDoc, recased

    doc = GoldDoc("d", "Q. Did Marcus Delgado call?", [(7, 21, "PERSON")], [])
    lower, upper = recased(doc, "lower"), recased(doc, "upper")
    assert lower.text[7:21] == "marcus delgado" and upper.text[7:21] == "MARCUS DELGADO"
    assert lower.counted == doc.counted
    asr = recased(GoldDoc("d", "Then I'm told Ian said I am", [], []), "asr")
    assert asr.text == "then I'm told ian said I am"
    with pytest.raises(ValueError, match="changes length"):
        recased(GoldDoc("g", "Straße", [], []), "upper")


def test_a_gold_of_one_section_is_reported_without_cross_validation():
    """A short gold file (one section) has no fold to hold out: the section says so
    instead of the fit failing on an empty training set."""
    from evaluation.realgold import Sample, calibrate

    one_section = [Sample("d#0", [1.0, 0.9], 1, "Ann"), Sample("d#0", [1.0, 0.2], 0, "We")]
    result = calibrate(one_section)
    assert result.held_out == [] and result.groups == 1 and len(result.weights) == 2
    assert result.at_least(0.9)[0] == 0
