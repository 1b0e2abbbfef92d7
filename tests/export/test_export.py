"""Export (issue 6): strategies, corpus-wide consistency, formats, scope, the leak
gate, seed 000's known defects, and properties over random documents."""

import io
import json
import re
import zipfile

import pytest
from django.core.management import call_command
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ingestion.models import Document
from pipelines.candidate import Candidate
from pipelines.export.leak_check import find_leaks
from pipelines.export.writer import ExportDocument, LeakError, render_document, write_zip
from pipelines.pseudonymize.engine import PseudonymizationConfig, pseudonymize_document
from review.models import ExportBatch, PseudonymMap
from tests.conftest import DEMO_TEXT

TEXT = "Mr. John Doe called (559) 555-0147 on 03/14/2023 about K-48213. Doe lives in Fresno."


def spans_in(text: str, *items: tuple[str, str]) -> list[Candidate]:
    spans = []
    for needle, label in items:
        for m in re.finditer(r"(?<!\w)" + re.escape(needle) + r"(?!\w)", text):
            spans.append(Candidate(m.start(), m.end(), label, needle, ("test",), 1.0))
    return sorted(spans, key=lambda s: s.start)


SPANS = spans_in(
    TEXT,
    ("John Doe", "PERSON"),
    ("(559) 555-0147", "PHONE_NUMBER"),
    ("03/14/2023", "DATE"),
    ("K-48213", "ID"),
    ("Fresno", "LOCATION"),
)
SPANS += [Candidate(TEXT.index("Doe lives"), TEXT.index("Doe lives") + 3, "PERSON", "Doe", ("t",), 1.0)]
SPANS.sort(key=lambda s: s.start)


def run(strategy: str, **kwargs) -> str:
    config = PseudonymizationConfig(strategy=strategy, secret="s3cret", **kwargs)
    return pseudonymize_document(TEXT, SPANS, config, document_key="1").text


@pytest.mark.parametrize(
    ("strategy", "expected"),
    [
        (
            "placeholder",
            "Mr. [PERSON_1] [PERSON_2] called [PHONE_NUMBER_1] on [DATE] about [ID_1]. [PERSON_2] lives in [CITY_1].",
        ),
        ("label", "Mr. [PERSON] called [PHONE_NUMBER] on [DATE] about [ID]. [PERSON] lives in [LOCATION]."),
        ("generic", "Mr. XXXX called XXXX on XXXX about XXXX. XXXX lives in XXXX."),
        ("mask", "Mr. ******** called ************** on ********** about *******. *** lives in ******."),
    ],
)
def test_strategies_golden(strategy, expected):
    assert run(strategy) == expected


def test_random_keeps_shape_and_length_and_is_deterministic():
    out = run("random")
    assert out == run("random")
    assert len(out) == len(TEXT)
    assert re.search(r"called \(\d{3}\) \d{3}-\d{4} on \d\d/\d\d/\d{4} about [A-Z]-\d{5}\.", out)
    assert not find_leaks(out, SPANS)


def test_surrogates_are_consistent_realistic_and_leak_nothing():
    out = run("surrogate")
    assert out == run("surrogate")  # deterministic for the same secret
    assert not find_leaks(out, SPANS)
    name = re.match(r"Mr\. (\w+) (\w+) called", out)
    assert name and name.group(2) in out.split("called", 1)[1]  # "Doe" later is the same fake surname
    date = re.search(r"on (\d\d)/(\d\d)/(\d{4})", out)
    assert date and date.group(0) != "on 03/14/2023"  # shifted, same format
    assert re.search(r"about [A-Z]-\d{5}\.", out)  # same-format ID
    assert run("surrogate") != pseudonymize_document(TEXT, SPANS, PseudonymizationConfig("surrogate", secret="x")).text


def test_hash_and_keep_use_presidio_operators():
    hashed = run("hash")
    assert re.search(r"called [0-9a-f]{64} on", hashed)
    assert run("keep") == TEXT


def test_keep_per_label_and_entity_numbering():
    out = run("placeholder", per_label={"LOCATION": "keep"}, person_numbering="entity")
    assert out == "Mr. [PERSON_1] called [PHONE_NUMBER_1] on [DATE] about [ID_1]. [PERSON_1] lives in Fresno."


