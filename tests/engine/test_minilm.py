"""The encoder models' NER (pipelines/detection/models/minilm.py): the ONNX graph
the product runs (training/onnx_export.py) and its WordPiece tokenizer against the
reference implementation (Hugging Face's, which trained it), int8 against float,
its windows over long texts, line breaks, its entities in the Doc, and the
training recipe on a fixture."""

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from pipelines.detection import case
from pipelines.detection.models import minilm

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "training"))
from onnx_export import graph, quantize, saturates_u8s8  # noqa: E402  (training/ is no package)


def test_the_product_s_venv_has_no_pytorch():
    """thinc imports PyTorch with spaCy when it is installed (~0.7 s per process)."""
    proc = subprocess.run(
        [sys.executable, "-c", "import importlib.util as u; print(u.find_spec('torch'), u.find_spec('transformers'))"],
        capture_output=True,
        text=True,
    )
    assert proc.stdout.split() == ["None", "None"]


class _Parity:
    """An "encoder" whose tag for a piece is its id's parity, and which records
    the batches of windows it was given."""

    def __init__(self) -> None:
        self.windows: list[int] = []
        self.batches: list[int] = []

    def __call__(self, ids: np.ndarray) -> np.ndarray:
        self.batches.append(len(ids))
        self.windows.extend(len(row) for row in ids)
        out = np.zeros((*ids.shape, 2), dtype=np.float32)
        np.put_along_axis(out, (ids % 2)[..., None], 1.0, axis=-1)
        return out


