"""The machine passes (annotation runs, detection configuration and its audit, what
detection filtered) and the exports move from the former `pipelines` Django app to
this one: `pipelines` is now the engine alone, with no Django in it.

The models are added to this app's state only; then each table is adopted from
the old app (renamed from `pipelines_<model>` when a database made before the
move has it, keeping its rows: detection configurations, export history and
audit records are not lost) or created on a new database.
"""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models
from django.db.migrations.recorder import MigrationRecorder

import ingestion.storage

MOVED = (
    "DetectionConfig",
    "DocumentDetection",
    "PseudonymMap",
    "AnnotationRun",
    "DetectionConfigChange",
    "ExportBatch",
)


# The old app's last migration: a database that has the old tables must have all of
# it, or its tables lack columns these models expect.
OLD_APP, OLD_LAST = "pipelines", "0004_annotation_runs_config_changes"


def _old_migrations(schema_editor) -> set[str]:
    recorder = MigrationRecorder(schema_editor.connection)
    if not recorder.has_table():
        return set()
    return set(recorder.migration_qs.filter(app=OLD_APP).values_list("name", flat=True))


def adopt_or_create_tables(apps, schema_editor) -> None:
    existing = set(schema_editor.connection.introspection.table_names())
    adopted = [name for name in MOVED if f"{OLD_APP}_{name.lower()}" in existing]
    if adopted and OLD_LAST not in _old_migrations(schema_editor):
        raise RuntimeError(
            f"This database has tables of the former '{OLD_APP}' app but not all of its migrations: run "
            f"`migrate {OLD_APP} {OLD_LAST}` with the release before this one first, then migrate again."
        )
    for name in MOVED:
        model = apps.get_model("review", name)
        old = f"{OLD_APP}_{name.lower()}"
        if name in adopted:
            # Constraint and index names are explicit (or derived from columns), so
            # a rename keeps every one of them valid.
            schema_editor.alter_db_table(model, old, model._meta.db_table)
        else:
            schema_editor.create_model(model)
    if adopted:
        # Permissions and admin history point at content types: move them with the
        # tables, so a group allowed to view exports still is.
        content_type = apps.get_model("contenttypes", "ContentType")
        names = [name.lower() for name in adopted]
        taken = set(content_type.objects.filter(app_label="review", model__in=names).values_list("model", flat=True))
        content_type.objects.filter(app_label=OLD_APP, model__in=set(names) - taken).update(app_label="review")


def drop_tables(apps, schema_editor) -> None:
    """Backwards. A database that came from the old app gets its tables back under
    their old names (and their content types), so the release before this one finds
    its data again; a database created after the move has nothing to go back to."""
    came_from_old_app = OLD_LAST in _old_migrations(schema_editor)
    content_type = apps.get_model("contenttypes", "ContentType")
    for name in reversed(MOVED):
        model = apps.get_model("review", name)
        if came_from_old_app:
            schema_editor.alter_db_table(model, model._meta.db_table, f"{OLD_APP}_{name.lower()}")
        else:
            schema_editor.delete_model(model)
    if came_from_old_app:
        content_type.objects.filter(app_label="review", model__in=[n.lower() for n in MOVED]).update(app_label=OLD_APP)


