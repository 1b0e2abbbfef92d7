"""Export writers: per document the redacted text, its index file and the
annotations JSON; per batch a manifest. Pure Python over plain data.

Zip layout:
  redacted/<pseudonymized name>.txt         the redacted text, nothing else changed
  index/<original name>_PSEUDONYMIZATION_INDEX.txt   LABEL | original ➡ replacement
  index/<original name>.annotations.json    seed 000's format, extended
  index/Index.txt                           original file name ➡ pseudonymized name
  manifest.json                             sha256 of every file, export settings
The index/ folder holds original text and is as sensitive as the input.
"""

import hashlib
import json
import re
import zipfile
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import PurePath
from typing import IO

from pipelines.detection.candidate import Candidate
from pipelines.export.leak_check import Leak, find_leaks
from pipelines.pseudonymize.placeholder import pseudonymize


@dataclass(frozen=True)
class ExportDocument:
    id: int
    name: str
    text: str
    spans: list[Candidate]
    # Per span, extra fields for annotations JSON (status, reviewer), by (start, end, label).
    span_meta: dict[tuple[int, int, str], dict] = field(default_factory=dict)


@dataclass(frozen=True)
class DocumentOutput:
    document_id: int
    original_name: str
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


_NAME_TOKEN = re.compile(r"[A-Za-z0-9]+")


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


def render_document(doc: ExportDocument) -> DocumentOutput:
    result = pseudonymize(doc.text, doc.spans)
    stem = PurePath(doc.name).stem
    redacted_name = f"{doc.id:05d}_{pseudonymize_file_name(stem, result.names)}.txt"
    index_lines = [f"{e.label} | {e.original} ➡ {e.replacement}" for e in result.index()]
    annotations = {
        "file": doc.name,
        "redacted_file": redacted_name,
        "annotations": [
            {
                "start": r.start,
                "end": r.end,
                "label": r.label,
                "preview": r.original,
                "source": ",".join(span.sources),
                "replacement": r.replacement,
                **doc.span_meta.get((r.start, r.end, r.label), {}),
            }
            for r, span in zip(result.replacements, sorted(doc.spans, key=lambda s: (s.start, s.end)), strict=True)
        ],
    }
    leaks = find_leaks(result.text, doc.spans) + find_leaks(redacted_name, doc.spans)
    return DocumentOutput(
        doc.id,
        doc.name,
        redacted_name,
        result.text,
        "\n".join(index_lines) + ("\n" if index_lines else ""),
        json.dumps(annotations, ensure_ascii=False, indent=2),
        leaks,
    )


def write_zip(target: IO[bytes], outputs: Iterable[DocumentOutput], settings: dict) -> dict:
    """Write every output into a zip; returns the manifest. Refuses leaking outputs
    before writing anything, so a failed batch leaves no partial redacted file."""
    outputs = list(outputs)
    leaks = [(o.document_id, leak) for o in outputs for leak in o.leaks]
    if leaks:
        raise LeakError(leaks)
    manifest: dict = {"settings": settings, "documents": [], "files": {}}
    with zipfile.ZipFile(target, "w", compression=zipfile.ZIP_DEFLATED) as archive:

        def add(path: str, content: str) -> None:
            data = content.encode("utf-8")
            archive.writestr(path, data)
            manifest["files"][path] = hashlib.sha256(data).hexdigest()

        index_of_names = []
        for o in outputs:
            original_stem = f"{o.document_id:05d}_{PurePath(o.original_name).stem}"
            add(f"redacted/{o.redacted_name}", o.redacted_text)
            add(f"index/{original_stem}_PSEUDONYMIZATION_INDEX.txt", o.index_text)
            add(f"index/{original_stem}.annotations.json", o.annotations_json)
            index_of_names.append(f"{o.original_name} ➡ {o.redacted_name}")
            manifest["documents"].append({"id": o.document_id, "redacted": f"redacted/{o.redacted_name}"})
        add("index/Index.txt", "\n".join(index_of_names) + "\n")
        archive.writestr("manifest.json", json.dumps(manifest, indent=2))
    return manifest
