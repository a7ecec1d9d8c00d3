// The hand replayer: every step of the hand is in the page (sealed by the API for this reader); stepping is
// drawing one of them. Keys: left/right arrows, Home/End. ?step=N opens at step N.
(function () {
  "use strict";
  function card(c) {
    var span = document.createElement("span");
    span.className = c === "??" ? "card sealed" : "card suit-" + c.slice(-1);
    span.textContent = c;
    return span;
  }
  function chips(n) { return n.toLocaleString("en-US"); }

  document.addEventListener("DOMContentLoaded", function () {
    var root = document.getElementById("replayer");
    var data = document.getElementById("steps-data");
    if (!root || !data) return;
    var steps = JSON.parse(data.textContent);
    var range = document.getElementById("step-range");
    var current = parseInt(root.dataset.start, 10) || 1;

    function draw(n) {
      current = Math.min(Math.max(1, n), steps.length);
      var s = steps[current - 1];
      range.value = current;
      document.getElementById("step-number").textContent = current;
      document.getElementById("step-says").textContent = s.says;
      var meta = [s.type];
      if (s.recorded_by) meta.push("recorded by " + s.recorded_by + " (" + s.role + ")");
      if (s.reading) meta.push("the engine read it as: " + s.reading + (s.rule ? " (" + s.rule + ")" : ""));
      else if (s.rule) meta.push(s.rule);
      if (s.ruling) meta.push("an official's ruling");
      document.getElementById("step-meta").textContent = meta.join(" · ");
      var board = document.getElementById("board");
      board.replaceChildren();
      s.board.forEach(function (c) { board.appendChild(card(c)); board.append(" "); });
      if (!s.board.length) board.textContent = "none yet";
      var body = document.querySelector("#seats tbody");
      body.replaceChildren();
      s.seats.forEach(function (seat) {
        var tr = document.createElement("tr");
        if (seat.seat === s.acting) tr.className = "acting";
        var cells = [String(seat.seat), seat.player, null, chips(seat.stack), chips(seat.committed),
                     seat.folded ? "folded" : seat.shown ? "shown" : seat.mucked ? "mucked" : "in"];
        cells.forEach(function (text, i) {
          var td = document.createElement("td");
          if (i === 2) seat.cards.forEach(function (c) { td.appendChild(card(c)); });
          else td.textContent = text;
          if (i === 3) { td.className = "num"; td.dataset.stack = seat.seat; }
          if (i === 4) { td.className = "num"; td.dataset.committed = seat.seat; }
          tr.appendChild(td);
        });
        body.appendChild(tr);
      });
      var pots = document.getElementById("pots");
      pots.replaceChildren();
      s.pots.forEach(function (p) {
        var li = document.createElement("li");
        li.dataset.pot = p.name;
        li.dataset.amount = p.amount;
        var text = p.name + ": " + chips(p.amount) + " — eligible seats " + p.eligible.join(", ");
        if (p.shares.length) text += " → " + p.shares.map(function (x) { return "seat " + x.seat + " " + chips(x.amount); }).join(", ");
        if (p.winning_hand) text += " (" + p.winning_hand + ")";
        li.textContent = text;
        pots.appendChild(li);
      });
      if (!s.pots.length) pots.innerHTML = "<li class='muted'>no chips in yet</li>";
      var link = document.getElementById("step-link");
      link.href = "?step=" + current;
      history.replaceState(null, "", "?step=" + current);
      root.dataset.step = current;
    }

    root.querySelectorAll("[data-go]").forEach(function (b) {
      b.addEventListener("click", function () {
        var go = b.dataset.go;
        draw(go === "first" ? 1 : go === "last" ? steps.length : go === "prev" ? current - 1 : current + 1);
      });
    });
    range.addEventListener("input", function () { draw(parseInt(range.value, 10)); });
    document.addEventListener("keydown", function (e) {
      if (e.target && /INPUT|TEXTAREA|SELECT/.test(e.target.tagName) && e.target !== range) return;
      if (e.key === "ArrowRight") { draw(current + 1); e.preventDefault(); }
      else if (e.key === "ArrowLeft") { draw(current - 1); e.preventDefault(); }
      else if (e.key === "Home") { draw(1); e.preventDefault(); }
      else if (e.key === "End") { draw(steps.length); e.preventDefault(); }
    });
    draw(current);
  });
})();
