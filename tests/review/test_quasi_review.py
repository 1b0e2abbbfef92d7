"""Quasi-identifier flags in the review app (issue 18): storage on (re-)annotation,
reviewer decisions (audited, stale-safe, permission-checked), the review page's
layer, the export's placeholders and index, the residual-risk page and the
dashboard's count, with their query budgets on both databases."""

import io
import json
import zipfile

from django.contrib.auth import get_user_model
from django.test import Client, TestCase, override_settings
from django.urls import reverse

from ingestion.models import Corpus, Document, DocumentStatus
from pipelines.candidate import Candidate
from review.errors import ReviewError, StaleSpan
from review.models import CorpusMembership, QuasiDecision, QuasiEvent, QuasiIdentifier, Role, Span, SpanStatus
from review.selectors.quasi import corpus_risk, left_in_approved
from review.services.quasi import quasi_decide, store_quasi

TEXT = (
    "Q. What did you do before? A. I was a welder for 25 years in Folsom.\n"
    "My sister Elena Delgado visited me on March 3, 1985, with $40.\n"
)
NAME = "Elena Delgado"


def flag(text: str, sub: str, label: str, rule: str) -> Candidate:
    start = text.index(sub)
    return Candidate(start, start + len(sub), label, sub, ("quasi",), 0.5, rule)


FLAGS = [
    ("welder", "DEM", "occupation"),
    ("25 years", "DATETIME", "duration"),
    ("Folsom", "LOC", "place"),
    ("My sister", "RELATION", "kinship"),
    ("March 3, 1985", "DATETIME", "date"),
    ("$40", "QUANTITY", "money"),
]


def machine_flags(text: str = TEXT) -> list[Candidate]:
    return [flag(text, sub, label, rule) for sub, label, rule in FLAGS]


class Setup(TestCase):
    @classmethod
    def setUpTestData(cls) -> None:
        User = get_user_model()
        cls.corpus = Corpus.objects.create(name="Hearings")
        cls.other = Corpus.objects.create(name="Other")
        cls.kim = User.objects.create_user("kim", password="s3cret-pass-long")
        cls.aud = User.objects.create_user("aud", password="s3cret-pass-long")
        cls.out = User.objects.create_user("out", password="s3cret-pass-long")
        CorpusMembership.objects.create(corpus=cls.corpus, user=cls.kim, role=Role.REVIEWER)
        CorpusMembership.objects.create(corpus=cls.corpus, user=cls.aud, role=Role.AUDITOR)
        CorpusMembership.objects.create(corpus=cls.other, user=cls.out, role=Role.ADMIN)
        cls.document = Document.objects.create(
            corpus=cls.corpus, name="hearing.txt", sha256="a", text=TEXT, status=DocumentStatus.READY
        )
        start = TEXT.index(NAME)
        Span.objects.create(
            document=cls.document,
            start=start,
            end=start + len(NAME),
            label="PERSON",
            text=NAME,
            status=SpanStatus.ACCEPTED,
            sources=["spacy"],
            score=0.9,
        )
        store_quasi(cls.document.pk, machine_flags())

    def flag(self, text: str) -> QuasiIdentifier:
        return QuasiIdentifier.objects.select_related("document").get(document=self.document, text=text)

    def client_for(self, user) -> Client:
        client = Client()
        client.force_login(user)
        return client


class StoreTests(Setup):
    def test_flags_are_stored_pending_with_their_rule(self) -> None:
        rows = list(QuasiIdentifier.objects.filter(document=self.document))
        self.assertEqual([(r.text, r.category, r.rule) for r in rows], [(s, lab, rule) for s, lab, rule in FLAGS])
        self.assertTrue(all(r.decision == QuasiDecision.PENDING for r in rows))

    def test_reannotation_replaces_undecided_flags_and_keeps_decided_ones(self) -> None:
        kept = self.flag("welder")
        quasi_decide(flag=kept, user=self.kim, decision=QuasiDecision.KEEP, version=kept.version)
        # The new pass finds the occupation again (overlapping the decided flag), a
        # new relation, and no longer the amount.
        again = [flag(TEXT, "a welder", "DEM", "occupation"), flag(TEXT, "Folsom", "LOC", "place")]
        added = store_quasi(self.document.pk, again)
        self.assertEqual(added, 1)  # Folsom; "a welder" overlaps the decided "welder"
        rows = {(r.text, r.decision) for r in QuasiIdentifier.objects.filter(document=self.document)}
        self.assertEqual(rows, {("welder", "keep"), ("Folsom", "pending")})

    def test_unknown_categories_are_not_stored(self) -> None:
        other = Document.objects.create(corpus=self.corpus, name="b.txt", sha256="b", text=TEXT)
        self.assertEqual(store_quasi(other.pk, [flag(TEXT, "welder", "PERSON", "x")]), 0)