def test_unknown_strategy_is_refused():
    with pytest.raises(ValueError, match="unknown strategy"):
        PseudonymizationConfig(strategy="scramble")


def test_seed000_defect_id_numbers_do_not_leak_across_files():
    first = render_document(
        ExportDocument(1, "a.txt", "ID K-1 and K-48213", spans_in("ID K-1 and K-48213", ("K-48213", "ID")))
    )
    second = render_document(ExportDocument(2, "b.txt", "ID H-99999", spans_in("ID H-99999", ("H-99999", "ID"))))
    assert "[ID_1]" in first.redacted_text and second.redacted_text == "ID [ID_1]"


def test_seed000_defect_multi_word_and_line_broken_spelled_names_match():
    text = "John Doe spelled J-O-H-N D-O-E and D-O-\nE."
    spans = spans_in(text, ("John Doe", "PERSON"), ("J-O-H-N D-O-E", "SPELLED_NAME"), ("D-O-\nE", "SPELLED_NAME"))
    out = pseudonymize_document(text, spans).text
    assert out == (
        "[PERSON_1] [PERSON_2] spelled [SPELLED_NAME_PERSON_1] [SPELLED_NAME_PERSON_2] and [SPELLED_NAME_PERSON_2]."
    )


def test_seed000_defect_index_is_sorted_by_first_occurrence_with_counts():
    output = render_document(ExportDocument(3, "c.txt", TEXT, SPANS))
    lines = output.index_text.splitlines()
    assert lines[0] == "PERSON | John Doe ➡ [PERSON_1] [PERSON_2] | 1"
    assert lines[-1] == "LOCATION | Fresno ➡ [CITY_1] | 1"
    assert "PERSON | Doe ➡ [PERSON_2] | 1" in lines


def test_file_names_are_neutral_by_default_and_pseudonymized_when_stems_are_kept():
    doc = ExportDocument(7, "Doe_John_2023-03-14_K48213.txt", TEXT, SPANS)
    assert render_document(doc).redacted_name == "00007_document.txt"
    # The stem takes the text's own placeholders: K-48213 is [ID_1] in the text.
    assert render_document(doc, keep_stem=True).redacted_name == "00007_[PERSON_2]_[PERSON_1]_[DATE]_[ID_1].txt"


def test_leak_gate_catches_planted_leaks_in_every_form():
    spans = spans_in("John Doe and R-U-F-F", ("John Doe", "PERSON"), ("R-U-F-F", "SPELLED_NAME"))
    for leaked in ["john\ndoe", "JOHN   DOE", "Doe's car", "R U F F", "r.u.f.f.", "Mr. DOE", "Doe"]:
        assert find_leaks(f"x {leaked} y", spans), leaked
    assert not find_leaks("[PERSON_1] [PERSON_2] and [SPELLED_NAME]", spans)
    # A one-word name is not leaked by the same letters as an ordinary word.
    hope = [Candidate(0, 4, "PERSON", "HOPE", ("t",), 1.0), Candidate(5, 8, "DATE", "May", ("t",), 1.0)]
    assert not find_leaks("I hope you may go", hope)
    assert find_leaks("Hope said", hope) and find_leaks("in May", hope)


def test_surnames_that_are_role_words_are_replaced_and_checked():
    text = "PRESIDING COMMISSIONER MARGARET COURT: Mike Judge and Margaret Court."
    spans = spans_in(text, ("MARGARET COURT", "PERSON"), ("Mike Judge", "PERSON"), ("Margaret Court", "PERSON"))
    out = pseudonymize_document(text, spans).text
    assert out == "PRESIDING COMMISSIONER [PERSON_1] [PERSON_2]: [PERSON_3] [PERSON_4] and [PERSON_1] [PERSON_2]."
    assert find_leaks("[PERSON_1] Court testified", spans)


