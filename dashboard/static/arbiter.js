// The arbiter's console: log in, follow /ws/arbiter, show alerts with their board and evidence, act.
(function () {
  "use strict";
  const $ = (id) => document.getElementById(id);
  const state = { alerts: new Map(), actions: [], games: new Map(), selected: null, detailKey: null,
                  ws: null, me: null, sound: false, retry: 500, loadingGames: false, refGame: null };
  const CLAIM_NAMES = { threefold: "Threefold repetition", fifty_moves: "50-move rule", forty_moves: "40-move rule" };
  const CLAIM_RULES = { threefold: ["FIDE Laws 9.2.1.2", "FIDE Laws 9.2.1.1"], fifty_moves: ["FIDE Laws 9.3.2", "FIDE Laws 9.3.1"],
                        forty_moves: ["ACF/WCDF", "ACF/WCDF"] };

  function esc(s) { return String(s == null ? "" : s).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c])); }
  function time(ms) { return ms ? new Date(ms).toLocaleTimeString() : ""; }
  function toast(text) {
    const t = document.createElement("div"); t.className = "toast"; t.textContent = text;
    t.style.bottom = (16 + 48 * document.querySelectorAll(".toast").length) + "px"; // stacked, not overlapping
    document.body.appendChild(t); setTimeout(() => t.remove(), 3500);
  }

  // Every POST carries the page's CSRF token (docs/arbiter.md "Security"); the session is the
  // HttpOnly cookie, never a token in a URL.
  const CSRF = document.querySelector('meta[name="csrf-token"]').content;
  async function api(path, body) {
    const opts = body === undefined ? { credentials: "same-origin" } :
      { method: "POST", credentials: "same-origin", body: JSON.stringify(body),
        headers: { "Content-Type": "application/json", "X-CSRFToken": CSRF } };
    const r = await fetch(path, opts);
    let data = {};
    try { data = await r.json(); } catch (e) { /* empty body */ }
    if (!r.ok) throw new Error(data.error || ("HTTP " + r.status));
    return data;
  }

  // --- sound and browser notifications for alerts that need an arbiter -------------------------
  let audio = null;
  function beep() {
    if (!state.sound) return;
    try {
      audio = audio || new (window.AudioContext || window.webkitAudioContext)();
      const o = audio.createOscillator(), g = audio.createGain();
      o.frequency.value = 880; g.gain.value = 0.08; o.connect(g); g.connect(audio.destination);
      o.start(); o.stop(audio.currentTime + 0.18);
    } catch (e) { /* no audio device */ }
  }
  function notify(a) {
    beep();
    if ("Notification" in window && Notification.permission === "granted") {
      try { new Notification("Board " + (a.board || "?") + ": " + a.title, { body: summary(a), tag: "alert-" + a.id }); } catch (e) { /* ignore */ }
    }
  }
  $("notify").addEventListener("click", async () => {
    state.sound = true; beep();
    if ("Notification" in window && Notification.permission === "default") await Notification.requestPermission();
    $("notify").textContent = "Sound & notifications on"; $("notify").disabled = true;
  });

  // --- login ------------------------------------------------------------------------------------
  $("login").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    $("login-error").textContent = "";
    try {
      const me = await api("/api/arbiter/login", { login: $("login-name").value, password: $("login-password").value });
      $("login-password").value = "";
      signedIn(me);
    } catch (e) { $("login-error").textContent = e.message; }
  });
  $("logout").addEventListener("click", async () => {
    await api("/api/arbiter/logout", {}).catch(() => {});
    location.reload();
  });

  function signedIn(me) {
    state.me = me;
    $("login").hidden = true; $("console").hidden = false;
    $("logout").hidden = false; $("notify").hidden = false;
    $("who").textContent = "Signed in as " + (me.name || me.login);
    connect();
  }

  // --- the live queue ---------------------------------------------------------------------------
  function connect() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    const ws = new WebSocket(proto + "//" + location.host + "/ws/arbiter");
    state.ws = ws;
    $("conn").textContent = "connecting"; $("conn").className = "conn conn-wait";
    ws.onopen = () => { $("conn").textContent = "live"; $("conn").className = "conn conn-live"; state.retry = 500; };
    ws.onmessage = (ev) => handle(JSON.parse(ev.data));
    ws.onclose = (ev) => {
      $("conn").textContent = "reconnecting"; $("conn").className = "conn conn-wait";
      if (ev.code === 1008) { location.reload(); return; }
      setTimeout(connect, state.retry); state.retry = Math.min(state.retry * 2, 8000);
    };
  }

  // Players' names come from the public /api/games (the alerts carry only the game id).
  async function loadGames() {
    if (state.loadingGames) return;
    state.loadingGames = true;
    try {
      const data = await api("/api/games");
      for (const g of data.games || []) state.games.set(g.id, g);
      render();
      renderReferee();
    } catch (e) { /* names are a convenience: the console works without them */ }
    state.loadingGames = false;
  }
  function surname(name) { return String(name || "?").split(",")[0]; }
  // The players in the order their game names them (escaped): Black first in checkers, where Black
  // (Red) moves first (docs/checkers.md), as the referee panel does; White first in chess.
  function pairOf(g, short) {
    const f = short || ((x) => x);
    const order = g.variant === "checkers" ? ["black", "white"] : ["white", "black"];
    return order.map((s) => esc(f(g[s]))).join(" &ndash; ");
  }
  // A result shown next to such a pair: in checkers Black's score first (as PDN writes it).
  function shownScore(g) {
    const r = String(g.result || "*"), parts = r.split("-");
    return g.variant === "checkers" && parts.length === 2 && r !== "1/2-1/2" ? `${parts[1]}-${parts[0]}` : r;
  }

  function handle(msg) {
    if (msg.type === "snapshot") {
      state.alerts.clear();
      for (const a of msg.alerts.concat(msg.closed || [])) state.alerts.set(a.id, a);
      state.actions = msg.actions || [];
      state.detailKey = null;
      render();
      loadGames();
    } else if (msg.type === "alert") {
      const isNew = !state.alerts.has(msg.alert.id);
      state.alerts.set(msg.alert.id, msg.alert);
      if (isNew && msg.alert.status === "open" && msg.alert.severity !== "info") notify(msg.alert);
      render(isNew ? msg.alert.id : null);
      if (msg.alert.game && !state.games.has(msg.alert.game)) loadGames();
    } else if (msg.type === "action") {
      state.actions.push(msg.action);
      renderActions();
      if (msg.action.game && msg.action.game === state.refGame) refreshRefGame();
    }
    if (msg.type === "alert" && msg.alert.game && msg.alert.game === state.refGame) refreshRefGame();
  }

  function summary(a) {
    const e = a.evidence || {};
    if (a.kind === "draw_claimable") {
      return (e.claims || []).map((c) => (CLAIM_NAMES[c.kind] || c.kind) + (c.by_move ? " with " + c.by_move : " now")).join("; ");
    }
    return e.reason || e.rule || e.result || e.detail || (e.side ? e.side : "") || "";
  }

  function render(freshId) {
    const showClosed = $("show-closed").checked;
    const rank = { action: 0, warning: 1, info: 2 };
    const list = [...state.alerts.values()].filter((a) => showClosed || a.status === "open")
      .sort((x, y) => (x.status === "open" ? 0 : 1) - (y.status === "open" ? 0 : 1) || rank[x.severity] - rank[y.severity] || y.id - x.id);
    const open = [...state.alerts.values()].filter((a) => a.status === "open").length;
    $("open-count").textContent = open;
    $("open-count").classList.toggle("zero", open === 0);
    $("no-alerts").hidden = open > 0;
    $("alerts").innerHTML = list.map((a) =>
      `<li class="alert sev-${esc(a.severity)} ${a.status !== "open" ? "closed" : ""} ${state.selected === a.id ? "selected" : ""}" data-id="${a.id}" tabindex="0">
         <div class="title ${a.id === freshId ? "fresh" : ""}">${esc(a.title)}${a.count > 1 ? ` <span class="repeat" title="${a.count} messages from this device; the latest at ${time(a.last_at)}">&times;${a.count}</span>` : ""}</div>
         <div class="meta"><span>Board ${esc(a.board || "-")}</span><span>${a.game && state.games.has(a.game) ? pairOf(state.games.get(a.game), surname) : esc(a.game || "")}</span><span>${time(a.at)}</span><span>${esc(a.status)}</span></div>
         <div class="muted">${esc(summary(a))}</div></li>`).join("");
    for (const li of $("alerts").querySelectorAll(".alert")) {
      li.addEventListener("click", () => select(Number(li.dataset.id)));
      li.addEventListener("keydown", (ev) => { if (ev.key === "Enter") select(Number(li.dataset.id)); });
    }
    if (state.selected !== null) renderDetail();
    renderActions();
  }
  $("show-closed").addEventListener("change", () => render());

  const ACTION_NAMES = { score_sheet_entered: "Score sheet entered", adjudication_recorded: "Adjudication recorded",
                         move_timer_started: "Move timer started", time_trouble_called: "Time trouble called", match_clock_chosen: "Match clock chosen", arbiter_decision: "Result set", fine_recorded: "Fine recorded", player_arrived: "Checked in",
                         clock_adjusted: "Clocks set", game_paused: "Clock paused", game_resumed: "Clock resumed",
                         note_added: "Note", alert_resolved: "Alert handled" };
  function actionName(x) {
    if (x.type === "draw_claim_decided") return (x.accepted ? "Draw claim accepted" : "Draw claim rejected") + " (" + (CLAIM_NAMES[x.kind] || x.kind) + ")";
    return ACTION_NAMES[x.type] || x.type;
  }
  function actionDetail(x) {
    if (x.type === "fine_recorded") return `${x.player}: ${x.amount} ${x.currency || ""}`;
    if (x.type === "player_arrived") return x.player || x.side || "";
    if (x.type === "clock_adjusted") return `${((x.white_ms || 0) / 60000).toFixed(1)} / ${((x.black_ms || 0) / 60000).toFixed(1)} min`;
    if (x.type === "alert_resolved") return "alert #" + x.alert;
    if (x.type === "score_sheet_entered") return `${SIDE_NAMES[x.side] || x.side}'s sheet, ${(x.moves || []).length} moves` + (x.differences ? `, ${x.differences} flagged` : "");
    if (x.type === "move_timer_started") return `${TIMER_NAMES[x.rule] || x.rule}, ${SIDE_NAMES[x.side] || x.side}`;
    if (x.type === "time_trouble_called") return `${SIDE_NAMES[x.side] || x.side}` + (x.left_ms != null ? `, ${clockText(x.left_ms)} left` : "");
    if (x.type === "adjudication_recorded") return `${x.result} (${x.unanimous ? "unanimous" : "not unanimous"})`;
    if (x.type === "match_clock_chosen") return `match ${x.match}: ${clockChoiceText(x)}`;
    return x.result || x.text || x.note || "";
  }
  function renderActions() {
    $("actions").innerHTML = state.actions.slice(-50).reverse().map((x) =>
      `<li data-type="${esc(x.type)}"><b>${esc(actionName(x))}</b>${x.board ? " &middot; board " + esc(x.board) : ""}
       ${actionDetail(x) ? " &middot; " + esc(actionDetail(x)) : ""}<span class="by">${esc(x.by || "")} &middot; ${time(x.at)}</span></li>`).join("");
  }

  function select(id) {
    state.selected = id; state.detailKey = null; render();
    const a = state.alerts.get(id);
    if (a && a.game) loadGame(a.game);
    const g = a && a.game && state.games.get(a.game);
    if (g && g.variant === "checkers" && a.game !== state.refGame) { state.refGame = a.game; renderReferee(); }
  }
  // The full GAME (with its moves, for labelling the evidence plies in SAN).
  async function loadGame(gameId) {
    try {
      state.games.set(gameId, await api("/api/games/" + encodeURIComponent(gameId)));
    } catch (e) { return; }
    const a = state.alerts.get(state.selected);
    if (a && a.game === gameId) { state.detailKey = null; renderDetail(); }
  }

  // The claim an accept/reject answers: the position on the board first (FIDE Laws 9.2.1.2, 9.3.2),
  // else the first intended move (9.2.1.1, 9.3.1).
  function mainClaim(a) {
    const claims = (a.evidence && a.evidence.claims) || [];
    return claims.find((c) => c.by_move == null) || claims[0] || null;
  }
  function claimKindOf(a) {
    const c = mainClaim(a);
    if (c) return c.kind;
    const reason = String((a.evidence && (a.evidence.reason || a.evidence.termination)) || "");
    return reason.startsWith("fifty") ? "fifty_moves" : reason.startsWith("forty") ? "forty_moves" : "threefold";
  }
  // "after 28." for White's 28th move (ply 55), "after 28…" for Black's (ply 56).
  // With the game's moves known (public /api/games): "28. Re4" / "28\u2026 Rd4".
  function plyLabel(p, gameId) {
    if (p === 0) return "start";
    const g = state.games.get(gameId), san = g && g.san ? g.san[p - 1] : null;
    return Math.ceil(p / 2) + (p % 2 ? ". " : "\u2026 ") + (san || "");
  }
  function plyButtons(plies, gameId) {
    return plies.map((p) => `<button type="button" data-ply="${p}" title="the position after ply ${p}">${esc(plyLabel(p, gameId))}</button>`).join("");
  }

  // Each claim with the plies of its own evidence: the positions of one claim never mix with another's.
  function claimsHtml(a) {
    const e = a.evidence || {};
    if (!e.claims) return "";
    const main = mainClaim(a);
    return `<ul class="ev-claims">${e.claims.map((c) => {
      const ev = c.evidence || {};
      const plies = (ev.plies || []).slice();
      if (ev.last_irreversible_ply != null) plies.push(ev.last_irreversible_ply);
      const how = c.by_move == null ? "claimable now" : `with the intended move <b>${esc(c.by_move)}</b>`;
      const rule = (CLAIM_RULES[c.kind] || ["", ""])[c.by_move == null ? 0 : 1];
      const what = ev.plies ? "the position stood after" : ev.last_irreversible_ply != null ?
        `${esc(ev.halfmove_clock)} plies without a capture or pawn move since` : "";
      return `<li class="ev-claim ${c === main ? "main" : ""}" data-kind="${esc(c.kind)}" data-by-move="${esc(c.by_move || "")}">
        <div><b>${esc(CLAIM_NAMES[c.kind] || c.kind)}</b>, ${how} <span class="muted">(${esc(rule)})</span></div>
        ${plies.length ? `<div class="plies"><span class="muted">${what}</span>${plyButtons(plies, a.game)}</div>` : ""}</li>`;
    }).join("")}</ul>`;
  }

  function names(gameId) {
    const g = state.games.get(gameId);
    return g ? pairOf(g) : "";
  }

  function renderDetail() {
    const a = state.alerts.get(state.selected);
    if (!a) return;
    // Redraw only when this alert changed: other alerts arriving must not wipe a note being typed.
    const key = JSON.stringify([a.id, a.status, a.resolution, state.games.has(a.game)]);
    if (state.detailKey === key) return;
    state.detailKey = key;
    const e = a.evidence || {};
    const main = mainClaim(a);
    const ply = e.ply;
    const img = a.game ? `<img id="detail-board" alt="board ${esc(a.board)}" width="300" height="300"
      src="/board/${encodeURIComponent(a.game)}.svg?size=300${ply != null ? "&ply=" + ply : ""}">` : "";
    const claim = a.kind === "draw_claimable" || a.kind === "draw_claim_reported";
    let acts = "";
    if (a.status === "open" && a.game) {
      if (claim) {
        acts += `<div class="act decide"><button type="button" class="accept" data-act="accept_claim">Accept claim: ½-½</button>
                 <button type="button" class="reject" data-act="reject_claim">Reject claim</button></div>`;
      }
      acts += `<div class="act"><select id="result" aria-label="result"><option value="1-0">1-0</option><option value="0-1">0-1</option><option value="1/2-1/2">½-½</option>
                 <option value="1-0|f">1-0 forfeit (+/-)</option><option value="0-1|f">0-1 forfeit (-/+)</option><option value="0-0|f">0-0 double forfeit</option>
                 <option value="0-0">0-0</option><option value="1/2-0">½-0</option><option value="0-1/2">0-½</option><option value="*">* game goes on</option></select>
               <button type="button" data-act="set_result">Set result</button></div>
               <div class="act"><button type="button" data-act="check_in" data-side="white">Check in White</button><button type="button" data-act="check_in" data-side="black">Check in Black</button>
               <button type="button" data-act="pause" title="pause the game (clock stopped)">Pause</button><button type="button" data-act="resume" title="resume the game">Resume</button></div>`;
    }
    let tools = "";
    if (a.game) {
      tools = `<div class="act"><input id="fine" type="number" min="1" placeholder="Fine (USD)" aria-label="fine amount"><select id="fine-side" aria-label="fined player"><option value="white">White</option><option value="black">Black</option></select>
                 <button type="button" data-act="record_fine">Record fine</button></div>
               <div class="act"><input id="wmin" type="number" step="0.1" placeholder="White min" aria-label="White's clock in minutes"><input id="bmin" type="number" step="0.1" placeholder="Black min" aria-label="Black's clock in minutes">
                 <button type="button" data-act="adjust_clock">Set clocks</button></div>
               <div class="act"><input id="fix-ply" type="number" min="0" placeholder="Plies that stand" aria-label="plies that stand">
                 <input id="fix-moves" placeholder="Moves played after, e.g. Nc3 Nc6" aria-label="moves played after that ply">
                 <button type="button" data-act="correct_record" title="FIDE Laws 7.5.1: take the record back and enter the moves played">Correct record</button></div>`;
    }
    const res = a.resolution;
    const resolved = res ? ` by ${esc(res.by || "")}${res.at ? " at " + time(res.at) : ""}${res.accepted === true ? ": claim accepted" : res.accepted === false ? ": claim rejected" : ""}` : "";
    const plies = !e.claims && e.ply != null ? `<div class="plies">${plyButtons([e.ply], a.game)}</div>` : "";
    $("detail").innerHTML =
      `<div class="detail-head"><h3>${esc(a.title)}</h3><span class="pill st-${esc(a.status)}">${esc(a.status)}</span></div>
       <p class="muted status">Board ${esc(a.board || "-")} &middot; game ${esc(a.game || "-")} ${a.game && state.games.has(a.game) ? "&middot; " + names(a.game) : ""} &middot; ${time(a.at)} &middot; ${esc(a.status)}${resolved}</p>
       <div class="detail-grid"><div class="detail-board">${img}${plies}</div>
         <div class="detail-side">${claimsHtml(a)}
         <details class="evidence-box" ${e.claims ? "" : "open"}><summary>Log entry #${a.id}</summary><pre class="evidence">${esc(JSON.stringify(e, null, 2))}</pre></details>
         ${acts}${tools}
         <div class="act"><input id="note" placeholder="Note for the record" aria-label="note"><button type="button" data-act="note">Add note</button>
         ${a.status === "open" ? '<button type="button" data-act="resolve_alert">Mark handled</button>' : ""}</div></div></div>`;
    for (const b of $("detail").querySelectorAll("[data-ply]")) {
      b.addEventListener("click", () => {
        $("detail-board").src = `/board/${encodeURIComponent(a.game)}.svg?size=300&ply=${b.dataset.ply}`;
        for (const o of $("detail").querySelectorAll("[data-ply]")) o.classList.toggle("on", o === b);
      });
    }
    for (const b of $("detail").querySelectorAll("[data-act]")) {
      b.addEventListener("click", () => act(a, b.dataset.act, b.dataset.side, claimKindOf(a), main));
    }
  }

  async function act(a, action, side, claimKind, claim) {
    const body = { action, game: a.game, alert: a.id };
    const note = $("note") && $("note").value.trim();
    if (note) body.note = note;
    if (action === "accept_claim" || action === "reject_claim") { body.kind = claimKind; body.by_move = claim ? claim.by_move : null; }
    if (action === "set_result") { const [r, f] = $("result").value.split("|"); body.result = r; body.forfeit = f === "f"; }
    if (action === "check_in") body.side = side;
    if (action === "record_fine") { body.amount = Number($("fine").value); body.side = $("fine-side").value; }
    if (action === "adjust_clock") { body.white_ms = Math.round(Number($("wmin").value) * 60000); body.black_ms = Math.round(Number($("bmin").value) * 60000); }
    if (action === "note") { body.text = note || ""; delete body.note; }
    if (action === "correct_record") { body.ply = Number($("fix-ply").value); body.moves = $("fix-moves").value; if (note) body.reason = note; }
    try {
      await api("/api/arbiter/actions", body);
      if (note && $("note")) $("note").value = "";
      toast("Recorded: " + action.replace(/_/g, " "));
    } catch (e) { toast("Refused: " + e.message); }
  }

  // --- the checkers referee: score sheets (XII), move timers (X.B.a, X.B.c), adjudication (X.B.d) -----
  const SIDE_NAMES = { black: "Red (Black)", white: "White" };
  const TIMER_NAMES = { five_minute: "Five-minute rule", one_minute: "One-minute rule" };
  const VOTE_NAMES = { black: "Red wins", white: "White wins", draw: "Draw" };
  const CLOCK_NAMES = { "90": "90 minutes", "80+10": "80 minutes + 10 s a move" };
  // "80 minutes + 10 s a move, by coin flip (tails)" / "90 minutes, agreed" (X.A.a)
  function clockChoiceText(c) {
    return `${CLOCK_NAMES[c.option] || c.option}, ${c.how === "coin flip" ? "by coin flip (" + c.coin + ")" : "agreed"}`;
  }
  function resultText(r) {
    return { "1-0": "White wins (1-0)", "0-1": "Red wins (0-1)", "1/2-1/2": "Draw (½-½)" }[r] || r;
  }
  function checkersGames() { return [...state.games.values()].filter((g) => g.variant === "checkers"); }
  function moveLabel(p) { return Math.ceil(p / 2) + (p % 2 ? "." : "\u2026"); } // Red moves first: ply 1 is "1."

  function renderReferee() {
    const games = checkersGames().sort((x, y) => String(x.board).localeCompare(String(y.board), undefined, { numeric: true }) || x.id.localeCompare(y.id));
    $("referee").hidden = games.length === 0;
    if (!games.length) return;
    if (!state.refGame || !games.some((g) => g.id === state.refGame)) state.refGame = (games.find((g) => g.status !== "ended") || games[0]).id;
    $("ref-game").innerHTML = games.map((g) => `<option value="${esc(g.id)}" ${g.id === state.refGame ? "selected" : ""}>Board ${esc(g.board)} &middot; ${pairOf(g)} (${esc(g.id)}${g.status === "ended" ? ", " + esc(shownScore(g)) : ""})</option>`).join("");
    renderRefStatus();
  }
  $("ref-game").addEventListener("change", () => {
    state.refGame = $("ref-game").value;
    for (const id of ["clock-result", "sheet-result", "timer-result", "trouble-result", "adj-result"]) { $(id).innerHTML = ""; $(id).className = "ref-result"; }
    for (const e of $("referee").querySelectorAll(".error")) e.textContent = "";
    renderRefStatus(); refreshRefGame();
  });

  function latest(pred) { for (let i = state.actions.length - 1; i >= 0; i--) if (pred(state.actions[i])) return state.actions[i]; return null; }
  function renderRefStatus() {
    const g = state.games.get(state.refGame);
    if (!g) { $("ref-status").textContent = ""; return; }
    const how = { arbiter: "referee's decision", late_start: "not started in time, X.B.e" }[g.termination] || String(g.termination || "").replace(/_/g, " ");
    const turn = g.status === "ended" ? `ended: <b>${esc(resultText(g.result))}</b>${how ? " (" + esc(how) + ")" : ""}`
      : `${g.ply || 0} plies, <b>${esc(SIDE_NAMES[g.turn] || g.turn || "?")}</b> to move`;
    let timer = "";
    const started = latest((x) => x.type === "move_timer_started" && x.game === g.id);
    if (started && g.status !== "ended") {
      const after = [...state.alerts.values()].filter((a) => a.game === g.id && a.id > started.seq && a.kind.startsWith("move_timer_"));
      const last = after.sort((x, y) => y.id - x.id)[0];
      timer = ` &middot; <span class="timer-on" id="timer-on">${esc(TIMER_NAMES[started.rule] || started.rule)} on since ${time(started.at)}` +
        (last ? `: ${esc(last.title.toLowerCase())} (${esc(SIDE_NAMES[last.evidence.side] || "")})` : "") + "</span>";
    }
    const m = g.match ? ` &middot; match ${esc(g.match.id)}, game ${esc(g.match.game_no)} of ${esc(g.match.games)}` +
      (g.ballot ? `, ballot ${esc(g.ballot.ballot == null ? "" : g.ballot.ballot)} (${esc((g.ballot.moves || []).join(" "))})` : "") : "";
    const mc = g.match_clock ? ` &middot; <span id="match-clock-on">match clock: ${esc(clockChoiceText(g.match_clock))}</span>` : "";
    $("ref-status").innerHTML = `Red (Black): <b>${esc(g.black)}</b> &middot; White: <b>${esc(g.white)}</b> &middot; board ${esc(g.board)}${m} &middot; ${turn}${mc}${timer}`;
  }
  async function refreshRefGame() {
    const id = state.refGame;
    if (!id) return;
    try { state.games.set(id, await api("/api/games/" + encodeURIComponent(id))); } catch (e) { return; }
    if (state.refGame === id) renderRefStatus();
  }
  setInterval(() => { if (!$("referee").hidden && !$("console").hidden) refreshRefGame(); }, 5000);

  function sheetResult(entries, side) {
    const entered = entries.find((e) => e.type === "score_sheet_entered");
    const diff = entries.find((e) => e.type === "score_sheet_differences");
    const box = $("sheet-result");
    const who = esc(SIDE_NAMES[side] || side);
    if (!diff) {
      box.className = "ref-result ok";
      box.innerHTML = `<b>No differences.</b> ${who}'s sheet (${entered.data.moves.length} moves) matches the board's record.`;
      return;
    }
    const d = diff.data.differences;
    box.className = "ref-result flagged";
    box.innerHTML = `<b>${d.length} difference${d.length === 1 ? "" : "s"} flagged</b> on ${who}'s sheet (alert #${diff.seq} for the record).
      <table class="diffs"><thead><tr><th>Move</th><th>Board</th><th>Sheet</th></tr></thead><tbody>${d.map((x) =>
        `<tr data-ply="${x.ply}"><td>${esc(moveLabel(x.ply))}</td><td>${esc(x.board == null ? "(no move)" : x.board)}</td><td class="bad">${esc(x.written == null ? "(missing)" : x.written)}</td></tr>`).join("")}</tbody></table>`;
  }
  function timerResult(entries) {
    const t = entries.find((e) => e.type === "move_timer_started").data;
    const one = t.rule === "one_minute";
    $("timer-result").className = "ref-result ok";
    $("timer-result").innerHTML = `<b>${esc(TIMER_NAMES[t.rule])}</b> started for <b>${esc(SIDE_NAMES[t.side])}</b> at ${time(entries[0].at)}: ` +
      (one ? "the 10-second warning at 0:50, the game forfeited at 1:00 without a move (X.B.c)." : "time called at 5:00, the game forfeited at 6:00 without a move (X.B.a).") +
      " Each move starts the opponent's count.";
  }
  function clockText(ms) { const s = Math.max(0, Math.floor(ms / 1000)); return Math.floor(s / 60) + ":" + String(s % 60).padStart(2, "0"); }
  function troubleResult(entries) {
    const t = entries.find((e) => e.type === "time_trouble_called").data;
    $("trouble-result").className = "ref-result ok";
    $("trouble-result").innerHTML = `Attention called to <b>${esc(SIDE_NAMES[t.side])}</b>'s impending time trouble` +
      (t.left_ms != null ? ` (${esc(clockText(t.left_ms))} on the last clock reading)` : "") + ` by ${esc(t.by)} at ${time(entries[0].at)} (X.A.d).`;
  }
  function clockResult(entries) {
    const c = entries.find((e) => e.type === "match_clock_chosen").data;
    const wish = (side) => esc(CLOCK_NAMES[c.wishes[side]] || c.wishes[side]);
    $("clock-result").className = "ref-result ok";
    $("clock-result").innerHTML = `<b>${esc(clockChoiceText(c))}</b> for match ${esc(c.match)} (games ${esc(c.games.join(", "))}). ` +
      `Red wanted ${wish("black")}, White ${wish("white")}` + (c.how === "coin flip" ? `; they disagreed: the coin came up <b>${esc(c.coin)}</b>.` : ".") +
      (c.previous ? ` Replaces the earlier choice (${esc(CLOCK_NAMES[c.previous] || c.previous)}).` : "") + ` Recorded by ${esc(c.by)} at ${time(entries[0].at)}.`;
  }
  function adjResult(entries) {
    const a = entries.find((e) => e.type === "adjudication_recorded").data;
    $("adj-result").className = "ref-result ok";
    $("adj-result").innerHTML = `<b>${esc(resultText(a.result))}</b>, ${a.unanimous ? "unanimous" : "not unanimous: a win needs all three votes (X.B.d)"}. ` +
      `Recorded and binding; the game is ended.<ul class="votes">${a.members.map((m) => `<li>${esc(m)}: ${esc(VOTE_NAMES[a.votes[m]] || a.votes[m])}</li>`).join("")}</ul>`;
  }

  for (const form of document.querySelectorAll("#referee .ref-form")) {
    form.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      const error = form.querySelector(".error"), button = form.querySelector("button[type=submit]");
      error.textContent = "";
      const action = form.dataset.act;
      const body = { action, game: state.refGame };
      if (action === "choose_match_clock") {
        body.wishes = { black: $("clock-black").value, white: $("clock-white").value };
        if ($("clock-coin").value) body.coin = $("clock-coin").value;
      }
      if (action === "enter_score_sheet") { body.side = $("sheet-side").value; body.moves = $("sheet-moves").value; }
      if (action === "start_move_timer") { body.rule = $("timer-rule").value; if ($("timer-side").value) body.side = $("timer-side").value; }
      if (action === "call_time_trouble") {
        body.side = $("trouble-side").value;
        const open = [...state.alerts.values()].find((a) => a.status === "open" && a.kind === "time_trouble_impending" && a.game === state.refGame && a.evidence.side === body.side);
        if (open) body.alert = open.id;
      }
      if (action === "adjudicate") {
        body.members = []; body.votes = {};
        for (const row of form.querySelectorAll(".member-row")) {
          const name = row.querySelector(".member").value.trim(), vote = row.querySelector(".vote").value;
          if (name) { body.members.push(name); body.votes[name] = vote; }
        }
      }
      button.disabled = true;
      try {
        const { entries } = await api("/api/arbiter/actions", body);
        if (action === "enter_score_sheet") sheetResult(entries, body.side);
        if (action === "start_move_timer") timerResult(entries);
        if (action === "adjudicate") adjResult(entries);
        if (action === "call_time_trouble") troubleResult(entries);
        if (action === "choose_match_clock") clockResult(entries);
        toast("Recorded: " + action.replace(/_/g, " "));
        refreshRefGame();
      } catch (e) {
        error.textContent = e.message;
      } finally { button.disabled = false; }
    });
  }

  api("/api/arbiter/me").then(signedIn).catch(() => { $("login-name").focus(); });
})();