class DecideTests(Setup):
    def test_generalise_defaults_to_the_engine_and_is_audited(self) -> None:
        f = self.flag("Folsom")
        outcome = quasi_decide(flag=f, user=self.kim, decision=QuasiDecision.GENERALISE, version=f.version)
        f.refresh_from_db()
        self.assertEqual((f.decision, f.generalised, f.version), ("generalise", "a city in California", 2))
        self.assertEqual(f.decided_by, self.kim)
        self.assertIn("a city in California", outcome.message)
        event = QuasiEvent.objects.get(quasi=f)
        self.assertEqual(event.before["decision"], "pending")
        self.assertEqual(event.after["decision"], "generalise")
        self.assertNotIn("Folsom", json.dumps([event.before, event.after]))  # the audit keeps no text

    def test_a_generalisation_that_repeats_the_original_or_is_too_long_is_refused(self) -> None:
        f = self.flag("Folsom")
        with self.assertRaisesMessage(ReviewError, "repeats the original"):
            quasi_decide(flag=f, user=self.kim, decision="generalise", version=1, generalised="near Folsom")
        with self.assertRaisesMessage(ReviewError, "at most"):
            quasi_decide(flag=f, user=self.kim, decision="generalise", version=1, generalised="x" * 500)
        self.assertFalse(QuasiEvent.objects.exists())

    def test_a_stale_decision_is_refused(self) -> None:
        f = self.flag("welder")
        quasi_decide(flag=f, user=self.kim, decision=QuasiDecision.MASK, version=1)
        with self.assertRaises(StaleSpan):
            quasi_decide(flag=self.flag("welder"), user=self.kim, decision=QuasiDecision.KEEP, version=1)
        self.assertEqual(self.flag("welder").decision, "mask")

    def test_an_approved_document_is_closed(self) -> None:
        Document.objects.filter(pk=self.document.pk).update(status=DocumentStatus.APPROVED)
        with self.assertRaises(ReviewError):
            quasi_decide(flag=self.flag("welder"), user=self.kim, decision=QuasiDecision.KEEP, version=1)

    def test_a_decision_loaded_before_an_approval_is_refused(self) -> None:
        # The race: the flag and its document were read while open, the document was
        # approved before the decision ran. The service locks the row and re-reads.
        f = self.flag("welder")
        self.assertEqual(f.document.status, DocumentStatus.READY)
        Document.objects.filter(pk=self.document.pk).update(status=DocumentStatus.APPROVED)
        with self.assertRaisesMessage(ReviewError, "approved"):
            quasi_decide(flag=f, user=self.kim, decision=QuasiDecision.MASK, version=f.version)
        self.assertEqual(self.flag("welder").decision, "pending")
        self.assertFalse(QuasiEvent.objects.exists())

    def test_deleting_the_document_deletes_its_flags_and_their_audit(self) -> None:
        from review.services.deletion import document_delete

        f = self.flag("welder")
        quasi_decide(flag=f, user=self.kim, decision=QuasiDecision.KEEP, version=f.version)
        document_delete(document=self.document)
        self.assertFalse(QuasiIdentifier.objects.exists())
        self.assertFalse(QuasiEvent.objects.exists())