def test_long_texts_are_labelled_in_windows_that_cover_every_word(monkeypatch):
    monkeypatch.setattr(minilm, "CORE", 8)
    monkeypatch.setattr(minilm, "CONTEXT", 3)
    vocab = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", *[f"w{i}" for i in range(60)], "##x"]
    wordpiece = minilm.WordPiece(vocab)
    words = [f"w{i}" if i % 7 else f"w{i}x" for i in range(60)] + ["\n"]
    encoder = _Parity()
    tags = minilm.token_tags(encoder, wordpiece, ["A", "B"], words)
    # Each word's tag is its first piece's (w{i} has id i + 4), a line break's is O.
    assert tags == [("A", "B")[(i + 4) % 2] for i in range(60)] + ["O"]
    pieces = 60 + len(range(0, 60, 7))
    assert len(encoder.windows) == -(-pieces // 8)
    assert max(encoder.windows) == 8 + 2 * 3 + 2  # core, context on both sides, [CLS] and [SEP]
    # Equal-length windows share a call, at most BATCH of them.
    assert len(encoder.batches) < len(encoder.windows) and max(encoder.batches) <= minilm.BATCH


def _tiny_weights(rng: np.random.Generator) -> dict[str, np.ndarray]:
    """A random 2-layer, 16-wide token classifier with 3 tags, by Hugging Face's names."""
    width, inner, layers = 16, 32, 2
    shapes = {
        "bert.embeddings.word_embeddings.weight": (50, width),
        "bert.embeddings.position_embeddings.weight": (64, width),
        "bert.embeddings.token_type_embeddings.weight": (2, width),
        "classifier.weight": (3, width),
    }
    for i in range(layers):
        p = f"bert.encoder.layer.{i}."
        for name in ("attention.self.query", "attention.self.key", "attention.self.value", "attention.output.dense"):
            shapes[p + name + ".weight"] = (width, width)
        shapes[p + "intermediate.dense.weight"] = (inner, width)
        shapes[p + "output.dense.weight"] = (width, inner)
    weights = {name: rng.normal(0, 0.2, shape).astype(np.float32) for name, shape in shapes.items()}
    for name, shape in list(shapes.items()):
        weights[name.replace(".weight", ".bias")] = rng.normal(0, 0.1, shape[0] if "embeddings" not in name else 1)
    for norm in ["bert.embeddings.LayerNorm"] + [
        f"bert.encoder.layer.{i}.{part}.LayerNorm" for i in range(layers) for part in ("attention.output", "output")
    ]:
        weights[norm + ".weight"], weights[norm + ".bias"] = np.ones(width), np.zeros(width)
    return weights


def test_a_batch_of_windows_gives_what_each_window_gives_alone():
    rng = np.random.default_rng(0)
    encoder = minilm.Encoder(graph(_tiny_weights(rng), 2, heads=4).SerializeToString())
    ids = rng.integers(0, 50, (3, 20))
    together = encoder(ids)
    assert together.shape == (3, 20, 3)
    for row in range(3):
        np.testing.assert_allclose(together[row], encoder(ids[row]), rtol=1e-5, atol=1e-5)


def _bert_forward(
    weights: dict[str, np.ndarray], ids: np.ndarray, layers: int, heads: int, types: np.ndarray | None = None
) -> np.ndarray:
    """BertForTokenClassification's forward pass written out in NumPy: what the graph,
    with ONNX Runtime's fused attention and GELU, must compute."""
    from math import erf

    def dense(x: np.ndarray, name: str) -> np.ndarray:
        return x @ weights[name + ".weight"].T + weights[name + ".bias"]

    def norm(x: np.ndarray, name: str) -> np.ndarray:
        centred = x - x.mean(-1, keepdims=True)
        scaled = centred / np.sqrt((centred**2).mean(-1, keepdims=True) + 1e-12)
        return scaled * weights[name + ".weight"] + weights[name + ".bias"]

    e = "bert.embeddings."
    x = weights[e + "word_embeddings.weight"][ids] + weights[e + "position_embeddings.weight"][: ids.shape[1]]
    segment = weights[e + "token_type_embeddings.weight"][0 if types is None else types]
    x = norm(x + segment, e + "LayerNorm")
    batch, length, width = x.shape
    for i in range(layers):
        p = f"bert.encoder.layer.{i}."

        def split(name: str, x: np.ndarray = x, p: str = p) -> np.ndarray:
            return dense(x, p + name).reshape(batch, length, heads, -1).transpose(0, 2, 1, 3)

        q, k, v = split("attention.self.query"), split("attention.self.key"), split("attention.self.value")
        scores = q @ k.transpose(0, 1, 3, 2) / np.sqrt(width // heads)
        scores = np.exp(scores - scores.max(-1, keepdims=True))
        attended = (scores / scores.sum(-1, keepdims=True)) @ v
        attended = attended.transpose(0, 2, 1, 3).reshape(batch, length, width)
        x = norm(dense(attended, p + "attention.output.dense") + x, p + "attention.output.LayerNorm")
        hidden = dense(x, p + "intermediate.dense")
        hidden = hidden * (1 + np.vectorize(erf)(hidden / np.sqrt(2))) / 2
        x = norm(dense(hidden, p + "output.dense") + x, p + "output.LayerNorm")
    return dense(x, "classifier")


def test_the_graph_computes_bert_s_forward_pass():
    """The graph's fused attention and GELU (ONNX Runtime's own operators) against the
    forward pass written out: the same logits within float32 rounding."""
    rng = np.random.default_rng(2)
    weights = _tiny_weights(rng)
    ids = rng.integers(0, 50, (3, 24))
    ours = minilm.Encoder(graph(weights, 2, heads=4).SerializeToString())(ids)
    np.testing.assert_allclose(ours, _bert_forward(weights, ids, 2, 4), rtol=1e-4, atol=1e-4)


def test_a_cased_graph_reads_each_piece_s_token_type():
    """A cased model's graph takes token_type_ids beside the ids and adds each
    piece's type embedding, as BERT does; a capital changes the logits."""
    rng = np.random.default_rng(3)
    weights = _tiny_weights(rng)
    weights["bert.embeddings.token_type_embeddings.weight"] = rng.normal(0, 0.2, (3, 16)).astype(np.float32)
    ids, types = rng.integers(0, 50, (2, 12)), rng.integers(0, 3, (2, 12))
    encoder = minilm.Encoder(graph(weights, 2, heads=4, case_types=True).SerializeToString())
    ours = encoder(ids, types)
    np.testing.assert_allclose(ours, _bert_forward(weights, ids, 2, 4, types), rtol=1e-4, atol=1e-4)
    assert not np.allclose(ours, encoder(ids, np.zeros_like(types)), atol=1e-3)
    # One window alone gives what it gives in a batch.
    np.testing.assert_allclose(encoder(ids[1], types[1]), ours[1], rtol=1e-5, atol=1e-5)


def test_a_word_s_case_counts_only_on_a_line_whose_case_says_something():
    lower, capital, caseless = case.LOWER, case.CAPITAL, case.CASELESS
    words = ["MR.", "SMITH", ":", "I", "met", "Élise", "in", "1999", ".", "\n", "THE", "COURT", ":", "GOOD", "\n"]
    words += ["q.", "did", "you", "see", "marcus", "?", "\n", "Did", "you", "?", "¶", "Yes", "Sir"]
    assert case.case_types(words) == [
        *[capital, capital, lower, capital, lower, capital, lower, lower, lower],  # mixed: each word's case
        lower,  # the line break
        *[caseless] * 4,  # a line in capitals
        lower,
        *[caseless] * 6,  # a line in lower case
        lower,
        *[caseless] * 3,  # a capital only on the first word
        lower,  # a training sentence's line break
        *[caseless] * 2,  # no lower-case word: nothing to tell a name by
    ]


def test_token_tags_give_a_cased_model_each_word_s_case_on_every_piece():
    vocab = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "mary", "mc", "##kay", "met", "the", "fbi", ".", "¶"]
    seen: list[np.ndarray] = []

    def encoder(ids: np.ndarray, types: np.ndarray) -> np.ndarray:
        seen.append(types)
        assert types.shape == ids.shape
        return np.zeros((*ids.shape, 1), dtype=np.float32)

    words = ["Mary", "McKay", "met", "the", "FBI", ".", "\n", "mary"]
    wordpiece = minilm.WordPiece(vocab, line_break="¶", case_types=True)
    minilm.token_tags(encoder, wordpiece, ["O"], words)  # type: ignore[arg-type]
    # [CLS] Mary Mc ##kay met the FBI . ¶ mary [SEP]: every piece of a word has its case.
    assert seen[0].tolist() == [[0, 1, 1, 1, 0, 0, 1, 0, 0, 2, 0]]
    # A text that writes no name with a capital (speech recognition keeping "I" and
    # a few capitals): every word is caseless, whatever its line looks like.
    minilm.token_tags(encoder, wordpiece, ["O"], words, caseless=True)  # type: ignore[arg-type]
    # [CLS] Mary Mc ##kay met the FBI . ¶ mary [SEP]: the line break keeps LOWER.
    assert seen[1].tolist() == [[0, *[case.CASELESS] * 7, case.LOWER, case.CASELESS, 0]]
    # An uncased model's encoder is called with the ids alone.
    minilm.token_tags(lambda ids: np.zeros((*ids.shape, 1)), minilm.WordPiece(vocab), ["O"], words)


def test_spaces_inside_a_name_stay_in_it_and_a_line_break_ends_it(monkeypatch):
    vocab = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "john", "smith", "bob"]
    wordpiece = minilm.WordPiece(vocab)
    words = ["john", "  ", "smith", "\n", "smith", "  ", "bob"]
    tagged = {4: "B-PER", 5: "I-PER", 6: "O"}

    def encoder(ids: np.ndarray) -> np.ndarray:
        out = np.zeros((*ids.shape, 3), dtype=np.float32)
        for index, tag in enumerate(["B-PER", "I-PER", "O"]):
            out[..., index] = np.isin(ids, [k for k, v in tagged.items() if v == tag])
        return out

    tags = minilm.token_tags(encoder, wordpiece, ["B-PER", "I-PER", "O"], words)  # type: ignore[arg-type]
    # "john  smith": one name; the line break stays out; "smith  bob" is no name's inside.
    assert tags == ["B-PER", "I-PER", "I-PER", "O", "I-PER", "O", "O"]


