"""Import presidio-analyzer without compiling the URL patterns that
`detection/recognizers/url_guard.py` replaces.

Importing `presidio_analyzer` imports every predefined recognizer, and each
`Pattern` compiles its regex once, only to check that it is valid. The URL
recognizer's patterns hold some 600 top-level domains: checking them is about
0.1 s of a one-line `detect` (measured with `python -X importtime` and by timing
`import presidio_analyzer` with and without this module: 0.83 s → 0.72 s), a
tenth of the start-up the architecture issue asks to keep no slower than
Presidio's own. We never run those patterns (`url_guard` stands in for the
recognizer), so that one module is executed with the check skipped; every other
pattern is checked as upstream does, and the check is back in place as soon as
the module has run. If presidio is already imported, or its `Pattern` no longer
has that check, nothing is changed.

Installed by `pipelines/__init__.py`, so before any engine module can import
presidio, whatever the import order.
"""

import importlib.abc
import importlib.machinery
import sys
from types import ModuleType

URL_MODULE = "presidio_analyzer.predefined_recognizers.generic.url_recognizer"
_CHECK = "_Pattern__validate_regex"


class _UncheckedLoader(importlib.abc.Loader):
    """Runs the real module with `Pattern`'s validity check switched off."""

    def __init__(self, real: importlib.abc.Loader) -> None:
        self.real = real

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType | None:
        return self.real.create_module(spec)

    def exec_module(self, module: ModuleType) -> None:
        from presidio_analyzer.pattern import Pattern

        check = Pattern.__dict__.get(_CHECK)
        if not isinstance(check, staticmethod):  # presidio changed: import as it is
            self.real.exec_module(module)
            return
        setattr(Pattern, _CHECK, staticmethod(lambda pattern: None))
        try:
            self.real.exec_module(module)
        finally:
            setattr(Pattern, _CHECK, check)


class _Finder(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):  # type: ignore[no-untyped-def]
        if name != URL_MODULE:
            return None
        sys.meta_path.remove(self)  # once is enough
        spec = importlib.machinery.PathFinder.find_spec(name, path)
        if spec is not None and spec.loader is not None:
            spec.loader = _UncheckedLoader(spec.loader)
        return spec


def install() -> None:
    if "presidio_analyzer" in sys.modules or any(isinstance(f, _Finder) for f in sys.meta_path):
        return
    sys.meta_path.insert(0, _Finder())