class ViewTests(Setup):
    def test_the_review_page_includes_the_layer_and_its_script(self) -> None:
        page = self.client_for(self.kim).get(reverse("document_review", args=[self.document.pk])).content.decode()
        self.assertIn('id="quasi-toggle"', page)
        self.assertIn(f'hx-get="{reverse("document_quasi", args=[self.document.pk])}"', page)
        self.assertIn("review/quasi.js", page)
        self.assertIn(f"{reverse('corpus_risk', args=[self.corpus.pk])}#risk-doc-{self.document.pk}", page)

    def test_the_layer_lists_flags_with_suggestions_in_three_queries_after_login(self) -> None:
        client = self.client_for(self.kim)
        # session, user, document with the role, the flags
        with self.assertNumQueries(4):
            page = client.get(reverse("document_quasi", args=[self.document.pk])).content.decode()
        self.assertIn("6 flagged: 6 undecided", page)
        self.assertIn('value="a city in California"', page)
        self.assertIn('value="1985"', page)
        self.assertIn(reverse("quasi_decision", args=[self.flag("welder").pk, "mask"]), page)

    def test_decide_through_the_view(self) -> None:
        client = self.client_for(self.kim)
        f = self.flag("March 3, 1985")
        page = client.post(
            reverse("quasi_decision", args=[f.pk, "generalise"]), {"version": f.version, "generalised": "the 1980s"}
        ).content.decode()
        self.assertIn("generalise as “the 1980s”", page)
        self.assertEqual(self.flag("March 3, 1985").generalised, "the 1980s")
        page = client.post(reverse("quasi_decision", args=[f.pk, "keep"]), {"version": 1}).content.decode()
        self.assertIn('id="quasi-error"', page)  # stale: it is at version 2 now
        self.assertEqual(self.flag("March 3, 1985").decision, "generalise")
        page = client.post(reverse("quasi_decision", args=[f.pk, "reset"]), {"version": 2}).content.decode()
        self.assertEqual(self.flag("March 3, 1985").decision, "pending")

    def test_auditors_read_but_cannot_decide_and_other_corpora_see_nothing(self) -> None:
        f = self.flag("welder")
        auditor = self.client_for(self.aud)
        page = auditor.get(reverse("document_quasi", args=[self.document.pk])).content.decode()
        self.assertIn("welder", page)
        self.assertNotIn("quasi-actions", page)
        self.assertEqual(auditor.post(reverse("quasi_decision", args=[f.pk, "keep"]), {"version": 1}).status_code, 403)
        outsider = self.client_for(self.out)
        self.assertEqual(outsider.get(reverse("document_quasi", args=[self.document.pk])).status_code, 404)
        self.assertEqual(outsider.post(reverse("quasi_decision", args=[f.pk, "keep"]), {"version": 1}).status_code, 404)
        self.assertEqual(outsider.get(reverse("corpus_risk", args=[self.corpus.pk])).status_code, 404)
        self.assertEqual(self.flag("welder").decision, "pending")

    def test_an_approved_document_shows_no_decision_buttons(self) -> None:
        client = self.client_for(self.kim)
        url = reverse("document_quasi", args=[self.document.pk])
        self.assertIn("quasi-actions", client.get(url).content.decode())
        Document.objects.filter(pk=self.document.pk).update(status=DocumentStatus.APPROVED)
        page = client.get(url).content.decode()
        self.assertIn("welder", page)
        self.assertNotIn("quasi-actions", page)
        # a decision posted from a page loaded before the approval: refused, no buttons back
        f = self.flag("welder")
        page = client.post(reverse("quasi_decision", args=[f.pk, "keep"]), {"version": 1}).content.decode()
        self.assertIn('id="quasi-error"', page)
        self.assertNotIn("quasi-actions", page)
        self.assertEqual(self.flag("welder").decision, "pending")

    def test_unknown_action_is_a_message(self) -> None:
        f = self.flag("welder")
        page = self.client_for(self.kim).post(reverse("quasi_decision", args=[f.pk, "burn"]), {"version": 1})
        self.assertIn("Unknown action", page.content.decode())


