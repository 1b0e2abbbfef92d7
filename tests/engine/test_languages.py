"""Languages as data (pipelines/detection/languages/): the French pack's patterns
and cues, roles, the name identity on French names, and a third language added
as a file with no engine change."""

import json
import shutil

import pytest

from pipelines.candidate import Candidate
from pipelines.detection import languages
from pipelines.detection.config import DetectionConfig
from pipelines.detection.languages import LanguageError, language, rules
from pipelines.detection.pipeline import detect_text
from pipelines.labels import CANONICAL_LABELS, DIRECT_IDENTIFIER_LABELS, label_colour
from pipelines.names import NameIdentity

FR = language("fr")
# Rules only: no model pass, so these tests need no spaCy model.
RULES_ONLY = DetectionConfig(recognizers=frozenset({"patterns", "cues", "gazetteer"}))


def found(text: str, rule_set) -> set[tuple[str, str]]:
    return {(c.label, c.text) for c in rule_set(text, FR)}


@pytest.mark.parametrize(
    ("text", "label", "value"),
    [
        ("Le 12 janvier 2019, la cour", "DATE", "12 janvier 2019"),
        ("le 1er mars", "DATE", "1er mars"),
        ("jugement du 12/01/2019.", "DATE", "12/01/2019"),
        ("en août 2019", "DATE", "août 2019"),
        ("joignable au 01 23 45 67 89", "PHONE_NUMBER", "01 23 45 67 89"),
        ("ou au +33 6 12 34 56 78.", "PHONE_NUMBER", "+33 6 12 34 56 78"),
        ("le véhicule AB-123-CD", "LICENCE_PLATE", "AB-123-CD"),
        ("immatriculé 1234 AB 75", "LICENCE_PLATE", "1234 AB 75"),
        ("RG n° 18/01234", "RG", "18/01234"),
        ("N° RG : 18/01234", "RG", "18/01234"),
        ("demeurant 12 rue de la Paix, 75002 Paris", "ADDRESS", "12 rue de la Paix, 75002 Paris"),
        ("siège au 3 bis avenue Foch.", "ADDRESS", "3 bis avenue Foch"),
        ("BP 40122", "ADDRESS", "BP 40122"),
        ("la cour d'appel de Paris", "COURT", "cour d'appel de Paris"),
        ("COUR D'APPEL DE LYON", "COURT", "COUR D'APPEL DE LYON"),
        ("le tribunal judiciaire de Saint-Étienne", "COURT", "tribunal judiciaire de Saint-Étienne"),
        ("avocat au barreau de Lyon", "BAR", "Lyon"),
        ("la société Dupont Frères.", "ORGANIZATION", "Dupont Frères"),
    ],
)
def test_french_patterns(text, label, value):
    assert (label, value) in found(text, rules.patterns)


def test_patterns_leave_plain_numbers_and_words_alone():
    text = "La somme de 3 000 euros, article 700 du code de procédure civile, 12 pages."
    assert not [c for c in rules.patterns(text, FR) if c.label != "DATE"]
    assert not rules.patterns("IOU-123-XY", FR)  # no I, O or U on a plate


def test_cues_tell_lawyers_judges_and_clerks_from_other_people():
    text = (
        "représenté par Maître Paul MARTIN, avocat au barreau de Lyon\n"
        "Président : M. Jean PETIT\n"
        "Mme Claire DURAND, présidente de chambre\n"
        "Greffier lors des débats : Mme Sylvie ROUX\n"
        "M. Jean-Pierre DUPONT, président de la société BATIMEX\n"
    )
    roles: dict[str, set[str]] = {}
    for c in rules.cues(text, FR):
        roles.setdefault(c.text, set()).add(c.rule.rpartition("→")[2] if "→" in c.rule else "PERSON")
    assert roles["Paul MARTIN"] == {"LAWYER"}
    assert roles["Jean PETIT"] == {"JUDGE_CLERK", "PERSON"}
    assert roles["Claire DURAND"] == {"JUDGE_CLERK", "PERSON"}
    assert roles["Sylvie ROUX"] == {"JUDGE_CLERK", "PERSON"}
    # A company's president is no judge.
    assert roles["Jean-Pierre DUPONT"] == {"PERSON"}


