"""Export writer: streams documents into a zip one at a time (memory stays flat in
the number of documents), with the leak gate before anything of a document is
written. Pure Python over plain data.

Before the gate, every occurrence of an accepted name that no span covers (the
name identity of `pipelines.names` decides what is "the same name") is replaced
with that name's placeholder: "completed at export", and said so in the index.
The gate then reads the final text, every member name and the manifest.

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
include_index=False neither is written.
"""

import hashlib
import json
import re
import tempfile
import zipfile
from bisect import bisect_right
from dataclasses import dataclass, field, replace
from pathlib import PurePath
from typing import IO

from pipelines.candidate import Candidate
from pipelines.export import formats
from pipelines.export import quasi as quasi_export
from pipelines.export.leak_check import MANIFEST, MEMBER, TEXT, Leak, _Regions, identity_of, residuals
from pipelines.gazetteers import is_common_word, is_known_name
from pipelines.names import NameIdentity
from pipelines.pseudonymize.counters import NumberedMap
from pipelines.pseudonymize.engine import PseudonymizationConfig, pseudonymize_document
from pipelines.pseudonymize.result import Replacement


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


class LeakError(Exception):
    def __init__(self, leaks: list[tuple[int, Leak]]) -> None:
        self.leaks = leaks
        super().__init__(f"{len(leaks)} occurrence(s) of accepted names still present in the output")

    def report(self) -> list[dict]:
        """Per residual: document, label, offsets in the original text, where it
        was found (the text, a member name, the manifest). Never the text itself."""
        return [
            {
                "document_id": doc_id,
                "label": leak.label,
                "span_start": leak.span_start,
                "span_end": leak.span_end,
                "output_offset": leak.output_offset,
                "where": leak.where,
            }
            for doc_id, leak in self.leaks
        ]


COMPLETED = "completed at export"
COMPLETION_SOURCE = "export"
# The neutral stem of a redacted file's name: nothing of the original name.
NEUTRAL_STEM = "document"
# Value labels: their text is a value many things share ("19", "8:40"), not a
# name; the identity searches them only as long, specific forms (see names.py).
_NOT_COMPLETED = frozenset({"AGE", "HEIGHT", "TIME", "SPELLED_OUT_ITEM"})


def complete(text: str, spans: list[Candidate], identity: NameIdentity) -> list[Candidate]:
    """Every occurrence of an accepted name that no span covers, as a span of the
    name's label (source "export", rule "completed at export"): what the export
    replaces on its own before anything is written."""
    taken = _Regions([(s.start, s.end) for s in spans])
    return [
        Candidate(o.start, o.end, o.label, text[o.start : o.end], (COMPLETION_SOURCE,), 1.0, COMPLETED)
        for o in identity.find(text, taken.overlaps, taken.end_at)
    ]


_STEM_DATE = re.compile(r"(?<!\d)(?:\d{4}[-_.]\d{1,2}[-_.]\d{1,2}|\d{1,2}[-_.]\d{1,2}[-_.]\d{2,4})(?!\d)")
_YEAR = re.compile(r"(?:19|20)\d\d")
# A file name's chunks: what lies between "_", ".", spaces and placeholders.
_CHUNK = re.compile(r"\[[A-Z_0-9]+\]|[^\s_.\[\]]+")


def _camel_words(word: str) -> list[str]:
    """ "JohnSmith" → John, Smith; "OBrien" stays whole; "NYPDReport" → NYPD, Report."""
    parts, current = [], ""
    for i, char in enumerate(word):
        prev = word[i - 1] if i else ""
        nxt = word[i + 1] if i + 1 < len(word) else ""
        if current and char.isupper() and (prev.islower() or (prev.isupper() and nxt.islower())):
            parts.append(current)
            current = ""
        current += char
    return [*parts, current] if current else parts


