"""A small real French gold: 60 consecutive sentences of WikiNEuRal French validation.

No French Wikinews and no network here, but WikiNEuRal's French sentences are real
Wikipedia text (CC BY-SA) with real names. The last 60 sentences of the validation
split (`HELD_OUT`, sentence numbers counted from 0) were set aside before anyone looked
at them for development: `python -m evaluation evaluate` drops them from that file
(`EXCLUDED`), so the French rules are never tuned on the text of this gold. They are
joined into four documents of 15 sentences and annotated by hand following
../shared/annotation-guideline.md (PERSON, LOCATION, ORGANIZATION, DATE, …), reading the
text, not copying WikiNEuRal's tags: see evaluation/gold/fr/README.md.

`python -m evaluation.french_wiki_gold ../shared/data/dev/wikineural_fr_val.conll` writes
evaluation/gold/fr/wikipedia_real.jsonl; the annotations are (label, text[, "optional"])
lists, every whole-word occurrence located in the documents' text, so that the offsets
cannot drift. `python -m evaluation.french_wiki_gold score PREDICTED WORKDIR SCORER` scores a
`detect --language fr` output with ../shared/tools/score_spans.py, overall and per label.
"""

import json
import re
import subprocess
import sys
from pathlib import Path

from evaluation.scoring import read_conll

SOURCE_NAME = "wikineural_fr_val.conll"
# Sentences 12,540-12,599 (the split's last 60): this gold, never development data.
HELD_OUT = range(12540, 12600)
# Gold file name → sentence numbers `evaluate` leaves out of it.
EXCLUDED: dict[str, range] = {SOURCE_NAME: HELD_OUT}
SENTENCES_PER_DOCUMENT = 15
OUT = Path(__file__).resolve().parent / "gold" / "fr" / "wikipedia_real.jsonl"

