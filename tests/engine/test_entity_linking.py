"""Entity linking: variants of one person share one pseudonym (issues 5 and 6)."""

import io
import re
import zipfile

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from ingestion.models import Document
from review.errors import ReviewError
from review.models import ReviewEvent, Span
from review.services.decisions import link_choices, span_link
from review.services.undo import undo_last

pytestmark = pytest.mark.django_db

TEXT = "Mr. Smith arrived. John Smith sat down. Later Johnny said hello to Mr. Smith and Ana Ruiz.\n"


@pytest.fixture
def doc(corpus):
    document = Document.objects.create(corpus=corpus, name="t.txt", sha256="x", text=TEXT, status="ready")
    for needle in ["Smith", "John Smith", "Johnny", "Ana Ruiz"]:
        for m in re.finditer(r"(?<!\w)" + re.escape(needle) + r"(?!\w)", TEXT):
            if needle == "Smith" and TEXT[m.start() - 5 : m.start()] == "John ":
                continue  # inside "John Smith"
            Span.objects.create(
                document=document,
                start=m.start(),
                end=m.end(),
                label="PERSON",
                text=needle,
                sources=["spacy"],
                score=0.8,
            )
    return document


def span(document, text):
    return Span.objects.filter(document=document, text=text).order_by("start").first()


def test_link_groups_every_occurrence_and_undo_restores(doc, reviewer):
    outcome = span_link(span=span(doc, "Smith"), target=span(doc, "John Smith"), user=reviewer)
    entities = {s.text: s.entity for s in Span.objects.filter(document=doc)}
    assert entities["Smith"] and entities["Smith"] == entities["John Smith"]
    assert entities["Ana Ruiz"] == "" and entities["Johnny"] == ""
    assert Span.objects.filter(document=doc, entity=entities["Smith"]).count() == 3  # both "Smith" + "John Smith"
    assert set(ReviewEvent.objects.filter(bulk_id=outcome.bulk_id).values_list("action", flat=True)) == {"link"}
    # A third variant joins the same entity.
    span_link(span=span(doc, "Johnny"), target=span(doc, "Smith"), user=reviewer)
    assert span(doc, "Johnny").entity == entities["Smith"]
    undo_last(document=doc, user=reviewer)
    assert span(doc, "Johnny").entity == ""
    assert span(doc, "Smith").entity == entities["Smith"]


def test_link_refuses_other_labels_and_itself(doc, reviewer):
    ruiz = span(doc, "Ana Ruiz")
    Span.objects.filter(pk=ruiz.pk).update(label="LOCATION")
    ruiz.refresh_from_db()
    with pytest.raises(ReviewError, match="same label"):
        span_link(span=span(doc, "Smith"), target=ruiz, user=reviewer)
    with pytest.raises(ReviewError):
        span_link(span=span(doc, "Smith"), target=span(doc, "Smith"), user=reviewer)


def test_panel_offers_the_other_entities_and_the_link_action_works(doc, reviewer):
    smith = span(doc, "Smith")
    choices = [s.text for s in link_choices(smith, list(Span.objects.filter(document=doc)))]
    assert choices == ["John Smith", "Johnny", "Ana Ruiz"]
    client = Client(enforce_csrf_checks=True)
    client.force_login(reviewer)
    page = client.get(reverse("span_panel", args=[smith.pk]), HTTP_HX_REQUEST="true").content.decode()
    assert 'id="link-target"' in page and "John Smith" in page
    token = client.get(reverse("login")).cookies["csrftoken"].value
    response = client.post(
        reverse("span_decide", args=[smith.pk, "link"]),
        {"target": span(doc, "John Smith").pk, "version": smith.version},
        HTTP_X_CSRFTOKEN=token,
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 200 and "one entity" in response.content.decode()
    assert span(doc, "Smith").entity == span(doc, "John Smith").entity != ""


def test_linked_variants_share_one_number_in_an_entity_numbered_export(doc, reviewer, tmp_path):
    span_link(span=span(doc, "Smith"), target=span(doc, "John Smith"), user=reviewer)
    span_link(span=span(doc, "Johnny"), target=span(doc, "John Smith"), user=reviewer)
    Span.objects.filter(document=doc).update(status="accepted")
    out = tmp_path / "x.zip"
    call_command(
        "export",
        "--corpus",
        doc.corpus.name,
        "--out",
        str(out),
        "--scope",
        "all",
        "--person-numbering",
        "entity",
        stdout=io.StringIO(),
    )
    archive = zipfile.ZipFile(out)
    redacted = archive.read(next(n for n in archive.namelist() if n.startswith("redacted/"))).decode()
    assert redacted == (
        "Mr. [PERSON_1] arrived. [PERSON_1] sat down. Later [PERSON_1] said hello to Mr. [PERSON_1] and [PERSON_2].\n"
    )
