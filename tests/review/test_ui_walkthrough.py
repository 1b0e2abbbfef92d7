"""Server-rendered parts of the tester's walk-through defects (the browser side is
tests/browser/test_ui_walkthrough_browser.py): speaker labels with a name in them, the
favicon, pages that cannot be edited, the exports page opened directly."""

import re

import pytest
from django.urls import reverse

from review.selectors.document import segments
from review.templatetags.review_tags import text_runs


def review_page(client, user, document) -> str:
    client.force_login(user)
    response = client.get(reverse("document_review", args=[document.pk]))
    assert response.status_code == 200
    return response.content.decode()


@pytest.mark.django_db
def test_a_speaker_label_with_a_name_span_keeps_the_speaker_style(client, admin_user, annotated_document):
    page = review_page(client, admin_user, annotated_document)
    text = annotated_document.text
    hartwell = annotated_document.spans.get(text="HARTWELL", start=text.index("HARTWELL"))
    # "PRESIDING COMMISSIONER HARTWELL:": the words before the name, the name's
    # mark and the colon after it are all the label.
    assert '<span class="seg speaker" data-start="0">PRESIDING COMMISSIONER </span>' in page
    assert re.search(rf'<mark id="span-{hartwell.pk}" class="span st-pending in-speaker"', page)
    assert f'<span class="seg speaker" data-start="{hartwell.end}">:</span>' in page
    # The utterance after it is not.
    assert f'<span class="seg" data-start="{hartwell.end + 1}"> Good morning.' in page


def test_speaker_labels_are_found_on_every_line_of_a_run_and_only_at_a_line_start() -> None:
    text = "INMATE: Yes.\nMR. SMITH: No: never.\nand then: this\n"
    html = str(text_runs(segments(text, []), text))
    assert html.count('class="seg speaker"') == 2
    assert '<span class="seg speaker" data-start="0">INMATE:</span>' in html
    assert f'<span class="seg speaker" data-start="{text.index("MR.")}">MR. SMITH:</span>' in html
    # Every character is rendered once, in order.
    assert re.sub(r"<[^>]+>", "", html) == text


@pytest.mark.django_db
def test_every_page_links_a_favicon_that_exists(client, admin_user):
    client.force_login(admin_user)
    page = client.get(reverse("corpus_list")).content.decode()
    href = re.search(r'<link rel="icon" href="([^"]+)"', page).group(1)
    assert href.endswith(".svg")
    response = client.get(href)
    assert response.status_code == 200
    body = b"".join(response.streaming_content) if response.streaming else response.content
    assert body.startswith(b"<svg")


EDIT_CONTROLS = (
    'id="undo-button"',
    'id="bulk-form"',
    'id="add-panel"',
    "Select text to add a span",
    "accept, reject or relabel",
    "<kbd>a</kbd> accept",
    "<kbd>r</kbd> reject",
)


@pytest.mark.django_db
def test_an_approved_document_offers_no_edit_control_nor_its_keys(client, admin_user, annotated_document):
    type(annotated_document).objects.filter(pk=annotated_document.pk).update(status="approved")
    page = review_page(client, admin_user, annotated_document)
    assert 'id="read-only-note"' in page
    for control in EDIT_CONTROLS:
        assert control not in page, control
    assert "accept the current span" not in page  # the help dialog's decision keys
    assert "Click a highlighted span to see its label" in page


@pytest.mark.django_db
def test_an_editable_document_still_offers_them(client, admin_user, annotated_document):
    page = review_page(client, admin_user, annotated_document)
    for control in EDIT_CONTROLS:
        assert control in page, control


@pytest.mark.django_db
@pytest.mark.parametrize("has_text", [False, True])
def test_a_failed_document_shows_only_the_failure_and_the_next_step(client, admin_user, corpus, has_text):
    from ingestion.models import Document

    document = Document.objects.create(
        corpus=corpus,
        name="broken.pdf",
        sha256="broken",
        status="failed",
        text="INMATE: Yes.\n" if has_text else "",
        error_message="The PDF could not be read: no text layer.",
    )
    page = review_page(client, admin_user, document)
    assert 'id="failure"' in page
    assert "The PDF could not be read: no text layer." in page
    for control in (*EDIT_CONTROLS, 'id="doc-text"', 'id="preview-toggle"', 'id="panel"', 'id="legend"', 'id="help"'):
        assert control not in page, control
    if has_text:
        assert reverse("document_reannotate", args=[document.pk]) in page
    else:
        assert "upload a repaired copy" in page


@pytest.mark.django_db
def test_the_exports_list_opened_directly_is_a_full_page_and_a_fragment_for_htmx(client, admin_user, corpus):
    client.force_login(admin_user)
    url = reverse("export_list", args=[corpus.pk])
    page = client.get(url).content.decode()
    assert page.startswith("<!doctype html>")
    assert 'rel="stylesheet"' in page and 'id="exports"' in page and "No export yet." in page
    assert reverse("corpus_detail", args=[corpus.pk]) in page
    fragment = client.get(url, HTTP_HX_REQUEST="true").content.decode()
    assert fragment.lstrip().startswith('<div id="exports"')
    assert "<html" not in fragment
