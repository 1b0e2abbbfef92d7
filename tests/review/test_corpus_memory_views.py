"""The corpus memory page (issue 17): corpus admins only, a fixed number of queries,
removal by POST audited, never across corpora."""

import pytest
from django.test import Client
from django.urls import reverse

from ingestion.models import Corpus, Document
from review.models import CorpusMemoryName, CorpusMemoryRemoval, CorpusSuppression, Span

pytestmark = pytest.mark.django_db


@pytest.fixture
def memory(corpus):
    ids = {
        n: Document.objects.create(corpus=corpus, name=f"hearing-{n}.txt", sha256=f"m{n}", text="x").pk for n in (3, 7)
    }
    ids[9] = max(ids.values()) + 1000  # a document deleted since: its id is all that is left
    names = [
        CorpusMemoryName.objects.create(
            corpus=corpus, label=label, form=text.casefold(), text=text, documents=[ids[n] for n in docs]
        )
        for text, label, docs in [
            ("Darren Wilson", "PERSON", [3, 7]),
            ("Canfield", "LOCATION", [3]),
            ("Kowalczyk", "PERSON", [9]),
        ]
    ]
    suppressions = [
        CorpusSuppression.objects.create(
            corpus=corpus, form=form, labels=["ORGANIZATION"], documents=docs, rejected_count=len(docs)
        )
        for form, docs in [("correct", [3, 7, 9]), ("inaudible", [7, 9])]
    ]
    # Not shown: rejected in one document only, or accepted somewhere.
    CorpusSuppression.objects.create(corpus=corpus, form="mike", labels=["PERSON"], documents=[3], rejected_count=1)
    CorpusSuppression.objects.create(
        corpus=corpus, form="wilson", labels=["PERSON"], documents=[3, 7], rejected_count=2, accepted=True
    )
    return names, suppressions


