"""A BERT-family encoder (MiniLM) with a token-classification head, run by ONNX
Runtime: the NER of the models that carry an encoder (`open`, the licence-clean
default, and `research-trf`) as a spaCy component.

Why ONNX Runtime: the product only runs the model, never trains it (PyTorch does,
in the training venv), and the graph `training/onnx_export.py` builds from the
weights runs 2.4x faster here than the NumPy forward pass this module used to
hand-write (BENCHMARKS.md, "The licence-clean default"), with no PyTorch in the
product's venv. The WordPiece tokenizer stays hand-written: with its per-token
cache it splits a 172k-character transcript in 0.06 s against 0.45 s for Hugging
Face's `tokenizers`, to identical pieces. tests/engine/test_minilm.py checks both
against the reference (Hugging Face's BertTokenizer and BertForTokenClassification,
run in .venv-train by `make test-train`).

The wordpieces are uncased; a model trained with `case_types` (open) also reads each
word's case as its token type (pipelines/detection/case.py), so that a capital counts where the
line's case means something and not where a transcript is printed in capitals.

The component replaces the spaCy NER's name-like entities (PERSON, ORG, places,
MISC…) with its own and keeps the spaCy NER's dates, times and numbers where they
do not overlap one of its entities: one `nlp(text)` call runs both, so each text
still goes through spaCy once and Presidio reuses that Doc.
"""

from __future__ import annotations

import json
import os
import shutil
import threading
import unicodedata
from bisect import bisect_left
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from pipelines.candidate import BASE_ONLY
from pipelines.detection.case import LOWER, breaks_line, carries_case, case_types, caseless_types
from pipelines.gazetteers import is_common_word, is_written_as_name

if TYPE_CHECKING:
    from spacy.language import Language
    from spacy.tokens import Doc

FACTORY = "anonymizer_minilm_ner"
MODEL = "model.onnx"
SETTINGS = "cfg.json"
VOCAB = "vocab.txt"
# The entity types the encoder was trained on, by the spaCy label they take.
SPACY_LABEL = {"PER": "PERSON", "LOC": "LOC", "ORG": "ORG", "MISC": "MISC"}
# The spaCy NER's entities the encoder's own replace (names of people, places,
# organisations and other proper names); its DATE, TIME, CARDINAL… are kept.
REPLACED = frozenset(
    {"PERSON", "ORG", "GPE", "LOC", "FAC", "NORP", "MISC", "EVENT", "WORK_OF_ART", "PRODUCT", "LAW", "LANGUAGE"}
)
# Wordpieces per window: the encoder reads CONTEXT pieces on each side of the CORE
# pieces it labels, so a long transcript is labelled in windows that each see the
# words around them. 2 * CONTEXT + CORE + 2 stays within the 512 positions.
CORE = 192
CONTEXT = 32
# Windows per call of the encoder (a batch's attention scores: ~3 MB per window).
BATCH = 8
# A token longer than this in wordpieces (a URL, a run of symbols) keeps its first
# pieces only: its label comes from its first piece anyway.
MAX_PIECES_PER_TOKEN = 16
# Called when an encoder's session fails to load (nlp.py: its pipeline cache).
ON_LOAD_FAILURE: list[Callable[[], None]] = []
# Where a Doc holds the tags its encoder started on before the spaCy NER ran
# (`MiniLMNer.start`), until the component takes them.
STARTED = "anonymizer.minilm.started"


def _is_punctuation(ch: str) -> bool:
    code = ord(ch)
    if 33 <= code <= 47 or 58 <= code <= 64 or 91 <= code <= 96 or 123 <= code <= 126:
        return True
    return unicodedata.category(ch).startswith("P")


def _is_cjk(code: int) -> bool:
    return (
        0x4E00 <= code <= 0x9FFF
        or 0x3400 <= code <= 0x4DBF
        or 0x20000 <= code <= 0x2CEAF
        or 0xF900 <= code <= 0xFAFF
        or 0x2F800 <= code <= 0x2FA1F
    )


