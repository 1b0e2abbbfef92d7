from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import path

from ingestion import views as ingestion_views
from pipelines import views as pipeline_views
from review import views as review_views

urlpatterns = [
    path("", ingestion_views.corpus_list, name="corpus_list"),
    path("corpora/<int:pk>/", ingestion_views.corpus_detail, name="corpus_detail"),
    path("corpora/<int:pk>/upload/", ingestion_views.document_upload, name="document_upload"),
    path("corpora/<int:pk>/exports/", pipeline_views.export_list, name="export_list"),
    path("corpora/<int:pk>/exports/new/", pipeline_views.export_start, name="export_start"),
    path("corpora/<int:pk>/detection/", pipeline_views.detection_config, name="detection_config"),
    path("corpora/<int:pk>/reannotate/", pipeline_views.corpus_reannotate, name="corpus_reannotate"),
    path("exports/<int:pk>/download/", pipeline_views.export_download, name="export_download"),
    path("corpora/<int:pk>/queue/", review_views.corpus_queue, name="corpus_queue"),
    path("corpora/<int:pk>/queue/next/", review_views.queue_next, name="queue_next"),
    path("corpora/<int:pk>/review-stats/", review_views.corpus_stats, name="corpus_stats"),
    path("documents/<int:pk>/", review_views.document_review, name="document_review"),
    path("documents/<int:pk>/spans/add/", review_views.span_create, name="span_create"),
    path("documents/<int:pk>/undo/", review_views.document_undo, name="document_undo"),
    path("documents/<int:pk>/redo/", review_views.document_undo, {"redo": True}, name="document_redo"),
    path("documents/<int:pk>/bulk/", review_views.document_bulk, name="document_bulk"),
    path("documents/<int:pk>/preview/", review_views.document_preview, name="document_preview"),
    path("documents/<int:pk>/annotation/", pipeline_views.document_annotation, name="document_annotation"),
    path("documents/<int:pk>/reannotate/", pipeline_views.document_reannotate, name="document_reannotate"),
    path("documents/<int:pk>/history/", review_views.document_history, name="document_history"),
    path("documents/<int:pk>/workflow/<str:step>/", review_views.document_workflow, name="document_workflow"),
    path("spans/<int:pk>/", review_views.span_panel, name="span_panel"),
    path("spans/<int:pk>/<str:action>/", review_views.span_decide, name="span_decide"),
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("admin/", admin.site.urls),
]
