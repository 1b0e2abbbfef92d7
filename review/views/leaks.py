"""The leak report of an export the leak gate stopped: where each residual is, a
link to the review page at that place, and one action that redacts them all."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from review.access import export_for
from review.errors import ReviewError
from review.models import ExportStatus
from review.selectors.leaks import leak_report
from review.services.residuals import redact_residuals


@login_required
@require_http_methods(["GET", "POST"])
def export_leaks(request: HttpRequest, pk: int) -> HttpResponse:
    """GET: the report. POST: redact every remaining occurrence, then back here."""
    # A leak report is a failed export's; export history and leak reports are for corpus admins.
    batch, _role = export_for(request.user, pk, ExportStatus.FAILED)
    if request.method == "POST":
        try:
            outcome = redact_residuals(batch=batch, user=request.user)
        except ReviewError as exc:
            messages.error(request, str(exc))
        else:
            messages.success(request, outcome.message + " Run the export again from the corpus page.")
        return redirect("export_leaks", pk=batch.pk)
    return render(request, "review/leak_report.html", {"report": leak_report(batch), "batch": batch})
