"""Audit records that can be written once and never changed or deleted.

Shared by review events and detection configuration changes: an audit trail that
an UPDATE or a DELETE could rewrite is no audit trail.
"""

from django.db import models


class AppendOnlyError(Exception):
    pass


class AppendOnlyModel(models.Model):
    # What the error message calls these records ("review events").
    append_only_name = "records"

    class Meta:
        abstract = True

    def save(self, *args, **kwargs) -> None:
        if self.pk is not None:
            raise AppendOnlyError(f"{self.append_only_name} are append-only")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise AppendOnlyError(f"{self.append_only_name} are append-only")
