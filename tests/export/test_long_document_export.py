"""Export of long documents (issue 28 item 6): a document longer than spaCy's
default `max_length` (1,000,000 characters; MAX_DOCUMENT_CHARS allows 3,000,000)
exports with valid training files and right entity offsets, and a document that
cannot be exported fails alone, named, never the whole export."""

import io
import json
import re
import zipfile

import pytest
from django.core.management import call_command
from hypothesis import given, settings
from hypothesis import strategies as st

from ingestion.models import Document
from pipelines.candidate import Candidate
from pipelines.export import formats
from pipelines.export.writer import ExportDocument, ExportWriter, render_document, write_zip
from review.models import ExportBatch, Span, SpanStatus

PARAGRAPH = (
    "PRESIDING COMMISSIONER: Please tell the panel what happened that evening, in your own words.\n"
    "INMATE: I was at the house on Elm Street and I had been drinking since the afternoon.\n\n"
)
NAMED = "DEPUTY COMMISSIONER: Thank you, Mr. Marcus Delgado. Your counsel is Ms. Ruth Okafor.\n\n"


def long_text(chars: int) -> str:
    pieces, size, k = [], 0, 0
    while size < chars:
        piece = NAMED if k % 40 == 0 else PARAGRAPH
        pieces.append(piece)
        size += len(piece)
        k += 1
    return "".join(pieces)


def person_spans(text: str) -> list[Candidate]:
    return [
        Candidate(m.start(), m.end(), "PERSON", m.group(), ("human",), 1.0)
        for m in re.finditer(r"Marcus Delgado|Ruth Okafor", text)
    ]


def test_a_document_over_a_million_characters_exports_with_valid_training_files() -> None:
    text = long_text(1_100_000)
    spans = person_spans(text)
    assert len(text) > 1_000_000 > formats._tokenizer().max_length - 1
    target = io.BytesIO()
    write_zip(target, [render_document(ExportDocument(1, "long.txt", text, spans))], {})
    archive = zipfile.ZipFile(target)
    redacted = archive.read("redacted/00001_document.txt").decode()
    assert "Delgado" not in redacted and redacted.count("[PERSON_1] [PERSON_2]") == len(spans) // 2
    # The DocBin holds the whole document as one Doc, its entities at the spans' offsets.
    import spacy
    from spacy.tokens import DocBin

    (doc,) = DocBin().from_bytes(archive.read("training/spacy/00001.spacy")).get_docs(spacy.blank("en").vocab)
    assert doc.text == text
    assert [(e.start_char, e.end_char, e.label_) for e in doc.ents] == [(s.start, s.end, "PERSON") for s in spans]
    conll = archive.read("training/conll.txt").decode()
    assert conll.count("Marcus\tB-PERSON\nDelgado\tI-PERSON\n") == len(spans) // 2
    doccano = json.loads(archive.read("training/doccano.jsonl"))
    assert all(doccano["text"][s:e] in ("Marcus Delgado", "Ruth Okafor") for s, e, _ in doccano["label"])
    studio = json.loads(archive.read("training/label_studio.jsonl"))
    assert len(studio["annotations"][0]["result"]) == len(spans)


words = st.text(alphabet="abcXY.,'-()0", min_size=1, max_size=8)
gaps = st.sampled_from([" ", "\n", "\n\n", "  ", " \n ", "\t", "\n  "])


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(words, gaps), min_size=1, max_size=80), st.integers(min_value=20, max_value=60))
def test_tokenizing_piece_by_piece_gives_the_tokens_of_the_whole_text(parts, size) -> None:
    text = "".join(word + gap for word, gap in parts)
    whole = formats._tokenizer()(text)
    pieces = list(formats.pieces(text, size))
    assert all(end - start <= size for start, end in pieces)
    assert "".join(text[start:end] for start, end in pieces) == text
    doc = formats.tokenize(text, size)
    assert doc.text == text
    assert [(t.text, t.whitespace_) for t in doc] == [(t.text, t.whitespace_) for t in whole]


@pytest.mark.parametrize("people", [1, 2_500])
def test_the_annotations_json_is_the_indented_json_of_its_content(people: int) -> None:
    """Written a batch of annotations at a time, it reads as one `json.dumps(indent=2)`."""
    text = "".join(f"Mr. John Doe{i} called. Doe{i} left.\n" for i in range(people))
    spans = [
        Candidate(m.start(), m.end(), "PERSON", m.group(), ("human",), 1.0) for m in re.finditer(r"John Doe\d+", text)
    ]
    meta = {(s.start, s.end, s.label): {"page_line": [1, 2], "reviewer": "ada"} for s in spans[:3]}
    output = render_document(ExportDocument(1, 'a "quoted"\nname.txt', text, spans, meta))
    content = json.loads(output.annotations_json)
    assert json.dumps(content, ensure_ascii=False, indent=2) == output.annotations_json
    assert [a["preview"] for a in content["annotations"]][:2] == ["John Doe0", "Doe0"]
    assert len(content["annotations"]) == 2 * people and content["annotations"][0]["page_line"] == [1, 2]
    assert formats.label_studio_line(text, [], "1") == json.dumps(
        {"data": {"text": text, "doc_id": "1"}, "annotations": [{"result": []}]}
    )


