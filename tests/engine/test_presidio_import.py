"""Presidio is imported without compiling the URL patterns url_guard replaces
(start-up, issue 11), and nothing else about presidio changes."""

import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run(code: str) -> str:
    result = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


def test_the_url_module_runs_unchecked_and_the_check_is_back_for_everything_else():
    out = run(
        """
        import sys
        import pipelines.detection.recognizers.presidio as ours
        from pipelines import presidio_import
        from presidio_analyzer import Pattern
        from presidio_analyzer.predefined_recognizers import UrlRecognizer, EmailRecognizer
        from pipelines.detection.recognizers.url_guard import LinearUrlRecognizer

        module = sys.modules[presidio_import.URL_MODULE]
        print(type(module.__spec__.loader).__name__)
        try:
            Pattern("broken", "(", 0.1)
            print("unchecked")
        except ValueError:
            print("checked")
        print(len(UrlRecognizer.PATTERNS) > 0, len(EmailRecognizer.PATTERNS) > 0)
        print([r.entity_type for r in LinearUrlRecognizer().analyze("see https://example.com/a today", ["URL"])])
        """
    )
    assert out.splitlines() == ["_UncheckedLoader", "checked", "True True", "['URL']"], out


def test_presidio_imported_first_is_left_as_it_is():
    out = run(
        """
        import sys
        import presidio_analyzer
        import pipelines
        from pipelines import presidio_import
        print(type(sys.modules[presidio_import.URL_MODULE].__spec__.loader).__name__)
        print(any(type(f).__name__ == "_Finder" for f in sys.meta_path))
        """
    )
    assert out.splitlines() == ["SourceFileLoader", "False"], out


def test_the_private_check_this_relies_on_is_still_there():
    """Pins presidio: `presidio_import` switches off `Pattern`'s private validity
    check while the URL module runs. If an upgrade renames or removes it, the
    import silently goes back to the slow path; this fails instead, so whoever
    upgrades presidio decides whether the patch still earns its keep."""
    from importlib.metadata import version

    from presidio_analyzer.pattern import Pattern

    from pipelines import presidio_import

    assert isinstance(Pattern.__dict__.get(presidio_import._CHECK), staticmethod)
    assert version("presidio-analyzer") == "2.2.366", "re-measure presidio_import against the new presidio"
