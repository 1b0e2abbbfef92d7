"""Pseudonymization of one document's accepted spans under an export configuration.

Strategies, chosen per export and overridable per label:
- placeholder (default): seed 000's typed, numbered placeholders ([PERSON_1], [DATE]…)
- label: `[PERSON]`; generic: `XXXX` (presidio's replace operator)
- mask: `*` for every character (presidio's mask operator; leaks the length)
- random: same-length random characters of the same class (leaks the length)
- surrogate: realistic fake values (Faker), consistent per person; dates shifted
  consistently per document
- hash: salted SHA-256 (presidio's hash operator)
- keep: the original (presidio's keep operator), e.g. officials' names
- initials: a name's initials ("Jean DUPONT" → "J. D.", seed 002); what is no name
  (dates, numbers, addresses) gets its placeholder
"""

import hashlib
import random
import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from pipelines.candidate import Candidate
from pipelines.pseudonymize.counters import NumberedMap
from pipelines.pseudonymize.initials import NAME_LABELS, initials
from pipelines.pseudonymize.placeholder import placeholder_for
from pipelines.pseudonymize.result import Pseudonymized, Replacement
from pipelines.pseudonymize.surrogates import Surrogates, same_shape

STRATEGIES: tuple[str, ...] = (
    "placeholder",
    "label",
    "generic",
    "mask",
    "random",
    "surrogate",
    "hash",
    "keep",
    "initials",
)


@dataclass(frozen=True)
class PseudonymizationConfig:
    strategy: str = "placeholder"
    per_label: dict[str, str] = field(default_factory=dict)
    person_numbering: str = "part"  # or "entity": one number per whole name
    # Salt for hash, random and surrogate: without it their output could be
    # recomputed from a guessed original.
    secret: str = ""

    def __post_init__(self) -> None:
        for strategy in (self.strategy, *self.per_label.values()):
            if strategy not in STRATEGIES:
                raise ValueError(f"unknown strategy {strategy!r}; choose one of {', '.join(STRATEGIES)}")
        if self.person_numbering not in ("part", "entity"):
            raise ValueError("person_numbering is 'part' or 'entity'")

    def strategy_for(self, label: str) -> str:
        return self.per_label.get(label, self.strategy)


def _random(text: str, secret: str, label: str) -> str:
    seed = int.from_bytes(hashlib.sha256(f"{secret}\x1f{label}\x1f{text}".encode()).digest()[:8], "big")
    return same_shape(text, random.Random(seed))


def _operators():
    """presidio-anonymizer's operators, imported on first use: importing them loads
    presidio-analyzer and spaCy (seconds), which a web process rendering an
    export form, or an export that only writes placeholders, should not pay."""
    from presidio_anonymizer.operators import Hash, Keep, Mask, Replace

    return Hash, Keep, Mask, Replace


def _replace(
    span: Candidate, strategy: str, config: PseudonymizationConfig, numbers: NumberedMap, surrogates: Surrogates
) -> str:
    text = span.text
    if strategy == "placeholder":
        return placeholder_for(span, numbers, config.person_numbering)
    if strategy == "initials":
        found = initials(text) if span.label in NAME_LABELS else None
        return found or placeholder_for(span, numbers, config.person_numbering)
    if strategy in ("label", "generic", "mask", "hash", "keep"):
        Hash, Keep, Mask, Replace = _operators()  # noqa: N806 -- presidio's class names
    if strategy == "label":
        return Replace().operate(text, {"new_value": f"[{span.label}]"})
    if strategy == "generic":
        return Replace().operate(text, {"new_value": "XXXX"})
    if strategy == "mask":
        return Mask().operate(text, {"masking_char": "*", "chars_to_mask": len(text), "from_end": False})
    if strategy == "hash":
        # presidio wants >= 16 bytes of salt; derive them from the corpus secret.
        salt = hashlib.sha256(f"salt\x1f{config.secret}".encode()).hexdigest()
        return Hash().operate(text, {"hash_type": "sha256", "salt": salt})
    if strategy == "keep":
        return Keep().operate(text, {})
    if strategy == "random":
        return _random(text, config.secret, span.label)
    # surrogate
    if span.label == "PERSON":
        return surrogates.person(text)
    if span.label == "DATE":
        return surrogates.date(text) or placeholder_for(span, numbers, config.person_numbering)
    if span.label in ("TIME", "AGE", "HEIGHT", "SPELLED_NAME", "SPELLED_OUT_ITEM"):
        return placeholder_for(span, numbers, config.person_numbering)
    return surrogates.value(span.label, text)


# Strategies that keep the original's length: the stop is masked with the rest.
_LENGTH_KEEPING = frozenset({"mask", "random"})
_NEXT_SENTENCE = re.compile(r"\s*(?:$|\n|[A-Z\"“(])")


def _sentence_stop(text: str, span: Candidate, replacement: str, strategy: str) -> str:
    """The full stop a span took with it when its last dot also ended the sentence
    ("… at 9:05 a.m. This is" → "… at [TIME]. This is", not "[TIME] This is")."""
    if not span.text.endswith(".") or replacement.endswith(".") or strategy in _LENGTH_KEEPING:
        return ""
    return "." if _NEXT_SENTENCE.match(text, span.end) else ""


def pseudonymize_document(
    text: str,
    spans: Iterable[Candidate],
    config: PseudonymizationConfig | None = None,
    numbers: NumberedMap | None = None,
    document_key: str = "",
) -> Pseudonymized:
    """Replace each span; spans must not overlap. `numbers` carries placeholder
    numbers across documents when consistency is corpus-wide."""
    config = config or PseudonymizationConfig()
    numbers = numbers if numbers is not None else NumberedMap()
    ordered = sorted(spans, key=lambda s: (s.start, s.end))
    for a, b in zip(ordered, ordered[1:], strict=False):
        if b.start < a.end:
            raise ValueError(f"overlapping spans at {a.start}-{a.end} and {b.start}-{b.end}")
    avoid = {s.text for s in ordered} | {part for s in ordered if s.label == "PERSON" for part in s.text.split()}
    surrogates = Surrogates(f"{config.secret}\x1f{document_key}", avoid)
    replaced: dict[int, str] = {}
    # PERSON first, so a spelled name earlier in the text finds the person it spells.
    for pass_person in (True, False):
        for i, span in enumerate(ordered):
            if (span.label == "PERSON") == pass_person:
                replaced[i] = _replace(span, config.strategy_for(span.label), config, numbers, surrogates)
    pieces: list[str] = []
    cursor = 0
    replacements = []
    for i, span in enumerate(ordered):
        pieces.append(text[cursor : span.start])
        pieces.append(replaced[i] + _sentence_stop(text, span, replaced[i], config.strategy_for(span.label)))
        replacements.append(
            Replacement(span.start, span.end, span.label, span.text, replaced[i], config.strategy_for(span.label))
        )
        cursor = span.end
    pieces.append(text[cursor:])
    # File names take per-part numbers; with one number per person they would
    # contradict the text, so they get the bare label instead.
    if config.person_numbering == "entity":
        names = dict.fromkeys(numbers.keys("PERSON"), "[PERSON]")
    else:
        names = {key: f"[PERSON_{numbers.number('PERSON', key)}]" for key in numbers.keys("PERSON")}
    return Pseudonymized("".join(pieces), replacements, names)


def pseudonymize(text: str, spans: Iterable[Candidate]) -> Pseudonymized:
    """The default: placeholders, numbered per document."""
    return pseudonymize_document(text, spans)
