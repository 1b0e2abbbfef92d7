"""Forms: corpus creation and settings, uploads, exports, a corpus's detection
configuration."""

from django import forms

from ingestion.models import Corpus
from pipelines.detection.config import (
    FILTER_RULES,
    PACKS,
    RECOGNIZERS,
    WEIGHTED_SOURCES,
    ConfigError,
    CorpusPattern,
    pattern_error,
)
from pipelines.detection.config import RULE_NAMES as FILTER_RULE_NAMES
from pipelines.detection.config import DetectionConfig as DetectionSettings
from pipelines.detection.languages import DEFAULT_LANGUAGE
from pipelines.detection.languages import choices as language_choices
from pipelines.detection.models import catalog as detection_models
from pipelines.detection.recognizers.corpus_patterns import (
    PatternLimitError,
    check_list,
    check_patterns,
    compile_pattern,
)
from pipelines.extraction.bulk import CsvOptions
from pipelines.labels import CANONICAL_LABELS
from pipelines.pseudonymize.engine import STRATEGIES
from review.models import Consistency, ExportScope
from review.services.corpora import CORPUS_NAME_MAX_CHARS, corpus_name_error
from review.services.export import ExportOptions

UPLOAD_ACCEPT = ".txt,.pdf,.zip,.csv"


class CorpusNameRule:
    """A form's `name` field under the rule every corpus name follows, created,
    renamed here or in the admin (`corpus_name_error`): no corpus is made with a
    name it could not be renamed to."""

    cleaned_data: dict

    def clean_name(self) -> str:
        name = self.cleaned_data["name"]
        if problem := corpus_name_error(name):
            raise forms.ValidationError(problem)
        return name


class CorpusForm(CorpusNameRule, forms.ModelForm):
    # The languages are the files of pipelines/detection/languages/, read when the
    # form is built: a new language file shows up here with no code change.
    language = forms.ChoiceField(
        choices=language_choices,
        initial=DEFAULT_LANGUAGE,
        required=False,
        help_text="The language of the corpus's documents: detection runs that language's pipeline. "
        "It cannot be changed later.",
    )

    class Meta:
        model = Corpus
        fields = ["name", "description", "language", "require_second_review"]

    def clean_language(self) -> str:
        return self.cleaned_data.get("language") or DEFAULT_LANGUAGE


class CorpusSettingsForm(CorpusNameRule, forms.Form):
    """A corpus's name and description. The messages are the service's
    (`corpus_name_error`; a name taken by another corpus is refused by
    `corpus_settings_change`): the page's form is `novalidate`, so the browser
    only stops typing at the length limit and shows none of its own."""

    name = forms.CharField(
        required=False,
        widget=forms.TextInput(
            attrs={"maxlength": CORPUS_NAME_MAX_CHARS, "required": True, "autocomplete": "off", "size": 60}
        ),
        help_text="Names are unique. Every export's manifest.json records the corpus name.",
    )
    description = forms.CharField(required=False, widget=forms.Textarea(attrs={"rows": 3}))


class MultipleFileInput(forms.ClearableFileInput):
    allow_multiple_selected = True


class MultipleFileField(forms.Field):
    """The uploaded files as a list, not validated one by one: an empty or bad file
    must fail alone in the service, with its own message, not invalidate the form."""

    widget = MultipleFileInput(attrs={"multiple": True, "accept": UPLOAD_ACCEPT})
    default_error_messages = {"required": "Choose at least one file."}

    def to_python(self, value: object) -> list:
        return list(value) if isinstance(value, list | tuple) else [value] if value else []


class UploadForm(forms.Form):
    files = MultipleFileField()
    text_column = forms.CharField(
        required=False, max_length=200, initial="text", help_text="CSV only: the column that holds the text."
    )
    id_column = forms.CharField(
        required=False, max_length=200, help_text="CSV only, optional: the column that names each document."
    )

    def csv_options(self) -> CsvOptions:
        return CsvOptions(
            text_column=self.cleaned_data["text_column"] or "text", id_column=self.cleaned_data["id_column"] or None
        )


STRATEGY_CHOICES = [
    ("placeholder", "Placeholders: [PERSON_1], [DATE], [PRISON_1]…"),
    ("label", "Label only: [PERSON]"),
    ("generic", "Generic: XXXX"),
    ("mask", "Mask: ****** (keeps the length)"),
    ("random", "Random characters of the same length (keeps the length)"),
    ("surrogate", "Realistic surrogates (fake names, shifted dates, same-format IDs)"),
    ("hash", "Salted hash"),
    ("keep", "Keep the original"),
    ("initials", "Initials of names: J. D. (other labels: placeholders)"),
]
assert [c for c, _ in STRATEGY_CHOICES] == list(STRATEGIES)


