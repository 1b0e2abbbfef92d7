"""Corpora and who belongs to them (the one writer of CorpusMembership rows)."""

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction

from ingestion import services as ingestion_services
from ingestion.models import Corpus
from review.models import CorpusMembership, Role


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


def membership_save(membership: CorpusMembership) -> None:
    """A membership added or changed in the Django admin."""
    membership.save()


def membership_delete(membership: CorpusMembership) -> None:
    membership.delete()
