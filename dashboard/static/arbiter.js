// The arbiter's console: log in, follow /ws/arbiter, show alerts with their board and evidence, act.
(function () {
  "use strict";
  const $ = (id) => document.getElementById(id);
  const state = { alerts: new Map(), actions: [], games: new Map(), selected: null, detailKey: null,
                  ws: null, me: null, sound: false, retry: 500, loadingGames: false, refGame: null,
                  hall: new Map(), board: null, proposals: new Map() };
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
    // A session that ended (logged out elsewhere, expired, the dashboard restarted with another
    // secret) or a page whose CSRF token is stale: start again from the login form.
    if (state.me && (r.status === 401 || (r.status === 403 && /CSRF/i.test(data.error || "")))) {
      toast("Your session has ended: sign in again"); setTimeout(() => location.reload(), 1200);
    }
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
    loadRoundTools();
  }

  // --- the live queue ---------------------------------------------------------------------------
  function connect() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    const ws = new WebSocket(proto + "//" + location.host + "/ws/arbiter");
    state.ws = ws;
    $("conn").textContent = "connecting"; $("conn").className = "conn conn-wait";
    ws.onopen = () => { $("conn").textContent = "live"; $("conn").className = "conn conn-live"; state.retry = 500; };
    ws.onmessage = (ev) => handle(JSON.parse(ev.data));
    ws.onclose = async (ev) => {
      $("conn").textContent = "reconnecting"; $("conn").className = "conn conn-wait";
      if (ev.code === 1008) { location.reload(); return; }
      // refused before the upgrade (no valid session any more): ask, and show the login form
      try { await api("/api/arbiter/me"); } catch (e) { if (/401|log in/i.test(e.message)) { location.reload(); return; } }
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
  // The sides in the order the field names them: the first mover first, Black (Red on the boards)
  // in checkers (docs/checkers.md; PDN's Black tag and Result, the game page's title), White in chess.
  function sidesOf(g) { return g && g.variant === "checkers" ? ["black", "white"] : ["white", "black"]; }
  // The players in that order (escaped).
  function pairOf(g, short) {
    const f = short || ((x) => x);
    return sidesOf(g).map((s) => esc(f(g[s]))).join(" &ndash; ");
  }
  // A result (the venue's code: White's score first, docs/checkers.md "Results") in the same order
  // as the names: in checkers Black's score first, as PDN writes it.
  function fieldScore(variant, result) {
    const r = String(result || "*"), parts = r.split("-");
    return variant === "checkers" && parts.length === 2 && r !== "1/2-1/2" ? `${parts[1]}-${parts[0]}` : r;
  }
  function shownScore(g) { return fieldScore(g.variant, g.result); }
  // The winner in words beside the score, so that a score in the field's order is never read as the
  // other order's: "Player 02 won", "drawn" ("" for a game in play or a special score).
  function wonText(g, short) {
    const f = short || ((x) => x), r = String(g.result || "*");
    return r === "1-0" ? `${f(g.white)} won` : r === "0-1" ? `${f(g.black)} won` : r === "1/2-1/2" ? "drawn" : "";
  }
  // "1-0, Player 02 won": the score in the names' order, then who won.
  function endedText(g, short) { const w = wonText(g, short); return shownScore(g) + (w ? ", " + w : ""); }
  // A result an alert's entry gives (the venue's code) as its game's lines read it.
  function resultOf(a, result) { const g = state.games.get(a.game); return g ? endedText({ ...g, result }) : result; }

  function handle(msg) {
    // the round's panel (arbiter_rounds.js) follows the same messages
    document.dispatchEvent(new CustomEvent("venue:arbiter", { detail: msg }));
    if (msg.type === "snapshot") {
      state.alerts.clear();
      for (const a of msg.alerts.concat(msg.closed || [])) state.alerts.set(a.id, a);
      state.actions = msg.actions || [];
      setHall(msg.hall || []);
      state.detailKey = null;
      render();
      renderHall();
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
      // the Round tools read the round's life cycle and registration: fresh at once, not at the next poll
      if (ROUND_TOOLS_ACTIONS.has(msg.action.type)) loadRoundTools(msg.action.seq);
      if (msg.action.game && msg.action.game === state.refGame) refreshRefGame();
    } else if (msg.type === "hall") {
      setHall(msg.hall || []); renderHall(); if (state.board) renderBoardDetail();
    } else if (msg.type === "board") {
      state.hall.set(msg.row.board, msg.row); renderTile(msg.row);
      if (state.board === msg.row.board) renderBoardDetail();
      const sel = state.alerts.get(state.selected);
      if (sel && sel.game === msg.row.game) refillClocks(msg.row);
    }
    if (msg.type === "alert" && msg.alert.game && msg.alert.game === state.refGame) refreshRefGame();
  }
  function setHall(rows) { state.hall = new Map(rows.map((r) => [r.board, r])); }

  // --- words: who, which side, times as clock times --------------------------------------------
  const SIDE = { white: "White", black: "Black" };
  // A clock reading as the clock shows it: h:mm:ss (ms in, whole seconds shown; never negative).
  function hms(ms) {
    const s = Math.max(0, Math.floor((ms || 0) / 1000));
    return Math.floor(s / 3600) + ":" + String(Math.floor(s / 60) % 60).padStart(2, "0") + ":" + String(s % 60).padStart(2, "0");
  }
  // A length of time: "2:00" under an hour, else h:mm:ss.
  function dur(ms) { const t = hms(ms); return t.startsWith("0:") ? t.slice(2).replace(/^0(\d:)/, "$1") : t; }
  // "1:02:03" (h:mm:ss), "2:00" (m:ss) or "45" (s) -> ms; null when it is not a clock time.
  function parseHms(text) {
    const parts = String(text || "").trim().split(":");
    if (parts.length > 3 || !parts.every((p) => /^\d+$/.test(p))) return null;
    const n = parts.map(Number);
    if (n.slice(1).some((x) => x > 59)) return null;
    return n.reduce((acc, x) => acc * 60 + x, 0) * 1000;
  }
  // A time of day in the hall, 24-hour clock: deadlines and arrivals.
  function clockTime(ms) { return ms ? new Date(ms).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", second: "2-digit", hour12: false }) : ""; }
  function sideName(g, side) { return g && g.variant === "checkers" ? ({ black: "Red (Black)", white: "White" })[side] : SIDE[side] || side; }
  function playerOf(a, side) {
    const w = a.words && a.words.players, g = state.games.get(a.game);
    return (w && w[side]) || (g && g[side]) || "";
  }
  // "White, Player 03": who, which side, in words ("Nepomniachtchi, Ian" read as "Ian Nepomniachtchi").
  function spoken(name) {
    const parts = String(name || "").split(",").map((x) => x.trim());
    return parts.length === 2 && parts[0] && parts[1] ? parts[1] + " " + parts[0] : String(name || "");
  }
  function who(a, side, player) {
    const name = spoken(player || playerOf(a, side));
    return sideName(state.games.get(a.game), side) + (name ? ", " + name : "");
  }
  function boardsOf(items) { return [...new Set(items.map((i) => i.board))].join(", "); }
  function openItems(a) { return ((a.evidence && a.evidence.items) || []).filter((i) => i.state === "absent" || i.state === "defaulted"); }
  // The results an arbiter sets (the venue's codes as values); a checkers game's labelled in the
  // field's order with the winner in words, as its line reads ("1-0: Red (Black) wins" is "0-1").
  const RESULTS = [["1-0", "1-0"], ["0-1", "0-1"], ["1/2-1/2", "½-½"], ["1-0|f", "1-0 forfeit (+/-)"], ["0-1|f", "0-1 forfeit (-/+)"],
                   ["0-0|f", "0-0 double forfeit"], ["0-0", "0-0"], ["1/2-0", "½-0"], ["0-1/2", "0-½"], ["*", "* game goes on"]];
  function resultOptions(g) {
    const checkers = g && g.variant === "checkers";
    return RESULTS.map(([v, text]) => {
      const [r, f] = v.split("|"), won = { "1-0": "White wins", "0-1": "Red (Black) wins", "1/2-1/2": "drawn" }[r];
      const label = !checkers || r === "*" ? text : fieldScore("checkers", r).replace(/1\/2/g, "½") + (f ? " forfeit" : "") + (won ? ": " + won : "");
      return `<option value="${v}">${esc(label)}</option>`;
    }).join("");
  }
  // The open alerts of a's kind and title (the bulk "Mark handled": 54 boards put away at the end of a round).
  function sameKindOpen(a) { return [...state.alerts.values()].filter((x) => x.status === "open" && x.kind === a.kind && x.title === a.title); }
  // One sentence an arbiter reads in a second: the venue's own (players, rule, figures) when it has one.
  function sentence(a) {
    const e = a.evidence || {}, w = a.words || {}, side = w.side || e.side;
    if (a.text) return a.text;
    if (a.kind === "not_at_board") {
      const items = openItems(a), all = e.items || [];
      if (!items.length) return `All ${all.length} listed players are at the board (boards ${boardsOf(all)})`;
      const lost = items.filter((i) => i.state === "defaulted");
      return `${items.length} not at the board: board${items.length > 1 ? "s" : ""} ${boardsOf(items)}` +
        (lost.length ? ` (${lost.length} lost by default)` : "");
    }
    if (a.kind === "draw_claimable") {
      const c = (w.claims || e.claims || [])[0];
      if (!c) return "";
      const how = c.by_move ? `with the intended move ${moveLabelOf(a, c)}` : "now";
      return `${who(a, side)}, may claim a draw: ${(CLAIM_NAMES[c.kind] || c.kind).toLowerCase()}, ${how}`;
    }
    if (a.kind === "draw_claim_reported") return `${who(a, side)}, claims a draw${e.kind ? " (" + (CLAIM_NAMES[e.kind] || e.kind).toLowerCase() + ")" : ""}: verify it`;
    if (a.kind === "move_rejected") {
      const what = e.expected ? `${side ? who(a, side) + ": " : ""}${e.move} is off the ballot (expected ${e.expected})` :
        `${side ? who(a, side) + ", " : ""}illegal move ${w.move_text || e.move || e.placement || ""}`;
      return what + (a.since ? ": " + released(a, a.since) : e.held ? ": the board waits for you" : "");
    }
    if (a.kind === "flag_fell") return `${who(a, e.side)}: flag fell (White ${hms(e.white_ms)}, Black ${hms(e.black_ms)})`;
    if (a.kind === "device_offline") return `Board ${a.board}: the ${e.device || "board"} is offline`;
    if (a.kind === "seq_gap") return gapWords(a);
    if (a.kind === "clock_disagreement") {
      return (side ? who(a, side) + ": " : "") + (e.detail || String(e.kind || "").replace(/_/g, " ")) +
        (e.device_ms != null && e.model_ms != null ? ` (clock ${hms(e.device_ms)}, expected ${hms(e.model_ms)})` : "");
    }
    if (a.kind === "time_trouble_impending" && side) return `${who(a, side)}: ${hms(e.left_ms || e[side + "_ms"])} left`;
    if (a.kind === "message_rejected") return e.reason || "";
    if (a.kind === "penalty_proposed" && a.status === "withdrawn") return "Withdrawn: " + ((a.resolution && a.resolution.reason) || "");
    return e.reason || e.rule || (e.result ? resultOf(a, e.result) : "") || e.detail || (side ? who(a, side) : "") || "";
  }
  // What became of a held board (Alert.since, services/views/alert_since.py), in the hall's time.
  function released(a, s) {
    const board = `board ${a.board}`, at = clockTime(s.at);
    if (s.how === "resumed") return `${board} resumed at ${at}` + (s.san ? ` with ${plyText(s.ply, s.san)}` : "");
    if (s.how === "stood") return `it stood (FIDE Laws A.5.2): ${board} went on from it at ${at}`;
    if (s.how === "restored") return `taken back at ${at}: the official position is on ${board} again`;
    if (s.how === "corrected") return `the arbiter corrected the record at ${at}`;
    if (s.how === "ended") return `the game ended${s.result ? " (" + resultOf(a, s.result) + ")" : ""} at ${at} while ${board} was held`;
    return "";
  }
  // "28. Re4" / "28… Rd4": ply 55 / 56 as the score sheet numbers it.
  function plyText(ply, san) { return ply ? Math.ceil(ply / 2) + (ply % 2 ? ". " : "… ") + san : san; }
  // [[19, 126], [130, 130]] -> "19-126, 130".
  function spans(ranges) { return (ranges || []).map(([x, y]) => (x === y ? String(x) : `${x}-${y}`)).join(", "); }
  // How many seqs [[19, 126], [130, 130]] name: 109.
  function countOf(ranges) { return (ranges || []).reduce((n, [x, y]) => n + y - x + 1, 0); }
  // "message 6 was" / "messages 6-8 were": the words agree with how many the ranges name.
  function messagesOf(ranges) { return `${countOf(ranges) === 1 ? "message" : "messages"} ${spans(ranges)}`; }
  function wasOf(ranges) { return countOf(ranges) === 1 ? "was" : "were"; }
  // A seq gap as it stands now: skipped, arrived late since, still missing, or lost for good.
  function gapWords(a) {
    const e = a.evidence || {}, s = a.since || {}, gap = [[e.expected, e.got - 1]], skipped = spans(gap);
    const head = `Board ${a.board}: the ${e.device || "board"}'s`;
    if (!a.since) return `${head} ${messagesOf(gap)} ${wasOf(gap)} skipped (play went on from ${e.got})`;
    const arrived = (s.arrived || []).length ? spans(s.arrived) : "", missing = (s.missing || []).length ? spans(s.missing) : "";
    if (!missing) return `${head} ${messagesOf(gap)} arrived late; nothing lost`;
    if (s.lost) return `${head} ${messagesOf(s.missing)} ${wasOf(s.missing)} never received: lost` +
      (arrived ? ` (${arrived} of ${skipped} arrived late)` : "");
    return `${head} ${messagesOf(gap)} ${wasOf(gap)} skipped (play went on from ${e.got}): ` +
      (arrived ? `${arrived} arrived late, ${missing} still missing` : "none has arrived yet");
  }
  function moveLabelOf(a, c) {
    const ply = (a.evidence && a.evidence.ply) != null ? a.evidence.ply : null;
    const san = c.by_move_san || c.by_move;
    if (ply == null) return san;
    const next = ply + 1;
    return Math.ceil(next / 2) + (next % 2 ? ". " : "\u2026 ") + san;
  }
  function summary(a) { return sentence(a); }

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
      `<li class="alert sev-${esc(a.severity)} ${a.status !== "open" ? "closed" : ""} ${state.selected === a.id ? "selected" : ""}" data-id="${a.id}" data-kind="${esc(a.kind)}" tabindex="0">
         <div class="title ${a.id === freshId ? "fresh" : ""}">${esc(a.title)}${a.count > 1 ? ` <span class="repeat" title="${a.count} ${a.kind === "not_at_board" ? "players" : "messages from this device; the latest at " + clockTime(a.last_at)}">&times;${a.count}</span>` : ""}</div>
         <div class="words">${esc(sentence(a))}</div>
         <div class="meta">${a.board ? `<span>Board ${esc(a.board)}</span>` : ""}<span>${a.game && state.games.has(a.game) ? pairOf(state.games.get(a.game), surname) : esc(a.game || "")}</span><span>${clockTime(a.at)}</span><span>${esc(a.status)}</span></div></li>`).join("");
    for (const li of $("alerts").querySelectorAll(".alert")) {
      li.addEventListener("click", () => select(Number(li.dataset.id)));
      li.addEventListener("keydown", (ev) => { if (ev.key === "Enter") select(Number(li.dataset.id)); });
    }
    if (state.selected !== null) renderDetail();
    renderActions();
  }
  $("show-closed").addEventListener("change", () => render());

  // --- the hall grid: every board of the round at a glance -------------------------------------------
  function boardOrder(x, y) { return String(x.board).localeCompare(String(y.board), undefined, { numeric: true }); }
  // The time a running clock shows now (the reading minus the time since it was read).
  function shownMs(row, side) {
    const c = row.clock;
    if (!c) return null;
    const ms = c[side + "_ms"];
    return c.running === side && c.at ? ms - (Date.now() - c.at) : ms;
  }
  function tile(r) {
    const dev = r.device === "offline" ? `<span class="dev off" title="device offline">offline</span>` :
      r.device === "online" ? `<span class="dev on" title="device online">online</span>` : `<span class="dev unknown" title="no status from the device yet">no device</span>`;
    const batt = r.battery ? `<span class="batt" title="battery">${esc(r.battery)}</span>` : "";
    const alerts = r.alerts ? `<span class="n-alerts" title="open alerts">${r.alerts} alert${r.alerts > 1 ? "s" : ""}</span>` : "";
    const clock = r.clock ? sidesOf(r).map((s) => `<span class="t-clock-${s} ${r.clock.running === s ? "run" : ""}">${hms(shownMs(r, s))}</span>`).join("") : `<span class="muted">no clock yet</span>`;
    const clockState = r.status === "ended" ? `<b title="${esc(wonText(r))}">${esc(shownScore(r))}</b>` : r.clock_state === "running" ? "running" : r.clock_state ? esc(r.clock_state) : "";
    const game = state.games.get(r.game);
    const move = r.ply ? `${r.ply} ${r.ply === 1 ? "ply" : "plies"}${r.last_san ? ", last " + esc(r.last_san) : ""}` : "no move yet";
    const absent = sidesOf(r).filter((s) => (r.absent || []).includes(s)).map((s) => `<div class="t-absent" data-side="${s}">${esc(sideName(game, s))} not arrived: ${esc(surname(r[s]))}
        <button type="button" class="checkin" data-game="${esc(r.game)}" data-side="${s}">Check in</button></div>`).join("");
    return `<li class="tile ${r.problems.length ? "problem" : ""} ${r.device === "offline" ? "offline" : ""} ${state.board === r.board ? "selected" : ""}" data-board="${esc(r.board)}" data-game="${esc(r.game)}" tabindex="0">
      <div class="t-head"><b class="t-no">${esc(r.board)}</b>${dev}${batt}${alerts}${r.held ? `<span class="held">held</span>` : ""}${r.holding ? `<span class="held">holds ${r.holding}</span>` : ""}</div>
      <div class="t-players">${pairOf(r, surname)}</div>
      <div class="t-clock">${clock}<span class="t-state">${clockState}</span></div>
      <div class="t-move muted">${move}</div>${absent}</li>`;
  }
  function renderHall() {
    const rows = [...state.hall.values()].sort(boardOrder);
    const only = $("only-problems").checked;
    const shown = rows.filter((r) => !only || r.problems.length);
    $("hall").hidden = rows.length === 0;
    renderSummary(rows);
    $("no-boards").hidden = !(only && rows.length && !shown.length);
    $("grid").innerHTML = shown.map(tile).join("");
    for (const li of $("grid").querySelectorAll(".tile")) wireTile(li);
  }
  function renderSummary(rows) {
    const count = (p) => rows.filter((r) => r.problems.includes(p)).length;
    const offline = count("offline"), absent = rows.reduce((n, r) => n + (r.problems.includes("absent") ? r.absent.length : 0), 0);
    $("hall-summary").textContent = `${rows.length} boards` + (offline ? ` · ${offline} offline` : "") + (absent ? ` · ${absent} not arrived` : "") +
      (count("alerts") ? ` · ${count("alerts")} with alerts` : "") + (count("held") ? ` · ${count("held")} held` : "");
  }
  function wireTile(li) {
    li.addEventListener("click", (ev) => { if (!ev.target.closest("button")) selectBoard(li.dataset.board); });
    li.addEventListener("keydown", (ev) => { if (ev.key === "Enter" && !ev.target.closest("button")) selectBoard(li.dataset.board); });
    for (const b of li.querySelectorAll("button.checkin")) b.addEventListener("click", () => checkIn(b.dataset.game, b.dataset.side, b));
  }
  // One board changed: only its tile is redrawn (a button being clicked elsewhere stays), unless
  // the filter now shows or hides it.
  function renderTile(r) {
    const old = $("grid").querySelector(`.tile[data-board="${CSS.escape(r.board)}"]`);
    const wanted = !$("only-problems").checked || r.problems.length;
    if (!old || !wanted) return renderHall();
    const holder = document.createElement("ol");
    holder.innerHTML = tile(r);
    const li = holder.firstElementChild;
    old.replaceWith(li);
    wireTile(li);
    renderSummary([...state.hall.values()]);
  }
  $("only-problems").addEventListener("change", () => renderHall());
  // Running clocks count down in place, once a second (the tiles are not redrawn).
  setInterval(() => {
    if ($("console").hidden) return;
    for (const r of state.hall.values()) {
      if (r.clock_state !== "running" || !r.clock) continue;
      const span = $("grid").querySelector(`.tile[data-board="${CSS.escape(r.board)}"] .t-clock-${r.clock.running}`);
      if (span) span.textContent = hms(shownMs(r, r.clock.running));
    }
  }, 1000);

  async function checkIn(game, side, button) {
    if (button) button.disabled = true;
    try {
      await api("/api/arbiter/actions", { action: "check_in", game, side });
      toast(`Checked in: ${SIDE[side]} on board ${(state.hall.get(boardOfGame(game)) || {}).board || ""}`);
    } catch (e) { toast("Refused: " + e.message); if (button) button.disabled = false; }
  }
  function boardOfGame(game) { for (const r of state.hall.values()) if (r.game === game) return r.board; return null; }

  // One click to the board: its picture, clocks, open alerts and the actions an arbiter takes there.
  function selectBoard(board) {
    state.board = board; state.selected = null; state.detailKey = null;
    document.body.classList.add("reading");
    render();
    renderHall();
    renderBoardDetail();
    const r = state.hall.get(board);
    if (r) loadGame(r.game);
    $("detail").scrollIntoView({ block: "start", behavior: window.matchMedia("(max-width: 760px)").matches ? "auto" : "smooth" });
  }
  // why a board holds messages until their game is decided (docs/protocol.md "Two games on one board")
  const HOLDING_WORDS = { arbiter: "its game waits for your decision (a claim, a penalty that loses the game).",
                          next_game: "the next game's start was shown before this game has a result: record the result, or say which game the board plays.",
                          either: "they fit the game that ended and the next one alike: the board's next message will tell, or say which game." };
  function renderBoardDetail() {
    const r = state.hall.get(state.board);
    if (!r || state.selected !== null) return;
    const key = JSON.stringify(["board", r]);
    if (state.detailKey === key) return;
    state.detailKey = key;
    const g = state.games.get(r.game);
    const alerts = [...state.alerts.values()].filter((a) => a.status === "open" && (a.board === r.board || openItems(a).some((i) => i.board === r.board)));
    $("detail").innerHTML = `${backButton()}<div class="detail-head"><h3>Board ${esc(r.board)}</h3><span class="pill ${r.device === "offline" ? "st-open" : "st-resolved"}">${esc(r.device || "no device")}</span></div>
      <p class="muted status">${pairOf(r)} &middot; game ${esc(r.game)} &middot; ${r.status === "ended" ? esc(endedText(r)) : esc(r.status)} &middot; <a href="/game/${encodeURIComponent(r.game)}" target="_blank" rel="noopener">game page</a></p>
      <div class="detail-grid"><div class="detail-board"><img id="detail-board" alt="board ${esc(r.board)}" width="300" height="300" src="/board/${encodeURIComponent(r.game)}.svg?size=300"></div>
      <div class="detail-side">
        <p class="clocks">${r.clock ? `White <b>${hms(shownMs(r, "white"))}</b> &middot; Black <b>${hms(shownMs(r, "black"))}</b> (${esc(r.clock_state)})` : "No clock reading yet."}</p>
        ${r.held ? `<p class="words">An illegal move is held: the board waits for you (FIDE Laws 7.5).</p>` : ""}
        ${r.holding ? `<p class="words">The board holds ${r.holding} message${r.holding === 1 ? "" : "s"}: ${esc(HOLDING_WORDS[r.holding_for] || "")}</p>
          <div class="act">${r.next_game ? `<button type="button" data-call="${esc(r.next_game)}">Next game: ${esc(r.next_game)}</button>` : ""}<button type="button" data-call="${esc(r.game)}">Game ${esc(r.game)} goes on</button></div>` : ""}
        ${alerts.length ? `<ul class="board-alerts">${alerts.map((a) => `<li><button type="button" data-open="${a.id}">${esc(a.title)}</button> ${esc(sentence(a))}</li>`).join("")}</ul>` : `<p class="muted">No open alert on this board.</p>`}
        <div class="act">${(r.absent || []).map((s) => `<button type="button" data-act="check_in" data-side="${s}">Check in ${esc(sideName(g, s))}</button>`).join("")}
          <button type="button" data-act="pause">Pause</button><button type="button" data-act="resume">Resume</button></div>
        ${clockForm(r)}
      </div></div>`;
    for (const b of $("detail").querySelectorAll("[data-open]")) b.addEventListener("click", () => select(Number(b.dataset.open)));
    const pseudo = { game: r.game, id: null };
    for (const b of $("detail").querySelectorAll("[data-act]")) b.addEventListener("click", () => act(pseudo, b.dataset.act, b.dataset.side));
    for (const b of $("detail").querySelectorAll("[data-call]")) b.addEventListener("click", () => act({ game: b.dataset.call, id: null }, "call_game"));
    wireBack();
  }
  // Clocks set in h:mm:ss, filled with what the clock shows now.
  function clockForm(r) {
    const w = r && r.clock ? hms(shownMs(r, "white")) : "", b = r && r.clock ? hms(shownMs(r, "black")) : "";
    return `<div class="act set-clock"><label>White <input id="wclock" value="${w}" placeholder="h:mm:ss" aria-label="White's clock (h:mm:ss)" size="8"></label>
      <label>Black <input id="bclock" value="${b}" placeholder="h:mm:ss" aria-label="Black's clock (h:mm:ss)" size="8"></label>
      <button type="button" data-act="adjust_clock">Set clocks</button></div>`;
  }
  // The clock inputs follow the clock while the arbiter has not typed in them.
  function refillClocks(r) {
    for (const [id, side] of [["wclock", "white"], ["bclock", "black"]]) {
      const input = $(id);
      if (input && r.clock && input.dataset.typed !== "1" && document.activeElement !== input) input.value = hms(shownMs(r, side));
    }
  }
  document.addEventListener("input", (ev) => { if (ev.target.id === "wclock" || ev.target.id === "bclock") ev.target.dataset.typed = "1"; });
  function backButton() { return `<button type="button" class="back" id="back">&larr; Alerts and hall</button>`; }
  function wireBack() {
    const b = $("back");
    if (b) b.addEventListener("click", () => { document.body.classList.remove("reading"); state.selected = null; state.board = null; state.detailKey = null;
      $("detail").innerHTML = '<p class="muted">Pick an alert or a board.</p>'; render(); renderHall(); $("alerts").scrollIntoView({ block: "start" }); });
  }

  const ACTION_NAMES = { score_sheet_entered: "Score sheet entered", adjudication_recorded: "Adjudication recorded",
                         move_timer_started: "Move timer started", time_trouble_called: "Time trouble called", match_clock_chosen: "Match clock chosen", arbiter_decision: "Result set", fine_recorded: "Fine recorded", player_arrived: "Checked in",
                         clock_adjusted: "Clocks set", game_paused: "Clock paused", game_resumed: "Clock resumed",
                         note_added: "Note", alert_resolved: "Alert handled", players_registered: "Players registered",
                         pairing_drafted: "Round paired (draft)", pairing_swapped: "Pairing changed by hand",
                         pairing_published: "Pairing published", round_started: "Round started",
                         board_game_called: "Board's game called" };
  const ROUND_TOOLS_ACTIONS = new Set(["round_started", "pairing_drafted", "pairing_swapped", "pairing_published",
    "players_registered", "player_withdrew", "bye_requested", "bye_request_cancelled", "player_entered",
    "pairing_forbidden", "acceleration_set"]);
  function actionName(x) {
    if (x.type === "draw_claim_decided") return (x.accepted ? "Draw claim accepted" : "Draw claim rejected") + " (" + (CLAIM_NAMES[x.kind] || x.kind) + ")";
    return ACTION_NAMES[x.type] || x.type;
  }
  function actionDetail(x) {
    const g = state.games.get(x.game);
    const result = x.result && g ? fieldScore(g.variant, x.result) : x.result;  // in the order its game's names are
    if (x.type === "fine_recorded") return `${x.player}: ${x.amount} ${x.currency || ""}`;
    if (x.type === "players_registered") return `${(x.players || []).length} player(s)` + (x.source ? ` from ${x.source}` : "");
    // pairing_drafted and pairing_swapped name the version they acted on and make the next one
    if (x.type === "pairing_drafted" || x.type === "pairing_swapped") return `round ${x.round}` + (x.reason ? `: ${x.reason}` : "") + (x.version != null ? `: version ${x.version + 1}` : "");
    if (x.type === "pairing_published") return `round ${x.round}, version ${x.version}`;
    if (x.type === "round_started") return `round ${x.round}: ${x.games} game(s)`;
    if (x.type === "arbiter_decision" && x.game) return `game ${x.game}` + (result ? `: ${result}` : "");
    if (x.type === "player_arrived") return x.player || x.side || "";
    if (x.type === "clock_adjusted") return `White ${hms(x.white_ms)}, Black ${hms(x.black_ms)}`;
    if (x.type === "alert_resolved") return "alert #" + x.alert;
    if (x.type === "score_sheet_entered") return `${SIDE_NAMES[x.side] || x.side}'s sheet, ${(x.moves || []).length} moves` + (x.differences ? `, ${x.differences} flagged` : "");
    if (x.type === "move_timer_started") return `${TIMER_NAMES[x.rule] || x.rule}, ${SIDE_NAMES[x.side] || x.side}`;
    if (x.type === "time_trouble_called") return `${SIDE_NAMES[x.side] || x.side}` + (x.left_ms != null ? `, ${clockText(x.left_ms)} left` : "");
    if (x.type === "adjudication_recorded") return `${result} (${x.unanimous ? "unanimous" : "not unanimous"})`;
    if (x.type === "match_clock_chosen") return `match ${x.match}: ${clockChoiceText(x)}`;
    return result || x.text || x.note || "";
  }
  function renderActions() {
    $("actions").innerHTML = state.actions.slice(-50).reverse().map((x) =>
      `<li data-type="${esc(x.type)}"><b>${esc(actionName(x))}</b>${x.board ? " &middot; board " + esc(x.board) : ""}
       ${actionDetail(x) ? " &middot; " + esc(actionDetail(x)) : ""}<span class="by">${esc(x.by || "")} &middot; ${clockTime(x.at)}</span></li>`).join("");
  }


  function select(id) {
    state.selected = id; state.board = null; state.detailKey = null;
    document.body.classList.add("reading");
    render();
    const a = state.alerts.get(id);
    if (a && a.game) loadGame(a.game);
    const g = a && a.game && state.games.get(a.game);
    if (g && g.variant === "checkers" && a.game !== state.refGame) { state.refGame = a.game; renderReferee(); }
    // On a phone the detail comes first (arbiter.css): show it, not the queue above.
    if (window.matchMedia("(max-width: 760px)").matches) $("detail").scrollIntoView({ block: "start" });
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
    const e = a.evidence || {};
    const reason = String(e.kind || e.reason || e.termination || "");
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
  // The repeated positions as small boards, each labelled with its move; a click shows it large.
  function smallBoards(plies, gameId) {
    return plies.map((p) => `<button type="button" class="mini" data-ply="${p}" title="the position after ply ${p}"><img alt="" width="96" height="96" loading="lazy"
      src="/board/${encodeURIComponent(gameId)}.svg?size=96&ply=${p}"><span>${esc(plyLabel(p, gameId))}</span></button>`).join("");
  }

  // The claim card: each claim with its own evidence (the positions of one claim never mix with
  // another's), the intended move in SAN, the rule, and the decision on the card itself.
  function claimsHtml(a) {
    const e = a.evidence || {};
    if (!e.claims) return "";
    const main = mainClaim(a), words = (a.words && a.words.claims) || [];
    return `<ul class="ev-claims">${e.claims.map((c, i) => {
      const ev = c.evidence || {}, w = words[i] || {};
      const plies = (ev.plies || []).slice();
      if (ev.last_irreversible_ply != null) plies.push(ev.last_irreversible_ply);
      const how = c.by_move == null ? "claimable now" : `with the intended move <b class="san">${esc(moveLabelOf(a, w.by_move ? w : c))}</b>`;
      const rule = (CLAIM_RULES[c.kind] || ["", ""])[c.by_move == null ? 0 : 1];
      const what = ev.plies ? `the same position stood ${ev.plies.length} times, after:` : ev.last_irreversible_ply != null ?
        `${esc(ev.halfmove_clock)} plies without a capture or pawn move since` : "";
      const decide = c === main && a.status === "open" ? `<div class="act decide"><button type="button" class="accept" data-act="accept_claim">Accept claim: ½-½</button>
                 <button type="button" class="reject" data-act="reject_claim">Reject claim</button></div>` : "";
      return `<li class="ev-claim ${c === main ? "main" : ""}" data-kind="${esc(c.kind)}" data-by-move="${esc(c.by_move || "")}">
        <div><b>${esc(CLAIM_NAMES[c.kind] || c.kind)}</b>, ${how} <span class="muted">(${esc(rule)})</span></div>
        ${plies.length ? `<div class="muted">${what}</div><div class="plies boards">${smallBoards(plies, a.game)}</div>` : ""}${decide}</li>`;
    }).join("")}</ul>`;
  }

  function names(gameId) {
    const g = state.games.get(gameId);
    return g ? pairOf(g) : "";
  }

  // The players of a round's "not at the board" alert: each with a check-in (or, once defaulted,
  // the arbiter's way to let the game go on: FIDE Laws 6.7.1 "unless the arbiter decides otherwise").
  function presenceHtml(a) {
    const items = (a.evidence && a.evidence.items) || [];
    if (a.kind !== "not_at_board") return "";
    const line = (i) => {
      const name = `${esc(SIDE[i.side])}, ${esc(spoken(i.player))}`;
      let what = "", acts = "";
      if (i.state === "absent") {
        what = `not at the board since ${clockTime(i.since)}` + (i.fine ? ` &middot; fine ${esc(i.fine)} ${esc(i.currency || "")} possible` : "");
        acts = `<button type="button" class="checkin" data-game="${esc(i.game)}" data-side="${i.side}">Check in</button>`;
      } else if (i.state === "arrived") {
        what = `at the board since ${clockTime(i.arrived_at)}`;
      } else if (i.state === "defaulted") {
        what = `lost by default (${esc(i.result || "")}): not at the board by ${clockTime(i.deadline_ms)}` + (i.arrived_at ? `, came at ${clockTime(i.arrived_at)}` : "");
        acts = `<button type="button" class="overrule" data-game="${esc(i.game)}" data-side="${i.side}" title="this player is at the board now: checked in, and the game goes on (a player still absent is defaulted again)">At the board: let the game go on (6.7.1)</button>`;
      } else {
        what = "decided by the arbiter";
      }
      return `<li class="presence st-${esc(i.state)}" data-board="${esc(i.board)}" data-side="${i.side}"><b>Board ${esc(i.board)}</b> &middot; ${name}: ${what} ${acts}</li>`;
    };
    const absent = items.filter((i) => i.state === "absent");
    // Many players are seated at once at a round's start: one click for all the arbiter sees there
    // (asked first: a player checked in by mistake escapes the default time, FIDE Laws 6.7.1).
    const all = absent.length > 1 ? `<div class="act"><button type="button" class="checkin-all" title="every player still shown absent is at the board now">Check in all ${absent.length} still absent</button></div>` : "";
    return `<ul class="presence-list">${items.map(line).join("")}</ul>${all}`;
  }
  async function checkInAll(button) {
    const a = state.alerts.get(state.selected);
    const absent = ((a && a.evidence && a.evidence.items) || []).filter((i) => i.state === "absent");
    if (!absent.length || !confirm(`Check in the ${absent.length} players still shown absent? Only if you see each at the board (FIDE Laws 6.7.1).`)) return;
    button.disabled = true;
    for (const i of absent) await checkIn(i.game, i.side, null);
  }

  // What the Laws give the opponent after a rejected claim (9.5.3) or a confirmed illegal move
  // (7.5.5): shown when the entry carries it (``penalty``), applied on confirmation.
  function proposalHtml(a, p) {
    if (!p) return "";
    const g = state.games.get(a.game), r = state.hall.get(boardOfGame(a.game) || (g && g.board));
    if (p.game_lost) {
      return `<div class="proposal" data-kind="loss"><b>${esc(p.law || "FIDE Laws 7.5.5")}:</b> ${esc(p.reason || "the game is lost")}
        <div class="act"><button type="button" data-propose="result" data-result="${esc(p.result || "")}">Set the result ${esc(p.result || "")}</button></div></div>`;
    }
    const to = p.side || p.to || p.opponent;
    const now = r && r.clock ? shownMs(r, to) : null;
    return `<div class="proposal" data-kind="time"><b>${esc(p.law || "")}</b> ${esc(p.reason || "")}
      <div class="act">Add <input id="penalty-add" value="${dur(p.add_ms || 0)}" size="6" aria-label="time to add (m:ss)"> to ${esc(sideName(g, to))}'s clock
        ${now != null ? `(now ${hms(now)}, then <b id="penalty-then">${hms(now + (p.add_ms || 0))}</b>)` : ""}
        <button type="button" data-propose="time" data-side="${esc(to)}">Apply</button></div></div>`;
  }
  // A ``penalty_proposed`` alert is the gateway's proposal itself (the Laws' time for ``to``, or the
  // game lost at a second completed illegal move); applied with ``apply_penalty``. A withdrawn one
  // (``penalty_withdrawn``: its press was the replacement move's, 7.5.1) has nothing left to apply.
  function gatewayProposal(a) {
    if (a.kind !== "penalty_proposed" || !a.evidence || a.status === "withdrawn") return null;
    const e = a.evidence;
    return { to: e.to, add_ms: e.add_ms, game_lost: e.game_lost, result: e.result, law: e.law, reason: e.reason,
             action: { action: "apply_penalty", game: a.game, side: e.to, law: e.law, reason: e.reason } };
  }
  function penaltyOf(a) { return gatewayProposal(a) || (a.evidence && a.evidence.penalty) || (a.resolution && a.resolution.penalty) || state.proposals.get(a.id) || null; }

  function renderDetail() {
    const a = state.alerts.get(state.selected);
    if (!a) return;
    // Redraw only when this alert changed: other alerts arriving must not wipe a note being typed.
    // The evidence too: two entries in the same millisecond (the arbiter's reopening, the default
    // again) change a round's presence list with count and last_at as they were (CI saw the stale line).
    const key = JSON.stringify([a.id, a.status, a.title, a.since, a.resolution, a.count, a.last_at, state.games.has(a.game), a.words || null, penaltyOf(a), a.evidence || null]);
    if (state.detailKey === key) return;
    state.detailKey = key;
    const e = a.evidence || {};
    const main = mainClaim(a);
    const ply = e.ply;
    const img = a.game ? `<img id="detail-board" alt="board ${esc(a.board)}" width="300" height="300"
      src="/board/${encodeURIComponent(a.game)}.svg?size=300${ply != null ? "&ply=" + ply : ""}">` : "";
    const claim = a.kind === "draw_claimable" || a.kind === "draw_claim_reported";
    let acts = "";
    // An illegal move stays to be confirmed after its board resumed by itself (closed by the board,
    // not by an arbiter): whether it was completed (7.5.1) is the arbiter's to say.
    if (a.kind === "move_rejected" && a.game && !penaltyOf(a) && (a.status === "open" || (a.resolution && a.resolution.by === "board"))) {
      acts += `<div class="act"><button type="button" data-act="propose_illegal" title="FIDE Laws 7.5.5">Illegal move confirmed: what the Laws give the opponent</button></div>`;
    }
    if (a.status === "open" && a.game) {
      if (claim && !e.claims) {
        acts += `<div class="act decide"><button type="button" class="accept" data-act="accept_claim">Accept claim: ½-½</button>
                 <button type="button" class="reject" data-act="reject_claim">Reject claim</button></div>`;
      }
      acts += `<div class="act"><select id="result" aria-label="result">${resultOptions(state.games.get(gameOfAlert(a)))}</select>
               <button type="button" data-act="set_result">Set result</button></div>
               <div class="act"><button type="button" data-act="check_in" data-side="white">Check in White</button><button type="button" data-act="check_in" data-side="black">Check in Black</button>
               <button type="button" data-act="pause" title="pause the game (clock stopped)">Pause</button><button type="button" data-act="resume" title="resume the game">Resume</button></div>`;
    }
    let tools = "";
    // the event's currency (the fines', else the prizes': dashboard/app.py arbiter_page), never one assumed
    const fineLabel = () => document.body.dataset.fineCurrency ? `Fine (${document.body.dataset.fineCurrency})` : "Fine (no currency: no tournament file registered)";
    if (a.game) {
      tools = `<div class="act"><input id="fine" type="number" min="1" placeholder="${esc(fineLabel())}" aria-label="fine amount"><select id="fine-side" aria-label="fined player"><option value="white">White</option><option value="black">Black</option></select>
                 <button type="button" data-act="record_fine">Record fine</button></div>${clockForm(state.hall.get(boardOfGame(a.game)))}
               <div class="act"><input id="fix-ply" type="number" min="0" placeholder="Plies that stand" aria-label="plies that stand">
                 <input id="fix-moves" placeholder="Moves played after, e.g. Nc3 Nc6" aria-label="moves played after that ply">
                 <button type="button" data-act="correct_record" title="FIDE Laws 7.5.1: take the record back and enter the moves played">Correct record</button></div>`;
    }
    const res = a.resolution;
    const resolved = res ? ` by ${esc(res.by || "")}${res.at ? " at " + clockTime(res.at) : ""}${res.accepted === true ? ": claim accepted" : res.accepted === false ? ": claim rejected" : ""}` : "";
    const plies = !e.claims && e.ply != null ? `<div class="plies">${plyButtons([e.ply], a.game)}</div>` : "";
    $("detail").innerHTML = backButton() +
      `<div class="detail-head"><h3>${esc(a.title)}</h3><span class="pill st-${esc(a.status)}">${esc(a.status)}</span></div>
       <p class="muted status">${[a.board ? "Board " + esc(a.board) : "", a.game ? "game " + esc(a.game) : "", a.game && state.games.has(a.game) ? names(a.game) : "",
                                   clockTime(a.at), esc(a.status) + resolved].filter(Boolean).join(" &middot; ")}</p>
       <p class="sentence">${esc(sentence(a))}</p>${a.rule ? `<p class="muted rule">${esc(a.rule)}</p>` : ""}
       <div class="detail-grid ${a.game ? "" : "no-board"}"><div class="detail-board">${img}${plies}</div>
         <div class="detail-side">${claimsHtml(a)}${presenceHtml(a)}${proposalHtml(a, penaltyOf(a))}
         <details class="evidence-box"><summary>Log entry #${a.id}</summary><pre class="evidence">${esc(JSON.stringify(e, null, 2))}</pre></details>
         ${acts}${tools}
         <div class="act"><input id="note" placeholder="Note for the record" aria-label="note"><button type="button" data-act="note">Add note</button>
         ${a.status === "open" ? '<button type="button" data-act="resolve_alert">Mark handled</button>' : ""}
         ${a.status === "open" && sameKindOpen(a).length > 1 ? `<button type="button" data-act="resolve_alerts" title="every open alert of this kind, in one action">Mark all ${sameKindOpen(a).length} handled</button>` : ""}</div></div></div>`;
    for (const b of $("detail").querySelectorAll("[data-ply]")) {
      b.addEventListener("click", () => {
        $("detail-board").src = `/board/${encodeURIComponent(a.game)}.svg?size=300&ply=${b.dataset.ply}`;
        for (const o of $("detail").querySelectorAll("[data-ply]")) o.classList.toggle("on", o === b);
      });
    }
    for (const b of $("detail").querySelectorAll("[data-act]")) {
      b.addEventListener("click", () => act(a, b.dataset.act, b.dataset.side, claimKindOf(a), main));
    }
    for (const b of $("detail").querySelectorAll("button.checkin")) b.addEventListener("click", () => checkIn(b.dataset.game, b.dataset.side, b));
    for (const b of $("detail").querySelectorAll("button.checkin-all")) b.addEventListener("click", () => checkInAll(b));
    for (const b of $("detail").querySelectorAll("button.overrule")) {
      // 6.7.1 "unless the arbiter decides otherwise": the arbiter sees this player at the board, so the
      // player is checked in first (reopening alone would default the player again at once: nothing
      // shows the player there). Not naming the round's alert: this decides one board.
      b.addEventListener("click", async () => {
        await checkIn(b.dataset.game, b.dataset.side, b);
        act({ id: null, game: b.dataset.game }, "set_result", null, null, null, "*");
      });
    }
    for (const b of $("detail").querySelectorAll("[data-propose]")) b.addEventListener("click", () => applyProposal(a, b));
    wireBack();
  }

  // The opponent of the side an alert is about (the claimant, the player who moved illegally).
  function opponentOf(a) {
    const s = (a.words && a.words.side) || (a.evidence && a.evidence.side);
    return s === "white" ? "black" : s === "black" ? "white" : null;
  }
  // The Laws' time for the opponent when the entry does not carry it: two minutes (9.5.3, 7.5.5;
  // one minute in rapid and in blitz under B.3: Appendix A.3), editable before it is applied.
  function lawsProposal(a, law, reason) {
    return { side: opponentOf(a), add_ms: 120000, law, reason, proposed_here: true };
  }
  async function applyProposal(a, button) {
    const p = penaltyOf(a);
    if (!p) return;
    if (button.dataset.propose === "result") return act(a, "set_result", null, null, null, button.dataset.result);
    const add = parseHms($("penalty-add").value);
    if (add == null) { toast("Refused: the time to add is not a clock time (m:ss)"); return; }
    if (p.action && !p.proposed_here) {
      try { await api("/api/arbiter/actions", { ...p.action, alert: a.id, add_ms: add }); toast("Recorded: time added"); } catch (e) { toast("Refused: " + e.message); }
      return;
    }
    const r = state.hall.get(boardOfGame(a.game));
    if (!r || !r.clock) { toast("Refused: no clock reading for this game yet"); return; }
    const side = button.dataset.side, w = shownMs(r, "white"), b = shownMs(r, "black");
    const body = { action: "adjust_clock", game: a.game, alert: a.id, white_ms: Math.round(side === "white" ? w + add : w), black_ms: Math.round(side === "black" ? b + add : b),
                   note: `${p.law || ""}: ${dur(add)} added to ${SIDE[side]}`.trim() };
    try { await api("/api/arbiter/actions", body); toast(`Recorded: ${dur(add)} added to ${SIDE[side]}`); state.proposals.delete(a.id); state.detailKey = null; renderDetail(); }
    catch (e) { toast("Refused: " + e.message); }
  }

  // An Armageddon game's alert is about the Armageddon game (its SETUP's id), not the drawn game the
  // board played before it: its result is set on it (issue 27).
  function gameOfAlert(a) { return a.kind === "armageddon_scheduled" && a.evidence && a.evidence.id ? a.evidence.id : a.game; }

  async function act(a, action, side, claimKind, claim, result) {
    if (action === "propose_illegal") {
      state.proposals.set(a.id, lawsProposal(a, "FIDE Laws 7.5.5", "first completed illegal move: two minutes extra time to the opponent (one in rapid, A.3); a second one loses the game"));
      state.detailKey = null; return renderDetail();
    }
    const body = { action, game: gameOfAlert(a) };
    if (a.id != null) body.alert = a.id;
    const note = $("note") && $("note").value.trim();
    if (note) body.note = note;
    if (action === "accept_claim" || action === "reject_claim") { body.kind = claimKind; body.by_move = claim ? claim.by_move : null; }
    if (action === "set_result") {
      if (result !== undefined) { body.result = result; body.forfeit = false; } else { const [r, f] = $("result").value.split("|"); body.result = r; body.forfeit = f === "f"; }
    }
    if (action === "check_in") body.side = side;
    if (action === "record_fine") { body.amount = Number($("fine").value); body.side = $("fine-side").value; }
    if (action === "adjust_clock") {
      body.white_ms = parseHms($("wclock").value); body.black_ms = parseHms($("bclock").value);
      if (body.white_ms == null || body.black_ms == null) { toast("Refused: clocks are set as h:mm:ss (e.g. 1:05:00)"); return; }
    }
    if (action === "note") { body.text = note || ""; delete body.note; }
    if (action === "resolve_alerts") { body.alerts = sameKindOpen(a).map((x) => x.id); delete body.alert; delete body.game; }
    if (action === "correct_record") { body.ply = Number($("fix-ply").value); body.moves = $("fix-moves").value; if (note) body.reason = note; }
    try {
      const { entries } = await api("/api/arbiter/actions", body);
      if (note && $("note")) $("note").value = "";
      toast("Recorded: " + action.replace(/_/g, " "));
      if (action === "reject_claim") {
        const decided = (entries || []).find((x) => x.type === "draw_claim_decided");
        const p = decided && decided.data && decided.data.penalty;
        state.proposals.set(a.id, p || lawsProposal(a, "FIDE Laws 9.5.3", "the claim is incorrect: two minutes are added to the opponent's remaining thinking time (one in rapid, A.3)"));
        state.detailKey = null; renderDetail();
      }
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
  // A checkers result in words, its score in the field's order (Black's first, as the names).
  function resultText(r) {
    return { "1-0": "White wins (0-1)", "0-1": "Red (Black) wins (1-0)", "1/2-1/2": "Draw (½-½)" }[r] || fieldScore("checkers", r);
  }
  function checkersGames() { return [...state.games.values()].filter((g) => g.variant === "checkers"); }
  function moveLabel(p) { return Math.ceil(p / 2) + (p % 2 ? "." : "\u2026"); } // Red moves first: ply 1 is "1."

  function renderReferee() {
    const games = checkersGames().sort((x, y) => String(x.board).localeCompare(String(y.board), undefined, { numeric: true }) || x.id.localeCompare(y.id));
    $("referee").hidden = games.length === 0;
    if (!games.length) return;
    if (!state.refGame || !games.some((g) => g.id === state.refGame)) state.refGame = (games.find((g) => g.status !== "ended") || games[0]).id;
    $("ref-game").innerHTML = games.map((g) => `<option value="${esc(g.id)}" ${g.id === state.refGame ? "selected" : ""}>Board ${esc(g.board)} &middot; ${pairOf(g)} (${esc(g.id)}${g.status === "ended" ? ", " + esc(endedText(g)) : ""})</option>`).join("");
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

  // --- round tools: withdrawals, requested byes, late entries, forbidden pairs (docs/arbiter.md
  // "Round tools"). The panel shows what the next pairing will read from the log.
  const BYE_NAMES = { H: "half-point bye", F: "full-point bye", Z: "zero-point bye" };
  let tools = null;
  // ``seq``: an action's entry; the dashboard folds it as it follows the log, so ask again until it has.
  async function loadRoundTools(seq) {
    for (let i = 0; i < 40; i++) {
      try { tools = await api("/api/arbiter/round-tools"); } catch (e) { return; }
      if (!seq || tools.seq >= seq) break;
      await new Promise((r) => setTimeout(r, 150));
    }
    renderRoundTools();
  }
  const lastSeq = (r) => Math.max(0, ...(r.entries || []).map((e) => e.seq));
  function playerLabel(p) { return `${p.start_no} \u00b7 ${p.name}${p.rating ? " (" + p.rating + ")" : ""}`; }
  function nameOf(sno) { const p = tools.players.find((x) => x.start_no === sno); return p ? p.name : "#" + sno; }
  function renderRoundTools() {
    const t = tools, panel = $("round-tools");
    panel.hidden = !t || !t.event;
    if (panel.hidden) return;
    for (const f of panel.querySelectorAll(".rt-swiss")) f.hidden = !t.swiss;
    $("rt-next").textContent = t.next_round ? `next to pair: round ${t.next_round} of ${t.rounds_total}` : "every round is paired";
    const options = t.players.filter((p) => p.withdrawn_from == null)
      .map((p) => `<option value="${p.start_no}">${esc(playerLabel(p))}</option>`).join("");
    for (const sel of panel.querySelectorAll(".rt-player")) { const keep = sel.value; sel.innerHTML = options; if (keep) sel.value = keep; }
    for (const inp of panel.querySelectorAll("input[type=number]")) if (/round$/.test(inp.name)) inp.placeholder = String(t.next_round || "");
    const parts = [];
    if (t.next_round) {
      parts.push(t.absent_next.length ? `<b>Round ${t.next_round} leaves out:</b><ul id="rt-absent">${t.absent_next.map((a) =>
        `<li data-start-no="${a.start_no}">${esc(a.name)}: <b class="rt-code">${esc(a.code)}</b> (${esc(BYE_NAMES[a.code] || a.code)})</li>`).join("")}</ul>`
        : `<b>Round ${t.next_round} pairs every player.</b>`);
    }
    if (t.requested_byes.length) {
      parts.push(`Requested byes:<ul id="rt-byes">${t.requested_byes.map((b) => `<li>round ${b.round}: ${esc(b.name)} ${esc(b.code)} ` +
        `<button type="button" data-cancel="${b.start_no}" data-round="${b.round}">Cancel</button></li>`).join("")}</ul>`);
    }
    const gone = t.players.filter((p) => p.withdrawn_from != null);
    if (gone.length) parts.push("Withdrawn: " + gone.map((p) => `${esc(p.name)} (from round ${p.withdrawn_from})`).join(", "));
    if (t.late_entries.length) parts.push("Late entries: " + t.late_entries.map((e) => `${esc(e.name)} (from round ${e.first_round}, missed rounds ${esc(e.missed)})`).join(", "));
    if (t.forbidden.length) parts.push("Must not meet: " + t.forbidden.map((g) => g.map((s) => esc(nameOf(s))).join(" / ")).join("; "));
    if (t.acceleration) parts.push(`Acceleration: ${esc(t.acceleration)} (C.04.7)`);
    $("rt-summary").innerHTML = parts.map((x) => `<div>${x}</div>`).join("");
  }
  function roundToolBody(form) {
    const f = Object.fromEntries(new FormData(form).entries()), num = (x) => (x === "" || x == null ? undefined : Number(x));
    const action = form.dataset.act;
    if (action === "withdraw_player") return { action, player: num(f.player), from_round: num(f.from_round) };
    if (action === "request_bye") return { action, player: num(f.player), round: num(f.round), code: f.code };
    if (action === "enter_player") return { action, name: f.name.trim(), rating: num(f.rating), first_round: num(f.first_round), missed: f.missed,
                                            title: f.title, fide_id: f.fide_id, federation: f.federation };
    return { action, players: [num(f.a), num(f.b)] };
  }
  for (const form of document.querySelectorAll("#round-tools .ref-form")) {
    form.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      const error = form.querySelector(".error"), button = form.querySelector("button[type=submit]");
      error.textContent = ""; button.disabled = true;
      try {
        const r = await api("/api/arbiter/actions", roundToolBody(form));
        toast("Recorded: " + form.dataset.act.replace(/_/g, " "));
        if (r.notice) error.textContent = "Note: " + r.notice;  // the next round's draft was made before this
        for (const inp of form.querySelectorAll("input")) inp.value = "";
        await loadRoundTools(lastSeq(r));
      } catch (e) { error.textContent = e.message; } finally { button.disabled = false; }
    });
  }
  $("rt-summary").addEventListener("click", async (ev) => {
    const b = ev.target.closest("[data-cancel]");
    if (!b) return;
    try {
      const r = await api("/api/arbiter/actions", { action: "cancel_bye", player: Number(b.dataset.cancel), round: Number(b.dataset.round) });
      toast("Recorded: bye cancelled"); await loadRoundTools(lastSeq(r));
    } catch (e) { toast("Refused: " + e.message); }
  });
  setInterval(() => { if (!$("console").hidden) loadRoundTools(); }, 15000);

  // The page says whether it was served to a session: asking /api/arbiter/me without one only
  // put a 401 in the browser's console before every login.
  if (document.body.dataset.signedIn === "1") {
    api("/api/arbiter/me").then(signedIn).catch(() => { $("login-name").focus(); });
  } else {
    $("login-name").focus();
  }
})();
