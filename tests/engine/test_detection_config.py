"""Per-corpus detection configuration: modes, weights, lists, packs, corpus
patterns (and their timeout), filter overrides, the annotation task and the admin
page."""

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client, TestCase
from django.urls import reverse

from ingestion.models import Corpus
from pipelines.candidate import Candidate
from pipelines.detection.config import RULE_NAMES as FILTER_RULE_NAMES
from pipelines.detection.config import ConfigError, CorpusPattern, DetectionConfig
from pipelines.detection.merging.ensemble import merge, vote
from pipelines.detection.pipeline import detect_text
from review.forms import DetectionConfigForm
from review.models import CorpusMembership, DetectionConfigChange, DocumentDetection, Role
from review.models import DetectionConfig as StoredConfig
from review.services.uploads import ingest_document

# The snapshot below (BEFORE_CONFIG) was pinned with sm: what it checks, that the default
# configuration is the pipeline without one, does not depend on the model.
MODEL = "sm"
# Fast configurations leave spaCy and presidio off: no model pass at all.
RULES_ONLY = frozenset({"patterns", "cues", "gazetteer"})


def spans_of(text: str, config: DetectionConfig, metadata: dict | None = None) -> set[tuple[str, str]]:
    return {(s.label, s.text) for s in detect_text(text, MODEL, metadata, config).spans}


# --- ensemble modes, case by case -------------------------------------------------

MODES_TEXT = "Officer John Smith was born on March 3, 1985. Call 555-123-4567."
# John Smith: cues + gazetteer + corpus; the date: patterns + corpus; the phone: patterns.
MODES_PATTERNS = (CorpusPattern("PERSON", r"\bSmith\b"), CorpusPattern("DATE", r"March \d+"))


def modes_config(mode: str, k: int = 2) -> DetectionConfig:
    return DetectionConfig(recognizers=RULES_ONLY, mode=mode, k=k, patterns=MODES_PATTERNS)


def test_union_keeps_every_candidate():
    assert spans_of(MODES_TEXT, modes_config("union")) == {
        ("PERSON", "John Smith"),
        ("DATE", "March 3, 1985"),
        ("PHONE_NUMBER", "555-123-4567"),
    }


def test_vote_k2_keeps_spans_two_sources_agree_on_and_records_the_rest():
    result = detect_text(MODES_TEXT, MODEL, None, modes_config("vote", 2))
    assert {(s.label, s.text) for s in result.spans} == {("PERSON", "John Smith"), ("DATE", "March 3, 1985")}
    outvoted = {(f.candidate.text, f.reason) for f in result.filtered}
    assert ("555-123-4567", "fewer than 2 sources agree") in outvoted


def test_intersection_needs_every_enabled_recognizer():
    # Three recognizers on (header has no names here, so it cannot vote): only the
    # name three sources found survives.
    assert spans_of(MODES_TEXT, modes_config("intersection")) == {("PERSON", "John Smith")}
    assert spans_of(MODES_TEXT, modes_config("vote", 3)) == {("PERSON", "John Smith")}


def test_recognizers_turned_off_do_not_run(monkeypatch):
    from pipelines.detection import pipeline

    monkeypatch.setattr(pipeline, "load_nlp", lambda name: pytest.fail("no model pass without spaCy and presidio"))
    assert spans_of("Officer Smith", DetectionConfig(recognizers=RULES_ONLY)) == {("PERSON", "Smith")}
    monkeypatch.undo()
    from pipelines.detection.recognizers import presidio

    monkeypatch.setattr(presidio, "recognize", lambda doc, nlp: pytest.fail("presidio is off"))
    result = detect_text(
        "Call (559) 555-0147.", MODEL, None, DetectionConfig(recognizers=frozenset({"spacy", "patterns"}))
    )
    assert [s.sources for s in result.spans] == [("patterns",)]


def c(start: int, end: int, label: str, source: str) -> Candidate:
    return Candidate(start, end, label, "x" * (end - start), (source,), 0.8)


