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


@register.simple_tag
def text_runs(segments, document_text: str = "") -> SafeString:
    """The transcript as HTML runs, built in Python: on a 100-page transcript
    (~1,500 spans, ~8,000 runs) this is several times faster than a template
    loop. Every value is escaped; the markup is what review.js reads. Given the
    document text, a speaker label that starts an utterance is styled apart,
    a span inside it too ("PRESIDING COMMISSIONER HARTWELL:" with "HARTWELL" a
    PERSON span)."""
    panel = reverse("span_panel", args=[0])[: -len("0/")]
    out = []
    speaker_end = -1  # where the current line's speaker label ends, -1 if none
    for seg in segments:
        if seg.line:
            # The id is where the leak report's links land ("#L3-12": page 3, line 12).
            out.append(
                f'<span class="ln" id="L{seg.line[0]}-{seg.line[1]}" data-ln="p{seg.line[0]}:{seg.line[1]}" '
                'aria-hidden="true"></span>'
            )
        span = seg.span
        if seg.muted is not None:
            # A candidate a filter dropped: muted, its reason in the title, taken
            # with one key ("a", review.js) or from the add panel it opens.
            m = seg.muted
            label, reason = _escape(m.label), _escape(m.reason)
            out.append(
                f'<mark class="span st-muted" data-label="{label}" data-start="{m.start}" data-end="{m.end}" '
                f'data-reason="{reason}" tabindex="0" title="{label} · filtered: {reason}">{_escape(seg.text)}</mark>'
            )
            continue
        if span is None:
            if not document_text:
                out.append(f'<span class="seg" data-start="{seg.start}">{_escape(seg.text)}</span>')
                continue
            pieces, speaker_end = _plain_pieces(document_text, seg.start, seg.start + len(seg.text), speaker_end)
            for start, stop, is_speaker in pieces:
                text = _escape(seg.text[start - seg.start : stop - seg.start])
                kind = "seg speaker" if is_speaker else "seg"
                out.append(f'<span class="{kind}" data-start="{start}">{text}</span>')
            continue
        if document_text and (seg.start == 0 or document_text[seg.start - 1] == "\n"):
            # A span that starts the line: the label may start with it ("HARTWELL:").
            speaker = SPEAKER.match(document_text, seg.start)
            speaker_end = speaker.end() if speaker else -1
        in_speaker = " in-speaker" if seg.start + len(seg.text) <= speaker_end else ""
        text = _escape(seg.text)
        label, status = _escape(span.label), _escape(span.status)
        out.append(
            # The colour comes from static/labels.css by data-label: the
            # Content-Security-Policy allows no style attribute.
            f'<mark id="span-{span.pk}" class="span st-{status}{in_speaker}" '
            f'data-label="{label}" data-span-id="{span.pk}" data-version="{span.version}" data-start="{seg.start}" '
            f'tabindex="0" hx-get="{panel}{span.pk}/" hx-target="#panel" hx-swap="innerHTML" '
            f'title="{label} · {status}">{text}</mark>'
        )
    # Safe: every interpolated value above is escaped or an integer.
    return mark_safe("".join(out))


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
