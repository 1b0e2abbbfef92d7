// Quasi-identifier layer of the review page (issue 18): show or hide the flags, in
// the side panel's list and highlighted in the transcript. Decisions are htmx posts
// in the list itself; this only toggles the layer, draws the highlights from the
// list's offsets (again after an htmx swap of the text or of the list: an add,
// an undo or a bulk decision re-renders the text, a flag decision the list) and remembers the choice for the session. No inline
// script: the Content-Security-Policy allows scripts from this site only.
(function () {
  "use strict";
  var KEY = "quasi-layer-shown";

  function shown() {
    var button = document.getElementById("quasi-toggle");
    return !!button && button.getAttribute("aria-pressed") === "true";
  }

  // A run of the transcript, as review.js reads it: its text and its offset.
  function run(className, start, text) {
    var el = document.createElement("span");
    el.className = className;
    el.dataset.start = String(start);
    el.textContent = text;
    return el;
  }

  // Highlights are runs of their own (mark with data-start), never a split text
  // node inside a run: review.js turns a selection into offsets from the run's
  // data-start, which must stay right.
  function clear(body) {
    body.querySelectorAll("mark.quasi-hl").forEach(function (mark) {
      mark.replaceWith(run("seg", parseInt(mark.dataset.start, 10), mark.textContent));
    });
  }

  // The index of the last run starting at or before `at` (runs are in text order).
  function runAt(starts, at) {
    var lo = 0, hi = starts.length - 1, found = -1;
    while (lo <= hi) {
      var mid = (lo + hi) >> 1;
      if (starts[mid] <= at) { found = mid; lo = mid + 1; } else { hi = mid - 1; }
    }
    return found;
  }

  function highlight() {
    var body = document.getElementById("text-body");
    if (!body) return;
    clear(body);
    var runs = Array.prototype.slice.call(body.querySelectorAll("span.seg[data-start]"));
    var starts = runs.map(function (r) { return parseInt(r.dataset.start, 10); });
    document.querySelectorAll("#quasi-flags li.quasi-flag").forEach(function (item) {
      var from = parseInt(item.dataset.start, 10), to = parseInt(item.dataset.end, 10);
      var i = Math.max(runAt(starts, from), 0);
      while (i < runs.length && starts[i] < to) {
        var el = runs[i], at = starts[i], text = el.textContent, end = at + text.length;
        if (end <= from) { i++; continue; }
        var cutFrom = Math.max(from, at) - at, cutTo = Math.min(to, end) - at;
        var mark = document.createElement("mark");
        mark.className = "quasi-hl qd-" + item.dataset.decision;
        mark.dataset.start = String(at + cutFrom);
        mark.dataset.quasiFor = item.id;
        mark.title = item.dataset.category + " · " + item.dataset.decision;
        mark.textContent = text.slice(cutFrom, cutTo);
        var pieces = [], kept = [];
        if (cutFrom > 0) { var before = run(el.className, at, text.slice(0, cutFrom)); pieces.push(before); kept.push(before); }
        pieces.push(mark);
        if (cutTo < text.length) { var after = run(el.className, at + cutTo, text.slice(cutTo)); pieces.push(after); kept.push(after); }
        el.replaceWith.apply(el, pieces);
        runs.splice.apply(runs, [i, 1].concat(kept));
        starts.splice.apply(starts, [i, 1].concat(kept.map(function (r) { return parseInt(r.dataset.start, 10); })));
        i += kept.length;
      }
    });
  }

  function apply(show) {
    var button = document.getElementById("quasi-toggle");
    var flags = document.getElementById("quasi-flags");
    var text = document.getElementById("doc-text");
    if (!button || !flags) return;
    flags.hidden = !show;
    button.setAttribute("aria-pressed", show ? "true" : "false");
    button.textContent = show ? "Hide quasi-identifiers" : "Show quasi-identifiers";
    if (text) text.classList.toggle("quasi-on", show);
  }

  document.addEventListener("click", function (event) {
    var target = event.target;
    var button = target.closest && target.closest("#quasi-toggle");
    if (button) {
      var show = !shown();
      try { window.sessionStorage.setItem(KEY, show ? "1" : "0"); } catch (e) { /* storage off: no memory */ }
      apply(show);
      return;
    }
    // A highlighted flag in the text opens its entry in the list.
    var mark = shown() && target.closest && target.closest("mark.quasi-hl");
    if (mark) {
      var item = document.getElementById(mark.dataset.quasiFor);
      if (item) { item.scrollIntoView({block: "nearest"}); item.focus(); }
    }
  });

  // Only when the text or the flags were swapped in: htmx fires afterSettle on
  // every element a response swaps (a decision swaps each changed span's mark,
  // a hundred for a name on every page), and a mark holds no highlight (they
  // are cut from plain runs only). Drawing again for each one took seconds on
  // a 500-page transcript.
  document.body.addEventListener("htmx:afterSettle", function (event) {
    var swapped = event.target;
    if (!swapped || !swapped.querySelector) return;
    if (swapped.id === "text-body" || swapped.id === "quasi-flags" || swapped.querySelector("#text-body, #quasi-flags")) {
      highlight();
    }
  });

  var remembered = false;
  try { remembered = window.sessionStorage.getItem(KEY) === "1"; } catch (e) { remembered = false; }
  apply(remembered);
})();
