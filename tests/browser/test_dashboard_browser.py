"""The corpus dashboard in real Chromium (Debian's, driven by Playwright), under
a strict Content-Security-Policy: reached from the corpus page, every chart is
drawn by the vendored Chart.js from the page's JSON, with the database's
numbers, and nothing the page or the chart library does is refused by the
policy."""

import re

import pytest
from playwright.sync_api import Page, Route

from tests.review.test_dashboard import build_fixture_corpus, expected

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# The policy the site is moving to (django-csp): no inline script or style.
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'"
)
# Every CSP violation the page reports, wherever it comes from.
RECORD_VIOLATIONS = """
window.__violations = [];
document.addEventListener('securitypolicyviolation', (e) => window.__violations.push(
    {directive: e.violatedDirective, blocked: e.blockedURI, source: e.sourceFile || ''}));
"""
CHARTS = """() => Object.fromEntries([...document.querySelectorAll('canvas[data-chart]')].map((canvas) => {
    const chart = Chart.getChart(canvas);
    const pixels = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
    let drawn = 0;
    for (let i = 3; i < pixels.length; i += 4) if (pixels[i] > 0) drawn++;
    return [canvas.id, {
        labels: chart.data.labels,
        series: Object.fromEntries(chart.data.datasets.map((d) => [d.key, d.data])),
        width: canvas.clientWidth, height: canvas.clientHeight, drawn: drawn,
        label: canvas.getAttribute('aria-label'),
    }];
}))"""


@pytest.fixture
def page(browser):
    page = browser.new_context().new_page()
    page.set_default_timeout(15_000)
    return page


def with_csp(route: Route) -> None:
    response = route.fetch()
    route.fulfill(response=response, headers={**response.headers, "content-security-policy": CSP})


def log_in(page: Page, live_server, username: str) -> None:
    page.goto(live_server.url + "/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", "s3cret-pass-long")
    page.click("button[type=submit]")
    page.wait_for_selector("text=Log out")


def test_the_dashboard_draws_the_databases_numbers_under_a_strict_policy(live_server, page):
    fixture = build_fixture_corpus()
    truth = expected(fixture.corpus)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.add_init_script(RECORD_VIOLATIONS)
    page.route(re.compile(r".*/corpora/\d+/dashboard/$"), with_csp)

    log_in(page, live_server, "aud-Hearings")  # an auditor: every member sees it
    page.click(f"a:has-text('{fixture.corpus.name}')")
    page.wait_for_url(re.compile(rf".*/corpora/{fixture.corpus.pk}/$"))
    page.click("#dashboard-link")
    page.wait_for_url(re.compile(r".*/dashboard/$"))
    page.wait_for_function(
        "() => typeof Chart !== 'undefined' && [...document.querySelectorAll('canvas[data-chart]')]"
        ".every((c) => Chart.getChart(c) && !Chart.animator.running(Chart.getChart(c)))"
    )
    charts = page.evaluate(CHARTS)

    assert set(charts) == {
        "chart-timeline",
        "chart-labels",
        "chart-sources",
        "chart-reliability",
        "chart-throughput",
        "chart-residual",
    }
    for name, chart in charts.items():
        assert chart["width"] > 200 and chart["height"] > 100, name
        assert chart["drawn"] > 2000, f"{name} drew nothing"
        assert re.search(r"\d", chart["label"]), name

    labels = charts["chart-labels"]
    for label, counts in truth["labels"].items():
        i = labels["labels"].index(label)
        for what in ("accepted", "rejected", "pending", "added"):
            assert labels["series"][what][i] == counts.get(what, 0), (label, what)
    sources = charts["chart-sources"]
    for source, counts in truth["sources"].items():
        i = sources["labels"].index(source)
        assert sources["series"]["rejected"][i] == counts.get("rejected", 0), source
    # One bar per label: the horizontal charts are as tall as their categories need.
    assert labels["height"] >= len(labels["labels"]) * 20
    now = {key: values[-1] for key, values in charts["chart-timeline"]["series"].items()}
    assert now == truth["now"]
    throughput = charts["chart-throughput"]
    for username, (decisions, _ops, _spans, hours) in truth["reviewers"].items():
        i = throughput["labels"].index(username)
        assert throughput["series"]["rate"][i] == round(decisions / hours, 1)
    assert charts["chart-residual"]["labels"] == list(truth["residual"])
    reliability = charts["chart-reliability"]["series"]["share"]
    assert reliability[3] == 33.3

    # The tables hold the same numbers, one click away.
    page.click("#spans summary")
    row = page.locator("#table-labels tr", has_text="PERSON").first
    assert row.is_visible()
    cells = row.locator("td").all_inner_texts()
    person = truth["labels"]["PERSON"]
    assert cells[:4] == [str(person.get(k, 0)) for k in ("accepted", "rejected", "pending", "added")]
    assert page.locator("#quasi-empty").is_visible()

    violations = page.evaluate("window.__violations")
    # htmx (base.html) may inject its indicator style; that is the site's
    # policy work, not this page's. Nothing else may be refused.
    ours = [v for v in violations if "htmx" not in v["source"]]
    assert not ours, ours
    assert not errors, errors


def test_the_queue_links_to_the_dashboard(live_server, page):
    fixture = build_fixture_corpus()
    log_in(page, live_server, "kim-Hearings")
    page.goto(f"{live_server.url}/corpora/{fixture.corpus.pk}/queue/")
    page.click("#dashboard-link")
    page.wait_for_selector("#key-figures")
    assert page.inner_text("#fig-documents") == "6"
    assert page.inner_text("#fig-residual") == "2"