def pseudonymize_file_name(
    stem: str,
    names: dict[str, str],
    identity: NameIdentity | None = None,
    numbers: NumberedMap | None = None,
    person_numbering: str = "part",
) -> str:
    """A file name's stem, pseudonymized with the document's own map. Its words
    (split on "-", "_", ".", camelCase) that are the document's names take their
    placeholders ("John" → `[PERSON_1]`); any other word that the name lists know,
    that the name identity names, or that is no common English word is taken for
    a name too (a name that occurs only in the file name) and numbered in the same
    map. Dates are `[DATE]`, years `[YEAR]`, other runs of 3+ digits (alone or in
    an ID such as "K48213") `[ID]`. Only common English words ("parole",
    "hearing") stay."""
    numbers = numbers if numbers is not None else NumberedMap()

    def person(key: str) -> str:
        if key in names:
            return names[key]
        return "[PERSON]" if person_numbering == "entity" else numbers.placeholder("PERSON", key)

    def is_name(word: str) -> bool:
        if identity is not None and identity.is_name(word, 0, len(word)):
            return True
        return is_known_name(word) or not is_common_word(word)

    def piece(text: str) -> str:
        if text.lower() in names:
            return names[text.lower()]
        digits = sum(c.isdigit() for c in text)
        if text.isdigit():
            return "[YEAR]" if _YEAR.fullmatch(text) else "[ID]" if len(text) >= 3 else text
        if digits >= 3:
            return "[ID]"
        return "".join(person(w.lower()) if is_name(w) else w for w in _camel_words(text))

    def chunk(text: str) -> str:
        if text.startswith("["):
            return text
        if text.lower() in names:
            return names[text.lower()]
        return "".join(p if p in ("-", "") else piece(p) for p in re.split(r"(-)", text))

    stem = _STEM_DATE.sub("[DATE]", stem)
    return _CHUNK.sub(lambda m: chunk(m.group()), stem)


def redacted_file_name(doc_id: int, stem: str | None = None) -> str:
    """`00007_document.txt`, or with a pseudonymized stem `00007_[PERSON_2]_hearing.txt`."""
    return f"{doc_id:05d}_{stem or NEUTRAL_STEM}.txt"


def _generated_regions(replacements: list[Replacement]) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """The output regions each replacement wrote, and (output start, shift) pairs
    that map unchanged output text back onto the original."""
    regions, shifts, delta = [], [(0, 0)], 0
    for r in sorted(replacements, key=lambda r: r.start):
        out_start = r.start + delta
        regions.append((out_start, out_start + len(r.replacement)))
        delta += len(r.replacement) - (r.end - r.start)
        shifts.append((out_start + len(r.replacement), delta))
    return regions, shifts


def _original_offset(shifts: list[tuple[int, int]], output_offset: int) -> int:
    i = bisect_right([s for s, _ in shifts], output_offset) - 1
    return output_offset - shifts[max(i, 0)][1]


