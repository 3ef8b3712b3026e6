// The play page (and the party's), live: dice toggle their hold in place; roll, score
// and hint send the page's own forms (marked data-swap) in the background and the
// round's part of the page is replaced by the answer (the same server-rendered page a
// plain form would load). Keys: 1-6 hold a die, R rolls, H asks for a hint; Tab and
// Enter reach everything else. Without this script every control still works as a
// plain form.
(function () {
  "use strict";
  var busy = false;

  function play() { return document.querySelector("[data-play]"); }

  function heldPositions(root) {
    var held = [];
    root.querySelectorAll("[data-die]").forEach(function (die) {
      if (die.getAttribute("aria-pressed") === "true") { held.push(die.getAttribute("data-die")); }
    });
    return held;
  }

  // Every form of the round carries the holds: the roll uses them, the others keep them.
  function syncHolds(root) {
    var held = heldPositions(root);
    ["#roll-form [data-hold-inputs]", "#hint-form [data-hold-inputs]", "#hold-form", "#score-form"].forEach(function (selector) {
      var box = root.querySelector(selector);
      if (!box) { return; }
      box.querySelectorAll("input[name=hold]").forEach(function (input) { input.remove(); });
      held.forEach(function (position) {
        var input = document.createElement("input");
        input.type = "hidden";
        input.name = "hold";
        input.value = position;
        box.appendChild(input);
      });
    });
  }

  document.addEventListener("click", function (event) {
    var root = play();
    var die = event.target.closest ? event.target.closest("[data-die]") : null;
    if (!root || !die || die.disabled) { return; }
    event.preventDefault();
    var held = die.getAttribute("aria-pressed") === "true";
    die.setAttribute("aria-pressed", held ? "false" : "true");
    syncHolds(root);
  });

  function focusAfter(root, action) {
    var roll = root.querySelector("[data-action=roll]:not([disabled])");
    var box = root.querySelector("[data-box]");
    var result = root.querySelector("#result-heading");
    var hint = root.querySelector("#hint-heading");
    var target = action === "hint" ? (hint || roll) : action === "score" ? (roll || result) : (roll || box || result);
    if (target) {
      if (!target.hasAttribute("tabindex") && target.tagName === "H2") { target.setAttribute("tabindex", "-1"); }
      target.focus();
    }
  }

  function swap(url, html, action) {
    var doc = new DOMParser().parseFromString(html, "text/html");
    var fresh = doc.querySelector("[data-play]");
    var root = play();
    if (!fresh || !root) { window.location.assign(url); return; }
    root.replaceWith(document.importNode(fresh, true));
    var messages = document.querySelector("[data-messages]");
    var freshMessages = doc.querySelector("[data-messages]");
    if (messages && freshMessages) {
      messages.innerHTML = freshMessages.innerHTML;
      var announce = fresh.querySelector("[data-announce]");
      if (!messages.textContent.trim() && announce) {
        var line = document.createElement("p");
        line.className = "visually-hidden";
        line.textContent = announce.textContent;
        messages.appendChild(line);
      }
    }
    document.title = doc.title;
    if (window.history && window.history.replaceState) { window.history.replaceState(null, "", url); }
    focusAfter(play(), action);
  }

  function send(form, submitter) {
    var data = new FormData(form, submitter || undefined);
    if (form.method.toLowerCase() === "get") {
      var query = new URLSearchParams(data).toString();
      return fetch(form.action + (query ? "?" + query : ""), {
        headers: { "Accept": "text/html" },
        credentials: "same-origin"
      });
    }
    var token = form.querySelector("input[name=csrfmiddlewaretoken]");
    return fetch(form.action, {
      method: "POST",
      body: data,
      headers: { "X-CSRFToken": token ? token.value : "", "Accept": "text/html" },
      credentials: "same-origin"
    });
  }

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!play() || !form.hasAttribute("data-swap")) { return; }
    event.preventDefault();
    if (busy) { return; }
    busy = true;
    var action = form.id === "roll-form" ? "roll" : form.id === "hint-form" ? "hint" : "score";
    send(form, event.submitter).then(function (response) {
      return response.text().then(function (html) { swap(response.url, html, action); });
    }).catch(function () {
      window.location.reload();
    }).then(function () { busy = false; });
  });

  document.addEventListener("keydown", function (event) {
    var root = play();
    var target = event.target;
    if (!root || event.ctrlKey || event.metaKey || event.altKey) { return; }
    if (target && /^(INPUT|SELECT|TEXTAREA)$/.test(target.tagName)) { return; }
    if (/^[1-9]$/.test(event.key)) {
      var die = root.querySelector('[data-die="' + (parseInt(event.key, 10) - 1) + '"]');
      if (die && !die.disabled) {
        event.preventDefault();
        die.click();
        die.focus();
      }
    } else if (event.key === "r" || event.key === "R") {
      var roll = root.querySelector("[data-action=roll]");
      if (roll && !roll.disabled) {
        event.preventDefault();
        roll.click();
      }
    } else if (event.key === "h" || event.key === "H") {
      var hint = root.querySelector("[data-action=hint]");
      if (hint) {
        event.preventDefault();
        hint.click();
      }
    }
  });
})();
