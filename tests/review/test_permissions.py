"""The permission matrix: every URL name the site serves × anonymous, a stranger
(the admin of another corpus), an auditor, a reviewer and a corpus admin.

One rule everywhere (review/access.py): anonymous → the login page; not a member
of the corpus the object is in → 404; a member without the role the view needs →
403; a refusal changes nothing; every POST needs its CSRF token.

The URL names come from the resolver, not from a list here: a URL name without an
entry in RULES (or EXEMPT, with its reason) fails `test_every_url_name_has_a_rule`,
so a new view cannot ship without saying who may use it.

The data is built once for the module (setUpTestData) and every request runs in a
savepoint that is rolled back, so each one sees the same world whatever the
requests before it did (a deletion, an approval, a queue assignment)."""

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from django.contrib.auth import get_user_model
from django.db import transaction
from django.test import Client, TestCase
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from ingestion.models import Corpus, Document
from ingestion.storage import private_storage
from review.models import (
    AnnotationRun,
    Assignment,
    CorpusMembership,
    CorpusMemoryRemoval,
    CorpusModelVersion,
    CorpusSettingsChange,
    DetectionConfigChange,
    ExportBatch,
    QuasiIdentifier,
    ReviewEvent,
    Role,
    Span,
)

TEXT = "INMATE DELGADO: Mr. Delgado met Delgado.\nCOMMISSIONER: Thank you.\n"

WHO = ("anonymous", "stranger", "auditor", "reviewer", "admin")
LOGIN = "login"  # expected: a redirect to the login page, with ?next=


def logged_in(ok: int) -> dict[str, int | str]:
    """Anyone logged in (the corpus list, whose rows are the user's corpora)."""
    return {"anonymous": LOGIN, "stranger": ok, "auditor": ok, "reviewer": ok, "admin": ok}


def staff(ok: int) -> dict[str, int | str]:
    """Not corpus-scoped, for staff (the corpus admin here is staff, the others not)."""
    return {"anonymous": LOGIN, "stranger": 403, "auditor": 403, "reviewer": 403, "admin": ok}


def read(ok: int = 200) -> dict[str, int | str]:
    """Any member of the corpus."""
    return {"anonymous": LOGIN, "stranger": 404, "auditor": ok, "reviewer": ok, "admin": ok}


def review(ok: int = 200) -> dict[str, int | str]:
    """Reviewers and corpus admins; auditors read only."""
    return {"anonymous": LOGIN, "stranger": 404, "auditor": 403, "reviewer": ok, "admin": ok}


def admin(ok: int = 200) -> dict[str, int | str]:
    """Corpus admins only."""
    return {"anonymous": LOGIN, "stranger": 404, "auditor": 403, "reviewer": 403, "admin": ok}


def public(ok: int) -> dict[str, int | str]:
    return dict.fromkeys(WHO, ok)


@dataclass(frozen=True)
class Call:
    method: str
    args: Callable[[type["PermissionMatrix"]], list]
    expect: dict[str, int | str]
    data: dict = field(default_factory=dict)
    htmx: bool = False


def C(w) -> list:  # the corpus
    return [w.corpus.pk]


def D(w) -> list:  # its document
    return [w.document.pk]


def get(args, expect, data=None, htmx=False) -> Call:
    return Call("get", args, expect, data or {}, htmx)


def post(args, expect, data=None) -> Call:
    return Call("post", args, expect, data or {}, True)


