"""A French corpus end to end: created with its language, a (synthetic) French
decision uploaded, pre-annotated by the French pipeline, reviewed on the unchanged
review page, accepted, approved and exported through the unchanged leak gate."""

import io
import re
import zipfile
from pathlib import Path

import pytest
from django.core.management import call_command
from django.urls import reverse

from ingestion.models import Corpus, Document
from review.models import Span

DECISION = (Path(__file__).resolve().parents[2] / "demo" / "decision_cour_appel_demo_fr.txt").read_text("utf-8")

# What must never survive an export, by the label it must be found as.
EXPECTED = {
    "PERSON": ["Jean-Pierre DUPONT", "DUPONT", "Dupont", "Nathalie GIRARD", "Girard"],
    "LAWYER": ["Paul MARTIN", "MARTIN", "Sophie Le Goff"],
    "JUDGE_CLERK": ["Claire DURAND", "Marc LEFEBVRE", "Sylvie ROUX"],
    "ADDRESS": ["12 rue de la République, 69002 Lyon", "8 chemin des Vignes, 69340 Francheville"],
    "LICENCE_PLATE": ["AB-123-CD"],
    "RG": ["18/01234"],
    "DATE": ["12 janvier 2019", "3 mars 1975", "1er mars 2018", "15/06/2018", "2 avril 2018"],
    "PHONE_NUMBER": ["06 12 34 56 78"],
    "BAR": ["LYON", "Paris"],
    "ORGANIZATION": ["BATIMEX"],
}


@pytest.fixture
def french_corpus(client, make_user):
    owner = make_user("owner-fr", is_staff=True)
    client.force_login(owner)
    response = client.post(reverse("corpus_list"), {"name": "Décisions", "description": "", "language": "fr"})
    corpus = Corpus.objects.get(name="Décisions")
    assert response.status_code == 302 and corpus.language == "fr"
    return corpus


@pytest.mark.django_db
def test_a_french_decision_is_detected_reviewed_and_exported_with_seed_002_placeholders(
    client, french_corpus, django_capture_on_commit_callbacks, tmp_path
):
    page = client.get(reverse("corpus_detail", args=[french_corpus.pk])).content.decode()
    assert "Français (French)" in page  # the corpus page shows its language

    from django.core.files.uploadedfile import SimpleUploadedFile

    upload = SimpleUploadedFile("decision.txt", DECISION.encode())
    with django_capture_on_commit_callbacks(execute=True):
        client.post(reverse("document_upload", args=[french_corpus.pk]), {"files": [upload]})
    document = Document.objects.get(corpus=french_corpus)
    assert document.status == "ready", document.error_message
    found = {(s.label, s.text) for s in Span.objects.filter(document=document)}
    for label, texts in EXPECTED.items():
        for text in texts:
            assert (label, text) in found, (
                f"{text!r} not found as {label}: {sorted(t for kind, t in found if kind == label)}"
            )
    # The French model ran, not the English one.
    assert document.annotation_runs.get().model == "fr_core_news_sm"

    # The review page, unchanged, shows the French labels.
    review = client.get(reverse("document_review", args=[document.pk])).content.decode()
    assert "JUDGE_CLERK" in review and "LAWYER" in review and "Claire DURAND" in review

    Span.objects.filter(document=document).update(status="accepted")
    Document.objects.filter(pk=document.pk).update(status="approved")
    out = tmp_path / "fr.zip"
    call_command("export", "--corpus", french_corpus.name, "--out", str(out), stdout=io.StringIO())
    archive = zipfile.ZipFile(out)
    (redacted,) = [archive.read(n).decode() for n in archive.namelist() if n.startswith("redacted/")]
    for texts in EXPECTED.values():
        for text in texts:
            assert not re.search(rf"(?<!\w){re.escape(text)}(?!\w)", redacted), f"{text!r} survived the export"
    for placeholder in ("[LAWYER_", "[JUDGE_CLERK_", "[ADDRESS_", "[LICENCE_PLATE_", "[RG_", "[BAR_", "[PERSON_"):
        assert placeholder in redacted
    assert "[DAY] [MONTH] [YEAR]" in redacted and "[DATE]" in redacted  # "1er mars 2018", "15/06/2018"
    # The title stays as context; a later mention by surname is the same lawyer.
    assert "Maître [LAWYER_1]" in redacted and "Me [LAWYER_1] soutient" in redacted