class RiskTests(Setup):
    @classmethod
    def setUpTestData(cls) -> None:
        super().setUpTestData()
        cls.second = Document.objects.create(
            corpus=cls.corpus, name="second.txt", sha256="s", text=TEXT, status=DocumentStatus.READY
        )
        store_quasi(cls.second.pk, machine_flags()[:2])
        Span.objects.create(document=cls.second, start=0, end=2, label="PERSON", text=TEXT[:2], sources=["x"])
        for text, decision in (("welder", "keep"), ("Folsom", "keep"), ("$40", "mask"), ("25 years", "generalise")):
            f = QuasiIdentifier.objects.select_related("document").get(document=cls.document, text=text)
            quasi_decide(flag=f, user=cls.kim, decision=decision, version=f.version, generalised="many years")
        f = QuasiIdentifier.objects.select_related("document").get(document=cls.second, text="welder")
        quasi_decide(flag=f, user=cls.kim, decision="keep", version=1)
        Document.objects.filter(pk=cls.second.pk).update(status=DocumentStatus.APPROVED)
        # another corpus's flags never count here
        elsewhere = Document.objects.create(corpus=cls.other, name="x.txt", sha256="x", text=TEXT, status="approved")
        store_quasi(elsewhere.pk, machine_flags())

    def test_corpus_risk_counts_match_the_database(self) -> None:
        risk = corpus_risk(self.corpus)
        self.assertEqual([d.name for d in risk.documents], ["hearing.txt", "second.txt"])  # most left first
        first, second = risk.documents
        self.assertEqual((first.kept, first.undecided, first.replaced, first.pending_direct), (2, 2, 2, 0))
        self.assertEqual((second.kept, second.undecided, second.replaced, second.pending_direct), (1, 1, 0, 1))
        kept = {key: n for key, _, n in risk.kept_by_category}
        self.assertEqual(kept, {"DEM": 2, "DATETIME": 0, "LOC": 1, "QUANTITY": 0, "MISC": 0, "RELATION": 0})
        self.assertEqual(risk.pending_direct, 1)
        for category in ("DEM", "DATETIME", "LOC", "QUANTITY", "MISC", "RELATION"):
            truth = QuasiIdentifier.objects.filter(
                document__corpus=self.corpus, category=category, decision__in=("keep", "pending")
            ).count()
            self.assertEqual(sum(d.count(("keep", "pending"), category) for d in risk.documents), truth)

    def test_a_flag_under_an_accepted_span_counts_as_replaced(self) -> None:
        at = TEXT.index("25 years")  # undecided in the approved second.txt
        Span.objects.create(
            document=self.second, start=at, end=at + 8, label="DATE", text="25 years", status=SpanStatus.ACCEPTED
        )
        second = next(d for d in corpus_risk(self.corpus).documents if d.name == "second.txt")
        self.assertEqual((second.kept, second.undecided, second.replaced), (1, 0, 1))
        self.assertEqual(dict(left_in_approved(self.corpus)), {"DEM": 1})
        page = self.client_for(self.kim).get(reverse("document_quasi", args=[self.second.pk])).content.decode()
        self.assertEqual(page.count("quasi-covered"), 1)

    def test_a_span_only_overlapping_a_flag_does_not_count_it_replaced(self) -> None:
        # The export applies the flag's own decision there (pipelines/export/quasi.py):
        # "25 years" undecided stays as written whether a span sits inside it or
        # reaches past it.
        at = TEXT.index("25 years")
        for start, end in ((at, at + 2), (at + 3, at + 11)):
            Span.objects.create(
                document=self.second, start=start, end=end, label="DATE", text=TEXT[start:end], status="accepted"
            )
        second = next(d for d in corpus_risk(self.corpus).documents if d.name == "second.txt")
        self.assertEqual((second.kept, second.undecided, second.replaced), (1, 1, 0))
        self.assertEqual(dict(left_in_approved(self.corpus)), {"DEM": 1, "DATETIME": 1})
        page = self.client_for(self.kim).get(reverse("document_quasi", args=[self.second.pk])).content.decode()
        self.assertNotIn("quasi-covered", page)

    def test_the_dashboard_counts_flags_left_in_approved_documents(self) -> None:
        # second.txt is the approved one: "welder" kept, "25 years" undecided.
        self.assertEqual(dict(left_in_approved(self.corpus)), {"DEM": 1, "DATETIME": 1})

    def test_the_risk_page_in_six_queries_with_the_statement(self) -> None:
        client = self.client_for(self.aud)
        url = reverse("corpus_risk", args=[self.corpus.pk])
        # session, user, corpus with the role, documents, pending direct spans, flags
        with self.assertNumQueries(6):
            page = client.get(url).content.decode()
        self.assertIn("What an export protects, and what it does not", page)
        self.assertLess(page.index("hearing.txt"), page.index("second.txt"))
        self.assertIn('id="risk-direct" class="risk-bad"', page)
        self.assertIn(
            "Quasi-identifiers left as written, by category: DEM 2 kept, 0 undecided, DATETIME 0 kept, 2 undecided",
            page,
        )
        self.assertIn("<td>DEM 1 · DATETIME 1</td>", page)
        self.assertNotIn("x.txt", page)

    def test_the_risk_page_shows_each_status_as_the_other_pages_say_it(self) -> None:
        Document.objects.filter(pk=self.document.pk).update(status=DocumentStatus.IN_REVIEW)
        client = self.client_for(self.kim)
        with self.assertNumQueries(6):
            page = client.get(reverse("corpus_risk", args=[self.corpus.pk])).content.decode()
        self.assertIn("<td>In review</td>", page)
        self.assertIn("<td>Approved</td>", page)
        self.assertNotIn("in_review", page)

    def test_the_risk_page_costs_the_same_with_more_documents(self) -> None:
        for n in range(5):
            extra = Document.objects.create(corpus=self.corpus, name=f"more{n}.txt", sha256=f"m{n}", text=TEXT)
            store_quasi(extra.pk, machine_flags())
        client = self.client_for(self.kim)
        with self.assertNumQueries(6):
            client.get(reverse("corpus_risk", args=[self.corpus.pk]))

    def test_the_risk_page_lists_at_most_its_setting_of_documents(self) -> None:
        client = self.client_for(self.kim)
        url = reverse("corpus_risk", args=[self.corpus.pk])
        with override_settings(RESIDUAL_RISK_PAGE_ROWS=1), self.assertNumQueries(6):
            page = client.get(url).content.decode()
        self.assertIn("hearing.txt", page)  # the most left first
        self.assertNotIn("second.txt", page)
        self.assertIn("and 1 more document with fewer", page)
        self.assertIn("Quasi-identifiers left as written: <strong>3</strong> kept", page)  # totals count both
        self.assertNotIn('id="risk-more"', client.get(url).content.decode())  # default 500

    def test_the_dashboard_links_the_risk_page(self) -> None:
        page = self.client_for(self.kim).get(reverse("corpus_dashboard", args=[self.corpus.pk])).content.decode()
        self.assertIn(reverse("corpus_risk", args=[self.corpus.pk]), page)
        self.assertIn('id="chart-quasi"', page)


