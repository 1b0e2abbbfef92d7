from django.contrib import admin

from review.models import Assignment, CorpusMembership, ReviewEvent


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
