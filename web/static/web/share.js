// The finished round's result, to paste anywhere: a button beside the text that hands
// it to the device's share sheet (the Web Share API) where there is one, else copies
// it. Both need a secure page (https, or this machine); elsewhere, or if the browser
// refuses, the text is selected for the player to copy. Without this script the text
// is there to select by hand.
(function () {
  "use strict";

  function show() {
    document.querySelectorAll("[data-action=share-result]").forEach(function (button) {
      var canShare = window.isSecureContext && typeof navigator.share === "function";
      button.textContent = button.getAttribute(canShare ? "data-share-label" : "data-copy-label");
      button.hidden = false;
    });
  }

  function select(field) {
    field.focus();
    field.select();
    field.setSelectionRange(0, field.value.length);
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest ? event.target.closest("[data-action=share-result]") : null;
    if (!button) { return; }
    var box = button.closest(".result-share");
    var field = box.querySelector("[data-result-text]");
    var status = box.querySelector("[data-share-status]");
    var say = function (name) { status.textContent = button.getAttribute(name); };
    var selected = function () { select(field); say("data-selected"); };
    var copy = function () {
      if (window.isSecureContext && navigator.clipboard && navigator.clipboard.writeText) {
        navigator.clipboard.writeText(field.value).then(function () { say("data-copied"); }, selected);
      } else {
        selected();
      }
    };
    if (window.isSecureContext && typeof navigator.share === "function") {
      navigator.share({ text: field.value }).then(function () { say("data-shared"); }, function (error) {
        // The player closed the share sheet: nothing to do. Any other refusal: copy.
        if (!error || error.name !== "AbortError") { copy(); }
      });
    } else {
      copy();
    }
  });

  document.addEventListener("play:updated", show);
  show();
})();
