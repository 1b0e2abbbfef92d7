import re

from django import template
from django.urls import reverse
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from pipelines.labels import label_colour

register = template.Library()


@register.filter
def colour(label: str) -> str:
    return label_colour(label)


@register.filter
def excerpt(snapshot: dict | None, text: str) -> str:
    """The document text a span snapshot covered."""
    if not snapshot or "start" not in snapshot:
        return ""
    return text[snapshot["start"] : snapshot["end"]]


# "INMATE:", "PRESIDING COMMISSIONER:", "MR. SMITH:" at the start of an utterance.
SPEAKER = re.compile(r"[A-Z][A-Z .'’-]{0,60}:")


@register.simple_tag
def text_runs(segments, document_text: str = "") -> SafeString:
    """The transcript as HTML runs, built in Python: on a 100-page transcript
    (~1,500 spans, ~8,000 runs) this is several times faster than a template
    loop. Every value is escaped; the markup is what review.js reads. Given the
    document text, a speaker label that starts an utterance is styled apart."""
    panel = reverse("span_panel", args=[0])[: -len("0/")]
    out = []
    for seg in segments:
        if seg.line:
            # The id is where the leak report's links land ("#L3-12": page 3, line 12).
            out.append(
                f'<span class="ln" id="L{seg.line[0]}-{seg.line[1]}" data-ln="p{seg.line[0]}:{seg.line[1]}" '
                'aria-hidden="true"></span>'
            )
        text = escape(seg.text)
        span = seg.span
        if span is None:
            at_line_start = seg.start == 0 or document_text[seg.start - 1 : seg.start] == "\n"
            speaker = SPEAKER.match(seg.text) if at_line_start else None
            if speaker:
                cut = speaker.end()
                out.append(f'<span class="seg speaker" data-start="{seg.start}">{escape(seg.text[:cut])}</span>')
                seg_start, text = seg.start + cut, escape(seg.text[cut:])
            else:
                seg_start = seg.start
            if text:
                out.append(f'<span class="seg" data-start="{seg_start}">{text}</span>')
            continue
        label, status = escape(span.label), escape(span.status)
        out.append(
            # The colour comes from static/labels.css by data-label: the
            # Content-Security-Policy allows no style attribute.
            f'<mark id="span-{span.pk}" class="span st-{status}" '
            f'data-label="{label}" data-span-id="{span.pk}" data-version="{span.version}" data-start="{seg.start}" '
            f'tabindex="0" hx-get="{panel}{span.pk}/" hx-target="#panel" hx-swap="innerHTML" '
            f'title="{label} · {status}">{text}</mark>'
        )
    # Safe: every interpolated value above is escaped or an integer.
    return mark_safe("".join(out))