class WordPiece:
    """BERT's uncased tokenizer (basic splitting, then greedy longest-match
    WordPiece), applied to one spaCy token at a time."""

    def __init__(
        self, vocab: Sequence[str], lowercase: bool = True, line_break: str | None = None, case_types: bool = False
    ) -> None:
        self.ids = {piece: i for i, piece in enumerate(vocab)}
        self.lowercase = lowercase
        # A cased model (the "case_types" setting, training/minilm-open.json) reads each word's case
        # as its pieces' token type: the pieces are lower-cased, and without it a
        # capital, news text's strongest cue to a name, is lost.
        self.case_types = case_types
        # A model trained with line breaks marked (training/open_data.py) reads this
        # piece for each one; without it, the encoder never sees where a line ends
        # and reads "CDCR" at one line's end into the name opening the next.
        self.line_break = self.ids[line_break] if line_break else None
        self.unk = self.ids["[UNK]"]
        self.cls = self.ids["[CLS]"]
        self.sep = self.ids["[SEP]"]
        # Transcripts repeat their words: each distinct token is split once.
        self.pieces = lru_cache(maxsize=65536)(self._pieces)

    def _words(self, text: str) -> list[str]:
        kept = []
        for ch in text:
            if ord(ch) in (0, 0xFFFD) or (unicodedata.category(ch) in ("Cc", "Cf") and ch not in "\t\n\r"):
                continue
            kept.append(" " if ch.isspace() else ch)
        text = "".join(kept)
        if self.lowercase:
            text = unicodedata.normalize("NFD", text.lower())
            text = "".join(c for c in text if unicodedata.category(c) != "Mn")
        words: list[str] = []
        for word in text.split():
            current = ""
            for ch in word:
                if _is_punctuation(ch) or _is_cjk(ord(ch)):
                    if current:
                        words.append(current)
                        current = ""
                    words.append(ch)
                else:
                    current += ch
            if current:
                words.append(current)
        return words

    def _pieces(self, text: str) -> tuple[int, ...]:
        if self.line_break is not None and "\n" in text and not text.strip():
            return (self.line_break,)
        out: list[int] = []
        for word in self._words(text):
            if len(word) > 100:
                out.append(self.unk)
                continue
            start, ids = 0, []
            while start < len(word):
                end, found = len(word), None
                while start < end:
                    piece = word[start:end] if start == 0 else "##" + word[start:end]
                    if piece in self.ids:
                        found = self.ids[piece]
                        break
                    end -= 1
                if found is None:
                    ids = [self.unk]
                    break
                ids.append(found)
                start = end
            out.extend(ids)
        return tuple(out[:MAX_PIECES_PER_TOKEN])


def encoder_threads() -> int:
    """Encoder calls run at once (`ANONYMIZER_ENCODER_THREADS`; 0, the default, one
    per core this process may run on), each on one core. A host running several
    workers sets it to cores / workers."""
    try:
        configured = max(0, int(os.environ.get("ANONYMIZER_ENCODER_THREADS", "0")))
    except ValueError:
        configured = 0
    if configured:
        return configured
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


class _ThreadPool:
    """A process's thread pool, made when first used. A process forked from this one
    (`detect --jobs`, a prefork worker) inherits the pool but not its threads: it
    makes its own."""

    def __init__(self, prefix: str, workers: Callable[[], int]) -> None:
        self.prefix, self.workers = prefix, workers
        self.made: tuple[int, ThreadPoolExecutor] | None = None
        self.lock = threading.Lock()

    def get(self) -> ThreadPoolExecutor:
        with self.lock:
            if self.made is None or self.made[0] != os.getpid():
                self.made = (os.getpid(), ThreadPoolExecutor(self.workers(), thread_name_prefix=self.prefix))
            return self.made[1]


# The thread that labels the documents started on it (`starter`), in their order.
_STARTED_DOCS = _ThreadPool("encoder", lambda: 1)
# The threads that run the encoder's batches of windows (`token_tags`).
_BATCHES = _ThreadPool("encoder-batch", encoder_threads)