@pytest.mark.django_db
def test_the_initials_strategy_writes_names_as_initials(client, french_corpus, django_capture_on_commit_callbacks):
    from pipelines.candidate import Candidate
    from pipelines.pseudonymize.engine import PseudonymizationConfig, pseudonymize_document

    text = "Maître Paul MARTIN a plaidé le 12 janvier 2019 pour Jean-Pierre DUPONT."
    spans = [
        Candidate(7, 18, "LAWYER", "Paul MARTIN", ("human",), 1.0),
        Candidate(31, 46, "DATE", "12 janvier 2019", ("human",), 1.0),
        Candidate(52, 70, "PERSON", "Jean-Pierre DUPONT", ("human",), 1.0),
    ]
    result = pseudonymize_document(text, spans, PseudonymizationConfig("initials"))
    assert result.text == "Maître P. M. a plaidé le [NUMBER] [MONTH] [YEAR] pour J.-P. D.."


@pytest.mark.django_db
def test_a_corpus_is_english_unless_chosen_and_an_unknown_language_is_refused(client, make_user):
    client.force_login(make_user("staff-en", is_staff=True))
    client.post(reverse("corpus_list"), {"name": "Hearings EN", "description": ""})
    assert Corpus.objects.get(name="Hearings EN").language == "en"
    response = client.post(reverse("corpus_list"), {"name": "Bad", "description": "", "language": "xx"})
    assert response.status_code == 200 and not Corpus.objects.filter(name="Bad").exists()
    assert "Select a valid choice" in response.content.decode()


@pytest.mark.django_db
def test_a_french_corpus_detects_and_trains_from_the_french_model(french_corpus, settings):
    from pipelines.detection.config import DEFAULT as DEFAULT_SETTINGS
    from review.services.corpus_models import corpus_base_model, detection_model

    settings.SPACY_MODEL = "sm"
    assert corpus_base_model(french_corpus.pk) == "fr_core_news_sm"
    assert detection_model(french_corpus.pk, DEFAULT_SETTINGS, "fr").record == "fr_core_news_sm"
    english = Corpus.objects.create(name="English")
    assert corpus_base_model(english.pk) == "sm"


@pytest.mark.django_db
def test_the_french_corpus_page_no_longer_says_quasi_identifiers_are_english_only(client, french_corpus):
    # French raises quasi-identifier flags from its own lexicons: the old note is gone.
    page = client.get(reverse("corpus_detail", args=[french_corpus.pk])).content.decode()
    assert 'id="corpus-language"' in page
    assert "corpus-quasi-note" not in page and "English only" not in page


@pytest.mark.django_db
def test_apply_to_all_and_the_side_panel_group_french_names_with_french_words(french_corpus):
    # The review's grouping keys names with the corpus language's words: after a
    # French article, "fontaine" is the noun, not the name "Fontaine".
    from review.selectors.document import Filters, entity_groups
    from review.services.decisions import siblings
    from review.text import same_name_key, words_of

    text = "Claire Fontaine est présente.\nLa fontaine fuyait. FONTAINE signe."
    document = Document.objects.create(corpus=french_corpus, name="d.txt", sha256="d", text=text, status="ready")

    def span(pk: int, needle: str) -> Span:
        start = text.index(needle)
        return Span(pk=pk, document=document, start=start, end=start + len(needle), label="PERSON", text=needle)

    fontaine, noun, capitals = span(1, "Fontaine"), span(2, "fontaine"), span(3, "FONTAINE")
    spans = [fontaine, noun, capitals]
    assert siblings(fontaine, spans, text) == [capitals]
    groups = entity_groups(spans, Filters(), text, words=words_of(document))
    assert sorted(len(e.spans) for e in groups[0].entities) == [1, 2]
    # On English words "la" is no article: the noun was keyed as the name.
    assert same_name_key(noun, text) == same_name_key(fontaine, text)
    assert same_name_key(noun, text, words_of(document)) != same_name_key(fontaine, text, words_of(document))
