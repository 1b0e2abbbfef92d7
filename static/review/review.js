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
    offerResize(start, end);
    addPanel.hidden = false;
  }

  // Reselecting: a selection that overlaps the span open in the panel can become
  // its new extent (the server checks the version and the neighbours).
  function offerResize(start, end) {
    const button = document.getElementById("resize-to-selection");
    const form = document.getElementById("decide-form");
    const mark = form && document.getElementById("span-" + form.dataset.spanId);
    button.hidden = true;
    if (!mark) return;
    const markStart = parseInt(mark.dataset.start, 10);
    const markEnd = markStart + mark.textContent.length;
    if (start >= markEnd || end <= markStart) return;
    button.hidden = false;
    button.onclick = () => {
      const version = form.querySelector("input[name=version]").value;
      htmx.ajax("POST", mark.getAttribute("hx-get") + "resize/", {
        target: "#panel", swap: "innerHTML", values: { start: start, end: end, version: version },
      });
      addPanel.hidden = true;
      window.getSelection().removeAllRanges();
    };
  }

  root.addEventListener("mouseup", () => window.setTimeout(onSelect, 0));
  root.addEventListener("keyup", (e) => { if (e.shiftKey) onSelect(); });
  document.body.addEventListener("htmx:afterRequest", (e) => {
    if (e.detail.elt && e.detail.elt.id === "add-form") {
      addPanel.hidden = true;
      window.getSelection().removeAllRanges();
    }
  });
  // A muted (filtered) candidate: a click fills the add panel with it.
  function offerMuted(mark) {
    const start = parseInt(mark.dataset.start, 10);
    const end = parseInt(mark.dataset.end, 10);
    document.getElementById("add-start").value = start;
    document.getElementById("add-end").value = end;
    document.getElementById("add-preview").textContent = mark.textContent + " (filtered: " + mark.dataset.reason + ")";
    const label = document.getElementById("add-label");
    if (label && Array.from(label.options).some((o) => o.value === mark.dataset.label)) label.value = mark.dataset.label;
    offerResize(start, end);
    addPanel.hidden = false;
  }
  root.addEventListener("click", (e) => {
    const mark = e.target.closest && e.target.closest("mark.st-muted");
    if (mark) offerMuted(mark);
  });
  // Enter or space on a focused span opens it, as a click does.
  root.addEventListener("keydown", (e) => {
    const mark = e.target.closest && e.target.closest("mark[data-span-id]");
    if (mark && (e.key === "Enter" || e.key === " ")) { e.preventDefault(); mark.click(); }
  });
})();

