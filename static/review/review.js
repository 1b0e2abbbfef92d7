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
