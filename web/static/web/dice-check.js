// "Check the dice" in the browser, once the seed is shown: the browser's own
// cryptography (SubtleCrypto) checks that SHA-256 of the seed is the commitment the page
// showed before the first roll, and recomputes every die from the seed and the round's
// moves with this file's own dice stream v1 (SPEC §3), written apart from the server's
// engine: roll r of turn t reads HMAC-SHA256(key = seed, message =
// "yatzy-dice/v1/t/r/k") for k = 0, 1, 2, ...; each byte under 252 gives the face
// byte % 6 + 1; the dice not held take these faces in position order. The turns are
// shown with the box each one filled and the points the server gave it.
(function () {
  "use strict";
  var encoder = new TextEncoder();

  function bytesOf(hex) {
    var bytes = new Uint8Array(hex.length / 2);
    for (var i = 0; i < bytes.length; i++) { bytes[i] = parseInt(hex.substr(i * 2, 2), 16); }
    return bytes;
  }

  function hexOf(buffer) {
    return Array.prototype.map.call(new Uint8Array(buffer), function (b) {
      return (b < 16 ? "0" : "") + b.toString(16);
    }).join("");
  }

  // The first `count` faces of the stream of roll `roll` in turn `turn`.
  function draw(key, turn, roll, count) {
    var faces = [];
    function block(k) {
      var message = encoder.encode("yatzy-dice/v1/" + turn + "/" + roll + "/" + k);
      return crypto.subtle.sign("HMAC", key, message).then(function (mac) {
        var bytes = new Uint8Array(mac);
        for (var i = 0; i < bytes.length && faces.length < count; i++) {
          if (bytes[i] < 252) { faces.push(bytes[i] % 6 + 1); }
        }
        return faces.length < count ? block(k + 1) : faces;
      });
    }
    return block(0);
  }

  // Every turn of the action log: each roll's held positions and the dice after it, and
  // the box the turn filled (null for a turn still being played).
  function replay(key, actions, diceCount) {
    var turns = [];
    var current = { turn: 0, rolls: [], category: null };
    var dice = [];
    var chain = Promise.resolve();
    actions.forEach(function (action) {
      chain = chain.then(function () {
        if (action.type === "score") {
          current.category = action.category;
          turns.push(current);
          current = { turn: current.turn + 1, rolls: [], category: null };
          dice = [];
          return null;
        }
        var hold = action.hold || [];
        var free = [];
        for (var p = 0; p < diceCount; p++) { if (hold.indexOf(p) < 0) { free.push(p); } }
        return draw(key, current.turn, current.rolls.length, free.length).then(function (faces) {
          var next = dice.slice();
          free.forEach(function (position, i) { next[position] = faces[i]; });
          current.rolls.push({ hold: hold, dice: next });
          dice = next;
        });
      });
    });
    return chain.then(function () {
      if (current.rolls.length) { turns.push(current); }
      return turns;
    });
  }

  function cell(row, text, className) {
    var td = document.createElement("td");
    if (className) { td.className = className; }
    if (text !== undefined && text !== null) { td.textContent = String(text); }
    row.appendChild(td);
    return td;
  }

  function turnsTable(box, turns) {
    var names = JSON.parse(box.getAttribute("data-names"));
    var scorecard = JSON.parse(box.getAttribute("data-scorecard"));
    var table = document.createElement("table");
    table.className = "check-table";
    var head = table.createTHead().insertRow();
    ["data-label-turn", "data-label-rolls", "data-label-box", "data-label-points"].forEach(function (name) {
      var th = document.createElement("th");
      th.scope = "col";
      th.textContent = box.getAttribute(name);
      head.appendChild(th);
    });
    var body = table.createTBody();
    turns.forEach(function (turn) {
      var row = body.insertRow();
      row.setAttribute("data-check-turn", turn.turn);
      cell(row, turn.turn + 1);
      var rolls = cell(row);
      turn.rolls.forEach(function (roll, r) {
        var span = document.createElement("span");
        span.className = "check-roll";
        span.setAttribute("data-check-roll", r);
        span.setAttribute("data-dice", roll.dice.join(" "));
        roll.dice.forEach(function (face, position) {
          var die = document.createElement("span");
          die.textContent = face;
          if (roll.hold.indexOf(position) >= 0) {
            die.className = "check-held";
            die.title = box.getAttribute("data-label-held");
          }
          span.appendChild(die);
        });
        rolls.appendChild(span);
      });
      cell(row, turn.category ? names[turn.category] : "");
      cell(row, turn.category ? scorecard[turn.category] : "", "num");
    });
    return table;
  }

  function check(box) {
    var result = box.querySelector("[data-check-result]");
    var place = box.querySelector("[data-check-turns]");
    var root = box.closest("details") || document;
    var seedHex = root.querySelector("[data-seed]").textContent.trim();
    var commitment = root.querySelector("[data-commitment]").textContent.trim();
    if (!window.crypto || !window.crypto.subtle) {
      result.textContent = box.getAttribute("data-label-unsupported");
      return;
    }
    var seed = bytesOf(seedHex);
    var digest = crypto.subtle.digest("SHA-256", seed).then(hexOf);
    var key = crypto.subtle.importKey("raw", seed, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
    Promise.all([digest, key]).then(function (answers) {
      var matches = answers[0] === commitment;
      result.textContent = box.getAttribute(matches ? "data-label-match" : "data-label-mismatch");
      result.className = "check-result " + (matches ? "check-ok" : "check-bad");
      result.setAttribute("data-matches", matches ? "true" : "false");
      var actions = JSON.parse(box.getAttribute("data-actions"));
      var diceCount = parseInt(box.getAttribute("data-dice-count"), 10);
      return replay(answers[1], actions, diceCount).then(function (turns) {
        var intro = document.createElement("p");
        intro.textContent = box.getAttribute("data-label-done");
        place.replaceChildren(intro, turnsTable(box, turns));
        box.setAttribute("data-checked", "");
      });
    });
  }

  function show() {
    document.querySelectorAll("[data-action=check-dice]").forEach(function (button) { button.hidden = false; });
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest ? event.target.closest("[data-action=check-dice]") : null;
    if (button) { check(button.closest("[data-dice-check]")); }
  });
  document.addEventListener("play:updated", show);
  show();
})();
