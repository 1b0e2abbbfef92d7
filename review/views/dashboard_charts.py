"""The dashboard's charts: what static/review/dashboard.js hands to Chart.js (a
chart type, category labels and one series per dataset) and, for each, the
English sentence that is its text alternative. Presentation only: the numbers
come from review.selectors.dashboard."""

from dataclasses import dataclass

from review.selectors.dashboard import TIMELINE_STATUSES, Dashboard, ResidualRisk, SpanCounts, Timeline

# The residual-risk chart draws the worst documents only (its table has them all).
RISK_CHART_DOCUMENTS = 20


@dataclass(frozen=True)
class Chart:
    config: dict
    summary: str


def _config(kind: str, labels: list[str], series: list[dict], **options) -> dict:
    """What dashboard.js draws: a Chart.js chart type, the category labels and one
    series per dataset (key: its colour; label; values)."""
    return {"kind": kind, "labels": labels, "series": series, **options}


def timeline_chart(timeline: Timeline) -> Chart:
    series = [{"key": key, "label": label, "values": timeline.counts[key]} for key, label in TIMELINE_STATUSES]
    # Stacked bars while there are few points (a line needs a few to read as
    # one); a stacked area over many.
    kind = "bar" if len(timeline.points) <= 12 else "line"
    config = _config(kind, timeline.points, series, stacked=True, integer=True, y_title="documents")
    if not timeline.points:
        return Chart(config, "Documents by status over time: no document yet.")
    now = ", ".join(f"{label.lower()} {timeline.now[key]}" for key, label in TIMELINE_STATUSES)
    summary = (
        f"Documents by status over time, per {timeline.period}, {len(timeline.points)} points "
        f"from {timeline.points[0]} to {timeline.points[-1]}. Now: {now}. The table below has every point."
    )
    return Chart(config, summary)


def counts_chart(title: str, rows: list[SpanCounts], *, added: bool) -> Chart:
    """Spans per label (`added`: with the spans reviewers added) or per source."""
    series = [
        {"key": "accepted", "label": "Accepted (machine)", "values": [r.accepted for r in rows]},
        {"key": "rejected", "label": "Rejected (machine over-fired)", "values": [r.rejected for r in rows]},
        {"key": "pending", "label": "Pending", "values": [r.pending for r in rows]},
    ]
    if added:
        series.append(
            {"key": "added", "label": "Added by a reviewer (machine missed)", "values": [r.added for r in rows]}
        )
    config = _config("bar", [r.key for r in rows], series, stacked=True, horizontal=True, integer=True, x_title="spans")
    if not rows:
        return Chart(config, f"{title}: no span yet.")
    parts = []
    for r in rows:
        text = f"{r.key} {r.accepted} accepted, {r.rejected} rejected, {r.pending} pending"
        parts.append(text + (f", {r.added} added" if added else ""))
    return Chart(config, f"{title}: " + "; ".join(parts) + ".")


def reliability_chart(dashboard: Dashboard) -> Chart:
    bins = dashboard.bins
    series = [
        {"key": "share", "label": "Share correct (%)", "values": [b.share for b in bins]},
        {
            "key": "calibration",
            "label": "Bin midpoint (a calibrated score)",
            "values": [round(100 * (b.low + b.high) / 2, 1) for b in bins],
            "type": "line",
        },
    ]
    config = _config("bar", [b.name for b in bins], series, percent=True, y_title="% correct")
    parts = [
        f"{b.name}: " + (f"{b.share}% of {b.decided}" if b.decided else "none decided")
        for b in bins
        if b.decided or b.pending
    ]
    if not parts:
        return Chart(config, "Score reliability: no machine span yet.")
    return Chart(config, "Share of decided machine spans that were correct, per score bin: " + "; ".join(parts) + ".")


def throughput_chart(dashboard: Dashboard) -> Chart:
    rows = dashboard.reviewers
    series = [{"key": "rate", "label": "Span decisions per active hour", "values": [r.per_hour for r in rows]}]
    config = _config("bar", [r.username for r in rows], series, y_title="decisions per hour")
    if not rows:
        return Chart(config, "Reviewer throughput: no review decision yet.")
    parts = [
        f"{r.username} {r.per_hour} decisions per hour over {r.active_hours} h, "
        f"{r.actions_per_span} actions per decided span"
        for r in rows
    ]
    return Chart(config, "Reviewer throughput: " + "; ".join(parts) + ".")


def residual_chart(risk: ResidualRisk) -> Chart:
    shown = risk.documents[:RISK_CHART_DOCUMENTS]
    series = [
        {"key": "pending", "label": "Pending", "values": [d.pending for d in shown]},
        {"key": "rejected", "label": "Rejected, unreviewed", "values": [d.rejected_unreviewed for d in shown]},
    ]
    config = _config(
        "bar", [d.name for d in shown], series, stacked=True, horizontal=True, integer=True, x_title="spans"
    )
    if not risk.documents:
        return Chart(
            config, f"Direct identifiers left in approved documents: none, in {risk.approved_documents} approved."
        )
    worst = "; ".join(f"{d.name} {d.total}" for d in shown)
    return Chart(
        config,
        f"Direct identifiers left in approved documents: {risk.total} in {len(risk.documents)} of "
        f"{risk.approved_documents} approved documents. Worst first: {worst}.",
    )


def quasi_chart(risk: ResidualRisk) -> Chart:
    rows = risk.quasi_rows
    series = [{"key": "kept", "label": "Kept", "values": [n for *_, n in rows]}]
    config = _config("bar", [key for key, _, _ in rows], series, integer=True)
    summary = (
        "Quasi-identifiers left as written (kept or undecided), by category: "
        + ", ".join(f"{key} {n}" for key, _, n in rows)
        + "."
    )
    return Chart(config, summary)


def charts(dashboard: Dashboard) -> dict[str, Chart]:
    """Every chart of the page, by the name the template uses."""
    return {
        "timeline": timeline_chart(dashboard.timeline),
        "labels": counts_chart("Spans per label", dashboard.labels, added=True),
        "sources": counts_chart("Machine spans per source", dashboard.sources, added=False),
        "reliability": reliability_chart(dashboard),
        "throughput": throughput_chart(dashboard),
        "residual": residual_chart(dashboard.risk),
        "quasi": quasi_chart(dashboard.risk),
    }
