"""A corpus's memory (issue 17): what its reviewers already decided.

Plain data handed to the pipeline by the caller: names accepted in the corpus's
approved documents (found again as the source `corpus-memory`) and surface forms
its reviewers rejected and never accepted (dropped as `corpus-suppression`), each
with the documents it came from. One corpus's memory never reaches another: the
caller builds it per corpus.

Names are found with the project's name identity (`pipelines.names`): case
variants under its case policy, possessives, a person's parts, joined, spelled
and line-broken forms, exactly as propagation and the export's leak gate see a
name. Suppressions compare the whole span text, white space collapsed and
casefolded (`suppression_form`), and only under the labels reviewers rejected it
as: "Correct" rejected as a PERSON does not hide a LOCATION "Correct".
"""

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from pipelines.candidate import Candidate
from pipelines.gazetteers import is_frequent_name, is_known_name
from pipelines.names import NameIdentity, NameWords, english_name_words, form_key, name_context

MEMORY_SOURCE = "corpus-memory"
SUPPRESSION_SOURCE = "corpus-suppression"
# The labels a corpus remembers: names and identifiers, which recur from one
# document of a corpus to the next as the same person, place or number. Values
# (dates, times, ages) are not identities.
MEMORY_LABELS = frozenset({"PERSON", "SPELLED_NAME", "ORGANIZATION", "LOCATION", "ID"})
# Above a lone model guess (spaCy 0.6) and propagation (0.8): a reviewer of this
# corpus accepted the name, in several documents perhaps.
MEMORY_SCORE = 0.95
# What a suppression may never drop: what the transcript's header, a reviewer,
# the corpus admin (allow list, corpus patterns) or the memory itself says.
PROTECTED_SOURCES = frozenset({"header", "human", "allow_list", "corpus", MEMORY_SOURCE})


def suppression_form(text: str) -> str:
    """The key a suppression is stored and matched under."""
    return " ".join(text.split()).casefold()


def provenance(documents: Iterable[int]) -> str:
    """ "corpus-memory: documents 3, 7": shown in the span's history panel."""
    ids = sorted(set(documents))
    noun = "document" if len(ids) == 1 else "documents"
    return f"{MEMORY_SOURCE}: {noun} {', '.join(str(i) for i in ids)}"


@dataclass(frozen=True)
class MemoryName:
    """A name accepted in the corpus: one surface form, its label, where it was accepted."""

    text: str
    label: str
    documents: tuple[int, ...] = ()


@dataclass(frozen=True)
class Suppression:
    """A surface form rejected in `documents` (under `labels`), never accepted."""

    form: str
    labels: frozenset[str]
    documents: tuple[int, ...] = ()

    @property
    def reason(self) -> str:
        n = len(set(self.documents))
        return f"{SUPPRESSION_SOURCE}: rejected in {n} document{'s' if n != 1 else ''}, never accepted"


@dataclass(frozen=True)
class CorpusMemory:
    """Empty by default: detection then runs exactly as without memory."""

    names: tuple[MemoryName, ...] = ()
    suppressions: tuple[Suppression, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.names or self.suppressions)


class CompiledMemory:
    """What a memory needs at run time, built once per `detect_texts` call."""

    def __init__(
        self,
        memory: CorpusMemory | None,
        words: NameWords | None = None,
        frequent_name: Callable[[str], bool] | None = is_frequent_name,
    ) -> None:
        # The texts' language's words (English by default; filtering/words.py gives
        # them): the name identity's, and the tests of `_bare_common_name`, which
        # do not run where the language has no list (`frequent_name` None).
        self.words = words or english_name_words()
        self.frequent_name = frequent_name
        names = [n for n in (memory.names if memory else ()) if n.label in MEMORY_LABELS and n.text.strip()]
        self.identity = NameIdentity(((n.text, n.label) for n in names), self.words)
        # An occurrence reports the key of the accepted form it is one of (a
        # person's part reports the whole name's key): its documents are the union
        # of the documents of every form with that key.
        self.documents: dict[str, set[int]] = {}
        for name in names:
            self.documents.setdefault(form_key(name.text, name.label, self.words), set()).update(name.documents)
        self.suppressed: dict[str, Suppression] = {}
        for s in memory.suppressions if memory else ():
            form = suppression_form(s.form)
            if form:
                known = self.suppressed.get(form)
                self.suppressed[form] = (
                    s
                    if known is None
                    else Suppression(form, known.labels | s.labels, tuple(sorted({*known.documents, *s.documents})))
                )

    def candidates(self, text: str) -> list[Candidate]:
        """Every occurrence of a remembered name, with the documents it was accepted in."""
        if not self.identity:
            return []
        found = []
        for o in self.identity.find(text):
            if _bare_common_name(text, o.start, o.end, o.label, self.words, self.frequent_name):
                continue
            rule = provenance(self.documents.get(o.key, ()))
            found.append(
                Candidate(o.start, o.end, o.label, text[o.start : o.end], (MEMORY_SOURCE,), MEMORY_SCORE, rule)
            )
        return found

    def suppression(self, candidate: Candidate) -> str | None:
        """Why a machine candidate is dropped, or None. A candidate any protected
        source backs is never dropped."""
        if not self.suppressed or set(candidate.sources) & PROTECTED_SOURCES:
            return None
        entry = self.suppressed.get(suppression_form(candidate.text))
        if entry is None or (entry.labels and candidate.label not in entry.labels):
            return None
        if _could_be_a_person(candidate):
            return None
        return entry.reason


def _bare_common_name(
    text: str, start: int, end: int, label: str, words: NameWords, frequent: Callable[[str], bool] | None
) -> bool:
    """One word that is a common word of the language or one of the commonest surnames
    ("Young", "Brown", "Wilson"), with no name context around it (a title, a
    speaker label, another part of a name beside it): that a reviewer accepted
    someone of that name in another document says little about this one, and the
    memory's high score would put it above "accept all". The other recognizers
    still judge it here on its own evidence."""
    word = text[start:end]
    if label not in ("PERSON", "SPELLED_NAME") or not word.isalpha():
        return False
    # A test whose list the language lacks does not run.
    common = words.common_word
    bare = (common is not None and common(word)) or (frequent is not None and frequent(word))
    return bare and not name_context(text, start, end, words=words)


def _could_be_a_person(candidate: Candidate) -> bool:
    """A person's name in name case whose every word is a known given name or
    surname ("Bill", "Will Rose") is never suppressed, whatever reviewers rejected
    ("bill" the noun, "will" the verb): a suppressed name is a leak nobody sees,
    a kept false alarm costs one click."""
    words = candidate.text.split()
    return (
        candidate.label in ("PERSON", "SPELLED_NAME")
        and bool(words)
        and not candidate.text.islower()
        and all(is_known_name(w.strip(".,'’")) for w in words)
    )
