"""The review workspace: the document page, the span panel, every decision
(htmx partials), undo/redo, bulk decisions, the preview and the workflow steps."""

from urllib.parse import parse_qs, urlsplit

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, QueryDict
from django.shortcuts import render
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django.views.decorators.vary import vary_on_headers

from ingestion.models import DocumentStatus
from pipelines.labels import CANONICAL_LABELS
from review.access import Need, can_administer, can_review, document_for, holder_conflict, span_for
from review.errors import ReviewError, StaleSpan
from review.models import RejectReason, Span
from review.selectors.document import (
    Filters,
    LineIndex,
    accepted_spans,
    as_spans,
    bulk_count,
    document_spans,
    entity_groups,
    group_targets,
    in_place_update,
    legend,
    line_starts,
    marks_in_place,
    muted_candidates,
    name_group,
    panel_rows,
    preview_text,
    segments,
    sources,
    span_rows,
    status_counts,
)
from review.selectors.runs import active_run_annotations
from review.services.decisions import (
    bulk_decide,
    group_decide,
    link_choices,
    siblings,
    span_accept,
    span_add,
    span_delete,
    span_link,
    span_reject,
    span_relabel,
    span_resize,
)
from review.services.undo import redo_last, undo_last
from review.services.workflow import document_approve, document_mark_reviewed, document_second_review
from review.text import word_step, words_of

TEMPLATE = "review/document_review.html"


def _filters(request: HttpRequest) -> Filters:
    """The side panel filters live in the page URL; an htmx action posted from
    that page finds them in HX-Current-URL, so its re-render keeps them."""
    if request.method == "GET":
        return Filters.from_query(request.GET)
    current = request.headers.get("HX-Current-URL", "")
    query = QueryDict(mutable=True)
    for key, values in parse_qs(urlsplit(current).query).items():
        query.setlist(key, values)
    return Filters.from_query(query)


def can_edit(document, role: str) -> bool:
    """Edit controls are offered only where an edit can succeed: an approved
    document's spans can no longer change (the services refuse it too), and a
    failed one has nothing to review."""
    return can_review(role) and document.status not in (DocumentStatus.APPROVED, DocumentStatus.FAILED)


def _page_context(request, document, role, spans: list | None = None, *, text: bool = True, **extra) -> dict:
    """`text`: the transcript's runs are rendered (the side panel's partial has
    none, and does not pay for them). `spans`: model instances or rows
    (SpanRow), read as rows when not given."""
    spans = span_rows(document.pk) if spans is None else spans
    filters = _filters(request)
    lines = line_starts(document.text, document.layout)
    muted = muted_candidates(document, spans, settings.REVIEW_MUTED_MAX) if text else []
    return {
        "document": document,
        "role": role,
        "can_review": can_review(role),
        "can_edit": can_edit(document, role),
        "can_administer": can_administer(role),
        "segments": segments(document.text, spans, lines, muted) if text else [],
        "legend": legend(spans),
        "counts": status_counts(spans),
        "groups": entity_groups(spans, filters, document.text, lines, words_of(document)),
        "filters": filters,
        "sources": sources(spans),
        "labels": CANONICAL_LABELS,
        "reasons": RejectReason.choices,
        **extra,
    }


def _flag(data: QueryDict, name: str, default: bool) -> bool:
    # A hidden "off" precedes the checkbox, so an unticked box still says so;
    # a request without the field at all (keyboard) gets the default.
    values = data.getlist(name)
    return "on" in values if values else default


def _int(value: str | None) -> int | None:
    try:
        return int(value) if value not in (None, "") else None
    except ValueError:
        return None


def _require_holder(document, user, role: str) -> None:
    conflict = holder_conflict(document, user, role)
    if conflict:
        raise ReviewError(conflict)


def _float(value: str | None) -> float | None:
    try:
        return float(value) if value not in (None, "") else None
    except ValueError:
        return None