def test_bio_tags_become_spans_even_when_ill_formed():
    tags = ["B-PER", "I-PER", "O", "I-LOC", "I-LOC", "B-ORG", "B-ORG", "I-PER", "O"]
    assert minilm.spans_of(tags) == [(0, 2, "PER"), (3, 5, "LOC"), (5, 6, "ORG"), (6, 7, "ORG"), (7, 8, "PER")]


def test_the_component_keeps_the_spacy_ner_s_dates_and_replaces_its_names(monkeypatch):
    from pipelines.detection.models.nlp import load_nlp

    nlp = load_nlp("sm")
    doc = nlp("Mr. John Smith was born on March 3, 1985 in Fresno.")
    assert {e.label_ for e in doc.ents} >= {"PERSON", "DATE"}
    component = minilm.MiniLMNer(nlp, "minilm_ner")
    # An encoder that calls "Smith" a place and nothing else anything.
    monkeypatch.setattr(
        minilm,
        "token_tags",
        lambda encoder, wordpiece, tags, words, caseless=False: ["B-LOC" if w == "Smith" else "O" for w in words],
    )
    component.encoder, component.wordpiece = object(), object()  # type: ignore[assignment]
    doc = component(doc)
    assert [(e.text, e.label_) for e in doc.ents] == [("Smith", "LOC"), ("March 3, 1985", "DATE")]