class Encoder:
    """BertForTokenClassification's forward pass, run by ONNX Runtime from the
    graph `training/onnx_export.py` builds: ids (b, n) or (n,) → logits.

    The session is built on a thread of its own: ONNX Runtime reads and optimises
    the graph (0.3–0.5 s) without holding the GIL, while the process goes on
    loading spaCy and Presidio, so a one-line `detect` does not wait for it."""

    def __init__(self, model: bytes | Path) -> None:
        # A process forked after this (`detect --jobs`, which warms up before it
        # forks) uses the session it inherits: tested to work
        # (tests/engine/test_minilm.py), where building a second session in the
        # child hangs on ONNX Runtime's process-wide state.
        self._session = None
        self._error: BaseException | None = None
        self._ready = threading.Thread(target=self._load, args=(model,), name="encoder-session", daemon=True)
        self._ready.start()

    def _load(self, model: bytes | Path) -> None:
        try:
            import onnxruntime

            options = onnxruntime.SessionOptions()
            # One thread per call: a long text's batches of windows run on
            # `encoder_threads()` threads at once instead (`token_tags`). Batches that
            # share nothing use both cores without the per-operator hand-offs of ONNX
            # Runtime's own threads, which lost most of their gain while spaCy's NER
            # or another process held a core (BENCHMARKS.md, "The licence-clean
            # default").
            options.intra_op_num_threads = 1
            options.inter_op_num_threads = 1
            options.graph_optimization_level = onnxruntime.GraphOptimizationLevel.ORT_ENABLE_ALL
            # Idle threads sleep instead of spinning: a worker host runs several
            # processes per core pair, and spinning threads steal each other's cores.
            options.add_session_config_entry("session.intra_op.allow_spinning", "0")
            # A path, not its bytes, when the graph is on disk: no second copy of it
            # stays in the process.
            source = str(model) if isinstance(model, Path) else model
            self._session = onnxruntime.InferenceSession(source, options, providers=["CPUExecutionProvider"])
        except BaseException as error:  # re-raised where the encoder is first used
            self._error = error

    @property
    def session(self):  # noqa: ANN201 (onnxruntime is imported on the loading thread)
        self._ready.join()
        if self._error is not None:
            # The pipeline loaded (the session is built apart): whoever caches it
            # forgets it (nlp.py registers its cache), so that the next document
            # loads it again rather than failing on this one.
            for forget in ON_LOAD_FAILURE:
                forget()
            raise RuntimeError(f"the encoder's ONNX graph could not be loaded: {self._error}") from self._error
        return self._session

    def __call__(self, ids: np.ndarray, types: np.ndarray | None = None) -> np.ndarray:
        """`types`: each piece's token type, for a graph built with them (a cased
        model); None for one without."""
        single = ids.ndim == 1
        feed = {"input_ids": np.ascontiguousarray(ids[None, :] if single else ids, dtype=np.int64)}
        if types is not None:
            feed["token_type_ids"] = np.ascontiguousarray(types[None, :] if single else types, dtype=np.int64)
        logits = self.session.run(None, feed)[0]
        return logits[0] if single else logits


def starter(nlp: Language) -> Callable[[Doc], None] | None:
    """What starts `nlp`'s encoders on a tokenised Doc before the rest of the
    pipeline reads it, or None when it has no encoder. The caller passes the Doc to
    `nlp.pipe` afterwards: the encoder runs on its own thread (ONNX Runtime releases
    the GIL) while spaCy's NER and the recognizers work on the main one, so the two
    cores both work where the encoder alone used to leave one waiting for the other
    (BENCHMARKS.md, "The licence-clean default")."""
    encoders = [component for _, component in nlp.pipeline if isinstance(component, MiniLMNer)]
    if not encoders:
        return None

    def start(doc: Doc) -> None:
        for component in encoders:
            component.start(doc)

    return start