@login_required
@require_GET
@vary_on_headers("HX-Request")
def document_review(request: HttpRequest, pk: int) -> HttpResponse:
    # With the machine pass running on it, if any (pre- or re-annotation), in
    # the same query: the page says so and links to its progress.
    document, role = document_for(request.user, pk, annotations=active_run_annotations())
    if request.htmx and request.htmx.target == "annotation-running":
        # The page polls this while a machine pass runs: one query for the
        # document and its run, no spans. Once it is over, a full reload shows
        # the new text and spans (review.js restores the reviewer's place).
        if document.run_kind or document.is_in_progress:
            return render(request, f"{TEMPLATE}#running", {"document": document})
        response = HttpResponse(status=204)
        response["HX-Refresh"] = "true"
        return response
    if request.htmx and request.htmx.target == "entity-list":
        return render(request, f"{TEMPLATE}#entities", _page_context(request, document, role, text=False))
    return render(request, TEMPLATE, _page_context(request, document, role))


def _panel_context(span: Span, role: str, spans: list) -> dict:
    return {
        "span": span,
        "document": span.document,
        "can_review": can_review(role),
        "can_edit": can_edit(span.document, role),
        "labels": CANONICAL_LABELS,
        "reasons": RejectReason.choices,
        "sibling_count": len(siblings(span, spans)),
        "link_choices": link_choices(span, spans),
    }


@login_required
@require_GET
def span_panel(request: HttpRequest, pk: int) -> HttpResponse:
    span, role = span_for(request.user, pk, layout=False)
    # The document's spans as rows: the panel counts pending occurrences and lists
    # the other entities of the same label to link to.
    return render(request, f"{TEMPLATE}#panel", _panel_context(span, role, panel_rows(span.document_id)))


def _decision(request, document, role, spans, *, span=None, error=None, message="", **extra) -> HttpResponse:
    context = _page_context(request, document, role, spans, error=error, message=message, oob=True, **extra)
    if span is not None:
        context.update(_panel_context(span, role, spans))
    return render(request, f"{TEMPLATE}#decision", context)


# The decisions that keep every span's extent: answered in place (the changed
# marks, counts and entities), not with the whole transcript.
IN_PLACE_ACTIONS = ("accept", "reject", "relabel")


def _act(action: str, post: QueryDict, common: dict, every: bool, spans: list[Span]):
    """Run one decision through its service; `common`: span, user, version."""
    span, document = common["span"], common["span"].document
    if action == "accept":
        return span_accept(**common, all_occurrences=every, spans=spans)
    if action == "reject":
        return span_reject(**common, reason=post.get("reason", ""), all_occurrences=every, spans=spans)
    if action == "relabel":
        return span_relabel(**common, label=post.get("label", ""), all_occurrences=every, spans=spans)
    if action == "resize":
        if post.get("edge"):
            start, end = word_step(document.text, span.start, span.end, edge=post["edge"], grow=post.get("grow") == "1")
        else:
            start, end = _int(post.get("start")), _int(post.get("end"))
            if start is None or end is None:
                raise ReviewError("Select the new extent first.")
        return span_resize(**common, start=start, end=end, spans=spans)
    if action == "link":
        target = next((s for s in spans if s.pk == _int(post.get("target"))), None)
        if target is None:
            raise ReviewError("Choose the span to link to.")
        return span_link(**common, target=target, spans=spans)
    if action == "delete":
        return span_delete(**common)
    raise ReviewError("Unknown action.")


def _check_decision(document, request: HttpRequest, role: str, version: int | None) -> None:
    # Every change is checked against the version the reviewer saw: a decision
    # without one would skip the stale-write check, so it is refused.
    if version is None:
        raise ReviewError("This action needs the span's version: reload the page and try again.")
    _require_holder(document, request.user, role)


def _stale(request, document, role, pk: int, error: str) -> HttpResponse:
    """Someone else changed these spans: the page is shown again as it is now."""
    spans = document_spans(document)
    span = next((s for s in spans if s.pk == pk), None)
    if span is not None:
        span.document = document
    return _decision(request, document, role, spans, span=span, error=error, undo=False)


