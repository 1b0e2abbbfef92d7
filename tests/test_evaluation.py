"""Evaluation: gold readers, matching, and the `evaluate` command."""

import io
import json

from django.core.management import call_command

from pipelines.detection.candidate import Candidate
from pipelines.evaluation import GoldSpan, Score, match, read_conll, read_jsonl

CONLL = "John\tB-PER\nSmith\tI-PER\nvisited\tO\nParis\tB-LOC\n.\tO\n\nThe\tO\nUN\tB-ORG\nmet\tO\nEnglish\tB-MISC\n"


def test_conll_reader_rebuilds_text_and_spans(tmp_path):
    path = tmp_path / "gold.conll"
    path.write_text(CONLL)
    docs = list(read_conll(path))
    assert [d.text for d in docs] == ["John Smith visited Paris .", "The UN met English"]
    assert docs[0].spans == [GoldSpan(0, 10, "PERSON"), GoldSpan(19, 24, "LOCATION")]
    assert docs[1].spans == [GoldSpan(4, 6, "ORGANIZATION")]  # MISC is not scored


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
    call_command("evaluate", str(path), "--json", stdout=out)
    report = json.loads(out.getvalue())
    assert report["documents"] == 2
    assert {"ensemble", "spacy"} <= set(report["scores"])
    assert report["scores"]["ensemble"]["exact"]["PERSON"]["tp"] == 1