def _logits(
    encoder: Callable[..., np.ndarray], inputs: list[np.ndarray], types: list[np.ndarray] | None
) -> Iterator[np.ndarray]:
    """Each batch's logits, in order: an `Encoder`'s batches run `encoder_threads()`
    at a time (ONNX Runtime releases the GIL while it computes)."""
    arguments = [inputs] if types is None else [inputs, types]
    if isinstance(encoder, Encoder) and len(inputs) > 1 and encoder_threads() > 1:
        return _BATCHES.get().map(encoder, *arguments)
    return map(encoder, *arguments)


def token_tags(
    encoder: Encoder, wordpiece: WordPiece, tags: Sequence[str], words: Sequence[str], caseless: bool = False
) -> list[str]:
    """One BIO tag per word: its first wordpiece's. A word without wordpieces is O (a
    line break), or inside the entity around it when it is a run of spaces.
    `caseless`: the text writes no name with a capital (`case.carries_case`), so
    a cased model reads every word as CASELESS, whatever a line looks like (speech
    recognition that keeps "I" and a few capitals: "yes I saw bob")."""
    pieces: list[int] = []
    kinds: list[int] = []  # each piece's token type (its word's case), for a cased model
    first: list[int] = []  # the index of each word's first piece, -1 for none
    if not wordpiece.case_types:
        cases = [LOWER] * len(words)
    elif caseless:
        cases = caseless_types(words)
    else:
        cases = case_types(words)
    for word, case in zip(words, cases, strict=True):
        ids = wordpiece.pieces(word)
        first.append(len(pieces) if ids else -1)
        pieces.extend(ids)
        kinds.extend([case] * len(ids))
    best = np.zeros(len(pieces), dtype=np.int64)
    # Each piece's logits: the rows of the pieces that open a word type a run of words
    # typed two ways once (`_one_type_per_run`).
    scores = np.zeros((len(pieces), len(tags)), dtype=np.float32)
    # Windows of equal length (all but the first and last of a long text) go through
    # the encoder together: fewer, larger matrix products.
    windows: dict[int, list[tuple[int, int, int]]] = {}
    for start in range(0, len(pieces), CORE):
        left, right = max(0, start - CONTEXT), min(len(pieces), start + CORE + CONTEXT)
        windows.setdefault(right - left, []).append((start, left, right))
    batches = [group[at : at + BATCH] for group in windows.values() for at in range(0, len(group), BATCH)]
    inputs = [np.array([[wordpiece.cls, *pieces[left:right], wordpiece.sep] for _, left, right in b]) for b in batches]
    types = (
        [np.array([[0, *kinds[left:right], 0] for _, left, right in b]) for b in batches]
        if wordpiece.case_types
        else None
    )
    for batch, logits in zip(batches, _logits(encoder, inputs, types), strict=True):
        for row, (start, left, _) in enumerate(batch):
            end = min(len(pieces), start + CORE)
            window = logits[row, 1 + start - left : 1 + end - left]
            best[start:end] = window.argmax(-1)
            scores[start:end] = window
    out = [tags[best[i]] if i >= 0 else "O" for i in first]
    out = _one_type_per_run(out, [scores[i] if i >= 0 else None for i in first], tags, words)
    # A run of spaces has no wordpiece, so the encoder never saw it: between two words
    # of one entity ("JOHN  SMITH") it belongs to the entity. A line break without a
    # piece (research-trf) does not: that encoder cannot tell a wrapped name from a
    # new line's first word. A model taught line breaks (open) tags its piece itself:
    # inside a wrapped name it is I-, anywhere else O.
    for i, word in enumerate(words):
        if first[i] < 0 and "\n" not in word and 0 < i < len(words) - 1:
            before, after = out[i - 1], out[i + 1]
            if before[:2] in ("B-", "I-") and after[:2] == "I-" and before[2:] == after[2:]:
                out[i] = after
    return out


def _name_word(word: str) -> bool:
    """A word that may be part of a name the encoder typed two ways: written as a
    name and no common word ("Kostadinova", not "Representatives")."""
    return is_written_as_name(word) and not is_common_word(word)


