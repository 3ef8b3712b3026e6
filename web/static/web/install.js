// Registers the site's service worker (it keeps the static files and shows an offline
// page when the network is gone), on the site's own pages only: this file is loaded by
// their layout and nowhere else.
(function () {
  "use strict";
  var script = document.currentScript;
  var url = script && script.getAttribute("data-worker");
  if (!url || !("serviceWorker" in navigator) || !window.isSecureContext) { return; }
  window.addEventListener("load", function () {
    navigator.serviceWorker.register(url, { scope: "/" });
  });
})();