def test_vote_counts_overlaps_of_one_label_and_distinct_sources():
    kept, dropped = vote(
        [
            c(0, 4, "PERSON", "spacy"),  # "John" overlaps "John Doe" below: 2 sources
            c(0, 8, "PERSON", "cues"),
            c(10, 14, "PERSON", "spacy"),  # same source twice is still one source
            c(10, 14, "PERSON", "spacy"),
            c(20, 24, "PERSON", "spacy"),  # overlapping a different label: no agreement
            c(20, 24, "LOCATION", "presidio"),
            c(30, 34, "DATE", "patterns"),  # adjacent, not overlapping
            c(34, 38, "DATE", "spacy"),
        ],
        2,
    )
    assert sorted((k.start, k.end) for k in kept) == [(0, 4), (0, 8)]
    assert len(dropped) == 6


# --- weights, thresholds, lists ------------------------------------------------------


def test_weights_decide_a_label_conflict():
    text = "Officer Jordan spoke."
    patterns = (CorpusPattern("LOCATION", r"Jordan", 0.9),)
    # cues 0.85 x 1.5 against the corpus pattern 0.9 x 1.5: the pattern wins...
    default = DetectionConfig(recognizers=RULES_ONLY, patterns=patterns)
    assert spans_of(text, default) == {("LOCATION", "Jordan")}
    # ...unless the corpus trusts its own patterns less.
    weights = {**default.weights, "corpus": 0.5}
    assert spans_of(text, DetectionConfig(recognizers=RULES_ONLY, patterns=patterns, weights=weights)) == {
        ("PERSON", "Jordan")
    }


def test_merge_uses_given_weights():
    text = "Jordan"
    cands = [Candidate(0, 6, "PERSON", text, ("spacy",), 0.6), Candidate(0, 6, "LOCATION", text, ("presidio",), 0.5)]
    assert merge(text, cands)[0].label == "PERSON"
    assert merge(text, cands, {"spacy": 1.0, "presidio": 2.0})[0].label == "LOCATION"


def test_min_score_drops_weak_spans_with_a_reason():
    text = "Officer John Smith called 555-123-4567."
    recognizers = frozenset({"patterns", "gazetteer"})
    # Scores are calibrated probabilities, refitted on the gold as detection changes:
    # whichever of the two scores lower, a minimum between them keeps the other only.
    spans = detect_text(text, MODEL, None, DetectionConfig(recognizers=recognizers)).spans
    scores = {s.text: s.score for s in spans}
    assert set(scores) == {"John Smith", "555-123-4567"} and len(set(scores.values())) == 2, scores
    weak, strong = sorted(scores, key=scores.get)
    config = DetectionConfig(recognizers=recognizers, min_score=(scores[weak] + scores[strong]) / 2)
    result = detect_text(text, MODEL, None, config)
    assert {s.text for s in result.spans} == {strong}
    assert (weak, "below the minimum score") in {(f.candidate.text, f.reason) for f in result.filtered}


def test_deny_list_texts_are_never_proposed():
    text = "Officer Smith met Officer Brown. SMITH left."
    config = DetectionConfig(recognizers=RULES_ONLY, deny=("smith",))
    result = detect_text(text, MODEL, None, config)
    assert {s.text for s in result.spans} == {"Brown"}
    assert ("Smith", "deny list") in {(f.candidate.text, f.reason) for f in result.filtered}


def test_allow_list_texts_are_always_proposed_as_their_label():
    text = "We called acme widgets, then ACME WIDGETS again; nobody else."
    config = DetectionConfig(recognizers=RULES_ONLY, allow={"Acme Widgets": "ORGANIZATION"})
    spans = detect_text(text, MODEL, None, config).spans
    assert [(s.label, s.text, s.sources) for s in spans] == [
        ("ORGANIZATION", "acme widgets", ("allow_list",)),
        ("ORGANIZATION", "ACME WIDGETS", ("allow_list",)),
    ]


# --- packs and corpus patterns -------------------------------------------------------

