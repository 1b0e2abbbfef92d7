"""Review writes racing each other in real transactions, on both databases:
another reviewer's transaction holds its write open while this one is written,
then commits. On PostgreSQL the test waits until this one is seen waiting for a
row lock (pg_stat_activity), never for a time. On SQLite a writing transaction
holds the whole database's write lock (IMMEDIATE transactions): this one waits at
BEGIN, which the database reports nowhere, so the test reads the waiting thread's
stack: once it is in that BEGIN (which cannot return while the other holds the
lock) the other commits. A fixed half second used to stand in for that and was
too short when the machine was loaded (parallel test workers)."""

import sys
import threading
import time
from collections.abc import Callable

import pytest
from django.db import connection, transaction

from ingestion.models import Document
from review.errors import CONFLICT, STALE, StaleSpan
from review.models import ReviewEvent, Span
from review.services.decisions import span_accept, span_add, span_relabel
from tests.review.test_review_services import add_machine, make_document

pytestmark = pytest.mark.django_db(transaction=True)
# How long a step may take before the test fails: a bound on a wait for a
# condition, not a measurement. The first operation in a process imports spaCy
# (words_of), which takes over ten seconds on a loaded machine.
PATIENCE = 120


def _at_begin(thread: threading.Thread) -> bool:
    """Whether `thread` is inside Django's BEGIN IMMEDIATE on SQLite (in the
    statement or about to run it: either way nothing it writes can come before
    the other transaction's commit)."""
    frame = sys._current_frames().get(thread.ident)
    while frame is not None:
        if frame.f_code.co_name == "_start_transaction_under_autocommit":
            return True
        frame = frame.f_back
    return False


def _waiting_for_a_lock(actor: threading.Thread) -> bool:
    if connection.vendor == "sqlite":
        return _at_begin(actor)
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
            "AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()"
        )
        return cursor.fetchone()[0] > 0


def while_held(hold: Callable[[], None], act: Callable[[], object]) -> tuple[object, BaseException | None]:
    """Run `hold` in a transaction of another connection and keep it open; run
    `act` on a third until it waits for a lock; then commit `hold`. Returns what
    `act` returned, or the exception it raised."""
    held, release = threading.Event(), threading.Event()
    outcome: dict = {}

    def holder() -> None:
        try:
            with transaction.atomic():
                hold()
                held.set()
                assert release.wait(PATIENCE)
        except BaseException as exc:  # noqa: BLE001 - reported by the assertion below
            outcome["hold"] = exc
            held.set()
        finally:
            connection.close()

    def actor() -> None:
        try:
            outcome["result"] = act()
        except BaseException as exc:  # noqa: BLE001 - handed to the test
            outcome["error"] = exc
        finally:
            connection.close()

    threads = [threading.Thread(target=holder), threading.Thread(target=actor)]
    threads[0].start()
    assert held.wait(PATIENCE) and "hold" not in outcome, outcome.get("hold")
    threads[1].start()
    deadline = time.monotonic() + PATIENCE
    while not _waiting_for_a_lock(threads[1]):
        assert threads[1].is_alive(), f"did not wait for the other transaction: {outcome}"
        assert time.monotonic() < deadline, "never waited for a lock"
        time.sleep(0.01)
    release.set()
    for thread in threads:
        thread.join(PATIENCE)
        assert not thread.is_alive(), f"{thread.name} still running after {PATIENCE} s"
    assert "hold" not in outcome, outcome.get("hold")
    return outcome.get("result"), outcome.get("error")


def _overlapping_accepted(document: Document) -> list:
    rows = list(Span.objects.filter(document=document, status="accepted").values_list("start", "end"))
    return [(a, b) for a in rows for b in rows if a < b and a[0] < b[1] and b[0] < a[1]]


def test_an_add_committed_while_an_add_is_written_over_the_same_text_is_seen(corpus, reviewer):
    """The other add commits while this one waits for the document's row lock:
    the document's revision, re-read under that lock, shows it."""
    document = make_document(corpus)
    spans = list(Span.objects.filter(document=document))
    at = document.text.index("morning")
    second = document.text.index("morning", at + 1)

    def other_reviewer() -> None:
        fresh = Document.objects.get(pk=document.pk)
        span_add(document=fresh, user=reviewer, start=second - 5, end=second + 7, label="TIME", all_occurrences=False)

    result, error = while_held(
        other_reviewer,
        lambda: span_add(document=document, user=reviewer, start=at, end=at + 7, label="TIME", spans=spans),
    )
    assert isinstance(error, StaleSpan), (result, error)
    assert not _overlapping_accepted(document)
    assert list(Span.objects.filter(document=document).values_list("text", flat=True)) == ["Good morning"]
    assert list(ReviewEvent.objects.values_list("action", flat=True)) == ["add"]