# Where the type changes inside a run, each word must give the run's type at least
# this probability: two entities that touch in text without punctuation ("at
# Soledad Keisha Okafor said") are two, each of its own type.
RUN_TYPE_SUPPORT = 0.1


def _one_type_per_run(
    out: list[str], logits: Sequence[np.ndarray | None], tags: Sequence[str], words: Sequence[str]
) -> list[str]:
    """Adjacent words of one line that the encoder tags as entities of different
    types, with nothing between them and name-shaped where the type changes
    ("Stefka|PER Kostadinova|LOC", "Aamir|ORG Sohail|PER"), are one entity: a token
    classifier types each word on its own and may change its mind inside a name.
    The run takes the type the encoder gives its words most probability for, summed
    over the words (B- and I- of that type), when every word gives that type at
    least RUN_TYPE_SUPPORT; otherwise they are two entities that touch and stay as
    they are. So do two entities of one type that touch ("B-PER B-PER") and a
    change at a connective ("Keith O'Neill of Norwich City"), an abbreviation
    ("U.S. Cardinal Bernardin") or a common word ("the House of Representatives
    Wahono")."""
    kinds = sorted({t[2:] for t in tags if t[:2] in ("B-", "I-")})
    index = {kind: [i for i, t in enumerate(tags) if t[2:] == kind] for kind in kinds}

    def flush(run: list[int]) -> None:
        if len({out[i][2:] for i in run}) < 2:
            return
        support: list[dict[str, float]] = []
        for i in run:
            row = logits[i]
            probs = np.exp(row - row.max())
            probs /= probs.sum()
            support.append({kind: float(probs[index[kind]].sum()) for kind in kinds})
        kind = max(kinds, key=lambda k: sum(s[k] for s in support))
        if min(s[kind] for s in support) < RUN_TYPE_SUPPORT:
            return
        for n, i in enumerate(run):
            out[i] = ("B-" if n == 0 else "I-") + kind

    run: list[int] = []
    for i, tag in enumerate(out):
        entity = tag != "O" and logits[i] is not None and not breaks_line(words[i])
        same = bool(run) and tag[2:] == out[run[-1]][2:]
        # The run goes on inside one entity (not into a second one of its type,
        # "B-PER B-PER"), or where the type changes between two name-shaped words
        # ("Stefka Kostadinova"), not at a connective ("Keith O'Neill of Norwich
        # City") nor an abbreviation ("U.S. Cardinal Bernardin").
        joins = same or (bool(run) and _name_word(words[run[-1]]) and _name_word(words[i]))
        if entity and run and joins and not (same and tag[:2] == "B-"):
            run.append(i)
            continue
        flush(run)
        run = [i] if entity else []
    flush(run)
    return out


def spans_of(tags: Sequence[str]) -> list[tuple[int, int, str]]:
    """(start, end, type) word spans of BIO tags; an I- that follows nothing of its
    type starts a span (a model's tags are not always well formed)."""
    spans: list[tuple[int, int, str]] = []
    start, kind = -1, ""
    for i, tag in enumerate([*tags, "O"]):
        prefix, _, label = tag.partition("-")
        if start >= 0 and not (prefix == "I" and label == kind):
            spans.append((start, i, kind))
            start = -1
        if prefix == "B" or (prefix == "I" and start < 0):
            start, kind = i, label
    return spans


