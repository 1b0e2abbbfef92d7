"""Export writer: streams documents into a zip one at a time (memory stays flat in
the number of documents), asking the leak gate (`gate.py`) before anything of a
document is written. Pure Python over plain data.

Before the gate, every occurrence of an accepted name that no span covers (the
name identity of `pipelines.names` decides what is "the same name") is replaced
with that name's placeholder: "completed at export", and said so in the index.

Zip layout (<stem> is `NNNNN_document`, or with kept stems the pseudonymized stem):
  redacted/<stem>.txt                                the redacted text, nothing else changed
  index/<stem>_PSEUDONYMIZATION_INDEX.txt            LABEL | original ➡ replacement | count [| completed at export]
  index/<stem>.annotations.json                      seed 000's format, extended
  index/<stem>.review.txt                            inline review copy: [Michael Jordan | PERSON]
  index/Index.txt                                    original file name ➡ pseudonymized name
  training/conll.txt, training/doccano.jsonl, training/label_studio.jsonl,
  training/spacy/<id>.spacy                          training data (original text: sensitive)
  manifest.json                                      sha256 of every file, export settings
index/ and training/ hold original text and are as sensitive as the input; with
include_index=False neither is written. The index files hold one entry a line:
white space inside an entry (a name broken over a line) is one space there.
"""

import hashlib
import json
import tempfile
import zipfile
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, replace
from itertools import islice
from pathlib import PurePath
from typing import IO

from pipelines.candidate import Candidate
from pipelines.detection.filtering.words import name_words
from pipelines.export import formats
from pipelines.export import quasi as quasi_export
from pipelines.export.file_names import (
    pseudonymize_file_name,
    redacted_file_name,
    text_placeholders,
    words_left_as_written,
)
from pipelines.export.gate import GateDecision, LeakError, LeakGate, text_findings
from pipelines.export.leak_check import Leak, Regions, identity_of
from pipelines.names import NameIdentity
from pipelines.pseudonymize.counters import NumberedMap
from pipelines.pseudonymize.engine import PseudonymizationConfig, pseudonymize_document
from pipelines.pseudonymize.result import Pseudonymized, Replacement

__all__ = [
    "COMPLETED",
    "DocumentOutput",
    "ExportDocument",
    "ExportWriter",
    "LeakError",
    "complete",
    "render_document",
    "write_zip",
]


@dataclass(frozen=True)
class ExportDocument:
    id: int
    name: str
    text: str
    spans: list[Candidate]
    # Per span, extra fields for the annotations JSON (status, reviewer), by (start, end, label).
    span_meta: dict[tuple[int, int, str], dict] = field(default_factory=dict)
    # Quasi-identifier flags with the reviewers' decisions (issue 18, quasi.py).
    quasi: list[quasi_export.QuasiFlag] = field(default_factory=list)
    # Its corpus's language: the name identity (completion, the leak gate) reads its
    # words ("Maître" is no part of a French name, "la fontaine" not the name Fontaine).
    language: str = "en"


@dataclass(frozen=True)
class DocumentOutput:
    document: ExportDocument
    redacted_name: str
    redacted_text: str
    index_text: str
    annotations_json: str
    leaks: list[Leak]
    # Occurrences of accepted names the export replaced on its own (see `complete`).
    completed: list[Candidate] = field(default_factory=list)
    # The document's names, for the member-name and manifest checks.
    identity: NameIdentity | None = None
    first: dict[str, Candidate] = field(default_factory=dict)

    @property
    def stem(self) -> str:
        """The member names' stem: the redacted file name without ".txt"."""
        return self.redacted_name.removesuffix(".txt")


COMPLETED = "completed at export"
COMPLETION_SOURCE = "export"
# Value labels: their text is a value many things share ("19", "8:40"), not a
# name; the identity searches them only as long, specific forms (see names.py).
_NOT_COMPLETED = frozenset({"AGE", "HEIGHT", "TIME", "SPELLED_OUT_ITEM"})


