"""The Django admin writes through the services (the one writer of each table):
documents are view-and-delete only, memberships and assignments go through
their services."""

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from ingestion.models import Corpus, Document
from review.models import Assignment, CorpusMembership

pytestmark = pytest.mark.django_db


@pytest.fixture
def root_client():
    client = Client()
    client.force_login(get_user_model().objects.create_superuser("root", "root@example.org", "a-long-passphrase-1"))
    return client


def test_documents_cannot_be_added_or_edited_in_the_admin(root_client, corpus):
    document = Document.objects.create(corpus=corpus, name="a.txt", sha256="a", text="x", status="ready")
    assert root_client.get("/admin/ingestion/document/add/").status_code == 403
    page = root_client.get(f"/admin/ingestion/document/{document.pk}/change/")
    assert page.status_code == 200 and b'name="name"' not in page.content  # shown, not editable
    root_client.post(f"/admin/ingestion/document/{document.pk}/change/", {"name": "renamed.txt"})
    assert Document.objects.get(pk=document.pk).name == "a.txt"


def test_a_membership_added_in_the_corpus_admin_goes_through_its_writer(root_client, monkeypatch, make_user):
    from review.services import corpora

    saved = []
    real = corpora.membership_save
    monkeypatch.setattr(corpora, "membership_save", lambda m: (saved.append(m.user_id), real(m)))
    corpus = Corpus.objects.create(name="Admin corpus")
    user = make_user("newcomer")
    prefix = "memberships"
    data = {
        "name": "Admin corpus",
        "description": "",
        "created_by": str(get_user_model().objects.get(username="root").pk),
        f"{prefix}-TOTAL_FORMS": "1",
        f"{prefix}-INITIAL_FORMS": "0",
        f"{prefix}-MIN_NUM_FORMS": "0",
        f"{prefix}-MAX_NUM_FORMS": "1000",
        f"{prefix}-0-user": str(user.pk),
        f"{prefix}-0-role": "reviewer",
    }
    response = root_client.post(f"/admin/ingestion/corpus/{corpus.pk}/change/", data)
    assert response.status_code == 302, response.content[:2000]
    assert saved == [user.pk]
    assert CorpusMembership.objects.filter(corpus=corpus, user=user, role="reviewer").exists()


def test_an_assignment_is_released_through_the_queue_service(root_client, corpus, reviewer, monkeypatch):
    from review.services import queue

    released = []
    real = queue.assignment_release
    monkeypatch.setattr(queue, "assignment_release", lambda a: (released.append(a.pk), real(a)))
    document = Document.objects.create(corpus=corpus, name="b.txt", sha256="b", text="x", status="ready")
    assignment = Assignment.objects.create(document=document, user=reviewer)
    assert root_client.get("/admin/review/assignment/add/").status_code == 403
    root_client.post(f"/admin/review/assignment/{assignment.pk}/delete/", {"post": "yes"})
    assert released == [assignment.pk] and not Assignment.objects.exists()