def test_detection_gives_every_mention_of_a_cued_name_its_role():
    text = (
        "Maître Paul MARTIN, avocat au barreau de Lyon, pour M. Jean-Pierre DUPONT.\n"
        "Greffier : Mme Sylvie ROUX.\n"
        "Me MARTIN plaide. M. DUPONT répond. Mme ROUX note.\n"
    )
    spans = {(s.label, s.text) for s in detect_text(text, "", config=RULES_ONLY, language_code="fr").spans}
    assert {("LAWYER", "Paul MARTIN"), ("LAWYER", "MARTIN")} <= spans
    assert {("JUDGE_CLERK", "Sylvie ROUX"), ("JUDGE_CLERK", "ROUX")} <= spans
    assert {("PERSON", "Jean-Pierre DUPONT"), ("PERSON", "DUPONT")} <= spans
    assert ("BAR", "Lyon") in spans


def test_the_given_name_lists_find_french_names_with_particles_and_capitals():
    names = found("Le témoin Marie-Claire Le Goff et Jean DUPONT, puis la Caroline du Sud.", rules.gazetteer)
    assert ("PERSON", "Marie-Claire Le Goff") in names and ("PERSON", "Jean DUPONT") in names
    assert not any("Caroline" in t for _, t in names)  # a given name then a particle: a place as often


def test_the_name_identity_knows_french_names_under_a_role_label():
    identity = NameIdentity.from_spans(
        [
            Candidate(0, 11, "LAWYER", "Paul MARTIN", ("human",), 1.0),
            Candidate(20, 38, "PERSON", "Jean-Pierre DUPONT", ("human",), 1.0),
        ]
    )
    text = "Me Martin et M. Dupont, Jean-Pierre, puis MARTIN."
    hits = {text[o.start : o.end] for o in identity.find(text)}
    assert {"Martin", "Dupont", "Jean-Pierre", "MARTIN"} <= hits


def test_labels_come_from_the_language_files():
    for label in ("LAWYER", "JUDGE_CLERK", "COURT", "BAR", "ADDRESS", "LICENCE_PLATE", "RG"):
        assert label in CANONICAL_LABELS and label_colour(label) != "#eeeeee"
    assert {"LAWYER", "JUDGE_CLERK", "LICENCE_PLATE"} <= set(DIRECT_IDENTIFIER_LABELS)


def test_english_is_the_builtin_pipeline_and_unknown_languages_are_refused():
    assert language("en").builtin_rules and language("en").spacy_model == ""
    assert languages.model_for("en", "site-model") == "site-model"
    assert languages.model_for("fr", "site-model") == "fr_core_news_sm"
    with pytest.raises(LanguageError, match="unknown language 'xx'"):
        language("xx")
    with pytest.raises(LanguageError):
        language("../fr")


def test_a_third_language_is_a_data_file(tmp_path, monkeypatch):
    folder = tmp_path / "languages"
    shutil.copytree(languages.DIRECTORY, folder, ignore=shutil.ignore_patterns("*.py", "__pycache__"))
    (folder / "de.json").write_text(
        json.dumps(
            {
                "code": "de",
                "name": "Deutsch",
                "spacy_model": "de_core_news_sm",
                "months": ["Januar", "Februar", "März"],
                "titles": ["Herr", "Frau"],
                "fragments": {"NAME": "[A-ZÄÖÜ][a-zäöüß]+(?:[ \\t]+[A-ZÄÖÜ][a-zäöüß]+)?"},
                "patterns": [
                    {
                        "label": "DATE",
                        "regex": "\\b\\d{1,2}\\.[ \\t]+(?:Januar|Februar|März)[ \\t]+\\d{4}",
                        "rule": "date",
                    }
                ],
                "cues": [{"label": "PERSON", "regex": "\\b(?:Herr|Frau)[ \\t]+(?P<v>{NAME})", "rule": "anrede"}],
            }
        ),
        encoding="utf-8",
    )
    monkeypatch.setattr(languages, "DIRECTORY", folder)
    language.cache_clear()
    try:
        assert languages.codes() == ("en", "de", "fr")
        assert languages.model_for("de", "x") == "de_core_news_sm"
        result = detect_text("Am 3. März 2020 sprach Frau Anna Schmidt.", "", config=RULES_ONLY, language_code="de")
        assert {(s.label, s.text) for s in result.spans} >= {("DATE", "3. März 2020"), ("PERSON", "Anna Schmidt")}
    finally:
        language.cache_clear()


def test_detect_command_takes_a_language(tmp_path, capsys):
    from pipelines import cli

    source = tmp_path / "in.jsonl"
    source.write_text('{"id": 1, "text": "x"}\n', encoding="utf-8")
    assert cli.main(["detect", str(source), "--out", "-", "--language", "xx"]) == 1
    assert "unknown language 'xx'" in capsys.readouterr().err
