"""The architecture holds: one-way imports (import-linter's contracts in
pyproject.toml), an engine that runs without Django, one writer per table, views
that run no query of their own, and the migration that moved the machine-run and
export tables into the review app keeps existing rows."""

import ast
import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from django.db import connection

ROOT = Path(__file__).resolve().parents[2]
PRODUCT = ("anonymizer_site", "ingestion", "review", "pipelines")

# Table (model) → the one module that may write it.
WRITERS: dict[str, str] = {
    "Corpus": "ingestion/services.py",
    "Document": "ingestion/services.py",
    "Span": "review/services/spans.py",
    "ReviewEvent": "review/services/audit.py",
    "Assignment": "review/services/queue.py",
    "CorpusMembership": "review/services/corpora.py",
    "CorpusSettingsChange": "review/services/corpora.py",
    "AnnotationRun": "review/services/annotation.py",
    "DocumentDetection": "review/services/annotation.py",
    "DetectionConfig": "review/services/detection_config.py",
    "DetectionConfigChange": "review/services/detection_config.py",
    "ExportBatch": "review/services/export.py",
    "PseudonymMap": "review/services/pseudonym_store.py",
    "QuasiIdentifier": "review/services/quasi.py",
    "QuasiEvent": "review/services/quasi.py",
    "CorpusMemoryName": "review/services/corpus_memory.py",
    "CorpusSuppression": "review/services/corpus_memory.py",
    "CorpusMemoryRemoval": "review/services/corpus_memory.py",
    "CorpusModelVersion": "review/services/corpus_models.py",
    "CorpusModelEvent": "review/services/corpus_models.py",
    "DashboardCount": "review/services/dashboard_counts.py",
}
WRITE_METHODS = frozenset(
    {"create", "bulk_create", "bulk_update", "update", "delete", "get_or_create", "update_or_create"}
)


def _product_files() -> list[Path]:
    return [p for package in PRODUCT for p in (ROOT / package).rglob("*.py") if "migrations" not in p.parts]


def test_import_contracts_hold():
    """import-linter checks the contracts of pyproject.toml: the engine imports no
    Django and no app; the layers site → review → ingestion → engine; no cycle
    between the modules of any package; the product never imports evaluation."""
    contracts = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]["contracts"]
    assert len(contracts) >= 6 and {c["type"] for c in contracts} >= {"forbidden", "layers", "acyclic_siblings"}
    lint = Path(sys.executable).parent / "lint-imports"
    done = subprocess.run([str(lint), "--no-cache"], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert "0 broken" in done.stdout


def test_the_engine_imports_and_runs_without_django():
    """Extraction, detection, pseudonymization, export writing and the leak check
    are plain Python: importing them loads no Django, and they work on plain data."""
    program = (
        "import sys\n"
        "from pipelines.extraction.extract import extract\n"
        "from pipelines.export.writer import ExportDocument, render_document\n"
        "from pipelines.detection.pipeline import detect_text\n"
        "from pipelines.candidate import Candidate\n"
        "doc = extract('a.txt', b'INMATE DELGADO: Mr. Smith spoke.\\n')\n"
        "smith = Candidate(20, 25, 'PERSON', 'Smith', ('t',), 1.0)\n"
        "out = render_document(ExportDocument(1, 'a.txt', doc.text, [smith]))\n"
        "assert 'Smith' not in out.redacted_text and not out.leaks\n"
        "assert not [m for m in sys.modules if m == 'django' or m.startswith('django.')], 'django was imported'\n"
    )
    done = subprocess.run([sys.executable, "-c", program], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-3000:]


def _writes(tree: ast.AST) -> list[tuple[str, int]]:
    """(model, line) of every `Model.objects….<write>(…)` call in a module."""
    found = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
            continue
        if node.func.attr not in WRITE_METHODS:
            continue
        chain = node.func.value
        while isinstance(chain, ast.Call | ast.Attribute):
            if isinstance(chain, ast.Attribute) and chain.attr == "objects" and isinstance(chain.value, ast.Name):
                found.append((chain.value.id, node.lineno))
                break
            chain = chain.func if isinstance(chain, ast.Call) else chain.value
    return found


def test_each_table_has_one_writer():
    offenders = []
    seen: set[str] = set()
    for path in _product_files():
        relative = path.relative_to(ROOT).as_posix()
        for model, line in _writes(ast.parse(path.read_text())):
            if model not in WRITERS:
                continue
            seen.add(model)
            if WRITERS[model] != relative:
                offenders.append(f"{relative}:{line} writes {model} (its writer is {WRITERS[model]})")
    assert not offenders, "\n".join(offenders)
    # The check sees the writers themselves, so it would see a second one.
    assert seen >= {"Span", "ReviewEvent", "Document", "AnnotationRun", "ExportBatch"}


def test_views_run_no_queries_of_their_own():
    """Views call access helpers, selectors and services; none touches a manager."""
    offenders = [
        f"{path.relative_to(ROOT)}:{node.lineno}"
        for path in (ROOT / "review" / "views").glob("*.py")
        for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, ast.Attribute) and node.attr == "objects"
    ]
    assert not offenders, offenders


