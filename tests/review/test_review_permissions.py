"""Permission matrix: every review URL and htmx endpoint × anonymous, reviewer of
this corpus, reviewer of another corpus, auditor, corpus admin, and admin of
another corpus. Not yours is a 404 with no side effect; read-only is a 403 with
no side effect; CSRF is enforced on every POST."""

import pytest
from django.test import Client
from django.urls import reverse

from ingestion.models import Corpus, Document
from review.models import Assignment, CorpusMembership, ReviewEvent, Role, Span

pytestmark = pytest.mark.django_db

TEXT = "INMATE DELGADO: Mr. Delgado met Delgado.\nCOMMISSIONER: Thank you.\n"


@pytest.fixture
def setup(corpus, admin_user):
    document = Document.objects.create(corpus=corpus, name="d.txt", sha256="x", text=TEXT, status="ready")
    machine = Span.objects.create(document=document, start=20, end=27, label="PERSON", text="Delgado")
    Span.objects.create(document=document, start=32, end=39, label="PERSON", text="Delgado")
    human = Span.objects.create(
        document=document, start=42, end=54, label="ORGANIZATION", text="COMMISSIONER", created_by=admin_user
    )
    return document, machine, human


def urls(document, machine, human) -> list[tuple[str, str, dict]]:
    d, m = document.pk, machine.pk
    c = document.corpus_id
    return [
        ("get", reverse("corpus_queue", args=[c]), {"status": "ready"}),
        ("get", reverse("corpus_stats", args=[c]), {}),
        ("get", reverse("corpus_dashboard", args=[c]), {}),
        ("post", reverse("queue_next", args=[c]), {}),  # assigns: a redirect to the document
        ("post", reverse("document_workflow", args=[d, "reviewed"]), {}),  # refused: spans pending
        ("post", reverse("document_workflow", args=[d, "approve"]), {}),  # refused: not reviewed; admins only
        ("get", reverse("document_review", args=[d]), {}),
        ("get", reverse("document_review", args=[d]), {"pending": "on"}),  # htmx filter partial
        ("get", reverse("span_panel", args=[m]), {}),
        ("get", reverse("document_bulk", args=[d]), {"label": "PERSON"}),
        ("get", reverse("document_preview", args=[d]), {}),
        ("get", reverse("document_history", args=[d]), {}),
        ("post", reverse("span_decide", args=[m, "accept"]), {}),
        ("post", reverse("span_decide", args=[m, "reject"]), {"reason": "false_positive"}),
        ("post", reverse("span_decide", args=[m, "relabel"]), {"label": "LOCATION"}),
        ("post", reverse("span_decide", args=[m, "resize"]), {"edge": "start", "grow": "1"}),
        ("post", reverse("span_decide", args=[human.pk, "delete"]), {}),
        ("post", reverse("span_create", args=[d]), {"start": 0, "end": 6, "label": "NRP"}),
        ("post", reverse("document_bulk", args=[d]), {"action": "accept"}),
        ("post", reverse("document_undo", args=[d]), {}),
        ("post", reverse("document_redo", args=[d]), {}),
    ]


def state(document) -> tuple:
    spans = Span.objects.filter(document=document).order_by("pk")
    return (
        ReviewEvent.objects.count(),
        Assignment.objects.count(),
        list(spans.values_list("pk", "status", "label", "start", "end", "version")),
        Document.objects.get(pk=document.pk).status,
    )


def client_for(user) -> Client:
    client = Client(enforce_csrf_checks=True)
    if user is not None:
        client.force_login(user)
    client.get(reverse("login"))
    return client


def call(client: Client, method: str, url: str, data: dict):
    if method == "get":
        return client.get(url, data, HTTP_HX_REQUEST="true")
    token = client.cookies["csrftoken"].value
    return client.post(url, data, HTTP_X_CSRFTOKEN=token, HTTP_HX_REQUEST="true")


def test_anonymous_is_sent_to_login_everywhere_with_no_side_effect(setup):
    before = state(setup[0])
    client = client_for(None)
    for method, url, data in urls(*setup):
        response = call(client, method, url, data)
        assert response.status_code == 302, url
        assert response["Location"].startswith(reverse("login")), url
    assert state(setup[0]) == before


@pytest.fixture
def other_admin(make_user):
    user = make_user("other-admin")
    CorpusMembership.objects.create(corpus=Corpus.objects.create(name="Elsewhere"), user=user, role=Role.ADMIN)
    return user


@pytest.mark.parametrize("who", ["stranger", "other_admin"])
def test_not_yours_is_404_everywhere_with_no_side_effect(setup, request, who):
    user = request.getfixturevalue(who)
    before = state(setup[0])
    client = client_for(user)
    for method, url, data in urls(*setup):
        assert call(client, method, url, data).status_code == 404, url
    assert state(setup[0]) == before


def test_auditor_reads_everything_and_writes_nothing(setup, auditor):
    before = state(setup[0])
    client = client_for(auditor)
    for method, url, data in urls(*setup):
        expected = 200 if method == "get" else 403
        assert call(client, method, url, data).status_code == expected, url
    assert state(setup[0]) == before
    page = client.get(reverse("document_review", args=[setup[0].pk])).content.decode()
    assert 'id="bulk-form"' not in page and 'id="undo-button"' not in page


@pytest.mark.parametrize("who", ["reviewer", "admin_user"])
def test_reviewer_and_corpus_admin_can_use_every_endpoint(setup, request, who):
    user = request.getfixturevalue(who)
    client = client_for(user)
    for method, url, data in urls(*setup):
        expected = 403 if url.endswith("/approve/") and who == "reviewer" else 200
        expected = 302 if url.endswith("/queue/next/") else expected
        assert call(client, method, url, data).status_code == expected, url
    assert ReviewEvent.objects.filter(user=user).exists()


def test_every_post_needs_the_csrf_token(setup, reviewer):
    before = state(setup[0])
    client = client_for(reviewer)
    for method, url, data in urls(*setup):
        if method == "post":
            assert client.post(url, data).status_code == 403, url
    assert state(setup[0]) == before
