"""The review app's tables in the Django admin; audit records are read-only."""

from django.contrib import admin
from django.http import HttpRequest

from ingestion.models import Corpus
from review.models import AnnotationRun, Assignment, CorpusMembership, DetectionConfigChange, ReviewEvent


@admin.register(CorpusMembership)
class CorpusMembershipAdmin(admin.ModelAdmin):
    list_display = ["user", "corpus", "role"]
    list_filter = ["role", "corpus"]
    list_select_related = ["user", "corpus"]


@admin.register(ReviewEvent)
class ReviewEventAdmin(admin.ModelAdmin):
    list_display = ["created_at", "user", "action", "document", "bulk_id"]
    list_filter = ["action"]
    list_select_related = ["user", "document"]

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Assignment)
class AssignmentAdmin(admin.ModelAdmin):
    list_display = ["document", "user", "assigned_at"]
    list_select_related = ["document", "user"]


class MembershipInline(admin.TabularInline):
    model = CorpusMembership
    extra = 1
    autocomplete_fields = ["user"]


@admin.register(Corpus)
class CorpusAdmin(admin.ModelAdmin):
    list_display = ["name", "created_at"]
    search_fields = ["name"]
    inlines = [MembershipInline]


class ReadOnlyAdmin(admin.ModelAdmin):
    """Audit records are written by services only; the admin may read them."""

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object | None = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: object | None = None) -> bool:
        return False


@admin.register(DetectionConfigChange)
class DetectionConfigChangeAdmin(ReadOnlyAdmin):
    list_display = ["created_at", "corpus", "user"]
    list_filter = ["corpus"]
    list_select_related = ["corpus", "user"]


@admin.register(AnnotationRun)
class AnnotationRunAdmin(ReadOnlyAdmin):
    list_display = ["created_at", "document", "kind", "status", "requested_by", "done", "total"]
    list_filter = ["kind", "status"]
    list_select_related = ["document", "requested_by"]
