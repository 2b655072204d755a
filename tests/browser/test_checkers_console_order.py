"""A checkers game's lines in the arbiter's console read in the field's order: the player with the
first move (Black, Red on the boards: docs/checkers.md) first, the score in the same order as the
names, and who won in words beside it, so "1-0" is never read the other way round (a new user's
console: the referee's lines named Black first with Black's score first while the hall's tiles
named White first with White's: consistent each, easy to misread side by side).

The game: Tinsley's file (../shared/data/checkers/tinsley.pdn), its third game, US National 1946,
Black E Fuller, White MF Tinsley, PDN Result "1-0" (PDN writes the first player's, Black's, score
first: docs/checkers.md "Results"; the venue's code is "0-1"), replayed as game 1 of a Master
division match of the 11-Man National 2017 on board 1 (tests/checkers_entries.py).
Expected, as the game page's title and the PDN export name them: "E Fuller – MF Tinsley", "1-0",
"E Fuller won". The alert is the match's ``match_game_ready`` for game 2 (docs/events.md), colours
reversed (X.A.b).

Screenshot: tests/browser/checkers-console-order.png.
"""

from __future__ import annotations

import uuid
from pathlib import Path

import pytest
from checkers_entries import items
from page_server import ARGS, CHROMIUM, arbiter_console

from dashboard.app import create_app
from dashboard.arbiter.auth import Accounts
from services.eventlog import open_log
from services.rules.checkers_pdn import read_pdn
from venue.serve import serving

pytestmark = pytest.mark.browser

HERE = Path(__file__).resolve().parent
LOGIN, PASSWORD = "referee", "Eleven-Man-X.A.b"
ENV = {"VENUE_ARBITERS": f"{LOGIN}:{PASSWORD}", "VENUE_SECRET": "test-secret-checkers-order"}
NAMES = "E Fuller \u2013 MF Tinsley"  # Black first (PDN's Black tag, then White)


async def test_a_checkers_line_names_the_first_mover_first_with_the_score_in_that_order(shared_data):
    from playwright.async_api import async_playwright

    record = read_pdn((shared_data / "checkers" / "tinsley.pdn").read_text())[2]
    assert (record.tags["Black"], record.tags["White"], record.tags["Result"]) == ("E Fuller", "MF Tinsley", "1-0")
    assert record.venue_result == "0-1"  # Black won
    entries = items(record)
    plies = entries[-1][1]["ply"]
    slug = f"ck-{uuid.uuid4().hex[:8]}"
    log = open_log("memory://", slug)
    for type_, data, _ in entries:
        await log.append(type_, data)
    await log.append("game_ended", {"game": "1-1.1", "board": "1", "result": record.venue_result,
                                    "termination": "resignation", "ply": plies, "by": "device"})
    await log.append("match_game_ready", {"game": "1-1.2", "board": "1", "match": "1-1", "follows": "1-1.1",
                                          "game_no": 2, "white": "E Fuller", "black": "MF Tinsley", "ballot": None,
                                          "white_ms": None, "black_ms": None, "running": None,
                                          "rule": "11-Man National 2017 X.A.b"})
    app = create_app(log, accounts=Accounts.load(None, ENV))

    async with serving(app) as url, async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            page = await arbiter_console(browser, url, LOGIN, PASSWORD)
            # the same game as the spectators' page and the PDN export name it
            spectators = await (await page.request.get(url + "/game/1-1.1")).text()
            assert "<title>E Fuller - MF Tinsley - " in spectators
            pdn = await (await page.request.get(url + "/api/games/1-1.1.pdn")).text()
            assert '[Black "E Fuller"]' in pdn and '[White "MF Tinsley"]' in pdn and '[Result "1-0"]' in pdn

            tile = page.locator('.tile[data-board="1"]')
            await tile.wait_for()
            assert await tile.locator(".t-players").text_content() == NAMES
            state = tile.locator(".t-state b")
            assert (await state.text_content(), await state.get_attribute("title")) == ("1-0", "E Fuller won")
            clocks = await tile.locator(".t-clock > span[class^=t-clock-]").evaluate_all("els => els.map(e => e.className)")
            assert [c.split()[0] for c in clocks] in ([], ["t-clock-black", "t-clock-white"])  # the names' order

            option = page.locator('#ref-game option[value="1-1.1"]')
            await option.wait_for(state="attached")
            assert await option.text_content() == f"Board 1 \u00b7 {NAMES} (1-1.1, 1-0, E Fuller won)"
            await page.select_option("#ref-game", "1-1.1")
            assert "ended: Red (Black) wins (1-0)" in await page.text_content("#ref-status")

            await tile.click()
            assert f"{NAMES} \u00b7 game 1-1.1 \u00b7 1-0, E Fuller won" in await page.text_content("#detail .status")

            await page.click('#alerts .alert[data-kind="match_game_ready"]')
            labels = await page.locator("#result option").all_text_contents()
            assert labels[:3] == ["0-1: White wins", "1-0: Red (Black) wins", "\u00bd-\u00bd: drawn"]
            values = await page.locator("#result option").evaluate_all("els => els.map(e => e.value)")
            assert values[:3] == ["1-0", "0-1", "1/2-1/2"]  # the venue's codes are what is recorded
            await page.screenshot(path=str(HERE / "checkers-console-order.png"), full_page=True)
        finally:
            await browser.close()
    await log.close()
