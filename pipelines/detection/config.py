"""A corpus's detection configuration: plain data, validated, JSON both ways.

This module is data and validation only: it imports no recognizer. The names it
validates against (recognizers, filter rules, packs, sources and their default
weights) are listed here, and the modules that implement them read them from
here (filters.py and packs.py check at import that they implement exactly these).

`DetectionConfig()` is the default pipeline, the one `detect` runs: every
recognizer on, union, the weights of `SOURCE_WEIGHTS`, no threshold, no pack,
every filter rule on. A corpus stores its own as JSON; `from_dict` raises
`ConfigError` with a message for the admin on anything invalid, including a
regex that does not compile.
"""

import re
from dataclasses import dataclass, field
from typing import Any

from pipelines.detection.recognizers.corpus_patterns import PatternLimitError, check_list, check_patterns

# The spaCy pipeline detection loads when nothing else is configured (the
# SPACY_MODEL setting): a registry name (models/catalog.py), an installed package
# name or a model directory. `open` (sm followed by the licence-clean encoder,
# built by `make install`) is measured better than sm on general text and loses no
# name on the real transcripts (BENCHMARKS.md, "The licence-clean default");
# `sm` stays the fast choice.
DEFAULT_MODEL = "open"
RECOGNIZERS: tuple[str, ...] = ("spacy", "presidio", "patterns", "cues", "gazetteer", "header")
MODES: tuple[str, ...] = ("union", "intersection", "vote")
# The sources a corpus can weigh: the recognizers, and what the pipeline adds.
WEIGHTED_SOURCES: tuple[str, ...] = (*RECOGNIZERS, "propagation", "corpus", "allow_list", "corpus-memory")
# How much each source's score counts when the ensemble weighs overlapping
# candidates (ensemble.py).
SOURCE_WEIGHTS: dict[str, float] = {
    "header": 2.0,
    "cues": 1.5,
    "patterns": 1.5,
    "presidio": 1.0,
    "spacy": 1.0,
    "propagation": 1.0,
    "gazetteer": 1.0,
    # A corpus's own regexes and its allow list: what the corpus admin wrote.
    "corpus": 1.5,
    "allow_list": 10.0,
    # A name this corpus's reviewers accepted in approved documents (memory.py):
    # above the header and the cues, below what the admin wrote in the allow list.
    "corpus-memory": 3.0,
    "human": 10.0,
}
# Filter rules (filters.py implements them), in the order they run: name → what it drops.
# "On Saturday" pins the day of an event, which seed 000 marks ([DAY_OF_WEEK]): a
# weekday alone is kept as a DATE for the reviewer, below the scores "accept all
# >= 0.9" or a corpus's minimum would take on trust. A schedule ("on Wednesdays",
# "every Monday") pins none: weekday_recurring drops it (muted on the review page).
WEEKDAY_ALONE_SCORE = 0.5
# A name right after the kind of work it titles ("the novel Dark Matters", "author of
# Alice in Wonderland"): a suggestion at most, never bulk-accepted.
NAMED_WORK_SCORE = 0.5
# A model's person shaped as an acronym in a sentence ("You took GOGI"; but "my
# cellie was XIONG"): kept for the reviewer, never bulk-accepted.
ACRONYM_PERSON_SCORE = 0.5
FILTER_RULES: dict[str, str] = {
    "line_break": "model entity that crosses a line break",
    "role_word": "name made only of role words or their plurals (commissioner, commissioners, inmate…)",
    "closed_class": "name made only of closed-class words: pronouns, determiners, conjunctions (spaCy's stop words)",
    "transcript_notation": "a transcriber's notation (inaudible, crosstalk…), not a name",
    "common_word": "a model's one-word name that is a common English word opening a sentence, no known name or place "
    "(wordfreq)",
    "person_name_shape": 'a model\'s PERSON of several words, one of them in lower case ("Rigor mortis"; not in '
    "a text that writes no name with a capital)",
    "person_single_character": "one-character PERSON",
    "person_digits": "PERSON that contains digits",
    "person_number_field": "a model's PERSON that is a record number's field letters before the number (\"DIN "
    '07-B-4418")',
    "person_acronym": "a model's one-word PERSON written as an acronym on a line in lower case, no known name "
    f'("You took GOGI"), in a text with case: kept, its score capped at {ACRONYM_PERSON_SCORE}',
    "person_lowercase": "all-lowercase PERSON (not in a text that writes no name with a capital)",
    "person_word_of_the_text": "a one-word PERSON no name list knows that the document writes in lower case twice or "
    'more and with a capital only where a sentence opens ("Paramour confirmed" beside "BM and paramour")',
    "person_after_determiner": "a model's one-word PERSON after a determiner or a possessive, in a text without "
    'case ("the mike")',
    "person_common_phrase": 'a model\'s PERSON of English words, none a given name ("Closing Statements")',
    "person_noun_shape": "a model's one-word PERSON in a text without case, shaped as a common noun (-tion, -sion, "
    '-ment, -ism, -ology, -itis) and no known name ("ABRASION")',
    "person_names_a_work": 'a model\'s PERSON right after the kind of work it titles ("the novel Dark Matters", '
    f'"author of Alice in Wonderland"): kept, its score capped at {NAMED_WORK_SCORE}',
    "person_eponym": 'a model\'s one-word PERSON that names a procedure, a test or a law ("an Olson review", '
    '"Marsy\'s Law") and is written nowhere else in the document without such a noun',
    "person_radio_spelling": "a PERSON of the radio alphabet's words spelling a registration, a plate or a call "
    'sign beside another of them or a figure ("November four one seven Sierra Kilo")',
    "vehicle": "a model's PERSON or ORGANIZATION that is a car: after an article, a colour or a make no one is "
    'named after ("a silver Mercedes", "his Toyota Sienna", "a Chevy Tahoe"); never a place ("Dodge Street")',
    "second_opinion_one_word": "a base model's one-word PERSON that the encoder did not call a name: a second "
    "opinion needs a full name (in a text without case: known names only)",
    "model_lowercase_place": "a model's all-lowercase LOCATION or ORGANIZATION (a common noun; not in a text that "
    "writes no name with a capital)",
    "place_nationality": "a model's one-word LOCATION that is a nationality or a language, no place "
    '("she is Tongan", "testify in Tamil"; pycountry\'s languages that English names often, never a place\'s name)',
    "named_as_a_language": 'a model\'s one-word name said as a language ("speaks in Anishinaabemowin", "Cree '
    'words"), no known place',
    "holiday": 'a model\'s name that is a holiday or a feast ("the day after Mardi Gras", "every Rosh Hashanah"), '
    'or a storm the document names ("Hurricane Georges") and says only beside a storm\'s word, never as a person',
    "numbered_thing": 'the number of a form, exhibit or page ("Form 1073"), not an ID or a date; its letter ("Tab G"), '
    "not a person",
    "date_words": "DATE that is no calendar date: no month, weekday, year, decade, day ordinal or numeric date",
    "weekday_recurring": 'DATE that is a weekday recurring or any one ("on Wednesdays", "every Monday", "any Friday")',
    "weekday_alone": f'DATE that is a weekday alone ("on Saturday"): kept, its score capped at {WEEKDAY_ALONE_SCORE}',
    "duration": 'DATE or TIME that is an amount of time ("15 years", "five-year", "about 12 hours")',
    "time_words": "TIME with no digit or clock word",
    "recording_clock": "TIME that is a recording's clock, no time of day (a subtitle's timing, a meeting transcript's "
    "stamp after its speaker)",
}
RULE_NAMES: tuple[str, ...] = tuple(FILTER_RULES)
# Optional pattern packs (packs.py implements them): name → description.
PACKS: dict[str, str] = {
    "seed001": "Clinical notes (seed 001): NRIC, case number, hospital IDs, SG phone, ward, bed, admission time, "
    "patient class, dates"
}
# Corpus regexes run under the `regex` module's timeout, per pattern and document.
PATTERN_TIMEOUT_SECONDS = 1.0
_LABEL = re.compile(r"^[A-Z][A-Z0-9_]{0,39}$")
MAX_PATTERNS = 100


