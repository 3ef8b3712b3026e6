// The play page (and the party's), live: dice toggle their hold in place (and the
// address keeps the holds, so a reload keeps them too); roll, score, hint and a
// scratch's question send the page's own forms (marked data-swap) in the background
// and the round's part of the page is replaced by the answer (the same server-rendered
// page a plain form would load). While an answer is on its way the round is
// aria-busy and the button that asked shows it; a hint whose table is still being
// built asks again by itself, and a finished daily shows its rank as soon as the
// board has it. Keys: 1-6 hold a die, R rolls, H asks for a hint, the letter shown
// beside a box scores it (a 0 asks once: press it again), Escape keeps it open, the
// arrow keys move between the boxes. Without this script every control still works
// as a plain form.
(function () {
  "use strict";
  var busy = false;
  var HINT_RETRY_MAX_S = 5;
  var RANK_POLL_S = 2;
  var RANK_POLLS = 30;

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
    ["#roll-form [data-hold-inputs]", "#hint-form [data-hold-inputs]", "#hold-form", "#score-form", "#scratch-form"].forEach(function (selector) {
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
    // The address says what is held (?hold=), as the page without this script does: a
    // reload, or the page opened again, shows the same dice held.
    if (window.history && window.history.replaceState) {
      var url = new URL(window.location.href);
      ["hold", "toggle", "scratch"].forEach(function (name) { url.searchParams.delete(name); });
      held.forEach(function (position) { url.searchParams.append("hold", position); });
      window.history.replaceState(null, "", url.pathname + url.search + url.hash);
    }
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
    var armed = root.querySelector("[data-armed]");
    var result = root.querySelector("#result-heading");
    var hint = root.querySelector("#hint-heading");
    var target = action === "hint" ? (hint || roll)
      : action === "scratch" ? (armed || roll || box)
      : action === "score" ? (roll || result)
      : (roll || box || result);
    if (target) {
      if (!target.hasAttribute("tabindex") && target.tagName === "H2") { target.setAttribute("tabindex", "-1"); }
      target.focus();
    }
  }

  function announce(doc, fresh) {
    var messages = document.querySelector("[data-messages]");
    var freshMessages = doc.querySelector("[data-messages]");
    if (!messages || !freshMessages) { return; }
    messages.innerHTML = freshMessages.innerHTML;
    // A refusal (409: the round moved on in another tab; 400; the throttle) is shown in
    // the dice bar too: the message region is at the top of the page, off the screen of
    // a phone scrolled down to the boxes, the bar is on screen. Screen readers hear the
    // region; the bar's copy is for the eyes only.
    var bar = play() && play().querySelector("[data-dice-bar]");
    var refusals = messages.querySelectorAll(".message.error");
    if (bar && refusals.length) {
      var shown = document.createElement("div");
      shown.setAttribute("aria-hidden", "true");
      shown.setAttribute("data-refused", "");
      refusals.forEach(function (refusal) { shown.appendChild(refusal.cloneNode(true)); });
      bar.insertBefore(shown, bar.firstChild);
    }
    var line = fresh.querySelector("[data-scratch-ask]") || fresh.querySelector("[data-hint-best], [data-hint-error]") || fresh.querySelector("[data-announce]");
    if (!messages.textContent.trim() && line) {
      var p = document.createElement("p");
      p.className = "visually-hidden";
      p.textContent = line.textContent.replace(/\s+/g, " ").trim();
      messages.appendChild(p);
    }
  }

  function updated() {
    document.dispatchEvent(new CustomEvent("play:updated"));
    watchHint();
    watchRank();
  }

  // Puts the round's part of an answered page in place; false when the answer has none.
  function swap(url, html, action, moveFocus) {
    var doc = new DOMParser().parseFromString(html, "text/html");
    var fresh = doc.querySelector("[data-play]");
    var root = play();
    if (!fresh || !root) { return false; }
    root.replaceWith(document.importNode(fresh, true));
    announce(doc, fresh);
    document.title = doc.title;
    if (window.history && window.history.replaceState) { window.history.replaceState(null, "", url); }
    if (moveFocus !== false) { focusAfter(play(), action); }
    updated();
    return true;
  }

  function get(url) {
    return fetch(url, { headers: { "Accept": "text/html" }, credentials: "same-origin" });
  }

  function send(form, submitter) {
    var data = new FormData(form, submitter || undefined);
    if (form.method.toLowerCase() === "get") {
      var query = new URLSearchParams(data).toString();
      return get(form.action + (query ? "?" + query : ""));
    }
    var token = form.querySelector("input[name=csrfmiddlewaretoken]");
    return fetch(form.action, {
      method: "POST",
      body: data,
      headers: { "X-CSRFToken": token ? token.value : "", "Accept": "text/html" },
      credentials: "same-origin"
    });
  }

  // The round is busy until the answer replaces it: assistive tools hear it, the button
  // that asked says what is going on, and another press waits for this one.
  function setBusy(root, button) {
    root.setAttribute("aria-busy", "true");
    if (!button) { return null; }
    var label = button.innerHTML;
    button.classList.add("busy");
    button.setAttribute("aria-busy", "true");
    var busyLabel = button.getAttribute("data-busy-label");
    if (busyLabel) { button.textContent = busyLabel; }
    return label;
  }

  // An answer that is no page of the round (the server failed: a 500, a 503 while the
  // database restarts) or no answer at all (the network is gone): the round stays as it
  // was shown, holds and place included, and the dice bar says what happened in the
  // page's language (its data-failed-server/-network texts): the bar is on screen
  // wherever the player has scrolled to, the message region at the top may not be. The
  // next answer's round replaces the bar, and the message with it.
  function failed(root, button, label, why) {
    root.removeAttribute("aria-busy");
    if (button && button.isConnected) {
      button.classList.remove("busy");
      button.removeAttribute("aria-busy");
      if (label !== null) { button.innerHTML = label; }
    }
    var bar = root.querySelector("[data-failed-server]");
    if (!bar) { window.location.reload(); return; }
    var old = bar.querySelector("[data-failed]");
    if (old) { old.remove(); }
    var p = document.createElement("p");
    p.className = "message error";
    p.setAttribute("role", "alert");
    p.setAttribute("data-failed", why);
    p.textContent = bar.getAttribute(why === "network" ? "data-failed-network" : "data-failed-server");
    bar.insertBefore(p, bar.firstChild);
  }

  function load(request, action, button, moveFocus) {
    var root = play();
    if (busy || !root) { return; }
    busy = true;
    var label = setBusy(root, button);
    request().then(function (response) {
      // The server failed (a 500, the 503 of a database restart): say so, stay.
      if (response.status >= 500) { failed(root, button, label, "server"); return; }
      // Any other refusal of the request itself is no page of the round, and trying
      // again would fail alike: its address is loaded (a form's address leads back to
      // its page). A form token gone stale (the player logged in again in another tab)
      // is no such refusal: the server answers it with the round's page and its
      // message, holds kept for the same roll (web.helpers.csrf_failure).
      if (!response.ok) { window.location.assign(response.url); return; }
      return response.text().then(function (html) {
        // Another page (the log-in page once the session has ended) is gone to.
        if (!swap(response.url, html, action, moveFocus)) { window.location.assign(response.url); }
      }, function () { failed(root, button, label, "network"); });
    }, function () {
      failed(root, button, label, "network");
    }).then(function () { busy = false; });
  }

  function actionOf(form) {
    return { "roll-form": "roll", "hint-form": "hint", "scratch-form": "scratch" }[form.id] || "score";
  }

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!play() || !form.hasAttribute("data-swap")) { return; }
    event.preventDefault();
    var submitter = event.submitter;
    var button = submitter || form.querySelector("button[type=submit]");
    load(function () { return send(form, submitter); }, actionOf(form), button);
  });

  // A hint whose table is still being built: ask again when the server says it may be
  // ready (at most every few seconds), until it is, or the round has moved on.
  var hintTimer = null;
  function watchHint() {
    window.clearTimeout(hintTimer);
    var wait = document.querySelector("[data-play] [data-hint-wait]");
    if (!wait) { return; }
    var seconds = Math.max(1, Math.min(HINT_RETRY_MAX_S, parseInt(wait.getAttribute("data-retry"), 10) || HINT_RETRY_MAX_S));
    var url = wait.getAttribute("data-retry-url");
    var hint = document.querySelector("#hint");
    if (hint) { hint.setAttribute("aria-busy", "true"); }
    hintTimer = window.setTimeout(function () {
      if (!wait.isConnected) { return; }
      if (busy) { watchHint(); return; }
      load(function () { return get(url); }, "hint", null, false);
    }, seconds * 1000);
  }

  // A finished daily whose rank is not on the board yet (a job adds the round within
  // moments): fetch the page again until the rank is there, then show it in place.
  var rankTimer = null;
  var rankPolls = 0;
  function watchRank() {
    window.clearTimeout(rankTimer);
    var pending = document.querySelector("[data-play] [data-rank-pending]");
    if (!pending || rankPolls >= RANK_POLLS) { return; }
    rankTimer = window.setTimeout(function () {
      rankPolls += 1;
      get(pending.getAttribute("data-poll-url")).then(function (response) {
        return response.text();
      }).then(function (html) {
        var doc = new DOMParser().parseFromString(html, "text/html");
        var fresh = doc.querySelector("[data-finished]");
        if (fresh && !fresh.hasAttribute("data-rank-pending") && pending.isConnected) {
          pending.replaceWith(document.importNode(fresh, true));
          var line = document.querySelector("[data-rank-line]");
          var messages = document.querySelector("[data-messages]");
          if (line && messages) { messages.textContent = line.textContent; }
          document.dispatchEvent(new CustomEvent("play:updated"));
        } else {
          watchRank();
        }
      }).catch(function () { watchRank(); });
    }, RANK_POLL_S * 1000 * (1 + Math.floor(rankPolls / 10)));
  }

  function boxes(root) { return Array.prototype.slice.call(root.querySelectorAll("[data-box]")); }

  function press(element) {
    if (element && !element.disabled) { element.click(); return true; }
    return false;
  }

  // The letter a key stands for on the page: the key itself, or on a layout without
  // Latin letters, the letter printed at that place of a US keyboard.
  function letterOf(event) {
    var key = (event.key || "").toLowerCase();
    if (/^[a-z]$/.test(key)) { return key; }
    var code = /^Key([A-Z])$/.exec(event.code || "");
    return code ? code[1].toLowerCase() : null;
  }

  document.addEventListener("keydown", function (event) {
    var root = play();
    var target = event.target;
    if (!root || event.ctrlKey || event.metaKey || event.altKey) { return; }
    if (target && (/^(INPUT|SELECT|TEXTAREA)$/.test(target.tagName) || target.isContentEditable)) { return; }
    var list = boxes(root);
    var at = list.indexOf(target);
    if (event.key === "ArrowDown" || event.key === "ArrowRight" || event.key === "ArrowUp" || event.key === "ArrowLeft") {
      var forward = event.key === "ArrowDown" || event.key === "ArrowRight";
      var inTurn = target && target.closest && target.closest("[data-dice-bar]");
      var next = null;
      if (at >= 0) {
        next = list[at + (forward ? 1 : -1)] || (forward ? null : root.querySelector("[data-action=roll]:not([disabled])"));
      } else if (inTurn && forward && !target.hasAttribute("data-die")) {
        next = list[0];
      }
      if (next) { event.preventDefault(); next.focus(); }
      return;
    }
    // A key held down repeats: only its press acts (R held a moment too long rolled
    // again as soon as the first answer was in; a digit flickered its die's hold), and
    // Enter or Space held on a button of the round does not press it again.
    if (event.repeat) {
      var onButton = target && target.closest && target.closest("button");
      if ((event.key === "Enter" || event.key === " ") && onButton && root.contains(onButton)) {
        event.preventDefault();  // Space held elsewhere still scrolls the page
      }
      return;
    }
    if (event.key === "Escape") {
      var cancel = root.querySelector("[data-scratch-cancel]");
      if (cancel) {
        event.preventDefault();
        load(function () { return get(cancel.href); }, "roll", null);
      }
      return;
    }
    if (/^[1-9]$/.test(event.key)) {
      var die = root.querySelector('[data-die="' + (parseInt(event.key, 10) - 1) + '"]');
      if (die && !die.disabled) {
        event.preventDefault();
        die.click();
        die.focus();
      }
      return;
    }
    var letter = letterOf(event);
    if (!letter) { return; }
    if (letter === "r") {
      if (press(root.querySelector("[data-action=roll]"))) { event.preventDefault(); }
    } else if (letter === "h") {
      if (press(root.querySelector("[data-action=hint]"))) { event.preventDefault(); }
    } else {
      var box = root.querySelector('[data-box][aria-keyshortcuts="' + letter + '"]');
      if (box) {
        event.preventDefault();
        box.focus();
        box.click();
      }
    }
  });

  // Links inside the round that only change what the page shows (keep a box open after
  // its question) swap in place too.
  document.addEventListener("click", function (event) {
    var link = event.target.closest ? event.target.closest("[data-scratch-cancel]") : null;
    if (!link || !play()) { return; }
    event.preventDefault();
    load(function () { return get(link.href); }, "roll", null);
  });

  watchHint();
  watchRank();
})();
