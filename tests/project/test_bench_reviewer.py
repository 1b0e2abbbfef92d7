"""The reviewer-throughput replay (bench/bench_reviewer.py) on a tiny fixture whose
cheapest review is known by hand: it picks each kind of move where it is the
cheapest, goes through the review services (audited), and reaches the gold."""

import pytest

from bench.bench_reviewer import Gold, replay
from ingestion.models import Document
from pipelines.candidate import Candidate
from review.models import ReviewEvent, Span, SpanStatus
from review.services.spans import store_machine_spans

TEXT = "Mr. Smith met Jones. Smith paid the Board. The Board met Smith on Monday at the Court. Jones left Paris."


def at(needle: str, nth: int = 0) -> tuple[int, int]:
    start = -1
    for _ in range(nth + 1):
        start = TEXT.index(needle, start + 1)
    return start, start + len(needle)


def candidate(needle: str, nth: int, label: str, score: float) -> Candidate:
    start, end = at(needle, nth)
    return Candidate(start, end, label, needle, ("spacy",), score, "", "")


@pytest.fixture
def document(corpus):
    document = Document.objects.create(corpus=corpus, name="tiny.txt", sha256="tiny", text=TEXT, status="ready")
    store_machine_spans(
        document.pk,
        [
            *(candidate("Smith", n, "PERSON", 0.9) for n in range(3)),
            *(candidate("Jones", n, "PERSON", 0.9) for n in range(2)),
            # Not identifying, twice: one entity-level reject.
            *(candidate("Board", n, "ORGANIZATION", 0.3) for n in range(2)),
            # Too long: the gold is "Monday"; one resize.
            candidate("Monday at", 0, "DATE", 0.3),
            # Not in the gold, once: one single reject.
            candidate("Court", 0, "ORGANIZATION", 0.3),
        ],
    )
    return document


GOLD = Gold(
    counted=[
        *((*at("Smith", n), "PERSON") for n in range(3)),
        *((*at("Jones", n), "PERSON") for n in range(2)),
        (*at("Monday"), "DATE"),
        (*at("Paris"), "LOCATION"),  # missed by the machine: one addition
    ],
    neutral=[],
)


@pytest.mark.django_db
def test_the_replay_counts_one_action_per_cheapest_move_and_reaches_the_gold(document, reviewer):
    result = replay(document, reviewer, GOLD)
    assert dict(result.moves) == {"bulk": 1, "entity": 1, "single": 1, "resize": 1, "add": 1}
    assert result.actions == 5
    assert (result.machine_spans, result.final_spans) == (9, 10)
    assert result.per_span == pytest.approx(0.5)
    # The state reached is the gold: exactly its spans accepted, nothing pending.
    accepted = set(
        Span.objects.filter(document=document, status=SpanStatus.ACCEPTED).values_list("start", "end", "label")
    )
    assert accepted == set(GOLD.counted)
    assert not Span.objects.filter(document=document, status=SpanStatus.PENDING).exists()
    # Through the services: every change is audited, one operation per action.
    operations = set(ReviewEvent.objects.filter(document=document).values_list("bulk_id", flat=True))
    assert len(operations) == result.actions


@pytest.mark.django_db
def test_a_neutral_span_may_end_either_way_and_costs_nothing_extra(document, reviewer):
    # The Board as a generic body: neutral, so bulk accept may take it.
    gold = Gold(counted=GOLD.counted, neutral=[at("Board", 0), at("Board", 1)])
    result = replay(document, reviewer, gold)
    assert result.actions == 4
    assert "entity" not in result.moves