class ConfigError(ValueError):
    pass


def pattern_error() -> type[Exception]:
    """The exception an invalid corpus pattern raises (`regex.error`), for `except`
    clauses: evaluated only when compiling raised, so `regex` is imported by then."""
    import regex

    return regex.error


@dataclass(frozen=True)
class CorpusPattern:
    label: str
    pattern: str
    score: float = 0.9

    def compile(self) -> Any:
        """The compiled `regex` pattern, measured against the limits before anything
        is compiled (raises PatternLimitError, or `regex.error`)."""
        from pipelines.detection.recognizers.corpus_patterns import compile_pattern

        return compile_pattern(self.pattern)


@dataclass(frozen=True)
class DetectionConfig:
    recognizers: frozenset[str] = frozenset(RECOGNIZERS)
    mode: str = "union"
    # vote: at least k distinct sources agree (overlapping spans of one label).
    k: int = 2
    weights: dict[str, float] = field(default_factory=lambda: {s: SOURCE_WEIGHTS[s] for s in WEIGHTED_SOURCES})
    # Merged spans scoring below it are dropped (and recorded as filtered).
    min_score: float = 0.0
    packs: tuple[str, ...] = ()
    patterns: tuple[CorpusPattern, ...] = ()
    # Texts never proposed (compared case-insensitively, whole span).
    deny: tuple[str, ...] = ()
    # Text → label, always proposed wherever the text occurs (whole words).
    allow: dict[str, str] = field(default_factory=dict)
    # Filter rules (filters.RULE_NAMES) turned off for this corpus.
    disabled_filters: frozenset[str] = frozenset()
    pattern_timeout: float = PATTERN_TIMEOUT_SECONDS
    # The spaCy model this corpus detects with; "" is the site's (SPACY_MODEL).
    model: str = ""

    def __post_init__(self) -> None:
        self.validate()

    def validate(self) -> None:
        errors = [*self._vote_errors(), *self._pattern_errors(), *self._list_errors()]
        for pack in self.packs:
            if pack not in PACKS:
                errors.append(f"unknown pack {pack!r}")
        unknown = set(self.disabled_filters) - set(RULE_NAMES)
        if unknown:
            errors.append(f"unknown filter rule(s): {', '.join(sorted(unknown))}")
        if errors:
            raise ConfigError("; ".join(errors))

    def _vote_errors(self) -> list[str]:
        """Recognizers, the mode and its k, weights, the minimum score."""
        errors = []
        unknown = set(self.recognizers) - set(RECOGNIZERS)
        if unknown:
            errors.append(f"unknown recognizer(s): {', '.join(sorted(unknown))}")
        if self.mode not in MODES:
            errors.append(f"unknown mode {self.mode!r} (choose {', '.join(MODES)})")
        if not isinstance(self.k, int) or not 1 <= self.k <= len(RECOGNIZERS):
            errors.append(f"k must be a whole number from 1 to {len(RECOGNIZERS)}")
        for source, weight in self.weights.items():
            if source not in WEIGHTED_SOURCES:
                errors.append(f"unknown source {source!r} in weights")
            elif not isinstance(weight, int | float) or not 0 <= weight <= 100:
                errors.append(f"the weight of {source} must be a number from 0 to 100")
        if not isinstance(self.min_score, int | float) or not 0 <= self.min_score <= 1:
            errors.append("the minimum score must be between 0 and 1")
        return errors

    def _pattern_errors(self) -> list[str]:
        errors = []
        if len(self.patterns) > MAX_PATTERNS:
            errors.append(f"at most {MAX_PATTERNS} patterns")
        # Limits on count, length and expanded size, read from the pattern's text:
        # a compile bomb is refused before it is compiled.
        limit_errors = check_patterns([p.pattern for p in self.patterns if p.pattern])
        errors += limit_errors
        for n, p in enumerate(self.patterns, start=1):
            if not _LABEL.match(p.label):
                errors.append(f"pattern {n}: label {p.label!r} must be capitals, digits and _ (e.g. CASE_ID)")
            if not p.pattern:
                errors.append(f"pattern {n}: empty regex")
                continue
            if not limit_errors:
                try:
                    p.compile()
                except PatternLimitError as exc:
                    errors.append(f"pattern {n} ({p.pattern}): {exc}")
                except pattern_error() as exc:
                    errors.append(f"pattern {n} ({p.pattern}): invalid regex: {exc}")
            if not 0 < p.score <= 1:
                errors.append(f"pattern {n}: score must be in (0, 1]")
        if not 0 < self.pattern_timeout <= 10:
            errors.append("pattern timeout must be in (0, 10] seconds")
        return errors

    def _list_errors(self) -> list[str]:
        # Entries, characters per entry and in all (MAX_LIST_*): the lists are
        # matched on every document, and a 9.5 MB list cost a worker 1.3 GB.
        errors = [*check_list("deny list", self.deny), *check_list("allow list", list(self.allow))]
        for text, label in self.allow.items():
            if not text.strip():
                errors.append("allow list: empty text")
            if not _LABEL.match(label):
                errors.append(f"allow list: label {label!r} of {text!r} must be capitals, digits and _")
        return errors

    @property
    def vote_k(self) -> int | None:
        """How many distinct sources must agree, or None for no vote (union).
        Intersection is a vote of every enabled recognizer (seed 001's
        intersection of its packages)."""
        if self.mode == "vote":
            return self.k
        if self.mode == "intersection":
            return len(self.recognizers)
        return None

    def to_dict(self) -> dict:
        return {
            "recognizers": sorted(self.recognizers, key=RECOGNIZERS.index),
            "mode": self.mode,
            "k": self.k,
            "weights": dict(self.weights),
            "min_score": self.min_score,
            "packs": list(self.packs),
            "patterns": [{"label": p.label, "pattern": p.pattern, "score": p.score} for p in self.patterns],
            "deny": list(self.deny),
            "allow": dict(self.allow),
            "disabled_filters": sorted(self.disabled_filters),
            "pattern_timeout": self.pattern_timeout,
            "model": self.model,
        }

    @classmethod
    def from_dict(cls, data: dict | None) -> "DetectionConfig":
        """Missing keys take their default, so a config stored before a new option
        existed keeps working."""
        data = data or {}
        if not isinstance(data, dict):
            raise ConfigError("the configuration must be a JSON object")
        default = cls()
        known = set(default.to_dict())
        extra = set(data) - known
        if extra:
            raise ConfigError(f"unknown option(s): {', '.join(sorted(extra))}")
        try:
            weights = dict(default.weights)
            weights.update({str(k): float(v) for k, v in (data.get("weights") or {}).items()})
            patterns = tuple(
                CorpusPattern(str(p["label"]), str(p["pattern"]), float(p.get("score", 0.9)))
                for p in data.get("patterns") or ()
            )
            return cls(
                recognizers=frozenset(data.get("recognizers", RECOGNIZERS)),
                mode=str(data.get("mode", default.mode)),
                k=int(data.get("k", default.k)),
                weights=weights,
                min_score=float(data.get("min_score", default.min_score)),
                packs=tuple(data.get("packs") or ()),
                patterns=patterns,
                deny=tuple(str(t) for t in data.get("deny") or ()),
                allow={str(t): str(label) for t, label in (data.get("allow") or {}).items()},
                disabled_filters=frozenset(data.get("disabled_filters") or ()),
                pattern_timeout=float(data.get("pattern_timeout", default.pattern_timeout)),
                model=str(data.get("model") or ""),
            )
        except (TypeError, KeyError, AttributeError) as exc:
            raise ConfigError(f"malformed configuration ({exc})") from exc
        except ValueError as exc:
            if isinstance(exc, ConfigError):
                raise
            raise ConfigError(f"malformed configuration ({exc})") from exc


DEFAULT = DetectionConfig()
