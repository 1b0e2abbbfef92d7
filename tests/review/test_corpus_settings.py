"""A corpus's settings (name, description): renamed by a corpus admin through the
service (which writes the Corpus row through ingestion and audits the change),
on its own page with a fixed number of queries, refused to everyone else as
review/access.py refuses (403 for a member without the role, 404 for a stranger)."""

from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied
from django.test import Client, TestCase
from django.urls import reverse

from ingestion import services as ingestion_services
from ingestion.models import Corpus
from review.access import Need, corpus_for
from review.errors import ReviewError
from review.models import CorpusMembership, CorpusSettingsChange, Role
from review.models.append_only import AppendOnlyError
from review.services.corpora import CORPUS_NAME_MAX_CHARS, CorpusSettingsError, corpus_settings_change


class CorpusSettingsServiceTests(TestCase):
    @classmethod
    def setUpTestData(cls) -> None:
        User = get_user_model()
        cls.owner = User.objects.create_user("owner", password="pw", is_staff=True)
        cls.reviewer = User.objects.create_user("rev", password="pw")
        cls.auditor = User.objects.create_user("aud", password="pw")
        cls.corpus = Corpus.objects.create(name="Ferguson review", description="Hearings of 2024")
        cls.other = Corpus.objects.create(name="Parole hearings")
        for user, role in ((cls.owner, Role.ADMIN), (cls.reviewer, Role.REVIEWER), (cls.auditor, Role.AUDITOR)):
            CorpusMembership.objects.create(corpus=cls.corpus, user=user, role=role)

    def change(self, user, name: str, description: str = "Hearings of 2024") -> CorpusSettingsChange | None:
        # The role as the one access rule gives it (any member may read the corpus).
        corpus, role = corpus_for(user, self.corpus.pk, Need.READ)
        return corpus_settings_change(corpus=corpus, user=user, role=role, name=name, description=description)

    def stored(self) -> tuple[str, str]:
        return tuple(Corpus.objects.filter(pk=self.corpus.pk).values_list("name", "description").get())

    def test_a_corpus_admin_renames_and_the_change_is_audited(self) -> None:
        change = self.change(self.owner, "  Review 17  ", "Hearings, 2024 ")
        self.assertEqual(self.stored(), ("Review 17", "Hearings, 2024"))
        self.assertEqual(change.user, self.owner)
        self.assertEqual(change.before, {"name": "Ferguson review", "description": "Hearings of 2024"})
        self.assertEqual(change.after, {"name": "Review 17", "description": "Hearings, 2024"})
        self.assertEqual(
            change.changes(),
            [("name", "Ferguson review", "Review 17"), ("description", "Hearings of 2024", "Hearings, 2024")],
        )
        # The audit is append-only, like the project's other audits.
        with self.assertRaises(AppendOnlyError):
            change.save()
        # Saving the same settings again changes nothing and records nothing.
        self.assertIsNone(self.change(self.owner, "Review 17", "Hearings, 2024"))
        self.assertEqual(CorpusSettingsChange.objects.count(), 1)
        # A change of case alone is a rename (the name is this corpus's own).
        self.assertIsNotNone(self.change(self.owner, "REVIEW 17", "Hearings, 2024"))
        self.assertEqual(self.stored()[0], "REVIEW 17")

    def test_the_corpus_object_given_follows_the_rename(self) -> None:
        corpus, role = corpus_for(self.owner, self.corpus.pk, Need.ADMIN)
        corpus_settings_change(corpus=corpus, user=self.owner, role=role, name="Review 17", description="")
        self.assertEqual((corpus.name, corpus.description), ("Review 17", ""))

    def test_an_invalid_name_is_refused_with_its_reason_and_nothing_changes(self) -> None:
        cases = {
            "": "A corpus needs a name.",
            "   ": "A corpus needs a name.",
            "x" * (CORPUS_NAME_MAX_CHARS + 1): f"at most {CORPUS_NAME_MAX_CHARS} characters; this one has "
            f"{CORPUS_NAME_MAX_CHARS + 1}",
            "Review\n17": "one line of text",
            "Parole hearings": "Another corpus is already named “Parole hearings”",
        }
        for name, message in cases.items():
            with self.subTest(name=name[:20]), self.assertRaises(CorpusSettingsError) as refused:
                self.change(self.owner, name)
            self.assertIn(message, str(refused.exception))
            self.assertEqual(refused.exception.field, "name")
        self.assertEqual(self.stored(), ("Ferguson review", "Hearings of 2024"))
        self.assertFalse(CorpusSettingsChange.objects.exists())
        # The longest name the column holds is accepted.
        self.change(self.owner, "x" * CORPUS_NAME_MAX_CHARS)
        self.assertEqual(len(self.stored()[0]), CORPUS_NAME_MAX_CHARS)

    def test_a_name_taken_between_the_check_and_the_write_is_refused_by_the_unique_index(self) -> None:
        real = ingestion_services.corpus_settings_update

        def taken_meanwhile(corpus_id: int, *, name: str, description: str) -> None:
            ingestion_services.Corpus.objects.create(name=name)  # another admin was faster
            real(corpus_id, name=name, description=description)

        ingestion_services.corpus_settings_update = taken_meanwhile
        try:
            with self.assertRaises(CorpusSettingsError) as refused:
                self.change(self.owner, "Review 17")
        finally:
            ingestion_services.corpus_settings_update = real
        self.assertIn("Another corpus is already named “Review 17”", str(refused.exception))
        self.assertEqual(self.stored()[0], "Ferguson review")
        self.assertFalse(CorpusSettingsChange.objects.exists())

    def test_only_a_corpus_admin_may_even_when_a_caller_forgets_to_check(self) -> None:
        stranger = get_user_model().objects.create_user("stranger", password="pw")
        for user in (self.reviewer, self.auditor):
            with self.subTest(user=user.username), self.assertRaises(PermissionDenied):
                self.change(user, "Review 17")
        with self.assertRaises(PermissionDenied):
            corpus_settings_change(corpus=self.corpus, user=stranger, role=None, name="Review 17", description="")
        self.assertEqual(self.stored()[0], "Ferguson review")
        self.assertFalse(CorpusSettingsChange.objects.exists())

    def test_a_deleted_corpus_is_said_so(self) -> None:
        corpus, role = corpus_for(self.owner, self.other.pk, Need.READ) if False else (self.other, Role.ADMIN)
        Corpus.objects.filter(pk=corpus.pk).delete()
        with self.assertRaises(ReviewError):
            corpus_settings_change(corpus=corpus, user=self.owner, role=role, name="Gone", description="")