class Migration(migrations.Migration):
    dependencies = [
        ("ingestion", "0005_document_spans_revision"),
        ("review", "0004_second_review"),
        ("contenttypes", "0002_remove_content_type_name"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="DetectionConfig",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                            ),
                        ),
                        ("data", models.JSONField(blank=True, default=dict)),
                        ("updated_at", models.DateTimeField(auto_now=True)),
                        (
                            "corpus",
                            models.OneToOneField(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="detection_config",
                                to="ingestion.corpus",
                            ),
                        ),
                        (
                            "updated_by",
                            models.ForeignKey(
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="+",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                    ],
                ),
                migrations.CreateModel(
                    name="DocumentDetection",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                            ),
                        ),
                        ("created_at", models.DateTimeField(auto_now_add=True)),
                        ("config", models.JSONField(default=dict)),
                        ("filtered", models.JSONField(default=list)),
                        ("filtered_counts", models.JSONField(default=dict)),
                        ("timed_out", models.JSONField(default=list)),
                        (
                            "document",
                            models.OneToOneField(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="detection",
                                to="ingestion.document",
                            ),
                        ),
                    ],
                ),
                migrations.CreateModel(
                    name="PseudonymMap",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                            ),
                        ),
                        ("data", models.BinaryField()),
                        ("updated_at", models.DateTimeField(auto_now=True)),
                        (
                            "corpus",
                            models.OneToOneField(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="pseudonym_map",
                                to="ingestion.corpus",
                            ),
                        ),
                    ],
                ),
                migrations.CreateModel(
                    name="AnnotationRun",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                            ),
                        ),
                        (
                            "kind",
                            models.CharField(
                                choices=[("annotate", "Pre-annotation"), ("reannotate", "Re-annotation")], max_length=10
                            ),
                        ),
                        (
                            "status",
                            models.CharField(
                                choices=[
                                    ("queued", "Queued"),
                                    ("running", "Running"),
                                    ("done", "Done"),
                                    ("failed", "Failed"),
                                    ("skipped", "Skipped"),
                                ],
                                default="queued",
                                max_length=10,
                            ),
                        ),
                        ("created_at", models.DateTimeField(auto_now_add=True)),
                        ("started_at", models.DateTimeField(blank=True, null=True)),
                        ("finished_at", models.DateTimeField(blank=True, null=True)),
                        ("done", models.PositiveIntegerField(default=0)),
                        ("total", models.PositiveIntegerField(default=0)),
                        ("config", models.JSONField(blank=True, default=dict)),
                        ("counts", models.JSONField(blank=True, default=dict)),
                        ("message", models.TextField(blank=True)),
                        (
                            "document",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="annotation_runs",
                                to="ingestion.document",
                            ),
                        ),
                        (
                            "requested_by",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="+",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                    ],
                    options={
                        "ordering": ["-created_at", "-id"],
                        "indexes": [
                            models.Index(fields=["document", "-created_at"], name="annotationrun_document_idx")
                        ],
                        "constraints": [
                            models.UniqueConstraint(
                                condition=models.Q(("kind", "annotate")),
                                fields=("document",),
                                name="annotationrun_one_annotate_per_document",
                            ),
                            models.UniqueConstraint(
                                condition=models.Q(("kind", "reannotate"), ("status__in", ["queued", "running"])),
                                fields=("document",),
                                name="annotationrun_one_active_reannotate",
                            ),
                        ],
                    },
                ),
                migrations.CreateModel(
                    name="DetectionConfigChange",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                            ),
                        ),
                        ("created_at", models.DateTimeField(auto_now_add=True)),
                        ("before", models.JSONField(blank=True, null=True)),
                        ("after", models.JSONField()),
                        (
                            "corpus",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="detection_config_changes",
                                to="ingestion.corpus",
                            ),
                        ),
                        (
                            "user",
                            models.ForeignKey(
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="+",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                    ],
                    options={
                        "ordering": ["-created_at", "-id"],
                        "indexes": [models.Index(fields=["corpus", "-created_at"], name="detconfchange_corpus_idx")],
                    },
                ),
                migrations.CreateModel(
                    name="ExportBatch",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                            ),
                        ),
                        ("created_at", models.DateTimeField(auto_now_add=True)),
                        ("finished_at", models.DateTimeField(blank=True, null=True)),
                        (
                            "status",
                            models.CharField(
                                choices=[
                                    ("queued", "Queued"),
                                    ("running", "Running"),
                                    ("done", "Done"),
                                    ("failed", "Failed"),
                                ],
                                default="queued",
                                max_length=10,
                            ),
                        ),
                        (
                            "scope",
                            models.CharField(
                                choices=[
                                    ("approved", "Approved documents"),
                                    ("reviewed", "Reviewed and approved documents"),
                                    ("all", "All annotated documents"),
                                ],
                                default="approved",
                                max_length=10,
                            ),
                        ),
                        ("accept_pending", models.BooleanField(default=False)),
                        ("strategy", models.CharField(default="placeholder", max_length=20)),
                        ("per_label", models.JSONField(blank=True, default=dict)),
                        ("person_numbering", models.CharField(default="part", max_length=10)),
                        (
                            "consistency",
                            models.CharField(
                                choices=[("document", "Per document"), ("corpus", "Across the corpus")],
                                default="document",
                                max_length=10,
                            ),
                        ),
                        ("include_index", models.BooleanField(default=True)),
                        ("done", models.PositiveIntegerField(default=0)),
                        ("total", models.PositiveIntegerField(default=0)),
                        ("error_message", models.TextField(blank=True)),
                        ("report", models.JSONField(blank=True, default=list)),
                        (
                            "file",
                            models.FileField(
                                blank=True, storage=ingestion.storage.private_storage, upload_to="exports/"
                            ),
                        ),
                        (
                            "corpus",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="exports",
                                to="ingestion.corpus",
                            ),
                        ),
                        (
                            "created_by",
                            models.ForeignKey(
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="+",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                    ],
                    options={
                        "ordering": ["-created_at", "-id"],
                        "indexes": [
                            models.Index(fields=["corpus", "-created_at"], name="exportbatch_corpus_created_idx")
                        ],
                    },
                ),
            ],
        ),
        migrations.RunPython(adopt_or_create_tables, drop_tables),
    ]
