/* One game: a large board with move browsing, both clocks, the move list with %clk, claims. */
"use strict";

(() => {
  const id = document.body.dataset.game;
  let shown = null; // the ply on the board; null follows the live position
  let flipped = false;

  const game = () => Venue.state.games.get(id);

  // Each player's live FIDE rating change for the games finished so far (the standings' own figure,
  // /api/standings: services.tournament.rating_change), read again when this game's result changes.
  let changes = {};
  let changesFor = undefined;
  function readChanges(g) {
    const result = Venue.shownResult(g) || "";
    if (result === changesFor) return;
    changesFor = result;
    fetch("/api/standings").then((r) => (r.ok ? r.json() : null)).then((d) => {
      if (!d || !d.rows) return;
      changes = Object.fromEntries(d.rows.filter((row) => row.rating_change).map((row) => [row.name, row.rating_change]));
      document.querySelectorAll(".rchg[data-side]").forEach((el) => {
        el.textContent = changes[g[el.dataset.side]] || "";
      });
    }).catch(() => {});
  }

  function player(g, side) {
    const r = Venue.shownResult(g);
    const score = r === "1/2-1/2" ? "\u00bd" : r === "1-0" ? (side === "white" ? "1" : "0") : r === "0-1" ? (side === "white" ? "0" : "1") : "";
    const toMove = g.status === "playing" && g.turn === side ? " to-move" : "";
    return `<span class="dot ${side}"></span><span class="name">${Venue.playerHtml(g, side)}</span>` +
      `<span class="elo">${Venue.esc(g[side + "_elo"] || "")}</span>` +
      `<span class="rchg" data-side="${side}" title="live FIDE rating change">${Venue.esc(changes[g[side]] || "")}</span>` +
      `<span class="score">${score}</span>` +
      `<span class="clock-box"><span class="clock${toMove}" data-side="${side}"></span>` +
      `<span class="spent" data-side="${side}" title="time spent on the last move"></span></span>`;
  }

  // ``spent`` is wall time between plies reaching the log; a replay runs its clocks ``Venue.rate``
  // times faster (the demo: 60x), so the time the player took is that many times longer.
  function gameTime(ms) {
    return ms === null || ms === undefined ? null : Math.round(ms * Venue.rate);
  }

  // The time the side took over its last move, beside its clock.
  function lastSpent(g, side) {
    const spent = g.spent || [];
    for (let ply = g.ply; ply >= 1; ply--) {
      const mover = (ply % 2 === 1) === (g.first_side !== "black") ? "white" : "black";
      if (mover === side) return gameTime(spent[ply - 1]);
    }
    return null;
  }

  // Checkers' numeric notation names the squares 1-32: numbers over pydraughts' picture, where it
  // draws each square (data-squares: square -> [x, y] as fractions), turned with the board.
  function renderNumbers(g, ply) {
    const box = document.getElementById("sq-numbers");
    if (!box) return;
    box.hidden = g.variant !== "checkers";
    if (box.hidden) return;
    if (!box.childElementCount) {
      const centres = JSON.parse(box.dataset.squares || "{}");
      for (const [n, [x, y]] of Object.entries(centres)) {
        const el = document.createElement("span");
        el.textContent = n; el.dataset.x = x; el.dataset.y = y;
        box.appendChild(el);
      }
    }
    // the squares of the move that led to the position shown ("11-15", "23x14x5"): highlighted
    const move = ply ? String((g.moves || [])[ply - 1] || "") : "";
    const last = new Set(move.split(/[-x]/).filter(Boolean));
    for (const el of box.children) {
      const x = +el.dataset.x, y = +el.dataset.y;
      el.style.left = `${(flipped ? 1 - x : x) * 100}%`;
      el.style.top = `${(flipped ? 1 - y : y) * 100}%`;
      el.classList.toggle("last", last.has(el.textContent));
    }
  }

  function renderBoard(g) {
    const ply = shown === null ? g.ply : shown;
    renderNumbers(g, ply);
    document.getElementById("game-board").hidden = false;  // served hidden when the game was not there yet (a 404 page)
    Venue.swapImage(document.getElementById("board-img"), Venue.boardUrl(g, ply, 560, true, flipped));
    document.querySelectorAll("#moves .mv").forEach((el) => el.classList.toggle("current", +el.dataset.ply === ply));
  }

  // Each name next to its own pieces: python-chess draws White at the bottom (Black when flipped);
  // pydraughts draws checkers with White's men (21-32) at the top and Black's (1-12) at the bottom
  // (the other way round when flipped).
  function renderPlayers(g) {
    const checkers = g.variant === "checkers";
    const up = checkers ? (flipped ? "black" : "white") : flipped ? "white" : "black";
    const top = up, bottom = up === "white" ? "black" : "white";
    const t = document.getElementById("p-top"), b = document.getElementById("p-bottom");
    t.className = `player ${top}`; b.className = `player ${bottom}`;
    t.innerHTML = player(g, top); b.innerHTML = player(g, bottom);
    tick();
  }

  function renderMoves(g) {
    const ol = document.getElementById("moves");
    let html = "";
    // each move: its %clk and, beside it, the time the mover took over it
    const clk = (i) => {
      const ms = g.clocks[i], took = gameTime((g.spent || [])[i]);
      return (ms === null || ms === undefined ? "" : `<span class="clk">${Venue.fmt(ms)}</span>`) +
        (took === null ? "" : `<span class="took" title="time spent">${Venue.fmt(took)}</span>`);
    };
    for (let i = 0; i < g.san.length; i += 2) {
      const a = `<span class="mv" data-ply="${i + 1}"><span class="san">${Venue.esc(g.san[i])}</span>${clk(i)}</span>`;
      const b = i + 1 < g.san.length ? `<span class="mv" data-ply="${i + 2}"><span class="san">${Venue.esc(g.san[i + 1])}</span>${clk(i + 1)}</span>` : "";
      html += `<li>${a}${b}</li>`;
    }
    ol.innerHTML = html;
    ol.scrollTop = ol.scrollHeight;
  }

  function renderResult(g) {
    const box = document.getElementById("result-box");
    if (g.status === "ended") box.innerHTML = `<span class="badge ended big">${Venue.esc(Venue.scoreText(g))}</span> ${Venue.esc(Venue.outcomeLine(g))}`;
    else if (g.status === "playing") box.innerHTML = `<span class="badge live">live</span> ${g.ply ? "last move " + Venue.esc(Venue.moveLabel(g, g.ply)) : ""}`;
    else box.innerHTML = `<span class="badge waiting">waiting for the start</span>`;
    const note = document.getElementById("game-note");
    const notes = [];
    if (Venue.armageddon(g)) notes.push("Armageddon: draw odds, a drawn game is a win for Black");
    if (g.corrections) notes.push("The record was corrected by the arbiter");
    note.textContent = notes.join(" \u00b7 ");
    const claims = document.getElementById("claims");
    claims.innerHTML = g.status !== "ended" && g.claimable.length
      ? `<span class="claim">Draw claimable</span> ${g.claimable.map((c) => Venue.esc(Venue.claimText(c))).join("; ")}` : "";
  }

  // The engine's evaluation (venue analyse; docs/spectators.md "Engine evaluation"): in the public
  // GAME only, for a position the public has seen (the fold keeps it for the game's position then).
  // White's share of the bar by lichess's winning-chances curve: 50 + 50 * (2 / (1 + e^(-0.00368208 cp)) - 1).
  function renderEval(g) {
    const box = document.getElementById("eval"), e = g.evaluation;
    if (!e || e.ply > g.ply || g.variant !== "chess") { box.hidden = true; return; }
    const white = e.mate !== null && e.mate !== undefined ? (e.mate > 0 ? 100 : e.mate < 0 ? 0 : (e.ply % 2 ? 100 : 0))
      : 50 + 50 * (2 / (1 + Math.exp(-0.00368208 * (e.score_cp || 0))) - 1);
    document.getElementById("eval-white").style.height = `${white.toFixed(1)}%`;
    document.getElementById("eval-score").textContent = e.mate !== null && e.mate !== undefined
      ? `#${e.mate}` : `${e.score_cp >= 0 ? "+" : ""}${(e.score_cp / 100).toFixed(2)}`;
    // the line from the position after ply e.ply: ply n is move ceil(n / 2), White's when n is odd
    document.getElementById("eval-line").textContent = e.best_line_san.map((san, i) => {
      const ply = e.ply + i + 1, no = Math.ceil(ply / 2);
      return (ply % 2 === 1 ? `${no}. ` : i === 0 ? `${no}... ` : "") + san;
    }).join(" ");
    document.getElementById("eval-note").textContent = `${e.engine}, depth ${e.depth}` +
      (e.ply < g.ply ? ` · after ${Venue.moveLabel(g, e.ply)}` : "");
    box.hidden = false;
  }

  function render() {
    const g = game();
    if (!g) { document.getElementById("result-box").textContent = "This game is not in the current round."; return; }
    readChanges(g);
    const r = Venue.state.round || {};
    document.getElementById("event-name").textContent = r.event || "Tournament";
    document.getElementById("round-name").textContent = r.round ? `Round ${r.round}` : "";
    document.getElementById("board-name").textContent = `Board ${g.board}`;
    const label = Venue.armageddon(g) ? `<span class="kind armageddon">Armageddon</span>`
      : g.kind && g.kind !== "classical" ? `<span class="kind">${Venue.esc(g.kind)}</span>` : "";
    const control = Venue.controlText(g.time_control);
    document.getElementById("kind-name").innerHTML = label + (label && control ? " \u00b7 " : "") +
      (control ? `<span class="control" title="time control">${Venue.esc(control)}</span>` : "");
    document.title = `${Venue.pairText(g)} \u00b7 ${r.event || "Venue"}`;
    if (g.variant === "checkers") {  // a checkers game downloads as PDN
      const link = document.getElementById("pgn-link");
      link.href = `/api/games/${encodeURIComponent(g.id)}.pdn`; link.textContent = "PDN";
    }
    renderPlayers(g); renderMoves(g); renderResult(g); renderEval(g); renderBoard(g);
  }

  function tick() {
    const g = game();
    if (!g) return;
    document.querySelectorAll(".player .clock").forEach((el) => {
      const side = el.dataset.side, ms = Venue.remaining(g.clock, side);
      el.textContent = Venue.fmt(ms);
      el.classList.toggle("running", !!g.clock && g.clock.running === side);
      el.classList.toggle("low", ms !== null && ms < 5 * 60 * 1000);
    });
    document.querySelectorAll(".player .spent").forEach((el) => {
      const took = lastSpent(g, el.dataset.side);
      el.textContent = took === null ? "" : Venue.fmt(took);
    });
  }

  function go(ply) {
    const g = game();
    if (!g) return;
    shown = ply === null || ply >= g.ply ? null : Math.max(0, ply);
    renderBoard(g);
  }

  document.getElementById("moves").addEventListener("click", (ev) => {
    const mv = ev.target.closest(".mv");
    if (mv) go(+mv.dataset.ply);
  });
  document.getElementById("nav-first").onclick = () => go(0);
  document.getElementById("nav-prev").onclick = () => { const g = game(); if (g) go((shown === null ? g.ply : shown) - 1); };
  document.getElementById("nav-next").onclick = () => { const g = game(); if (g) go((shown === null ? g.ply : shown) + 1); };
  document.getElementById("nav-last").onclick = () => go(null);
  document.getElementById("flip").onclick = () => { flipped = !flipped; const g = game(); if (g) { renderPlayers(g); renderBoard(g); } };
  document.addEventListener("keydown", (ev) => {
    if (ev.key === "ArrowLeft") document.getElementById("nav-prev").click();
    if (ev.key === "ArrowRight") document.getElementById("nav-next").click();
  });

  Venue.connect({ reset: render, game: (g) => { if (g.id === id) render(); } });
  setInterval(tick, 250);
})();