def test_a_document_whose_files_cannot_be_made_adds_nothing(monkeypatch) -> None:
    text = "Mr. John Doe called."
    spans = [Candidate(4, 12, "PERSON", "John Doe", ("human",), 1.0)]
    good, bad = (render_document(ExportDocument(i, "a.txt", text, spans)) for i in (1, 2))
    made = formats.training_doc

    def training_doc(text: str, spans: list[Candidate]):
        if training_doc.calls:
            raise ValueError("[E088] Text of length 3000000 exceeds maximum of 1000000.")
        training_doc.calls += 1
        return made(text, spans)

    training_doc.calls = 0
    monkeypatch.setattr(formats, "training_doc", training_doc)
    target = io.BytesIO()
    writer = ExportWriter(target, {})
    writer.add(good)
    with pytest.raises(ValueError, match="E088"):
        writer.add(bad)
    writer.skip(2, "ValueError")
    manifest = writer.close()
    names = zipfile.ZipFile(target).namelist()
    assert "redacted/00001_document.txt" in names and not any("00002" in n for n in names)
    assert manifest["failed_documents"] == [{"id": 2, "reason": "ValueError"}]
    assert len(zipfile.ZipFile(target).read("training/doccano.jsonl").splitlines()) == 1


@pytest.mark.django_db
def test_a_failing_document_fails_alone_and_is_named(corpus, admin_user, monkeypatch, tmp_path) -> None:
    from review.services import export as export_service

    documents = []
    for name in ("first.txt", "broken.txt", "third.txt"):
        text = f"Good morning, Walter Kowalczyk. This is {name}.\n"
        document = Document.objects.create(corpus=corpus, name=name, sha256=name, text=text, status="approved")
        Span.objects.create(
            document=document, start=14, end=30, label="PERSON", text="Walter Kowalczyk", status=SpanStatus.ACCEPTED
        )
        documents.append(document)
    full = export_service.render_document

    def render(doc, *args, **kwargs):
        if doc.name == "broken.txt":
            raise ValueError("[E088] Text of length 3000000 exceeds maximum of 1000000.")
        return full(doc, *args, **kwargs)

    monkeypatch.setattr(export_service, "render_document", render)
    batch = export_service.export_create(corpus=corpus, user=admin_user, queue=False)
    assert export_service.export_run(batch_id=batch.pk) is True
    batch = ExportBatch.objects.get(pk=batch.pk)
    broken = documents[1].pk
    assert batch.status == "done" and batch.done == batch.total == 3
    assert batch.error_message.startswith(
        "1 of 3 document(s) could not be exported and are not in the zip (the other 2 are): "
        f"document {broken} (broken.txt: ValueError: [E088]"
    )
    with batch.file.open("rb") as handle:
        archive = zipfile.ZipFile(io.BytesIO(handle.read()))
    redacted = sorted(n for n in archive.namelist() if n.startswith("redacted/"))
    assert redacted == [f"redacted/{d.pk:05d}_document.txt" for d in (documents[0], documents[2])]
    manifest = json.loads(archive.read("manifest.json"))
    assert manifest["failed_documents"] == [{"id": broken, "reason": "ValueError"}]
    # The command line writes the zip and names the document that failed.
    err = io.StringIO()
    call_command("export", "--corpus", corpus.name, "--out", str(tmp_path / "x.zip"), stdout=io.StringIO(), stderr=err)
    assert f"document {broken} (broken.txt: ValueError" in err.getvalue()
    assert len([n for n in zipfile.ZipFile(tmp_path / "x.zip").namelist() if n.startswith("redacted/")]) == 2


@pytest.mark.django_db
def test_an_export_whose_every_document_fails_fails(corpus, admin_user, monkeypatch) -> None:
    from review.services import export as export_service

    Document.objects.create(corpus=corpus, name="only.txt", sha256="o", text="Hello.", status="approved")

    def render(doc, *args, **kwargs):
        raise ValueError("cannot")

    monkeypatch.setattr(export_service, "render_document", render)
    batch = export_service.export_create(corpus=corpus, user=admin_user, queue=False)
    assert export_service.export_run(batch_id=batch.pk) is False
    batch.refresh_from_db()
    assert batch.status == "failed" and batch.error_message.startswith("No document could be exported: document ")
    assert not batch.file


@pytest.mark.django_db
def test_the_annotations_say_who_added_and_who_decided_each_span(corpus, admin_user, reviewer) -> None:
    from review.models import ReviewEvent
    from review.services import export as export_service

    text = "Good morning, Walter Kowalczyk. Ruth Okafor is here.\n"
    document = Document.objects.create(corpus=corpus, name="a.txt", sha256="a", text=text, status="approved")
    walter = Span.objects.create(
        document=document,
        start=14,
        end=30,
        label="PERSON",
        text="Walter Kowalczyk",
        status="accepted",
        created_by=admin_user,
        sources=["human"],
    )
    Span.objects.create(document=document, start=32, end=43, label="PERSON", text="Ruth Okafor", status="accepted")
    ReviewEvent.objects.create(document=document, span=walter, user=admin_user, action="accept")
    ReviewEvent.objects.create(document=document, span=walter, user=reviewer, action="accept")
    exported = export_service._export_document(document, accept_pending=False)
    assert [(s.start, s.text, s.sources) for s in exported.spans] == [
        (14, "Walter Kowalczyk", ("human",)),
        (32, "Ruth Okafor", ()),
    ]
    assert exported.span_meta[(14, 30, "PERSON")] | {"page_line": None} == {
        "status": "accepted",
        "added_by": admin_user.get_username(),
        "reviewer": reviewer.get_username(),  # the last decision
        "page_line": None,
    }
    assert exported.span_meta[(32, 43, "PERSON")]["added_by"] is None


def test_a_cut_never_falls_where_spacy_reads_quotes_across_white_space() -> None:
    # Hypothesis found it: "000' ''000" tokenizes "'", "'", "'" whole, "''" once cut.
    text = "0 0 0 0 0 000' ''000 "
    doc = formats.tokenize(text, 20)
    assert [t.text for t in doc] == [t.text for t in formats._tokenizer()(text)]
