"""`python -m evaluation evaluate GOLD …` and `python -m evaluation generate OUT …`.

Evaluation runs the engine directly (no Django, no database): it scores the
default detection pipeline, the one `manage.py detect` runs, against gold data,
and writes the synthetic hearing gold set. The product never imports this package.
"""

import argparse
import json
import math
import os
import shlex
import sys
from itertools import islice
from pathlib import Path
from typing import TYPE_CHECKING

from evaluation.french_wiki_gold import EXCLUDED
from evaluation.scoring import (
    GOLD_LABELS,
    PRESIDIO_ALONE,
    evaluate,
    markdown_section,
    presidio_alone,
    read_conll,
    read_jsonl,
    write_section,
)
from evaluation.synthetic import gazetteer_overlap, generate, write_jsonl
from pipelines.detection.config import DEFAULT_MODEL

if TYPE_CHECKING:  # realgold loads the engine's models: imported where it is used
    from evaluation.realgold import Calibration, GoldReport, LabelRow
from pipelines.detection.languages import model_for


def _model(arguments: argparse.Namespace) -> str:
    language = getattr(arguments, "language", "en")
    return arguments.model or model_for(language, os.environ.get("SPACY_MODEL") or DEFAULT_MODEL)


def _command_line(arguments: argparse.Namespace) -> str:
    """The command that reproduces these numbers (without the output options)."""
    parts = ["python", "-m", "evaluation", "evaluate", str(arguments.gold)]
    if arguments.format:
        parts += ["--format", arguments.format]
    if arguments.limit is not None:
        parts += ["--limit", str(arguments.limit)]
    if arguments.with_label:
        parts += ["--with-label", arguments.with_label]
    if arguments.model:
        parts += ["--model", arguments.model]
    if arguments.language != "en":
        parts += ["--language", arguments.language]
    if arguments.compare_presidio:
        parts += ["--compare-presidio"]
    return shlex.join(parts)


def run_evaluate(arguments: argparse.Namespace, out=sys.stdout) -> int:
    path: Path = arguments.gold
    if not path.exists():
        raise SystemExit(f"{path}: no such file")
    if bool(arguments.benchmarks) != bool(arguments.markdown_section):
        raise SystemExit("--benchmarks and --markdown-section go together")
    fmt = arguments.format or ("jsonl" if path.suffix == ".jsonl" else "conll")
    reader = read_jsonl if fmt == "jsonl" else read_conll
    documents = reader(path)
    excluded = EXCLUDED.get(path.name) if fmt == "conll" else None
    if excluded is not None:
        # Sentences set aside as our own French gold (french_wiki_gold.py): never
        # development data, so never scored here either.
        documents = (d for d in documents if int(d.id) not in excluded)
    if arguments.with_label:
        # Seed 001's protocol: only sentences that hold a name are scored, so its
        # precision is that of a tool run on text known to contain names. The gold's
        # own tag ("PER") and ours ("PERSON") both work.
        wanted = GOLD_LABELS.get(arguments.with_label.upper(), arguments.with_label.upper())
        documents = (d for d in documents if any(s.label == wanted for s in d.spans))
    documents = list(islice(documents, arguments.limit))
    if not documents:
        raise SystemExit(f"{path}: no documents")
    model = _model(arguments)
    report = evaluate(documents, model, arguments.language)
    if arguments.compare_presidio:
        report.scores[PRESIDIO_ALONE] = presidio_alone(documents, model, arguments.language)
    if arguments.benchmarks:
        body = markdown_section(
            report,
            title=arguments.title or path.name,
            command=_command_line(arguments),
            note=arguments.note,
            model=model,
        )
        write_section(arguments.benchmarks, arguments.markdown_section, body)
    if arguments.json:
        out.write(json.dumps(report.as_dict(), indent=2) + "\n")
        return 0
    summary = report.as_dict()
    out.write(
        f"{summary['documents']} documents, {summary['characters']} characters, {summary['words']} words, "
        f"{summary['chars_per_second']} chars/s, peak RSS {summary['peak_rss_mb']} MB\n"
    )
    if excluded is not None:
        gold = "the French real gold's (french_wiki_gold.py)"
        out.write(f"left out sentences {excluded.start}-{excluded.stop - 1}: {gold}\n")
    out.write(report.table() + "\n")
    if arguments.benchmarks:
        out.write(f"wrote section {arguments.markdown_section!r} of {arguments.benchmarks}\n")
    return 0


