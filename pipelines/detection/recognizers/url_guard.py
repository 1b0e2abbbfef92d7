"""A linear-time URL recognizer to stand in for presidio's.

Presidio's UrlRecognizer matches `[a-z0-9.\\-]{1,253}[.](?:tld|tld|…)` from every
position of the text: on a run of dots ("a.a.a.…") each start backtracks through
253 characters and tries some 600 top-level domains at every dot, so 40,000
characters take most of a minute (measured: 2.5 ms a character). This
recognizer finds the same kind of URL with a pattern that
- starts only where a host name can start (not inside a run of host
  characters), so a run is entered once, not once per character;
- takes the host as labels separated by dots, then a top-level domain that
  must end there, so a failed run costs one pass back over its dots.
The top-level domains are presidio's own list, read from its pattern, so the two
agree on what a URL is; scores and context words are presidio's.

Integration (pipelines/detection/recognizers/presidio.py `_engine`): `install(registry)` after
the predefined recognizers are loaded.
"""

import os
import re

# As in presidio.py: before presidio (tldextract) is imported, no public-suffix download.
os.environ.setdefault("TLDEXTRACT_PUBLIC_SUFFIX_LIST_URLS", "")

from presidio_analyzer import Pattern, PatternRecognizer  # noqa: E402
from presidio_analyzer.predefined_recognizers import UrlRecognizer  # noqa: E402

NAME = "UrlRecognizer"


def _top_level_domains() -> list[str]:
    # presidio's list, as it is written in its pattern: (?:com)|(?:edu)|…
    found = re.findall(r"\(\?:([a-z]+)\)", UrlRecognizer.BASE_URL_REGEX)
    return sorted(set(found), key=lambda tld: (-len(tld), tld))


_TLD = "|".join(_top_level_domains())
_LABEL = r"[a-z0-9](?:[a-z0-9\-]{0,61}[a-z0-9])?"
# Not preceded by a host character (a start inside a run would re-scan it), and
# the top-level domain not followed by one (no "example.community" → ".com"), nor by
# a period and a figure: "Sy.No.47/2", "Cr.No. 112/2020" abbreviate a number ("No"
# is Norway's domain too).
_HOST = (
    rf"(?<![a-z0-9.\-])(?:{_LABEL}\.){{1,126}}(?:{_TLD})(?![a-z0-9\-])(?!\.\d)(?!(?<=\.no)\.[ \t]\d)(?::\d{{1,5}})?"
    r"(?:/[^\s()<>\"']*)?"
)


class LinearUrlRecognizer(PatternRecognizer):
    """presidio's URL entity with a pattern that is linear in the text."""

    PATTERNS = [
        Pattern("Standard Url", r"(?i)(?<![a-z0-9.\-])https?://" + _HOST.removeprefix(r"(?<![a-z0-9.\-])"), 0.6),
        Pattern("Non schema URL", r"(?i)" + _HOST, 0.5),
    ]

    def __init__(self, supported_language: str = "en") -> None:
        super().__init__(
            supported_entity="URL",
            patterns=self.PATTERNS,
            context=list(UrlRecognizer.CONTEXT),
            supported_language=supported_language,
            name=NAME,
            # The patterns carry their own (?i) and use no "." or anchors, so
            # presidio's default DOTALL | MULTILINE change nothing; without them the
            # pattern presidio compiles to match is the one it compiled to validate,
            # from the regex module's cache (one compile of the ~670-domain pattern
            # instead of two: ~16 ms of a one-line `detect`).
            global_regex_flags=0,
        )


def install(registry, language: str = "en") -> None:
    """Replace presidio's URL recognizer in a registry by the linear one."""
    registry.remove_recognizer(NAME)
    registry.add_recognizer(LinearUrlRecognizer(language))
