"""The checkers spectator pages in a real browser (Debian's chromium, Playwright): a finished
German Open 2004 game (../shared/data/checkers/german_open_2004.pdn, Morgan-Pawlek ½-½, replayed by
the rules core) as game 1 of a match, served from a memory log.

pydraughts draws White's men (21-32) at the top and Black's (1-12) at the bottom: each player's
name must be on the side of their own pieces. The game page steps back through the moves (the
picture is the position at that ply, not the live one), names Black first in the title (Black moves
first, docs/checkers.md), says how the game ended in words, and shows an error, never a stale
board, when a picture cannot be had.
"""

from __future__ import annotations

import contextlib

import pytest
from playwright.async_api import async_playwright
from checkers_entries import entries
from page_server import ARGS, CHROMIUM, serve

from dashboard.app import create_app
from services.eventlog.memory import MemoryLog
from services.rules.checkers_pdn import read_pdn, replay

pytestmark = pytest.mark.browser


@contextlib.asynccontextmanager
async def hall_page(log, card: str):
    """The hall page of ``log`` served and open in chromium, once ``card``'s names are drawn:
    yields ``(url, page)``."""
    async with serve(create_app(log)) as url, async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            page = await browser.new_page(viewport={"width": 1400, "height": 1000})
            await page.goto(url + "/")
            await page.wait_for_selector(f"{card} .player .name:not(:empty)")
            yield url, page
        finally:
            await browser.close()


async def test_checkers_names_by_their_pieces_step_through_and_words(shared_data):
    (record,) = read_pdn((shared_data / "checkers" / "german_open_2004.pdn").read_text())
    log = MemoryLog("checkers")
    await log.append_many(entries(record))
    plies = len(replay(record).moves)
    async with hall_page(log, "#g-1-1\\.1") as (url, page):
        rows = await page.eval_on_selector_all(
            "#g-1-1\\.1 .player", "els => els.map(e => [e.className, e.querySelector('.name').textContent])")
        # White's men at the top of pydraughts' picture, Black's at the bottom
        assert rows == [["player white", record.tags["White"]], ["player black", record.tags["Black"]]]
        status = await page.text_content("#g-1-1\\.1 .status")
        assert status == "\u00bd-\u00bd \u00b7 drawn by agreement"
        assert await page.get_attribute("#round-link", "href") == "/api/round.pdn"
        # the two games of a match share a board: the card says which game it is
        assert await page.text_content("#g-1-1\\.1 .board-no") == "Board 1 \u00b7 game 1"

        await page.goto(url + "/game/1-1.1")
        await page.wait_for_selector("#p-top .name:not(:empty)")
        assert await page.text_content("#p-top .name") == record.tags["White"]
        assert await page.text_content("#p-bottom .name") == record.tags["Black"]
        assert await page.is_visible("#flip")  # a checkers board flips too (issue 13)
        assert await page.title() == f"{record.tags['Black']} \u2013 {record.tags['White']} \u00b7 Checkers test"
        assert "Drawn by agreement" in await page.text_content("#result-box")
        assert await page.get_attribute("#pgn-link", "href") == "/api/games/1-1.1.pdn"
        await page.wait_for_function("() => (document.querySelector('#board-img').src || '').includes('ply=')")
        live = await page.get_attribute("#board-img", "src")
        for _ in range(3):
            await page.keyboard.press("ArrowLeft")
        await page.wait_for_function(
            "(n) => (document.querySelector('#board-img').getAttribute('src') || '').includes('ply=' + n + '&')",
            arg=plies - 3)
        assert await page.get_attribute("#board-img", "src") != live
        assert not await page.eval_on_selector(".board.big", "e => e.classList.contains('board-error')")
        # a picture that cannot be had: an error in place of the board, not the last picture
        await page.evaluate("() => Venue.swapImage(document.getElementById('board-img'), '/board/1-1.1.svg?ply=abc')")
        await page.wait_for_function("() => document.querySelector('.board.big').classList.contains('board-error')")
        assert await page.get_attribute("#board-img", "src") is None
        message = await page.eval_on_selector(".board.big", "e => e.dataset.error")
        assert "ply must be a whole number" in message


async def test_a_match_board_with_game_1_live_counts_as_playing(shared_data):
    """The hall's summary counts boards: a checkers match's board plays while game 1 is live, though
    game 2 waits behind it on the same board (a new user saw "5 boards · 0 playing · 0 finished"
    while all five game-1s were live). Game 1 of the German Open 2004 game (first 6 moves)."""
    (record,) = read_pdn((shared_data / "checkers" / "german_open_2004.pdn").read_text())
    items = [e for e in entries(record) if e[0] != "game_ended"][:7]  # round_started + 6 plies
    second = dict(items[0][1]["games"][0], id="1-1.2", match={"id": "1-1", "game_no": 2, "games": 2})
    items[0][1]["games"].append(second)
    log = MemoryLog("checkers")
    await log.append_many(items)
    async with hall_page(log, "#g-1-1\\.2") as (url, page):
        await page.wait_for_function("() => document.getElementById('summary').textContent !== ''")
        assert await page.text_content("#summary") == "1 board \u00b7 1 playing \u00b7 0 finished"
