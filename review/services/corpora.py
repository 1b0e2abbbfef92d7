"""Corpora and who belongs to them (the one writer of CorpusMembership rows), and a
corpus's own settings, its name and description (the one writer of
CorpusSettingsChange rows; the Corpus row itself is ingestion's)."""

import unicodedata

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import PermissionDenied
from django.db import transaction

from ingestion import services as ingestion_services
from ingestion.models import Corpus
from review.access import REFUSALS, Need, can_administer
from review.errors import ReviewError
from review.models import CorpusMembership, CorpusSettingsChange, Role

# The column's own limit, so that the message and the database agree.
CORPUS_NAME_MAX_CHARS: int = Corpus._meta.get_field("name").max_length


class CorpusSettingsError(ReviewError):
    """A name or description refused; `field` is the form field it belongs to."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field


@transaction.atomic
def corpus_create(
    *,
    name: str,
    user: AbstractBaseUser | None,
    description: str = "",
    require_second_review: bool = False,
    language: str = "en",
) -> Corpus:
    """A new corpus; its creator (if any) is its first corpus admin."""
    corpus = ingestion_services.corpus_create(
        name=name, user=user, description=description, require_second_review=require_second_review, language=language
    )
    if user is not None:
        CorpusMembership.objects.create(corpus=corpus, user=user, role=Role.ADMIN)
    return corpus


def corpus_get_or_create(*, name: str, user: AbstractBaseUser | None, language: str = "en") -> Corpus:
    corpus = Corpus.objects.filter(name=name.strip()).first()
    return corpus or corpus_create(name=name, user=user, language=language)


def _taken(name: str) -> CorpusSettingsError:
    return CorpusSettingsError("name", f"Another corpus is already named “{name}”: corpus names are unique.")


def corpus_name_error(name: str) -> str | None:
    """Why `name` (already stripped) cannot name a corpus, or None."""
    if not name:
        return "A corpus needs a name."
    if len(name) > CORPUS_NAME_MAX_CHARS:
        return f"A corpus name has at most {CORPUS_NAME_MAX_CHARS} characters; this one has {len(name)}."
    # A line break or a tab would split the page's title and the command line's
    # `--corpus NAME`; no keyboard types the other control characters.
    if any(unicodedata.category(c) == "Cc" for c in name):
        return "A corpus name is one line of text, without tabs or line breaks."
    return None


@transaction.atomic
def corpus_settings_change(
    *, corpus: Corpus, user: AbstractBaseUser | None, role: str | None, name: str, description: str
) -> CorpusSettingsChange | None:
    """Rename a corpus and set its description, audited (who, when, before → after).

    `role` is the caller's role in the corpus as `review.access` gave it: only a
    corpus admin may (the views check it first; this refuses again, so that no
    caller forgets). Raises CorpusSettingsError with the field and a message for
    the user when the name is empty, too long, not one line, or another corpus's.
    Returns the change, or None when nothing changed. Updates `corpus` in place."""
    if not can_administer(role):
        raise PermissionDenied(REFUSALS[Need.ADMIN])
    name, description = name.strip(), description.strip()
    if problem := corpus_name_error(name):
        raise CorpusSettingsError("name", problem)
    # Locked: two admins saving at once each audit what they really changed.
    before = Corpus.objects.select_for_update().filter(pk=corpus.pk).values("name", "description").first()
    if before is None:
        raise ReviewError("This corpus no longer exists.")
    after = {"name": name, "description": description}
    if after == before:
        return None
    if name != before["name"] and Corpus.objects.filter(name=name).exclude(pk=corpus.pk).exists():
        raise _taken(name)
    try:
        ingestion_services.corpus_settings_update(corpus.pk, name=name, description=description)
    except ingestion_services.CorpusNameTaken as exc:  # taken between the check and the write
        raise _taken(name) from exc
    corpus.name, corpus.description = name, description
    return CorpusSettingsChange.objects.create(corpus=corpus, user=user, before=before, after=after)


def membership_save(membership: CorpusMembership) -> None:
    """A membership added or changed in the Django admin."""
    membership.save()


def membership_delete(membership: CorpusMembership) -> None:
    membership.delete()