def _as_before_the_move(migration, global_apps, *, old_migrations: tuple[str, ...]) -> None:
    """Put the moved tables under their old names, with the old app's migration
    records and content types, as a database made before the move has them."""
    from django.contrib.contenttypes.models import ContentType
    from django.db.migrations.recorder import MigrationRecorder

    with connection.schema_editor() as editor:
        for name in migration.MOVED:
            model = global_apps.get_model("review", name)
            editor.alter_db_table(model, model._meta.db_table, f"pipelines_{name.lower()}")
    for old in old_migrations:
        MigrationRecorder(connection).record_applied("pipelines", old)
    ContentType.objects.filter(app_label="review", model__in=[n.lower() for n in migration.MOVED]).update(
        app_label="pipelines"
    )


def _restore(migration, global_apps) -> None:
    from django.contrib.contenttypes.models import ContentType
    from django.db.migrations.recorder import MigrationRecorder

    tables = set(connection.introspection.table_names())
    with connection.schema_editor() as editor:
        for name in migration.MOVED:
            model = global_apps.get_model("review", name)
            if f"pipelines_{name.lower()}" in tables:
                editor.alter_db_table(model, f"pipelines_{name.lower()}", model._meta.db_table)
    MigrationRecorder(connection).migration_qs.filter(app="pipelines").delete()
    ContentType.objects.filter(app_label="pipelines").update(app_label="review")


@pytest.mark.django_db(transaction=True)
def test_the_move_keeps_the_rows_of_a_database_made_before_it_and_gives_them_back():
    """A database migrated before the engine lost its Django app has the tables
    under their old names (pipelines_…): the review app adopts them with their
    rows and content types, and migrating back gives them back to the old app."""
    from importlib import import_module

    from django.apps import apps as global_apps
    from django.contrib.contenttypes.models import ContentType

    from ingestion.models import Corpus
    from review.models import DetectionConfig

    migration = import_module("review.migrations.0005_machine_runs_and_exports")
    corpus = Corpus.objects.create(name="Before the move")
    DetectionConfig.objects.create(corpus=corpus, data={"mode": "vote"})
    old = ("0001_initial", "0002_pseudonymmap_exportbatch_consistency_and_more", "0003_detection_config")
    _as_before_the_move(migration, global_apps, old_migrations=(*old, migration.OLD_LAST))
    try:
        with connection.schema_editor() as editor:
            migration.adopt_or_create_tables(global_apps, editor)
        tables = set(connection.introspection.table_names())
        assert not {t for t in tables if t.startswith("pipelines_")}
        assert DetectionConfig.objects.get(corpus=corpus).data == {"mode": "vote"}
        assert not ContentType.objects.filter(app_label="pipelines").exists()
        # Backwards: the release before this one finds its tables and rows again.
        with connection.schema_editor() as editor:
            migration.drop_tables(global_apps, editor)
        tables = set(connection.introspection.table_names())
        assert {f"pipelines_{n.lower()}" for n in migration.MOVED} <= tables
        with connection.cursor() as cursor:
            cursor.execute("SELECT data FROM pipelines_detectionconfig")
            assert "vote" in str(cursor.fetchone()[0])
    finally:
        _restore(migration, global_apps)


@pytest.mark.django_db(transaction=True)
def test_a_half_migrated_old_database_is_refused_with_a_way_forward():
    from importlib import import_module

    from django.apps import apps as global_apps

    migration = import_module("review.migrations.0005_machine_runs_and_exports")
    _as_before_the_move(migration, global_apps, old_migrations=("0001_initial",))
    try:
        with pytest.raises(RuntimeError, match="migrate pipelines 0004"), connection.schema_editor() as editor:
            migration.adopt_or_create_tables(global_apps, editor)
    finally:
        _restore(migration, global_apps)


def test_the_web_application_starts_without_loading_the_models():
    """Heavy libraries are imported where they are used: a web process (settings,
    apps, every URL and view module) loads no spaCy, Presidio or Faker until a
    page or a task needs them (seconds of start-up and hundreds of MB otherwise)."""
    program = (
        "import os, sys\n"
        "os.environ['DJANGO_SETTINGS_MODULE'] = 'anonymizer_site.settings'\n"
        "import django; django.setup()\n"
        "import anonymizer_site.urls\n"
        "heavy = sorted({m.split('.')[0] for m in sys.modules} & {'spacy', 'presidio_analyzer', 'presidio_anonymizer',"
        " 'faker', 'thinc', 'pdfplumber'})\n"
        "assert not heavy, heavy\n"
    )
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "CELERY_BROKER_URL")}
    done = subprocess.run([sys.executable, "-c", program], cwd=ROOT, capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stderr[-3000:]
