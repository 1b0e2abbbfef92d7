"""A corpus's memory (issue 17): what its reviewers decided in approved documents.

Written only by review.services.corpus_memory: when a document is approved, its
accepted names become `CorpusMemoryName` rows and every decided surface form is
tallied in `CorpusSuppression` (rejected in which documents, ever accepted); a
form rejected in CORPUS_SUPPRESSION_MIN_DOCUMENTS documents and never accepted is
an active suppression. A corpus admin may remove an entry: it is marked removed
(and stays so until a document approved after the removal decides it again) and
the removal is audited in the append-only `CorpusMemoryRemoval`.
"""

from django.conf import settings
from django.db import models

from ingestion.models import Corpus
from review.models.append_only import AppendOnlyModel

# The longest surface form remembered (characters, white space collapsed): a
# column width, not a policy; a longer span is no recurring name anyway.
MAX_FORM_CHARS = 200


class CorpusMemoryName(models.Model):
    """A name accepted in the corpus: one surface form (casefolded) of one label."""

    corpus = models.ForeignKey(Corpus, on_delete=models.CASCADE, related_name="memory_names")
    label = models.CharField(max_length=40)
    # suppression_form(text): white space collapsed, casefolded. The key.
    form = models.CharField(max_length=MAX_FORM_CHARS)
    # The surface form as first accepted ("Darren Wilson"), what detection searches for.
    text = models.CharField(max_length=MAX_FORM_CHARS)
    # The approved documents that accepted it (since its last removal), ascending ids.
    documents = models.JSONField(default=list)
    removed_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["label", "form"]
        constraints = [
            models.UniqueConstraint(fields=["corpus", "label", "form"], name="memoryname_unique_corpus_label_form")
        ]

    def __str__(self) -> str:
        return f"{self.label} {self.text}"


class CorpusSuppression(models.Model):
    """Every surface form decided in the corpus's approved documents: where it was
    rejected (by a machine span's rejection) and whether it was ever accepted."""

    corpus = models.ForeignKey(Corpus, on_delete=models.CASCADE, related_name="memory_suppressions")
    form = models.CharField(max_length=MAX_FORM_CHARS)
    # The labels it was rejected as, sorted.
    labels = models.JSONField(default=list)
    # The approved documents that rejected it (since its last removal), ascending ids.
    documents = models.JSONField(default=list)
    # len(documents), a column so that the active suppressions are one filtered query.
    rejected_count = models.PositiveIntegerField(default=0)
    # The approved documents that accepted it, under any label (or as a part of an
    # accepted person's name): such a form is never suppressed. `accepted` says
    # whether there is one, a column so that the active suppressions are one query.
    accepted_documents = models.JSONField(default=list)
    accepted = models.BooleanField(default=False)
    removed_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["form"]
        constraints = [models.UniqueConstraint(fields=["corpus", "form"], name="suppression_unique_corpus_form")]
        indexes = [
            # detection and the memory page: a corpus's active suppressions
            models.Index(fields=["corpus", "accepted", "rejected_count"], name="suppression_active_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.form} ({self.rejected_count})"


class MemoryKind(models.TextChoices):
    NAME = "name", "Name"
    SUPPRESSION = "suppression", "Suppression"


class CorpusMemoryRemoval(AppendOnlyModel):
    """Audit: a corpus admin removed a memory entry. Never updated or deleted."""

    append_only_name = "memory removals"

    corpus = models.ForeignKey(Corpus, on_delete=models.CASCADE, related_name="memory_removals")
    kind = models.CharField(max_length=12, choices=MemoryKind.choices)
    # The entry as it was: its form, label(s) and documents.
    form = models.CharField(max_length=MAX_FORM_CHARS)
    labels = models.JSONField(default=list)
    documents = models.JSONField(default=list)
    reason = models.TextField(blank=True)
    removed_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    removed_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-removed_at", "-id"]

    def __str__(self) -> str:
        return f"{self.kind} {self.form} removed by {self.removed_by_id}"