def test_an_entity_never_starts_or_ends_with_punctuation(monkeypatch):
    """spaCy splits "MR." in capitals, and the encoder, which read "Mr." as one word
    in training, may label the dot as the name's first piece."""
    from pipelines.detection.models.nlp import load_nlp

    nlp = load_nlp("sm")
    doc = nlp.make_doc("MR. JOHN SMITH: We are in session.")
    assert [t.text for t in doc][:4] == ["MR", ".", "JOHN", "SMITH"]
    component = minilm.MiniLMNer(nlp, "minilm_ner")
    tags = ["O", "I-PER", "I-PER", "I-PER", "I-PER", "O", "O", "O", "B-MISC", "I-MISC"]
    monkeypatch.setattr(minilm, "token_tags", lambda encoder, wordpiece, t, words, caseless=False: tags[: len(words)])
    component.encoder, component.wordpiece = object(), object()  # type: ignore[assignment]
    assert [(e.text, e.label_) for e in component(doc).ents] == [("JOHN SMITH", "PERSON"), ("session", "MISC")]


def test_the_component_reads_a_text_without_case_as_caseless_both_ways_it_runs(monkeypatch):
    """`__call__` and `start` (the encoder thread) both tell the encoder whether the
    whole text carries case (case.carries_case)."""
    from pipelines.detection.models.nlp import load_nlp

    nlp = load_nlp("sm")
    seen: list[bool] = []

    def token_tags(encoder, wordpiece, tags, words, caseless=False):  # noqa: ANN001, ANN202
        seen.append(caseless)
        return ["O"] * len(words)

    monkeypatch.setattr(minilm, "token_tags", token_tags)
    component = minilm.MiniLMNer(nlp, "minilm_ner")
    component.encoder, component.wordpiece = object(), object()  # type: ignore[assignment]
    lower = " ".join(["yes I saw bob at the store and then we went home."] * 6)
    cased = "Then Bob Smith said that he saw Mary Jones at the store. " * 6
    for text in (lower, cased):
        component(nlp.make_doc(text))
        doc = nlp.make_doc(text)
        component.start(doc)
        component(doc)
    assert seen == [True, True, False, False]


def test_an_unloaded_component_says_how_to_build_the_model():
    with pytest.raises(ValueError, match="make research-model"):
        minilm.MiniLMNer(None, "minilm_ner")(None)  # type: ignore[arg-type]


def test_a_model_taught_line_breaks_reads_one_piece_for_each():
    """training/open_data.py marks line breaks with "¶"; the product gives that piece
    to every line-break token, and none to a run of spaces."""
    vocab = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "¶", "john"]
    taught, untaught = minilm.WordPiece(vocab, line_break="¶"), minilm.WordPiece(vocab)
    assert taught.pieces("\n") == taught.pieces(" \n\n ") == (4,)
    assert taught.pieces("  ") == untaught.pieces("\n") == ()
    assert taught.pieces("john") == (5,)


@pytest.mark.parametrize("reduce_range", [False, True])
def test_int8_weights_label_as_the_float_ones_do(reduce_range):
    """Dynamic int8 quantization of a random small encoder: the same argmax on at
    least 97% of the positions of random windows, logits within a small distance;
    with full-range weights and with the 7-bit ones a CPU without VNNI gets."""
    rng = np.random.default_rng(1)
    model = graph(_tiny_weights(rng), 2, heads=4)
    ids = rng.integers(0, 50, (8, 40))
    full, small = minilm.Encoder(model.SerializeToString())(ids), minilm.Encoder(quantize(model, reduce_range))(ids)
    if not reduce_range and saturates_u8s8():
        # This CPU has no VNNI: full-range weights saturate its kernels (0.953 of the
        # positions agreed on an AVX2 VM), which is why `quantize` gives it 7-bit ones.
        seven_bit = minilm.Encoder(quantize(model, True))(ids)
        agree = (full.argmax(-1) == seven_bit.argmax(-1)).mean()
        assert agree >= 0.97 and agree >= (full.argmax(-1) == small.argmax(-1)).mean()
        assert quantize(model) == quantize(model, True)
        return
    assert (full.argmax(-1) == small.argmax(-1)).mean() >= 0.97
    assert np.abs(full - small).max() < 0.25