def zip_members(data: bytes) -> dict[str, str]:
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        return {name: archive.read(name).decode("utf-8", "replace") for name in archive.namelist()}


class ExportTests(Setup):
    def decide(self, text: str, decision: str, generalised: str | None = None) -> None:
        f = self.flag(text)
        quasi_decide(flag=f, user=self.kim, decision=decision, version=f.version, generalised=generalised)

    def export(self) -> dict[str, str]:
        from review.models import ExportBatch
        from review.services.export import ExportOptions, export_create, export_run

        Document.objects.filter(pk=self.document.pk).update(status=DocumentStatus.APPROVED)
        batch = export_create(corpus=self.corpus, user=self.kim, options=ExportOptions(), queue=False)
        # the export loads each document's flags in one query, whatever their number
        self.assertTrue(export_run(batch_id=batch.pk))
        batch = ExportBatch.objects.get(pk=batch.pk)
        with batch.file.open("rb") as handle:
            return zip_members(handle.read())

    def test_masked_generalised_and_kept_flags_in_the_text_and_the_index(self) -> None:
        self.decide("March 3, 1985", "mask")
        self.decide("Folsom", "generalise")
        self.decide("welder", "keep")
        self.decide("$40", "generalise", "some money")
        members = self.export()
        redacted = next(v for k, v in members.items() if k.startswith("redacted/"))
        self.assertIn("I was a welder for 25 years in a city in California.", redacted)
        self.assertIn("visited me on [DATETIME], with some money.", redacted)
        self.assertIn("My sister [PERSON_1] [PERSON_2]", redacted)  # the accepted name, replaced as before
        self.assertNotIn("Folsom", redacted)
        self.assertNotIn("1985", redacted)
        index = next(v for k, v in members.items() if k.endswith("_PSEUDONYMIZATION_INDEX.txt"))
        quasi_lines = [line for line in index.splitlines() if line.startswith("QI ")]
        self.assertEqual(len(quasi_lines), len(FLAGS))  # every decision, undecided ones too
        folsom = TEXT.index("Folsom")
        self.assertIn(f"QI LOC | generalise | a city in California | @{folsom}-{folsom + 6}", quasi_lines)
        self.assertIn("QI DEM | keep | (left as written)", index)
        self.assertIn("QI RELATION | pending | (left as written)", index)
        self.assertIn("QI DATETIME | mask | [DATETIME]", index)
        for line in quasi_lines:  # the flags' records never carry their text
            for text, _, _ in FLAGS:
                self.assertNotIn(text, line)
        annotations = json.loads(next(v for k, v in members.items() if k.endswith(".annotations.json")))
        decisions = {(r["category"], r["decision"], r["replacement"]) for r in annotations["quasi_identifiers"]}
        self.assertIn(("DATETIME", "mask", "[DATETIME]"), decisions)
        self.assertIn(("DEM", "keep", None), decisions)
        self.assertNotIn("Folsom", json.dumps(annotations["quasi_identifiers"]))

    def test_kept_flags_are_no_leak_and_a_span_over_a_flag_wins(self) -> None:
        from pipelines.export.quasi import COVERED, QuasiFlag
        from pipelines.export.writer import ExportDocument, render_document

        text = "Elena Delgado is a welder from Folsom; Elena Delgado again."
        name = Candidate(0, 13, "PERSON", "Elena Delgado", ("x",), 1.0)
        at = text.index("Folsom")
        flags = [
            QuasiFlag(text.index("welder"), text.index("welder") + 6, "DEM", "keep"),
            QuasiFlag(at, at + 6, "LOC", "keep"),
            # a flag over the second occurrence of the name: the export completes the
            # name there (a direct identifier), the flag is left to it
            QuasiFlag(text.rindex("Elena"), text.rindex("Elena") + 5, "DEM", "generalise", "someone"),
        ]
        output = render_document(ExportDocument(1, "t.txt", text, [name], quasi=flags))
        self.assertEqual(output.leaks, [])
        self.assertEqual(
            output.redacted_text, "[PERSON_1] [PERSON_2] is a welder from Folsom; [PERSON_1] [PERSON_2] again."
        )
        self.assertIn(f"QI DEM | generalise | (left as written) | @{text.rindex('Elena')}-", output.index_text)
        self.assertIn(COVERED, output.index_text)

    def test_a_generalisation_holding_an_accepted_name_is_a_leak(self) -> None:
        from pipelines.export.quasi import QuasiFlag
        from pipelines.export.writer import ExportDocument, render_document

        text = "Elena Delgado worked in Folsom."
        name = Candidate(0, 13, "PERSON", "Elena Delgado", ("x",), 1.0)
        at = text.index("Folsom")
        flags = [QuasiFlag(at, at + 6, "LOC", "generalise", "Delgado's town")]
        output = render_document(ExportDocument(1, "t.txt", text, [name], quasi=flags))
        self.assertEqual(len(output.leaks), 1)
        self.assertEqual(output.leaks[0].label, "PERSON")

    def test_without_flags_the_export_is_unchanged(self) -> None:
        from pipelines.export.writer import ExportDocument, render_document

        text = "Elena Delgado worked in Folsom."
        name = Candidate(0, 13, "PERSON", "Elena Delgado", ("x",), 1.0)
        output = render_document(ExportDocument(1, "t.txt", text, [name]))
        self.assertNotIn("QI ", output.index_text)
        self.assertNotIn("quasi_identifiers", output.annotations_json)