def client_for(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_page_lists_names_suppressions_and_removals_in_a_fixed_number_of_queries(
    corpus, admin_user, memory, django_assert_num_queries
):
    client = client_for(admin_user)
    url = reverse("corpus_memory", args=[corpus.pk])
    names, suppressions = memory
    client.post(reverse("corpus_memory_remove", args=[corpus.pk, "name", names[2].pk]), {"reason": "a public official"})
    # session, user, corpus with the role, names, suppressions, removals with their
    # authors, the documents' names
    with django_assert_num_queries(7):
        response = client.get(url)
    html = response.content.decode()
    assert response.status_code == 200
    assert "Darren Wilson" in html and "Canfield" in html
    seven = Document.objects.get(name="hearing-7.txt").pk
    assert f'<a href="{reverse("document_review", args=[seven])}">hearing-7.txt</a>' in html
    assert 'id="suppression-' in html and "correct" in html and "inaudible" in html
    assert ">mike<" not in html and ">wilson<" not in html
    removed = html.split('id="memory-removals"')[1]
    assert "Kowalczyk" in removed and "a public official" in removed and admin_user.username in removed
    assert "deleted document" in removed  # Kowalczyk's document is gone: no link to a 404
    assert "Kowalczyk" not in html.split('id="memory-names"')[1].split("</table>")[0]
    # More rows, and a name accepted in many documents: same queries, the first
    # CORPUS_MEMORY_DOCUMENTS_PER_ROW named, the rest counted.
    for n in range(5):
        CorpusMemoryName.objects.create(corpus=corpus, label="PERSON", form=f"name {n}", text=f"Name {n}")
    CorpusMemoryName.objects.create(
        corpus=corpus, label="PERSON", form="often", text="Often", documents=[seven] * 3 + list(range(10**6, 10**6 + 9))
    )
    with django_assert_num_queries(7):
        html = client.get(url).content.decode()
    often = html.split(">Often<")[1].split("</tr>")[0]
    assert often.count("hearing-7.txt") == 3 and often.count("deleted document") == 7 and "and 2 more" in often


def test_only_corpus_admins_see_or_edit_the_memory(corpus, reviewer, make_user, memory):
    names, _ = memory
    url = reverse("corpus_memory", args=[corpus.pk])
    remove = reverse("corpus_memory_remove", args=[corpus.pk, "name", names[0].pk])
    assert client_for(reviewer).get(url).status_code == 403
    assert client_for(reviewer).post(remove).status_code == 403
    outsider = make_user("outsider")
    assert client_for(outsider).get(url).status_code == 404
    assert client_for(outsider).post(remove).status_code == 404
    assert not CorpusMemoryRemoval.objects.exists()
    assert CorpusMemoryName.objects.get(pk=names[0].pk).removed_at is None


def test_removal_is_a_post_and_is_audited(corpus, admin_user, memory):
    _, suppressions = memory
    client = client_for(admin_user)
    remove = reverse("corpus_memory_remove", args=[corpus.pk, "suppression", suppressions[0].pk])
    assert client.get(remove).status_code == 405
    response = client.post(remove, {"reason": "  a surname here  "}, follow=True)
    assert "“correct” removed from the corpus memory." in response.content.decode()
    removal = CorpusMemoryRemoval.objects.get()
    assert (removal.kind, removal.form, removal.labels, removal.documents, removal.reason, removal.removed_by) == (
        "suppression",
        "correct",
        ["ORGANIZATION"],
        [3, 7, 9],
        "a surname here",
        admin_user,
    )
    again = client.post(remove, follow=True)
    assert "no longer in the corpus" in again.content.decode()
    assert CorpusMemoryRemoval.objects.count() == 1


def test_a_reason_too_long_is_refused_with_a_message(corpus, admin_user, memory, settings):
    settings.CORPUS_MEMORY_REASON_CHARS = 10
    names, _ = memory
    client = client_for(admin_user)
    remove = reverse("corpus_memory_remove", args=[corpus.pk, "name", names[0].pk])
    response = client.post(remove, {"reason": "x" * 11}, follow=True)
    assert "too long (at most 10 characters)" in response.content.decode()
    assert CorpusMemoryName.objects.get(pk=names[0].pk).removed_at is None


def test_an_entry_of_another_corpus_cannot_be_removed_through_this_one(corpus, admin_user, memory):
    other = Corpus.objects.create(name="Other")
    theirs = CorpusMemoryName.objects.create(corpus=other, label="PERSON", form="brandt", text="Brandt")
    client = client_for(admin_user)
    response = client.post(reverse("corpus_memory_remove", args=[corpus.pk, "name", theirs.pk]), follow=True)
    assert "no longer in the corpus" in response.content.decode()
    theirs.refresh_from_db()
    assert theirs.removed_at is None and not CorpusMemoryRemoval.objects.exists()
    assert "Brandt" not in client.get(reverse("corpus_memory", args=[corpus.pk])).content.decode()
    bad_kind = client.post(reverse("corpus_memory_remove", args=[corpus.pk, "other", theirs.pk]), follow=True)
    assert "Unknown memory entry kind" in bad_kind.content.decode()


def test_approving_in_the_app_fills_the_memory_page(corpus, admin_user, reviewer):
    document = Document.objects.create(
        corpus=corpus, name="d.txt", sha256="d", text="INMATE DELGADO: Correct.\n", status="reviewed"
    )
    Span.objects.create(document=document, start=7, end=14, label="PERSON", text="DELGADO", status="accepted")
    client = client_for(admin_user)
    response = client.post(reverse("document_workflow", args=[document.pk, "approve"]))
    assert response.status_code == 200 and response["HX-Refresh"] == "true"
    page = client.get(reverse("corpus_memory", args=[corpus.pk])).content.decode()
    names = page.split('id="memory-names"')[1].split("</table>")[0]
    assert "DELGADO" in names and f'href="{reverse("document_review", args=[document.pk])}"' in names