def test_a_cpu_without_vnni_gets_7_bit_weights_so_no_pair_of_products_saturates():
    """ONNX Runtime's u8s8 kernels on x86 without VNNI add two 8-bit products in 16
    bits: 255 × 127 × 2 overflows, 255 × 64 × 2 does not. Which CPUs: read from
    their flags; ARM and VNNI accumulate in 32 bits."""
    assert saturates_u8s8("flags\t\t: fpu sse2 avx avx2 fma\n", "x86_64")
    assert not saturates_u8s8("flags\t\t: fpu sse2 avx2 avx512f avx512_vnni\n", "x86_64")
    assert not saturates_u8s8("flags\t\t: fpu sse2 avx2 avx_vnni\n", "AMD64")
    assert not saturates_u8s8("Features\t: fp asimd\n", "aarch64")
    import onnx
    from onnx import numpy_helper

    model = graph(_tiny_weights(np.random.default_rng(2)), 1, heads=4)
    for reduce_range, bound in ((True, 64), (False, 127)):
        weights = [
            numpy_helper.to_array(t)
            for t in onnx.load_from_string(quantize(model, reduce_range)).graph.initializer
            if t.data_type == onnx.TensorProto.INT8 and t.dims
        ]
        assert weights and max(int(np.abs(w).max()) for w in weights) == bound


def test_a_graph_that_fails_to_load_says_so_and_is_not_kept(tmp_path, monkeypatch):
    """The session is built on a thread: its failure surfaces at first use, and the
    pipeline cache is told to forget the model so that the next document retries."""
    forgotten = []
    monkeypatch.setattr(minilm, "ON_LOAD_FAILURE", [lambda: forgotten.append(True)])
    broken = tmp_path / "model.onnx"
    broken.write_bytes(b"not a graph")
    encoder = minilm.Encoder(broken)
    with pytest.raises(RuntimeError, match="could not be loaded"):
        encoder(np.array([[101, 102]]))
    assert forgotten == [True]


def test_a_started_doc_is_labelled_on_the_encoder_thread_and_gives_the_same_entities(monkeypatch):
    """`starter` runs the encoder on its own thread before spaCy's NER reads the Doc;
    the component then takes those tags instead of running the encoder again."""
    import threading

    from pipelines.detection.models.nlp import load_nlp

    nlp = load_nlp("sm")
    assert minilm.starter(nlp) is None  # no encoder: nothing to start
    threads: list[str] = []

    def tags_of(encoder, wordpiece, tags, words, caseless=False):  # noqa: ANN001, ANN202
        threads.append(threading.current_thread().name)
        return ["B-PER" if w == "Smith" else "O" for w in words]

    monkeypatch.setattr(minilm, "token_tags", tags_of)
    component = minilm.MiniLMNer(nlp, "minilm_ner")
    component.encoder, component.wordpiece = object(), object()  # type: ignore[assignment]
    text = "Mr. John Smith was born on March 3, 1985 in Fresno."
    direct = component(nlp(text))
    doc = nlp.make_doc(text)
    component.start(doc)
    started = component(nlp.get_pipe("ner")(doc))
    assert [(e.text, e.label_) for e in started.ents] == [(e.text, e.label_) for e in direct.ents]
    assert threads[0] == threading.current_thread().name and threads[1].startswith("encoder")
    assert len(threads) == 2 and not started.user_data  # taken, not run twice


