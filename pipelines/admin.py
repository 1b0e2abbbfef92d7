"""Read-only admin views of the pipelines' audit records: who changed a corpus's
detection configuration, and every (re-)annotation run with what it changed."""

from django.contrib import admin
from django.http import HttpRequest

from pipelines.models import AnnotationRun, DetectionConfigChange


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