CLINICAL = (
    "ID: B2231K\nCASE NUMBER: 9876543210B\nADMISSION TIME: 09:30\nPATIENT CLASS: Private A\n"
    "Mr. Tan Wei Ming (NRIC: T7654321Z) was admitted. WARD:Type B\nBED: D12\n"
    "He returned to the ward and rested. His wife can be reached at 98765432.\n"
)


def test_seed001_pack_is_off_by_default_and_finds_clinical_identifiers_when_on():
    assert ("ID", "T7654321Z") not in spans_of(CLINICAL, DetectionConfig())
    found = spans_of(CLINICAL, DetectionConfig(packs=("seed001",)))
    assert {
        ("ID", "B2231K"),
        ("ID", "9876543210B"),
        ("TIME", "09:30"),
        ("PATIENT_CLASS", "Private A"),
        ("ID", "T7654321Z"),
        ("WARD", "Type B"),
        ("BED", "D12"),
        ("PHONE_NUMBER", "98765432"),
    } <= found
    assert not any(label == "WARD" and text != "Type B" for label, text in found)  # "the ward and" is no ward


def test_corpus_pattern_proposes_its_label_and_span_group():
    text = "See file REF-2231 and ref-99 (too short)."
    config = DetectionConfig(
        recognizers=frozenset(), patterns=(CorpusPattern("CASE_REF", r"(?i)file (?P<v>REF-\d{4})"),)
    )
    spans = detect_text(text, MODEL, None, config).spans
    assert [(s.label, s.text, s.sources, s.rule) for s in spans] == [("CASE_REF", "REF-2231", ("corpus",), "corpus:1")]


def test_bad_regex_is_rejected_with_a_message():
    with pytest.raises(ConfigError, match=r"pattern 1 \(\(a\+\): invalid regex"):
        DetectionConfig(patterns=(CorpusPattern("X", "(a+"),))
    with pytest.raises(ConfigError, match="label 'bad label'"):
        DetectionConfig(patterns=(CorpusPattern("bad label", "a"),))
    form = DetectionConfigForm(data={**FORM_DEFAULTS, "patterns": "ID: K-\\d+\nCASE: (unclosed"})
    assert not form.is_valid()
    assert form.errors["patterns"] == ["Line 2: invalid regex “(unclosed”: missing ) at position 9."]


def test_catastrophic_pattern_times_out_and_is_skipped_without_hanging():
    text = "a" * 40 + "b Officer Smith"
    config = DetectionConfig(
        recognizers=frozenset({"cues"}),
        patterns=(CorpusPattern("BAD", r"(a|aa)+$"), CorpusPattern("GOOD", r"Officer")),
        pattern_timeout=0.2,
    )
    # That it returns at all is the point; how fast is bench/bench_linear.py's.
    result = detect_text(text, MODEL, None, config)
    assert result.timed_out == ["(a|aa)+$"]
    assert {(s.label, s.text) for s in result.spans} == {("GOOD", "Officer"), ("PERSON", "Smith")}


# --- filter overrides ----------------------------------------------------------------


def test_filter_rules_can_be_turned_off_per_corpus():
    text = "the witness john doe spoke."
    patterns = (CorpusPattern("PERSON", r"john doe"),)
    on = detect_text(text, MODEL, None, DetectionConfig(recognizers=frozenset(), patterns=patterns))
    assert on.spans == [] and [f.reason for f in on.filtered] == ["all lowercase"]
    off = DetectionConfig(recognizers=frozenset(), patterns=patterns, disabled_filters=frozenset({"person_lowercase"}))
    assert spans_of(text, off) == {("PERSON", "john doe")}
    with pytest.raises(ConfigError, match="unknown filter rule"):
        DetectionConfig(disabled_filters=frozenset({"no_such_rule"}))


# --- serialization, default ------------------------------------------------------------


