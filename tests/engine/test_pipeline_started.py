"""The model pass starts each chunk's encoder before spaCy's NER reads it
(pipelines/detection/pipeline.py `_started`, models/minilm.py `starter`)."""

from pipelines.detection import pipeline
from pipelines.detection.models.nlp import load_nlp


def test_chunks_are_tokenised_and_started_one_ahead_in_their_order():
    nlp = load_nlp("sm")
    started: list[str] = []
    stream = iter([("one two", ("a",)), ("", ("skipped",)), ("three", ("b",)), ("four", ("c",))])
    out = pipeline._started(stream, nlp, lambda doc: started.append(doc.text))
    first = next(out)
    # The first chunk is handed on once the next one has been started too.
    assert first[0].text == "one two" and first[1] == ("a",) and started == ["one two"]
    second = next(out)
    assert second == ("", ("skipped",)) and started == ["one two", "three"]
    rest = list(out)
    assert [(d.text, c) for d, c in rest] == [("three", ("b",)), ("four", ("c",))]
    assert started == ["one two", "three", "four"]


def test_a_long_text_gives_the_same_spans_with_its_encoder_started(monkeypatch):
    """The same detection whether the encoder ran on its thread ahead of spaCy's NER
    or in the pipeline's own turn: a stand-in encoder, several chunks."""
    import spacy

    from pipelines.detection.models import minilm
    from pipelines.detection.models.catalog import resolve
    from pipelines.detection.models.nlp import UNUSED_COMPONENTS

    minilm.register()
    nlp = spacy.load(resolve("sm"), exclude=list(UNUSED_COMPONENTS))
    component = nlp.add_pipe(minilm.FACTORY, name="minilm_ner", last=True)
    component.encoder, component.wordpiece = object(), object()
    names = ("Okafor", "Lindqvist")
    monkeypatch.setattr(
        minilm,
        "token_tags",
        lambda encoder, wordpiece, tags, words, caseless=False: ["B-PER" if w in names else "O" for w in words],
    )
    monkeypatch.setattr(pipeline, "load_nlp", lambda name: nlp)
    text = "\n".join(f"Q. Did Mr. Okafor see Ms. Lindqvist on the {i}th?\nA. Yes." for i in range(1, 300))

    def spans() -> list[tuple[int, int, str]]:
        result = pipeline.detect_text(text, "stand-in", chunk_chars=4000)
        return [(s.start, s.end, s.label) for s in result.spans]

    started = spans()
    monkeypatch.setattr(minilm, "starter", lambda nlp: None)
    assert started == spans()
    assert sum(label == "PERSON" for _, _, label in started) >= 2 * 299
