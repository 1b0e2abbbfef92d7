from django import forms

from ingestion.models import Corpus
from pipelines.extraction.bulk import CsvOptions

UPLOAD_ACCEPT = ".txt,.pdf,.zip,.csv"


class CorpusForm(forms.ModelForm):
    class Meta:
        model = Corpus
        fields = ["name", "description", "require_second_review"]


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