class ExportForm(forms.Form):
    scope = forms.ChoiceField(choices=ExportScope.choices, initial=ExportScope.APPROVED)
    accept_pending = forms.BooleanField(required=False, label="Treat pending machine spans as accepted")
    strategy = forms.ChoiceField(choices=STRATEGY_CHOICES, initial="placeholder")
    keep_labels = forms.MultipleChoiceField(
        choices=[(label, label) for label in CANONICAL_LABELS],
        required=False,
        widget=forms.CheckboxSelectMultiple,
        label="Keep these labels unchanged",
    )
    person_numbering = forms.ChoiceField(
        choices=[("part", "Each name part: [PERSON_1] [PERSON_2]"), ("entity", "Each person: [PERSON_1]")],
        initial="part",
    )
    consistency = forms.ChoiceField(choices=Consistency.choices, initial=Consistency.DOCUMENT)
    # Off unless asked for: the index files and training data hold the original names.
    include_index = forms.BooleanField(
        required=False,
        initial=False,
        label="Include index files and training data (they hold the original names: keep them in-house)",
    )
    keep_stems = forms.BooleanField(
        required=False,
        initial=False,
        label="Name redacted files after their originals (names in them pseudonymized), not by number only",
    )

    def options(self) -> ExportOptions:
        data = self.cleaned_data
        return ExportOptions(
            scope=data["scope"],
            accept_pending=data["accept_pending"],
            strategy=data["strategy"],
            per_label=dict.fromkeys(data["keep_labels"], "keep"),
            person_numbering=data["person_numbering"],
            consistency=data["consistency"],
            include_index=data["include_index"],
            keep_stems=data["keep_stems"],
        )


def _lines(value: str) -> list[str]:
    return [line.strip() for line in value.splitlines() if line.strip()]


def _label_lines(value: str, what: str) -> list[tuple[str, str]]:
    """`LABEL: rest` per line; the label has no colon, the rest may have any."""
    pairs = []
    for n, line in enumerate(_lines(value), start=1):
        label, sep, rest = line.partition(":")
        if not sep or not rest.strip():
            raise forms.ValidationError(f"Line {n}: write “LABEL: {what}”.")
        pairs.append((label.strip().upper(), rest.strip()))
    return pairs


def _check_list(name: str, entries: list[str]) -> None:
    errors = check_list(name, entries)
    if errors:
        raise forms.ValidationError([f"{error[0].upper()}{error[1:]}." for error in errors])


