"""The work queue by risk with minutes left (issue 16), the history page's filtered
candidates, failures in the user's language, and the corpus page's links."""

import uuid
from datetime import timedelta
from unittest import mock

import pytest
from django.urls import reverse
from django.utils import timezone

from ingestion.models import Document
from review.models import DocumentDetection, ReviewEvent, Span
from review.selectors.queue import review_rate


def make_document(corpus, name: str, scores: list[float], status: str = "ready") -> Document:
    text = " ".join(f"Name{i}" for i in range(len(scores))) or "nothing"
    document = Document.objects.create(corpus=corpus, name=name, sha256=name, text=text, status=status)
    at = 0
    for i, score in enumerate(scores):
        word = f"Name{i}"
        Span.objects.create(document=document, start=at, end=at + len(word), label="PERSON", text=word, score=score)
        at += len(word) + 1
    return document


def decide_at(document: Document, user, when, spans: int = 1) -> None:
    """An operation of `spans` decision events at a given time (the audit row's
    created_at is set by Django: the clock is moved instead)."""
    bulk = uuid.uuid4()
    with mock.patch("django.utils.timezone.now", return_value=when):
        for _ in range(spans):
            ReviewEvent.objects.create(document=document, user=user, action="accept", bulk_id=bulk)


@pytest.fixture
def queue(corpus):
    return {
        "sure": make_document(corpus, "sure.txt", [0.9] * 5),  # 5 pending, none low
        "risky": make_document(corpus, "risky.txt", [0.2, 0.3, 0.9]),  # 3 pending, 2 low
        "one": make_document(corpus, "one.txt", [0.1]),  # 1 pending, 1 low
    }


@pytest.mark.django_db
def test_the_queue_puts_the_riskiest_first_with_minutes_left_at_the_default_rate(
    client, reviewer, queue, settings, django_assert_num_queries
):
    settings.REVIEW_DEFAULT_SPANS_PER_MINUTE = 2.0
    settings.REVIEW_QUEUE_LOW_SCORE = 0.5
    client.force_login(reviewer)
    url = reverse("corpus_queue", args=[queue["sure"].corpus_id])
    client.get(url)
    # session, user, corpus+role, documents with counts, status counts, review rate
    with django_assert_num_queries(6):
        page = client.get(url).content.decode()
    order = [page.index(f'data-document="{queue[n].pk}"') for n in ("risky", "one", "sure")]
    assert order == sorted(order)
    assert "assumed 2.0 spans per minute" in page
    # 5 pending at 2 per minute: 3 minutes; 3 pending: 2; 9 pending listed: 5.
    assert f'data-document="{queue["sure"].pk}"' in page
    row = page[page.index(f'data-document="{queue["sure"].pk}"') :]
    assert '<td class="minutes-left">3</td>' in row[: row.index("</tr>")]
    row = page[page.index(f'data-document="{queue["risky"].pk}"') :]
    assert '<td class="low-score">2</td>' in row[: row.index("</tr>")]
    assert "About <strong>5 minutes</strong>" in page


@pytest.mark.django_db
def test_the_rate_is_measured_from_the_corpus_audit_trail_without_the_breaks(reviewer, queue, settings):
    settings.REVIEW_RATE_MIN_OPERATIONS = 3
    settings.REVIEW_RATE_MAX_GAP_SECONDS = 300
    document = queue["sure"]
    start = timezone.now() - timedelta(hours=3)
    # Four operations 30 s apart deciding 2 spans each, then a 2-hour break, then one more.
    for n in range(4):
        decide_at(document, reviewer, start + timedelta(seconds=30 * n), spans=2)
    decide_at(document, reviewer, start + timedelta(hours=2), spans=2)
    rate = review_rate(document.corpus)
    # Three timed gaps of 30 s (90 s) deciding 6 spans: 4 per minute; the break is not review time.
    assert rate.measured and rate.operations == 3
    assert rate.spans_per_minute == pytest.approx(4.0)
    assert rate.minutes_for(5) == 2


@pytest.mark.django_db
def test_too_little_history_falls_back_to_the_default_rate(reviewer, queue, settings):
    settings.REVIEW_RATE_MIN_OPERATIONS = 10
    settings.REVIEW_DEFAULT_SPANS_PER_MINUTE = 7.0
    decide_at(queue["sure"], reviewer, timezone.now())
    rate = review_rate(queue["sure"].corpus)
    assert not rate.measured and rate.spans_per_minute == 7.0


HISTORY_TEXT = "PRESIDING COMMISSIONER Hartwell: the Board met Delgado on Monday.\nWitness: Panel"


@pytest.mark.django_db
def test_the_history_page_shows_each_filtered_candidate_with_its_reason(
    client, reviewer, corpus, settings, django_assert_num_queries
):
    document = Document.objects.create(corpus=corpus, name="h.txt", sha256="h", text=HISTORY_TEXT, status="ready")
    board, monday = HISTORY_TEXT.index("Board"), HISTORY_TEXT.index("Monday")
    DocumentDetection.objects.create(
        document=document,
        filtered=[
            [board, board + 5, "ORGANIZATION", ["spacy"], "common word"],
            [monday, monday + 6, "DATE", ["presidio", "spacy"], "weekday alone"],
        ],
        filtered_counts={"common word": 1, "weekday alone": 1},
    )
    client.force_login(reviewer)
    url = reverse("document_history", args=[document.pk])
    client.get(url)
    # session, user, document+role, events, spans, detection
    with django_assert_num_queries(6):
        page = client.get(url).content.decode()
    table = page[page.index('id="filtered-candidates"') :]
    assert '<span class="st-filtered" title="filtered: common word">Board</span>' in table
    assert "<td>ORGANIZATION</td><td>spacy</td><td>common word</td>" in table
    assert '<span class="st-filtered" title="filtered: weekday alone">Monday</span>' in table
    assert "<td>DATE</td><td>presidio, spacy</td><td>weekday alone</td>" in table
    # A long list is cut at the named limit, and says how many more there are.
    settings.REVIEW_HISTORY_FILTERED_MAX = 1
    page = client.get(url).content.decode()
    assert "Monday</span>" not in page and "and 1 more filtered candidate " in page
