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
    // The text before the point, counted inside the run: a mark holds more than
    // one text node where a printed line starts inside it (its line number, an
    // element without text, sits between them).
    const before = document.createRange();
    before.setStart(run, 0);
    before.setEnd(node, offset);
    return base + before.toString().length;
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
  // Enter or space on a focused span opens it, as a click does; on a filtered
  // candidate it fills the add panel, whose label list then has the focus (the
  // keyboard's way to take it with another label than the filter's guess).
  root.addEventListener("keydown", (e) => {
    const mark = e.target.closest && e.target.closest("mark[data-span-id], mark.st-muted");
    if (!mark || (e.key !== "Enter" && e.key !== " ")) return;
    e.preventDefault();
    mark.click();
    const label = document.getElementById("add-label");
    if (mark.classList.contains("st-muted") && label) label.focus();
  });
})();

// Keyboard-first review: j/k move between what is still to decide (pending
// spans and filtered candidates), a/r decide, digits relabel, [ ] resize, u
// undo, s side panel, p preview, ? help. Decisions go to the same endpoints as
// the buttons, with the version the page showed (a stale one is refused by the
// server), one at a time in key order; accept, reject and relabel are shown
// before the answer (optimistic, see `decide`) and the answer sets the marks to
// the server's truth. The focus stays on the decided span, and where the whole
// text is swapped in again (an added span, undo, a resize) on its place
// (`placeInText`, `backTo`).
(function () {
  "use strict";
  const root = document.getElementById("doc-text");
  if (!root) return;
  const canReview = root.hasAttribute("data-can-review");
  const labels = (root.dataset.labels || "").split(",");
  const textBody = () => document.getElementById("text-body");
  const previewBody = document.getElementById("preview-body");
  const previewToggle = document.getElementById("preview-toggle");
  let currentId = null; // the span the decision keys act on (none while a filtered candidate has the focus)
  let lastMark = null; // the mark (span or filtered candidate) the reviewer was last on: j and k go on from it
  // The keys' panel swaps settle at once: htmx's default 20 ms wait is for CSS
  // transitions on its settle classes, and this page has none.
  const panelSwap = (extra) => Object.assign({ target: "#panel", swap: "innerHTML settle:0ms" }, extra);
  const MARKS = "mark[data-span-id], mark.st-muted"; // what j, k and the Tab key stop on in the text
  const isMuted = (mark) => mark.classList.contains("st-muted");

  function current() {
    return currentId && document.getElementById("span-" + currentId);
  }
  function inText(el) {
    const body = textBody();
    return !!el && !!body && el !== body && body.contains(el);
  }
  // The mark the reviewer is on: the one with the focus, else the last one.
  function here() {
    const active = document.activeElement;
    const focused = inText(active) && active.closest(MARKS);
    if (focused) return focused;
    return lastMark && inText(lastMark) ? lastMark : current();
  }
  function select(mark) {
    if (!mark) return;
    if (!isMuted(mark)) {
      currentId = mark.dataset.spanId;
      answerPanel = null;
      remember();
    }
    // Scrolled to the middle only when it is not already in the middle half of
    // the screen: the next pending span is mostly a line or two further, and
    // scrolling the page at each key redrew the whole screen (read before the
    // focus changes anything: the layout is clean).
    const box = mark.getBoundingClientRect();
    const scroll = box.top < window.innerHeight / 4 || box.bottom > (window.innerHeight * 3) / 4;
    mark.focus({ preventScroll: true }); // a filtered candidate's panel is drawn on its focus (focusin)
    if (scroll) mark.scrollIntoView({ block: "center" });
    if (!isMuted(mark)) htmx.ajax("GET", mark.getAttribute("hx-get"), panelSwap());
  }
  // A filtered candidate with the focus: the side panel says what it is and why
  // the filter dropped it (only the mark's title said so, which a keyboard never
  // shows), drawn from the mark itself: no request.
  function showMuted(mark) {
    if (!panelEl) return;
    const item = (tag, text, className) => {
      const el = document.createElement(tag);
      if (text) el.textContent = text;
      if (className) el.className = className;
      return el;
    };
    const shown = item("mark", mark.textContent, "span st-muted");
    shown.dataset.label = mark.dataset.label;
    const quote = item("p", "", "span-text");
    quote.append(shown);
    const details = item("dl");
    details.id = "muted-details";
    for (const [term, value, id] of [
      ["Label", mark.dataset.label, "panel-label"],
      ["Status", "filtered: no span, an export leaves it as written", "panel-status"],
      ["Filtered", mark.dataset.reason, "panel-reason"],
    ]) {
      const dd = item("dd", value);
      dd.id = id;
      details.append(item("dt", term), dd);
    }
    const parts = [item("h2", "Filtered candidate"), quote, details];
    if (canReview) {
      const hint = item("p", "", "hint");
      const key = (name) => item("kbd", name);
      hint.append(key("a"), " takes it as an accepted span (", key("u"), " undoes it); ", key("Enter"),
        " opens it in “Add a span” to choose its label; ", key("j"), " or ", key("k"), " goes on and leaves it filtered.");
      parts.push(hint);
      const take = item("button", "Take it as a span (a)", "accept");
      take.type = "button";
      take.id = "take-muted";
      take.addEventListener("click", () => addMuted(mark));
      parts.push(take);
    } else {
      parts.push(item("p", "A reviewer can take it as a span; until then an export leaves it as written.", "hint"));
    }
    panelEl.replaceChildren(...parts);
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
  // The place in the text is kept as the block of text at the top of the
  // screen and how far its top is from the screen's: blocks off the screen are
  // skipped (content-visibility, static/app.css) and have a guessed height until
  // drawn, so after a reload the same scrollY is another place; the block is not.
  function blocks() {
    const body = textBody();
    return body && !body.hidden ? body.children : [];
  }
  function topBlock() {
    const all = blocks();
    let lo = 0;
    let hi = all.length - 1;
    if (hi < 0 || all[hi].getBoundingClientRect().bottom <= 0) return null;
    while (lo < hi) { // the first block whose bottom is below the screen's top (their boxes: no block is laid out)
      const mid = (lo + hi) >> 1;
      if (all[mid].getBoundingClientRect().bottom > 0) hi = mid;
      else lo = mid + 1;
    }
    return { block: lo, top: all[lo].getBoundingClientRect().top };
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
          at: topBlock(),
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
  // A block above the place that is drawn for the first time after the reload
  // (focus, the panel's answer) takes its real height instead of the guessed one
  // (content-visibility's 25rem), and the text under the screen moves by the
  // difference: until the reviewer scrolls, clicks or types, each change of the
  // text's size puts the place back (before the frame is drawn: ResizeObserver).
  function keepPlace(place) {
    const body = textBody();
    if (!body || !window.ResizeObserver) return;
    let expected = window.scrollY;
    const observer = new ResizeObserver(() => { place(); expected = window.scrollY; });
    // A scroll the page did not make (the scrollbar dragged, find in page) ends it too.
    const moved = () => { if (Math.abs(window.scrollY - expected) > 1) stop(); };
    const stop = () => {
      observer.disconnect();
      window.removeEventListener("scroll", moved);
      for (const type of ["wheel", "keydown", "pointerdown"]) window.removeEventListener(type, stop, true);
    };
    for (const type of ["wheel", "keydown", "pointerdown"]) window.addEventListener(type, stop, true);
    window.addEventListener("scroll", moved, { passive: true });
    observer.observe(body);
    window.setTimeout(stop, 3000);
  }
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
      const block = saved.at && blocks()[saved.at.block];
      if (block) {
        const place = () => window.scrollTo(0, window.scrollY + block.getBoundingClientRect().top - saved.at.top);
        place();
        keepPlace(place);
      } else window.scrollTo(0, saved.y || 0);
      const box = scrollers();
      if (box.side) box.side.scrollTop = saved.side || 0;
      if (box.entities) box.entities.scrollTop = saved.entities || 0;
    }
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", () => window.setTimeout(restore, 0));
  else window.setTimeout(restore, 0);
  // The next (or previous) mark from the one the reviewer is on (`here`: the
  // focused mark, a filtered candidate too, else the last one), walking the
  // text from it: a 500-page transcript has 7,500 marks, and listing them all at
  // each key cost 10-20 ms; the walk stops at the first one that fits. `todo`:
  // what is still to decide, pending spans and filtered candidates (j, k);
  // else every span and candidate (Shift+J, K).
  function move(step, todo) {
    const body = textBody();
    if (!body) return;
    const fits = (node) => node.tagName === "MARK" && (node.hasAttribute("data-span-id")
      ? !todo || node.classList.contains("st-pending") : isMuted(node));
    const walker = document.createTreeWalker(body, NodeFilter.SHOW_ELEMENT, {
      acceptNode: (node) => (fits(node) ? NodeFilter.FILTER_ACCEPT : NodeFilter.FILTER_SKIP),
    });
    const from = here();
    let next = null;
    if (from && body.contains(from)) {
      walker.currentNode = from;
      next = step > 0 ? walker.nextNode() : walker.previousNode();
    }
    if (!next) {
      // From the start (or the end): the first (or last) one, as before.
      walker.currentNode = body;
      if (step > 0) next = walker.nextNode();
      else {
        let last = body.lastElementChild;
        while (last && last.lastElementChild) last = last.lastElementChild;
        walker.currentNode = last || body;
        next = last && fits(last) ? last : walker.previousNode();
      }
    }
    select(next);
  }
  // Decisions are optimistic (issue 29, item 4): an accept, reject or relabel
  // key changes the marks, the counts and the panel at once, then the decision
  // goes to the server, one request at a time in key order (a queue), and its
  // answer is the truth: the marks are set to what the server says (the
  // changed marks it sends back), a refusal or a failed request puts them back
  // as the server last said, with a message. A mark not yet confirmed carries
  // data-saving; data-version is only ever the server's, so each request
  // carries the version the reviewer saw (or, after an earlier queued decision
  // on the same span, the version that decision's answer gave it).
  const OPTIMISTIC = ["accept", "reject", "relabel"];
  const queue = []; // decisions not yet answered, in key order; queue[0] is the one in flight
  let sending = false;
  let savedSome = false;
  let answered = 0; // decisions the server has answered: a panel asked for before one may be out of date
  let answerPanel = null; // the span whose panel a decision's answer put in #panel (a later GET of it is older)
  const base = new Map(); // span id -> {status, label} as the server last said, for marks a queued decision changed
  let legendBase = null; // the legend's status counts as the server last said
  let seenLegend = null;
  let seenText = textBody();
  const byId = (id) => document.getElementById("span-" + id);
  const panelEl = document.getElementById("panel");
  // The answers are swapped here by htmx (its out-of-band parts go to their
  // places: legend, entities, workflow); the panel part is moved to #panel only
  // if the reviewer is still on that span.
  const sink = document.createElement("div");
  sink.id = "decision-sink";
  sink.hidden = true;
  document.body.appendChild(sink);
  const statusBox = document.createElement("div");
  statusBox.id = "decision-status";
  statusBox.className = "decision-status";
  statusBox.dataset.pending = "0";
  const savingNote = document.createElement("p");
  savingNote.className = "hint saving";
  savingNote.setAttribute("role", "status");
  statusBox.appendChild(savingNote);
  if (panelEl && panelEl.parentNode) panelEl.parentNode.insertBefore(statusBox, panelEl);

  function stateOf(mark) {
    const match = /(?:^|\s)st-([a-z]+)/.exec(mark.className);
    return { status: match ? match[1] : "", label: mark.dataset.label || "" };
  }
  function paint(mark, state, saving) {
    const now = stateOf(mark);
    if (now.status !== state.status) {
      if (now.status) mark.classList.remove("st-" + now.status);
      mark.classList.add("st-" + state.status);
    }
    if (now.label !== state.label) mark.dataset.label = state.label;
    const title = state.label + " · " + state.status;
    if (mark.title !== title) mark.title = title;
    if (mark.hasAttribute("data-saving") !== saving) mark.toggleAttribute("data-saving", saving);
  }
  const norm = (text) => text.replace(/\s+/g, " ").trim().toLowerCase();
  // Apply-to-all: the other pending occurrences the page knows, from the side
  // panel's entity (the server's grouping); without it (filtered out), the
  // pending marks of the same text. The server's answer corrects any difference.
  function targetsOf(mark, all) {
    const id = mark.dataset.spanId;
    const ids = [id];
    if (!all) return ids;
    const link = document.querySelector('#entity-list a.occ[data-span-id="' + id + '"]');
    const entity = link && link.closest("li[id^='entity-']");
    let others;
    if (entity) {
      others = Array.from(entity.querySelectorAll("a.occ[data-span-id]"), (a) => byId(a.dataset.spanId));
    } else {
      const key = norm(mark.textContent);
      others = Array.from(root.querySelectorAll("#text-body mark.st-pending[data-span-id]")).filter((m) => norm(m.textContent) === key);
    }
    for (const other of others) {
      if (other && other !== mark && other.classList.contains("st-pending") && !ids.includes(other.dataset.spanId)) ids.push(other.dataset.spanId);
    }
    return ids;
  }
  // Every mark of the decision is changed at once, occurrences pages away too:
  // the blocks of text off the screen are skipped (content-visibility,
  // static/app.css), so a change there costs no style, layout or paint until the
  // block is drawn. (Deferring them to the task after the frame, as before that,
  // made the step slower: 123-159 ms against 78-87 ms, same bench, load 6.5.)
  function apply(op) {
    op.delta = { pending: 0, accepted: 0, rejected: 0 };
    if (!op.next) return;
    for (const id of op.ids) {
      const mark = byId(id);
      if (!mark) continue;
      const was = stateOf(mark);
      if (!base.has(id)) base.set(id, was);
      const now = { status: op.next.status, label: op.next.label || was.label };
      paint(mark, now, true);
      if (was.status !== now.status) {
        if (was.status in op.delta) op.delta[was.status] -= 1;
        if (now.status in op.delta) op.delta[now.status] += 1;
      }
    }
  }
  function legendCounts(legend) {
    const counts = {};
    for (const st of ["pending", "accepted", "rejected"]) {
      const el = legend.querySelector(".legend-status.st-" + st);
      counts[st] = el ? parseInt(el.textContent, 10) || 0 : 0;
    }
    return counts;
  }
  function showLegend() {
    const legend = document.getElementById("legend");
    if (!legend || !legendBase) return;
    const sum = Object.assign({}, legendBase);
    for (const op of queue) for (const st in op.delta || {}) sum[st] += op.delta[st];
    for (const st in sum) {
      const el = legend.querySelector(".legend-status.st-" + st);
      const text = sum[st] + " " + st;
      if (el && el.textContent !== text) el.textContent = text;
    }
  }
  // The panel, when it shows a span whose mark is not yet confirmed, says so.
  function syncPanel() {
    const form = document.getElementById("decide-form");
    const mark = form && byId(form.dataset.spanId);
    if (!mark) return;
    const saving = mark.hasAttribute("data-saving");
    if (!saving && !form.hasAttribute("data-predicted")) return;
    const state = stateOf(mark);
    const status = document.getElementById("panel-status");
    const label = document.getElementById("panel-label");
    if (status) status.textContent = state.status + (saving ? " (saving…)" : "");
    if (label) label.textContent = state.label;
    form.toggleAttribute("data-predicted", saving);
  }
  function report() {
    statusBox.dataset.pending = String(queue.length);
    savingNote.textContent = queue.length ? "Saving " + queue.length + " decision" + (queue.length === 1 ? "" : "s") + "…" : "";
  }
  // What the server last said: a legend or a text swapped in since (by any
  // answer) is the truth the queued decisions are drawn on again.
  function resync() {
    const legend = document.getElementById("legend");
    if (legend && legend !== seenLegend) {
      seenLegend = legend;
      legendBase = legendCounts(legend);
    }
    const body = textBody();
    if (body !== seenText) {
      seenText = body;
      for (const id of Array.from(base.keys())) {
        const mark = byId(id);
        if (mark) base.set(id, stateOf(mark));
        else base.delete(id);
      }
    }
  }
  // Marks as the server last said, then the queued decisions on top, in order.
  function rebase() {
    for (const [id, state] of base) {
      const mark = byId(id);
      if (mark) paint(mark, state, false);
      else base.delete(id);
    }
    const live = new Set();
    for (const op of queue) {
      apply(op);
      if (op.next) for (const id of op.ids) live.add(id);
    }
    for (const id of Array.from(base.keys())) if (!live.has(id)) base.delete(id);
    showLegend();
    syncPanel();
    report();
  }
  function enqueue(op) {
    resync();
    queue.push(op);
    apply(op);
    showLegend();
    syncPanel();
    report();
    pump();
  }
  function decide(action, extra) {
    const mark = current();
    if (!mark || !canReview) return;
    const values = Object.assign({}, extra || {});
    // The panel's choices (apply-to-all, reject reason) apply when it shows this span.
    const form = document.getElementById("decide-form");
    if (form && form.dataset.spanId === mark.dataset.spanId) {
      const all = document.getElementById("apply-all");
      if (all && (all.disabled || !all.checked)) values.all = "off";
      const reason = document.getElementById("reject-reason");
      if (action === "reject" && reason && reason.value) values.reason = reason.value;
    }
    const id = mark.dataset.spanId;
    const op = {
      id: id,
      action: action,
      values: values,
      url: mark.getAttribute("hx-get") + action + "/",
      text: mark.textContent,
      version: mark.dataset.version,
      // The earlier queued decisions this one builds on: its version is the one
      // their answers give the span, and it is not sent if one was refused.
      after: queue.filter((o) => o.barrier || o.ids.includes(id)),
      ids: [id],
      next: null,
    };
    if (OPTIMISTIC.includes(action)) {
      op.ids = targetsOf(mark, values.all !== "off");
      op.next = action === "reject" ? { status: "rejected" } : { status: "accepted", label: action === "relabel" ? values.label : "" };
    }
    enqueue(op);
  }
  function undo(redo) {
    if (!canReview) return;
    enqueue({ id: null, action: redo ? "redo" : "undo", values: {}, url: redo ? root.dataset.redoUrl : root.dataset.undoUrl,
      text: "", after: [], ids: [], next: null, barrier: true });
  }
  // A filtered candidate taken ("a" on it, or the panel's button): added as the
  // reviewer's own accepted span, this occurrence only, in its turn after the
  // decisions queued before it. The answer swaps the whole text in; the new
  // span takes the candidate's place and the focus (`backTo`).
  function addMuted(mark) {
    if (!canReview) return;
    enqueue({ id: null, action: "add", url: root.dataset.addUrl, text: mark.textContent, after: [], ids: [], next: null,
      barrier: true, values: { start: mark.dataset.start, end: mark.dataset.end, label: mark.dataset.label, all: "off" } });
  }
  async function pump() {
    if (sending) return;
    sending = true;
    while (queue.length) {
      const op = queue[0];
      try {
        await (op.next ? send(op) : sendOther(op));
      } catch (err) {
        if (queue[0] === op) refused(op, "it could not be sent (" + err + ").");
      }
    }
    sending = false;
    if (savedSome) {
      savedSome = false;
      // The bulk form's count may have changed; the preview shows the decisions.
      htmx.trigger(document.body, "refresh-bulk");
      const body = textBody();
      if (body && previewOn()) { body.hidden = true; showPreview(true); }
    }
  }
  function versionFor(op) {
    if (!op.after.length) return op.version;
    const mark = op.id && byId(op.id);
    return mark ? mark.dataset.version : op.version;
  }
  function requestHeaders() {
    let csrf = {};
    try { csrf = JSON.parse(document.body.getAttribute("hx-headers") || "{}"); } catch (err) { csrf = {}; }
    return Object.assign({ "HX-Request": "true", "HX-Current-URL": location.href, "HX-Target": "panel" }, csrf);
  }
  const REFUSALS = {
    403: "you cannot change this document (403).",
    404: "this span no longer exists: another reviewer may have deleted it. Reload the page.",
    409: "someone else changed this span (409). Reload the page to see it.",
  };
  async function send(op) {
    if (op.after.some((o) => o.failed && !o.barrier)) {
      refused(op, "not sent, because the decision before it on this span was not saved.");
      return;
    }
    let response, html;
    try {
      const body = new URLSearchParams(Object.assign({ version: versionFor(op) }, op.values));
      response = await fetch(op.url, { method: "POST", headers: requestHeaders(), body: body, credentials: "same-origin" });
      html = await response.text();
    } catch (err) {
      refused(op, "no answer from the server (the connection failed).");
      return;
    }
    if (!response.ok) {
      refused(op, REFUSALS[response.status] || "the server could not apply it (" + response.status + ").");
      return;
    }
    reconcile(op, html);
  }
  // Undo, redo and resize are not guessed: they wait their turn in the queue
  // and their answer (the whole text) is swapped as before.
  async function sendOther(op) {
    const values = Object.assign({}, op.values);
    if (op.id) {
      if (op.after.some((o) => o.failed && !o.barrier)) {
        refused(op, "not sent, because the decision before it on this span was not saved.");
        return;
      }
      values.version = versionFor(op);
    }
    // Its own source element: htmx keeps one request per element, and would
    // drop this one for a panel opened meanwhile on the body.
    try {
      await htmx.ajax("POST", op.url, { source: sink, target: "#panel", swap: "innerHTML settle:0ms", values: values });
    } catch (err) {
      refused(op, "no answer from the server (the connection failed).");
      return;
    }
    queue.shift();
    savedSome = true;
    answered += 1;
    answerPanel = currentId;
    resync();
    rebase();
  }
  function reconcile(op, html) {
    htmx.swap(sink, html, { swapStyle: "innerHTML", swapDelay: 0, settleDelay: 0 });
    const changed = sink.querySelector("template#changed-marks");
    if (changed) {
      for (const fresh of changed.content.querySelectorAll("mark[id]")) {
        const mark = document.getElementById(fresh.id);
        if (!mark) continue;
        for (const attr of Array.from(fresh.attributes)) {
          if (mark.getAttribute(attr.name) !== attr.value) mark.setAttribute(attr.name, attr.value);
        }
        if (mark.textContent !== fresh.textContent) mark.textContent = fresh.textContent;
        mark.removeAttribute("data-saving");
        if (base.has(fresh.dataset.spanId)) base.set(fresh.dataset.spanId, stateOf(fresh));
      }
      changed.remove();
    }
    const error = sink.querySelector(":scope > p.error");
    queue.shift();
    answered += 1;
    op.failed = !!error;
    if (!error) savedSome = true;
    resync();
    rebase();
    // The answer's panel, if the reviewer is still on that span and no later
    // decision on it waits: else the panel of the span they moved to stays.
    if (panelEl && String(currentId) === op.id && !queue.some((o) => o.ids.includes(op.id))) {
      panelEl.replaceChildren(...Array.from(sink.childNodes));
      answerPanel = op.id;
    }
    sink.replaceChildren();
    const mark = current();
    if (mark && (document.activeElement === document.body || !document.activeElement) && !previewOn()) mark.focus({ preventScroll: true });
    if (error) say(op, error.textContent);
  }
  function refused(op, why) {
    if (queue[0] === op) queue.shift();
    op.failed = true;
    resync();
    rebase();
    say(op, why);
  }
  const VERBS = { accept: "accept", reject: "reject", relabel: "relabel", resize: "resize", undo: "undo", redo: "redo", add: "add" };
  function say(op, why) {
    const p = document.createElement("p");
    p.className = "error";
    p.setAttribute("role", "alert");
    const what = (VERBS[op.action] || op.action) + (op.text ? " “" + op.text + "”" : "");
    p.textContent = "Not saved: " + what + ": " + why + (op.next ? " Its marks are back as the server last said." : "");
    const close = document.createElement("button");
    close.type = "button";
    close.className = "link dismiss";
    close.textContent = "Dismiss";
    close.addEventListener("click", () => { p.remove(); const m = current(); if (m) m.focus({ preventScroll: true }); });
    p.append(" ", close);
    statusBox.appendChild(p);
    // The last few refusals stay until dismissed.
    const said = statusBox.querySelectorAll("p.error");
    if (said.length > 3) said[0].remove();
  }
  // Leaving with decisions not yet answered would lose them: the browser asks.
  window.addEventListener("beforeunload", (e) => {
    if (!queue.length) return;
    e.preventDefault();
    e.returnValue = "";
  });
  // Any other answer that swaps the legend or the text (a button, a bulk or
  // group action): the queued decisions are drawn again on it.
  document.body.addEventListener("htmx:afterSettle", () => {
    if (!queue.length) return;
    const legend = document.getElementById("legend");
    if (legend !== seenLegend || textBody() !== seenText) { resync(); rebase(); }
  });
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
    if (!changed) {
      // A panel opened before a decision (a GET answered late) shows the span as
      // the server had it: a decision still saving is drawn on it again.
      if (e.detail.target && e.detail.target.id === "panel") syncPanel();
      return;
    }
    for (const fresh of changed.content.querySelectorAll("mark[id]")) {
      const mark = document.getElementById(fresh.id);
      if (!mark) continue;
      for (const attr of Array.from(fresh.attributes)) {
        if (mark.getAttribute(attr.name) !== attr.value) mark.setAttribute(attr.name, attr.value);
      }
      if (mark.textContent !== fresh.textContent) mark.textContent = fresh.textContent;
      if (base.has(fresh.dataset.spanId)) base.set(fresh.dataset.spanId, stateOf(fresh));
    }
    changed.remove();
    if (queue.length) rebase();
  });
  // Fast j/j/j: panels may come back out of order; only the current span's is shown.
  document.body.addEventListener("htmx:beforeSwap", (e) => {
    if (!e.detail.target || e.detail.target.id !== "panel") return;
    const verb = ((e.detail.requestConfig && e.detail.requestConfig.verb) || "").toLowerCase();
    const path = (e.detail.pathInfo && e.detail.pathInfo.requestPath) || "";
    const opened = /\/spans\/(\d+)\/$/.exec(path);
    if (verb !== "get" || !opened) return;
    // (No current span: a filtered candidate has the focus and the panel.)
    if (opened[1] !== String(currentId)) e.detail.shouldSwap = false;
    // htmx sends a panel GET queued behind another only when that one is
    // answered, possibly after a decision's answer filled the panel: the
    // answer's panel (with its message) stays.
    else if (answerPanel !== null && answerPanel === opened[1]) e.detail.shouldSwap = false;
    else if (e.detail.xhr && e.detail.xhr.answeredBefore !== answered) {
      // A decision was answered while this panel was on its way: it may show
      // the span as it was. The panel already shows the span (the answer's
      // own), or it is asked for again.
      e.detail.shouldSwap = false;
      const form = document.getElementById("decide-form");
      if (!form || form.dataset.spanId !== opened[1]) htmx.ajax("GET", path, panelSwap());
    }
  });
  document.body.addEventListener("htmx:beforeRequest", (e) => {
    if (e.detail.xhr && e.detail.target && e.detail.target.id === "panel") e.detail.xhr.answeredBefore = answered;
  });
  document.body.addEventListener("htmx:afterSettle", (e) => {
    // Only a decision or a span opened in the panel; a background swap (bulk
    // count, side panel filters) must not take the focus away, nor any answer
    // take it from the mark the reviewer has moved to in the text meanwhile (a
    // filtered candidate is no current span: it kept the focus from being given
    // back to the last one, pages away).
    if (!e.detail.target || e.detail.target.id !== "panel") return;
    const active = document.activeElement;
    // An added span (the add panel, or a filtered candidate taken) is the
    // current one once its answer shows it in the panel.
    const form = document.getElementById("decide-form");
    const path = (e.detail.requestConfig && e.detail.requestConfig.path) || "";
    const elsewhere = inText(active) && active.closest(MARKS) && active.dataset.spanId !== (form && form.dataset.spanId);
    if (form && path === root.dataset.addUrl && !elsewhere) {
      currentId = form.dataset.spanId;
      remember();
    }
    const mark = current();
    if (mark && active !== mark && !inText(active) && !previewOn()) mark.focus({ preventScroll: true });
  });
  // An answer that swaps the whole text in (an added span, undo, redo, a
  // resize, a bulk or group action) replaces every mark: the reviewer's place
  // and focus went with them (the page jumped 21,000 px to the end of a
  // 65k-character transcript, the focus to <body>). Where they were is read
  // before the swap, as the mark they were on (focused, else the last one if it
  // is on the screen) or the text at the top of the screen, and put back after
  // it, the same distance from the screen's top; a focused mark's focus goes to
  // the mark at the same place: the same span, else the one that replaced it
  // (a filtered candidate taken becomes a span; undone, the candidate again).
  let textPlace = null;
  function placeInText() {
    const body = textBody();
    if (!body || body.hidden) return null;
    const active = document.activeElement;
    const focused = inText(active) ? active.closest(MARKS) : null;
    let el = focused;
    if (!el) {
      // Its block first: a mark in a block off the screen is never asked where
      // it is (that would lay the skipped block out, see `topBlock`).
      const last = lastMark && inText(lastMark) ? lastMark : current();
      const onScreen = (box) => box.bottom > 0 && box.top < window.innerHeight;
      const block = last && last.closest(".chunk");
      if (block && onScreen(block.getBoundingClientRect()) && onScreen(last.getBoundingClientRect())) el = last;
    }
    if (!el) {
      const top = topBlock();
      const runs = top ? blocks()[top.block].querySelectorAll("[data-start]") : [];
      el = Array.from(runs).find((r) => r.getBoundingClientRect().bottom > 0) || null;
    }
    if (!el) return null;
    return { body: body, focused: !!focused, start: el.dataset.start, spanId: el.dataset.spanId || null,
      top: el.getBoundingClientRect().top };
  }
  // The element at (or the run before) a text offset: the blocks by their first
  // offset, then the runs of one block.
  function runAt(offset) {
    const all = blocks();
    const first = (block) => { const r = block.querySelector("[data-start]"); return r ? +r.dataset.start : Infinity; };
    let lo = 0;
    let hi = all.length - 1;
    if (hi < 0) return null;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (first(all[mid]) <= offset) lo = mid;
      else hi = mid - 1;
    }
    let found = null;
    for (const run of all[lo].querySelectorAll("[data-start]")) {
      if (+run.dataset.start > offset) break;
      found = run;
    }
    return found;
  }
  function backTo(was) {
    const body = textBody();
    if (!body || body.hidden) return;
    const el = (was.spanId && byId(was.spanId)) || body.querySelector('mark.span[data-start="' + was.start + '"]')
      || runAt(+was.start);
    if (!el) return;
    const put = () => {
      const off = el.getBoundingClientRect().top - was.top;
      if (Math.abs(off) >= 1) window.scrollBy(0, off);
    };
    put();
    keepPlace(put);
    if (was.focused && el.matches(MARKS)) el.focus({ preventScroll: true }); // focusin makes it the current one
  }
  document.body.addEventListener("htmx:oobBeforeSwap", (e) => {
    if (e.detail.target && e.detail.target.id === "text-body" && !previewOn()) textPlace = placeInText();
  });
  document.body.addEventListener("htmx:oobAfterSwap", () => {
    if (!textPlace || textBody() === textPlace.body) return;
    const was = textPlace;
    textPlace = null;
    backTo(was);
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
    const mark = e.target.closest && e.target.closest(MARKS);
    if (!mark) return;
    lastMark = mark;
    if (isMuted(mark)) {
      // No span to decide: a late answer must neither fill the panel with the
      // last span nor give it the focus back.
      currentId = null;
      answerPanel = null;
      showMuted(mark);
      return;
    }
    if (mark.dataset.spanId !== currentId) answerPanel = null;
    currentId = mark.dataset.spanId;
    remember();
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
    const help = document.getElementById("help");
    if (e.key === "Escape" && !help.open) {
      // From the side panel (a list or a field in it too), back to the text; in
      // the text, the add panel a selection or a filtered candidate opened is
      // closed. Never swallowed (a span and a filtered candidate alike): the
      // browser's own Esc still works.
      if (e.target.closest && e.target.closest(".side")) {
        const mark = here();
        if (mark) mark.focus();
      } else if (inText(e.target)) {
        const add = document.getElementById("add-panel");
        if (add) add.hidden = true;
      }
      return;
    }
    // Only where keys type something (a text field, a list): a checkbox, a radio
    // or a button never keeps the shortcuts from working.
    if (typing(e.target)) return;
    if (e.key === "?") { help.open ? help.close() : help.showModal(); e.preventDefault(); return; }
    if (help.open) return;
    const key = e.key.toLowerCase();
    const muted = e.target.closest && e.target.closest("mark.st-muted");
    if (muted && (key === "a" || key === "r" || /^[1-9[\]{}]$/.test(e.key))) {
      // On a filtered candidate "a" takes it (added as the reviewer's own span);
      // the keys that decide, relabel or resize a span have none to act on (the
      // candidate is left out already). Every other key works as on a span:
      // Tab moves on, Esc closes the add panel, j and k go on from here, u undoes.
      if (key === "a") addMuted(muted);
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

// The bulk form keeps its fields over a reload, every one of them: the browser
// restored some and cleared others ("Score ≥" came back empty while the side
// panel's filters, in the URL, kept theirs). They are kept for the tab's
// session as they change and put back before htmx asks for the form's count
// (this script runs before htmx, which is deferred), so the count is theirs.
(function () {
  "use strict";
  const form = document.getElementById("bulk-form");
  if (!form) return;
  const key = "review-bulk:" + location.pathname;
  const fields = () => Array.from(form.querySelectorAll("select[name], input[name]:not([type=hidden])"));
  try {
    const saved = JSON.parse(sessionStorage.getItem(key) || "null");
    if (saved) {
      for (const field of fields()) {
        const value = saved[field.name];
        // A choice no longer offered (a source gone after re-annotation) stays unset.
        if (typeof value !== "string") continue;
        if (field.tagName === "SELECT" && !Array.from(field.options).some((o) => o.value === value)) continue;
        field.value = value;
      }
    }
  } catch (err) { /* storage disabled or garbled: the form starts empty */ }
  function save() {
    const values = {};
    for (const field of fields()) values[field.name] = field.value;
    try { sessionStorage.setItem(key, JSON.stringify(values)); } catch (err) { /* storage full or disabled */ }
  }
  form.addEventListener("input", save);
  form.addEventListener("change", save);
})();
