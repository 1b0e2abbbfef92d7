"""ARCHITECTURE.md is a true map: every path it names exists in this repository,
and it names none outside it (issue 25: 8 of 10 claims were stale, one link led
out of the repository)."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# A path in backquotes or a link: words, dots and slashes, with a slash or a
# known extension ("review/access.py", "tests/review/", "pyproject.toml").
_CODE = re.compile(r"`([^`\s]+)`")
_LINK = re.compile(r"\]\(([^)\s]+)\)")
_PATHLIKE = re.compile(r"^[\w./-]+(?:\.(?:py|json|toml|md|html|js|css|txt|cfg)|/)$")


def named_paths(text: str) -> list[str]:
    found = []
    for token in [*_CODE.findall(text), *_LINK.findall(text)]:
        token = token.split("::")[0].rstrip(",.;:")
        if _PATHLIKE.match(token) and ("/" in token or "." in token):
            found.append(token)
    return found


def test_every_path_the_map_names_exists_inside_the_repository():
    text = (ROOT / "ARCHITECTURE.md").read_text(encoding="utf-8")
    paths = named_paths(text)
    assert len(paths) > 40, "the map names the modules it describes"
    outside = [p for p in paths if p.startswith(("../", "/")) or ".." in Path(p).parts]
    assert outside == [], f"paths outside the repository: {outside}"
    missing = [p for p in paths if not (ROOT / p).exists()]
    assert missing == [], f"ARCHITECTURE.md names paths that do not exist: {missing}"


def test_the_check_sees_a_stale_path():
    assert named_paths("see `review/nowhere.py` and [x](../shared/seeds/) and `manage.py`") == [
        "review/nowhere.py",
        "manage.py",
        "../shared/seeds/",
    ]
