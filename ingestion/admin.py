"""Documents in the Django admin. Corpora are registered by review/admin.py, with
their memberships (the review app's table) inline."""

from django.contrib import admin

from ingestion.models import Document


@admin.register(Document)
class DocumentAdmin(admin.ModelAdmin):
    list_display = ["name", "corpus", "status", "created_at"]
    list_filter = ["status", "corpus"]
    search_fields = ["name", "sha256"]
    list_select_related = ["corpus"]
    # The text is immutable once extracted; admins see it but never edit it.
    readonly_fields = ["text", "sha256", "size", "stored_file", "status", "error_message"]
    exclude = ["original"]

    # Documents come in through uploads and change through the services (the one
    # writer of their rows): the admin shows them and deletes them, nothing else.
    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    @admin.display(description="stored file")
    def stored_file(self, document: Document) -> str:
        # Private storage has no URL; the admin shows where the original is kept.
        return document.original.name
