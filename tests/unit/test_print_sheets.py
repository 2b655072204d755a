"""The print views' content (services.views.print_sheets through dashboard/printing.py), read from
the HTML the dashboard serves; the PDFs themselves are tests/browser/test_print_views.py.

Fixtures: the XX Open Internacional de Gros 2010 after round 4 (../shared/data/trf: a real Swiss
with half-point byes and forfeits) and the round robin rr-000101-13p (../shared/data/tiebreaks:
13 players, FIDE's TieBreakServer values), written as log entries (tests/trf_log.py). Expected
values are the TRFs' own entries and the TieBreakServer's table.
"""

from __future__ import annotations

import asyncio
import csv
import html
import re
import time

import pytest
from starlette.testclient import TestClient
from trf_log import trf_entries

from dashboard.app import create_app
from services.eventlog.memory import MemoryLog
from services.tournament.trf import parse_trf

GROS = "xx_open_internacional_de_gros_2010_after_r5.trf"


def client_for(entries: list[tuple[str, dict]]) -> TestClient:
    log = MemoryLog("print-sheets")
    asyncio.run(log.append_many([(t, d, None) for t, d in entries]))
    return TestClient(create_app(log))


def text_of(page: str) -> str:
    """The page's text, one line per table row, cells separated by single spaces."""
    rows = re.sub(r"</tr>|<br>|</h\d>|</p>", "\n", page)
    return "\n".join(" ".join(html.unescape(re.sub(r"<[^>]+>", " ", line)).split()) for line in rows.splitlines())


def ready(client: TestClient, rounds: int) -> None:
    deadline = time.monotonic() + 10
    while client.get("/api/standings").json().get("round") != rounds and time.monotonic() < deadline:
        time.sleep(0.05)


@pytest.fixture(scope="module")
def gros(shared_data):
    trf = parse_trf((shared_data / "trf" / GROS).read_text())
    with client_for(trf_entries(trf)) as client:
        ready(client, 4)
        yield client, trf


def test_byes_and_forfeits_are_printed_as_the_trf_has_them(gros):
    client, trf = gros
    # round 3: Riesco Lecuona (14) and Bello Castano (16) took half-point byes ("0000 - H")
    sheet = text_of(client.get("/print/pairings?round=3").text)
    for sno in (14, 16):
        p = trf.players[sno]
        before = sum({"1": 1, "+": 1, "=": 0.5}.get(g.result, 0) for g in p.games[:2])
        assert f"{sno} {p.name} {p.rating} {before:g} half-point bye" in sheet
    # round 1: 13 beat 39 by forfeit ("39 w +"): "+ - -"; 42 lost to 16 by forfeit ("42 b +" for 16)
    sheet = text_of(client.get("/print/pairings?round=1").text)
    assert re.search(rf"\b13 {re.escape(trf.players[13].name)} 1973 0 \+ - - 0 {re.escape(trf.players[39].name)}", sheet)
    by_name = text_of(client.get("/print/pairings-by-name?round=3").text)
    assert f"{trf.players[14].name} 14 1931 1 half-point bye" in by_name  # 40 b 1, 3 w 0 before it


def test_the_pairing_card_runs_the_score_round_by_round(gros):
    client, trf = gros
    text = text_of(client.get("/print/cards?round=4").text)
    p = trf.players[16]  # 42 b + / 5 w 0 / 0000 - H / 27 w 1: 1, 1, 1½, 2½
    card = text[text.index(f"\n16 {p.name} {p.rating}\n"):]  # the card of 16 (trf_log registers no federation)
    # a forfeit is no game played: no colour (FIDE C.04.1 unplayed games do not count for colours)
    assert f"1 42 {trf.players[42].name} + (forfeit win) 1" in card
    assert f"2 5 {trf.players[5].name} White 0 1" in card
    assert "3 half-point bye 1½" in card
    assert f"4 27 {trf.players[27].name} White 1 2½" in card


def test_a_round_robin_wall_chart_is_square(shared_data):
    path = shared_data / "tiebreaks" / "round-robin" / "rr-000101-13p.trf"
    trf = parse_trf(path.read_text())
    entries = trf_entries(trf)
    entries[0][1].update(system="round-robin", regulations={"tiebreaks": ["DE", "BPG", "KS", "SB", "WON", "WIN"]})
    with open(path.with_suffix("").with_suffix(".tiebreaks.tsv"), newline="") as f:
        tsv = {int(r["StartNo"]): r for r in csv.DictReader(f, delimiter="\t")}
    rounds = max(len(p.games) for p in trf.players.values())
    with client_for(entries) as client:
        ready(client, rounds)
        page = client.get("/print/wall-chart").text
    assert 'class="list wall square"' in page
    marks = {"1": "1", "0": "0", "=": "½", "+": "+", "-": "-"}
    rows = {int(r.split(" ")[1]): r for r in text_of(page).splitlines() if re.match(r"\d+ \d+ \S", r)}
    for sno, p in trf.players.items():
        against = {g.opponent: marks[g.result] for g in p.games if g.opponent}
        cells = " ".join(against.get(o, "") for o in sorted(trf.players) if o != sno)
        assert " ".join(rows[sno].split()).find(cells) > 0, (rows[sno], cells)
        # rank and points as FIDE's TieBreakServer has them (PTS, then DE, BPG, KS, SB, WON, WIN)
        assert rows[sno].startswith(f"{tsv[sno]['Rank']} {sno} ")


def test_names_are_escaped_and_bad_rounds_refused(shared_data):
    """Autoescape: a name with markup is printed as text (docs/arbiter.md "Security")."""
    trf = parse_trf((shared_data / "trf" / GROS).read_text())
    entries = trf_entries(trf)
    for p in entries[0][1]["players"]:
        if p["start_no"] == 1:
            p["name"] = "<script>alert(1)</script> Mirzoev"
    for _, data in entries[1:]:
        for g in data.get("games", ()):
            for side in ("white", "black"):
                if g.get(f"{side}_no") == 1:
                    g[side] = "<script>alert(1)</script> Mirzoev"
    with client_for(entries) as client:
        ready(client, 4)
        for path in ("/print/pairings?round=1", "/print/pairings-by-name?round=1", "/print/standings",
                     "/print/wall-chart", "/print/cards?round=1", "/print/slips?round=1"):
            page = client.get(path)
            assert page.status_code == 200 and "<script>alert" not in page.text, path
            assert "&lt;script&gt;alert(1)&lt;/script&gt; Mirzoev" in page.text, path
        missing = client.get("/print/slips?round=7")
        assert missing.status_code == 404 and "Round 7 has not been set up (rounds set up: 1, 2, 3, 4)" in missing.text
        assert client.get("/print/cards?round=four").status_code == 400
