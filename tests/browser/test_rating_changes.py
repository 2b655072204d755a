"""Live FIDE rating changes in a real browser (Debian's chromium, Playwright; issue 31): the standings
page and a game page show each player's change equal to the values worked by hand from the FIDE
Rating Regulations effective from 1 March 2024 (8.1.2 table, 8.3.1-8.3.3) for the small event of
tests/rating_event.py. Saves rating-changes.png beside this file."""

from __future__ import annotations

from pathlib import Path

import pytest
from page_server import dashboard_page

from rating_event import CHANGES, entries
from services.eventlog.memory import MemoryLog

pytestmark = pytest.mark.browser
HERE = Path(__file__).resolve().parent


async def test_standings_and_game_pages_show_the_hand_computed_changes():
    log = MemoryLog("rating-test")
    await log.append_many(entries())
    async with dashboard_page(log, {"width": 1280, "height": 800}) as (url, page):
        await page.goto(url + "/standings")
        await page.wait_for_selector("#standings tbody tr:nth-child(4)")
        rows = await page.eval_on_selector_all(
            "#standings tbody tr", "rows => rows.map(r => [r.querySelector('.name').textContent, "
                                   "r.querySelector('.rchg').textContent])")
        assert dict(rows) == CHANGES
        await page.screenshot(path=str(HERE / "rating-changes.png"), full_page=True)
        # round 3's first game, A-B: each side's change beside its rating
        games = await (await page.request.get(url + "/api/games")).json()
        gid = next(g["id"] for g in games["games"] if g["white"] == "A")
        await page.goto(url + f"/game/{gid}")
        await page.wait_for_function("() => document.querySelector('.rchg[data-side=white]')?.textContent")
        white = await page.text_content(".rchg[data-side=white]")
        black = await page.text_content(".rchg[data-side=black]")
        assert (white, black) == (CHANGES["A"], CHANGES["B"])
