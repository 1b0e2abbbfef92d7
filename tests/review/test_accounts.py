"""Issue 15, findings 8 and 10: accounts and pages fit for personal data.

8. Weak passwords were accepted and login had no throttling: Django's password
   validators, and django-axes (lock-out after LOGIN_FAILURE_LIMIT failures,
   unlocked by an admin).
10. Transcript pages had no `Cache-Control: no-store` and no Content-Security-
   Policy, sessions lasted two weeks, and a decision without a `version` skipped
   the stale-write check."""

import re

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse

from pipelines.labels import LABEL_COLOURS, OTHER_COLOUR
from review.models import ReviewEvent

STRONG = "correct-horse-battery-staple-15"


@pytest.fixture
def superuser_client(make_user) -> Client:
    client = Client()
    client.force_login(make_user("root", is_staff=True, is_superuser=True))
    return client


# --- 8. passwords and login throttling ------------------------------------------------------


@pytest.mark.parametrize("weak", ["password", "12345678901234", "short1!", "password1234"])
def test_weak_passwords_are_refused(weak):
    with pytest.raises(ValidationError):
        validate_password(weak)
    validate_password(STRONG)


@pytest.mark.django_db
def test_a_similar_password_is_refused():
    user = get_user_model()(username="marcus.delgado", email="marcus.delgado@example.org")
    with pytest.raises(ValidationError):
        validate_password("marcus.delgado1", user)


def _login(client: Client, username: str, password: str):
    return client.post(reverse("login"), {"username": username, "password": password})


@pytest.mark.django_db
def test_login_locks_out_after_the_failure_limit_and_an_admin_unlocks(settings, superuser_client):
    from axes.models import AccessAttempt

    get_user_model().objects.create_user("reviewer1", password=STRONG)
    client = Client()
    for _ in range(settings.LOGIN_FAILURE_LIMIT - 1):
        assert _login(client, "reviewer1", "wrong-guess").status_code == 200
    locked = _login(client, "reviewer1", "wrong-guess")
    assert locked.status_code == 429
    assert "Too many failed logins" in locked.content.decode()
    # Locked out: the right password is refused too.
    assert _login(client, "reviewer1", STRONG).status_code == 429
    assert "_auth_user_id" not in client.session
    # A superuser unlocks in the admin: the attempts are deleted there.
    attempt = AccessAttempt.objects.get(username="reviewer1")
    changelist = superuser_client.get(reverse("admin:axes_accessattempt_changelist"))
    assert changelist.status_code == 200 and "reviewer1" in changelist.content.decode()
    superuser_client.post(
        reverse("admin:axes_accessattempt_changelist"),
        {"action": "delete_selected", "_selected_action": [attempt.pk], "post": "yes"},
    )
    assert not AccessAttempt.objects.exists()
    assert _login(client, "reviewer1", STRONG).status_code == 302


def test_sessions_last_a_working_day(settings):
    assert settings.SESSION_COOKIE_AGE == 8 * 3600 == settings.SESSION_AGE_HOURS * 3600


# --- 10. no-store, CSP, versions ----------------------------------------------------------------


@pytest.mark.django_db
def test_every_page_with_transcript_text_or_spans_is_no_store(client, annotated_document, admin_user):
    client.force_login(admin_user)
    span = annotated_document.spans.first()
    d = annotated_document.pk
    urls = [
        reverse("corpus_list"),
        reverse("corpus_detail", args=[annotated_document.corpus_id]),
        reverse("document_review", args=[d]),
        reverse("span_panel", args=[span.pk]),
        reverse("document_preview", args=[d]),
        reverse("document_history", args=[d]),
        reverse("document_annotation", args=[d]),
        reverse("corpus_queue", args=[annotated_document.corpus_id]),
    ]
    for url in urls:
        response = client.get(url)
        assert response.status_code == 200, url
        assert "no-store" in response["Cache-Control"], url
        assert "private" in response["Cache-Control"], url


@pytest.mark.django_db
def test_pages_carry_a_strict_content_security_policy(client, annotated_document, admin_user):
    client.force_login(admin_user)
    response = client.get(reverse("document_review", args=[annotated_document.pk]))
    policy = response["Content-Security-Policy"]
    directives = dict(part.strip().split(" ", 1) for part in policy.split(";") if part.strip())
    assert directives["script-src"] == "'self'" and directives["style-src"] == "'self'"
    assert directives["default-src"] == "'self'" and directives["frame-ancestors"] == "'none'"
    assert "unsafe" not in policy
    page = response.content.decode()
    # Nothing on the page that such a policy blocks: no inline script, handler or style.
    assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", page.replace('type="application/json"', 'src="json"'))
    assert not re.search(r"\son[a-z]+=", page)
    assert "style=" not in page
    assert 'data-label="PERSON"' in page


def test_label_colours_stylesheet_agrees_with_the_label_table():
    from django.conf import settings

    css = (settings.BASE_DIR / "static" / "labels.css").read_text()
    found = dict(re.findall(r'\[data-label="([A-Z_]+)"\] \{ --c: (#[0-9a-f]{6}); \}', css))
    assert found == LABEL_COLOURS
    assert f"--c: {OTHER_COLOUR};" in css


@pytest.mark.django_db
def test_a_decision_without_a_version_is_refused_and_changes_nothing(client, annotated_document, admin_user):
    client.force_login(admin_user)
    span = annotated_document.spans.first()
    response = client.post(reverse("span_decide", args=[span.pk, "accept"]), HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    assert "needs the span&#x27;s version" in response.content.decode()
    span.refresh_from_db()
    assert span.status == "pending" and not ReviewEvent.objects.exists()
    response = client.post(reverse("span_decide", args=[span.pk, "accept"]), {"version": span.version})
    span.refresh_from_db()
    assert span.status == "accepted"