# Per document (15 sentences each, in order): (label, text) or (label, text, "optional").
# Every whole-word occurrence of a text in its document is marked, longest texts first.
# Read from the text under the guideline, not copied from WikiNEuRal's tags: years are
# DATE (WikiNEuRal tags no dates), a team named by its city ("avec Edmonton") is the
# team, titles of works and products ("Jumanji", "Nintendo DS") are not marked.
Annotation = tuple[str, str] | tuple[str, str, str]
ANNOTATIONS: list[list[Annotation]] = [
    [  # sentences 12,540-12,554
        ("LOCATION", "France"),
        ("DATE", "1983"),
        ("DATE", "1995"),
        ("PERSON", "Joe Johnston"),
        ("ORGANIZATION", "Mariners de Seattle"),
        ("DATE", "2017"),
        ("PERSON", "Emmanuel Macron"),
        ("ORGANIZATION", "LREM"),
        ("PERSON", "Marine Le Pen"),
        ("ORGANIZATION", "FN"),
        ("DATE", "2011"),
        ("ORGANIZATION", "Nationals de Washington"),
        # The year inside an event's name ("Classique mondiale de baseball 2006").
        ("DATE", "2006", "optional"),
        ("ORGANIZATION", "Lotte Giants"),
        ("DATE", "2005"),
        ("PERSON", "Pierre Bourdieu"),
        ("LOCATION", "Québec"),
        ("ORGANIZATION", "Université du Québec à Montréal"),
        ("ORGANIZATION", "NBA"),
        ("PERSON", "Chuck Person"),
        ("LOCATION", "Itxassou"),
        ("LOCATION", "Laxia"),
        ("LOCATION", "Nive"),
        ("LOCATION", "Ursuya"),
        ("LOCATION", "Grande-Bretagne"),
    ],
    [  # sentences 12,555-12,569
        ("ORGANIZATION", "RJ Reynolds Tobacco Company"),
        ("PERSON", "James Belushi"),
        ("PERSON", "Jacques Frantz"),
        # Public bodies named by a lower-case head noun: borderline.
        ("ORGANIZATION", "syndicat mixte de la Nive maritime", "optional"),
        ("ORGANIZATION", "syndicat mixte du Musée basque et de l' histoire de Bayonne", "optional"),
        ("PERSON", "Kazuki Nakashima"),
        ("ORGANIZATION", "ASCII Media Works"),
        ("ORGANIZATION", "Beez Entertainment"),
        ("ORGANIZATION", "AB Groupe"),
        ("ORGANIZATION", "Union des villes taurines françaises"),
        ("PERSON", "Hiroyuki Imaishi"),
        # A magazine: a publication's title more than an organization.
        ("ORGANIZATION", "Dengeki Daioh", "optional"),
        ("LOCATION", "Écosse"),
        ("LOCATION", "Canada"),
        ("ORGANIZATION", "Aviron bayonnais rugby pro"),
        ("ORGANIZATION", "Aviron bayonnais football club"),
        ("ORGANIZATION", "Oilers"),
    ],
    [  # sentences 12,570-12,584
        ("ORGANIZATION", "Edmonton"),
        ("ORGANIZATION", "Blackhawks de Chicago"),
        ("DATE", "1991"),
        ("DATE", "1992"),
        ("ORGANIZATION", "Penguins de Pittsburgh"),
        ("ORGANIZATION", "Flames de Calgary"),
        ("DATE", "1978"),
        ("LOCATION", "Biarritz"),
        ("LOCATION", "Californie"),
        ("PERSON", "Charlie Parker"),
        ("PERSON", "Bud Powell"),
        ("LOCATION", "New York"),
        ("PERSON", "Jimmy Heath"),
        ("PERSON", "Dizzy Gillespie"),
        ("LOCATION", "Philadelphie"),
        ("PERSON", "Earl Bostic"),
        ("PERSON", "Yusef Lateef"),
        ("LOCATION", "stade Jean-Dauger"),
        ("PERSON", "Miles Davis"),
        # A month with no day: not a DATE under the guideline, not wrong either.
        ("DATE", "mars", "optional"),
        ("DATE", "novembre", "optional"),
        ("LOCATION", "Europe"),
        ("LOCATION", "Burgos"),
        ("LOCATION", "camino francés", "optional"),
    ],
    [  # sentences 12,585-12,599
        ("ORGANIZATION", "Ligue majeure de baseball"),
        ("DATE", "1991"),
        ("DATE", "2007"),
        ("ORGANIZATION", "Indians de Cleveland"),
        ("ORGANIZATION", "Cardinals de Saint-Louis"),
        ("LOCATION", "Japon"),
        ("ORGANIZATION", "Onet"),
        ("ORGANIZATION", "Brink' s"),
        ("ORGANIZATION", "Ligue nationale"),
        ("PERSON", "Corey Seager"),
        ("LOCATION", "fleuve Jaune"),
        ("DATE", "an 30", "optional"),
        ("LOCATION", "Sichuan"),
        ("LOCATION", "Tarnos"),
        ("LOCATION", "Espagne"),
        ("LOCATION", "Luoyang"),
        ("LOCATION", "Henan"),
        ("LOCATION", "Pékin"),
        ("LOCATION", "Chengdu"),
        ("LOCATION", "Taiyuan"),
        ("LOCATION", "Shanxi"),
        ("LOCATION", "Guilin"),
        ("LOCATION", "Guangxi"),
        ("DATE", "755"),
        ("PERSON", "An Lushan"),
        ("LOCATION", "Chine"),
        ("LOCATION", "Shaanxi"),
        ("ORGANIZATION", "Total"),
        ("LOCATION", "Donges"),
        ("ORGANIZATION", "MediaWorks"),
    ],
]


def spans_of(text: str, annotations: list[Annotation]) -> list[dict]:
    """Every whole-word occurrence of each annotated text, longest first, never
    overlapping a span already marked; a text that does not occur is an error."""
    taken: list[tuple[int, int]] = []
    spans = []
    for label, value, *flag in sorted(annotations, key=lambda a: -len(a[1])):
        matches = list(re.finditer(rf"(?<!\w){re.escape(value)}(?!\w)", text))
        if not matches:
            raise ValueError(f"{value!r} is not in the document")
        for match in matches:
            start, end = match.span()
            if any(s < end and start < e for s, e in taken):
                continue
            taken.append((start, end))
            span = {"start": start, "end": end, "label": label, "text": value}
            if flag:
                span["optional"] = True
            spans.append(span)
    return sorted(spans, key=lambda s: s["start"])


def records(conll: Path) -> list[dict]:
    sentences = [d.text for d in read_conll(conll) if int(d.id) in HELD_OUT]
    if len(sentences) != len(HELD_OUT):
        raise SystemExit(f"{conll}: expected sentences {HELD_OUT.start}-{HELD_OUT.stop - 1}")
    out = []
    for n, notes in enumerate(ANNOTATIONS):
        first = n * SENTENCES_PER_DOCUMENT
        text = " ".join(sentences[first : first + SENTENCES_PER_DOCUMENT]) + "\n"
        number = HELD_OUT.start + first
        out.append({"id": f"wikineural-fr-{number}", "text": text, "spans": spans_of(text, notes)})
    return out


