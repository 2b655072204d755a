"""Issue 27 item 6, the layout items: a standings table wider than a 390 px phone says it scrolls;
players' names on the hall's cards at 1366 px are shown whole (two lines at most), not cut; a
checkers game page shows the squares' numbers as chips and the last move's squares highlighted.

Sources: the demo round (FIDE Candidates 2024, round 5: venue/data) for the hall's names;
events/us-championship-2013.toml for the standings; London 1992 game 25 (../shared/data/checkers/
tinsley.pdn, record 700), whose 11th ply is 4-8, for the checkers page.
"""

from __future__ import annotations

import asyncio
import uuid
from pathlib import Path

import pytest
from checkers_entries import items

from dashboard.app import create_app
from services.eventlog import open_log
from services.arbiter_office.round_from_file import round_from_tournament
from services.arbiter_office.setup import round_from_pgn
from services.arbiter_office.tournament_log import tournament_registered_data
from services.regulations.tournament_file import load_tournament
from services.rules.checkers_pdn import read_pdn
from venue.demo_run import demo_round_text
from venue.serve import serving

EVENTS = Path(__file__).resolve().parents[2] / "events"
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu"]


async def _logs(shared_data: Path):
    t = load_tournament((EVENTS / "us-championship-2013.toml").read_text(), "us-championship-2013.toml")
    standings = open_log("memory://", f"lay-{uuid.uuid4().hex[:6]}")
    await standings.append("tournament_registered", tournament_registered_data(t))
    await standings.append("round_started", round_from_tournament(t, 1, start_ms=1_000))
    hall = open_log("memory://", f"lay-{uuid.uuid4().hex[:6]}")
    await hall.append("round_started", round_from_pgn(demo_round_text()))
    checkers = open_log("memory://", f"lay-{uuid.uuid4().hex[:6]}")
    record = read_pdn((shared_data / "checkers" / "tinsley.pdn").read_text())[700]
    await checkers.append_many(items(record)[:12])  # the round and 11 plies
    return standings, hall, checkers


@pytest.mark.browser
async def test_tables_names_and_checkers_squares(shared_data):
    from playwright.async_api import async_playwright

    standings, hall, checkers = await _logs(shared_data)
    async with serving(create_app(standings)) as s_url, serving(create_app(hall)) as h_url, \
            serving(create_app(checkers)) as c_url, async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            phone = await browser.new_page(viewport={"width": 390, "height": 800})
            await phone.goto(s_url + "/standings")
            await phone.wait_for_selector("#standings tbody tr")
            wide = await phone.evaluate("() => { const s = document.querySelector('#standings').closest('.st-scroll');"
                                        " return [s.scrollWidth > s.clientWidth,"
                                        " getComputedStyle(s, '::before').content]; }")
            assert wide[0] and "Swipe sideways for more columns" in wide[1]

            laptop = await browser.new_page(viewport={"width": 1366, "height": 900})
            await laptop.goto(h_url + "/")
            await laptop.wait_for_selector(".player .name")
            await asyncio.sleep(0.3)
            cut = await laptop.eval_on_selector_all(
                ".player .name", "els => els.filter(e => e.scrollHeight > e.clientHeight + 1 || "
                                 "e.scrollWidth > e.clientWidth + 1).map(e => e.textContent)")
            names = await laptop.eval_on_selector_all(".player .name", "els => els.map(e => e.textContent)")
            assert cut == [] and "Nepomniachtchi, Ian" in names

            game = await browser.new_page(viewport={"width": 1000, "height": 900})
            await game.goto(c_url + "/game/1-1.1")
            await game.wait_for_selector("#sq-numbers span.last")
            last = await game.eval_on_selector_all("#sq-numbers span.last", "els => els.map(e => e.textContent)")
            assert sorted(last, key=int) == ["4", "8"]
            chip = await game.evaluate("() => getComputedStyle(document.querySelector('#sq-numbers span')).backgroundColor")
            assert chip != "rgba(0, 0, 0, 0)"
        finally:
            await browser.close()
            for log in (standings, hall, checkers):
                await log.close()
