"""Reviewer throughput (issue 16): the actions an ideal reviewer needs to bring a
machine pre-annotation to the hand-checked gold, counted through the services the
review page calls.

Each gold document (evaluation/gold/*.jsonl) is stored and pre-annotated by the
real pipeline (review.services.annotation.document_annotate) in a scratch database
(a temporary SQLite file by default, or BENCH_DATABASE_URL). Then a reviewer who
knows the gold replays the cheapest move, greedily, until every span is decided and
the gold is reached exactly. Every move is one action and goes through the same
service as the page's control:

- bulk accept by calibrated score (decisions.bulk_decide, score_min, optionally
  one label): the bulk bar;
- entity-level accept or reject (span_accept / span_reject, all_occurrences=True):
  a decision with apply-to-all, or the side panel's entity group;
- single-span accept or reject (all_occurrences=False);
- a resize of an overlapping span to the gold boundaries (span_resize), or an
  addition of a miss (span_add, with or without apply-to-all).

"The gold exactly" is the scorer's untyped exact view (the privacy view of the
guideline, ../shared/annotation-guideline.md: any label covers a name): every
counted gold span is covered by an accepted span with its exact boundaries, every
other span is rejected, and a span touching a neutral gold span (generic or
optional) may end either way but decided. `--typed` also requires the gold label
(a relabel, span_relabel with apply-to-all, is then an entity-level move).

Greedy: the move that removes the most errors wins, where a pending span is one
error, a span decided wrong two (it must be found again) and an uncovered gold
span one (a move's gain is the errors it removes; a move that only creates spans
gains nothing); ties go to the earlier move type in the order above. The reviewer is ideal (knows the gold, never
navigates): the figure is a lower bound on decisions, navigation excluded.

    .venv/bin/python bench/bench_reviewer.py [--typed] [gold.jsonl ...]
"""

import argparse
import json
import os
import sys
import tempfile
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

GOLD = [ROOT / "evaluation/gold/ferguson_vol1.jsonl", ROOT / "evaluation/gold/demo_hearing.jsonl"]
MOVES = ("bulk", "entity", "single", "resize", "add")


def _setup_django() -> None:
    scratch = tempfile.mkdtemp(prefix="bench-reviewer-")
    os.environ["DATABASE_URL"] = os.environ.get("BENCH_DATABASE_URL", f"sqlite:///{scratch}/bench.sqlite3")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "anonymizer_site.settings")
    os.environ.setdefault("ANONYMIZER_VAR_DIR", scratch)
    import django

    django.setup()


@dataclass
class Gold:
    """The gold of one document: counted spans and neutral (generic/optional) ones."""

    counted: list[tuple[int, int, str]]
    neutral: list[tuple[int, int]]

    @classmethod
    def from_record(cls, record: dict) -> "Gold":
        counted, neutral = [], []
        for s in record["spans"]:
            if s.get("generic") or s.get("optional"):
                neutral.append((s["start"], s["end"]))
            else:
                counted.append((s["start"], s["end"], s["label"]))
        return cls(counted, neutral)


@dataclass
class Replay:
    machine_spans: int = 0
    final_spans: int = 0
    gold_counted: int = 0
    moves: Counter = field(default_factory=Counter)
    log: list[str] = field(default_factory=list)

    @property
    def actions(self) -> int:
        return sum(self.moves.values())

    @property
    def per_span(self) -> float:
        """Actions per decided span: every span of the final document is decided
        (machine suggestions and the spans additions created)."""
        return self.actions / self.final_spans if self.final_spans else 0.0