def render_document(
    doc: ExportDocument,
    config: PseudonymizationConfig | None = None,
    numbers: NumberedMap | None = None,
    *,
    keep_stem: bool = False,
    complete_names: bool = True,
) -> DocumentOutput:
    """The document pseudonymized: accepted spans and every other occurrence of an
    accepted name (completed at export), the leak gate run on its final text.
    `keep_stem`: the redacted file keeps its name's stem, pseudonymized with the
    document's own map; by default it is `NNNNN_document.txt`. `complete_names`
    False leaves the remaining occurrences to the leak gate (a strict export: the
    report lists them and a reviewer redacts them as spans)."""
    config = config or PseudonymizationConfig()
    numbers = numbers if numbers is not None else NumberedMap()
    hidden = [s for s in doc.spans if config.strategy_for(s.label) != "keep"]
    identity, first = identity_of(s for s in hidden if s.label not in _NOT_COMPLETED)
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
    result = pseudonymize_document(doc.text, spans, config, numbers, document_key=str(doc.id))
    replaced = sorted([*result.replacements, *applied.replacements], key=lambda r: r.start)
    output_text = quasi_export.rebuild(doc.text, replaced) if applied.replacements else result.text
    stem = None
    if keep_stem:
        stem = pseudonymize_file_name(PurePath(doc.name).stem, result.names, identity, numbers, config.person_numbering)
    redacted_name = redacted_file_name(doc.id, stem)
    done = {(c.start, c.end) for c in completed}
    counts: dict[tuple[str, str, str, bool], int] = {}
    for r in result.replacements:
        key = (r.label, r.original, r.replacement, (r.start, r.end) in done)
        counts[key] = counts.get(key, 0) + 1
    index_lines = [
        f"{label} | {original} ➡ {replacement} | {n}" + (f" | {COMPLETED}" if was_completed else "")
        for (label, original, replacement, was_completed), n in counts.items()
    ] + quasi_export.index_lines(applied.records)
    meta = {(c.start, c.end, c.label): {"status": COMPLETED} for c in completed}
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
                **doc.span_meta.get((r.start, r.end, r.label), meta.get((r.start, r.end, r.label), {})),
            }
            for r, s in zip(result.replacements, spans, strict=True)
        ],
    }
    if applied.records:
        annotations["quasi_identifiers"] = applied.records
    # Everything the export wrote itself (placeholders, surrogates) is no leak;
    # any accepted name left in the rest of the text is.
    regions, shifts = _generated_regions(replaced)
    # A kept span's text is the original: a name of another span inside it
    # ("Roe" of a kept "Roe Holdings") is a leak, so only the rest is generated.
    # A reviewer's generalisation of a quasi-identifier is checked like the text.
    regions = [g for g, r in zip(regions, replaced, strict=True) if r.strategy not in ("keep", "quasi_generalise")]
    leaks = []
    for leak in residuals(output_text, identity, first, regions):
        start = _original_offset(shifts, leak.output_offset)
        length = _occurrence_length(output_text, identity, leak.output_offset)
        leaks.append(Leak(leak.label, start, start + length, leak.output_offset, TEXT))
    return DocumentOutput(
        replace(doc, spans=spans),
        redacted_name,
        output_text,
        "\n".join(index_lines) + ("\n" if index_lines else ""),
        json.dumps(annotations, ensure_ascii=False, indent=2),
        leaks,
        completed,
        identity,
        first,
    )


def _occurrence_length(output: str, identity: NameIdentity, offset: int) -> int:
    found = identity.find(output[offset:])
    return found[0].end - found[0].start if found and found[0].start == 0 else 0


class ExportWriter:
    """Adds documents to a zip one by one. Once any document leaks, nothing more is
    written and `close()` raises LeakError with every leak found."""

    def __init__(self, target: IO[bytes], settings: dict, include_index: bool = True) -> None:
        self.archive = zipfile.ZipFile(target, "w", compression=zipfile.ZIP_DEFLATED)
        self.include_index = include_index
        self.manifest: dict = {"settings": settings, "documents": [], "files": {}}
        # The manifest holds the settings, the member names and digests: the
        # member names are checked per document, the settings once per document.
        self._settings_json = json.dumps(settings, ensure_ascii=False)
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

    def _gate(self, output: DocumentOutput, members: list[str]) -> list[Leak]:
        """What of the document's names survives in its text (found by
        `render_document`), its member names, or the manifest's settings."""
        leaks = list(output.leaks)
        if output.identity:
            for member in members:
                leaks += residuals(member, output.identity, output.first, where=MEMBER)
            leaks += residuals(self._settings_json, output.identity, output.first, where=MANIFEST)
        return leaks

    def add(self, output: DocumentOutput) -> None:
        doc = output.document
        members = self._member_names(output)
        leaks = self._gate(output, members)
        if leaks:
            self.leaks.extend((doc.id, leak) for leak in leaks)
        if self.leaks:
            return
        self._add(members[0], output.redacted_text.encode())
        self.manifest["documents"].append({"id": doc.id, "redacted": members[0]})
        self.names.append(f"{doc.name} ➡ {output.redacted_name}")
        if not self.include_index:
            return
        self._add(members[1], output.index_text.encode())
        self._add(members[2], output.annotations_json.encode())
        self._add(members[3], formats.inline_review_copy(doc.text, doc.spans).encode())
        tokens = formats.training_doc(doc.text, doc.spans)
        self._add(members[4], formats.docbin_bytes(tokens))
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