def test_config_round_trips_through_json_and_rejects_unknown_options():
    config = DetectionConfig(
        recognizers=frozenset({"spacy", "cues"}),
        mode="vote",
        k=2,
        min_score=0.5,
        packs=("seed001",),
        patterns=(CorpusPattern("CASE_REF", r"REF-\d+", 0.8),),
        deny=("Court",),
        allow={"Acme": "ORGANIZATION"},
        disabled_filters=frozenset({"role_word"}),
    )
    assert DetectionConfig.from_dict(config.to_dict()) == config
    assert DetectionConfig.from_dict({}) == DetectionConfig() == DetectionConfig.from_dict(None)
    with pytest.raises(ConfigError, match="unknown option"):
        DetectionConfig.from_dict({"modes": "union"})
    with pytest.raises(ConfigError, match="unknown mode"):
        DetectionConfig.from_dict({"mode": "majority"})


SAMPLE = """EVELYN HARTWELL, Presiding Commissioner
PRESIDING COMMISSIONER HARTWELL: Good morning. This hearing is for Marcus Delgado, CDCR number K-48213.
INMATE DELGADO: Marcus Delgado, D-E-L-G-A-D-O. I was 19 years old in 1998, about five feet ten.
DEPUTY COMMISSIONER ROSS: Officer Kowalczyk saw you in Fresno, California on 3/14/2021 at 10:45 a.m.
INMATE DELGADO: My name is Marcus Delgado. Anna Wong wrote to me at anna.wong@example.org, B as in boy.
PRESIDING COMMISSIONER HARTWELL: Thank you, Mr. Delgado. Call (559) 555-0147 on March 14, 2023. The commissioner agrees.
"""
SAMPLE_METADATA = {"participants": [{"name": "EVELYN HARTWELL", "role": "Presiding Commissioner"}]}
# The output of the pipeline before configurations existed (commit 7e788fa), on
# SAMPLE, updated where a recognizer improved since (the label corrections); the
# point is that no configuration and the default configuration give the same.
BEFORE_CONFIG = [
    (0, 15, "PERSON", "cues+header", 0.9947, "cue:participant_line,header:full_name,header:name_part"),
    (63, 71, "PERSON", "cues+header", 0.9939, "cue:speaker_label,header:name_part"),
    # spaCy's GPE "Marcus Delgado" corrected to PERSON by the lexicons (it was a
    # lone gazetteer span before), so two sources agree now.
    (107, 121, "PERSON", "gazetteer+spacy", 0.9499, "gazetteer:first_last,spacy:GPE→PERSON"),
    (123, 127, "ORGANIZATION", "spacy", 0.6656, "spacy:ORG"),
    # A record's code after "number" (code_after_number, session 31) agrees too.
    (135, 142, "ID", "patterns", 0.9683, "pattern:cdcr_number,pattern:code_after_number,pattern:id_with_cue"),
    (151, 158, "PERSON", "cues", 0.9538, "cue:speaker_label"),
    (160, 174, "PERSON", "gazetteer+spacy", 0.9499, "gazetteer:first_last,spacy:PERSON"),
    (176, 189, "SPELLED_NAME", "patterns", 0.9804, "pattern:spelled_hyphens"),
    (197, 199, "AGE", "patterns", 0.954, "pattern:age_after_being,pattern:years_old"),
    (213, 217, "DATE", "patterns+spacy", 0.9968, "pattern:year,spacy:DATE"),
    (225, 238, "HEIGHT", "patterns", 0.954, "pattern:height"),
    (260, 264, "PERSON", "cues", 0.984, "cue:speaker_label"),
    (274, 283, "PERSON", "cues+spacy", 0.9971, "cue:title,spacy:PERSON"),
    # "Fresno, California": a city and a state, two spans (comma-separated parts).
    (295, 301, "LOCATION", "spacy", 0.818, "spacy:GPE"),
    (303, 313, "LOCATION", "spacy", 0.818, "spacy:GPE"),
    (
        317,
        326,
        "DATE",
        "patterns+presidio+spacy",
        0.9968,
        # presidio's decision (the pattern that matched) is kept in the rule since it was pinned
        "pattern:numeric_date,pattern:year,presidio:DateRecognizer[pattern mm/dd/yyyy or mm/dd/yy],spacy:DATE",
    ),
    (330, 340, "TIME", "patterns+spacy", 0.9876, "pattern:am_pm,pattern:clock,spacy:TIME"),
    (348, 355, "PERSON", "cues", 0.9538, "cue:speaker_label"),
    (368, 382, "PERSON", "cues+gazetteer+spacy", 0.9948, "cue:my_name_is,gazetteer:first_last,spacy:GPE→PERSON"),
    (384, 393, "PERSON", "gazetteer+spacy", 0.9499, "gazetteer:first_last,spacy:PERSON"),
    (
        409,
        430,
        "EMAIL_ADDRESS",
        "patterns+presidio",
        0.9919,
        "pattern:email,presidio:EmailRecognizer[pattern Email (Medium)]",
    ),
    (432, 443, "SPELLED_OUT_ITEM", "patterns", 0.973, "pattern:as_in"),
    (468, 476, "PERSON", "cues+header", 0.9939, "cue:speaker_label,header:name_part"),
    (493, 500, "PERSON", "cues+spacy", 0.9826, "cue:title,spacy:PERSON"),
    (507, 521, "PHONE_NUMBER", "patterns+presidio", 0.9959, "pattern:us_phone,presidio:PhoneRecognizer"),
    (525, 539, "DATE", "patterns+spacy", 0.9928, "pattern:month_day,pattern:year,spacy:DATE"),
]
BEFORE_CONFIG_FILTERED = [
    (73, 85, "TIME", "no digit or clock word"),
    (135, 142, "PERSON", "contains digits"),
    # spaCy's DATE "19 years old" is an age: DATE means a calendar date (precision issue).
    (197, 209, "DATE", "no calendar date (month, weekday, year, decade, day or numeric date)"),
]