def test_a_forked_process_makes_its_own_encoder_threads(monkeypatch):
    """A process forked after the parent made its encoder threads (`detect --jobs`
    forks after a warm-up) inherits the pools but not their threads."""
    for pool in (minilm._STARTED_DOCS, minilm._BATCHES):
        first = pool.get()
        assert pool.get() is first
        with monkeypatch.context() as patched:
            patched.setattr(minilm.os, "getpid", lambda: -1)
            child = pool.get()
        assert child is not first and child.submit(lambda: 42).result(timeout=10) == 42


def test_a_long_text_s_batches_run_on_several_threads_and_label_as_one_does(monkeypatch):
    """Each batch of windows runs on one core, `encoder_threads()` batches at once:
    the same tags as one batch after another."""
    import threading

    monkeypatch.setattr(minilm, "CORE", 8)
    monkeypatch.setattr(minilm, "CONTEXT", 3)
    monkeypatch.setattr(minilm, "BATCH", 1)
    rng = np.random.default_rng(3)
    encoder = minilm.Encoder(graph(_tiny_weights(rng), 2, heads=4).SerializeToString())
    threads: set[str] = set()
    run = minilm.Encoder.__call__

    def recorded(self: minilm.Encoder, ids: np.ndarray) -> np.ndarray:
        threads.add(threading.current_thread().name)
        return run(self, ids)

    monkeypatch.setattr(minilm.Encoder, "__call__", recorded)
    vocab = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", *[f"w{i}" for i in range(46)]]
    wordpiece = minilm.WordPiece(vocab)
    words = [f"w{i % 46}" for i in range(100)]
    tags = ["O", "B-PER", "I-PER"]
    monkeypatch.setenv("ANONYMIZER_ENCODER_THREADS", "1")
    alone = minilm.token_tags(encoder, wordpiece, tags, words)
    assert threads == {threading.current_thread().name}
    monkeypatch.setenv("ANONYMIZER_ENCODER_THREADS", "2")
    threads.clear()
    assert minilm.token_tags(encoder, wordpiece, tags, words) == alone
    assert all(name.startswith("encoder-batch") for name in threads) and len(alone) == 100


def test_a_run_of_words_typed_two_ways_takes_one_type():
    """A token classifier may change its mind inside a name ("Stefka|PER
    Kostadinova|LOC"): the run takes the type its words give most probability,
    but not across a connective, an abbreviation or a common word."""
    tags = ["O", "B-PER", "I-PER", "B-LOC", "I-LOC"]
    vocab = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "stefka", "kostadinova", "keith", "of", "norwich", "u", ".", "s"]
    # Each piece's probabilities over `tags`.
    probs = {
        "stefka": [0.05, 0.6, 0.0, 0.35, 0.0],
        "kostadinova": [0.05, 0.0, 0.4, 0.5, 0.05],
        "keith": [0.0, 0.9, 0.1, 0.0, 0.0],
        "of": [0.1, 0.0, 0.0, 0.8, 0.1],
        "norwich": [0.0, 0.0, 0.0, 0.1, 0.9],
    }
    table = np.full((len(vocab), len(tags)), np.log(1e-6), dtype=np.float32)
    for word, row in probs.items():
        table[vocab.index(word)] = np.log(np.maximum(row, 1e-6))
    wordpiece = minilm.WordPiece(vocab)

    def encoder(ids: np.ndarray) -> np.ndarray:
        return table[ids]

    got = minilm.token_tags(encoder, wordpiece, tags, ["Stefka", "Kostadinova"])  # type: ignore[arg-type]
    assert got == ["B-PER", "I-PER"]
    got = minilm.token_tags(encoder, wordpiece, tags, ["Keith", "of", "Norwich"])  # type: ignore[arg-type]
    assert got == ["B-PER", "B-LOC", "I-LOC"]
    # Once the type changes at a name-shaped word, LOC wins where it has more.
    probs["kostadinova"] = [0.0, 0.0, 0.05, 0.95, 0.0]
    table[vocab.index("kostadinova")] = np.log(np.maximum(probs["kostadinova"], 1e-6))
    probs["stefka"] = [0.0, 0.5, 0.0, 0.45, 0.05]
    table[vocab.index("stefka")] = np.log(np.maximum(probs["stefka"], 1e-6))
    assert minilm.token_tags(encoder, wordpiece, tags, ["Stefka", "Kostadinova"]) == ["B-LOC", "I-LOC"]  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("words", "first", "second", "expected"),
    [
        # Two entities that touch: "Okafor" gives the run's type (LOC) almost nothing.
        (["Soledad", "Okafor"], [0.0, 0.02, 0.0, 0.98, 0.0], [0.0, 0.93, 0.02, 0.05, 0.0], ["B-LOC", "B-PER"]),
        # An abbreviation and a common word never join a run that changes type.
        (["USA", "Okafor"], [0.0, 0.4, 0.0, 0.6, 0.0], [0.0, 0.55, 0.0, 0.45, 0.0], ["B-LOC", "B-PER"]),
        (["Representatives", "Okafor"], [0.0, 0.4, 0.0, 0.6, 0.0], [0.0, 0.55, 0.0, 0.45, 0.0], ["B-LOC", "B-PER"]),
        # Two persons that touch stay two.
        (["Dunwoody", "Okafor"], [0.0, 0.9, 0.0, 0.1, 0.0], [0.0, 0.9, 0.1, 0.0, 0.0], ["B-PER", "B-PER"]),
        # A line break ends the run.
        (["Dunwoody", "\n", "Okafor"], [0.0, 0.6, 0.0, 0.4, 0.0], [0.0, 0.45, 0.0, 0.55, 0.0], None),
    ],
)
def test_a_run_that_is_two_entities_keeps_both(words, first, second, expected):  # noqa: ANN001
    tags = ["O", "B-PER", "I-PER", "B-LOC", "I-LOC"]
    vocab = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "¶", *sorted({w.lower() for w in words if w != "\n"})]
    table = np.full((len(vocab), len(tags)), np.log(1e-6), dtype=np.float32)
    table[vocab.index("¶"), 0] = 0.0
    named = [w for w in words if w != "\n"]
    for word, row in ((named[0], first), (named[1], second)):
        table[vocab.index(word.lower())] = np.log(np.maximum(row, 1e-6))
    wordpiece = minilm.WordPiece(vocab, line_break="¶")

    def encoder(ids: np.ndarray) -> np.ndarray:
        return table[ids]

    got = minilm.token_tags(encoder, wordpiece, tags, words)  # type: ignore[arg-type]
    # Each word keeps the type it was given on its own.
    assert got == (expected or ["B-PER", "O", "B-LOC"])