def complete(text: str, spans: list[Candidate], identity: NameIdentity) -> list[Candidate]:
    """Every occurrence of an accepted name that no span covers, as a span of the
    name's label (source "export", rule "completed at export"): what the export
    replaces on its own before anything is written."""
    taken = Regions([(s.start, s.end) for s in spans])
    return [
        Candidate(o.start, o.end, o.label, text[o.start : o.end], (COMPLETION_SOURCE,), 1.0, COMPLETED)
        for o in identity.find(text, taken.overlaps, taken.end_at)
    ]


@dataclass(frozen=True)
class _Plan:
    """What replaces what in one document: the spans the pseudonymizer replaces
    (accepted and completed), the completed ones, and the quasi-identifier flags'
    own replacements and records."""

    spans: list[Candidate]
    completed: list[Candidate]
    applied: quasi_export.Applied


def _plan(doc: ExportDocument, config: PseudonymizationConfig, identity: NameIdentity, complete_names: bool) -> _Plan:
    completed = complete(doc.text, list(doc.spans), identity) if identity and complete_names else []
    spans = sorted([*doc.spans, *completed], key=lambda s: (s.start, s.end))
    # Masked and generalised quasi-identifiers no replacing span contains are replaced
    # too, and the spans overlapping them give way (quasi.apply); every flag's
    # decision goes to the index (without its text).
    taken = [quasi_export.Taken(s.start, s.end, config.strategy_for(s.label) != "keep") for s in spans]
    applied = quasi_export.apply(doc.text, doc.quasi, taken)
    if applied.dropped:
        spans = [s for i, s in enumerate(spans) if i not in applied.dropped]
        kept = {id(s) for s in spans}
        completed = [c for c in completed if id(c) in kept]
    return _Plan(spans, completed, applied)


def _index_text(replacements: list[Replacement], completed: list[Candidate], records: list[dict]) -> str:
    """`LABEL | original ➡ replacement | count [| completed at export]`, one entry
    a line: a line break inside an original or a replacement ("Sheila⏎Whirley")
    is one space here, and entries that then read alike are counted together."""
    done = {(c.start, c.end) for c in completed}
    counts: dict[tuple[str, str, str, bool], int] = {}
    for r in replacements:
        key = (r.label, formats.one_line(r.original), formats.one_line(r.replacement), (r.start, r.end) in done)
        counts[key] = counts.get(key, 0) + 1
    lines = [
        f"{label} | {original} ➡ {replacement} | {n}" + (f" | {COMPLETED}" if was_completed else "")
        for (label, original, replacement, was_completed), n in counts.items()
    ] + quasi_export.index_lines(records)
    return "\n".join(lines) + ("\n" if lines else "")


# Annotations serialized per call: one encoder per item would cost more than the
# encoding, all of them at once is a long document's memory peak.
_JSON_BATCH = 1000


def _indented_items(items: Iterable[dict], depth: int) -> Iterator[str]:
    """The items of a JSON list as `json.dumps(..., indent=2)` writes them at
    `depth` levels, a batch at a time (joined with ",\n")."""
    items = iter(items)
    while batch := list(islice(items, _JSON_BATCH)):
        # "[\n  {...},\n  {...}\n]": JSON strings hold no raw line break, so
        # indenting every line nests the items.
        text = json.dumps(batch, ensure_ascii=False, indent=2)[2:-2]
        yield text.replace("\n", "\n" + "  " * (depth - 1)) if depth > 1 else text


