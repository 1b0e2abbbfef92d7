"""The leak gate decides in one place (pipelines/export/gate.py) whether an export
may be written and says why not; the writer asks it, the service only reports
its decision (issue 25 item 3)."""

import ast
import io
import zipfile
from pathlib import Path

import pytest

from ingestion.models import Document
from pipelines.candidate import Candidate
from pipelines.export.gate import GateDecision, LeakError, LeakGate
from pipelines.export.writer import ExportDocument, ExportWriter, render_document
from pipelines.pseudonymize.engine import PseudonymizationConfig
from review.models import ExportBatch, Span, SpanStatus

ROOT = Path(__file__).resolve().parents[2]
NAME = "Walter Kowalczyk"


def accepted(text: str, needle: str, label: str = "PERSON") -> Candidate:
    start = text.index(needle)
    return Candidate(start, start + len(needle), label, needle, ("human",), 1.0)


def strict(doc_id: int, text: str) -> ExportDocument:
    return ExportDocument(doc_id, "t.txt", text, [accepted(text, NAME)])


def test_a_clean_document_is_allowed_with_no_reason() -> None:
    output = render_document(strict(1, f"Good morning, {NAME}. KOWALCZYK left."))
    writer = ExportWriter(io.BytesIO(), {"strategy": "placeholder"})
    decision = writer.add(output)
    assert decision == GateDecision(True)
    writer.close()


def test_the_decision_says_which_document_leaks_where_and_what_label_never_the_text() -> None:
    text = f"Good morning, {NAME}. Then KOWALCZYK left."
    leaking = render_document(strict(7, text), complete_names=False)
    clean = render_document(strict(8, f"Hello {NAME}."), complete_names=False)
    target = io.BytesIO()
    writer = ExportWriter(target, {"corpus": "Kowalczyk hearings"})
    first = writer.add(leaking)
    assert not first.allowed
    assert first.reasons == (
        "document 7: 1 accepted name occurrence left in its text (PERSON ×1)",
        "document 7: 1 accepted name occurrence left in the manifest's settings (PERSON ×1)",
    )
    assert [f.document_id for f in first.findings] == [7]
    # Once refused, a later document is not written, and the decision says so.
    later = writer.add(clean)
    assert (
        not later.allowed
        and later.reasons[-1] == "document 8: 1 accepted name occurrence left in the manifest's settings (PERSON ×1)"
    )
    with pytest.raises(LeakError) as caught:
        writer.close()
    decision = caught.value.decision
    assert not decision.allowed and {f.document_id for f in decision.findings} == {7, 8}
    assert caught.value.report() == decision.report()
    assert decision.explain(shown=1) == (
        "3 occurrence(s) of accepted names still present in the output (document 7: 1 accepted name occurrence "
        "left in its text (PERSON ×1); and 2 more (see the leak report))"
    )
    assert str(caught.value) == "3 occurrence(s) of accepted names still present in the output"
    assert "kowalczyk" not in " ".join(decision.reasons).lower()
    assert "kowalczyk" not in str(decision.report()).lower()
    assert not zipfile.ZipFile(target).namelist()  # nothing was written


def test_a_clean_document_after_a_refused_one_is_not_written() -> None:
    gate = LeakGate("{}")
    text = f"{NAME} and KOWALCZYK"
    leaking = render_document(strict(1, text), complete_names=False)
    assert not gate.check(1, leaking.leaks, [], leaking.identity, leaking.first).allowed
    clean = render_document(strict(2, f"{NAME}."))
    again = gate.check(2, clean.leaks, ["redacted/00002_document.txt"], clean.identity, clean.first)
    assert again == GateDecision(False, ("document 2: not written, document 1 leaks",))
    assert not gate.allowed and [f.document_id for f in gate.decision().findings] == [1]


def test_a_kept_span_is_read_like_the_text() -> None:
    text = "Jane Roe works at Roe Holdings."
    spans = [accepted(text, "Jane Roe"), accepted(text, "Roe Holdings", "ORGANIZATION")]
    output = render_document(
        ExportDocument(2, "b.txt", text, spans), PseudonymizationConfig(per_label={"ORGANIZATION": "keep"})
    )
    writer = ExportWriter(io.BytesIO(), {})
    decision = writer.add(output)
    assert decision.reasons == ("document 2: 1 accepted name occurrence left in its text (PERSON ×1)",)
    with pytest.raises(LeakError):
        writer.close()


def test_no_module_imports_a_private_name_of_another_module_of_the_export() -> None:
    """The gate's parts used to cross modules through private names (`_Regions`)."""
    files = [*sorted((ROOT / "pipelines" / "export").glob("*.py")), ROOT / "review" / "services" / "export.py"]
    crossing = []
    for path in files:
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("pipelines."):
                crossing += [f"{path.name}: {node.module}.{a.name}" for a in node.names if a.name.startswith("_")]
    assert crossing == []


@pytest.mark.django_db
def test_the_service_reports_the_gates_decision(corpus, admin_user, monkeypatch) -> None:
    import pipelines.export.writer as writer
    from review.services import export as export_service

    text = f"PRESIDING COMMISSIONER: Good morning, {NAME}.\nINMATE: KOWALCZYK is my name.\n"
    document = Document.objects.create(corpus=corpus, name="hearing.txt", sha256="x", text=text, status="approved")
    span = accepted(text, NAME)
    Span.objects.create(
        document=document, start=span.start, end=span.end, label="PERSON", text=NAME, status=SpanStatus.ACCEPTED
    )
    full = writer.render_document

    def render(doc, config=None, numbers=None, **kwargs):
        return full(doc, config, numbers, complete_names=False)

    monkeypatch.setattr(export_service, "render_document", render)
    batch = export_service.export_create(corpus=corpus, user=admin_user, queue=False)
    assert export_service.export_run(batch_id=batch.pk) is False
    batch.refresh_from_db()
    assert batch.status == "failed"
    assert batch.error_message == (
        "Leak check failed: 1 occurrence(s) of accepted names still present in the output "
        f"(document {document.pk}: 1 accepted name occurrence left in its text (PERSON ×1)). Nothing was written."
    )
    assert [(r["document_id"], r["label"], r["where"]) for r in batch.report] == [(document.pk, "PERSON", "text")]
    assert not ExportBatch.objects.exclude(file="").exists()
