"""Quasi-identifier flags (issue 18) and the audit of their decisions."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("ingestion", "0006_work_queue"),
        ("review", "0007_export_keep_stems"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="QuasiIdentifier",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("start", models.PositiveIntegerField()),
                ("end", models.PositiveIntegerField()),
                (
                    "category",
                    models.CharField(
                        choices=[
                            ("DEM", "Demographics (age, occupation, nationality, religion)"),
                            ("DATETIME", "Date, time or duration"),
                            ("LOC", "Place"),
                            ("QUANTITY", "Quantity"),
                            ("MISC", "Event or rare attribute"),
                            ("RELATION", "Relation"),
                        ],
                        max_length=12,
                    ),
                ),
                ("text", models.TextField()),
                ("rule", models.CharField(blank=True, max_length=40)),
                (
                    "decision",
                    models.CharField(
                        choices=[
                            ("pending", "Pending"),
                            ("mask", "Mask"),
                            ("generalise", "Generalise"),
                            ("keep", "Keep"),
                        ],
                        default="pending",
                        max_length=12,
                    ),
                ),
                ("generalised", models.TextField(blank=True)),
                ("version", models.PositiveIntegerField(default=1)),
                ("decided_at", models.DateTimeField(blank=True, null=True)),
                ("created_at", models.DateTimeField(auto_now_add=True)),
                (
                    "decided_by",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "document",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="quasi_identifiers",
                        to="ingestion.document",
                    ),
                ),
            ],
            options={
                "ordering": ["start", "end"],
            },
        ),
        migrations.CreateModel(
            name="QuasiEvent",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("before", models.JSONField()),
                ("after", models.JSONField()),
                ("created_at", models.DateTimeField(auto_now_add=True)),
                (
                    "document",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="quasi_events",
                        to="ingestion.document",
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
                    "quasi",
                    models.ForeignKey(
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="events",
                        to="review.quasiidentifier",
                    ),
                ),
            ],
            options={
                "ordering": ["created_at", "id"],
            },
        ),
        migrations.AddIndex(
            model_name="quasiidentifier",
            index=models.Index(fields=["document", "start"], name="quasi_document_start_idx"),
        ),
        migrations.AddIndex(
            model_name="quasiidentifier",
            index=models.Index(fields=["decision", "document"], name="quasi_decision_document_idx"),
        ),
        migrations.AddConstraint(
            model_name="quasiidentifier",
            constraint=models.CheckConstraint(
                condition=models.Q(("start__lt", models.F("end"))), name="quasi_start_before_end"
            ),
        ),
        migrations.AddConstraint(
            model_name="quasiidentifier",
            constraint=models.UniqueConstraint(
                fields=("document", "start", "end"), name="quasi_unique_document_offsets"
            ),
        ),
        migrations.AddIndex(
            model_name="quasievent",
            index=models.Index(fields=["document", "created_at"], name="quasievent_document_idx"),
        ),
    ]
