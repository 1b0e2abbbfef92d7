"""The real French gold (evaluation/gold/fr/wikipedia_real.jsonl): sentences set aside
from WikiNEuRal French validation, annotated under the guideline, and never scored
as development data by `python -m evaluation evaluate`."""

import io
import json

from evaluation import __main__ as evaluation_cli
from evaluation.french_wiki_gold import ANNOTATIONS, EXCLUDED, HELD_OUT, OUT, SENTENCES_PER_DOCUMENT, spans_of

GUIDELINE_LABELS = {"PERSON", "LOCATION", "ORGANIZATION", "DATE", "TIME", "AGE", "ID", "PHONE_NUMBER", "URL"}
CONLL = "John\tB-PER\nSmith\tI-PER\nvisited\tO\nParis\tB-LOC\n.\tO\n\nThe\tO\nUN\tB-ORG\nmet\tO\nEnglish\tB-MISC\n"


def test_the_gold_is_the_held_out_sentences_annotated_under_the_guideline():
    records = [json.loads(line) for line in OUT.read_text(encoding="utf-8").splitlines()]
    assert len(records) * SENTENCES_PER_DOCUMENT == len(HELD_OUT) == 60
    assert [r["id"] for r in records] == [f"wikineural-fr-{HELD_OUT.start + 15 * n}" for n in range(4)]
    for record, notes in zip(records, ANNOTATIONS, strict=True):
        text = record["text"]
        assert record["spans"] == spans_of(text, notes)  # the file is what the annotations say
        ends = [(s["start"], s["end"]) for s in record["spans"]]
        assert all(a[1] <= b[0] for a, b in zip(ends, ends[1:], strict=False))  # never overlapping
        for span in record["spans"]:
            assert text[span["start"] : span["end"]] == span["text"] and span["label"] in GUIDELINE_LABELS


def test_evaluate_leaves_the_held_out_sentences_out(tmp_path, monkeypatch):
    path = tmp_path / "split.conll"
    path.write_text(CONLL)
    monkeypatch.setattr(evaluation_cli, "EXCLUDED", {"split.conll": range(1, 2)})
    out = io.StringIO()
    evaluation_cli.main(["evaluate", str(path), "--json"], out=out)
    assert json.loads(out.getvalue())["documents"] == 1
    assert EXCLUDED == {"wikineural_fr_val.conll": HELD_OUT}
