"""A corpus's own settings changed in the app (its name, its description): their
audit. The language is fixed at creation (its documents were detected in it)."""

from django.conf import settings
from django.db import models

from ingestion.models import Corpus
from review.models.append_only import AppendOnlyModel


class CorpusSettingsChange(AppendOnlyModel):
    """One row per save that changed a corpus's name or description: who, when, and
    both before and after (a rename is how a name written into every export's
    manifest is taken out of it, so who renamed what, when, must stay on record).
    Append-only, like the detection configuration's changes."""

    append_only_name = "corpus settings changes"

    corpus = models.ForeignKey(Corpus, on_delete=models.CASCADE, related_name="settings_changes")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    # {"name": …, "description": …}
    before = models.JSONField()
    after = models.JSONField()

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [
            # the settings page: the latest changes of a corpus
            models.Index(fields=["corpus", "-created_at"], name="corpussettings_corpus_idx"),
        ]

    def __str__(self) -> str:
        return f"settings of corpus {self.corpus_id} changed at {self.created_at:%Y-%m-%d %H:%M}"

    def changes(self) -> list[tuple[str, str, str]]:
        """(setting, before, after) for each setting that differs ("—" for empty)."""
        return [
            (key, self.before.get(key) or "—", self.after.get(key) or "—")
            for key in self.after
            if self.before.get(key) != self.after.get(key)
        ]
