/* Venue live feed: keeps the round's games in step with /ws/live (snapshot, then deltas) and
   resumes after a drop with ?after=SEQ, on whichever dashboard node the address leads to
   (tests/live_spectator.py is this client in Python, for the tests: keep the two in step). Clock
   figures are milliseconds; a running clock is shown as ms - (now - clock.at) * rate, where rate
   is the replay speed in a demo (1 in a real hall).
   <body data-boards="SPEC"> follows only those boards (/ws/live?boards=SPEC); a refused SPEC closes
   the socket with code 1008 and its reason, shown instead of retrying. */
"use strict";

const Venue = (() => {
  const body = document.body;
  const rate = parseFloat(body.dataset.clockRate || "1") || 1;
  const serverNow = parseInt(body.dataset.serverNow || "0", 10);
  const skew = serverNow ? Date.now() - serverNow : 0; // client clock minus server clock, ms
  const state = { seq: 0, round: null, games: new Map() };

  function applyGame(g, d) {
    if (d.append) {
      g.moves.push(d.append.move); g.san.push(d.append.san); g.clocks.push(null);
      (g.spent = g.spent || []).push(d.append.spent ?? null);
    }
    if (d.clk) for (const [ply, ms] of d.clk) g.clocks[ply - 1] = ms;
    Object.assign(g, d.set || {});
  }

  function remaining(clock, side) {
    if (!clock) return null;
    let ms = clock[side + "_ms"];
    if (clock.running === side) ms -= (Date.now() - skew - clock.at) * rate;
    return Math.max(0, ms);
  }

  function fmt(ms) {
    if (ms === null || ms === undefined) return "\u2013:\u2013\u2013";
    const s = Math.ceil(ms / 1000), h = Math.floor(s / 3600), m = Math.floor(s / 60) % 60, x = s % 60;
    const pad = (n) => String(n).padStart(2, "0");
    return h ? `${h}:${pad(m)}:${pad(x)}` : `${m}:${pad(x)}`;
  }

  function moveLabel(g, ply) {
    // SAN with its move number; ply counts from 1 and the first mover may be Black (checkers).
    const first = g.first_side || "white";
    const idx = ply - 1 + (first === "black" && g.variant === "chess" ? 1 : 0);
    const no = Math.floor(idx / 2) + 1;
    return (idx % 2 === 0 ? `${no}. ` : `${no}\u2026 `) + g.san[ply - 1];
  }

  const CLAIM_NAMES = { threefold: "threefold repetition", fifty_moves: "50-move rule", forty_moves: "40-move rule" };
  function claimText(c) {
    const name = CLAIM_NAMES[c.kind] || c.kind;
    return c.by_move ? `${name} (with ${c.by_move})` : name;
  }

  const TERMS = { time_forfeit: "on time", flag_fall: "on time", threefold_repetition: "threefold repetition",
    fifty_moves: "50-move rule", fivefold_repetition: "fivefold repetition", seventyfive_moves: "75-move rule",
    insufficient_material: "insufficient material" };
  function termText(t) { return t ? (TERMS[t] || t.replace(/_/g, " ")) : ""; }

  // Checkers: Black (Red on the boards) moves first and is named first, as the regulation and PDN
  // do ("Black - White", PDN's result Black's score first); chess: White first. GAME.result stays
  // the venue's code (White's score first) and is only shown in the order of the names.
  const checkers = (g) => g.variant === "checkers";
  function sides(g) { return checkers(g) ? ["black", "white"] : ["white", "black"]; }
  function sideName(g, side) { return side === "black" ? "Black" : "White"; }
  function pairText(g, sep = " \u2013 ") { return sides(g).map((s) => g[s] || "?").join(sep); }
  // Armageddon (draw odds for Black): a drawn game scores as the regulations give it, a win for
  // Black (GAME.scored), never "1/2-1/2 drawn by agreement".
  const armageddon = (g) => g.kind === "armageddon";
  const shownResult = (g) => g.scored || g.result || "*";
  function scoreText(g) {
    const r = shownResult(g);
    if (r === "1/2-1/2") return "\u00bd-\u00bd";
    const parts = r.split("-");
    return checkers(g) && parts.length === 2 ? `${parts[1]}-${parts[0]}` : r;
  }
  // How the game ended, in words: "Black won by resignation", "drawn by agreement", "White won on
  // time", "Black won: White had no move left". A result taken from a record that does not say how
  // ("recorded") is said as such, never as the bare word.
  const HOW = { resignation: "by resignation", agreement: "by agreement", checkmate: "by checkmate",
    stalemate: "by stalemate", time_forfeit: "on time", flag_fall: "on time", forfeit: "by forfeit",
    default_forfeit: "by default", arbiter: "by the arbiter's decision", adjudication: "by adjudication",
    threefold_repetition: "by threefold repetition", fivefold_repetition: "by fivefold repetition",
    fifty_moves: "by the 50-move rule", seventyfive_moves: "by the 75-move rule", forty_moves: "by the 40-move rule",
    insufficient_material: "by insufficient material", late_start: "(not started in time)" };
  function outcomeText(g, short = false) {
    if (armageddon(g) && g.scored && g.scored !== g.result) {
      const how = g.termination && HOW[g.termination] ? ` ${HOW[g.termination]}` : "";
      return short ? "Black won (Armageddon)" : `Black won: the Armageddon game was drawn${how}, a win for Black`;
    }
    const r = g.result, t = g.termination;
    const winner = r === "1-0" ? "white" : r === "0-1" ? "black" : null;
    const what = winner ? `${sideName(g, winner)} won` : r === "1/2-1/2" ? "drawn" : `scored ${scoreText(g)}`;
    if (t === "recorded" || !t) return short || !t ? what : `${what} (the game record does not say how it ended)`;
    if (t === "no_legal_moves" && winner) return `${what}: ${sideName(g, winner === "white" ? "black" : "white")} had no move left`;
    if (t === "arbiter" && checkers(g)) return `${what} by the referee's decision`;
    return `${what} ${HOW[t] || "(" + termText(t) + ")"}`;
  }
  function outcomeLine(g, short = false) {
    const words = outcomeText(g, short);
    return words.charAt(0).toUpperCase() + words.slice(1);
  }

  function setConn(text, cls) {
    const el = document.getElementById("conn");
    if (el) { el.textContent = text; el.className = "conn " + cls; }
  }

  // A page about an earlier round shows it as recorded: one read of /api/games?round=R, no feed.
  function archived(handlers, round) {
    setConn("recorded", "conn-final");
    fetch(`/api/games?round=${encodeURIComponent(round)}`).then((r) => r.json()).then((j) => {
      state.round = j.round;
      state.games = new Map(j.games.map((g) => [g.id, g]));
      state.seq = j.seq;
      handlers.reset(state);
    }).catch(() => setConn("unavailable", "conn-error"));
  }

  function connect(handlers) {
    if (body.dataset.archive) return archived(handlers, body.dataset.archive);
    let retry = 500;
    const boards = body.dataset.boards || "";
    const open = () => {
      const proto = location.protocol === "https:" ? "wss" : "ws";
      const params = new URLSearchParams();
      if (boards) params.set("boards", boards);
      if (state.seq) params.set("after", state.seq);
      const q = params.toString() ? `?${params}` : "";
      const ws = new WebSocket(`${proto}://${location.host}/ws/live${q}`);
      ws.onopen = () => { retry = 500; setConn("live", "conn-live"); };
      ws.onmessage = (ev) => {
        const data = JSON.parse(ev.data); // one message, or an array of them in order
        for (const m of Array.isArray(data) ? data : [data]) handle(m);
      };
      const handle = (m) => {
        if (m.type === "snapshot" || m.type === "round") {
          state.round = m.round;
          state.games = new Map(m.games.map((g) => [g.id, g]));
          state.seq = m.seq;
          handlers.reset(state);
        } else if (m.type === "game") {
          const g = state.games.get(m.id);
          state.seq = Math.max(state.seq, m.seq);
          if (g) { applyGame(g, m); handlers.game(g, m); }
        }
      };
      ws.onclose = (ev) => {
        if (ev.code === 1008) { // refused (a bad boards= SPEC): retrying cannot help
          setConn("refused", "conn-error");
          if (handlers.refused) handlers.refused(ev.reason);
          return;
        }
        setConn("reconnecting", "conn-wait");
        // Between half and one and a half times the delay: the spectators of a node that went away
        // come back to the others spread out, not all in the same instant (deploy/SCALE-OUT.md).
        setTimeout(open, retry * (0.5 + Math.random()));
        retry = Math.min(retry * 2, 8000);
      };
    };
    open();
  }

  // A player as the tournament file gives them: title, name, federation (FIDE's three letters).
  function playerHtml(g, side) {
    const title = g[side + "_title"], fed = g[side + "_fed"];
    return (title ? `<abbr class="title" title="${esc(TITLES[title] || title)}">${esc(title)}</abbr> ` : "") +
      `<span class="pname">${esc(g[side] || "?")}</span>` +
      (fed ? ` <span class="fed" title="federation ${esc(fed)}">${esc(fed)}</span>` : "");
  }
  const TITLES = { GM: "Grandmaster", IM: "International Master", FM: "FIDE Master", CM: "Candidate Master",
    WGM: "Woman Grandmaster", WIM: "Woman International Master", WFM: "Woman FIDE Master", WCM: "Woman Candidate Master" };

  // A time control as the tournament file writes it: PGN text ("900+10"), or a table such as
  // Armageddon's {white: "10m", black: "7m", increment: "1s", increment_from_move: 41}.
  function controlText(tc) {
    if (!tc) return "";
    if (typeof tc === "string") return tc;
    const parts = [];
    if (tc.white && tc.black && tc.white !== tc.black) parts.push(`White ${tc.white}, Black ${tc.black}`);
    else if (tc.white || tc.base) parts.push(String(tc.white || tc.base));
    if (tc.increment) parts.push(`+${tc.increment}` + (tc.increment_from_move ? ` from move ${tc.increment_from_move}` : ""));
    return parts.join(" ");
  }

  // The next round from /api/rounds: "Round 2 starts in 3:04:05" until then (the server's time).
  function countdown(el) {
    if (!el) return;
    fetch("/api/rounds").then((r) => r.json()).then((j) => {
      if (!j.next) { el.hidden = true; return; }
      const offset = j.now - Date.now();
      const tick = () => {
        const left = j.next.start_ms - (Date.now() + offset);
        if (left <= 0) { el.textContent = `Round ${j.next.round} is about to start`; return; }
        el.textContent = `Round ${j.next.round} starts in ${fmt(left)}`;
        el.hidden = false;
      };
      tick();
      setInterval(tick, 1000);
    }).catch(() => {});
  }

  function esc(s) {
    return String(s ?? "").replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));
  }

  function boardUrl(g, ply, size, coords, flip) {
    // v: what the picture at that ply shows depends on (a corrected record changes it)
    const v = `${g.start_fen.length}:${g.moves[ply - 1] || ""}:${g.corrections || 0}`;
    return `/board/${encodeURIComponent(g.id)}.svg?ply=${ply}&size=${size}&coords=${coords ? 1 : 0}&flip=${flip ? 1 : 0}&v=${encodeURIComponent(v)}`;
  }

  // Load url into img once it has arrived. When it cannot be drawn the board shows an error (the
  // server's reason when it gives one) instead of the last picture, which would be another position.
  function swapImage(img, url) {
    if (img.dataset.url === url) return;
    img.dataset.url = url;
    const box = img.parentElement;
    const pre = new Image();
    pre.onload = () => {
      if (img.dataset.url !== url) return;
      img.src = url;
      if (box) { box.classList.remove("board-error"); delete box.dataset.error; }
    };
    pre.onerror = () => {
      if (img.dataset.url !== url) return;
      img.removeAttribute("src");
      if (!box) return;
      box.classList.add("board-error");
      box.dataset.error = "This board cannot be shown.";
      fetch(url).then((r) => r.json()).then((j) => {
        if (img.dataset.url === url && j && j.error) box.dataset.error = `This board cannot be shown: ${j.error}`;
      }).catch(() => {});
    };
    pre.src = url;
  }

  return { state, rate, connect, remaining, fmt, moveLabel, claimText, termText, esc, boardUrl, swapImage,
    sides, pairText, scoreText, outcomeText, outcomeLine, armageddon, shownResult, playerHtml, controlText, countdown };
})();
