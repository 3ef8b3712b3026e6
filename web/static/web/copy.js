// A "Copy" button beside each shared link (the link field is read-only and can be
// selected and copied by hand without this script, which only adds the button).
(function () {
  "use strict";
  document.querySelectorAll("[data-share-link]").forEach(function (field) {
    var button = document.createElement("button");
    button.type = "button";
    button.className = "button secondary copy";
    button.textContent = field.getAttribute("data-copy-label");
    var status = document.createElement("span");
    status.className = "copy-status";
    status.setAttribute("role", "status");
    button.addEventListener("click", function () {
      field.select();
      var done = function () { status.textContent = field.getAttribute("data-copied-label"); };
      if (navigator.clipboard && navigator.clipboard.writeText) {
        navigator.clipboard.writeText(field.value).then(done, function () { document.execCommand("copy"); done(); });
      } else {
        document.execCommand("copy");
        done();
      }
    });
    field.insertAdjacentElement("afterend", status);
    field.insertAdjacentElement("afterend", button);
  });
})();
