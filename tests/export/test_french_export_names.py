"""The export's completion and leak gate read the document's language's name words
(issue 30): in a French document "Maître" is no part of a lawyer's name and "la
fontaine" is not the name Fontaine; the surname in capitals still is."""

from pipelines.candidate import Candidate
from pipelines.export.writer import ExportDocument, render_document

TEXT = (
    "Maître Paul MARTIN, avocat, pour Mme Claire Fontaine.\n"
    "La fontaine du jardin fuyait. Maître a plaidé. FONTAINE et MARTIN étaient présents."
)


def _doc(language: str) -> ExportDocument:
    spans = []
    for needle, label in (("Maître Paul MARTIN", "LAWYER"), ("Claire Fontaine", "PERSON")):
        start = TEXT.index(needle)
        spans.append(Candidate(start, start + len(needle), label, needle, ("human",), 1.0))
    return ExportDocument(1, "decision.txt", TEXT, spans, language=language)


def test_a_french_export_completes_french_names_only():
    output = render_document(_doc("fr"))
    completed = {c.text for c in output.completed}
    assert completed == {"FONTAINE", "MARTIN"}
    assert "La fontaine du jardin" in output.redacted_text and "Maître a plaidé" in output.redacted_text
    assert output.leaks == []


def test_english_words_would_have_masked_the_title_and_the_common_noun():
    completed = {c.text for c in render_document(_doc("en")).completed}
    assert {"Maître", "fontaine"} <= completed