# The French pipeline's labels → the guideline's, to score against this gold: a
# lawyer or a judge is a PERSON, a court an ORGANIZATION, a bar's town and an address
# a LOCATION, a case number and a plate an ID.
GUIDELINE_LABELS: dict[str, str] = {
    "LAWYER": "PERSON",
    "JUDGE_CLERK": "PERSON",
    "COURT": "ORGANIZATION",
    "BAR": "LOCATION",
    "ADDRESS": "LOCATION",
    "RG": "ID",
    "LICENCE_PLATE": "ID",
}


def _read(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def _write(path: Path, records: list[dict]) -> None:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf-8")


def score(gold: Path, predicted: Path, scorer: Path, work: Path) -> str:
    """score_spans.py over the whole gold (its PERSON, untyped and typed views), then
    once per label over that label's gold and predictions alone (the neutral spans
    of every label kept), which makes its typed view that label's P and R."""
    work.mkdir(parents=True, exist_ok=True)
    golds = _read(gold)
    if any(GUIDELINE_LABELS.get(s["label"]) for g in golds for s in g["spans"]):
        # A gold in the French labels (the synthetic decisions): mapped the same way.
        for record in golds:
            for span in record["spans"]:
                span["label"] = GUIDELINE_LABELS.get(span["label"], span["label"])
        gold = work / "gold.jsonl"
        _write(gold, golds)
    predictions = _read(predicted)
    for record in predictions:
        for span in record["spans"]:
            span["label"] = GUIDELINE_LABELS.get(span["label"], span["label"])
    mapped = work / "predicted.jsonl"
    _write(mapped, predictions)
    run = [sys.executable, str(scorer)]
    report = [subprocess.run([*run, str(gold), str(mapped)], capture_output=True, text=True, check=True).stdout]
    labels = sorted({s["label"] for g in golds for s in g["spans"] if not s.get("optional")})
    rows = [
        "| label | P exact | R exact | P overlap | R overlap | gold (counted) | predicted |",
        "|---|---|---|---|---|---|---|",
    ]
    for label in labels:
        one_gold = [
            {**g, "spans": [s for s in g["spans"] if s["label"] == label or s.get("optional") or s.get("generic")]}
            for g in golds
        ]
        one_pred = [{**p, "spans": [s for s in p["spans"] if s["label"] == label]} for p in predictions]
        _write(work / "gold_one.jsonl", one_gold)
        _write(work / "pred_one.jsonl", one_pred)
        out = subprocess.run(
            [*run, str(work / "gold_one.jsonl"), str(work / "pred_one.jsonl"), "--summary-json"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        summary = json.loads(out.strip().splitlines()[-1])
        counted = sum(1 for g in one_gold for s in g["spans"] if s["label"] == label and not s.get("optional"))
        found = sum(len(p["spans"]) for p in one_pred)
        cells = [summary.get(f"ALL_typed_{mode}_{k}") for mode in ("exact", "overlap") for k in "PR"]
        rows.append(
            f"| {label} | " + " | ".join("–" if c is None else f"{c:.3f}" for c in cells) + f" | {counted} | {found} |"
        )
    return "\n".join(rows) + "\n\n" + report[0]


def main(argv: list[str]) -> int:
    if len(argv) in (5, 6) and argv[1] == "score":
        # An optional last argument scores another gold (the synthetic decisions).
        scorer, gold = Path(argv[4]), Path(argv[5]) if len(argv) == 6 else OUT
        sys.stdout.write(score(gold, Path(argv[2]), scorer, Path(argv[3])))
        return 0
    if len(argv) != 2:
        sys.stderr.write(
            "usage: python -m evaluation.french_wiki_gold WIKINEURAL_FR_VAL.conll\n"
            "       python -m evaluation.french_wiki_gold score PREDICTED.jsonl WORKDIR SCORE_SPANS.py [GOLD.jsonl]\n"
        )
        return 2
    documents = records(Path(argv[1]))
    OUT.parent.mkdir(parents=True, exist_ok=True)
    with open(OUT, "w", encoding="utf-8") as handle:
        for record in documents:
            handle.write(json.dumps(record, ensure_ascii=False) + "\n")
    spans = [s for d in documents for s in d["spans"]]
    optional = sum(1 for s in spans if s.get("optional"))
    sys.stdout.write(f"{len(spans)} spans ({optional} optional) in {len(documents)} documents → {OUT}\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
