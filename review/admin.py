"""The review app's tables in the Django admin; audit records are read-only."""

from django import forms
from django.contrib import admin
from django.http import HttpRequest

from ingestion import services as ingestion_services
from ingestion.admin import DocumentAdmin as BaseDocumentAdmin
from ingestion.models import Corpus, Document
from review.forms import CorpusNameRule
from review.models import (
    AnnotationRun,
    Assignment,
    CorpusMembership,
    CorpusSettingsChange,
    DetectionConfigChange,
    ExportBatch,
    ReviewEvent,
    Role,
)
from review.services import corpora, deletion, queue


class DeletesThroughService:
    """Deleting in the admin (one object or a selection) goes through the deletion
    service, so that files go with their rows (review/services/deletion.py)."""

    delete_one = None  # the service function, as a staticmethod

    def delete_model(self, request: HttpRequest, obj) -> None:
        type(self).delete_one(obj)

    def delete_queryset(self, request: HttpRequest, queryset) -> None:
        for obj in queryset:
            type(self).delete_one(obj)

    def get_deleted_objects(self, objs, request: HttpRequest):
        # The audit records and machine runs of a document are read-only in the
        # admin, which would otherwise refuse to delete a document that has any:
        # they are its personal data too, and go with it.
        to_delete, model_count, _perms_needed, protected = super().get_deleted_objects(objs, request)
        return to_delete, model_count, set(), protected


class MembershipWrites:
    """Memberships saved and deleted in the admin go through their writer."""

    def save_model(self, request: HttpRequest, obj, form, change) -> None:
        corpora.membership_save(obj)

    def delete_model(self, request: HttpRequest, obj) -> None:
        corpora.membership_delete(obj)

    def delete_queryset(self, request: HttpRequest, queryset) -> None:
        for obj in queryset:
            corpora.membership_delete(obj)


@admin.register(CorpusMembership)
class CorpusMembershipAdmin(MembershipWrites, admin.ModelAdmin):
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
    """Assignments come from the queue; an admin may only release one."""

    list_display = ["document", "user", "assigned_at"]
    list_select_related = ["document", "user"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj=None) -> bool:
        return False

    def delete_model(self, request: HttpRequest, obj) -> None:
        queue.assignment_release(obj)

    def delete_queryset(self, request: HttpRequest, queryset) -> None:
        for obj in queryset:
            queue.assignment_release(obj)


class MembershipInline(admin.TabularInline):
    model = CorpusMembership
    extra = 1
    autocomplete_fields = ["user"]


class CorpusAdminForm(CorpusNameRule, forms.ModelForm):
    """The app's rule for a corpus name, in the admin too."""


@admin.register(Corpus)
class CorpusAdmin(DeletesThroughService, admin.ModelAdmin):
    form = CorpusAdminForm
    list_display = ["name", "language", "created_at"]
    search_fields = ["name"]
    # Chosen at creation (the corpus form): its documents were detected in it.
    readonly_fields = ["language"]
    inlines = [MembershipInline]
    delete_one = staticmethod(lambda corpus: deletion.corpus_delete(corpus=corpus))

    def save_model(self, request: HttpRequest, obj, form, change) -> None:
        if change and {"name", "description"} & set(form.changed_data):
            # A rename here is audited as one on the corpus's settings page is. The
            # admin site's own permissions let this user in (superusers manage
            # corpora there): as far as corpora go, that is a corpus admin's role.
            corpora.corpus_settings_change(
                corpus=obj, user=request.user, role=Role.ADMIN, name=obj.name, description=obj.description
            )
        ingestion_services.corpus_save(obj)

    def save_formset(self, request: HttpRequest, form, formset, change) -> None:
        # The memberships inline: each saved or deleted through its writer.
        memberships = formset.save(commit=False)
        for membership in formset.deleted_objects:
            corpora.membership_delete(membership)
        for membership in memberships:
            corpora.membership_save(membership)


# Documents are ingestion's table; their deletion also takes export zips, which
# are this app's: the admin registered by ingestion is replaced by one that
# deletes through the deletion service.
admin.site.unregister(Document)


@admin.register(Document)
class DocumentAdmin(DeletesThroughService, BaseDocumentAdmin):
    delete_one = staticmethod(lambda document: deletion.document_delete(document=document))


@admin.register(ExportBatch)
class ExportBatchAdmin(DeletesThroughService, admin.ModelAdmin):
    list_display = ["pk", "corpus", "status", "created_at", "created_by"]
    list_filter = ["status"]
    list_select_related = ["corpus", "created_by"]
    delete_one = staticmethod(lambda batch: deletion.export_delete(batch=batch))

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object | None = None) -> bool:
        return False


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


@admin.register(CorpusSettingsChange)
class CorpusSettingsChangeAdmin(ReadOnlyAdmin):
    list_display = ["created_at", "corpus", "user"]
    list_filter = ["corpus"]
    list_select_related = ["corpus", "user"]


@admin.register(AnnotationRun)
class AnnotationRunAdmin(ReadOnlyAdmin):
    list_display = ["created_at", "document", "kind", "status", "requested_by", "done", "total"]
    list_filter = ["kind", "status"]
    list_select_related = ["document", "requested_by"]
