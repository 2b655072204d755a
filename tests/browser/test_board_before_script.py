"""The game page's board is in the page as served: its ``<img>`` had no ``src`` until the script ran
(a broken-image flash, and no board at all without JavaScript; a new user's run of the README).

The server writes the picture of the game's current ply, the URL the script would build
(``Venue.boardUrl`` in live.js), so the script finds it there and loads nothing new. Candidates 2024
round 5 (../shared/data/chess/fide_candidates_2024_open.pgn): Vidit-Caruana ended (its last ply),
Gukesh-Abasov in play after its first 20 plies.
"""

from __future__ import annotations

import pytest
from page_server import ARGS, CHROMIUM, serve
from playwright.async_api import async_playwright

from broadcast_helpers import candidates_round5
from dashboard.app import create_app
from replay_entries import game_entries, round_started
from services.eventlog.memory import MemoryLog

pytestmark = pytest.mark.browser
IN_PLAY = 20


async def test_the_board_is_drawn_before_and_without_the_script(shared_data):
    games = candidates_round5(shared_data)
    gukesh, vidit = games[2], games[3]
    entries = [round_started(games, "5", at=1000)]
    entries += game_entries(vidit, "5-4", "4", 10_000)
    entries += game_entries(gukesh, "5-3", "3", 10_000, end=False)[: 1 + 2 * IN_PLAY]  # the start, 20 plies
    log = MemoryLog("candidates-2024")
    await log.append_many(sorted(entries, key=lambda e: e[2]))
    plies = {"5-4": len(list(vidit.mainline_moves())), "5-3": IN_PLAY}
    async with serve(create_app(log)) as url, async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            without = await browser.new_page(java_script_enabled=False)
            served = {}
            for gid, ply in plies.items():
                await without.goto(f"{url}/game/{gid}")
                src = await without.get_attribute("#board-img", "src")
                assert src is not None and src.startswith(f"/board/{gid}.svg?ply={ply}&"), src
                await without.wait_for_function("() => document.getElementById('board-img').naturalWidth > 0")
                svg = await without.request.get(url + src)
                assert svg.ok and (await svg.text()).startswith("<svg")
                served[gid] = src

            scripted = await browser.new_page()
            for gid, src in served.items():
                await scripted.goto(f"{url}/game/{gid}")
                await scripted.wait_for_selector("#moves .mv")
                await scripted.wait_for_function("() => document.getElementById('board-img').dataset.url")
                assert await scripted.eval_on_selector("#board-img", "e => e.dataset.url") == src
                assert await scripted.get_attribute("#board-img", "src") == src
        finally:
            await browser.close()
