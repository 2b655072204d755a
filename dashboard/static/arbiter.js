// The arbiter's console: log in, follow /ws/arbiter, show alerts with their board and evidence, act.
(function () {
  "use strict";
  const $ = (id) => document.getElementById(id);
  const state = { alerts: new Map(), actions: [], selected: null, ws: null, me: null, sound: false, retry: 500 };

  function esc(s) { return String(s == null ? "" : s).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c])); }
  function time(ms) { return ms ? new Date(ms).toLocaleTimeString() : ""; }
  function toast(text) {
    const t = document.createElement("div"); t.className = "toast"; t.textContent = text;
    document.body.appendChild(t); setTimeout(() => t.remove(), 3500);
  }

  async function api(path, body) {
    const opts = body === undefined ? { credentials: "same-origin" } :
      { method: "POST", credentials: "same-origin", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) };
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

  function handle(msg) {
    if (msg.type === "snapshot") {
      state.alerts.clear();
      for (const a of msg.alerts.concat(msg.closed || [])) state.alerts.set(a.id, a);
      state.actions = msg.actions || [];
      render();
    } else if (msg.type === "alert") {
      const isNew = !state.alerts.has(msg.alert.id);
      state.alerts.set(msg.alert.id, msg.alert);
      if (isNew && msg.alert.status === "open" && msg.alert.severity !== "info") notify(msg.alert);
      render(isNew ? msg.alert.id : null);
    } else if (msg.type === "action") {
      state.actions.push(msg.action);
      renderActions();
    }
  }

  function summary(a) {
    const e = a.evidence || {};
    if (a.kind === "draw_claimable") return (e.claims || []).map((c) => c.kind + (c.by_move ? " by " + c.by_move : " now")).join(", ");
    return e.reason || e.rule || e.result || e.detail || (e.side ? e.side : "") || "";
  }

  function render(freshId) {
    const showClosed = $("show-closed").checked;
    const rank = { action: 0, warning: 1, info: 2 };
    const list = [...state.alerts.values()].filter((a) => showClosed || a.status === "open")
      .sort((x, y) => (x.status === "open" ? 0 : 1) - (y.status === "open" ? 0 : 1) || rank[x.severity] - rank[y.severity] || y.id - x.id);
    const open = [...state.alerts.values()].filter((a) => a.status === "open").length;
    $("open-count").textContent = open;
    $("no-alerts").hidden = open > 0;
    $("alerts").innerHTML = list.map((a) =>
      `<li class="alert sev-${esc(a.severity)} ${a.status !== "open" ? "closed" : ""} ${state.selected === a.id ? "selected" : ""}" data-id="${a.id}" tabindex="0">
         <div class="title ${a.id === freshId ? "fresh" : ""}">${esc(a.title)}</div>
         <div class="meta"><span>Board ${esc(a.board || "-")}</span><span>${esc(a.game || "")}</span><span>${time(a.at)}</span><span>${esc(a.status)}</span></div>
         <div class="muted">${esc(summary(a))}</div></li>`).join("");
    for (const li of $("alerts").querySelectorAll(".alert")) {
      li.addEventListener("click", () => select(Number(li.dataset.id)));
      li.addEventListener("keydown", (ev) => { if (ev.key === "Enter") select(Number(li.dataset.id)); });
    }
    if (state.selected !== null) renderDetail();
    renderActions();
  }
  $("show-closed").addEventListener("change", () => render());

  function renderActions() {
    $("actions").innerHTML = state.actions.slice(-50).reverse().map((x) =>
      `<li><b>${esc(x.type)}</b> ${esc(x.game || "")} ${esc(x.result || x.kind || x.text || x.player || "")}
       ${x.accepted === true ? "accepted" : x.accepted === false ? "rejected" : ""} &middot; ${esc(x.by || "")} &middot; ${time(x.at)}</li>`).join("");
  }

  function select(id) { state.selected = id; render(); }

  function pliesOf(a) {
    const e = a.evidence || {}, out = new Set();
    for (const c of e.claims || []) {
      for (const p of (c.evidence && c.evidence.plies) || []) out.add(p);
      if (c.evidence && c.evidence.last_irreversible_ply != null) out.add(c.evidence.last_irreversible_ply);
    }
    if (e.ply != null) out.add(e.ply);
    return [...out].sort((x, y) => x - y);
  }

  function renderDetail() {
    const a = state.alerts.get(state.selected);
    if (!a) return;
    const plies = pliesOf(a);
    const img = a.game ? `<img id="detail-board" alt="board ${esc(a.board)}" src="/board/${encodeURIComponent(a.game)}.svg?size=300${plies.length ? "&ply=" + plies[plies.length - 1] : ""}">` : "";
    const claims = (a.evidence.claims || []);
    const claimKind = claims.length ? claims[0].kind : (a.evidence.reason === "fifty_moves" ? "fifty_moves" : "threefold");
    let acts = "";
    if (a.status === "open" && a.game) {
      if (a.kind === "draw_claimable" || a.kind === "draw_claim_reported") {
        acts += `<button class="accept" data-act="accept_claim">Accept claim: ½-½</button>
                 <button class="reject" data-act="reject_claim">Reject claim</button>`;
      }
      acts += `<select id="result"><option value="1-0">1-0</option><option value="0-1">0-1</option><option value="1/2-1/2">½-½</option>
                 <option value="1-0|f">1-0 forfeit (+/-)</option><option value="0-1|f">0-1 forfeit (-/+)</option><option value="0-0|f">0-0 double forfeit</option>
                 <option value="0-0">0-0</option><option value="1/2-0">½-0</option><option value="0-1/2">0-½</option><option value="*">* game goes on</option></select>
               <button data-act="set_result">Set result</button>
               <button data-act="check_in" data-side="white">Check in White</button><button data-act="check_in" data-side="black">Check in Black</button>
               <button data-act="pause">Pause</button><button data-act="resume">Resume</button>`;
    }
    let tools = "";
    if (a.game) {
      tools = `<div class="act"><input id="fine" type="number" min="1" placeholder="fine $"><select id="fine-side"><option value="white">White</option><option value="black">Black</option></select>
                 <button data-act="record_fine">Record fine</button></div>
               <div class="act"><input id="wmin" type="number" step="0.1" placeholder="White min"><input id="bmin" type="number" step="0.1" placeholder="Black min">
                 <button data-act="adjust_clock">Adjust clock</button></div>`;
    }
    $("detail").innerHTML =
      `<h3>${esc(a.title)}</h3><p class="muted">Board ${esc(a.board || "-")} &middot; game ${esc(a.game || "-")} &middot; ${time(a.at)} &middot; ${esc(a.status)}
        ${a.resolution ? " by " + esc(a.resolution.by || "") : ""}</p>
       <div class="detail-grid"><div>${img}
         ${plies.length ? `<div class="plies">${plies.map((p) => `<button data-ply="${p}">after ply ${p}</button>`).join("")}</div>` : ""}</div>
         <div><div class="evidence">${esc(JSON.stringify(a.evidence, null, 2))}</div>
         <div class="act">${acts}</div>${tools}
         <div class="act"><input id="note" placeholder="note for the record" size="28"><button data-act="note">Add note</button>
         ${a.status === "open" ? '<button data-act="resolve_alert">Mark handled</button>' : ""}</div></div></div>`;
    for (const b of $("detail").querySelectorAll("[data-ply]")) {
      b.addEventListener("click", () => { $("detail-board").src = `/board/${encodeURIComponent(a.game)}.svg?size=300&ply=${b.dataset.ply}`; });
    }
    for (const b of $("detail").querySelectorAll("[data-act]")) {
      b.addEventListener("click", () => act(a, b.dataset.act, b.dataset.side, claimKind, claims));
    }
  }

  async function act(a, action, side, claimKind, claims) {
    const body = { action, game: a.game, alert: a.id };
    const note = $("note") && $("note").value.trim();
    if (note) body.note = note;
    if (action === "accept_claim" || action === "reject_claim") { body.kind = claimKind; body.by_move = claims.length ? claims[0].by_move : null; }
    if (action === "set_result") { const [r, f] = $("result").value.split("|"); body.result = r; body.forfeit = f === "f"; }
    if (action === "check_in") body.side = side;
    if (action === "record_fine") { body.amount = Number($("fine").value); body.side = $("fine-side").value; }
    if (action === "adjust_clock") { body.white_ms = Math.round(Number($("wmin").value) * 60000); body.black_ms = Math.round(Number($("bmin").value) * 60000); }
    if (action === "note") { body.text = note || ""; delete body.note; }
    try {
      await api("/api/arbiter/actions", body);
      toast("Recorded: " + action.replace(/_/g, " "));
    } catch (e) { toast("Refused: " + e.message); }
  }

  api("/api/arbiter/me").then(signedIn).catch(() => { $("login-name").focus(); });
})();
