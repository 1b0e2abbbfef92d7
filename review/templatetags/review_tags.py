import functools
import html
import re

from django import template
from django.template.defaultfilters import floatformat
from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe

from pipelines.labels import label_colour

register = template.Library()

# The standard library's escape: what django.utils.html.escape returns (it
# calls it), without its lazy-string wrapper, which cost most of text_runs's
# time over the ~70,000 runs and spans of a 500-page transcript.
_escape = html.escape


@register.filter
def colour(label: str) -> str:
    return label_colour(label)


@register.filter
def excerpt(snapshot: dict | None, text: str) -> str:
    """The document text a span snapshot covered."""
    if not snapshot or "start" not in snapshot:
        return ""
    return text[snapshot["start"] : snapshot["end"]]


@register.filter
def rule_list(rule: str) -> str:
    """A span's rules ("cue:title,spacy:PERSON") as a list that wraps between
    rules rather than inside one."""
    return ", ".join(part.strip() for part in rule.split(",") if part.strip())


# "INMATE:", "PRESIDING COMMISSIONER:", "MR. SMITH:" at the start of an utterance.
SPEAKER = re.compile(r"[A-Z][A-Z .'’-]{0,60}:")


Piece = tuple[int, int, bool]  # start, end, is a speaker label
InnerLines = tuple[tuple[int, tuple[int, int]], ...]  # Segment.inner_lines: (offset, (page, line)) each


def _plain_pieces(document_text: str, start: int, end: int, speaker_end: int) -> tuple[list[Piece], int]:
    """Cut the plain run `[start, end)` into (start, end, is_speaker) pieces.

    A speaker label is found on the document text from the line's start, not on
    the run: "PRESIDING COMMISSIONER HARTWELL:" is cut by the PERSON span on
    "HARTWELL", and its parts before and after the span are still the label.
    `speaker_end` is where the label of the line being rendered ends (carried
    from run to run); the updated value is returned."""
    pieces: list[Piece] = []
    at_line_start = start == 0 or document_text[start - 1 : start] == "\n"
    line_start: int | None = start if at_line_start else None
    if line_start is None:
        newline = document_text.find("\n", start, end)
        line_start = newline + 1 if newline >= 0 else None
    pos = start
    while pos < end:
        if pos == line_start:
            speaker = SPEAKER.match(document_text, pos)
            speaker_end = speaker.end() if speaker else -1
            newline = document_text.find("\n", pos, end)
            line_start = newline + 1 if newline >= 0 else None
        if pos < speaker_end:
            stop, is_speaker = min(speaker_end, end), True
        else:
            stop, is_speaker = min(line_start, end) if line_start is not None else end, False
        if pieces and not is_speaker and not pieces[-1][2]:
            pieces[-1] = (pieces[-1][0], stop, False)  # one run for plain text across lines
        else:
            pieces.append((pos, stop, is_speaker))
        pos = stop
    return pieces, speaker_end


# The transcript is cut into blocks of at least this many characters, each
# ending with a line: a change to one mark (a decision) re-lays out its block,
# not the whole text. As one inline block, a 500-page transcript took the
# browser ~150 ms of layout after every change, however small.
CHUNK_CHARS = 1000
CHUNK_OPEN, CHUNK_CUT = '<div class="chunk">', '</div><div class="chunk">'


class _Runs:
    """The runs of `text_runs`, cut into chunks (CHUNK_CHARS) after a line end."""

    def __init__(self) -> None:
        self.out: list[str] = [CHUNK_OPEN]
        self.since = 0  # characters since the last cut

    def add(self, html: str, text: str) -> None:
        self.out.append(html)
        self.since += len(text)
        if self.since >= CHUNK_CHARS and text.endswith("\n"):
            self.out.append(CHUNK_CUT)
            self.since = 0

    def plain(self, kind: str, start: int, text: str) -> None:
        """A plain run; one that would fill the chunk is cut after its last line end."""
        cut = text.rfind("\n") + 1 if self.since + len(text) >= CHUNK_CHARS else 0
        if 0 < cut < len(text):
            self.add(f'<span class="{kind}" data-start="{start}">{_escape(text[:cut])}</span>', text[:cut])
            start, text = start + cut, text[cut:]
        self.add(f'<span class="{kind}" data-start="{start}">{_escape(text)}</span>', text)

    def html(self) -> SafeString:
        if len(self.out) > 1 and self.out[-1] == CHUNK_CUT:
            self.out.pop()  # the text ended with a cut: no empty block after it
        # Safe: every interpolated value is escaped or an integer.
        return mark_safe("".join([*self.out, "</div>"]))


