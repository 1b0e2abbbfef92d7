"""Export writer: streams documents into a zip one at a time (memory stays flat in
the number of documents), with the leak gate before anything of a document is
written. Pure Python over plain data.

Zip layout:
  redacted/<pseudonymized name>.txt                  the redacted text, nothing else changed
  index/<id>_<name>_PSEUDONYMIZATION_INDEX.txt       LABEL | original ➡ replacement | count
  index/<id>_<name>.annotations.json                 seed 000's format, extended
  index/<id>_<name>.review.txt                       inline review copy: [Michael Jordan | PERSON]
  index/Index.txt                                    original file name ➡ pseudonymized name
  training/conll.txt, training/doccano.jsonl, training/label_studio.jsonl,
  training/spacy/<id>.spacy                          training data (original text: sensitive)
  manifest.json                                      sha256 of every file, export settings
index/ and training/ hold original text and are as sensitive as the input; with
include_index=False neither is written.
"""

import hashlib
import json
import re
import tempfile
import zipfile
from dataclasses import dataclass, field
from pathlib import PurePath
from typing import IO

from pipelines.candidate import Candidate
from pipelines.export import formats
from pipelines.export.leak_check import Leak, find_leaks
from pipelines.pseudonymize.counters import NumberedMap
from pipelines.pseudonymize.engine import PseudonymizationConfig, pseudonymize_document


@dataclass(frozen=True)
class ExportDocument:
    id: int
    name: str
    text: str
    spans: list[Candidate]
    # Per span, extra fields for the annotations JSON (status, reviewer), by (start, end, label).
    span_meta: dict[tuple[int, int, str], dict] = field(default_factory=dict)


@dataclass(frozen=True)
class DocumentOutput:
    document: ExportDocument
    redacted_name: str
    redacted_text: str
    index_text: str
    annotations_json: str
    leaks: list[Leak]


class LeakError(Exception):
    def __init__(self, leaks: list[tuple[int, Leak]]) -> None:
        self.leaks = leaks
        super().__init__(f"{len(leaks)} accepted span(s) still present in the output")

    def report(self) -> list[dict]:
        return [
            {
                "document_id": doc_id,
                "label": leak.label,
                "span_start": leak.span_start,
                "span_end": leak.span_end,
                "output_offset": leak.output_offset,
            }
            for doc_id, leak in self.leaks
        ]


# Letters of any script, with inner apostrophes ("O'Brien", "José"); "_" separates.
_NAME_TOKEN = re.compile(r"[^\W_]+(?:['’-][^\W_]+)*")


def pseudonymize_file_name(stem: str, names: dict[str, str]) -> str:
    """Name parts → their placeholder, long digit runs → [ID], dates → [DATE]."""
    stem = re.sub(r"\d{1,4}[-_.]\d{1,2}[-_.]\d{1,4}", "[DATE]", stem)

    def token(match: re.Match[str]) -> str:
        word = match.group()
        if word.lower() in names:
            return names[word.lower()]
        if re.search(r"\d{4,}", word):
            return "[ID]"
        return word

    return _NAME_TOKEN.sub(token, stem)


def render_document(
    doc: ExportDocument, config: PseudonymizationConfig | None = None, numbers: NumberedMap | None = None
) -> DocumentOutput:
    config = config or PseudonymizationConfig()
    result = pseudonymize_document(doc.text, doc.spans, config, numbers, document_key=str(doc.id))
    redacted_name = f"{doc.id:05d}_{pseudonymize_file_name(PurePath(doc.name).stem, result.names)}.txt"
    if find_leaks(re.sub(r"[_\W]+", " ", redacted_name), doc.spans):
        # A name part the pseudonymizer could not isolate: fall back to the id alone.
        redacted_name = f"{doc.id:05d}.txt"
    index_lines = [f"{e.label} | {e.original} ➡ {e.replacement} | {e.count}" for e in result.index()]
    annotations = {
        "file": doc.name,
        "redacted_file": redacted_name,
        "annotations": [
            {
                "start": r.start,
                "end": r.end,
                "label": r.label,
                "preview": r.original,
                "source": ",".join(s.sources),
                "replacement": r.replacement,
                "strategy": r.strategy,
                **doc.span_meta.get((r.start, r.end, r.label), {}),
            }
            for r, s in zip(result.replacements, sorted(doc.spans, key=lambda s: (s.start, s.end)), strict=True)
        ],
    }
    # Kept spans are meant to stay; everything else must be gone from text and name.
    checked = [
        s
        for s, r in zip(sorted(doc.spans, key=lambda s: (s.start, s.end)), result.replacements, strict=True)
        if r.strategy != "keep"
    ]
    leaks = find_leaks(result.text, checked)
    return DocumentOutput(
        doc,
        redacted_name,
        result.text,
        "\n".join(index_lines) + ("\n" if index_lines else ""),
        json.dumps(annotations, ensure_ascii=False, indent=2),
        leaks,
    )


