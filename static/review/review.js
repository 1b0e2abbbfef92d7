// Text selection → "add a span" form. Offsets come from data-start on each
// rendered run, so they are offsets into the immutable document text.
(function () {
  "use strict";
  const root = document.getElementById("doc-text");
  const addPanel = document.getElementById("add-panel");
  if (!root || !addPanel) return;

  function offsetOf(node, offset) {
    const el = node.nodeType === Node.TEXT_NODE ? node.parentElement : node;
    const run = el && el.closest("[data-start]");
    if (!run || !root.contains(run)) return null;
    const base = parseInt(run.dataset.start, 10);
    if (node.nodeType === Node.TEXT_NODE) return base + offset;
    // The selection ends on the element itself: before or after its text.
    return base + (offset === 0 ? 0 : run.textContent.length);
  }

  function onSelect() {
    const sel = window.getSelection();
    if (!sel || sel.isCollapsed || sel.rangeCount === 0) return;
    const range = sel.getRangeAt(0);
    if (!root.contains(range.commonAncestorContainer)) return;
    let start = offsetOf(range.startContainer, range.startOffset);
    let end = offsetOf(range.endContainer, range.endOffset);
    if (start === null || end === null || end <= start) return;
    document.getElementById("add-start").value = start;
    document.getElementById("add-end").value = end;
    document.getElementById("add-preview").textContent = sel.toString();
    addPanel.hidden = false;
  }

  root.addEventListener("mouseup", () => window.setTimeout(onSelect, 0));
  root.addEventListener("keyup", (e) => { if (e.shiftKey) onSelect(); });
  document.body.addEventListener("htmx:afterRequest", (e) => {
    if (e.detail.elt && e.detail.elt.id === "add-form") {
      addPanel.hidden = true;
      window.getSelection().removeAllRanges();
    }
  });
  // Enter or space on a focused span opens it, as a click does.
  root.addEventListener("keydown", (e) => {
    const mark = e.target.closest && e.target.closest("mark[data-span-id]");
    if (mark && (e.key === "Enter" || e.key === " ")) { e.preventDefault(); mark.click(); }
  });
})();

// Keyboard-first review: j/k move between pending spans, a/r decide, digits
// relabel, ? shows the help. Decisions go through the same htmx endpoints as
// the buttons; after each swap the same span gets the focus back.
(function () {
  "use strict";
  const root = document.getElementById("doc-text");
  if (!root) return;
  const canReview = root.hasAttribute("data-can-review");
  const labels = (root.dataset.labels || "").split(",");
  let currentId = null;

  function marks(pendingOnly) {
    const all = Array.from(root.querySelectorAll("mark[data-span-id]"));
    return pendingOnly ? all.filter((m) => m.classList.contains("st-pending")) : all;
  }
  function current() {
    return currentId && document.getElementById("span-" + currentId);
  }
  function select(mark) {
    if (!mark) return;
    currentId = mark.dataset.spanId;
    mark.focus();
    mark.scrollIntoView({ block: "center" });
    htmx.ajax("GET", mark.getAttribute("hx-get"), { target: "#panel", swap: "innerHTML" });
  }
  function move(step, pendingOnly) {
    const list = marks(pendingOnly);
    if (!list.length) return;
    const here = current();
    const start = here ? here.dataset.start | 0 : -1;
    const ordered = step > 0 ? list : list.slice().reverse();
    const next = ordered.find((m) => (step > 0 ? (m.dataset.start | 0) > start : (m.dataset.start | 0) < start));
    select(next || ordered[0]);
  }
  function decide(action, label) {
    const mark = current();
    if (!mark || !canReview) return;
    const url = mark.getAttribute("hx-get") + action + "/";
    htmx.ajax("POST", url, { target: "#panel", swap: "innerHTML", values: label ? { label: label } : {} });
  }
  document.body.addEventListener("htmx:afterSettle", () => {
    const mark = current();
    if (mark && document.activeElement !== mark) mark.focus({ preventScroll: true });
  });
  root.addEventListener("focusin", (e) => {
    const mark = e.target.closest && e.target.closest("mark[data-span-id]");
    if (mark) currentId = mark.dataset.spanId;
  });
  document.addEventListener("keydown", (e) => {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    if (e.target.closest && e.target.closest("input, select, textarea")) return;
    const help = document.getElementById("help");
    if (e.key === "?") { help.open ? help.close() : help.showModal(); e.preventDefault(); return; }
    if (help.open) return;
    const key = e.key.toLowerCase();
    if (key === "j") move(1, !e.shiftKey);
    else if (key === "k") move(-1, !e.shiftKey);
    else if (key === "a") decide("accept");
    else if (key === "r") decide("reject");
    else if (/^[1-9]$/.test(e.key) && labels[+e.key - 1]) decide("relabel", labels[+e.key - 1]);
    else return;
    e.preventDefault();
  });
})();
