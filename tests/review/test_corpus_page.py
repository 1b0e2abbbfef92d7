"""The corpus page: a document that failed (random bytes saved as .txt) is deleted
from there by a corpus admin, with its original; the corpus's description reads as
the admin's prose, not as a link."""

import os

import pytest
from django.conf import settings
from django.test import Client
from django.test.html import Element, parse_html
from django.urls import reverse

from ingestion.models import Document, DocumentStatus
from ingestion.storage import private_storage
from review.models import ExportBatch
from review.services.uploads import ingest_document

pytestmark = pytest.mark.django_db


def client_for(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def ingest(corpus, user, name: str, data: bytes, capture) -> Document:
    with capture(execute=True):
        document, _ = ingest_document(corpus=corpus, name=name, data=data, user=user)
    document.refresh_from_db()
    return document


@pytest.fixture
def failed(corpus, admin_user, django_capture_on_commit_callbacks) -> Document:
    noise = bytes(range(256)) * 8  # not text in any encoding the extractor accepts
    document = ingest(corpus, admin_user, "noise.txt", noise, django_capture_on_commit_callbacks)
    assert document.status == DocumentStatus.FAILED, document.status
    assert document.text == ""
    return document


def elements(node, tag: str) -> list[Element]:
    found = []
    for child in getattr(node, "children", []):
        if isinstance(child, Element):
            if child.name == tag:
                found.append(child)
            found += elements(child, tag)
    return found


def test_a_corpus_admin_deletes_a_failed_document_from_the_corpus_page(
    corpus, admin_user, failed, django_capture_on_commit_callbacks
) -> None:
    original = private_storage().path(failed.original.name)
    assert os.path.exists(original)
    # An export made after the upload keeps its zip: nothing of a document without text is in it.
    batch = ExportBatch.objects.create(corpus=corpus, status="done", file="exports/kept.zip")
    client = client_for(admin_user)
    page = client.get(reverse("corpus_detail", args=[corpus.pk])).content.decode()
    assert reverse("document_delete", args=[failed.pk]) in page
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("document_delete", args=[failed.pk]), follow=True)
    assert response.redirect_chain == [(reverse("corpus_detail", args=[corpus.pk]), 302)]
    assert "“noise.txt” deleted." in response.content.decode()
    assert not Document.objects.filter(pk=failed.pk).exists()
    assert not os.path.exists(original)
    batch.refresh_from_db()
    assert batch.file.name == "exports/kept.zip" and batch.error_message == ""


def test_only_a_failed_document_is_deleted_from_there(corpus, admin_user, annotated_document) -> None:
    client = client_for(admin_user)
    page = client.get(reverse("corpus_detail", args=[corpus.pk])).content.decode()
    assert reverse("document_delete", args=[annotated_document.pk]) not in page
    response = client.post(reverse("document_delete", args=[annotated_document.pk]), follow=True)
    assert "“hearing.txt” did not fail: only a failed document is deleted from here." in response.content.decode()
    assert Document.objects.filter(pk=annotated_document.pk).exists()


def test_reviewers_and_auditors_are_offered_no_delete_and_are_refused(
    corpus, failed, reviewer, auditor, stranger
) -> None:
    url = reverse("document_delete", args=[failed.pk])
    for user in (reviewer, auditor):
        client = client_for(user)
        assert url not in client.get(reverse("corpus_detail", args=[corpus.pk])).content.decode()
        assert client.post(url).status_code == 403
    assert client_for(stranger).post(url).status_code == 404
    assert Document.objects.filter(pk=failed.pk).exists()


def test_the_corpus_page_costs_the_same_queries_with_more_failed_documents(
    corpus, admin_user, failed, django_capture_on_commit_callbacks, django_assert_num_queries
) -> None:
    client = client_for(admin_user)
    url = reverse("corpus_detail", args=[corpus.pk])
    # session, user, corpus+role, documents, exports
    with django_assert_num_queries(5):
        assert client.get(url).content.decode().count('class="inline delete-form"') == 1
    for n in range(3):
        ingest(corpus, admin_user, f"noise-{n}.txt", bytes(range(256)) * (9 + n), django_capture_on_commit_callbacks)
    with django_assert_num_queries(5):
        assert client.get(url).content.decode().count('class="inline delete-form"') == 4


def test_the_description_is_plain_text_under_the_title(corpus, admin_user) -> None:
    corpus.description = "Parole hearings, 2023 batch (from the <board>'s archive)\nSecond line."
    corpus.save()
    page = client_for(admin_user).get(reverse("corpus_detail", args=[corpus.pk])).content.decode()
    main = elements(parse_html(page), "main")[0]
    description = [p for p in elements(main, "p") if p.attributes and ("class", "corpus-description") in p.attributes]
    assert len(description) == 1
    # Its own paragraph, with no link in it, and escaped.
    assert elements(description[0], "a") == []
    assert "(from the <board>'s archive)" in str(description[0].children[0])
    assert "&lt;board&gt;" in page
    # Right under the title, not among the page's "Link (what it is)" lines.
    children = [c for c in main.children if isinstance(c, Element)]
    h1 = next(i for i, c in enumerate(children) if c.name == "h1")
    assert children[h1 + 1] is description[0]
    # And styled as prose: the stylesheet gives it no link colour nor underline.
    css = (settings.BASE_DIR / "static" / "app.css").read_text()
    rule = next(line for line in css.splitlines() if line.startswith(".corpus-description"))
    assert "--accent" not in rule and "underline" not in rule


def test_a_corpus_without_description_has_no_empty_paragraph(corpus, admin_user) -> None:
    page = client_for(admin_user).get(reverse("corpus_detail", args=[corpus.pk])).content.decode()
    assert "corpus-description" not in page
