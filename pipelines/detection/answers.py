"""Answers about a word in a document, asked once per candidate and worth computing
once per document ("is this word only ever an eponym here?", "does the document
call someone by this rank alone?"): each would otherwise read the whole text again
for every span that holds the word, quadratic on a long transcript."""

from collections.abc import Callable


class DocumentAnswers:
    """The answers for the last documents, keyed by the text's length and hash and
    the word, so that no document's text is kept; forgotten all at once past
    `limit` entries."""

    def __init__(self, limit: int = 4096) -> None:
        self._answers: dict[tuple[int, int, str], bool] = {}
        self._limit = limit

    def get(self, text: str, word: str, compute: Callable[[], bool]) -> bool:
        key = (len(text), hash(text), word)
        if key not in self._answers:
            if len(self._answers) >= self._limit:
                self._answers.clear()
            self._answers[key] = compute()
        return self._answers[key]
