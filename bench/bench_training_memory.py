"""Corpus-model training over a document at the length limit (issue 28): peak memory
of the whole process.

A scratch database (SQLite, or BENCH_DATABASE_URL) holds one corpus: a synthetic
hearing transcript of BENCH_TRAINING_CHARS characters (default 3,000,000, the
MAX_DOCUMENT_CHARS default) with every name accepted by a reviewer, and four short
hearings. The training service the Celery task runs
(`review/services/corpus_training.py::corpus_model_train`) trains a version on them
from the site's base model (SPACY_MODEL, sm by default), for BENCH_TRAINING_STEPS
batches (default 20: the memory of a step does not grow with the number of steps,
each batch being CORPUS_TRAINING_BATCH_SIZE chunks). The long document is the oldest
approval, so it is a training document; BENCH_TRAINING_LONG_AS=heldout makes it the
newest, so it is the one both models are judged on instead.

Reported: the process's peak RSS (`ru_maxrss`, the whole process: Django, the
database, spaCy, the model, the text), the RSS sampled after each phase, and times.
The text is synthetic: this measures memory mechanics, not model quality.

    OMP_NUM_THREADS=1 nice -n 5 .venv/bin/python bench/bench_training_memory.py
"""

import os
import random
import resource
import string
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
SCRATCH = tempfile.mkdtemp(prefix="bench-training-memory-")
os.environ["DATABASE_URL"] = os.environ.get("BENCH_DATABASE_URL", f"sqlite:///{SCRATCH}/bench.sqlite3")
os.environ["CELERY_BROKER_URL"] = "memory://"
os.environ["CELERY_TASK_ALWAYS_EAGER"] = "false"  # the bench calls the service itself
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "anonymizer_site.settings")
os.environ.setdefault("ANONYMIZER_VAR_DIR", SCRATCH)
os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ["CORPUS_TRAINING_MAX_STEPS"] = os.environ.get("BENCH_TRAINING_STEPS", "20")
os.environ.setdefault("CORPUS_MODELS_DIR", f"{SCRATCH}/corpus_models")
CHARS = int(os.environ.get("BENCH_TRAINING_CHARS", "3000000"))
LONG_AS = os.environ.get("BENCH_TRAINING_LONG_AS", "train")

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.core.management import call_command  # noqa: E402

from ingestion.models import Corpus, Document  # noqa: E402
from pipelines import training  # noqa: E402
from review.models import CorpusModelVersion, Span  # noqa: E402
from review.services.corpus_models import corpus_training_start  # noqa: E402
from review.services.corpus_training import corpus_model_train  # noqa: E402

GIVEN = ["Marcus", "Ilse", "Darnell", "Rosa", "Tomasz", "Adaeze", "Keiko", "Luis", "Fatima", "Owen"]
FAMILY = ["Pellegrino", "Szymanski", "Okonkwo", "Abernathy", "Drummond", "Vantrease", "Castellanos", "Haddad"]
PLACES = ["Tallowmere", "Fresno", "Bakersfield", "Stockton", "Modesto", "Visalia"]
LINES = [
    "COMMISSIONER {family}: Mr. {given} {family2}, you were housed at {place} State Prison in {year}.",
    "INMATE {family2}: Correct. My sister {given} wrote to Attorney {family} from {place}.",
    "ATTORNEY {family}: The board received letters from {given} {family2} and the chaplain in {place}.",
    "DEPUTY DISTRICT ATTORNEY {family}: In {year} he moved to {place} with {given}.",
]


LABELS = {"family": "PERSON", "family2": "PERSON", "given": "PERSON", "place": "LOCATION"}


def hearing(chars: int, seed: int) -> tuple[str, list[tuple[int, int, str]]]:
    """A transcript of about `chars` characters and its names: (start, end, label)."""
    rng = random.Random(seed)
    parts: list[str] = []
    spans: list[tuple[int, int, str]] = []
    at = 0
    while at < chars:
        values = {
            "family": rng.choice(FAMILY),
            "family2": rng.choice(FAMILY),
            "given": rng.choice(GIVEN),
            "place": rng.choice(PLACES),
            "year": str(rng.randint(1980, 2020)),
        }
        for literal, field_name, _, _ in string.Formatter().parse(rng.choice(LINES) + "\n"):
            parts.append(literal)
            at += len(literal)
            if field_name:
                value = values[field_name]
                if field_name in LABELS:
                    spans.append((at, at + len(value), LABELS[field_name]))
                parts.append(value)
                at += len(value)
    return "".join(parts)[:chars], [s for s in spans if s[1] <= chars]


def rss_mb() -> float:
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def add_document(corpus: Corpus, name: str, text: str, spans: list[tuple[int, int, str]]) -> Document:
    document = Document.objects.create(corpus=corpus, name=name, sha256=name, text=text, status="approved")
    Span.objects.bulk_create(
        (
            Span(document=document, start=s, end=e, label=label, text=text[s:e], status="accepted")
            for s, e, label in spans
        ),
        batch_size=2000,
    )
    return document


def main() -> None:
    started = time.monotonic()
    call_command("migrate", verbosity=0)
    corpus = Corpus.objects.create(name="bench-training-memory")
    text, spans = hearing(CHARS, seed=1)
    short = [hearing(600, seed=n) for n in range(2, 6)]
    if LONG_AS == "train":
        add_document(corpus, "long.txt", text, spans)
    for n, (t, s) in enumerate(short):
        add_document(corpus, f"short-{n}.txt", t, s)
    if LONG_AS != "train":
        add_document(corpus, "long.txt", text, spans)
    del text, spans
    print(f"set up: {len(short) + 1} documents, {CHARS:,}-character long one as {LONG_AS}, RSS {rss_mb():.0f} MB")

    # The RSS after each phase of the run, read where the service calls the engine.
    phases: list[tuple[str, float, float]] = []
    for name in ("reviewed_docs", "evaluate", "fine_tune", "write_docbin"):
        real = getattr(training, name)

        def timed(*args, _real=real, _name=name, **kwargs):
            t = time.monotonic()
            result = _real(*args, **kwargs)
            phases.append((_name, time.monotonic() - t, rss_mb()))
            return result

        setattr(training, name, timed)

    version = corpus_training_start(corpus_id=corpus.pk, user=None)
    t = time.monotonic()
    corpus_model_train(version_id=version.pk, delivery="bench")
    seconds = time.monotonic() - t
    version = CorpusModelVersion.objects.get(pk=version.pk)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    for name, took, rss in phases:
        if took > 0.5 or name != "reviewed_docs":
            print(f"  {name:<14} {took:7.1f} s   RSS after {rss:7.0f} MB")
    print(
        f"base {settings.SPACY_MODEL}, {version.config.get('steps')} steps, status {version.status} "
        f"({version.message[:120]}), training run {seconds:.1f} s, whole bench {time.monotonic() - started:.1f} s"
    )
    print(f"peak RSS of the whole process: {peak:.0f} MB")


if __name__ == "__main__":
    main()