def _annotations_json(doc: ExportDocument, redacted_name: str, result: Pseudonymized, plan: _Plan) -> str:
    """The annotations JSON (`json.dumps(..., indent=2)` of seed 000's format),
    its annotations made and written a batch at a time: a long document has a
    hundred thousand of them."""
    meta = {(c.start, c.end, c.label): {"status": COMPLETED} for c in plan.completed}
    items = (
        {
            "start": r.start,
            "end": r.end,
            "label": r.label,
            "preview": r.original,
            "source": ",".join(s.sources),
            "replacement": r.replacement,
            "strategy": r.strategy,
            **doc.span_meta.get((r.start, r.end, r.label), meta.get((r.start, r.end, r.label), {})),
        }
        for r, s in zip(result.replacements, plan.spans, strict=True)
    )
    body = ",\n".join("  " + text for text in _indented_items(items, 2))
    head = json.dumps({"file": doc.name, "redacted_file": redacted_name}, ensure_ascii=False, indent=2)[:-2]
    annotations = f'{head},\n  "annotations": ' + (f"[\n{body}\n  ]" if body else "[]")
    if plan.applied.records:
        records = json.dumps(plan.applied.records, ensure_ascii=False, indent=2).replace("\n", "\n  ")
        annotations += f',\n  "quasi_identifiers": {records}'
    return annotations + "\n}"


def _kept_stem(
    doc: ExportDocument,
    result: Pseudonymized,
    replaced: list[Replacement],
    identity: NameIdentity,
    numbers: NumberedMap,
    config: PseudonymizationConfig,
) -> str:
    """The document's file-name stem, pseudonymized like its text."""
    placeholders = text_placeholders(replaced, result.names, config.person_numbering)
    left = words_left_as_written(doc.text, replaced)
    stem = PurePath(doc.name).stem
    return pseudonymize_file_name(stem, placeholders, identity, numbers, config.person_numbering, left)


def render_document(
    doc: ExportDocument,
    config: PseudonymizationConfig | None = None,
    numbers: NumberedMap | None = None,
    *,
    keep_stem: bool = False,
    complete_names: bool = True,
) -> DocumentOutput:
    """The document pseudonymized: accepted spans and every other occurrence of an
    accepted name (completed at export), the leak gate's findings in its final
    text. `keep_stem`: the redacted file keeps its name's stem, pseudonymized with
    the document's own map; by default it is `NNNNN_document.txt`.
    `complete_names` False leaves the remaining occurrences to the leak gate (a
    strict export: the report lists them and a reviewer redacts them as spans)."""
    config = config or PseudonymizationConfig()
    numbers = numbers if numbers is not None else NumberedMap()
    hidden = [s for s in doc.spans if config.strategy_for(s.label) != "keep"]
    identity, first = identity_of((s for s in hidden if s.label not in _NOT_COMPLETED), name_words(doc.language))
    plan = _plan(doc, config, identity, complete_names)
    result = pseudonymize_document(doc.text, plan.spans, config, numbers, document_key=str(doc.id))
    replaced = sorted([*result.replacements, *plan.applied.replacements], key=lambda r: r.start)
    output_text = quasi_export.rebuild(doc.text, replaced) if plan.applied.replacements else result.text
    stem = _kept_stem(doc, result, replaced, identity, numbers, config) if keep_stem else None
    redacted_name = redacted_file_name(doc.id, stem)
    return DocumentOutput(
        replace(doc, spans=plan.spans),
        redacted_name,
        output_text,
        _index_text(result.replacements, plan.completed, plan.applied.records),
        _annotations_json(doc, redacted_name, result, plan),
        text_findings(output_text, replaced, identity, first),
        plan.completed,
        identity,
        first,
    )


_SPOOLED = ("training/conll.txt", "training/doccano.jsonl", "training/label_studio.jsonl")