class MiniLMNer:
    """The spaCy component: `doc.ents` from the encoder, with the spaCy NER's
    non-name entities kept where they do not overlap."""

    def __init__(self, nlp: Language, name: str) -> None:
        self.name = name
        self.encoder: Encoder | None = None
        self.wordpiece: WordPiece | None = None
        self.tags: list[str] = []
        self.settings: dict = {}
        self.saved: tuple[bytes | Path, dict, list[str]] | None = None
        self.source: Path | None = None

    def __call__(self, doc: Doc) -> Doc:
        if self.encoder is None or self.wordpiece is None:
            raise ValueError(
                f"{self.name}: no weights loaded (build the model: `make install` for open, "
                "`make research-model` for research-trf)"
            )
        from spacy.tokens import Span
        from spacy.util import filter_spans

        started: Future | None = doc.user_data.pop((STARTED, self.name), None)
        if started is not None:
            tags = started.result()
        else:
            tags = token_tags(
                self.encoder, self.wordpiece, self.tags, [t.text for t in doc], caseless=not carries_case(doc.text)
            )
        ours = []
        for start, end, kind in spans_of(tags):
            # No name starts or ends with punctuation: where spaCy splits what the
            # training data kept whole ("MR." → "MR", "."), the encoder may label
            # the dot as the name's first piece ("MR. JOHN SMITH").
            while start < end and (doc[start].is_punct or doc[start].is_space):
                start += 1
            while end > start and (doc[end - 1].is_punct or doc[end - 1].is_space):
                end -= 1
            start, end = _whole_words(doc, start, end)
            if start < end:
                ours.append(Span(doc, start, end, label=SPACY_LABEL.get(kind, kind)))
        # Widening to whole words may make two entities meet: the longer stays.
        ours = filter_spans(ours)
        # In a text without case every word is capitalised or none is, and the base
        # model's persons there are runs of capitals, not wider names. (Judged on
        # this Doc, a chunk of the document; the rules judge the whole text, which
        # a chunk's case seldom contradicts.)
        if self.settings.get("keep_base_persons") and carries_case(doc.text):
            ours = _widened_by_base_persons(doc, ours)
        taken = np.zeros(len(doc) + 1, dtype=bool)
        for span in ours:
            taken[span.start : span.end] = True
        # A model built with `keep_base_persons` also keeps the spaCy NER's PERSON
        # entities where the encoder found nothing at all: a second opinion on names,
        # so that the union of the two readers misses fewer (BENCHMARKS.md, "The
        # licence-clean default").
        # Such a person is marked (kb_id BASE_ONLY): the encoder disagreed, so the
        # filters ask it for a full name (filters.py, "second_opinion_one_word").
        keep = {"PERSON"} if self.settings.get("keep_base_persons") else set()
        kept = [
            e if e.label_ not in REPLACED else Span(doc, e.start, e.end, label=e.label_, kb_id=BASE_ONLY)
            for e in doc.ents
            if (e.label_ not in REPLACED or e.label_ in keep) and not taken[e.start : e.end].any()
        ]
        doc.ents = sorted([*ours, *kept], key=lambda s: s.start)
        return doc

    def start(self, doc: Doc) -> None:
        """Label `doc`'s tokens on the encoder thread; this component, when it runs
        on `doc`, takes the tags from there. The words are read here, before spaCy's
        NER writes to the Doc, so that the thread reads no Doc at all."""
        if self.encoder is None or self.wordpiece is None:
            return  # __call__ says what is missing
        words = [t.text for t in doc]
        job = _STARTED_DOCS.get().submit(
            token_tags, self.encoder, self.wordpiece, self.tags, words, caseless=not carries_case(doc.text)
        )
        doc.user_data[(STARTED, self.name)] = job

    def set_model(self, model: bytes | Path, settings: dict, vocab: Sequence[str]) -> None:
        """Load an encoder: its ONNX graph (training/onnx_export.py), its settings
        ({"tags": [...], "lowercase": bool, ...}) and its wordpiece vocabulary."""
        self.saved = (model, settings, list(vocab))
        self.settings = settings
        self.tags = list(settings["tags"])
        self.wordpiece = WordPiece(
            vocab,
            lowercase=bool(settings.get("lowercase", True)),
            line_break=settings.get("line_break_piece"),
            case_types=bool(settings.get("case_types")),
        )
        self.encoder = Encoder(model)

    def from_disk(self, path: str | Path, *, exclude: Sequence[str] = ()) -> MiniLMNer:
        directory = Path(path)
        settings = json.loads((directory / SETTINGS).read_text(encoding="utf-8"))
        vocab = [v for v in (directory / VOCAB).read_text(encoding="utf-8").split("\n") if v]
        self.set_model(directory / MODEL, settings, vocab)
        # The graph stays on disk, not in memory twice: a save copies the files.
        self.saved, self.source = None, directory
        return self

    def to_disk(self, path: str | Path, *, exclude: Sequence[str] = ()) -> None:
        directory = Path(path)
        directory.mkdir(parents=True, exist_ok=True)
        if self.saved is None:
            if self.source is None or not (self.source / MODEL).is_file():
                raise ValueError(f"{self.name}: no weights to save (the directory it was loaded from is gone)")
            if self.source.resolve() != directory.resolve():
                for name in (SETTINGS, VOCAB, MODEL):
                    shutil.copyfile(self.source / name, directory / name)
            return
        model, settings, vocab = self.saved
        (directory / SETTINGS).write_text(json.dumps(settings, indent=2) + "\n", encoding="utf-8")
        (directory / VOCAB).write_text("\n".join(vocab) + "\n", encoding="utf-8")
        (directory / MODEL).write_bytes(model.read_bytes() if isinstance(model, Path) else model)


