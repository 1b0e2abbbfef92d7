"""Corpus-model training and prediction over long documents (issue 28): every Doc
is built a chunk at a time (pipelines/detection/chunks.py), so a document past
spaCy's max_length trains, memory stays flat, and a document that fails is left
out of its run, named, and never fails the corpus's later runs."""

import json
from pathlib import Path

import pytest
import spacy

from ingestion.models import Corpus, Document
from pipelines import training
from pipelines.candidate import Candidate
from pipelines.detection.chunks import chunk_bounds
from review.models import CorpusModelVersion, ModelStatus, Span
from review.services.corpus_models import corpus_training_start
from review.services.corpus_training import corpus_model_train
from tests.review.test_corpus_models import NAMES, TEXTS, _occurrences, approved_document, models_dir  # noqa: F401

FINISHED = (ModelStatus.ACTIVE, ModelStatus.READY, ModelStatus.REFUSED)
# A deliberately small NER (8 wide, one layer): the mechanics of a long document
# are the same as sm's, at a fraction of the time per character.
TINY_NER = {
    "@architectures": "spacy.TransitionBasedParser.v2",
    "state_type": "ner",
    "extra_state_tokens": False,
    "hidden_width": 8,
    "maxout_pieces": 2,
    "use_upper": True,
    "nO": None,
    "tok2vec": {
        "@architectures": "spacy.HashEmbedCNN.v2",
        "pretrained_vectors": None,
        "width": 8,
        "depth": 1,
        "embed_size": 100,
        "window_size": 1,
        "maxout_pieces": 2,
        "subword_features": False,
    },
}


@pytest.fixture(scope="module")
def sm():
    # What a corpus run fine-tunes under the default (open detects; sm's NER trains).
    from django.conf import settings

    from review.services.corpus_models import corpus_training_base

    return training.load_full(corpus_training_base(settings.SPACY_MODEL))


@pytest.fixture(scope="module")
def tiny_base(tmp_path_factory) -> str:
    nlp = spacy.blank("en")
    ner = nlp.add_pipe("ner", config={"model": TINY_NER})
    for label in ("PERSON", "GPE", "ORG", "DATE"):
        ner.add_label(label)
    nlp.initialize()
    path = tmp_path_factory.mktemp("tiny") / "model"
    nlp.to_disk(path)
    return str(path)


def _accepted(text: str) -> list[Candidate]:
    """Every name a reviewer accepted (the longer form first where two overlap)."""
    found: list[Candidate] = []
    taken = bytearray(len(text))
    for needle, label in NAMES:
        for start, end in _occurrences(text, needle):
            if not any(taken[start:end]):
                taken[start:end] = b"\x01" * (end - start)
                found.append(Candidate(start, end, label, needle, ("human",), 1.0))
    return sorted(found, key=lambda c: c.start)


def test_chunked_prediction_finds_what_the_whole_text_does(sm):
    text = "\n".join(TEXTS)
    assert len(chunk_bounds(text, 200)) > 2  # really cut
    whole = training.predict_spans(sm, text, chunk_chars=len(text) + 1)
    chunked = training.predict_spans(sm, text, chunk_chars=200)
    assert whole  # the comparison is over real entities
    assert [(c.start, c.end, c.label, c.text) for c in chunked] == [(c.start, c.end, c.label, c.text) for c in whole]
    assert all(text[c.start : c.end] == c.text for c in chunked)


def test_each_chunk_is_an_example_with_its_own_offsets(sm):
    text = "\n".join(TEXTS) * 3
    item = training.ReviewedText(1, text, _accepted(text), [Candidate(*_first(text, "Correct"), "PERSON", "", (), 1)])
    docs = training.reviewed_docs(sm, item, chunk_chars=300)
    assert len(docs) == len(chunk_bounds(text, 300)) > 3
    assert "".join(d.text for d in docs) == text
    # Every accepted name is an entity of its chunk, at its place, under the model's label.
    ents = [(e.text, e.label_) for d in docs for e in d.ents if e.label_ in ("PERSON", "GPE")]
    assert ents == [(c.text, "PERSON" if c.label == "PERSON" else "GPE") for c in item.accepted]
    correct = next(t for t in docs[0] if t.text == "Correct")
    assert correct.ent_iob_ == "O"


def _first(text: str, needle: str) -> tuple[int, int]:
    start = text.index(needle)
    return start, start + len(needle)


def test_a_name_cut_in_two_is_taught_as_neither_entity_nor_o(sm):
    # No line end in reach: the cut falls at the last space, inside the name.
    text = "a " * 10 + "Okonkwo Barry went home to Tallowmere."
    name = Candidate(20, 33, "PERSON", "Okonkwo Barry", ("human",), 1.0)
    place = Candidate(*_first(text, "Tallowmere"), "LOCATION", "Tallowmere", ("human",), 1.0)
    assert chunk_bounds(text, 30)[0] == (0, 28)
    docs = training.reviewed_docs(sm, training.ReviewedText(1, text, [name, place]), chunk_chars=30)
    assert len(docs) == len(chunk_bounds(text, 30)) == 2, chunk_bounds(text, 30)
    first, second = docs
    assert (first[-1].text, first[-1].ent_iob_) == ("Okonkwo", "")
    assert (second[0].text, second[0].ent_iob_) == ("Barry", "")
    assert [(e.text, e.label_) for e in second.ents] == [("Tallowmere", "GPE")]
    assert first[0].ent_iob_ == "O"