def test_the_shipped_int8_graph_finds_the_entities_its_float_graph_finds():
    """The product runs the open model's int8 graph; its float graph, built here from
    the committed delta (training/assemble_minilm.py, no PyTorch), is what was
    trained. On real text (the real transcripts and GUM's held-out documents, 20,000
    characters of each) the two find the same names: at least 95 % of the persons
    and 90 % of all names agree exactly (measured 0.961 and 0.925 when one scale per
    output channel was adopted; BENCHMARKS.md has the F1 each costs). A CPU without
    VNNI runs other int8 kernels on 7-bit weights: 0.931 and 0.918 on an AVX2 VM
    (twenty-sixth session), where the float graph scored no better on GUM held out
    (PERSON 0.870 / 0.919 against the int8 graph's 0.871 / 0.925), so its floor is
    92 % of the persons."""
    import json

    from assemble_minilm import build

    from pipelines.detection.models.nlp import load_nlp

    full, shipped = build(ROOT / "training" / "artifacts" / "ner-open", "sm", "float"), load_nlp("open")
    assert shipped.get_pipe("minilm_ner").settings["precision"] == "int8"
    paths = [*sorted((ROOT / "evaluation" / "gold").glob("*.jsonl")), ROOT / "evaluation" / "gum" / "gum_heldout.jsonl"]
    texts = [json.loads(line)["text"][:20000] for p in paths for line in p.read_text().splitlines() if line.strip()]
    agreement = {}
    for name, labels in (("persons", {"PERSON"}), ("names", {"PERSON", "ORG", "GPE", "LOC"})):
        same = either = 0
        for text in texts:
            a, b = (
                {(e.start_char, e.end_char, e.label_) for e in nlp(text).ents if e.label_ in labels}
                for nlp in (full, shipped)
            )
            same, either = same + len(a & b), either + len(a | b)
        agreement[name] = same / either
    persons = 0.92 if saturates_u8s8() else 0.95
    assert agreement["persons"] >= persons and agreement["names"] >= 0.90, agreement