def _widened_by_base_persons(doc: Doc, ours: list) -> list:
    """Our PERSON inside a longer PERSON of the base model's, whose other words are
    capitalised words of the same line, takes them: the base model read the whole
    name where the encoder read its last word ("Big Mike", a nickname the encoder
    cut to "Mike"), and a name word lost leaks. Never a stop word, nor a word that
    opens a sentence or a line ("Sorry Mike", "Okay Mike"), nor over another of our
    entities. `ours` is sorted (spaCy's filter_spans)."""
    from spacy.tokens import Span

    starts = [o.start for o in ours]
    wider = {}
    for e in doc.ents:
        if e.label_ != "PERSON" or "\n" in e.text:
            continue
        # Ours that start inside e: by bisection, a long text holds thousands.
        inside = ours[bisect_left(starts, e.start) : bisect_left(starts, e.end)]
        before = ours[bisect_left(starts, e.start) - 1] if bisect_left(starts, e.start) else None
        if len(inside) != 1 or (before is not None and before.end > e.start):
            continue  # none, or several of ours there ("Ruth Ann" of "Ruth Ann Smith")
        o = inside[0]
        if o.label_ != "PERSON" or o.end > e.end or len(e) == len(o):
            continue
        extra = [*doc[e.start : o.start], *doc[o.end : e.end]]
        opens = e.start == 0 or doc[e.start - 1].text in (".", "?", "!", ":") or "\n" in doc[e.start - 1].text
        if e.start < o.start and opens:
            continue
        if all(t.is_alpha and t.text[:1].isupper() and not t.is_stop for t in extra):
            wider[o.start, o.end] = Span(doc, e.start, e.end, label="PERSON")
    return [wider.get((o.start, o.end), o) for o in ours] if wider else ours


def _hyphen_joint(doc: Doc, i: int) -> bool:
    """doc[i] is a hyphen inside one written word ("Okonkwo-Adeyemi"): no space on
    either side, a letter on both."""
    return (
        0 < i < len(doc) - 1
        and doc[i].text in ("-", "‐")
        and not doc[i - 1].whitespace_
        and not doc[i].whitespace_
        and doc[i - 1].is_alpha
        and doc[i + 1].is_alpha
    )


def _whole_words(doc: Doc, start: int, end: int) -> tuple[int, int]:
    """An entity never ends or starts inside a hyphenated word: spaCy splits it at
    the hyphen, and an encoder that read "Bailey - Ross" in training may stop at the
    hyphen ("ngozi" of "ngozi okonkwo-adeyemi")."""
    while _hyphen_joint(doc, end):
        end += 2
    while _hyphen_joint(doc, start - 1):
        start -= 2
    return start, end


def register() -> None:
    """Make the factory known to spaCy before a pipeline that names it is loaded."""
    from spacy.language import Language

    if Language.has_factory(FACTORY):
        return

    @Language.factory(FACTORY)
    def make(nlp: Language, name: str) -> MiniLMNer:
        return MiniLMNer(nlp, name)