@pytest.mark.parametrize("config", [None, DetectionConfig(), DetectionConfig.from_dict({})])
def test_default_config_reproduces_the_pipeline_before_configurations(config):
    from pipelines.detection.merging.calibration import probability

    result = detect_text(SAMPLE, MODEL, SAMPLE_METADATA, config)
    got = [(s.start, s.end, s.label, "+".join(s.sources), s.rule) for s in result.spans]
    assert got == [(start, end, label, sources, rule) for start, end, label, sources, _score, rule in BEFORE_CONFIG]
    # Scores are the calibrated probabilities of the spans (pinned above as fitted
    # when written; the fit is data, `python -m evaluation gold --write-calibration`),
    # with the weights fitted for the model that ran.
    assert [s.score for s in result.spans] == [probability(s, SAMPLE, model=MODEL) for s in result.spans]
    assert (
        sorted((f.candidate.start, f.candidate.end, f.candidate.label, f.reason) for f in result.filtered)
        == BEFORE_CONFIG_FILTERED
    )


# --- the annotation task ---------------------------------------------------------------


def ingest(corpus, user, capture, text: str):
    with capture(execute=True):
        document, _ = ingest_document(corpus=corpus, name="doc.txt", data=text.encode(), user=user)
    document.refresh_from_db()
    return document


def test_document_annotate_uses_the_corpus_config_and_records_what_it_filtered(
    corpus, admin_user, django_capture_on_commit_callbacks, client
):
    config = DetectionConfig(
        recognizers=frozenset({"patterns"}),
        patterns=(CorpusPattern("PERSON", r"john doe"), CorpusPattern("BAD", r"(a|aa)+$")),
        allow={"Hartwell": "PERSON"},
        pattern_timeout=0.2,
    )
    StoredConfig.objects.create(corpus=corpus, data=config.to_dict())
    text = "HARTWELL: the witness john doe was 19 years old.\n" + "a" * 40 + "b\n"
    document = ingest(corpus, admin_user, django_capture_on_commit_callbacks, text)
    assert document.status == "ready", document.error_message
    assert {(s.label, s.text, tuple(s.sources)) for s in document.spans.all()} == {
        ("PERSON", "HARTWELL", ("allow_list",)),
        ("AGE", "19", ("patterns",)),
    }
    detection = DocumentDetection.objects.get(document=document)
    assert detection.config == config.to_dict()
    assert detection.filtered_counts == {"all lowercase": 1}
    assert detection.filtered == [[22, 30, "PERSON", ["corpus"], "all lowercase"]]
    assert detection.timed_out == ["(a|aa)+$"]
    client.force_login(admin_user)
    page = client.get(reverse("document_history", args=[document.pk])).content.decode()
    assert "filtered: all lowercase (1)" in page
    assert "(a|aa)+$" in page