def test_file_names_never_carry_a_known_name():
    text = "O'Brien met José Smith-Jones."
    spans = spans_in(text, ("O'Brien", "PERSON"), ("José", "PERSON"), ("Smith-Jones", "PERSON"))
    names = {
        n: render_document(ExportDocument(1, n, text, spans), keep_stem=True).redacted_name
        for n in ["O'Brien_hearing.txt", "José hearing.txt", "Smith-Jones_2019.txt", "Smith_Jones.txt"]
    }
    assert names == {
        "O'Brien_hearing.txt": "00001_[PERSON_1]_hearing.txt",
        "José hearing.txt": "00001_[PERSON_2] hearing.txt",
        "Smith-Jones_2019.txt": "00001_[PERSON_3]_[YEAR].txt",
        # The parts of a hyphenated name are numbered in the document's own map.
        "Smith_Jones.txt": "00001_[PERSON_4]_[PERSON_5].txt",
    }
    entity = render_document(
        ExportDocument(1, "Smith-Jones.txt", text, spans),
        PseudonymizationConfig(person_numbering="entity"),
        keep_stem=True,
    )
    # One number per person: the stem says what the text says (Smith-Jones is [PERSON_3]).
    assert entity.redacted_name == "00001_[PERSON_3].txt"
    assert "met [PERSON_2] [PERSON_3]." in entity.redacted_text


def test_surrogate_years_always_move_and_names_keep_their_shape():
    from pipelines.pseudonymize.surrogates import Surrogates

    for shift in (10, 200, -10, 400):
        assert Surrogates("k", set(), shift).date("1998") != "1998"
    fake = Surrogates("k", {"Chris Ross"})
    assert fake.person("Mr. Jess").startswith("Mr. ")
    assert fake.person("John Doe").split()[0] == fake.person("John")  # consistent per part
    assert fake.person("Jones'") == fake.person("Jones") + "'"
    assert fake.person("Chris Ross").split()[1] == fake.person("Ross")  # no stripped letters


def test_surrogate_first_names_keep_their_usual_sex():
    """ "Mrs. Jane Doe" must not read "Mrs. Robert Vance": a first name the list
    knows as one sex's gets a fake of the same sex, for every secret."""
    from faker.providers.person.en_US import Provider

    from pipelines.pseudonymize.surrogates import Surrogates

    male, female = set(Provider.first_names_male), set(Provider.first_names_female)
    for secret in ("a", "b", "c", "d", "e", "f", "g", "h"):
        fake = Surrogates(secret, set())
        for name, sex in (("Jane", female), ("Mary", female), ("Elizabeth", female), ("Robert", male), ("James", male)):
            drawn = fake.person(f"Mrs. {name} Doe").split()[1]
            assert drawn in sex, (secret, name, drawn)
            assert fake.person(name) == drawn  # the same part, the same fake, title or not


def test_writer_stops_at_a_leak_and_reports_without_text():
    good = render_document(ExportDocument(1, "a.txt", TEXT, SPANS))
    # The organization is kept on purpose, and it holds the accepted surname: a
    # residual the export cannot complete (it would cut into a kept span).
    text = "Jane Roe works at Roe Holdings."
    spans = spans_in(text, ("Jane Roe", "PERSON"), ("Roe Holdings", "ORGANIZATION"))
    leaking = render_document(
        ExportDocument(2, "b.txt", text, spans), PseudonymizationConfig(per_label={"ORGANIZATION": "keep"})
    )
    buffer = io.BytesIO()
    with pytest.raises(LeakError) as caught:
        write_zip(buffer, [good, leaking], {})
    assert caught.value.report() == [
        {"document_id": 2, "label": "PERSON", "span_start": 18, "span_end": 21, "output_offset": 31, "where": "text"}
    ]
    assert "Roe" not in json.dumps(caught.value.report())


