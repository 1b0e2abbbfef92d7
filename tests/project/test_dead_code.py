"""Dead code is flagged (issue 25): vulture over the product, with the callers it
cannot see accounted for. A function, method, class or property of the product
that nothing calls fails this test; one that only a template, the settings or a
Django option list (a name in quotes) uses is not dead."""

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PRODUCT = ("pipelines/", "review/", "ingestion/", "anonymizer_site/")
KINDS = re.compile(r"^(?P<path>[^:]+):(?P<line>\d+): unused (?:function|method|class|property) '(?P<name>\w+)'")


def test_no_dead_code_in_the_product():
    # Configuration in pyproject.toml ([tool.vulture]): paths (the product and
    # every caller: tests, bench, evaluation, training), Django's and Celery's
    # hooks by name, registered functions by decorator.
    result = subprocess.run([sys.executable, "-m", "vulture"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert result.returncode in (0, 3), result.stderr  # 3: vulture found something
    templates = "\n".join(p.read_text() for p in (ROOT / "templates").rglob("*.html"))
    scripts = "\n".join(p.read_text() for p in (ROOT / "static").rglob("*.js") if "vendor" not in p.parts)
    product = "\n".join(
        p.read_text() for package in PRODUCT for p in (ROOT / package).rglob("*.py") if "migrations" not in p.parts
    )
    dead = []
    for line in result.stdout.splitlines():
        match = KINDS.match(line)
        if not match or not match["path"].startswith(PRODUCT):
            continue
        name = match["name"]
        if re.search(rf"\b{name}\b", templates + scripts) or re.search(rf"""['".]{name}['"]""", product):
            continue  # called from a template or a script, or named in a setting / option list
        dead.append(line)
    assert dead == [], "dead code (delete it, or name the hook in pyproject's [tool.vulture]):\n" + "\n".join(dead)