def test_two_reviewers_adding_the_same_text_at_once_get_one_span_and_a_refusal(corpus, reviewer):
    document = make_document(corpus)
    at = document.text.index("morning")

    def add(doc: Document, spans: list | None):
        return span_add(document=doc, user=reviewer, start=at, end=at + 7, label="TIME", spans=spans)

    result, error = while_held(lambda: add(Document.objects.get(pk=document.pk), None), lambda: add(document, []))
    assert isinstance(error, StaleSpan), (result, error)  # not an IntegrityError (HTTP 500)
    assert Span.objects.filter(document=document, label="TIME").count() == 2  # the other's, both occurrences
    assert ReviewEvent.objects.count() == 2


@pytest.mark.parametrize("operation", ["add", "relabel"])
def test_a_unique_key_taken_meanwhile_is_refused_as_stale(corpus, reviewer, operation):
    """A span inserted at the same offsets and label by a writer that does not
    go through the review services (a re-annotation): the unique key is the
    only thing that sees it, and its error is a refusal, not a 500."""
    document = make_document(corpus)
    john = add_machine(document, "John")[0]
    spans = list(Span.objects.filter(document=document))
    label = "TIME" if operation == "add" else "ORGANIZATION"

    def machine() -> None:
        Span.objects.create(document_id=document.pk, start=john.start, end=john.end, label=label, text="John")

    if operation == "add":
        act = lambda: span_add(  # noqa: E731
            document=document, user=reviewer, start=john.start, end=john.end, label=label, spans=spans
        )
    else:
        act = lambda: span_relabel(span=john, user=reviewer, label=label, version=john.version, spans=spans)  # noqa: E731
    result, error = while_held(machine, act)
    # PostgreSQL: the unique key, waited for, refuses the insert or the update.
    # SQLite: the writes serialize, so the span is there when this one plans.
    expected = CONFLICT if connection.vendor == "postgresql" else STALE
    assert isinstance(error, StaleSpan) and str(error) == expected, (result, error)
    assert Span.objects.get(pk=john.pk).label == "PERSON"
    assert not ReviewEvent.objects.exists()


def test_a_decision_on_another_span_is_not_refused_by_a_concurrent_add(corpus, reviewer):
    """Accepting, rejecting, linking change spans in place and depend on no span
    appearing: they wait for the other write's row lock, then land."""
    document = make_document(corpus)
    john = add_machine(document, "John")[0]
    spans = list(Span.objects.filter(document=document))
    at = document.text.index("morning")

    def other_reviewer() -> None:
        fresh = Document.objects.get(pk=document.pk)
        span_add(document=fresh, user=reviewer, start=at, end=at + 7, label="TIME")

    result, error = while_held(
        other_reviewer, lambda: span_accept(span=john, user=reviewer, version=john.version, spans=spans)
    )
    assert error is None, error
    assert Span.objects.get(pk=john.pk).status == "accepted"
    assert Document.objects.get(pk=document.pk).spans_revision == 1  # the add's bump only


def test_a_sibling_committed_while_the_write_waits_for_its_lock_is_not_overwritten(corpus, reviewer):
    """Another reviewer holds a sibling's row, changed but not committed, when
    this decision is written. The write waits for the document's row (seen
    waiting in pg_stat_activity), then sees the sibling's new version and writes
    nothing."""
    document = make_document(corpus)
    add_machine(document, "Delgado")
    spans = list(Span.objects.filter(document=document).order_by("start"))
    first, sibling = spans[0], spans[2]

    def other_reviewer() -> None:
        span_relabel(
            span=Span.objects.select_related("document").get(pk=sibling.pk),
            user=reviewer,
            label="NRP",
            all_occurrences=False,
        )

    result, error = while_held(
        other_reviewer, lambda: span_accept(span=first, user=reviewer, version=first.version, spans=spans)
    )
    assert isinstance(error, StaleSpan), (result, error)
    statuses = list(Span.objects.filter(document=document).order_by("start").values_list("status", "label"))
    assert statuses == [("pending", "PERSON"), ("pending", "PERSON"), ("accepted", "NRP")]
    assert list(ReviewEvent.objects.values_list("action", flat=True)) == ["relabel"]