class Judge:
    """What the gold says of a span and of a document state."""

    def __init__(self, gold: Gold, typed: bool) -> None:
        self.typed = typed
        self.counted = gold.counted
        self.exact = {(s, e, label) if typed else (s, e) for s, e, label in gold.counted}
        self.neutral = gold.neutral
        self._values: dict[tuple, int] = {}

    def key(self, start: int, end: int, label: str) -> tuple:
        return (start, end, label) if self.typed else (start, end)

    def _touches_counted(self, start: int, end: int) -> bool:
        return any(s < end and start < e for s, e, _ in self.counted)

    def value(self, start: int, end: int, label: str, status: str) -> int:
        """0 right, -1 pending, -2 decided wrong (it must be found again)."""
        key = (start, end, label, status)
        if key not in self._values:
            self._values[key] = self._value(start, end, label, status)
        return self._values[key]

    def _value(self, start: int, end: int, label: str, status: str) -> int:
        if status == "pending":
            return -1
        if self.key(start, end, label) in self.exact:
            return 0  # accepted covers the gold (counted below); a rejected duplicate is harmless
        neutral = any(s < end and start < e for s, e in self.neutral) and not self._touches_counted(start, end)
        if neutral:
            return 0
        return 0 if status == "rejected" else -2

    def covered(self, states: list[tuple[int, int, str, str]]) -> int:
        accepted = {self.key(s, e, label) for s, e, label, status in states if status == "accepted"}
        return len(self.exact & accepted)

    def potential(self, states: list[tuple[int, int, str, str]]) -> int:
        return sum(self.value(*st) for st in states) + self.covered(states) - len(self.exact)

    def done(self, states: list[tuple[int, int, str, str]]) -> bool:
        return self.potential(states) == 0

    def misses(self, states: list[tuple[int, int, str, str]]) -> list[tuple[int, int, str]]:
        accepted = {self.key(s, e, label) for s, e, label, status in states if status == "accepted"}
        return [g for g in self.counted if self.key(*g) not in accepted]


def _states(spans) -> list[tuple[int, int, str, str]]:
    return [(s.start, s.end, s.label, s.status) for s in spans]


class _Rollback(Exception):
    pass


