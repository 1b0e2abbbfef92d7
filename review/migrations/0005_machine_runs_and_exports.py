"""The machine passes (annotation runs, detection configuration and its audit, what
detection filtered) and the exports move from the former `pipelines` Django app to
this one: `pipelines` is now the engine alone, with no Django in it.

The models are added to this app's state only; then each table is adopted from
the old app (renamed from `pipelines_<model>` when a database made before the
move has it, keeping its rows: detection configurations, export history and
audit records are not lost) or created on a new database.
"""

import django.db.models.deletion
import ingestion.storage
from django.conf import settings
from django.db import migrations, models


MOVED = (
    "DetectionConfig",
    "DocumentDetection",
    "PseudonymMap",
    "AnnotationRun",
    "DetectionConfigChange",
    "ExportBatch",
)


def adopt_or_create_tables(apps, schema_editor) -> None:
    existing = set(schema_editor.connection.introspection.table_names())
    for name in MOVED:
        model = apps.get_model("review", name)
        old = f"pipelines_{name.lower()}"
        if old in existing:
            # Constraint and index names are explicit (or derived from columns), so
            # a rename keeps every one of them valid.
            schema_editor.alter_db_table(model, old, model._meta.db_table)
        else:
            schema_editor.create_model(model)


def drop_tables(apps, schema_editor) -> None:
    for name in reversed(MOVED):
        schema_editor.delete_model(apps.get_model("review", name))


class Migration(migrations.Migration):
    dependencies = [
        ("ingestion", "0005_document_spans_revision"),
        ("review", "0004_second_review"),
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
