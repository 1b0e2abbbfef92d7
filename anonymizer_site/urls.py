from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import path

from review.views import annotation, corpora, dashboard, document, export, history, leaks, memory, quasi, queue

urlpatterns = [
    path("", corpora.corpus_list, name="corpus_list"),
    path("corpora/<int:pk>/", corpora.corpus_detail, name="corpus_detail"),
    path("corpora/<int:pk>/upload/", corpora.document_upload, name="document_upload"),
    path("corpora/<int:pk>/exports/", export.export_list, name="export_list"),
    path("corpora/<int:pk>/exports/new/", export.export_start, name="export_start"),
    path("corpora/<int:pk>/detection/", annotation.detection_config, name="detection_config"),
    path("corpora/<int:pk>/reannotate/", annotation.corpus_reannotate, name="corpus_reannotate"),
    path("exports/<int:pk>/download/", export.export_download, name="export_download"),
    path("exports/<int:pk>/leaks/", leaks.export_leaks, name="export_leaks"),
    path("corpora/<int:pk>/queue/", queue.corpus_queue, name="corpus_queue"),
    path("corpora/<int:pk>/queue/next/", queue.queue_next, name="queue_next"),
    path("corpora/<int:pk>/review-stats/", history.corpus_stats, name="corpus_stats"),
    path("corpora/<int:pk>/dashboard/", dashboard.corpus_dashboard, name="corpus_dashboard"),
    path("corpora/<int:pk>/memory/", memory.corpus_memory, name="corpus_memory"),
    path(
        "corpora/<int:pk>/memory/<str:kind>/<int:entry>/remove/",
        memory.corpus_memory_remove,
        name="corpus_memory_remove",
    ),
    path("documents/<int:pk>/", document.document_review, name="document_review"),
    path("documents/<int:pk>/spans/add/", document.span_create, name="span_create"),
    path("documents/<int:pk>/undo/", document.document_undo, name="document_undo"),
    path("documents/<int:pk>/redo/", document.document_undo, {"redo": True}, name="document_redo"),
    path("documents/<int:pk>/bulk/", document.document_bulk, name="document_bulk"),
    path("documents/<int:pk>/group/", document.document_group, name="document_entity"),
    path("documents/<int:pk>/preview/", document.document_preview, name="document_preview"),
    path("documents/<int:pk>/annotation/", annotation.document_annotation, name="document_annotation"),
    path("documents/<int:pk>/reannotate/", annotation.document_reannotate, name="document_reannotate"),
    path("documents/<int:pk>/history/", history.document_history, name="document_history"),
    path("documents/<int:pk>/workflow/<str:step>/", document.document_workflow, name="document_workflow"),
    path("corpora/<int:pk>/risk/", quasi.corpus_risk_page, name="corpus_risk"),
    path("documents/<int:pk>/quasi/", quasi.document_quasi, name="document_quasi"),
    path("quasi/<int:pk>/<str:action>/", quasi.quasi_decision, name="quasi_decision"),
    path("spans/<int:pk>/", document.span_panel, name="span_panel"),
    path("spans/<int:pk>/<str:action>/", document.span_decide, name="span_decide"),
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("admin/", admin.site.urls),
]