class _Moves:
    """Every move that improves one document state, with its gain: the ideal
    reviewer then takes the best one (`replay`)."""

    def __init__(self, replayer: "_Replayer", spans: list, now: int) -> None:
        self.r, self.spans, self.now = replayer, spans, now
        self.pending = [s for s in spans if s.status == "pending"]
        self.candidates: list[tuple[int, int, str, object, str]] = []  # (gain, order, kind, apply, what)

    def offer(self, kind: str, after: int | None, apply, what: str) -> None:
        if after is not None and after > self.now:
            self.candidates.append((after - self.now, -MOVES.index(kind), kind, apply, what))

    def bulk(self) -> None:
        """1. Bulk accept by calibrated score (all labels, or one label)."""
        from review.services import decisions

        r = self.r
        for label in ["", *sorted({s.label for s in self.pending})]:
            pool = [s for s in self.pending if not label or s.label == label]
            for threshold in sorted({s.score for s in pool if s.score >= r.min_bulk_score}):
                chosen = {s.pk: {"status": "accepted"} for s in pool if s.score >= threshold}
                self.offer(
                    "bulk",
                    r.gain_of(self.spans, chosen),
                    lambda t=threshold, lb=label: decisions.bulk_decide(
                        document=r.document, user=r.user, action="accept", label=lb, score_min=t
                    ),
                    f"bulk accept {label or 'all'} score >= {threshold:.3f} ({len(chosen)})",
                )

    def decisions(self) -> None:
        """2. Entity-level and 3. single-span decisions. The group is the service's
        own apply-to-all (decisions.siblings: the pending occurrences under the
        same name key), computed once per key here rather than per span."""
        from review.services import decisions
        from review.text import same_name_key

        r = self.r
        keys = {s.pk: same_name_key(s, r.document.text) for s in self.spans}
        by_key: dict[str, list] = {}
        for s in self.pending:
            by_key.setdefault(keys[s.pk], []).append(s)
        for span in self.spans:
            group = [span, *(s for s in by_key.get(keys[span.pk], []) if s.pk != span.pk)]
            for status, service in (("accepted", decisions.span_accept), ("rejected", decisions.span_reject)):
                if span.status == status:
                    continue
                for kind, members in (("entity", group), ("single", [span])):
                    if kind == "entity" and len(group) == 1:
                        continue
                    self.offer(
                        kind,
                        r.gain_of(self.spans, {s.pk: {"status": status} for s in members}),
                        lambda sp=span, fn=service, every=kind == "entity": fn(
                            span=sp, user=r.user, all_occurrences=every
                        ),
                        f"{kind} {status[:-2]} “{span.text}” ({len(members)})",
                    )
            if r.judge.typed:
                self.relabels(span)

    def relabels(self, span) -> None:
        from review.models import Span
        from review.services import decisions

        r = self.r
        wanted = {label for s, e, label in r.gold.counted if (s, e) == (span.start, span.end)}
        for label in wanted - {span.label}:

            def relabel(pk=span.pk, lb=label):
                # A fresh row: a rolled-back simulation must not leave this
                # loop's copies with a version the database never kept.
                fresh = Span.objects.select_related("document").get(pk=pk)
                decisions.span_relabel(span=fresh, user=r.user, label=lb)

            self.offer("entity", r.simulated(relabel), relabel, f"entity relabel “{span.text}” → {label}")

    def misses(self, states: list[tuple[int, int, str, str]]) -> None:
        """4. Misses: resize an overlapping span, or add (with or without
        apply-to-all). A resize or an addition is simulated in the database
        (rolled back)."""
        from review.models import Span
        from review.services import decisions

        r, text = self.r, self.r.document.text
        for start, end, label in r.judge.misses(states):
            for span in self.spans:
                if span.start < end and start < span.end and (span.start, span.end) != (start, end):
                    if r.judge.typed and span.label != label:
                        continue

                    def resize(sp=span, s=start, e=end):
                        decisions.span_resize(
                            span=Span.objects.select_related("document").get(pk=sp.pk), user=r.user, start=s, end=e
                        )

                    self.offer("resize", r.simulated(resize), resize, f"resize “{span.text}” → “{text[start:end]}”")
            for every in (True, False):

                def add(s=start, e=end, lb=label, every=every):
                    decisions.span_add(
                        document=r.document, user=r.user, start=s, end=e, label=lb, all_occurrences=every
                    )

                self.offer("add", r.simulated(add), add, f"add “{text[start:end]}”{' to all' if every else ''}")


class _Replayer:
    def __init__(self, document, user, gold: Gold, typed: bool, min_bulk_score: float) -> None:
        self.document, self.user, self.gold = document, user, gold
        self.judge = Judge(gold, typed)
        self.min_bulk_score = min_bulk_score

    def read(self) -> list:
        from review.models import Span

        return list(Span.objects.filter(document=self.document).select_related("document").order_by("start", "end"))

    def gain_of(self, spans: list, changes: dict[int, dict]) -> int:
        """The potential after changing some spans in memory (pk -> new values)."""
        states = [
            (
                changes.get(s.pk, {}).get("start", s.start),
                changes.get(s.pk, {}).get("end", s.end),
                changes.get(s.pk, {}).get("label", s.label),
                changes.get(s.pk, {}).get("status", s.status),
            )
            for s in spans
        ]
        return self.judge.potential(states)

    def simulated(self, apply) -> int | None:
        """The potential after a move the memory model cannot predict (a resize or
        an addition), by running the service in a transaction rolled back."""
        from django.db import transaction

        from review.errors import ReviewError
        from review.models import Span

        try:
            with transaction.atomic():
                try:
                    apply()
                except ReviewError:
                    return None
                after = self.judge.potential(_states(Span.objects.filter(document=self.document)))
                raise _Rollback
        except _Rollback:
            return after


