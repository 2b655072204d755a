"""The print views (issue 27 item 4, dashboard/printing.py) printed to PDF by Debian's Chromium
(Playwright ``page.pdf()``, the A4 print stylesheet) and read back with pypdf: the page count and
size, and the names and numbers on the pages.

The tournament: the shared fixture swiss-002003-24p-10r (../shared/data/tiebreaks/swiss: a 24-player
10-round Dutch Swiss, the size of the 2013 U.S. Championship) written as log entries
(tests/trf_log.py), with the tie-breaks BH/C1, BH, SB. Every expected value comes from that
fixture: the names, ratings, pairings, colours and results of its TRF, and the tie-break values
FIDE's TieBreakServer computed for it (its ``.tiebreaks.tsv``). Saves the pages as
tests/browser/print-*.png for a look.
"""

from __future__ import annotations

import csv
import io
import math
import re
import uuid
from pathlib import Path

import pytest
from trf_log import trf_entries

from dashboard.app import create_app
from dashboard.arbiter.auth import Accounts
from services.eventlog import open_log
from services.tournament.trf import parse_trf
from venue.serve import serving

HERE = Path(__file__).resolve().parent
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]
LOGIN, PASSWORD = "chief", "C.07-print"
ENV = {"VENUE_ARBITERS": f"{LOGIN}:{PASSWORD}", "VENUE_SECRET": "test-secret-print"}
TIEBREAKS = ["BH/C1", "BH", "SB"]
A4_MM = (210, 297)  # ISO 216
POINTS = {"1": 1.0, "+": 1.0, "=": 0.5, "0": 0.0, "-": 0.0}


def pts(value: float) -> str:
    """Points as the sheets write them: 4, 4½, ½."""
    whole, half = divmod(round(value * 2), 2)
    return (str(whole) if whole or not half else "") + ("½" if half else "")


def figure(value: str) -> str:
    """A TSV value as the sheets write it: 56.50 -> 56.5, 61.0 -> 61."""
    return f"{float(value):.2f}".rstrip("0").rstrip(".")


def size_mm(page) -> tuple[int, int]:
    """A PDF page's size in whole millimetres (1 pt = 25.4/72 mm)."""
    return round(float(page.mediabox.width) * 25.4 / 72), round(float(page.mediabox.height) * 25.4 / 72)


def pdf_pages(data: bytes) -> list:
    from pypdf import PdfReader

    return list(PdfReader(io.BytesIO(data)).pages)


def lines_of(pages) -> list[str]:
    return [" ".join(line.split()) for p in pages for line in p.extract_text().splitlines()]


@pytest.fixture(scope="module")
def fixture(shared_data):
    trf_path = shared_data / "tiebreaks" / "swiss" / "swiss-002003-24p-10r.trf"
    trf = parse_trf(trf_path.read_text())
    with open(trf_path.with_suffix("").with_suffix(".tiebreaks.tsv"), newline="") as f:
        tsv = {int(r["StartNo"]): r for r in csv.DictReader(f, delimiter="\t")}
    return trf, tsv


async def printed(page, url: str, path: str) -> list:
    await page.goto(url + path)
    name = path.strip("/").replace("/", "-").split("?")[0]
    await page.screenshot(path=str(HERE / f"{name}.png"), full_page=True)
    return pdf_pages(await page.pdf(prefer_css_page_size=True, print_background=True))


