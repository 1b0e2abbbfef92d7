import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("ingestion", "0006_work_queue"),
        ("review", "0009_corpus_memory"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations: list = [
        migrations.AddField(
            model_name="annotationrun",
            name="model",
            field=models.CharField(blank=True, default="", max_length=300),
        ),
        migrations.CreateModel(
            name="CorpusModelVersion",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("version", models.PositiveIntegerField()),
                (
                    "status",
                    models.CharField(
                        choices=[
                            ("queued", "Queued"),
                            ("training", "Training"),
                            ("ready", "Ready (not active)"),
                            ("active", "Active"),
                            ("refused", "Refused (not better than its base)"),
                            ("failed", "Failed"),
                            ("retired", "Retired"),
                        ],
                        default="queued",
                        max_length=20,
                    ),
                ),
                ("path", models.CharField(blank=True, max_length=300)),
                ("base_model", models.CharField(max_length=300)),
                ("train_documents", models.JSONField(default=list)),
                ("heldout_documents", models.JSONField(default=list)),
                ("config", models.JSONField(default=dict)),
                ("metrics", models.JSONField(default=dict)),
                ("done", models.PositiveIntegerField(default=0)),
                ("total", models.PositiveIntegerField(default=0)),
                ("message", models.TextField(blank=True)),
                ("created_at", models.DateTimeField(auto_now_add=True)),
                ("started_at", models.DateTimeField(blank=True, null=True)),
                ("finished_at", models.DateTimeField(blank=True, null=True)),
                ("activated_at", models.DateTimeField(blank=True, null=True)),
                ("claimed_by", models.CharField(blank=True, max_length=64)),
                (
                    "activated_by",
                    models.ForeignKey(
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "corpus",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="model_versions",
                        to="ingestion.corpus",
                    ),
                ),
                (
                    "requested_by",
                    models.ForeignKey(
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            options={"ordering": ["-version"]},
        ),
        migrations.CreateModel(
            name="CorpusModelEvent",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("action", models.CharField(max_length=20)),
                ("created_at", models.DateTimeField(auto_now_add=True)),
                (
                    "corpus",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="model_events",
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
                (
                    "previous",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to="review.corpusmodelversion",
                    ),
                ),
                (
                    "version",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="events",
                        to="review.corpusmodelversion",
                    ),
                ),
            ],
            options={"ordering": ["-created_at", "-id"]},
        ),
        migrations.AddConstraint(
            model_name="corpusmodelversion",
            constraint=models.UniqueConstraint(fields=("corpus", "version"), name="corpusmodel_version_unique"),
        ),
        migrations.AddConstraint(
            model_name="corpusmodelversion",
            constraint=models.UniqueConstraint(
                condition=models.Q(("status", "active")), fields=("corpus",), name="corpusmodel_one_active"
            ),
        ),
    ]