def replay(
    document, user, gold: Gold, *, typed: bool = False, min_bulk_score: float = 0.0, max_actions: int = 5000
) -> Replay:
    """Replay the ideal reviewer on `document` (pre-annotated, READY) to `gold`.
    `min_bulk_score`: the lowest calibrated score a bulk accept may start at (a
    house rule such as "bulk-accept only above 0.8"; 0: any, the oracle's choice)."""
    from review.models import Span

    r = _Replayer(document, user, gold, typed, min_bulk_score)
    result = Replay(gold_counted=len(gold.counted))
    result.machine_spans = Span.objects.filter(document=document).count()
    while True:
        spans = r.read()
        states = _states(spans)
        if r.judge.done(states):
            break
        if result.actions >= max_actions:
            raise RuntimeError(f"no convergence after {max_actions} actions")
        moves = _Moves(r, spans, r.judge.potential(states))
        moves.bulk()
        moves.decisions()
        moves.misses(states)
        if not moves.candidates:
            raise RuntimeError(f"stuck: no move improves the state; misses {r.judge.misses(states)[:5]}")
        gain, _, kind, apply, what = max(moves.candidates, key=lambda c: (c[0], c[1]))
        apply()
        result.moves[kind] += 1
        result.log.append(f"{kind}: {what} (+{gain})")
    result.final_spans = len(spans)
    return result


def pre_annotate(corpus, user, record: dict):
    """Store the gold text as a document and run the real pre-annotation on it."""
    from ingestion.models import DocumentStatus
    from ingestion.services import EXTRACTION, document_step_run
    from review.services.annotation import document_annotate
    from review.services.uploads import ingest_document

    document, _ = ingest_document(
        corpus=corpus, name=f"{record['id']}.txt", data=record["text"].encode(), user=user, queue=False
    )
    document_step_run(EXTRACTION, document.pk)
    document.refresh_from_db()
    if document.text != record["text"]:
        raise SystemExit(f"{record['id']}: the extracted text differs from the gold's; offsets would not match")
    document_annotate(document_id=document.pk)
    document.refresh_from_db()
    if document.status != DocumentStatus.READY:
        raise SystemExit(f"{record['id']}: pre-annotation ended {document.status}: {document.error_message}")
    return document


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("gold", nargs="*", type=Path, default=GOLD)
    parser.add_argument("--typed", action="store_true", help="the gold label is required too")
    parser.add_argument("--log", action="store_true", help="print every move")
    parser.add_argument(
        "--min-bulk-score", type=float, default=0.0, help="bulk accept only from this calibrated score up"
    )
    args = parser.parse_args()
    _setup_django()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    from ingestion.models import Corpus
    from review.models import CorpusMembership, Role

    call_command("migrate", verbosity=0)
    corpus = Corpus.objects.create(name=f"bench-reviewer-{os.getpid()}")
    user = get_user_model().objects.create_user(f"bench-reviewer-{os.getpid()}", password="x")
    CorpusMembership.objects.create(corpus=corpus, user=user, role=Role.REVIEWER)
    print(f"view: {'typed' if args.typed else 'untyped'} exact; bulk accept from score {args.min_bulk_score}")
    print(
        "| document | machine spans | final spans | gold (counted) | actions | per decided span | "
        + " | ".join(MOVES)
        + " |"
    )
    print("|---|---:|---:|---:|---:|---:|" + "---:|" * len(MOVES))
    try:
        for path in args.gold:
            for line in path.read_text(encoding="utf-8").splitlines():
                if not line.strip():
                    continue
                record = json.loads(line)
                document = pre_annotate(corpus, user, record)
                result = replay(
                    document, user, Gold.from_record(record), typed=args.typed, min_bulk_score=args.min_bulk_score
                )
                print(
                    f"| {record['id']} | {result.machine_spans} | {result.final_spans} | {result.gold_counted} | "
                    f"{result.actions} | {result.per_span:.3f} | "
                    + " | ".join(str(result.moves[m]) for m in MOVES)
                    + " |"
                )
                if args.log:
                    print("\n".join(f"    {entry}" for entry in result.log))
    finally:
        corpus.delete()
        user.delete()


if __name__ == "__main__":
    main()
