"""The engine: extraction, detection, pseudonymization, export writing and the leak
check, in plain Python over plain data (no Django; see ARCHITECTURE.md)."""

import os

# Presidio's email recognizer (through tldextract) fetches the public suffix list
# unless this is empty, and whichever engine module first imports presidio (the
# detection recognizers or the anonymizer's operators) triggers it: set here, so
# the engine makes no network call whatever the import order.
os.environ.setdefault("TLDEXTRACT_PUBLIC_SUFFIX_LIST_URLS", "")

# Presidio checks every pattern it defines by compiling it at import; the URL
# recognizer's, which detection/recognizers/url_guard.py replaces, are skipped (presidio_import.py).
from pipelines import presidio_import  # noqa: E402

presidio_import.install()
