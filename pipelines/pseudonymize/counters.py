class NumberedMap:
    """Stable `[PREFIX_n]` numbers per key, one counter per prefix, in order of first use.

    Serializable, so a corpus-wide map can be stored (encrypted) and reloaded: the
    same person is then `[PERSON_7]` in every document and across re-exports.
    """

    def __init__(self, numbers: dict[tuple[str, str], int] | None = None) -> None:
        self._numbers: dict[tuple[str, str], int] = dict(numbers or {})
        self._next: dict[str, int] = {}
        for (prefix, _key), n in self._numbers.items():
            self._next[prefix] = max(self._next.get(prefix, 0), n)

    def number(self, prefix: str, key: str) -> int:
        if (prefix, key) not in self._numbers:
            self._next[prefix] = self._next.get(prefix, 0) + 1
            self._numbers[(prefix, key)] = self._next[prefix]
        return self._numbers[(prefix, key)]

    def get(self, prefix: str, key: str) -> int | None:
        return self._numbers.get((prefix, key))

    def keys(self, prefix: str) -> list[str]:
        return [k for (p, k) in self._numbers if p == prefix]

    def placeholder(self, prefix: str, key: str) -> str:
        return f"[{prefix}_{self.number(prefix, key)}]"

    def to_json(self) -> list[list]:
        return [[prefix, key, n] for (prefix, key), n in self._numbers.items()]

    @classmethod
    def from_json(cls, rows: list[list]) -> "NumberedMap":
        return cls({(prefix, key): int(n) for prefix, key, n in rows})
