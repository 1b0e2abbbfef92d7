// Behaviour that would otherwise be inline handlers, which the site's strict
// Content-Security-Policy forbids (no inline script, no on…= attributes).
(function () {
  "use strict";
  // A filter that applies as soon as it changes (the review queue's status and "mine").
  document.addEventListener("change", (e) => {
    const field = e.target.closest("[data-auto-submit]");
    if (field && field.form) field.form.submit();
  });
  // Forms whose buttons post with htmx must not also submit the page (Enter in a field).
  document.addEventListener("submit", (e) => {
    if (e.target.matches("form[data-no-submit]")) e.preventDefault();
    // A form that destroys something asks first (its data-confirm is the question).
    const question = e.target.dataset.confirm;
    if (question && !window.confirm(question)) e.preventDefault();
  });
})();