def test_document_annotate_without_a_config_runs_the_default(corpus, admin_user, django_capture_on_commit_callbacks):
    document = ingest(corpus, admin_user, django_capture_on_commit_callbacks, SAMPLE)
    expected = detect_text(SAMPLE, settings.SPACY_MODEL, document.metadata).spans  # the site's default
    assert sorted((s.start, s.end, s.label) for s in document.spans.all()) == [
        (s.start, s.end, s.label) for s in expected
    ]
    assert DocumentDetection.objects.get(document=document).config == DetectionConfig().to_dict()


def test_an_invalid_stored_config_fails_the_document_with_a_reason(
    corpus, admin_user, django_capture_on_commit_callbacks
):
    StoredConfig.objects.create(corpus=corpus, data={"mode": "majority"})
    document = ingest(corpus, admin_user, django_capture_on_commit_callbacks, "Officer Smith.")
    assert document.status == "failed"
    assert "invalid detection configuration (unknown mode 'majority'" in document.error_message


# --- the admin page --------------------------------------------------------------------

FORM_DEFAULTS = {
    "recognizers": ["spacy", "presidio", "patterns", "cues", "gazetteer", "header"],
    "mode": "union",
    "k": "2",
    "min_score": "0",
    "patterns": "",
    "deny": "",
    "allow": "",
    # Every rule on, whatever rules filters.py has: the default configuration.
    "filters": list(FILTER_RULE_NAMES),
    **{f"weight_{s}": str(w) for s, w in DetectionConfig().weights.items()},
}


def test_the_form_with_its_initial_values_is_the_default_config():
    initial = DetectionConfigForm.initial_for(DetectionConfig())
    data = {k: (v if isinstance(v, list) else str(v)) for k, v in initial.items()}
    form = DetectionConfigForm(data=data)
    assert form.is_valid(), form.errors
    assert form.config == DetectionConfig()