def _decide_in_place(request: HttpRequest, span: Span, role: str, action: str) -> HttpResponse:
    """Accept, reject or relabel. The document's spans are read as rows; the
    services plan and write from instances of the span's name group only (its
    occurrences and what overlaps them, review.selectors.document.name_group),
    and the answer swaps in what changed (see `decision-in-place`)."""
    document = span.document
    rows = span_rows(document.pk)
    spans = as_spans(document, name_group(rows, span, document.text, words_of(document)))
    common = {"span": span, "user": request.user, "version": _int(request.POST.get("version"))}
    error, message, changed = None, "", []
    try:
        _check_decision(document, request, role, common["version"])
        outcome = _act(action, request.POST, common, _flag(request.POST, "all", default=True), spans)
        message, changed = outcome.message, outcome.changed
    except StaleSpan as exc:
        return _stale(request, document, role, span.pk, str(exc))
    except ReviewError as exc:
        error = str(exc)
    if not marks_in_place(changed, spans):
        after = [next((c for c in changed if c.pk == r.pk), r) for r in rows]
        return _decision(request, document, role, after, span=span, error=error, message=message, undo=not error)
    lines = LineIndex(document.text, document.layout)
    after, update = in_place_update(
        rows,
        changed,
        _filters(request),
        document.text,
        lines,
        regroup=action == "relabel" and bool(changed),
        words=words_of(document),
    )
    context = {
        **_panel_context(span, role, after),
        "role": role,
        "can_administer": can_administer(role),
        "error": error,
        "message": message,
        "undo": not error,
        "oob": True,
        "changed": changed,
        "legend": update.legend,
        "counts": update.counts,
        "groups": update.groups,
        "entity_updates": update.entity_updates,
        "group_actions": update.group_actions,
    }
    return render(request, f"{TEMPLATE}#decision-in-place", context)


@login_required
@require_POST
@vary_on_headers("HX-Request")
def span_decide(request: HttpRequest, pk: int, action: str) -> HttpResponse:
    span, role = span_for(request.user, pk, Need.REVIEW)
    if action in IN_PLACE_ACTIONS:
        return _decide_in_place(request, span, role, action)
    document = span.document
    # One query for the whole document: the other spans a resize or a link
    # checks, and the response re-renders the text, legend and side panel from it.
    spans = document_spans(document)
    common = {"span": span, "user": request.user, "version": _int(request.POST.get("version"))}
    error, message = None, ""
    try:
        _check_decision(document, request, role, common["version"])
        message = _act(action, request.POST, common, _flag(request.POST, "all", default=True), spans).message
        if action == "delete":
            spans = [s for s in spans if s.pk != span.pk]
            span = None
    except StaleSpan as exc:
        return _stale(request, document, role, pk, str(exc))
    except ReviewError as exc:
        error = str(exc)
    return _decision(request, document, role, spans, span=span, error=error, message=message, undo=not error)


@login_required
@require_POST
def span_create(request: HttpRequest, pk: int) -> HttpResponse:
    document, role = document_for(request.user, pk, Need.REVIEW)
    error = None
    added = []
    # As in span_decide: one read of the document's spans plans the addition and,
    # updated in place by span_add, re-renders the page.
    spans = document_spans(document)
    try:
        _require_holder(document, request.user, role)
        start = int(request.POST.get("start", ""))
        end = int(request.POST.get("end", ""))
        added = span_add(
            document=document,
            user=request.user,
            start=start,
            end=end,
            label=request.POST.get("label", ""),
            all_occurrences=_flag(request.POST, "all", default=True),
            spans=spans,
        )
    except ValueError:
        error = "Select some text first."
    except StaleSpan as exc:
        error = str(exc)
        spans = document_spans(document)
    except ReviewError as exc:
        error = str(exc)
    span = next((s for s in spans if added and s.pk == added[0].pk), None)
    if span is not None:
        span.document = document
    return _decision(request, document, role, spans, span=span, error=error, added_count=len(added), undo=bool(added))


@login_required
@require_POST
def document_undo(request: HttpRequest, pk: int, redo: bool = False) -> HttpResponse:
    document, role = document_for(request.user, pk, Need.REVIEW)
    error, message = None, ""
    try:
        _require_holder(document, request.user, role)
        message = (redo_last if redo else undo_last)(document=document, user=request.user).message
    except ReviewError as exc:
        error = str(exc)
    return _decision(
        request, document, role, document_spans(document), error=error, message=message, undo=not error, redo=True
    )


