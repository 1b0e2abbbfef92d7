// Quasi-identifier layer of the review page (issue 18): show or hide the flags.
// Decisions are htmx posts in the list itself; this only toggles the layer and
// remembers the choice for the session (no inline script: the CSP allows self only).
(function () {
  "use strict";
  var KEY = "quasi-layer-shown";

  function apply(shown) {
    var button = document.getElementById("quasi-toggle");
    var flags = document.getElementById("quasi-flags");
    if (!button || !flags) return;
    flags.hidden = !shown;
    button.setAttribute("aria-pressed", shown ? "true" : "false");
    button.textContent = shown ? "Hide quasi-identifiers" : "Show quasi-identifiers";
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("#quasi-toggle");
    if (!button) return;
    var shown = button.getAttribute("aria-pressed") !== "true";
    try { window.sessionStorage.setItem(KEY, shown ? "1" : "0"); } catch (e) { /* storage off: no memory */ }
    apply(shown);
  });

  var remembered = false;
  try { remembered = window.sessionStorage.getItem(KEY) === "1"; } catch (e) { remembered = false; }
  apply(remembered);
})();
