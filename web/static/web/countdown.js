// The front page's countdown to the next dice: counts down from the seconds the server
// measured (its clock, not the device's), shown as h:mm:ss.
(function () {
  "use strict";
  var node = document.querySelector("[data-countdown]");
  if (!node) { return; }
  var end = Date.now() + 1000 * parseInt(node.getAttribute("data-seconds"), 10);
  function pad(n) { return (n < 10 ? "0" : "") + n; }
  function tick() {
    var left = Math.max(0, Math.round((end - Date.now()) / 1000));
    node.textContent = Math.floor(left / 3600) + ":" + pad(Math.floor(left / 60) % 60) + ":" + pad(left % 60);
    if (left === 0) { window.clearInterval(timer); }
  }
  var timer = window.setInterval(tick, 1000);
  tick();
})();