# Every URL name → the requests that exercise it and who gets what. What the
# successful request returns is what the view does today (a redirect after most
# admin actions, a partial after a decision, refused or not by the workflow).
RULES: dict[str, list[Call]] = {
    "corpus_list": [get(lambda w: [], logged_in(200)), post(lambda w: [], staff(302), {"name": "New corpus"})],
    "corpus_detail": [get(C, read()), get(C, read(), htmx=True)],
    "corpus_settings": [get(C, admin()), post(C, admin(302), {"name": "Hearings 2", "description": "renamed"})],
    "document_upload": [post(C, admin(302))],
    "export_list": [get(C, admin(), htmx=True), get(C, admin())],
    "export_start": [post(C, admin(302))],
    "detection_config": [get(C, admin()), post(C, admin(200))],
    "corpus_reannotate": [post(C, admin(302))],
    "export_download": [get(lambda w: [w.done_export.pk], admin())],
    "export_leaks": [get(lambda w: [w.failed_export.pk], admin()), post(lambda w: [w.failed_export.pk], admin(302))],
    "corpus_queue": [get(C, read(), {"status": "ready"})],
    "queue_next": [post(C, review(302))],
    "corpus_stats": [get(C, read())],
    "corpus_dashboard": [get(C, read())],
    "corpus_memory": [get(C, admin())],
    "corpus_memory_remove": [post(lambda w: [w.corpus.pk, "name", 1], admin(302))],
    "corpus_models": [get(C, admin())],
    "corpus_model_train": [post(C, admin(302))],
    "corpus_model_use_base": [post(C, admin(302))],
    "corpus_model_activate": [post(lambda w: [w.corpus.pk, 1], admin(302))],
    "document_review": [get(D, read()), get(D, read(), {"pending": "on"}, htmx=True)],
    "document_delete": [post(lambda w: [w.failed.pk], admin(302))],
    "span_create": [post(D, review(), {"start": 0, "end": 6, "label": "NRP"})],
    "document_undo": [post(D, review())],
    "document_redo": [post(D, review())],
    "document_bulk": [get(D, read(), {"label": "PERSON"}), post(D, review(), {"action": "accept"})],
    "document_entity": [post(D, review(), {"action": "accept", "label": "PERSON"})],
    "document_preview": [get(D, read())],
    "document_annotation": [get(D, read()), get(D, read(), htmx=True)],
    "document_reannotate": [post(D, admin(302))],
    "document_history": [get(D, read())],
    "document_workflow": [
        post(lambda w: [w.document.pk, "reviewed"], review()),  # refused by the workflow: spans pending
        post(lambda w: [w.document.pk, "second"], review()),
        post(lambda w: [w.document.pk, "approve"], admin()),  # refused by the workflow: not reviewed
    ],
    "corpus_risk": [get(C, read())],
    "document_quasi": [get(D, read())],
    "quasi_decision": [post(lambda w: [w.flag.pk, "keep"], review(), {"version": 1})],
    "span_panel": [get(lambda w: [w.machine.pk], read())],
    "span_decide": [
        post(lambda w: [w.machine.pk, "accept"], review(), {"version": 1}),
        post(lambda w: [w.machine.pk, "reject"], review(), {"version": 1, "reason": "false_positive"}),
        post(lambda w: [w.machine.pk, "relabel"], review(), {"version": 1, "label": "LOCATION"}),
        post(lambda w: [w.machine.pk, "resize"], review(), {"version": 1, "edge": "start", "grow": "1"}),
        post(lambda w: [w.machine.pk, "link"], review(), {"version": 1, "target": lambda w: w.other.pk}),
        post(lambda w: [w.human.pk, "delete"], review(), {"version": 1}),
    ],
    "login": [get(lambda w: [], public(200))],
    "logout": [post(lambda w: [], public(302))],
}

# URL names (or namespaces, as "name:") left out of the matrix, each with why.
EXEMPT: dict[str, str] = {
    "admin:": "Django's admin site: its own staff and model-permission checks (tests/review/test_admin.py); "
    "deleting through it uses the deletion service (review/admin.py).",
}


def url_names(patterns=None, namespace: str = "") -> list[str]:
    """Every URL name the resolver serves, namespaced ("admin:index"); a pattern
    without a name is listed as "<unnamed …>" so that it fails the rule check too."""
    names = []
    for pattern in get_resolver().url_patterns if patterns is None else patterns:
        if isinstance(pattern, URLResolver):
            inner = f"{namespace}{pattern.namespace}:" if pattern.namespace else namespace
            names += url_names(pattern.url_patterns, inner)
        elif isinstance(pattern, URLPattern):
            names.append(f"{namespace}{pattern.name}" if pattern.name else f"{namespace}<unnamed {pattern.pattern}>")
    return names


