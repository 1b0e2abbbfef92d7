import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("ingestion", "0006_work_queue"),
        ("review", "0008_quasi_identifiers"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="CorpusMemoryRemoval",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("kind", models.CharField(choices=[("name", "Name"), ("suppression", "Suppression")], max_length=12)),
                ("form", models.CharField(max_length=200)),
                ("labels", models.JSONField(default=list)),
                ("documents", models.JSONField(default=list)),
                ("reason", models.TextField(blank=True)),
                ("removed_at", models.DateTimeField(auto_now_add=True)),
                (
                    "corpus",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="memory_removals",
                        to="ingestion.corpus",
                    ),
                ),
                (
                    "removed_by",
                    models.ForeignKey(
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            options={
                "ordering": ["-removed_at", "-id"],
            },
        ),
        migrations.CreateModel(
            name="CorpusMemoryName",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("label", models.CharField(max_length=40)),
                ("form", models.CharField(max_length=200)),
                ("text", models.CharField(max_length=200)),
                ("documents", models.JSONField(default=list)),
                ("removed_at", models.DateTimeField(blank=True, null=True)),
                ("created_at", models.DateTimeField(auto_now_add=True)),
                ("updated_at", models.DateTimeField(auto_now=True)),
                (
                    "corpus",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE, related_name="memory_names", to="ingestion.corpus"
                    ),
                ),
            ],
            options={
                "ordering": ["label", "form"],
                "constraints": [
                    models.UniqueConstraint(
                        fields=("corpus", "label", "form"), name="memoryname_unique_corpus_label_form"
                    )
                ],
            },
        ),
        migrations.CreateModel(
            name="CorpusSuppression",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("form", models.CharField(max_length=200)),
                ("labels", models.JSONField(default=list)),
                ("documents", models.JSONField(default=list)),
                ("rejected_count", models.PositiveIntegerField(default=0)),
                ("accepted_documents", models.JSONField(default=list)),
                ("accepted", models.BooleanField(default=False)),
                ("removed_at", models.DateTimeField(blank=True, null=True)),
                ("created_at", models.DateTimeField(auto_now_add=True)),
                ("updated_at", models.DateTimeField(auto_now=True)),
                (
                    "corpus",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="memory_suppressions",
                        to="ingestion.corpus",
                    ),
                ),
            ],
            options={
                "ordering": ["form"],
                "indexes": [
                    models.Index(fields=["corpus", "accepted", "rejected_count"], name="suppression_active_idx")
                ],
                "constraints": [
                    models.UniqueConstraint(fields=("corpus", "form"), name="suppression_unique_corpus_form")
                ],
            },
        ),
    ]
