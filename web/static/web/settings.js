// The settings page: of the options of new games, only the chosen ruleset's are shown,
// from the moment it is chosen, so one save stores a new ruleset with its options.
// Without the script every ruleset's options are shown, each under its name.
(function () {
  "use strict";
  const select = document.querySelector("[data-ruleset-select]");
  if (!select) {
    return;
  }
  const groups = document.querySelectorAll("[data-ruleset-options]");
  function show() {
    groups.forEach(function (group) {
      group.hidden = group.dataset.rulesetOptions !== select.value;
    });
  }
  select.addEventListener("change", show);
  show();
})();