def exempt(name: str) -> bool:
    return any(name == key or (key.endswith(":") and name.startswith(key)) for key in EXEMPT)


class PermissionMatrix(TestCase):
    @classmethod
    def setUpTestData(cls) -> None:
        User = get_user_model()
        cls.corpus = Corpus.objects.create(name="Hearings")
        elsewhere = Corpus.objects.create(name="Elsewhere")
        cls.users = {
            "stranger": User.objects.create_user("stranger", password="pw"),
            "auditor": User.objects.create_user("auditor", password="pw"),
            "reviewer": User.objects.create_user("reviewer", password="pw"),
            # Staff, as the corpus's creator would be.
            "admin": User.objects.create_user("owner", password="pw", is_staff=True),
        }
        CorpusMembership.objects.create(corpus=elsewhere, user=cls.users["stranger"], role=Role.ADMIN)
        for who, role in (("auditor", Role.AUDITOR), ("reviewer", Role.REVIEWER), ("admin", Role.ADMIN)):
            CorpusMembership.objects.create(corpus=cls.corpus, user=cls.users[who], role=role)
        cls.document = Document.objects.create(corpus=cls.corpus, name="d.txt", sha256="d", text=TEXT, status="ready")
        cls.machine = Span.objects.create(document=cls.document, start=20, end=27, label="PERSON", text="Delgado")
        cls.other = Span.objects.create(document=cls.document, start=32, end=39, label="PERSON", text="Delgado")
        cls.human = Span.objects.create(
            document=cls.document,
            start=41,
            end=53,
            label="ORGANIZATION",
            text="COMMISSIONER",
            created_by=cls.users["admin"],
        )
        cls.flag = QuasiIdentifier.objects.create(
            document=cls.document, start=55, end=60, category="MISC", text="Thank"
        )
        cls.failed = Document.objects.create(
            corpus=cls.corpus, name="noise.txt", sha256="n", status="failed", error_message="Not a text file."
        )
        cls.done_export = ExportBatch.objects.create(corpus=cls.corpus, status="done", file="exports/matrix.zip")
        cls.failed_export = ExportBatch.objects.create(corpus=cls.corpus, status="failed", report=[])

    def setUp(self) -> None:
        # The export's zip, in this test's private storage (tests/conftest.py moves it).
        path = Path(private_storage().path(self.done_export.file.name))
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(b"PK\x05\x06" + bytes(18))  # an empty zip

    @classmethod
    def data(cls, call: Call) -> dict:
        """The request's data; a callable value is read from the world (a span's id)."""
        return {k: v(cls) if callable(v) else v for k, v in call.data.items()}

    def client_for(self, who: str, csrf: bool = True) -> Client:
        client = Client(enforce_csrf_checks=True)
        if who != "anonymous":
            client.force_login(self.users[who])
        if csrf:
            client.get(reverse("login"))  # the CSRF cookie
        return client

    def send(self, client: Client, name: str, call: Call, token: bool = True):
        url = reverse(name, args=call.args(type(self)))
        headers = {"HTTP_HX_REQUEST": "true"} if call.htmx else {}
        if call.method == "get":
            return url, client.get(url, self.data(call), **headers)
        if token:
            headers["HTTP_X_CSRFTOKEN"] = client.cookies["csrftoken"].value
        return url, client.post(url, self.data(call), **headers)

    def state(self) -> tuple:
        """What a refused request must not change."""
        return (
            list(Span.objects.order_by("pk").values_list("pk", "status", "label", "start", "end", "version")),
            list(Document.objects.order_by("pk").values_list("pk", "status")),
            list(QuasiIdentifier.objects.order_by("pk").values_list("pk", "decision", "version")),
            list(ExportBatch.objects.order_by("pk").values_list("pk", "status", "file")),
            list(Corpus.objects.order_by("pk").values_list("pk", "name", "description")),
            CorpusSettingsChange.objects.count(),
            ReviewEvent.objects.count(),
            Assignment.objects.count(),
            AnnotationRun.objects.count(),
            DetectionConfigChange.objects.count(),
            CorpusModelVersion.objects.count(),
            CorpusMemoryRemoval.objects.count(),
        )

    def check(self, who: str) -> None:
        client = self.client_for(who)
        before = self.state()
        wrong = []
        for name, calls in RULES.items():
            for call in calls:
                # Each request in a savepoint rolled back: the next one sees the same data.
                with transaction.atomic():
                    url, response = self.send(client, name, call)
                    expected = call.expect[who]
                    if expected == LOGIN:
                        got_login = response.status_code == 302 and response["Location"].startswith(
                            reverse("login") + "?next="
                        )
                        if not got_login:
                            wrong.append(f"{call.method.upper()} {url} ({name}): {response.status_code}, not login")
                    elif response.status_code != expected:
                        wrong.append(f"{call.method.upper()} {url} ({name}): {response.status_code}, not {expected}")
                    if expected in (LOGIN, 403, 404) and self.state() != before:
                        wrong.append(f"{call.method.upper()} {url} ({name}): refused but changed something")
                    transaction.set_rollback(True)
        self.assertEqual(wrong, [], f"as {who}")

    def test_every_url_name_has_a_rule(self) -> None:
        names = [name for name in url_names() if not exempt(name)]
        missing = sorted(set(names) - set(RULES))
        self.assertEqual(missing, [], "a URL name without a rule: add it to RULES in tests/review/test_permissions.py")
        self.assertEqual(sorted(set(RULES) - set(names)), [], "a rule for a URL name that no longer exists")
        self.assertTrue(all(set(call.expect) == set(WHO) for calls in RULES.values() for call in calls))

    def test_anonymous_is_sent_to_the_login_page(self) -> None:
        self.check("anonymous")

    def test_a_stranger_finds_nothing(self) -> None:
        self.check("stranger")

    def test_an_auditor_reads_and_changes_nothing(self) -> None:
        self.check("auditor")

    def test_a_reviewer_reviews(self) -> None:
        self.check("reviewer")

    def test_a_corpus_admin_does_everything(self) -> None:
        self.check("admin")

    def test_every_post_needs_the_csrf_token(self) -> None:
        before = self.state()
        for who in ("reviewer", "admin"):
            client = self.client_for(who, csrf=False)
            for name, calls in RULES.items():
                for call in calls:
                    if call.method == "post":
                        url, response = self.send(client, name, call, token=False)
                        self.assertEqual(response.status_code, 403, (who, url))
        self.assertEqual(self.state(), before)

    def test_a_stranger_does_not_see_the_corpus_in_the_list(self) -> None:
        page = self.client_for("stranger").get(reverse("corpus_list")).content.decode()
        self.assertNotIn("Hearings", page)
        self.assertIn("Elsewhere", page)

    def test_an_auditor_is_offered_no_control_that_would_be_refused(self) -> None:
        page = self.client_for("auditor").get(reverse("document_review", args=[self.document.pk])).content.decode()
        self.assertNotIn('id="bulk-form"', page)
        self.assertNotIn('id="undo-button"', page)
        corpus_page = self.client_for("auditor").get(reverse("corpus_detail", args=[self.corpus.pk])).content
        self.assertNotIn(b"delete-form", corpus_page)
        self.assertNotIn(b"upload-form", corpus_page)
        self.assertNotIn(b"corpus-settings-link", corpus_page)

    def test_the_admin_site_shows_a_document_without_crashing_on_private_storage(self) -> None:
        root = get_user_model().objects.create_user("root", password="pw", is_staff=True, is_superuser=True)
        client = Client()
        client.force_login(root)
        Document.objects.filter(pk=self.document.pk).update(original="originals/d.txt")
        response = client.get(reverse("admin:ingestion_document_change", args=[self.document.pk]))
        self.assertEqual(response.status_code, 200)
        self.assertIn("originals/d.txt", response.content.decode())
