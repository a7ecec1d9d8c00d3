// Live pages: the server's event stream says when the projector has moved on; the parts of the page that
// listen (hx-trigger="projected from:body") fetch themselves again, and the chart reloads its data.
(function () {
  "use strict";
  function live() {
    var badge = document.getElementById("live-state");
    if (!badge || !window.EventSource) return;
    var source = new EventSource(badge.dataset.live);
    source.addEventListener("projected", function (e) {
      document.body.dispatchEvent(new CustomEvent("projected", { detail: JSON.parse(e.data) }));
      badge.textContent = "live · updated " + new Date().toLocaleTimeString();
    });
    // the stream starts after the page was drawn: whatever was projected in between is fetched once now
    source.addEventListener("ready", function (e) {
      badge.classList.add("on");
      badge.dataset.position = JSON.parse(e.data).position;
      document.body.dispatchEvent(new CustomEvent("projected", { detail: JSON.parse(e.data) }));
    });
    source.onerror = function () { badge.classList.remove("on"); badge.textContent = "reconnecting…"; };
  }

  var chart = null;
  function drawChart() {
    var canvas = document.getElementById("chips-chart");
    if (!canvas || !window.Chart) return;
    fetch(canvas.dataset.src, { credentials: "same-origin" }).then(function (r) { return r.json(); }).then(function (data) {
      var palette = ["#1b5e20", "#0d47a1", "#b71c1c", "#4a148c", "#e65100", "#006064", "#33691e", "#880e4f", "#3e2723", "#263238"];
      var datasets = data.players.map(function (p, i) {
        return { label: p.player, data: p.points.map(function (pt) { return { x: Date.parse(pt.x), y: pt.y }; }),
                 borderColor: palette[i % palette.length], backgroundColor: palette[i % palette.length],
                 pointRadius: 0, borderWidth: 2, tension: 0.1 };
      });
      if (chart) { chart.data.datasets = datasets; chart.update("none"); return; }
      chart = new Chart(canvas, {
        type: "line", data: { datasets: datasets },
        options: { animation: false, parsing: false, maintainAspectRatio: false,
          scales: { x: { type: "linear", ticks: { callback: function (v) { return new Date(v).toISOString().slice(11, 16); } } },
                    y: { beginAtZero: true, title: { display: true, text: "chips" } } },
          plugins: { legend: { position: "bottom" } } }
      });
    });
  }

  function countdowns() {
    document.querySelectorAll(".countdown[data-seconds]").forEach(function (el) {
      var left = parseInt(el.dataset.seconds, 10);
      if (isNaN(left) || el.dataset.ticking) return;
      el.dataset.ticking = "1";
      var timer = setInterval(function () {
        if (!document.body.contains(el)) { clearInterval(timer); return; }
        left = Math.max(0, left - 1);
        el.textContent = Math.floor(left / 60) + ":" + String(left % 60).padStart(2, "0");
      }, 1000);
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    live(); drawChart(); countdowns();
    document.body.addEventListener("projected", function () { setTimeout(drawChart, 250); });
    document.body.addEventListener("htmx:afterSwap", countdowns);
  });
})();
