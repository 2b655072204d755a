// The arbiter's "Event's end" panel (dashboard/templates/_playoff.html, docs/arbiter.md "Play-off"):
// where the play-off stands (GET /api/standings: "playoff" status, next stage, stages played) and
// one POST /api/arbiter/actions per form; a refusal shows the regulations' words.
(function () {
  "use strict";
  const $ = (id) => document.getElementById(id);
  const CSRF = document.querySelector('meta[name="csrf-token"]').content;
  const TYPES = new Set(["playoff_stage_started", "armageddon_bid", "lots_drawn", "blitz_order_recorded",
                         "pairing_number_chosen", "game_ended", "armageddon_decided", "arbiter_decision"]);
  function esc(s) { return String(s == null ? "" : s).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c])); }
  async function post(body) {
    const r = await fetch("/api/arbiter/actions", { method: "POST", credentials: "same-origin", body: JSON.stringify(body),
      headers: { "Content-Type": "application/json", "X-CSRFToken": CSRF } });
    let data = {};
    try { data = await r.json(); } catch (e) { /* empty */ }
    if (!r.ok) throw new Error(data.error || ("HTTP " + r.status));
    return data;
  }
  const nums = (text) => String(text || "").split(/[,\s]+/).filter(Boolean).map(Number);
  const num = (x) => (x === "" || x == null ? undefined : Number(x));
  function ms(text) {  // "38:30" -> ms; digits alone are minutes
    const m = String(text || "").trim().match(/^(\d+)(?::(\d{1,2}))?$/);
    if (!m) throw new Error(`a bid is minutes:seconds (e.g. 38:30), not ${JSON.stringify(text)}`);
    return (Number(m[1]) * 60 + Number(m[2] || 0)) * 1000;
  }
  function pairs(text) {  // "2: 1, 1: 2" -> {"2": 1, "1": 2}
    const out = {};
    for (const part of String(text || "").split(",").map((x) => x.trim()).filter(Boolean)) {
      const m = part.match(/^(\d+)\s*[:=]\s*(\d+)$/);
      if (!m) throw new Error(`write each lot as start number: lot, not ${JSON.stringify(part)}`);
      out[m[1]] = Number(m[2]);
    }
    return out;
  }

  async function load() {
    let d;
    try { d = await (await fetch("/api/standings", { credentials: "same-origin" })).json(); } catch (e) { return; }
    const po = d.playoff, names = Object.fromEntries((d.rows || []).map((r) => [r.start_no, r.name]));
    const who = (s) => `${s} ${names[s] || ""}`.trim();
    $("po-head").textContent = po ? `play-off: ${po.status || "plan"}` : (d.finished ? "no play-off" : "the event is not over");
    const lines = [];
    if (po) {
      lines.push(`Tied: ${po.players.map(who).map(esc).join(", ")} \u00b7 ${esc(po.summary)}`);
      for (const s of po.played || []) {
        lines.push(`<b>Stage ${s.stage} (${esc(s.round)}): ${esc(s.name)}</b> ` + s.games.map((g, i) =>
          `${i + 1}. ${esc(who(g.white))} \u2013 ${esc(who(g.black))} (board ${esc(g.board)}) ${esc(g.result)}`).join("; "));
      }
      for (const h of po.how || []) lines.push(esc(h));
      if (po.next) {
        const n = po.next;
        lines.push(`<b>Next: stage ${n.stage}, ${esc(n.name)}</b> (${esc(n.colours)} colours) \u00b7 <span class="muted">${esc(n.quote)}</span>`);
        $("po-start").elements.stage.value = n.stage;
        $("po-bid").elements.stage.value = n.stage;
        $("po-start").querySelector(".po-tc").hidden = !!n.time_control || n.colours === "bid";
        $("po-start").querySelector(".po-pair").hidden = !n.pair_by_arbiter;
      }
      if (po.status === "arbiter_decides") lines.push(`<b>The arbiter's turn:</b> ${esc(po.reason)}`);
      if (po.status === "decided") lines.push(`<b>Decided:</b> ${po.order.map(who).map(esc).join(", ")}`);
    }
    $("po-status").innerHTML = lines.map((x) => `<div>${x}</div>`).join("");
    // only the forms this event can use now (a new user found the play-off's on a plain Swiss): the
    // play-off's once there is one, the bid where a stage's colours are bid, the Blitz order and the
    // pairing numbers before the first round where the regulations have them (Norway); the lots always
    // (C.07's last tie-break)
    const bid = !!(po && po.next && po.next.colours === "bid");
    $("po-start").hidden = $("po-result").hidden = !po;
    $("po-bid").hidden = !bid;
    $("po-blitz").hidden = $("po-choose").hidden = !!d.round || !d.numbers_chosen;
  }

  function wire(id, body) {
    const form = $(id);
    form.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      const err = form.querySelector(".error");
      err.textContent = "";
      try {
        const f = Object.fromEntries(new FormData(form).entries());
        await post(body(f));
        await load();
      } catch (e) { err.textContent = e.message; }
    });
  }
  wire("po-start", (f) => ({ action: "start_playoff_stage", stage: num(f.stage), boards: nums(f.boards).map(String),
    time_control: f.time_control || undefined, players: f.players ? nums(f.players) : undefined,
    start_ms: f.start_at ? new Date(f.start_at).getTime() : undefined }));
  wire("po-result", (f) => ({ action: "enter_playoff_result", stage: num(f.stage), game: num(f.game), result: f.result.trim(), how: f.how }));
  wire("po-bid", (f) => ({ action: "armageddon_bid", stage: num(f.stage), colour: f.colour, coin_toss_winner: num(f.coin),
    bids: { [f.a]: ms(f.a_bid), [f.b]: ms(f.b_bid) } }));
  wire("po-lots", (f) => ({ action: "draw_lots", purpose: f.purpose, stage: num(f.stage), numbers: pairs(f.numbers) }));
  wire("po-blitz", (f) => ({ action: "record_blitz_order", order: nums(f.order), source: f.source }));
  wire("po-choose", (f) => ({ action: "choose_pairing_number", start_no: num(f.start_no), number: num(f.number) }));

  document.addEventListener("venue:arbiter", (ev) => {
    const m = ev.detail;
    // "hall": a new round's boards (the Round panel follows it the same way)
    if (m.type === "snapshot" || m.type === "hall" || (m.type === "action" && TYPES.has(m.action.type))) load();
  });
  load();
})();