class ExportWriter:
    """Adds documents to a zip one by one, each only when the leak gate allows
    it. Once any document leaks, nothing more is written and `close()` raises
    LeakError with the gate's decision. A document whose files cannot be made
    adds nothing (its files are all made before any is written)."""

    def __init__(self, target: IO[bytes], settings: dict, include_index: bool = True) -> None:
        self.archive = zipfile.ZipFile(target, "w", compression=zipfile.ZIP_DEFLATED)
        self.include_index = include_index
        self.manifest: dict = {"settings": settings, "documents": [], "files": {}}
        self.gate = LeakGate(json.dumps(settings, ensure_ascii=False))
        self.names: list[str] = []
        # JSONL/CoNLL collections grow with the batch: they go to temporary files,
        # not memory, and into the zip at the end.
        self._spool = {name: tempfile.TemporaryFile("w+b") for name in _SPOOLED}  # noqa: SIM115 -- closed in close()

    def _add(self, path: str, data: bytes) -> None:
        self.archive.writestr(path, data)
        self.manifest["files"][path] = hashlib.sha256(data).hexdigest()

    def _member_names(self, output: DocumentOutput) -> list[str]:
        stem = output.stem
        names = [f"redacted/{output.redacted_name}"]
        if self.include_index:
            names += [
                f"index/{stem}_PSEUDONYMIZATION_INDEX.txt",
                f"index/{stem}.annotations.json",
                f"index/{stem}.review.txt",
                f"training/spacy/{output.document.id:05d}.spacy",
            ]
        return names

    def _files(self, output: DocumentOutput, members: list[str]) -> tuple[dict[str, bytes], dict[str, bytes]]:
        """The document's members and its lines of the spooled collections, all
        made before any is written."""
        doc = output.document
        files = {members[0]: output.redacted_text.encode()}
        if not self.include_index:
            return files, {}
        files[members[1]] = output.index_text.encode()
        files[members[2]] = output.annotations_json.encode()
        files[members[3]] = formats.inline_review_copy(doc.text, doc.spans).encode()
        key = str(doc.id)
        tokens = formats.training_doc(doc.text, doc.spans)
        files[members[4]] = formats.docbin_bytes(tokens)
        conll = formats.conll(tokens, key).encode()
        del tokens  # a long document's Doc is large: gone before the JSON lines are made
        lines = {
            "training/conll.txt": conll,
            "training/doccano.jsonl": (formats.doccano_line(doc.text, doc.spans, key) + "\n").encode(),
            "training/label_studio.jsonl": (formats.label_studio_line(doc.text, doc.spans, key) + "\n").encode(),
        }
        return files, lines

    def add(self, output: DocumentOutput) -> GateDecision:
        """Write the document if the gate allows it; the gate's decision on it."""
        doc = output.document
        members = self._member_names(output)
        decision = self.gate.check(doc.id, output.leaks, members, output.identity, output.first)
        if not decision.allowed:
            return decision
        files, lines = self._files(output, members)
        for path, data in files.items():
            self._add(path, data)
        for path, data in lines.items():
            self._spool[path].write(data)
        self.manifest["documents"].append({"id": doc.id, "redacted": members[0]})
        self.names.append(f"{formats.one_line(doc.name)} ➡ {output.redacted_name}")
        return decision

    def skip(self, document_id: int, reason: str) -> None:
        """Record a document that could not be exported: the manifest names it
        (by id, with `reason`, which must hold no text of the document)."""
        self.manifest.setdefault("failed_documents", []).append({"id": document_id, "reason": reason})

    def close(self) -> dict:
        try:
            decision = self.gate.decision()
            if not decision.allowed:
                raise LeakError(decision)
            if self.include_index:
                self._add("index/Index.txt", ("\n".join(self.names) + "\n").encode())
                for path, handle in self._spool.items():
                    self._copy_spooled(path, handle)
            self.archive.writestr("manifest.json", json.dumps(self.manifest, indent=2))
            return self.manifest
        finally:
            self.archive.close()
            for handle in self._spool.values():
                handle.close()

    def _copy_spooled(self, path: str, handle: IO[bytes]) -> None:
        handle.seek(0)
        digest = hashlib.sha256()
        with self.archive.open(path, "w") as member:
            while chunk := handle.read(1 << 20):
                digest.update(chunk)
                member.write(chunk)
        self.manifest["files"][path] = digest.hexdigest()


def write_zip(target: IO[bytes], outputs, settings: dict, include_index: bool = True) -> dict:
    writer = ExportWriter(target, settings, include_index)
    for output in outputs:
        writer.add(output)
    return writer.close()