def test_zip_has_every_format_and_a_manifest():
    buffer = io.BytesIO()
    write_zip(buffer, [render_document(ExportDocument(1, "a.txt", TEXT, SPANS))], {"strategy": "placeholder"})
    archive = zipfile.ZipFile(buffer)
    names = set(archive.namelist())
    assert {
        "redacted/00001_document.txt",
        "index/00001_document_PSEUDONYMIZATION_INDEX.txt",
        "index/00001_document.annotations.json",
        "index/00001_document.review.txt",
        "index/Index.txt",
        "training/conll.txt",
        "training/doccano.jsonl",
        "training/label_studio.jsonl",
        "training/spacy/00001.spacy",
        "manifest.json",
    } == names
    assert archive.read("index/00001_document.review.txt").decode().startswith("Mr. [John Doe | PERSON] called")
    conll = archive.read("training/conll.txt").decode()
    assert "John\tB-PERSON\nDoe\tI-PERSON\ncalled\tO" in conll
    doccano = json.loads(archive.read("training/doccano.jsonl"))
    assert doccano["label"][0] == [4, 12, "PERSON"]
    studio = json.loads(archive.read("training/label_studio.jsonl"))
    assert studio["annotations"][0]["result"][0]["value"]["labels"] == ["PERSON"]
    import spacy
    from spacy.tokens import DocBin

    docs = list(DocBin().from_bytes(archive.read("training/spacy/00001.spacy")).get_docs(spacy.blank("en").vocab))
    assert [(e.text, e.label_) for e in docs[0].ents][0] == ("John Doe", "PERSON")
    annotations = json.loads(archive.read("index/00001_document.annotations.json"))
    assert annotations["annotations"][0] | {"source": None} == annotations["annotations"][0] | {
        "start": 4,
        "end": 12,
        "label": "PERSON",
        "preview": "John Doe",
        "replacement": "[PERSON_1] [PERSON_2]",
        "strategy": "placeholder",
        "source": None,
    }
    manifest = json.loads(archive.read("manifest.json"))
    assert set(manifest["files"]) == names - {"manifest.json"}


def test_without_index_the_sensitive_files_are_left_out():
    buffer = io.BytesIO()
    write_zip(buffer, [render_document(ExportDocument(1, "a.txt", TEXT, SPANS))], {}, include_index=False)
    assert set(zipfile.ZipFile(buffer).namelist()) == {"redacted/00001_document.txt", "manifest.json"}


words = st.sampled_from(["alpha", "Bravo", "charlie", "Delta", "echo", "Foxtrot", "golf", "Hotel", "india", "Juliet"])


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    tokens=st.lists(words, min_size=1, max_size=40),
    secret_words=st.sets(words, min_size=1, max_size=4),
    label=st.sampled_from(["PERSON", "ORGANIZATION", "ID", "DATE", "LOCATION"]),
    strategy=st.sampled_from(["placeholder", "label", "generic", "random", "surrogate", "hash"]),
)
def test_property_no_accepted_text_survives_and_offsets_hold(tokens, secret_words, label, strategy):
    text = " ".join(tokens)
    spans = spans_in(text, *[(w, label) for w in secret_words])
    result = pseudonymize_document(text, spans, PseudonymizationConfig(strategy=strategy, secret="k"))
    # Offsets never drift: every replacement covers exactly the span's text.
    assert all(text[r.start : r.end] == r.original for r in result.replacements)
    # Rebuilding the output from the replacements gives the output.
    rebuilt, cursor = [], 0
    for r in result.replacements:
        rebuilt += [text[cursor : r.start], r.replacement]
        cursor = r.end
    assert "".join(rebuilt) + text[cursor:] == result.text
    # Every replacement is in the index.
    indexed = {(e.original, e.replacement) for e in result.index()}
    assert all((r.original, r.replacement) in indexed for r in result.replacements)
    if strategy != "random":  # random letters can spell a word by chance; its shape is tested above
        assert not find_leaks(result.text, spans)


@pytest.mark.django_db
def test_corpus_wide_numbers_hold_across_documents_and_reexports_and_are_encrypted(
    corpus, admin_user, django_capture_on_commit_callbacks
):
    from review.services.uploads import ingest_document

    with django_capture_on_commit_callbacks(execute=True):
        one, _ = ingest_document(corpus=corpus, name="one.txt", data=DEMO_TEXT.encode(), user=admin_user)
        two, _ = ingest_document(
            corpus=corpus, name="two.txt", data=(b"Officer Jane Roe met Marcus Delgado.\n"), user=admin_user
        )
    Document.objects.update(status="approved")
    from review.models import Span

    Span.objects.update(status="accepted")

    def export(tmp_name: str) -> dict[str, str]:
        out = io.StringIO()
        call_command("export", "--corpus", corpus.name, "--out", tmp_name, "--consistency", "corpus", stdout=out)
        archive = zipfile.ZipFile(tmp_name)
        return {n: archive.read(n).decode() for n in archive.namelist() if n.startswith("redacted/")}

    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        first = export(f"{folder}/1.zip")
        second = export(f"{folder}/2.zip")
    assert first == second  # re-exports agree
    texts = list(first.values())
    delgado = re.search(r"for (\[PERSON_\d+\] \[PERSON_\d+\]),", texts[0]).group(1)
    assert delgado in texts[1]  # the same person, the same numbers, in another document
    stored = bytes(PseudonymMap.objects.get(corpus=corpus).data)
    assert b"delgado" not in stored.lower()  # encrypted at rest
    assert ExportBatch.objects.filter(status="done").count() == 2