// Keyboard-first review: j/k move between pending spans, a/r decide, digits
// relabel, [ ] resize, u undo, s side panel, p preview, ? help. Decisions go
// through the same htmx endpoints as the buttons, with the version the page
// showed (a stale one is refused by the server); after each swap the same span
// gets the focus back.
(function () {
  "use strict";
  const root = document.getElementById("doc-text");
  if (!root) return;
  const canReview = root.hasAttribute("data-can-review");
  const labels = (root.dataset.labels || "").split(",");
  const textBody = () => document.getElementById("text-body");
  const previewBody = document.getElementById("preview-body");
  const previewToggle = document.getElementById("preview-toggle");
  let currentId = null;
  // The keys' panel swaps settle at once: htmx's default 20 ms wait is for CSS
  // transitions on its settle classes, and this page has none.
  const panelSwap = (extra) => Object.assign({ target: "#panel", swap: "innerHTML settle:0ms" }, extra);

  function marks(pendingOnly) {
    const all = Array.from(root.querySelectorAll("#text-body mark[data-span-id]"));
    return pendingOnly ? all.filter((m) => m.classList.contains("st-pending")) : all;
  }
  function current() {
    return currentId && document.getElementById("span-" + currentId);
  }
  function select(mark) {
    if (!mark) return;
    currentId = mark.dataset.spanId;
    remember();
    mark.focus();
    mark.scrollIntoView({ block: "center" });
    htmx.ajax("GET", mark.getAttribute("hx-get"), panelSwap());
  }

  // Nothing visible is lost on a crash or a reload: the selected span is in the
  // URL's hash (#span-12, with the filters already in its query string), the
  // scroll positions in sessionStorage, both written as they change (not on
  // unload, which a crash never reaches). A reload comes back to the same place.
  const placeKey = "review-place:" + location.pathname;
  function remember() {
    if (currentId) {
      const url = location.pathname + location.search + "#span-" + currentId;
      if (location.hash !== "#span-" + currentId) history.replaceState(history.state, "", url);
    }
  }
  function scrollers() {
    return { side: document.querySelector(".side"), entities: document.getElementById("entity-list") };
  }
  let saveTimer = null;
  function saveScroll() {
    if (saveTimer) return;
    saveTimer = window.setTimeout(() => {
      saveTimer = null;
      const box = scrollers();
      try {
        sessionStorage.setItem(placeKey, JSON.stringify({
          y: window.scrollY,
          side: box.side ? box.side.scrollTop : 0,
          entities: box.entities ? box.entities.scrollTop : 0,
        }));
      } catch (err) { /* storage full or disabled: the hash still keeps the span */ }
    }, 150);
  }
  // The filters push a new URL without the hash: put the span back in it.
  document.body.addEventListener("htmx:pushedIntoHistory", remember);
  window.addEventListener("scroll", saveScroll, { passive: true });
  document.addEventListener("scroll", (e) => {
    if (e.target && e.target.nodeType === Node.ELEMENT_NODE && e.target.matches(".side, #entity-list")) saveScroll();
  }, { capture: true, passive: true });
  function restore() {
    let saved = null;
    try { saved = JSON.parse(sessionStorage.getItem(placeKey) || "null"); } catch (err) { saved = null; }
    const match = /^#span-(\d+)$/.exec(location.hash);
    const mark = match && document.getElementById("span-" + match[1]);
    if (mark) {
      currentId = match[1];
      mark.focus({ preventScroll: true });
      htmx.ajax("GET", mark.getAttribute("hx-get"), { target: "#panel", swap: "innerHTML" });
      if (!saved) mark.scrollIntoView({ block: "center" });
    }
    if (saved) {
      window.scrollTo(0, saved.y || 0);
      const box = scrollers();
      if (box.side) box.side.scrollTop = saved.side || 0;
      if (box.entities) box.entities.scrollTop = saved.entities || 0;
    }
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", () => window.setTimeout(restore, 0));
  else window.setTimeout(restore, 0);
  function move(step, pendingOnly) {
    const list = marks(pendingOnly);
    if (!list.length) return;
    const here = current();
    const start = here ? here.dataset.start | 0 : -1;
    const ordered = step > 0 ? list : list.slice().reverse();
    const next = ordered.find((m) => (step > 0 ? (m.dataset.start | 0) > start : (m.dataset.start | 0) < start));
    select(next || ordered[0]);
  }
  function decide(action, extra) {
    const mark = current();
    if (!mark || !canReview) return;
    const values = Object.assign({ version: mark.dataset.version }, extra || {});
    // The panel's choices (apply-to-all, reject reason) apply when it shows this span.
    const form = document.getElementById("decide-form");
    if (form && form.dataset.spanId === mark.dataset.spanId) {
      const all = document.getElementById("apply-all");
      if (all && (all.disabled || !all.checked)) values.all = "off";
      const reason = document.getElementById("reject-reason");
      if (action === "reject" && reason && reason.value) values.reason = reason.value;
    }
    const url = mark.getAttribute("hx-get") + action + "/";
    htmx.ajax("POST", url, panelSwap({ values: values }));
  }
  function undo(redo) {
    if (!canReview) return;
    htmx.ajax("POST", redo ? root.dataset.redoUrl : root.dataset.undoUrl, panelSwap());
  }
  function showPreview(on) {
    previewToggle.setAttribute("aria-pressed", on ? "true" : "false");
    previewBody.hidden = !on;
    textBody().hidden = on;
    if (on) htmx.ajax("GET", previewToggle.dataset.url, { target: "#preview-body", swap: "innerHTML" });
  }
  function previewOn() {
    return previewToggle.getAttribute("aria-pressed") === "true";
  }
  previewToggle.addEventListener("click", () => showPreview(!previewOn()));

  // An accept, reject or relabel answers with the changed spans' marks in a
  // template (review.views.document.span_decide): each is copied onto the mark
  // on the page, which keeps its element (and so the focus, and htmx's click
  // handler: its URL is the same). Swapping a hundred marks in instead cost
  // htmx a hundred out-of-band swaps and the page a re-focus.
  document.body.addEventListener("htmx:afterSwap", (e) => {
    const changed = e.detail.target && e.detail.target.id === "panel" && document.getElementById("changed-marks");
    if (!changed) return;
    for (const fresh of changed.content.querySelectorAll("mark[id]")) {
      const mark = document.getElementById(fresh.id);
      if (!mark) continue;
      for (const attr of Array.from(fresh.attributes)) {
        if (mark.getAttribute(attr.name) !== attr.value) mark.setAttribute(attr.name, attr.value);
      }
      if (mark.textContent !== fresh.textContent) mark.textContent = fresh.textContent;
    }
    changed.remove();
  });
  // Fast j/j/j: panels may come back out of order; only the current span's is shown.
  document.body.addEventListener("htmx:beforeSwap", (e) => {
    if (!e.detail.target || e.detail.target.id !== "panel") return;
    const verb = ((e.detail.requestConfig && e.detail.requestConfig.verb) || "").toLowerCase();
    const path = (e.detail.pathInfo && e.detail.pathInfo.requestPath) || "";
    const opened = /\/spans\/(\d+)\/$/.exec(path);
    if (verb === "get" && opened && currentId && opened[1] !== String(currentId)) e.detail.shouldSwap = false;
  });
  document.body.addEventListener("htmx:afterSettle", (e) => {
    // Only a decision or a span opened in the panel; a background swap (bulk
    // count, side panel filters) must not take the focus away.
    if (!e.detail.target || e.detail.target.id !== "panel") return;
    const mark = current();
    if (mark && document.activeElement !== mark && !previewOn()) mark.focus({ preventScroll: true });
  });
  // A bulk decision answers in the panel, at the top of the side column and
  // often scrolled out of view from the bulk form: its confirmation (and its
  // Undo) is repeated under the form, where the reviewer acted. Any other
  // panel answer makes that copy stale, so it is cleared.
  // (afterSettle fires once per swapped element, the out-of-band ones too:
  // each response is handled once.)
  const settled = new WeakSet();
  document.body.addEventListener("htmx:afterSettle", (e) => {
    if (!e.detail.target || e.detail.target.id !== "panel" || !e.detail.xhr || settled.has(e.detail.xhr)) return;
    settled.add(e.detail.xhr);
    const status = document.getElementById("bulk-status");
    if (!status) return;
    const elt = e.detail.requestConfig && e.detail.requestConfig.elt;
    if (!elt || !elt.closest || !elt.closest("#bulk")) {
      status.hidden = true;
      status.replaceChildren();
      return;
    }
    const panel = e.detail.target;
    const said = Array.from(panel.querySelectorAll(":scope > p.ok, :scope > p.error, :scope > p > button.undo"));
    status.replaceChildren(...said.map((el) => (el.matches("button") ? el.parentElement : el).cloneNode(true)));
    htmx.process(status);
    status.hidden = !said.length;
    if (said.length) status.scrollIntoView({ block: "nearest" });
  });
  document.body.addEventListener("htmx:afterRequest", (e) => {
    const method = (e.detail.requestConfig && e.detail.requestConfig.verb) || "";
    if (method.toLowerCase() !== "post") return;
    // A swapped text keeps the preview state; bulk counts may have changed.
    const body = textBody();
    if (body && previewOn()) { body.hidden = true; showPreview(true); }
    // Every change of a span (a keyboard decision, an addition, a bulk action,
    // undo) may change how many pending spans the bulk form matches: the count
    // must be true where a reviewer is about to click a bulk action.
    if (e.detail.successful) htmx.trigger(document.body, "refresh-bulk");
  });
  // htmx does not swap error responses: say something rather than nothing
  // (a span another reviewer deleted is a 404, read-only access a 403).
  document.body.addEventListener("htmx:responseError", (e) => {
    const panel = document.getElementById("panel");
    const status = e.detail.xhr ? e.detail.xhr.status : 0;
    const p = document.createElement("p");
    p.className = "error";
    p.setAttribute("role", "alert");
    p.textContent = status === 404 ? "This span no longer exists (another reviewer may have deleted it). Reload the page."
      : status === 403 ? "You cannot change this document." : "The server could not apply this action (" + status + ").";
    if (panel) panel.replaceChildren(p);
  });
  function typing(el) {
    if (!el || !el.closest) return false;
    if (el.closest("select, textarea, [contenteditable]")) return true;
    const input = el.closest("input");
    return !!input && !["checkbox", "radio", "button", "submit", "reset"].includes(input.type);
  }
  // A choice made in the panel (apply-to-all, the reject reason) hands the focus
  // back to the span, so the next key acts on it: the focus is never trapped.
  document.addEventListener("change", (e) => {
    if (!e.target.closest || !e.target.closest("#decide-form")) return;
    if (e.target.matches("input[type=checkbox], select[name=reason]")) {
      const mark = current();
      if (mark) mark.focus({ preventScroll: true });
    }
  });
  root.addEventListener("focusin", (e) => {
    const mark = e.target.closest && e.target.closest("mark[data-span-id]");
    if (mark) { currentId = mark.dataset.spanId; remember(); }
  });
  // Side panel: an occurrence link scrolls to its span and opens it.
  document.addEventListener("click", (e) => {
    const link = e.target.closest && e.target.closest("a.occ[data-span-id]");
    if (!link) return;
    e.preventDefault();
    if (previewOn()) showPreview(false);
    select(document.getElementById("span-" + link.dataset.spanId));
  });
  document.addEventListener("keydown", (e) => {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    // Only where keys type something (a text field, a list): a checkbox, a radio
    // or a button never keeps the shortcuts from working.
    if (typing(e.target)) return;
    const help = document.getElementById("help");
    if (e.key === "?") { help.open ? help.close() : help.showModal(); e.preventDefault(); return; }
    if (help.open) return;
    if (e.key === "Escape" && e.target.closest && e.target.closest(".side")) {
      const mark = current();
      if (mark) mark.focus();
      return;
    }
    const key = e.key.toLowerCase();
    const muted = e.target.closest && e.target.closest("mark.st-muted");
    if (muted && key !== "j" && key !== "k" && e.key !== "?") {
      // On a filtered candidate, "a" takes it (added as the reviewer's own span);
      // the other decision keys would act on a span no longer in view: ignored.
      if (key === "a" && canReview) {
        htmx.ajax("POST", root.dataset.addUrl, { target: "#panel", swap: "innerHTML", values: {
          start: muted.dataset.start, end: muted.dataset.end, label: muted.dataset.label, all: "off" } });
      }
      e.preventDefault();
      return;
    }
    if (key === "j") move(1, !e.shiftKey);
    else if (key === "k") move(-1, !e.shiftKey);
    else if (key === "a") decide("accept");
    else if (key === "r") decide("reject");
    else if (key === "u") undo(e.shiftKey);
    else if (key === "p") showPreview(!previewOn());
    else if (key === "s") {
      const side = document.querySelector("#panel button, #panel select") || document.querySelector("#entity-list summary");
      (side || document.getElementById("entities")).focus();
    }
    else if (e.key === "]" || e.key === "}") decide("resize", { edge: "end", grow: e.shiftKey || e.key === "}" ? "0" : "1" });
    else if (e.key === "[" || e.key === "{") decide("resize", { edge: "start", grow: e.shiftKey || e.key === "{" ? "0" : "1" });
    else if (/^[1-9]$/.test(e.key) && labels[+e.key - 1]) decide("relabel", { label: labels[+e.key - 1] });
    else return;
    e.preventDefault();
  });
})();