class DetectionConfigPageTests(TestCase):
    @classmethod
    def setUpTestData(cls) -> None:
        User = get_user_model()
        cls.corpus = Corpus.objects.create(name="Hearings")
        other = Corpus.objects.create(name="Other")
        cls.owner = User.objects.create_user("owner", password="pw")
        cls.users = {}
        for name, corpus, role in (
            ("reviewer", cls.corpus, Role.REVIEWER),
            ("auditor", cls.corpus, Role.AUDITOR),
            ("stranger", other, Role.ADMIN),  # admin of another corpus
        ):
            cls.users[name] = User.objects.create_user(name, password="pw")
            CorpusMembership.objects.create(corpus=corpus, user=cls.users[name], role=role)
        CorpusMembership.objects.create(corpus=cls.corpus, user=cls.owner, role=Role.ADMIN)
        cls.url = reverse("detection_config", args=[cls.corpus.pk])

    def setUp(self) -> None:
        self.client = Client(enforce_csrf_checks=True)

    def csrf_post(self, data: dict):
        if "csrftoken" not in self.client.cookies:
            self.client.get(reverse("login"))
        return self.client.post(self.url, data, HTTP_X_CSRFTOKEN=self.client.cookies["csrftoken"].value)

    def test_only_corpus_admins_see_the_page(self) -> None:
        response = self.client.get(self.url)
        self.assertEqual(response.status_code, 302)
        self.assertIn(reverse("login"), response["Location"])
        # Members without the admin role are refused (403); the admin of another corpus finds nothing (404).
        for username, user in self.users.items():
            self.client.force_login(user)
            expected = 404 if username == "stranger" else 403
            self.assertEqual(self.client.get(self.url).status_code, expected, username)
            self.assertEqual(self.csrf_post(FORM_DEFAULTS).status_code, expected, username)
        self.assertFalse(StoredConfig.objects.exists())

    def test_admin_sees_the_default_config_in_constant_queries(self) -> None:
        self.client.force_login(self.owner)
        with self.assertNumQueries(5):  # session, user, corpus+role, stored config, recent changes
            response = self.client.get(self.url)
        self.assertEqual(response.status_code, 200)
        page = response.content.decode()
        self.assertIn('value="union" selected', page)
        self.assertIn("seed 001", page)
        corpus_page = self.client.get(reverse("corpus_detail", args=[self.corpus.pk])).content.decode()
        self.assertIn(f'href="{self.url}" id="detection-config-link"', corpus_page)
        self.client.force_login(self.users["reviewer"])
        corpus_page = self.client.get(reverse("corpus_detail", args=[self.corpus.pk])).content.decode()
        self.assertNotIn("detection-config-link", corpus_page)

    def test_an_invalid_stored_config_is_shown_as_the_default_with_its_reason(self) -> None:
        StoredConfig.objects.create(corpus=self.corpus, data={"packs": ["gone"]})
        self.client.force_login(self.owner)
        page = self.client.get(self.url).content.decode()
        self.assertIn("The stored configuration is invalid (unknown pack &#x27;gone&#x27;)", page)

    def test_post_without_csrf_token_is_refused(self) -> None:
        self.client.force_login(self.owner)
        self.assertEqual(self.client.post(self.url, FORM_DEFAULTS).status_code, 403)
        self.assertFalse(StoredConfig.objects.exists())

    def test_admin_saves_a_config_that_the_page_then_shows(self) -> None:
        self.client.force_login(self.owner)
        data = {
            **FORM_DEFAULTS,
            "recognizers": ["spacy", "patterns"],
            "mode": "vote",
            "k": "2",
            "packs": ["seed001"],
            "patterns": "CASE_REF: REF-\\d{4}",
            "deny": "Court\nBoard",
            "allow": "ORGANIZATION: Acme Widgets",
            "filters": ["role_word"],
            "weight_corpus": "3",
        }
        self.csrf_post(FORM_DEFAULTS)  # the CSRF cookie's first request (the default: no change), outside the count
        # session, user, corpus+role, savepoint, select for update, update, audit insert, release
        with self.assertNumQueries(8):
            response = self.csrf_post(data)
        self.assertRedirects(response, self.url, fetch_redirect_response=False)
        stored = DetectionConfig.from_dict(StoredConfig.objects.get(corpus=self.corpus).data)
        self.assertEqual(stored.recognizers, {"spacy", "patterns"})
        self.assertEqual((stored.mode, stored.k, stored.packs), ("vote", 2, ("seed001",)))
        self.assertEqual(stored.patterns, (CorpusPattern("CASE_REF", r"REF-\d{4}"),))
        self.assertEqual(stored.deny, ("Court", "Board"))
        self.assertEqual(stored.allow, {"Acme Widgets": "ORGANIZATION"})
        self.assertEqual(stored.disabled_filters, set(FORM_DEFAULTS["filters"]) - {"role_word"})
        self.assertEqual(stored.weights["corpus"], 3.0)
        change = DetectionConfigChange.objects.get(corpus=self.corpus)
        self.assertEqual(
            (change.user, change.before, change.after), (self.owner, DetectionConfig().to_dict(), stored.to_dict())
        )
        page = self.client.get(self.url).content.decode()
        self.assertIn("CASE_REF: REF-\\d{4}", page)
        self.assertIn("<code>mode</code>: &quot;union&quot; → &quot;vote&quot;", page)
        self.assertIn('value="vote" selected', page)

    def test_a_bad_regex_is_refused_with_its_message_and_nothing_is_saved(self) -> None:
        self.client.force_login(self.owner)
        response = self.csrf_post({**FORM_DEFAULTS, "patterns": "ID: (a+"})
        self.assertEqual(response.status_code, 200)
        self.assertIn("Line 1: invalid regex “(a+”: missing )", response.content.decode())
        self.assertFalse(StoredConfig.objects.exists())
