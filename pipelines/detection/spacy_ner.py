"""spaCy NER as a recognizer: its entities mapped onto canonical labels."""

from spacy.tokens import Doc

from pipelines.detection.candidate import Candidate

SOURCE = "spacy"
# en_core_web_sm exposes no per-entity probability; a fixed score keeps the model
# below the precise pattern recognizers when the ensemble weighs conflicts.
SCORE = 0.6

SPACY_TO_LABEL: dict[str, str] = {
    "PERSON": "PERSON",
    "GPE": "LOCATION",
    "LOC": "LOCATION",
    "FAC": "LOCATION",
    "ORG": "ORGANIZATION",
    "NORP": "NRP",
    "DATE": "DATE",
    "TIME": "TIME",
}


def recognize(doc: Doc) -> list[Candidate]:
    found = []
    for ent in doc.ents:
        label = SPACY_TO_LABEL.get(ent.label_)
        if label is None:
            continue
        found.append(Candidate(ent.start_char, ent.end_char, label, ent.text, (SOURCE,), SCORE, f"spacy:{ent.label_}"))
    return found
