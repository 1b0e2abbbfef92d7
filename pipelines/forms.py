from django import forms

from pipelines.labels import CANONICAL_LABELS
from pipelines.models import Consistency, ExportScope
from pipelines.pseudonymize.engine import STRATEGIES
from pipelines.services import ExportOptions

STRATEGY_CHOICES = [
    ("placeholder", "Placeholders: [PERSON_1], [DATE], [PRISON_1]…"),
    ("label", "Label only: [PERSON]"),
    ("generic", "Generic: XXXX"),
    ("mask", "Mask: ****** (keeps the length)"),
    ("random", "Random characters of the same length (keeps the length)"),
    ("surrogate", "Realistic surrogates (fake names, shifted dates, same-format IDs)"),
    ("hash", "Salted hash"),
    ("keep", "Keep the original"),
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
    include_index = forms.BooleanField(
        required=False, initial=True, label="Include index files and training data (sensitive)"
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
        )
