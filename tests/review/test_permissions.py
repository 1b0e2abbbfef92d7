"""Everything requires login; a corpus that is not yours is a 404."""

import pytest
from django.test import Client
from django.urls import reverse

pytestmark = pytest.mark.django_db


def pages(document, span, batch) -> list[tuple[str, str]]:
    corpus = document.corpus_id
    return [
        ("get", reverse("corpus_detail", args=[corpus])),
        ("get", reverse("export_list", args=[corpus])),
        ("post", reverse("document_upload", args=[corpus])),
        ("post", reverse("export_start", args=[corpus])),
        ("get", reverse("export_download", args=[batch.pk])),
        ("get", reverse("document_review", args=[document.pk])),
        ("post", reverse("span_create", args=[document.pk])),
        ("get", reverse("span_panel", args=[span.pk])),
        ("post", reverse("span_decide", args=[span.pk, "accept"])),
    ]


@pytest.fixture
def objects(annotated_document, admin_user):
    from review.models import ExportBatch

    batch = ExportBatch.objects.create(corpus=annotated_document.corpus, status="done")
    return annotated_document, annotated_document.spans.first(), batch


def test_anonymous_is_redirected_to_login_everywhere(objects):
    client = Client()
    for method, url in [("get", reverse("corpus_list")), *pages(*objects)]:
        response = getattr(client, method)(url)
        assert response.status_code == 302, url
        assert response["Location"].startswith(reverse("login")), url


def test_user_without_access_gets_404_everywhere(objects, stranger):
    client = Client()
    client.force_login(stranger)
    for method, url in pages(*objects):
        assert getattr(client, method)(url).status_code == 404, url
    # and the list does not show the corpus
    assert "Hearings" not in client.get(reverse("corpus_list")).content.decode()


def test_auditor_reads_but_cannot_decide_upload_or_export(objects, auditor):
    document, span, _batch = objects
    client = Client()
    client.force_login(auditor)
    assert client.get(reverse("document_review", args=[document.pk])).status_code == 200
    assert client.post(reverse("span_decide", args=[span.pk, "accept"])).status_code == 403
    assert client.post(reverse("document_upload", args=[document.corpus_id])).status_code == 403
    assert client.post(reverse("export_start", args=[document.corpus_id])).status_code == 403


def test_reviewer_cannot_download_exports(objects, reviewer):
    _document, _span, batch = objects
    client = Client()
    client.force_login(reviewer)
    assert client.get(reverse("export_download", args=[batch.pk])).status_code == 404


def test_only_staff_create_corpora(reviewer):
    client = Client()
    client.force_login(reviewer)
    assert client.post(reverse("corpus_list"), {"name": "X"}).status_code == 403


def test_export_history_fragment_is_for_corpus_admins_only(objects, reviewer, auditor):
    document = objects[0]
    for user in (reviewer, auditor):
        client = Client()
        client.force_login(user)
        assert client.get(reverse("export_list", args=[document.corpus_id])).status_code == 404


def test_admin_shows_a_document_without_crashing_on_private_storage(objects, make_user):
    superuser = make_user("root", is_staff=True, is_superuser=True)
    client = Client()
    client.force_login(superuser)
    response = client.get(reverse("admin:ingestion_document_change", args=[objects[0].pk]))
    assert response.status_code == 200
    assert objects[0].original.name in response.content.decode()