@register.simple_tag
def text_runs(segments, document_text: str = "") -> SafeString:
    """The transcript as HTML runs, built in Python: on a 100-page transcript
    (~1,500 spans, ~8,000 runs) this is several times faster than a template
    loop. Every value is escaped; the markup is what review.js reads. Given the
    document text, a speaker label that starts an utterance is styled apart,
    a span inside it too ("PRESIDING COMMISSIONER HARTWELL:" with "HARTWELL" a
    PERSON span). The runs are in blocks of about a page (`_Runs`)."""
    panel = reverse("span_panel", args=[0])[: -len("0/")]
    runs = _Runs()
    speaker_end = -1  # where the current line's speaker label ends, -1 if none
    for seg in segments:
        if seg.line:
            runs.add(_line_number(seg.line), "")
        span = seg.span
        if seg.muted is not None:
            # A candidate a filter dropped: muted, its reason in the title (and in
            # the side panel when it has the focus, review.js), taken with one key
            # ("a") or from the add panel it opens.
            m = seg.muted
            label, reason = _escape(m.label), _escape(m.reason)
            runs.add(
                f'<mark class="span st-muted" data-label="{label}" data-start="{m.start}" data-end="{m.end}" '
                f'data-reason="{reason}" tabindex="0" title="{label} · filtered: {reason}">'
                f"{_with_lines(seg.start, seg.text, seg.inner_lines)}</mark>",
                seg.text,
            )
            continue
        if span is None:
            if not document_text:
                runs.plain("seg", seg.start, seg.text)
                continue
            pieces, speaker_end = _plain_pieces(document_text, seg.start, seg.start + len(seg.text), speaker_end)
            for start, stop, is_speaker in pieces:
                runs.plain(
                    "seg speaker" if is_speaker else "seg", start, seg.text[start - seg.start : stop - seg.start]
                )
            continue
        if document_text and (seg.start == 0 or document_text[seg.start - 1] == "\n"):
            # A span that starts the line: the label may start with it ("HARTWELL:").
            speaker = SPEAKER.match(document_text, seg.start)
            speaker_end = speaker.end() if speaker else -1
        in_speaker = seg.start + len(seg.text) <= speaker_end
        runs.add(_mark(span, seg.start, seg.text, in_speaker, panel, seg.inner_lines), seg.text)
    return runs.html()


def _line_number(line: tuple[int, int]) -> str:
    # The id is where the leak report's links land ("#L3-12": page 3, line 12).
    return f'<span class="ln" id="L{line[0]}-{line[1]}" data-ln="p{line[0]}:{line[1]}" aria-hidden="true"></span>'


def _with_lines(start: int, text: str, inner_lines: InnerLines = ()) -> str:
    """A mark's escaped text with the line numbers of the printed lines that start
    inside it (a name a line broke): without them such a line had no number in
    the gutter and no #L anchor. The number holds no text, so the mark's
    textContent is still the span's text (review.js reads offsets through it)."""
    if not inner_lines:
        return _escape(text)
    out, cut = [], 0
    for at, line in inner_lines:
        out += [_escape(text[cut : at - start]), _line_number(line)]
        cut = at - start
    out.append(_escape(text[cut:]))
    return "".join(out)


def _mark(span, start: int, text: str, in_speaker: bool, panel: str, inner_lines: InnerLines = ()) -> str:
    """A span's mark in the transcript (`text`: the document's text from `start`,
    which is the span's; `inner_lines`: the printed lines starting inside it)."""
    label, status = _escape(span.label), _escape(span.status)
    speaker = " in-speaker" if in_speaker else ""
    # The colour comes from static/labels.css by data-label: the
    # Content-Security-Policy allows no style attribute.
    return (
        f'<mark id="span-{span.pk}" class="span st-{status}{speaker}" '
        f'data-label="{label}" data-span-id="{span.pk}" data-version="{span.version}" data-start="{start}" '
        f'tabindex="0" hx-get="{panel}{span.pk}/" hx-target="#panel" hx-swap="innerHTML" '
        f'title="{label} · {status}">{_with_lines(start, text, inner_lines)}</mark>'
    )


def _in_speaker(document_text: str, start: int, end: int) -> bool:
    """Is [start, end) inside the speaker label that starts its line, as
    `text_runs` styles it ("HARTWELL" in "PRESIDING COMMISSIONER HARTWELL:")?"""
    line = document_text.rfind("\n", 0, start) + 1
    speaker = SPEAKER.match(document_text, line)
    return speaker is not None and end <= speaker.end()


@register.simple_tag
def changed_marks(spans, document_text: str) -> SafeString:
    """The marks of the spans a decision changed, for review.js to copy onto the
    marks on the page (it keeps their elements, and so the focus): the
    transcript is not sent again. Only for spans whose extent did not change and
    that no other span overlaps (review.selectors.document.marks_in_place), so
    each mark is where it was, with its new status, label and version. Every
    value is escaped or an integer."""
    panel = reverse("span_panel", args=[0])[: -len("0/")]
    marks = (
        _mark(s, s.start, document_text[s.start : s.end], _in_speaker(document_text, s.start, s.end), panel)
        for s in spans
    )
    return mark_safe("".join(marks))


@functools.lru_cache(maxsize=4096)
def _score(score: float) -> str:
    # The template's `floatformat:2` itself (its rounding), once per distinct score.
    return str(floatformat(score, 2))


@register.simple_tag
def occurrence_items(occurrences) -> SafeString:
    """An entity's occurrences as the side panel's list items, built in Python:
    on a 500-page transcript (~7,500 spans) the template loop they replace took
    most of the page's render. Every value is escaped or an integer."""
    out = []
    for span, place in occurrences:
        status = _escape(span.status)
        score = f" · {_score(span.score)}" if span.score < 1 else ""
        out.append(
            f'<li><a href="#span-{span.pk}" class="occ st-{status}" data-span-id="{span.pk}">'
            f"{_escape(place)} · {status}{score}</a></li>"
        )
    return mark_safe("".join(out))
