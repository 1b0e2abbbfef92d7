// The corpus dashboard's charts, drawn with the vendored Chart.js
// (static/vendor/chartjs) from the page's application/json blocks. Each
// <canvas data-chart="ID"> names the block it draws; the block is
// {kind, labels, series: [{key, label, values, type?}], stacked?, horizontal?,
// percent?, x_title?, y_title?}. The numbers are the server's: this file only
// draws them, and the table beside each chart holds the same numbers.
// No inline script or style: sizes go through the CSSOM, which a
// Content-Security-Policy without 'unsafe-inline' allows.
(function () {
  "use strict";
  if (typeof Chart === "undefined") return; // the tables still tell everything

  // One colour per series key, the same on every chart. Status colours run
  // from grey (processing) to dark green (approved); red means rejected,
  // failed or left behind.
  const COLOURS = {
    processing: "#9aa4b2",
    ready: "#7fb3e6",
    in_review: "#f0b429",
    reviewed: "#6fbf8e",
    approved: "#1f6f3f",
    failed: "#c0392b",
    accepted: "#3b8f3b",
    rejected: "#c0392b",
    pending: "#b8bec7",
    added: "#1f5fbf",
    share: "#1f5fbf",
    calibration: "#5f6368",
    rate: "#1f5fbf",
    kept: "#8e5bb5",
  };
  const ROW_HEIGHT = 26; // px per category on a horizontal chart
  const reduceMotion = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;

  function axis(title, extra) {
    const scale = Object.assign({ beginAtZero: true }, extra || {});
    if (title) scale.title = { display: true, text: title };
    return scale;
  }

  function config(spec) {
    const stacked = !!spec.stacked;
    const area = spec.kind === "line" && stacked;
    const datasets = spec.series.map(function (s, i) {
      const colour = COLOURS[s.key] || "#1f5fbf";
      const dataset = {
        key: s.key, // not Chart.js's: which series this is, for the browser test
        label: s.label,
        data: s.values,
        backgroundColor: colour,
        borderColor: colour,
        borderWidth: s.type === "line" || spec.kind === "line" ? 2 : 0,
        maxBarThickness: 56,
      };
      if (area) {
        dataset.fill = i === 0 ? "origin" : "-1";
        dataset.pointRadius = spec.labels.length > 30 ? 0 : 2;
      }
      if (s.type === "line") {
        dataset.type = "line";
        dataset.fill = false;
        dataset.borderDash = [6, 4];
        dataset.pointRadius = 0;
        dataset.backgroundColor = "transparent";
      }
      return dataset;
    });
    // Counts are whole numbers: no 0.5-span ticks.
    const value = spec.percent
      ? axis(spec.y_title, { max: 100 })
      : axis(spec.horizontal ? spec.x_title : spec.y_title, { ticks: { precision: spec.integer ? 0 : undefined } });
    value.stacked = stacked;
    const category = { stacked: stacked, ticks: { autoSkip: !spec.horizontal } };
    const options = {
      responsive: true,
      maintainAspectRatio: false,
      animation: reduceMotion ? false : { duration: 300 },
      indexAxis: spec.horizontal ? "y" : "x",
      interaction: { mode: "index", intersect: false },
      plugins: { legend: { display: spec.series.length > 1, position: "bottom" } },
      scales: spec.horizontal ? { x: value, y: category } : { x: category, y: value },
    };
    if (area) options.elements = { line: { tension: 0 } };
    return { type: spec.kind, data: { labels: spec.labels, datasets: datasets }, options: options };
  }

  document.querySelectorAll("canvas[data-chart]").forEach(function (canvas) {
    const block = document.getElementById(canvas.dataset.chart);
    if (!block) return;
    const spec = JSON.parse(block.textContent);
    const box = canvas.parentElement;
    if (spec.horizontal) {
      // Room for every category: its label must stay readable.
      box.style.height = Math.max(160, spec.labels.length * ROW_HEIGHT + 90) + "px";
    }
    new Chart(canvas, config(spec));
  });
})();
