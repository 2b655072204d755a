/* Standings and crosstable pages: draw /api/standings or /api/crosstable, and reload them when
   /ws/live reports a result ("game" message setting result/status), a new round ("round"), or a
   "standings" message; every 10 s as a safety net for arbiter corrections, every 2 s while the live
   feed is down. Nothing here acts: spectators only read. */
"use strict";

(() => {
  const page = document.body.dataset.page; // "standings" or "crosstable"
  const api = page === "crosstable" ? "/api/crosstable" : "/api/standings";
  const prov = document.getElementById("provisional");
  let live = false;
  let pending = null;

  const esc = (s) => String(s ?? "").replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));
  const half = (x) => {
    if (x === null || x === undefined) return "";
    const whole = Math.floor(x + 1e-9), frac = x - whole;
    if (Math.abs(frac - 0.5) < 1e-9) return (whole ? whole : "") + "\u00bd";
    return Number.isInteger(x) ? String(x) : x.toFixed(2);
  };
  const money = (text) => { const n = Number(text); return Number.isFinite(n) ? n.toLocaleString("en-US") : esc(text); };
  const DEC = { PTS: 1, BH: 1, KS: 1, KSX: 1, SB: 2 };
  const tb = (code, v) => {
    if (v === null || v === undefined) return "";
    const d = DEC[code.split("/")[0]];
    return d ? Number(v).toFixed(d) : String(Math.round(v));
  };

  function setConn(text, cls) {
    const el = document.getElementById("conn");
    if (el) { el.textContent = text; el.className = "conn " + cls; }
  }

  function drawStandings(d) {
    const table = document.getElementById("standings");
    const codes = d.tiebreaks.filter((c) => c !== "PTS");
    table.tHead.innerHTML = "<tr><th class=\"rank\">#</th><th class=\"num\">No</th><th>Player</th><th class=\"num\">Rtg</th>"
      + "<th class=\"num\" title=\"live FIDE rating change, games finished so far\">&plusmn;</th><th class=\"num\">Pts</th><th class=\"num\">Games</th>" + codes.map((c) => `<th class="num">${esc(c)}</th>`).join("") + "</tr>";
    table.tBodies[0].innerHTML = d.rows.map((r) => `<tr class="${r.rank === 1 ? "first" : ""}${r.provisional ? " prov" : ""}">`
      + `<td class="rank">${r.rank}</td><td class="num">${r.start_no}</td>`
      + `<td class="name">${esc(r.name)}${r.at_board === "playing" ? "<span class=\"st-live\">playing</span>"
        : r.at_board === "waiting" ? "<span class=\"st-live st-waiting\">waiting</span>" : ""}</td>`
      + `<td class="num">${r.rating ?? ""}</td><td class="num rchg">${esc(r.rating_change ?? "")}</td><td class="num pts">${half(r.points)}</td><td class="num">${r.played}</td>`
      + codes.map((c) => `<td class="num">${tb(c, r.tiebreaks[c])}</td>`).join("") + "</tr>").join("");
    drawPrizes(d);
    drawPlayoff(d.playoff);
  }

  function drawPrizes(d) {
    const box = document.getElementById("prizes-box");
    if (!box) return;
    const p = d.prizes;
    box.hidden = !p || !p.awards.length;
    if (box.hidden) return;
    const t = document.getElementById("prizes");
    t.tHead.innerHTML = "<tr><th>Place</th><th>Player</th><th class=\"num\">Prize</th><th class=\"num\">Fines</th><th class=\"num\">Paid</th><th>Note</th></tr>";
    t.tBodies[0].innerHTML = p.awards.map((a) => `<tr><td>${a.places.join("\u2013")}</td><td class="name">${esc(a.name)}</td>`
      + (a.pending ? `<td class="num">—</td><td class="num"></td><td class="num pts">held</td>`
        : `<td class="num">${money(a.gross)} ${esc(p.currency)}</td><td class="num">${a.fines === "0" ? "" : money(a.fines)}</td>`
        + `<td class="num pts">${money(a.net)}</td>`) + `<td>${esc(a.note)}</td></tr>`).join("");
  }

  function drawPlayoff(po) {
    const box = document.getElementById("playoff-box");
    if (!box) return;
    box.hidden = !po;
    if (!po) return;
    const said = (po.how || []).map((h) => `<p class="po-stage po-how">${esc(h)}</p>`).join("")
      + (po.played || []).map((s) => `<p class="po-stage po-played">Stage ${s.stage}, ${esc(s.name)}: `
        + s.games.map((g) => `${g.white}–${g.black} ${esc(g.result)}`).join(", ") + "</p>").join("");
    document.getElementById("playoff").innerHTML = `<p class="po-stage">${esc(po.names.join(", "))}: ${esc(po.summary)}</p>` + said
      + po.stages.map((s) => `<div class="po-stage"><h3>${esc(s.name)}</h3>`
        + (s.condition !== "always" ? `<div class="po-cond">if ${esc(s.condition)}</div>` : "")
        + (s.quote ? `<div class="po-quote">${esc(s.quote)}</div>` : "") + "</div>").join("");
  }

  // A checkers match round (two games, colours reversed in game 2): each game's result with the
  // colour played; shaded by the match score (both games' points) once both games are over.
  function matchCell(c, word) {
    const done = c.games.every((g) => g.code !== " ");
    const cls = ["cell", "match", done && c.points > 1 ? "win" : "", done && c.points < 1 ? "loss" : ""].join(" ");
    const opp = c.opponent ? `<span class="opp">${c.opponent}</span>` : "";
    const games = c.games.map((g, i) => `<span class="game" title="game ${i + 1}${g.color ? ", " + (g.color === "w" ? "White" : "Black (Red)") : ""}">`
      + `${g.code === " " ? "&middot;" : (word[g.code] ?? esc(g.code))}<sub>${esc(g.color || "")}</sub></span>`).join("");
    return `<td class="${cls}" title="${esc(c.text)}">${opp}${games}</td>`;
  }

  function drawCrosstable(d) {
    const table = document.getElementById("crosstable");
    const codes = d.tiebreaks.filter((c) => c !== "PTS");
    const rounds = Array.from({ length: d.rounds }, (_, i) => i + 1);
    table.tHead.innerHTML = "<tr><th class=\"rank\">#</th><th class=\"num\">No</th><th>Player</th>"
      + rounds.map((r) => `<th class="num">R${r}</th>`).join("") + "<th class=\"num\">Pts</th>"
      + codes.map((c) => `<th class="num">${esc(c)}</th>`).join("") + "</tr>";
    const word = { "1": "1", "0": "0", "=": "\u00bd", "+": "+", "-": "\u2013", "U": "bye", "H": "\u00bd bye", "F": "bye", "Z": "0 bye", " ": "" };
    table.tBodies[0].innerHTML = d.rows.map((r) => `<tr class="${r.rank === 1 ? "first" : ""}"><td class="rank">${r.rank}</td>`
      + `<td class="num">${r.start_no}</td><td class="name">${esc(r.name)}</td>`
      + r.cells.map((c) => {
        if (c.games) return matchCell(c, word);
        const cls = ["cell", c.color || "", c.code === "1" || c.code === "+" ? "win" : "", c.code === "0" || c.code === "-" ? "loss" : "",
          "+-UHFZ".includes(c.code) && c.code !== " " ? "unplayed" : ""].join(" ");
        const opp = c.opponent ? `<span class="opp">${c.opponent}</span>` : "";
        // Norway Chess: the cell shows the event's points (3, 1½, 1, 0); the title keeps the TRF code
        const shown = d.scoring === "norway-armageddon" && c.code !== " " ? half(c.points) || "0" : (word[c.code] ?? esc(c.code));
        return `<td class="${cls}" title="${esc(c.text)}">${opp}${shown}</td>`;
      }).join("")
      + `<td class="num pts">${half(r.total)}</td>` + codes.map((c) => `<td class="num">${tb(c, r.tiebreaks[c])}</td>`).join("") + "</tr>").join("");
  }

  async function load() {
    pending = null;
    try {
      const res = await fetch(`${api}?provisional=${prov && prov.checked ? 1 : 0}`, { cache: "no-store" });
      const d = await res.json();
      const note = document.getElementById("st-note");
      if (!res.ok) { if (note) note.textContent = d.error || res.statusText; return; }
      if (note) note.textContent = d.provisional ? "provisional: games in progress counted as draws" : "";
      document.getElementById("empty").hidden = d.round > 0;
      const rn = document.getElementById("round-name");
      if (rn && d.round) rn.textContent = `Round ${d.round}` + (d.rounds_total ? ` of ${d.rounds_total}` : "");
      if (page === "crosstable") drawCrosstable(d); else drawStandings(d);
    } catch (e) { /* the next message or poll tries again */ }
  }

  function soon() { if (!pending) pending = setTimeout(load, 150); }

  function matters(m) {
    if (m.type === "round" || m.type === "standings") return true;
    if (m.type !== "game" || !m.set) return false;
    return "result" in m.set || m.set.status === "ended";
  }

  function connect() {
    let retry = 500;
    const open = () => {
      const proto = location.protocol === "https:" ? "wss" : "ws";
      const ws = new WebSocket(`${proto}://${location.host}/ws/live`);
      ws.onopen = () => { retry = 500; live = true; setConn("live", "conn-live"); soon(); };
      ws.onmessage = (ev) => {
        try {
          const data = JSON.parse(ev.data); // one message, or an array of them (dashboard/live.py)
          if ((Array.isArray(data) ? data : [data]).some(matters)) soon();
        } catch (e) { /* not JSON */ }
      };
      ws.onclose = () => {
        live = false;
        setConn("reconnecting", "conn-wait");
        setTimeout(open, retry);
        retry = Math.min(retry * 2, 8000);
      };
    };
    open();
  }

  let ticks = 0;
  setInterval(() => { ticks += 1; if (!live || ticks % 5 === 0) soon(); }, 2000);
  if (prov) prov.addEventListener("change", load);
  load();
  connect();
})();
