// The arbiter's "Round" panel (docs/pairing.md "The round's life cycle", docs/arbiter.md "Results"):
// registration before round 1, the next round paired into a draft, exchanges, publish, start,
// and result slips for any game of any round. Reads GET /api/arbiter/round-tools; every button is
// one POST /api/arbiter/actions naming the draft version shown, so a draft another arbiter changed
// meanwhile is refused (409) rather than published unseen.
(function () {
  "use strict";
  const $ = (id) => document.getElementById(id);
  const CSRF = document.querySelector('meta[name="csrf-token"]').content;
  const TYPES = new Set(["pairing_drafted", "pairing_swapped", "pairing_published", "players_registered",
                         "player_entered", "player_withdrew", "bye_requested", "bye_request_cancelled"]);
  let tools = null;

  function esc(s) { return String(s == null ? "" : s).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c])); }
  function toast(text) {
    const t = document.createElement("div"); t.className = "toast"; t.textContent = text;
    t.style.bottom = (16 + 48 * document.querySelectorAll(".toast").length) + "px";
    document.body.appendChild(t); setTimeout(() => t.remove(), 3500);
  }
  async function post(body) {
    const r = await fetch("/api/arbiter/actions", { method: "POST", credentials: "same-origin", body: JSON.stringify(body),
      headers: { "Content-Type": "application/json", "X-CSRFToken": CSRF } });
    let data = {};
    try { data = await r.json(); } catch (e) { /* empty */ }
    if (!r.ok) { const e = new Error(data.error || ("HTTP " + r.status)); e.status = r.status; throw e; }
    return data;
  }
  const lastSeq = (r) => Math.max(0, ...(r.entries || []).map((e) => e.seq));
  // the dashboard folds an action's entry as it follows the log: ask until it has
  async function load(seq) {
    for (let i = 0; i < 40; i++) {
      const r = await fetch("/api/arbiter/round-tools", { credentials: "same-origin" });
      if (!r.ok) return;
      tools = await r.json();
      if (!seq || tools.seq >= seq) break;
      await new Promise((res) => setTimeout(res, 150));
    }
    render();
  }

  const SYSTEMS = { "swiss-dutch": "Dutch, C.04.3", "round-robin": "Berger, C.05", "double-round-robin": "Berger, C.05" };
  const CODES = { U: "pairing-allocated bye", H: "half-point bye", F: "full-point bye", Z: "zero-point bye" };
  function round() { return tools && tools.next_round; }
  function label(sno, name) { return `${sno} \u00b7 ${name || "#" + sno}`; }

  function render() {
    const panel = $("round-cycle"), t = tools;
    panel.hidden = !t || !t.event;
    if (panel.hidden) return;
    const d = t.draft, rnd = t.next_round;
    const before = t.latest_round === 0 && !d;
    // the page head as the log stands now (it was drawn once, at load: "Round 1" after round 2 started)
    $("event-name").textContent = t.event;
    $("event-round").textContent = t.latest_round ? `Round ${t.latest_round}` : "";
    for (const f of panel.querySelectorAll(".rc-before")) f.hidden = !before;
    for (const f of panel.querySelectorAll(".rc-draft")) f.hidden = !d || d.started;
    $("rc-system").textContent = SYSTEMS[t.system] || t.system || "";
    $("rc-head").textContent = rnd ? `next: round ${rnd} of ${t.rounds_total}` + (t.latest_round ? ` \u00b7 round ${t.latest_round} started` : "")
      : "every round has started";
    $("rc-pair").hidden = !rnd;
    $("rc-pair-button").textContent = d ? `Pair round ${rnd} again` : `Pair round ${rnd}`;
    const status = [];
    if (before) status.push(`${t.players.length} player(s) registered` + (t.roster ? " (start numbers by rating, title, name: C.04.2)" : ""));
    if (d) {
      const state = d.started ? "started" : d.is_published ? "published" : d.published ? `changed since version ${d.published} was published` : "draft, not published";
      status.push(`<b>Round ${d.round}, version ${d.version}: ${esc(state)}</b>` + (d.drafted_by ? ` \u00b7 paired by ${esc(d.drafted_by)}` : ""));
      if ((d.outdated || []).length && !d.started) status.push(`<span class="error" id="rc-outdated">Paired before the result of ${d.outdated.map(esc).join(", ")} changed: it reads the old result. Pair round ${d.round} again before publishing or starting it.</span>`);
      for (const r of d.refused || []) status.push(`<span class="error">Refused: ${esc(r.type.replace(/_/g, " "))} by ${esc(r.by)} on version ${r.version} (the draft was at ${r.draft_version})</span>`);
    }
    $("rc-status").innerHTML = status.map((x) => `<div>${x}</div>`).join("");
    const outdated = !!(d && (d.outdated || []).length);
    $("rc-publish-button").disabled = !d || d.is_published || outdated;
    $("rc-start").disabled = !d || !d.is_published || outdated;
    renderDraft(d);
    const slip = $("rc-slip");
    if (!slip.elements.round.value && t.latest_round) slip.elements.round.placeholder = String(t.latest_round);
  }

  function renderDraft(d) {
    const box = $("rc-draft");
    if (!d) { box.innerHTML = ""; return; }
    const rows = d.boards.map((b) => `<tr data-board="${esc(b.board)}"><td class="num">${esc(b.board)}</td>
      <td>${esc(label(b.white_no, b.white))}</td><td>${esc(label(b.black_no, b.black))}</td>
      <td><span class="rule">${esc(b.colour_rule)}</span></td><td class="reasons">${(b.reasons || []).map(esc).join("<br>")}</td></tr>`);
    const byes = d.byes.map((y) => `<tr class="bye"><td class="num">bye</td><td colspan="2">${esc(label(y.start_no, y.player))}</td>
      <td><span class="rule">${esc(y.code)}</span></td><td class="reasons">${esc(CODES[y.code] || y.code)}: ${(y.reasons || []).map(esc).join("; ")}</td></tr>`);
    box.innerHTML = `<table class="draft"><thead><tr><th>Board</th><th>White</th><th>Black</th><th>Colour</th><th>Why</th></tr></thead>
      <tbody>${rows.concat(byes).join("")}</tbody></table>`;
    const players = d.boards.flatMap((b) => [[b.white_no, b.white], [b.black_no, b.black]])
      .concat(d.byes.filter((y) => y.code === "U").map((y) => [y.start_no, y.player]))
      .sort((x, y) => x[0] - y[0]);
    const opts = '<option value=""></option>' + players.map(([s, n]) => `<option value="${s}">${esc(label(s, n))}</option>`).join("");
    for (const sel of document.querySelectorAll("#rc-swap .rc-player")) { const keep = sel.value; sel.innerHTML = opts; sel.value = keep; }
    const boards = '<option value=""></option>' + d.boards.map((b) => `<option>${esc(b.board)}</option>`).join("");
    const bsel = document.querySelector("#rc-swap .rc-board"); const keep = bsel.value; bsel.innerHTML = boards; bsel.value = keep;
  }

  function fail(form, e) {
    form.querySelector(".error").textContent = (e.status === 409 ? "The draft changed: " : "") + e.message;
    if (e.status === 409) load();
  }
  function wire(id, body, done) {
    const form = $(id);
    form.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      const button = form.querySelector("button[type=submit]");
      form.querySelector(".error").textContent = "";
      button.disabled = true;
      try {
        const r = await post(await body(form));
        toast("Recorded: " + form.dataset.act.replace(/_/g, " "));
        if (done) done(form, r);
        await load(lastSeq(r));
      } catch (e) { fail(form, e); } finally { button.disabled = false; render(); }
    });
  }
  const num = (x) => (x === "" || x == null ? undefined : Number(x));
  const version = () => (tools && tools.draft ? tools.draft.version : 0);

  wire("rc-import", async (form) => {
    const file = $("rc-file").files[0];
    if (!file) throw new Error("choose a file first");
    return { action: "import_players", filename: file.name, text: await file.text() };
  }, (form) => { $("rc-file").value = ""; });
  wire("rc-register", (form) => {
    const f = Object.fromEntries(new FormData(form).entries());
    return { action: "register_player", name: f.name.trim(), rating: num(f.rating), title: f.title, fide_id: f.fide_id, federation: f.federation };
  }, (form) => form.reset());
  wire("rc-pair", () => ({ action: "pair_round", round: round(), version: tools.draft ? version() : undefined }));
  wire("rc-swap", (form) => {
    const f = Object.fromEntries(new FormData(form).entries());
    const body = { action: "swap_pairing", round: round(), version: version(), reason: f.reason, override: !!f.override };
    if (f.a || f.b) body.players = [num(f.a), num(f.b)];
    else { body.board = f.board; body.white = num(f.white); body.black = num(f.black); }
    return body;
  }, (form) => form.reset());
  wire("rc-publish", () => ({ action: "publish_pairing", round: round(), version: version() }));
  $("rc-start").addEventListener("click", async () => {
    const form = $("rc-publish"), at = $("rc-start-at").value;
    form.querySelector(".error").textContent = "";
    try {
      const r = await post({ action: "start_round", round: round(), version: version(),
                             start_ms: at ? new Date(at).getTime() : undefined });
      toast(`Round ${round()} started`);
      await load(lastSeq(r));
    } catch (e) { fail(form, e); }
  });
  wire("rc-slip", (form) => {
    const f = Object.fromEntries(new FormData(form).entries());
    form.querySelector(".rc-notice").textContent = "";
    return { action: "enter_result", round: num(f.round || (tools && tools.latest_round)), board: f.board.trim(), part: f.part,
             result: f.result.trim(), how: f.result.trim() === "*" ? undefined : f.how,
             termination: f.how === "board" ? f.termination.trim() : undefined };
  }, (form, r) => {
    form.querySelector(".rc-notice").textContent = r.notice ? "Note: " + r.notice : "Result recorded.";
    form.elements.board.value = ""; form.elements.result.value = "";
  });

  document.addEventListener("venue:arbiter", (ev) => {
    const m = ev.detail;
    if (m.type === "snapshot" || m.type === "hall" || (m.type === "action" && TYPES.has(m.action.type))) load(m.seq);
  });
})();