class ExportWriter:
    """Adds documents to a zip one by one. Once any document leaks, nothing more is
    written and `close()` raises LeakError with every leak found."""

    def __init__(self, target: IO[bytes], settings: dict, include_index: bool = True) -> None:
        self.archive = zipfile.ZipFile(target, "w", compression=zipfile.ZIP_DEFLATED)
        self.include_index = include_index
        self.manifest: dict = {"settings": settings, "documents": [], "files": {}}
        self.leaks: list[tuple[int, Leak]] = []
        self.names: list[str] = []
        # JSONL/CoNLL collections grow with the batch: they go to temporary files,
        # not memory, and into the zip at the end.
        self._spool = {
            name: tempfile.TemporaryFile("w+b")  # noqa: SIM115 -- closed in close()
            for name in ("training/conll.txt", "training/doccano.jsonl", "training/label_studio.jsonl")
        }

    def _add(self, path: str, data: bytes) -> None:
        self.archive.writestr(path, data)
        self.manifest["files"][path] = hashlib.sha256(data).hexdigest()

    def add(self, output: DocumentOutput) -> None:
        doc = output.document
        if output.leaks:
            self.leaks.extend((doc.id, leak) for leak in output.leaks)
        if self.leaks:
            return
        stem = f"{doc.id:05d}_{PurePath(doc.name).stem}"
        self._add(f"redacted/{output.redacted_name}", output.redacted_text.encode())
        self.manifest["documents"].append({"id": doc.id, "redacted": f"redacted/{output.redacted_name}"})
        self.names.append(f"{doc.name} ➡ {output.redacted_name}")
        if not self.include_index:
            return
        self._add(f"index/{stem}_PSEUDONYMIZATION_INDEX.txt", output.index_text.encode())
        self._add(f"index/{stem}.annotations.json", output.annotations_json.encode())
        self._add(f"index/{stem}.review.txt", formats.inline_review_copy(doc.text, doc.spans).encode())
        tokens = formats.training_doc(doc.text, doc.spans)
        self._add(f"training/spacy/{doc.id:05d}.spacy", formats.docbin_bytes(tokens))
        key = str(doc.id)
        self._spool["training/conll.txt"].write(formats.conll(tokens, key).encode())
        self._spool["training/doccano.jsonl"].write((formats.doccano_line(doc.text, doc.spans, key) + "\n").encode())
        self._spool["training/label_studio.jsonl"].write(
            (formats.label_studio_line(doc.text, doc.spans, key) + "\n").encode()
        )

    def close(self) -> dict:
        try:
            if self.leaks:
                raise LeakError(self.leaks)
            if self.include_index:
                self._add("index/Index.txt", ("\n".join(self.names) + "\n").encode())
                for path, handle in self._spool.items():
                    handle.seek(0)
                    digest = hashlib.sha256()
                    with self.archive.open(path, "w") as member:
                        while chunk := handle.read(1 << 20):
                            digest.update(chunk)
                            member.write(chunk)
                    self.manifest["files"][path] = digest.hexdigest()
            self.archive.writestr("manifest.json", json.dumps(self.manifest, indent=2))
            return self.manifest
        finally:
            self.archive.close()
            for handle in self._spool.values():
                handle.close()


def write_zip(target: IO[bytes], outputs, settings: dict, include_index: bool = True) -> dict:
    writer = ExportWriter(target, settings, include_index)
    for output in outputs:
        writer.add(output)
    return writer.close()
