from django import forms

from ingestion.models import Corpus


class CorpusForm(forms.ModelForm):
    class Meta:
        model = Corpus
        fields = ["name", "description"]


class MultipleFileInput(forms.ClearableFileInput):
    allow_multiple_selected = True


class UploadForm(forms.Form):
    files = forms.FileField(widget=MultipleFileInput(attrs={"multiple": True, "accept": ".txt,.pdf"}))

    def clean_files(self) -> list:
        return self.files.getlist("files")
