/* The hall page: one card per board of the round (or of the boards the page shows, data-boards),
   updated from the live feed. A refused boards= SPEC (data-error) shows its reason, with no feed. */
"use strict";

(() => {
  const grid = document.getElementById("grid");
  const cards = new Map();

  function header(st) {
    const r = st.round || {};
    document.getElementById("event-name").textContent = r.event || "Tournament";
    document.getElementById("round-name").textContent = r.round ? `Round ${r.round}` : "";
    document.getElementById("event-site").textContent = r.site && r.site !== "?" ? r.site : "";
    document.getElementById("event-date").textContent = r.date || "";
    document.title = `${r.event || "Venue"} \u2013 Round ${r.round || ""} \u2013 live`;
  }

  function playerRow(side) {
    return `<div class="player ${side}"><span class="dot ${side}"></span><span class="name"></span>` +
      `<span class="elo"></span><span class="score"></span><span class="clock"></span></div>`;
  }

  // Each name next to its own pieces: python-chess draws White at the bottom, pydraughts draws
  // checkers with White's men (21-32) at the top and Black's (1-12) at the bottom.
  function build(g) {
    const [top, bottom] = g.variant === "checkers" ? ["white", "black"] : ["black", "white"];
    const a = document.createElement("a");
    a.className = "card";
    a.title = Venue.pairText(g);
    a.href = `/game/${encodeURIComponent(g.id)}`;
    a.id = `g-${g.id}`;
    a.dataset.game = g.id;
    // both games of a checkers match sit on one board: say which game a card is
    const gameNo = g.match && g.match.game_no ? ` · game ${Venue.esc(g.match.game_no)}` : "";
    const kind = Venue.armageddon(g) ? ` <span class="kind armageddon" title="draw odds: a drawn game is a win for Black">Armageddon</span>` : "";
    a.innerHTML = `<div class="card-head"><span class="board-no">Board ${Venue.esc(g.board)}${gameNo}</span>${kind}` +
      `<span class="status"></span></div>` + playerRow(top) +
      `<div class="board"><img alt="board ${Venue.esc(g.board)}" width="320" height="320"></div>` +
      playerRow(bottom) + `<div class="card-foot"><span class="last"></span>` +
      `<span class="claim" hidden>Draw claimable</span></div>`;
    return a;
  }

  function scoreOf(result, side) {  // result: as the regulations score it (Venue.shownResult)
    if (result === "1-0") return side === "white" ? "1" : "0";
    if (result === "0-1") return side === "white" ? "0" : "1";
    if (result === "1/2-1/2") return "\u00bd";
    return "";
  }

  function update(g) {
    const card = cards.get(g.id);
    if (!card) return;
    for (const side of ["white", "black"]) {
      const row = card.querySelector(`.player.${side}`);
      const name = row.querySelector(".name");
      name.innerHTML = Venue.playerHtml(g, side);
      name.title = g[side];
      row.querySelector(".elo").textContent = g[`${side}_elo`] || "";
      const result = Venue.shownResult(g);
      row.querySelector(".score").textContent = scoreOf(result, side);
      row.classList.toggle("to-move", g.status === "playing" && g.turn === side);
      row.classList.toggle("winner", scoreOf(result, side) === "1");
    }
    const status = card.querySelector(".status");
    if (g.status === "ended") {
      status.textContent = `${Venue.scoreText(g)} \u00b7 ${Venue.outcomeText(g, true)}`;
      status.title = Venue.outcomeLine(g);
      status.className = "status badge ended";
    } else if (g.status === "playing") {
      status.textContent = "live"; status.className = "status badge live"; status.title = "";
    } else {
      status.textContent = "waiting"; status.className = "status badge waiting"; status.title = "";
    }
    card.querySelector(".last").textContent = g.ply ? Venue.moveLabel(g, g.ply) : "\u00a0";
    const claim = card.querySelector(".claim");
    claim.hidden = !(g.claimable && g.claimable.length && g.status !== "ended");
    if (!claim.hidden) claim.title = g.claimable.map(Venue.claimText).join("; ");
    card.classList.toggle("is-ended", g.status === "ended");
    Venue.swapImage(card.querySelector("img"), Venue.boardUrl(g, g.ply, 320, false, false));
    tickCard(g, card);
  }

  function tickCard(g, card) {
    for (const side of ["white", "black"]) {
      const el = card.querySelector(`.player.${side} .clock`);
      const ms = Venue.remaining(g.clock, side);
      el.textContent = Venue.fmt(ms);
      el.classList.toggle("running", !!g.clock && g.clock.running === side);
      el.classList.toggle("low", ms !== null && ms < 5 * 60 * 1000);
    }
  }

  // Boards, not games: an Armageddon game or a match's second game sits on its first game's board.
  // A board is playing while any of its games is, finished once all of them are (a checkers match's
  // game 2 waiting behind a live game 1 left the board counted as neither).
  function summary(st) {
    const boards = new Map();
    for (const g of st.games.values()) {
      if (!boards.has(g.board)) boards.set(g.board, []);
      boards.get(g.board).push(g);
    }
    let live = 0, done = 0;
    for (const games of boards.values()) {
      if (games.some((g) => g.status === "playing")) live++;
      else if (games.every((g) => g.status === "ended")) done++;
    }
    const n = boards.size;
    document.getElementById("summary").textContent = n ? `${n} board${n === 1 ? "" : "s"} \u00b7 ${live} playing \u00b7 ${done} finished` : "";
  }

  function reset(st) {
    header(st);
    const games = [...st.games.values()];
    const link = document.getElementById("round-link");
    if (link && games.length && games.every((g) => g.variant === "checkers")) { link.href = "/api/round.pdn"; link.textContent = "Round PDN"; }
    const archive = document.body.dataset.archive;
    if (link && archive) link.href = `${link.pathname}?round=${encodeURIComponent(archive)}`;
    grid.innerHTML = "";
    cards.clear();
    for (const g of st.games.values()) { const c = build(g); cards.set(g.id, c); grid.appendChild(c); update(g); }
    const empty = document.getElementById("empty");
    empty.hidden = st.games.size > 0;
    if (st.round && document.body.dataset.boards) empty.textContent = `No game of ${st.round.round ? "round " + st.round.round : "this round"} is on boards ${document.body.dataset.boards}.`;
    summary(st);
  }

  // Standings exist once the tournament is registered in the log (not for a lone replayed round).
  const showStandings = () => fetch("/api/standings").then((r) => r.ok ? r.json() : null)
    .then((j) => { document.getElementById("standings-link").hidden = !(j && j.rows && j.rows.length); })
    .catch(() => {});

  function refused(reason) {
    const box = document.getElementById("error");
    box.textContent = reason || "The live feed refused this page's boards.";
    box.hidden = false;
    document.getElementById("empty").hidden = true;
  }

  if (document.body.dataset.error) {
    refused(document.body.dataset.error);
    const conn = document.getElementById("conn");
    conn.textContent = "refused"; conn.className = "conn conn-error";
    return;
  }
  Venue.countdown(document.getElementById("countdown"));
  Venue.connect({ reset: (st) => { reset(st); showStandings(); }, game: (g) => { update(g); summary(Venue.state); }, refused });
  setInterval(() => { for (const g of Venue.state.games.values()) if (g.clock && g.clock.running) { const c = cards.get(g.id); if (c) tickCard(g, c); } }, 250);
})();
