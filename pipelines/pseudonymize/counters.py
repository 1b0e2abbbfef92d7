class NumberedMap:
    """Stable `[PREFIX_n]` numbers per key, one counter per prefix, in order of first use."""

    def __init__(self) -> None:
        self._numbers: dict[tuple[str, str], int] = {}
        self._next: dict[str, int] = {}

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
