"""Quasi-identifier flags (issue 18): stored per document, decided by reviewers.

The one writer of QuasiIdentifier and QuasiEvent rows. A machine pass stores its
flags (`store_quasi`, inside the annotation service's transaction, beside the
spans); a reviewer decides each one (`quasi_decide`: mask, generalise or keep,
audited, refused when stale or once the document is approved, under the
document's lock). Nothing here accepts a flag on its own.
"""

from dataclasses import dataclass

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from pipelines.candidate import Candidate
from pipelines.pseudonymize.generalize import generalize
from review.errors import ReviewError, StaleSpan
from review.models import QuasiCategory, QuasiDecision, QuasiEvent, QuasiIdentifier
from review.services.spans import lock

STALE = "This flag was decided by someone else meanwhile: the list has been refreshed, nothing was changed."


def store_quasi(document_id: int, found: list[Candidate]) -> int:
    """Store a machine pass's quasi-identifier flags for the document (replacing
    undecided ones from an earlier pass); returns how many were added.

    Decided flags are the reviewers' work and stay; a new flag that overlaps one of
    them is not stored (the stretch was decided already)."""
    QuasiIdentifier.objects.filter(document_id=document_id, decision=QuasiDecision.PENDING).delete()
    decided = list(QuasiIdentifier.objects.filter(document_id=document_id).values_list("start", "end"))
    rows = [
        QuasiIdentifier(
            document_id=document_id,
            start=flag.start,
            end=flag.end,
            category=flag.label,
            text=flag.text,
            rule=flag.rule[:40],
        )
        for flag in found
        if flag.label in QuasiCategory.values and not any(s < flag.end and flag.start < e for s, e in decided)
    ]
    QuasiIdentifier.objects.bulk_create(rows)
    return len(rows)


def suggested_generalisation(flag: QuasiIdentifier) -> str:
    return generalize(flag.text, flag.category, flag.rule)


def _clean_generalised(flag: QuasiIdentifier, text: str | None) -> str:
    value = " ".join((text or "").split()) or suggested_generalisation(flag)
    limit = settings.QUASI_GENERALISED_MAX_CHARS
    if len(value) > limit:
        raise ReviewError(f"A generalisation is at most {limit} characters.")
    if " ".join(flag.text.split()).casefold() in value.casefold():
        # The point is to drop the specific fact: a "generalisation" that repeats it
        # would export the original under another decision's name.
        raise ReviewError("The generalisation repeats the original text: write a coarser one, or keep the flag.")
    return value


@dataclass(frozen=True)
class QuasiOutcome:
    flag: QuasiIdentifier
    message: str


@transaction.atomic
def quasi_decide(
    *,
    flag: QuasiIdentifier,
    user: AbstractBaseUser,
    decision: str,
    version: int | None,
    generalised: str | None = None,
) -> QuasiOutcome:
    """Mask, generalise or keep a flag (or put it back to pending), as the reviewer
    saw it at `version`. Audited: one QuasiEvent with the state before and after."""
    if decision not in QuasiDecision.values:
        raise ReviewError("Unknown decision: mask, generalise or keep.")
    if version is None:
        raise ReviewError("This action needs the flag's version: reload the page and try again.")
    # The document's row lock, as for a span decision: an approval either commits
    # first (and the re-read status refuses this decision) or waits for it.
    lock(flag.document)
    before = flag.snapshot()
    value = _clean_generalised(flag, generalised) if decision == QuasiDecision.GENERALISE else ""
    now = timezone.now()
    changed = QuasiIdentifier.objects.filter(pk=flag.pk, version=version).update(
        decision=decision,
        generalised=value,
        version=F("version") + 1,
        decided_by=user if decision != QuasiDecision.PENDING else None,
        decided_at=now if decision != QuasiDecision.PENDING else None,
    )
    if not changed:
        raise StaleSpan(STALE)
    flag.decision, flag.generalised, flag.version = decision, value, version + 1
    flag.decided_by_id = user.pk if decision != QuasiDecision.PENDING else None
    flag.decided_at = now if decision != QuasiDecision.PENDING else None
    QuasiEvent.objects.create(document_id=flag.document_id, quasi=flag, user=user, before=before, after=flag.snapshot())
    label = QuasiDecision(decision).label.lower()
    return QuasiOutcome(flag, f"{flag.get_category_display()}: {label}" + (f" as “{value}”." if value else "."))
