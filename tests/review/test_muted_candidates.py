"""Issue 27: a candidate a filter dropped that names something identifying (a
name, an age, a date, a place, an organization, an ID) stays visible on the
review page, muted, with its reason, and is taken with one key or one click."""

from django.urls import reverse

from ingestion.models import Document
from review.models import DocumentDetection, Span
from review.selectors.document import Muted, muted_candidates, segments

TEXT = "INMATE DELGADO: I'm 40 -- 42 now. I worked at St. Louis\nDelivery Service. I was tired."


def at(needle: str) -> tuple[int, int]:
    start = TEXT.index(needle)
    return start, start + len(needle)


def test_a_muted_candidate_is_shown_only_where_no_span_touches_it():
    age, company = Muted(*at("40"), "AGE", "no calendar date"), Muted(*at("St. Louis\nDelivery Service"), "ORG", "x")
    span = Span(start=at("Louis")[0], end=at("Louis")[1], label="PERSON", status="rejected", text="Louis")
    shown = [s.muted for s in segments(TEXT, [span], None, [age, company]) if s.muted]
    assert shown == [age]
    assert "".join(s.text for s in segments(TEXT, [span], None, [age, company])) == TEXT


def _document(corpus) -> Document:
    document = Document.objects.create(corpus=corpus, name="d.txt", sha256="m", text=TEXT, status="ready")
    filtered = [
        [*at("40"), "DATE", ["spacy"], "no calendar date (month, weekday, year, decade, day or numeric date)"],
        [*at("St. Louis\nDelivery Service"), "ORGANIZATION", ["spacy"], "crosses a line break"],
        [*at("tired"), "TIME", ["spacy"], "no digit or clock word"],  # not an identifying category
        [*at("40"), "AGE", ["patterns"], "no calendar date"],  # the same stretch again: shown once
        [*at("worked"), "PERSON", ["spacy"], "deny list"],  # the corpus said no: hidden
    ]
    DocumentDetection.objects.create(document=document, filtered=filtered, filtered_counts={})
    return document


def test_only_identifying_categories_are_muted_up_to_the_limit(corpus):
    document = _document(corpus)
    assert [(m.label, TEXT[m.start : m.end]) for m in muted_candidates(document, [], 10)] == [
        ("DATE", "40"),
        ("ORGANIZATION", "St. Louis\nDelivery Service"),
    ]
    assert len(muted_candidates(document, [], 1)) == 1


def test_the_page_shows_them_with_their_reason_and_one_post_takes_one(client, corpus, reviewer, settings):
    document = _document(corpus)
    client.force_login(reviewer)
    page = client.get(reverse("document_review", args=[document.pk])).content.decode()
    assert page.count('class="span st-muted"') == 2
    assert 'title="ORGANIZATION · filtered: crosses a line break"' in page
    start, end = at("St. Louis\nDelivery Service")
    response = client.post(
        reverse("span_create", args=[document.pk]),
        {"start": start, "end": end, "label": "ORGANIZATION", "all": "off"},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 200
    added = Span.objects.get(document=document, start=start, end=end)
    assert added.label == "ORGANIZATION" and added.status == "accepted"
    page = client.get(reverse("document_review", args=[document.pk])).content.decode()
    assert page.count('class="span st-muted"') == 1  # the taken one is a span now
    settings.REVIEW_MUTED_MAX = 0
    assert (
        '<mark class="span st-muted"' not in client.get(reverse("document_review", args=[document.pk])).content.decode()
    )


def test_a_line_that_starts_inside_a_span_or_a_candidate_keeps_its_number_and_anchor(client, corpus, reviewer):
    """The reviewer's finding on a 65k-character transcript: "I'm Bob⏎McCulloch",
    a name a line broke, left the second line without its gutter number and its
    #L anchor, which the leak report's links land on."""
    lines = TEXT.split("\n")
    layout = [[0, len(lines[0]), 7, 11], [len(lines[0]) + 1, len(TEXT), 7, 12]]
    document = Document.objects.create(
        corpus=corpus, name="d.txt", sha256="l", text=TEXT, layout=layout, status="ready"
    )
    DocumentDetection.objects.create(
        document=document,
        filtered=[[*at("St. Louis\nDelivery Service"), "ORGANIZATION", ["spacy"], "crosses a line break"]],
        filtered_counts={},
    )
    client.force_login(reviewer)
    url = reverse("document_review", args=[document.pk])
    muted_line = '<span class="ln" id="L7-12" data-ln="p7:12" aria-hidden="true"></span>'
    # Inside a muted candidate: the mark's text is cut by the line's number, nothing else.
    page = client.get(url).content.decode()
    assert page.count('<span class="ln" id="L') == 2
    assert f'crosses a line break">St. Louis\n{muted_line}Delivery Service</mark>' in page
    # Inside a span, of any status shown.
    start, end = at("Louis\nDelivery")
    span = Span.objects.create(document=document, start=start, end=end, label="ORGANIZATION", text=TEXT[start:end])
    for status in ("pending", "accepted", "rejected"):
        Span.objects.filter(pk=span.pk).update(status=status)
        page = client.get(url).content.decode()
        assert page.count('<span class="ln" id="L') == 2, status
        assert f'title="ORGANIZATION · {status}">Louis\n{muted_line}Delivery</mark>' in page, status


def test_segments_carry_the_lines_that_start_inside_an_item():
    start, end = at("St. Louis\nDelivery Service")
    lines = {0: (1, 1), TEXT.index("Delivery"): (1, 2)}
    company = Muted(start, end, "ORGANIZATION", "x")
    (segment,) = [s for s in segments(TEXT, [], lines, [company]) if s.muted]
    assert segment.inner_lines == ((TEXT.index("Delivery"), (1, 2)),)
    assert all(not s.inner_lines for s in segments(TEXT, [], lines, []))