@pytest.mark.browser
async def test_the_print_views_print_on_a4_with_the_fixtures_names_and_numbers(fixture):
    from playwright.async_api import async_playwright

    trf, tsv = fixture
    entries = trf_entries(trf)
    entries[0][1]["regulations"] = {"tiebreaks": TIEBREAKS}
    log = open_log("memory://", f"print-{uuid.uuid4().hex[:8]}")
    await log.append_many([(t, d, None) for t, d in entries])
    players = trf.players
    last = max(len(p.games) for p in players.values())  # the fixture's last round
    app = create_app(log, accounts=Accounts.load(None, ENV))
    async with serving(app) as url, async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            page = await browser.new_page(viewport={"width": 1200, "height": 1400})
            # the console's Print menu leads to the print views of the round
            await page.goto(url + "/arbiter")
            await page.fill("#login-name", LOGIN)
            await page.fill("#login-password", PASSWORD)
            await page.click("#login button[type=submit]")
            await page.wait_for_selector("#console:not([hidden])")
            menu = await page.eval_on_selector_all("#print-menu a", "els => els.map(e => e.getAttribute('href'))")
            assert "/print/pairings" in menu and "/print/slips" in menu and "/print/wall-chart" in menu

            # --- pairings by board: round 10 as the TRF pairs it, points before the round ---------------
            # White's start number -> his TRF game of the round, in the log's board order
            [setups] = [d["games"] for t, d in entries if t == "round_started" and d["round"] == str(last)]
            games = {s["white_no"]: players[s["white_no"]].game(last) for s in setups}
            boards = {s[f"{side}_no"]: int(s["board"]) for s in setups for side in ("white", "black")}
            before = {s: sum(POINTS[g.result] for g in p.games if g.round < last and g.result in POINTS)
                      for s, p in players.items()}
            sheet = await printed(page, url, f"/print/pairings?round={last}")
            assert len(sheet) == 1 and size_mm(sheet[0]) == A4_MM
            lines = lines_of(sheet)
            for white, g in games.items():
                w, b = players[white], players[g.opponent]
                result = {"1": "1 - 0", "0": "0 - 1", "=": "½ - ½", "+": "+ - -", "-": "- - +"}[g.result]
                row = (f"{boards[white]} {w.start_no} {w.name} {w.rating} {pts(before[white])} {result} "
                       f"{pts(before[b.start_no])} {b.name} {b.rating} {b.start_no}")
                assert row in lines, row
            assert len(games) == len(players) // 2  # 24 players, no bye: every one on a board

            # --- by name: every player once, alphabetical, with his board and colour ---------------------
            sheet = await printed(page, url, f"/print/pairings-by-name?round={last}")
            named = [line for line in lines_of(sheet) if re.match(r"Test\d{4} Player\d{4} \d+ ", line)]
            assert [line.split(" ")[1] for line in named] == sorted(p.name.split(" ")[1] for p in players.values())
            for line in named:
                sno = int(line.split(" ")[2])
                assert f" {boards[sno]} {'White' if sno in games else 'Black'} " in line, line

            # --- standings: FIDE's tie-break values, ranked by PTS then the event's order -----------------
            sheet = await printed(page, url, "/print/standings")
            ranked = sorted(tsv.values(), key=lambda r: [-float(r[c]) for c in ["PTS", *TIEBREAKS]])
            rows = [line for line in lines_of(sheet) if re.match(r"\d+ \d+ Test\d{4}", line)]
            assert [int(line.split(" ")[1]) for line in rows] == [int(r["StartNo"]) for r in ranked]
            for line, r in zip(rows, ranked):
                tail = " ".join([pts(float(r["PTS"])), *(figure(r[c]) for c in TIEBREAKS)])
                assert line.endswith(tail), (line, tail)
            legend = " ".join(lines_of(sheet))
            assert "TB1 Buchholz (Cut-1) (BH/C1)" in legend and "TB3 Sonneborn-Berger (SB)" in legend

            # --- wall chart: A4 landscape, every cell as the TRF writes it ------------------------------
            sheet = await printed(page, url, "/print/wall-chart")
            assert size_mm(sheet[0]) == A4_MM[::-1]
            rows = {int(line.split(" ")[1]): line for line in lines_of(sheet) if re.match(r"\d+ \d+ Test\d{4}", line)}
            assert len(rows) == len(players)
            for sno, p in players.items():
                cells = " ".join(f"{g.opponent}{g.color if g.result not in '+-' else ''}"
                                 f"{'½' if g.result == '=' else g.result}".replace(f"{g.opponent}+", f"{g.opponent} +")
                                 .replace(f"{g.opponent}-", f"{g.opponent} -") for g in p.games)
                assert f" {p.rating} {cells} {pts(float(tsv[sno]['PTS']))} " in rows[sno], (rows[sno], cells)

            # --- pairing cards: one a player, his rounds as the TRF has them -----------------------------
            sheet = await printed(page, url, f"/print/cards?round={last}")
            text = lines_of(sheet)
            for sno, p in players.items():
                assert text.count(f"{sno} {p.name} {p.rating}") == 1, p.name
            one = text.index(f"1 {players[1].name} {players[1].rating}")
            score = 0.0
            for g in players[1].games:
                score += POINTS[g.result]
                colour = {"w": "White", "b": "Black"}[g.color]
                result = {"1": "1", "0": "0", "=": "½"}[g.result]
                assert f"{g.round} {g.opponent} {players[g.opponent].name} {colour} {result} {pts(score)}" in text[
                    one:one + 14], g

            # --- result slips: a slip per board, eight to an A4 page -------------------------------------
            sheet = await printed(page, url, f"/print/slips?round={last}")
            assert len(sheet) == math.ceil(len(games) / 8)
            text = " ".join(lines_of(sheet))
            for white in games:
                assert f"Round {last} Board {boards[white]} White {white} {players[white].name}" in text
            assert text.count("Result: 1-0 ½-½ 0-1") == len(games)
        finally:
            await browser.close()
            await log.close()


@pytest.mark.browser
async def test_a_round_not_set_up_is_a_404_page_with_the_reason(fixture):
    from playwright.async_api import async_playwright

    trf, _ = fixture
    log = open_log("memory://", f"print-{uuid.uuid4().hex[:8]}")
    await log.append_many([(t, d, None) for t, d in trf_entries(trf)])
    async with serving(create_app(log, accounts=Accounts.load(None, ENV))) as url, async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            page = await browser.new_page()
            answer = await page.goto(url + "/print/pairings?round=11")
            assert answer.status == 404
            assert "Round 11 has not been set up (rounds set up: 1, 2, 3, 4, 5, 6, 7, 8, 9, 10)" in \
                await page.text_content("main")
            assert (await page.goto(url + "/print/pairings?round=ten")).status == 400
        finally:
            await browser.close()
            await log.close()