class DetectionConfigForm(forms.Form):
    recognizers = forms.MultipleChoiceField(
        choices=[(r, r) for r in RECOGNIZERS], required=False, widget=forms.CheckboxSelectMultiple
    )
    mode = forms.ChoiceField(
        choices=[
            ("union", "Union: every candidate"),
            ("intersection", "Intersection: every enabled recognizer agrees"),
            ("vote", "Vote: at least k recognizers agree"),
        ]
    )
    k = forms.IntegerField(min_value=1, max_value=len(RECOGNIZERS), label="k (vote)")
    min_score = forms.FloatField(min_value=0, max_value=1, label="Minimum score")
    packs = forms.MultipleChoiceField(choices=list(PACKS.items()), required=False, widget=forms.CheckboxSelectMultiple)
    patterns = forms.CharField(
        required=False,
        widget=forms.Textarea(attrs={"rows": 5, "cols": 80}),
        help_text="One per line: LABEL: regex (Python syntax; a group named v, when present, is the span).",
    )
    deny = forms.CharField(
        required=False, widget=forms.Textarea(attrs={"rows": 4}), help_text="One text per line: never proposed."
    )
    allow = forms.CharField(
        required=False,
        widget=forms.Textarea(attrs={"rows": 4}),
        help_text="One per line: LABEL: text, always proposed wherever the text occurs.",
    )
    filters = forms.MultipleChoiceField(
        choices=list(FILTER_RULES.items()),
        required=False,
        widget=forms.CheckboxSelectMultiple,
        label="Filter rules on",
    )

    model = forms.ChoiceField(
        required=False,
        label="spaCy model",
        help_text="Each model's licence is listed below; a research-only model is for non-commercial research.",
    )

    def __init__(self, *args, site_model: str = "", **kwargs) -> None:
        super().__init__(*args, **kwargs)
        for source in WEIGHTED_SOURCES:
            self.fields[f"weight_{source}"] = forms.FloatField(min_value=0, max_value=100, label=source)
        # The models installed here (models.py), each with its licence in its label;
        # a stored choice that is no longer installed stays listed so that saving
        # the form says so instead of silently changing the corpus's model.
        self.models = detection_models.installed()
        installed = {m.name for m in self.models}
        choices = [("", f"The site's default ({site_model})" if site_model else "The site's default")]
        for m in detection_models.REGISTRY.values():
            missing = "" if m.name in installed else " — not installed here"
            choices.append((m.name, f"{m.name}: {m.description} (licence: {m.licence}){missing}"))
        # Only the value already stored (passed as initial by the view, never taken
        # from the request): a corpus admin must not point the workers at any path or
        # package, such as another corpus's model directory.
        stored = str(self.initial.get("model") or "")
        if stored and stored not in dict(choices):
            choices.append((stored, f"{stored} (a package or directory set outside this form)"))
        self.fields["model"].choices = choices

    @property
    def models_table(self) -> list[dict]:
        """Every model the registry knows, with its licence and whether it is here."""
        installed = {m.name for m in self.models}
        return [
            {
                "name": m.name,
                "licence": m.licence,
                "licence_clean": m.licence_clean,
                "installed": m.name in installed,
                "install": m.install,
            }
            for m in detection_models.REGISTRY.values()
        ]

    def clean_model(self) -> str:
        name = self.cleaned_data["model"]
        info = detection_models.REGISTRY.get(name)
        if info is not None and info.location() is None:
            raise forms.ValidationError(f"The model “{name}” is not installed on this server: {info.install}.")
        return name

    @property
    def weight_fields(self) -> list:
        return [self[f"weight_{source}"] for source in WEIGHTED_SOURCES]

    @classmethod
    def initial_for(cls, config: DetectionSettings) -> dict:
        return {
            "recognizers": sorted(config.recognizers),
            "mode": config.mode,
            "k": config.k,
            "min_score": config.min_score,
            "packs": list(config.packs),
            "patterns": "\n".join(f"{p.label}: {p.pattern}" for p in config.patterns),
            "deny": "\n".join(config.deny),
            "allow": "\n".join(f"{label}: {text}" for text, label in config.allow.items()),
            "filters": [name for name in FILTER_RULE_NAMES if name not in config.disabled_filters],
            "model": config.model,
            **{f"weight_{s}": config.weights.get(s, 1.0) for s in WEIGHTED_SOURCES},
        }

    def clean_patterns(self) -> list[tuple[str, str]]:
        pairs = _label_lines(self.cleaned_data["patterns"], "regex")
        # The limits first (count, length, expanded size), from the text alone: a
        # pattern is never compiled before it is known to be small enough.
        errors = check_patterns([pattern for _label, pattern in pairs])
        if errors:
            raise forms.ValidationError([f"{error[0].upper()}{error[1:]}." for error in errors])
        for n, (label, pattern) in enumerate(pairs, start=1):
            try:
                compile_pattern(pattern)
                CorpusPattern(label, pattern).compile()
            except PatternLimitError as exc:
                raise forms.ValidationError(f"Line {n}: “{pattern}”: {exc}.") from exc
            except pattern_error() as exc:
                raise forms.ValidationError(f"Line {n}: invalid regex “{pattern}”: {exc}.") from exc
        return pairs

    def clean_deny(self) -> str:
        # The lists' limits (MAX_LIST_*), said here by field, before a configuration is built.
        _check_list("deny list", _lines(self.cleaned_data["deny"]))
        return self.cleaned_data["deny"]

    def clean_allow(self) -> list[tuple[str, str]]:
        pairs = _label_lines(self.cleaned_data["allow"], "text")
        _check_list("allow list", [text for _label, text in pairs])
        return pairs

    def clean(self) -> dict:
        data = super().clean()
        if self.errors:
            return data
        try:
            self.config = DetectionSettings.from_dict(
                {
                    "recognizers": data["recognizers"],
                    "mode": data["mode"],
                    "k": data["k"],
                    "min_score": data["min_score"],
                    "packs": data["packs"],
                    "patterns": [{"label": label, "pattern": p} for label, p in data["patterns"]],
                    "deny": _lines(data["deny"]),
                    "allow": {text: label for label, text in data["allow"]},
                    "disabled_filters": [n for n in FILTER_RULE_NAMES if n not in data["filters"]],
                    "weights": {s: data[f"weight_{s}"] for s in WEIGHTED_SOURCES},
                    "model": data.get("model", ""),
                }
            )
        except ConfigError as exc:
            raise forms.ValidationError(str(exc)) from exc
        return data