ANNOTATED = (
    "COMMISSIONER HARTWELL: Tell us about your work.\n"
    "INMATE DELGADO: I was a welder for 25 years. My sister visited me every month.\n"
    "There was a shooting, and he had a tattoo on his arm.\n"
)


def test_pre_annotation_stores_the_flags_and_re_annotation_keeps_decided_ones(
    corpus, admin_user, django_capture_on_commit_callbacks
) -> None:
    from review.services.annotation import document_reannotate, document_reannotate_request
    from review.services.uploads import ingest_document

    with django_capture_on_commit_callbacks(execute=True):
        document, _ = ingest_document(corpus=corpus, name="hearing.txt", data=ANNOTATED.encode(), user=admin_user)
    document.refresh_from_db()
    assert document.status == "ready", document.error_message
    flags = {(q.category, q.text): q for q in QuasiIdentifier.objects.filter(document=document)}
    assert ("DEM", "welder") in flags
    assert ("DATETIME", "25 years") in flags
    assert ("RELATION", "My sister") in flags
    assert ("MISC", "shooting") in flags
    assert ("MISC", "tattoo on his arm") in flags
    assert {q.decision for q in flags.values()} == {"pending"}  # never auto-accepted
    spans = list(document.spans.all())
    for q in flags.values():  # never a direct span again
        assert not any(s.start < q.end and q.start < s.end for s in spans)
    welder = QuasiIdentifier.objects.select_related("document").get(document=document, text="welder")
    quasi_decide(flag=welder, user=admin_user, decision="keep", version=welder.version)
    run = document_reannotate_request(document=document, user=admin_user)
    assert document_reannotate(run_id=run.pk)
    after = {(q.text, q.decision) for q in QuasiIdentifier.objects.filter(document=document)}
    assert ("welder", "keep") in after
    assert ("My sister", "pending") in after
    assert len(after) == len(flags)