def run_generate(arguments: argparse.Namespace, out=sys.stdout) -> int:
    documents = list(generate(arguments.count, arguments.seed))
    write_jsonl(documents, arguments.out)
    spans = sum(len(d.spans) for d in documents)
    words = sum(len(d.text.split()) for d in documents)
    overlap = gazetteer_overlap()
    out.write(
        f"{len(documents)} transcripts, {words} words, {spans} gold spans → {arguments.out}; "
        f"names known to the detector's gazetteer: {overlap['first_names']:.0%} of first names, "
        f"{overlap['surnames']:.0%} of surnames\n"
    )
    return 0


def _fmt(x: float) -> str:
    return "–" if x != x else f"{x:.3f}"


def _bar(row: "LabelRow", bar: float) -> str:
    n, right = row.at_bar.get(bar, (0, 0))
    return f"{n} / {_fmt(right / n if n else math.nan)}"


def label_lines(rows: "dict[str, LabelRow]") -> list[str]:
    """Per label group, typed: what the shipped scores mean to a reviewer."""
    from evaluation.realgold import SCORE_BARS

    bars = " | ".join(f"scored ≥ {b}: spans / right" for b in SCORE_BARS)
    lines = [
        "| label | exact P / R | overlap P / R | gold | " + bars + " |",
        "|---|---|---|---:|" + "---|" * len(SCORE_BARS),
    ]
    for label, row in sorted(rows.items()):
        e, o = row.exact, row.overlap
        lines.append(
            f"| {label} | {_fmt(e.precision)} / {_fmt(e.recall)} | {_fmt(o.precision)} / {_fmt(o.recall)} "
            f"| {o.n_gold} | " + " | ".join(_bar(row, b) for b in SCORE_BARS) + " |"
        )
    return lines


def gold_section(
    report: "GoldReport",
    result: "Calibration",
    false_top: int = 15,
    rows: "dict[str, LabelRow] | None" = None,
    gold: str = "evaluation/gold: Ferguson vol. I + the demo hearing",
) -> str:
    """BENCHMARKS.md's section for the real-transcript gold and the calibration."""
    from pipelines.detection.merging.calibration import BULK_ACCEPT

    lines = [
        f"### Real-transcript gold ({gold})",
        "",
        "Neutral (`generic`/`optional`) gold spans honoured as the shared scorer does; detection alone "
        "(`manage.py detect`, no header metadata).",
        "",
        "| view | precision | recall | tp pred / pred | tp gold / gold |",
        "|---|---|---|---|---|",
    ]
    for view, c in report.views.items():
        lines.append(
            f"| {view} | {_fmt(c.precision)} | {_fmt(c.recall)} | {c.tp_pred}/{c.n_pred} | {c.tp_gold}/{c.n_gold} |"
        )
    lines += [
        "",
        f"Leak recall (name characters covered by any span): {_fmt(report.leak_recall)} "
        f"({report.leak_covered}/{report.leak_chars}; names fully covered {report.names_covered}/{report.names}).",
        "",
        f"False positives (overlap, untyped), {sum(report.false_positives.values())} in all: "
        + (
            ", ".join(f"{text!r} {label} ×{n}" for (text, label), n in report.false_positives.most_common(false_top))
            or "none"
        )
        + ".",
        "",
    ]
    if rows:
        lines += [
            "Per label, typed (a span is right when it overlaps a counted gold span of its label group), "
            "with the scores the engine ships:",
            "",
            *label_lines(rows),
            "",
        ]
    lines += [
        "### Score calibration (reliability, cross-validated)",
        "",
        "Logistic calibration over span features (pipelines/detection/merging/calibration.py), "
        f"fitted on the gold above; "
        f"figures are out-of-fold: leave one of {result.groups} document sections (~8,000 characters each) out, "
        "fit on the rest, score the held-out section. A span is right when it overlaps a counted gold span of its "
        "label group (the typed overlap view).",
        "",
        "| score bin | spans | mean score | share right |",
        "|---|---|---|---|",
    ]
    lines += [f"| {name} | {n} | {mean:.3f} | {right:.3f} |" for name, n, mean, right in result.reliability()]
    if not result.held_out:
        lines += ["", "Too little gold to cross-validate: one section (fold), so no figure is held out."]
        return "\n".join(lines)
    n, accuracy = result.at_least(BULK_ACCEPT)
    lines += ["", f"Spans scored ≥ {BULK_ACCEPT}: {n}, of which {_fmt(accuracy)} right (held out)."]
    return "\n".join(lines)


