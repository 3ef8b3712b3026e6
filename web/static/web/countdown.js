// The front page's countdown to the next dice: counts down from the seconds the server
// measured (its clock, not the device's), shown as h:mm:ss. Once it has run down to
// zero the page is loaded again, so a front page left open over midnight shows the new
// day and its Play starts the new day's round, not the day before's as practice.
(function () {
  "use strict";
  var RELOAD_AFTER_MS = 1500;  // the server's new day starts at its midnight: a moment's margin
  var node = document.querySelector("[data-countdown]");
  if (!node) { return; }
  var seconds = parseInt(node.getAttribute("data-seconds"), 10) || 0;
  var end = Date.now() + 1000 * seconds;
  function pad(n) { return (n < 10 ? "0" : "") + n; }
  function tick() {
    var left = Math.max(0, Math.round((end - Date.now()) / 1000));
    node.textContent = Math.floor(left / 3600) + ":" + pad(Math.floor(left / 60) % 60) + ":" + pad(left % 60);
    if (left === 0) {
      window.clearInterval(timer);
      // Only a countdown that ran on this page: a page served at zero never reloads itself.
      if (seconds > 0) { window.setTimeout(function () { window.location.reload(); }, RELOAD_AFTER_MS); }
    }
  }
  var timer = window.setInterval(tick, 1000);
  tick();
})();
