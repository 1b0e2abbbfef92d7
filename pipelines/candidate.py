from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Candidate:
    """One detected span, from a recognizer or the ensemble that merged several.

    `[start, end)` are character offsets into the immutable document text.
    A recognizer emits a single source; the ensemble's output carries every source
    that agreed, which is why `sources` is a tuple rather than one name.
    """

    start: int
    end: int
    label: str
    text: str
    sources: tuple[str, ...]
    score: float
    rule: str = ""
    # Set by reviewers' entity linking: spans sharing it are one person.
    entity: str = ""

    def overlaps(self, other: "Candidate") -> bool:
        return self.start < other.end and other.start < self.end

    def to_json(self) -> dict:
        return {
            "start": self.start,
            "end": self.end,
            "label": self.label,
            "text": self.text,
            "sources": list(self.sources),
            "score": round(self.score, 4),
        }


def joined(text: str, parts: list[Candidate], label: str | None = None) -> Candidate:
    """One span over `parts` (sorted, non-overlapping) and what lies between them:
    every source and rule that found a part, the best score; the last part's label
    unless `label` is given."""
    first, last = parts[0], parts[-1]
    sources = tuple(sorted({s for p in parts for s in p.sources}))
    rule = ",".join(sorted({r for p in parts for r in p.rule.split(",") if r}))
    score = max(p.score for p in parts)
    return Candidate(first.start, last.end, label or last.label, text[first.start : last.end], sources, score, rule)


# The spaCy entities an encoder model keeps from its base model as a second opinion
# (detection/models/minilm.py) carry this kb_id, and their candidates this rule
# suffix (detection/recognizers/spacy_ner.py), which a filter reads.
BASE_ONLY = "base-only"