def run_gold(arguments: argparse.Namespace, out=sys.stdout) -> int:
    from evaluation import realgold

    docs = realgold.read_gold(arguments.gold or None)
    if arguments.case:
        if arguments.write_calibration:
            raise SystemExit("the calibration is fitted on the gold as written, not on a case copy")
        docs = [realgold.recased(d, arguments.case) for d in docs]
    model = _model(arguments)
    predictions = realgold.detect(docs, model)
    report = realgold.gold_report(docs, predictions)
    rows = realgold.label_report(docs, predictions)
    fitted = realgold.samples(docs, predictions)
    if not fitted:
        raise SystemExit("no predicted span touches this gold: nothing to calibrate or report")
    result = realgold.calibrate(fitted)
    if arguments.write_calibration:
        if any("heldout" in path.name for path in arguments.gold):
            raise SystemExit("the held-out gold is never fitted on")
        path = realgold.parameters_path(model)
        info = realgold.calibration_model(model)
        gold = " ".join(str(p) for p in arguments.gold) or "evaluation/gold/*.jsonl"
        realgold.write_parameters(result, path, info, gold)
        out.write(f"wrote {path}\n")
    named = ", ".join(str(p) for p in arguments.gold)
    body = gold_section(report, result, rows=rows, **({"gold": named} if named else {}))
    if arguments.benchmarks:
        write_section(arguments.benchmarks, "gold", body)
    out.write(body + "\n")
    return 0


def run_gum(args: argparse.Namespace, out) -> int:
    from evaluation.gum import convert

    counts = convert(args.source, args.out)
    print(f"GUM gold: {counts['fit']} documents to fit, {counts['heldout']} held out, in {args.out}", file=out)
    return 0


def parser() -> argparse.ArgumentParser:
    root = argparse.ArgumentParser(prog="python -m evaluation", description=__doc__.splitlines()[0])
    commands = root.add_subparsers(dest="command", required=True)
    ev = commands.add_parser("evaluate", help="score the default detection pipeline against gold data")
    ev.add_argument("gold", type=Path)
    ev.add_argument("--format", choices=["conll", "jsonl"], default=None, help="default: by extension")
    ev.add_argument("--limit", type=int, default=None, help="first N documents/sentences only")
    ev.add_argument(
        "--with-label",
        default=None,
        metavar="LABEL",
        help="score only documents holding a gold span of LABEL (seed 001's protocol: --with-label PERSON)",
    )
    ev.add_argument("--model", default=None, help="spaCy model (default: $SPACY_MODEL, else the engine's default)")
    ev.add_argument("--json", action="store_true", help="machine-readable output")
    ev.add_argument("--language", default="en", help="the texts' language (pipelines/detection/languages/): en, fr…")
    ev.add_argument(
        "--compare-presidio",
        action="store_true",
        help="also score presidio-analyzer alone over the same model (its SpacyNlpEngine and recognizers)",
    )
    ev.add_argument("--benchmarks", type=Path, default=None, help="markdown file to write the results into")
    ev.add_argument(
        "--markdown-section",
        default=None,
        help="NAME: replace the text between <!-- eval:NAME:start/end --> (appended when absent)",
    )
    ev.add_argument("--title", default=None, help="heading of the markdown section")
    ev.add_argument("--note", default="", help="a sentence under the heading (what the gold set is)")
    ev.set_defaults(run=run_evaluate)
    gold = commands.add_parser(
        "gold", help="score the real-transcript gold (neutral flags honoured) and cross-validate the calibration"
    )
    gold.add_argument("gold", type=Path, nargs="*", help="default: evaluation/gold/*.jsonl")
    gold.add_argument("--model", default=None)
    gold.add_argument("--benchmarks", type=Path, default=None, help="markdown file to write the section into")
    gold.add_argument(
        "--write-calibration", action="store_true", help="refit the calibration on all the gold and write its weights"
    )
    gold.add_argument(
        "--case",
        choices=["lower", "asr", "upper"],
        default=None,
        help="score the gold's texts lower-cased (as speech recognition writes; asr: keeping the pronoun's capital, "
        '"I") or in capitals, spans unchanged',
    )
    gold.set_defaults(run=run_gold)
    gum = commands.add_parser("gum", help="write gold from GUM's court hearings and interviews (evaluation/gum.py)")
    gum.add_argument("source", type=Path, help="the GUM folder (../shared/data/train-open/gum)")
    gum.add_argument("--out", type=Path, default=Path("evaluation/gum"))
    gum.set_defaults(run=run_gum)
    gen = commands.add_parser("generate", help="write seeded synthetic hearing transcripts with gold spans")
    gen.add_argument("out", type=Path)
    gen.add_argument("--count", type=int, default=60)
    gen.add_argument("--seed", type=int, default=1)
    gen.set_defaults(run=run_generate)
    return root


def main(argv: list[str] | None = None, out=sys.stdout) -> int:
    arguments = parser().parse_args(argv)
    return arguments.run(arguments, out)


if __name__ == "__main__":
    sys.exit(main())