@pytest.mark.django_db
def test_default_scope_takes_approved_documents_only(annotated_document, tmp_path):
    from django.core.management import CommandError

    out = tmp_path / "x.zip"
    with pytest.raises(CommandError, match="No document matches"):
        call_command("export", "--corpus", annotated_document.corpus.name, "--out", str(out), stdout=io.StringIO())
    assert not out.exists()
    annotated_document.status = "approved"
    annotated_document.save(update_fields=["status"])
    call_command("export", "--corpus", annotated_document.corpus.name, "--out", str(out), stdout=io.StringIO())
    assert [n for n in zipfile.ZipFile(out).namelist() if n.startswith("redacted/")]


@pytest.mark.django_db
def test_a_second_corpus_wide_export_fails_fast_while_one_runs_and_a_dead_one_is_taken_over(annotated_document):
    import datetime as dt

    from django.conf import settings as django_settings

    from review.services.export import export_run

    corpus = annotated_document.corpus
    Document.objects.update(status="approved")
    running = ExportBatch.objects.create(corpus=corpus, consistency="corpus", status="running")
    second = ExportBatch.objects.create(corpus=corpus, consistency="corpus")
    assert export_run(batch_id=second.pk) is False
    second.refresh_from_db()
    assert second.status == "failed" and "Another corpus-wide export" in second.error_message
    # The first one's worker died long ago: a redelivery takes it over and finishes it.
    old = dt.datetime.now(dt.UTC) - dt.timedelta(seconds=django_settings.CELERY_TASK_TIME_LIMIT + 60)
    ExportBatch.objects.filter(pk=running.pk).update(created_at=old)
    assert export_run(batch_id=running.pk) is True
    running.refresh_from_db()
    assert running.status == "done"


def test_regexes_find_nothing_in_crafted_input():
    # Their time on it (quadratic versions took over 30 s) is bench/bench_linear.py's.
    from pipelines.detection.recognizers import gazetteer, patterns

    crafted = "a" * 60_000
    assert gazetteer.recognize(crafted) == []
    assert patterns.recognize(crafted) == []


def test_header_names_skip_transcription_firms():
    from pipelines.detection.recognizers.header_names import header_people

    metadata = {
        "participants": [{"name": "EVELYN HARTWELL", "role": "Commissioner"}],
        "transcriber": "Foothill Transcription Company, Inc.",
    }
    assert header_people(metadata) == ["EVELYN HARTWELL"]


def test_surrogate_places_and_institutions_keep_their_kind_and_case():
    """A fresh-clone walkthrough's surrogate export read "STATE OF Port Jonathan",
    "Perez, Perez and Berry, South Christopher" for a prison's name and address, and a
    prison as "Singh-Wolf". A state is now a state, a country a country, a county a
    county, an institution of the same type, a company name has no comma, and the
    original's capitals are kept."""
    from pipelines.gazetteers import us_states
    from pipelines.pseudonymize.surrogates import Surrogates

    fake = Surrogates("secret", avoid=set())
    state = fake.value("LOCATION", "CALIFORNIA")
    assert state.isupper() and state.lower() in us_states() and state != "CALIFORNIA"
    city, comma, again = fake.value("LOCATION", "Folsom, California").partition(", ")
    assert comma and again.upper() == state and city and "," not in city  # parts typed apart, consistently
    assert fake.value("LOCATION", "Fresno County").endswith(" County")
    prison = fake.value("ORGANIZATION", "Folsom State Prison")
    assert prison.endswith(" Prison") and "Folsom" not in prison
    facility = fake.value("ORGANIZATION", "CALIFORNIA MEDICAL FACILITY")
    assert facility.isupper() and facility.endswith(" FACILITY")
    assert "," not in fake.value("ORGANIZATION", "Harlan Widgets")