class CorpusSettingsViewTests(TestCase):
    @classmethod
    def setUpTestData(cls) -> None:
        User = get_user_model()
        cls.owner = User.objects.create_user("owner", password="pw", is_staff=True)
        cls.reviewer = User.objects.create_user("rev", password="pw")
        cls.stranger = User.objects.create_user("stranger", password="pw")
        cls.corpus = Corpus.objects.create(name="Ferguson review", description="Hearings of 2024")
        Corpus.objects.create(name="Parole hearings")
        CorpusMembership.objects.create(corpus=cls.corpus, user=cls.owner, role=Role.ADMIN)
        CorpusMembership.objects.create(corpus=cls.corpus, user=cls.reviewer, role=Role.REVIEWER)
        cls.url = reverse("corpus_settings", args=[cls.corpus.pk])

    def client_for(self, user) -> Client:
        client = Client()
        client.force_login(user)
        return client

    def test_the_page_has_a_fixed_number_of_queries_however_many_changes(self) -> None:
        client = self.client_for(self.owner)
        # session, user, corpus with the role, the changes with their authors
        with self.assertNumQueries(4):
            page = client.get(self.url)
        self.assertEqual(page.status_code, 200)
        self.assertContains(page, 'value="Ferguson review"')
        self.assertContains(page, "No change recorded yet.")
        for n in range(5):
            client.post(self.url, {"name": f"Review {n}", "description": f"take {n}"})
        with self.assertNumQueries(4):
            page = client.get(self.url).content.decode()
        self.assertEqual(page.count('id="settings-change-'), 5)
        self.assertIn("name: Review 3 → Review 4", page)
        self.assertIn("description: take 3 → take 4", page)

    def test_a_rename_saves_redirects_and_says_what_to_do_next(self) -> None:
        client = self.client_for(self.owner)
        response = client.post(self.url, {"name": "Review 17", "description": "Hearings of 2024"}, follow=True)
        self.assertRedirects(response, self.url)
        self.assertEqual(Corpus.objects.get(pk=self.corpus.pk).name, "Review 17")
        self.assertContains(response, "Corpus renamed to “Review 17”")
        self.assertContains(response, f'href="{reverse("corpus_detail", args=[self.corpus.pk])}#exports"')
        self.assertContains(response, "name: Ferguson review → Review 17")
        self.assertEqual(CorpusSettingsChange.objects.get().user, self.owner)
        response = client.post(self.url, {"name": "Review 17", "description": "Hearings of 2024"}, follow=True)
        self.assertContains(response, "Nothing changed.")
        response = client.post(self.url, {"name": "Review 17", "description": "New words"}, follow=True)
        self.assertContains(response, "Description saved.")

    def test_invalid_names_are_shown_beside_the_field_and_nothing_is_saved(self) -> None:
        client = self.client_for(self.owner)
        for name, message in (
            ("", "A corpus needs a name."),
            ("x" * (CORPUS_NAME_MAX_CHARS + 1), f"A corpus name has at most {CORPUS_NAME_MAX_CHARS} characters"),
            ("Parole hearings", "Another corpus is already named “Parole hearings”: corpus names are unique."),
        ):
            with self.subTest(name=name[:20]):
                response = client.post(self.url, {"name": name, "description": "changed"})
                self.assertEqual(response.status_code, 200)
                errors = response.content.decode().split('id="name-errors"')[1].split("</div>")[0]
                self.assertIn(message, errors)
        self.assertEqual(
            Corpus.objects.filter(pk=self.corpus.pk).values_list("name", "description").get(),
            ("Ferguson review", "Hearings of 2024"),
        )
        self.assertFalse(CorpusSettingsChange.objects.exists())

    def test_a_reviewer_gets_403_and_no_control_and_a_stranger_404(self) -> None:
        reviewer = self.client_for(self.reviewer)
        self.assertEqual(reviewer.get(self.url).status_code, 403)
        self.assertEqual(reviewer.post(self.url, {"name": "Mine now", "description": ""}).status_code, 403)
        corpus_page = reviewer.get(reverse("corpus_detail", args=[self.corpus.pk])).content.decode()
        self.assertNotIn("corpus-settings-link", corpus_page)
        self.assertNotIn(self.url, corpus_page)
        stranger = self.client_for(self.stranger)
        self.assertEqual(stranger.get(self.url).status_code, 404)
        self.assertEqual(stranger.post(self.url, {"name": "Mine now", "description": ""}).status_code, 404)
        self.assertEqual(Corpus.objects.get(pk=self.corpus.pk).name, "Ferguson review")
        self.assertFalse(CorpusSettingsChange.objects.exists())
        # The corpus admin has the link.
        admin_page = self.client_for(self.owner).get(reverse("corpus_detail", args=[self.corpus.pk])).content.decode()
        self.assertIn(f'<a href="{self.url}" id="corpus-settings-link">', admin_page)

    def test_a_rename_in_the_django_admin_is_audited_too(self) -> None:
        root = get_user_model().objects.create_superuser("root", "root@example.org", "a-long-passphrase-1")
        client = self.client_for(root)
        data = {
            "name": "Review 17",
            "description": "Hearings of 2024",
            "created_by": str(root.pk),
            "memberships-TOTAL_FORMS": "0",
            "memberships-INITIAL_FORMS": "0",
            "memberships-MIN_NUM_FORMS": "0",
            "memberships-MAX_NUM_FORMS": "1000",
        }
        response = client.post(f"/admin/ingestion/corpus/{self.corpus.pk}/change/", data)
        self.assertEqual(response.status_code, 302, str(response.context and response.context["errors"]))
        change = CorpusSettingsChange.objects.get()
        self.assertEqual(
            (change.user, change.before["name"], change.after["name"]), (root, "Ferguson review", "Review 17")
        )
        # The admin's form follows the same rule for a name.
        response = client.post(f"/admin/ingestion/corpus/{self.corpus.pk}/change/", {**data, "name": "Review\t17"})
        self.assertContains(response, "one line of text")
        self.assertEqual(CorpusSettingsChange.objects.count(), 1)
