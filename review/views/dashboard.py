"""A corpus's dashboard: how the corpus is going and where the machine fails
(charts with their tables). Every member of the corpus may see it."""

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from pipelines.labels import DIRECT_IDENTIFIER_LABELS
from review.access import corpus_for
from review.selectors.dashboard import TIMELINE_STATUSES, dashboard_data
from review.views.dashboard_charts import charts


@login_required
@require_GET
def corpus_dashboard(request: HttpRequest, pk: int) -> HttpResponse:
    corpus, role = corpus_for(request.user, pk)
    dashboard = dashboard_data(corpus)
    return render(
        request,
        "review/dashboard.html",
        {
            "corpus": corpus,
            "role": role,
            "dashboard": dashboard,
            "charts": charts(dashboard),
            "statuses": TIMELINE_STATUSES,
            "direct_labels": DIRECT_IDENTIFIER_LABELS,
        },
    )