def _bulk_filter(data: QueryDict) -> dict:
    return {
        "label": data.get("label", "").strip().upper(),
        "source": data.get("source", "").strip(),
        "score_min": _float(data.get("score_min")),
        "score_max": _float(data.get("score_max")),
    }


@login_required
@require_http_methods(["GET", "POST"])
def document_bulk(request: HttpRequest, pk: int) -> HttpResponse:
    """GET counts the pending spans a bulk filter matches (shown before acting);
    POST accepts or rejects them as one undoable operation."""
    # Counting is reading; deciding is reviewing.
    document, role = document_for(request.user, pk, Need.READ if request.method == "GET" else Need.REVIEW)
    if request.method == "GET":
        count = bulk_count(document, **_bulk_filter(request.GET))
        return render(request, f"{TEMPLATE}#bulk-count", {"bulk_count": count})
    error, message = None, ""
    try:
        _require_holder(document, request.user, role)
        outcome = bulk_decide(
            document=document,
            user=request.user,
            action=request.POST.get("action", ""),
            reason=request.POST.get("reason", ""),
            **_bulk_filter(request.POST),
        )
        message = outcome.message
    except ReviewError as exc:
        error = str(exc)
    return _decision(request, document, role, document_spans(document), error=error, message=message, undo=not error)


@login_required
@require_POST
def document_group(request: HttpRequest, pk: int) -> HttpResponse:
    """The side panel's group actions: accept or reject the pending spans of one
    entity (`span`: one of its spans) or of a whole label group, as the panel
    shows them with its filters (from the page URL), as one undoable operation."""
    document, role = document_for(request.user, pk, Need.REVIEW)
    post = request.POST
    spans = document_spans(document)
    error, message = None, ""
    try:
        _require_holder(document, request.user, role)
        label = post.get("label", "").strip().upper()
        span_id = _int(post.get("span"))
        groups = entity_groups(spans, _filters(request), document.text, words=words_of(document))
        targets = group_targets(groups, label=label, span_id=span_id)
        entity = next((s for s in spans if s.pk == span_id), None)
        name = f"“{entity.text}” ({label})" if entity is not None else f"the {label or '?'} group"
        outcome = group_decide(
            document=document,
            user=request.user,
            action=post.get("action", ""),
            targets=targets,
            name=name,
            expected=_int(post.get("expect")),
            reason=post.get("reason", ""),
        )
        message = outcome.message
    except StaleSpan as exc:
        error = str(exc)
        spans = document_spans(document)
    except ReviewError as exc:
        error = str(exc)
    return _decision(request, document, role, spans, error=error, message=message, undo=not error)


@login_required
@require_GET
def document_preview(request: HttpRequest, pk: int) -> HttpResponse:
    document, _role = document_for(request.user, pk)
    spans = accepted_spans(document)
    try:
        text, error = preview_text(document.text, spans), None
    except ValueError as exc:  # overlapping accepted spans: never expected, but say so
        text, error = "", str(exc)
    return render(
        request, f"{TEMPLATE}#preview", {"document": document, "preview": text, "error": error, "accepted": len(spans)}
    )


@login_required
@require_POST
def document_workflow(request: HttpRequest, pk: int, step: str) -> HttpResponse:
    """ "Mark reviewed" (a reviewer, when no span is pending) and "approve" (a
    corpus admin, once reviewed)."""
    document, role = document_for(request.user, pk, Need.ADMIN if step == "approve" else Need.REVIEW)
    error = None
    try:
        if step != "second":  # the second reviewer is, by definition, not the holder
            _require_holder(document, request.user, role)
        if step == "reviewed":
            document_mark_reviewed(document=document, user=request.user)
        elif step == "approve":
            document_approve(document=document, user=request.user)
        elif step == "second":
            document_second_review(document=document, user=request.user)
        else:
            raise ReviewError("Unknown step.")
    except ReviewError as exc:
        error = str(exc)
    context = {
        "document": document,
        "can_review": can_review(role),
        "can_administer": can_administer(role),
        "workflow_error": error,
    }
    response = render(request, f"{TEMPLATE}#workflow", context)
    if step == "approve" and error is None:
        # Approved: the page's edit controls must go, so htmx reloads it read-only.
        response["HX-Refresh"] = "true"
    return response