def _long_document(corpus: Corpus, chars: int) -> Document:
    """Hearings at both ends, long filler words between (few tokens per character:
    the mechanics of a long text, in seconds)."""
    block = "\n".join(TEXTS)
    filler = ("Pneumonoultramicroscopicsilicovolcanoconiosis " * 20 + "\n") * (chars // 920 + 1)
    text = block + filler + block
    document = Document.objects.create(corpus=corpus, name="long.txt", sha256="long", text=text, status="approved")
    Span.objects.bulk_create(
        Span(document=document, start=c.start, end=c.end, label=c.label, text=c.text, status="accepted")
        for c in _accepted(text)
    )
    return document


def test_a_document_past_spacys_max_length_trains(corpus, admin_user, models_dir, tiny_base, settings):  # noqa: F811
    long = _long_document(corpus, 1_000_001)  # the oldest approval: a training document
    assert len(long.text) > spacy.blank("en").max_length
    for n, text in enumerate(TEXTS, 1):
        approved_document(corpus, n, text)
    version = corpus_training_start(corpus_id=corpus.pk, user=admin_user, base_model=tiny_base)
    assert corpus_model_train(version_id=version.pk, delivery="test") is True
    version.refresh_from_db()
    assert version.status in FINISHED, version.message
    assert long.pk in version.train_documents
    directory = Path(models_dir) / version.path
    meta = json.loads((directory / "meta.json").read_text())
    # One example per chunk: the long document is many, each small.
    chunks = len(chunk_bounds(long.text, settings.CORPUS_TRAINING_EXAMPLE_CHARS))
    assert meta["training_examples"] == chunks + 3 and meta["left_out_documents"] == []
    train = list(spacy.tokens.DocBin().from_disk(directory / "train.spacy").get_docs(spacy.blank("en").vocab))
    assert max(len(d.text) for d in train) <= settings.CORPUS_TRAINING_EXAMPLE_CHARS
    # The names at the far end are entities of the last chunk, where they are.
    assert ("Okonkwo-Barry", "PERSON") in {(e.text, e.label_) for e in train[chunks - 1].ents}


def _failing_for(monkeypatch, marker: str) -> None:
    real = training.reviewed_docs

    def reviewed_docs(nlp, item, *args, **kwargs):
        if marker in item.text:
            raise MemoryError  # what a document too big for the worker raised
        return real(nlp, item, *args, **kwargs)

    monkeypatch.setattr(training, "reviewed_docs", reviewed_docs)


def test_a_failing_document_is_left_out_named_and_later_runs_succeed(corpus, admin_user, models_dir, monkeypatch):  # noqa: F811
    bad = approved_document(corpus, 0, "POISON " + TEXTS[0])
    for n, text in enumerate(TEXTS, 1):
        approved_document(corpus, n, text)
    _failing_for(monkeypatch, "POISON")
    for _ in range(2):  # the same document fails again: the next run still trains
        version = corpus_training_start(corpus_id=corpus.pk, user=admin_user)
        assert corpus_model_train(version_id=version.pk, delivery="test") is True
        version.refresh_from_db()
        assert version.status in FINISHED, version.message
        assert f"document #{bad.pk} (MemoryError)" in version.message and bad.name not in version.message
        assert bad.pk not in version.train_documents and len(version.train_documents) == 3
        assert version.config["left_out_documents"] == [{"document": bad.pk, "error": "MemoryError"}]
        meta = json.loads((Path(models_dir) / version.path / "meta.json").read_text())
        assert bad.pk not in meta["training_documents"]


def test_a_run_with_nothing_left_to_learn_from_fails_naming_them_and_the_next_run_trains(
    corpus,
    admin_user,
    models_dir,  # noqa: F811
    monkeypatch,
):
    first = approved_document(corpus, 1, "POISON " + TEXTS[0])
    approved_document(corpus, 2, TEXTS[1])
    _failing_for(monkeypatch, "POISON")
    version = corpus_training_start(corpus_id=corpus.pk, user=admin_user)
    assert corpus_model_train(version_id=version.pk, delivery="test") is False
    version.refresh_from_db()
    assert version.status == ModelStatus.FAILED
    assert version.message.startswith("Training has no document left to learn from.")
    assert f"document #{first.pk} (MemoryError)" in version.message
    # More documents approved since: the next run learns from them.
    approved_document(corpus, 3, TEXTS[2])
    approved_document(corpus, 4, TEXTS[3])
    version = corpus_training_start(corpus_id=corpus.pk, user=admin_user)
    assert corpus_model_train(version_id=version.pk, delivery="test") is True
    version.refresh_from_db()
    assert version.status in FINISHED and f"#{first.pk}" in version.message
    assert not CorpusModelVersion.objects.filter(corpus=corpus, status=ModelStatus.TRAINING).exists()


def test_a_runs_message_names_ten_left_out_documents_and_counts_the_rest():
    from review.services.corpus_training import NAMED_LEFT_OUT, _Prepared

    assert _Prepared().note() == ""
    prepared = _Prepared(left_out=[(pk, "MemoryError") for pk in range(1, 16)])
    note = prepared.note()
    assert note.count("(MemoryError)") == NAMED_LEFT_OUT == 10
    assert "document #10 (MemoryError) and 5 more;" in note and "#11" not in note


def test_leak_recall_counts_the_gold_spans_any_prediction_overlaps():
    # Computed by a bisect per gold span (a long document has 100,000s of both):
    # the same count as every pair compared.
    import random

    rng = random.Random(7)
    for _ in range(200):
        spans = [
            [Candidate(s, s + rng.randint(0, 8), "PERSON", "x", ("t",), 1.0) for s in rng.sample(range(80), 10)]
            for _ in range(2)
        ]
        pred, gold = spans
        pairs = sum(1 for g in gold if any(p.start < g.end and g.start < p.end for p in pred))
        scores = training.score([pred], [gold])
        assert round(pairs / len(gold), 4) == scores.leak_recall
