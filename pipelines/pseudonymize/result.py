from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Replacement:
    """One span of the original text and what replaces it in the output."""

    start: int
    end: int
    label: str
    original: str
    replacement: str
    strategy: str = "placeholder"


@dataclass(frozen=True, slots=True)
class IndexEntry:
    label: str
    original: str
    replacement: str
    count: int


@dataclass(frozen=True)
class Pseudonymized:
    text: str
    replacements: list[Replacement]
    # name part (lower case) → its placeholder, for file names and spelled names
    names: dict[str, str]

    def index(self) -> list[IndexEntry]:
        """Unique (label, original, replacement), in order of first occurrence."""
        counts: dict[tuple[str, str, str], int] = {}
        for r in self.replacements:
            key = (r.label, r.original, r.replacement)
            counts[key] = counts.get(key, 0) + 1
        return [IndexEntry(label, original, replacement, n) for (label, original, replacement), n in counts.items()]
