"""The spectator pages in a real browser (Debian's chromium, Playwright) during a replay.

Runs ``venue demo`` in-process (embedded broker, SQLite log, gateway, dashboard, simulated boards
replaying round 5 of the FIDE Candidates 2024 from venue/data) and checks what a spectator sees:
four boards with pieces, moves appearing, the running clock counting down, results, the game page.
Saves tests/browser/spectator.png and tests/browser/game.png.
"""

from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path

import pytest
from browser_helpers import ARGS, CHROMIUM
from eventually import eventually_async
from playwright.async_api import async_playwright

from venue.demo import run_demo

pytestmark = pytest.mark.browser

HERE = Path(__file__).resolve().parent
# Round 5, boards 1-4 (../shared/data/chess/fide_candidates_2024_open.pgn, Round "5").
PLAYERS = ["Praggnanandhaa R", "Firouzja, Alireza", "Gukesh D", "Vidit, Santosh Gujrathi"]


@contextlib.asynccontextmanager
async def demo(speed: float):
    lines: list[str] = []
    task = asyncio.create_task(run_demo(speed=speed, port=0, out=lines.append))
    try:
        def started() -> str | None:
            if task.done():
                task.result()
            assert any("spectators" in ln for ln in lines), f"the demo did not start: {lines}"
            return next(ln.split()[-1] for ln in lines if "spectators" in ln)

        url = await eventually_async(started, 30, poll=0.1)
        yield url, lines
    finally:
        task.cancel()
        with contextlib.suppress(BaseException):
            await task


async def clock_texts(page) -> list[str]:
    return await page.eval_on_selector_all(".card .clock", "els => els.map(e => e.textContent)")


async def see_moves_change(page, cards: int) -> None:
    """Wait until the last-move line of all ``cards`` boards is filled, then until one changes."""
    await page.wait_for_function(
        "(n) => [...document.querySelectorAll('.card .last')].filter(e => e.textContent.trim()).length === n",
        arg=cards, timeout=20_000)
    first = await page.eval_on_selector_all(".card .last", "els => els.map(e => e.textContent)")
    await page.wait_for_function(
        "(before) => [...document.querySelectorAll('.card .last')].some((e, i) => e.textContent !== before[i])",
        arg=first, timeout=20_000)


async def test_spectator_sees_moves_and_clocks(tmp_path):
    async with demo(speed=600) as (url, lines), async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            page = await browser.new_page(viewport={"width": 1440, "height": 900})
            await page.goto(url)
            await page.wait_for_selector(".card >> nth=3")
            assert await page.eval_on_selector_all(
                ".card .player.white .name", "els => els.map(e => e.textContent)") == PLAYERS
            assert await page.text_content("#event-name") == "Candidates"
            assert await page.text_content("#round-name") == "Round 5"
            assert await page.text_content("#conn") == "live"

            # Moves arrive: the last-move line of the boards fills in and changes.
            await see_moves_change(page, 4)

            # A running clock counts down between two readings without any new message needed.
            await page.wait_for_selector(".card .clock.running")
            before = await clock_texts(page)
            await page.wait_for_timeout(1500)
            after = await clock_texts(page)
            assert before != after

            # The boards are pictures drawn by python-chess, loaded by the browser.
            widths = await page.eval_on_selector_all(".card .board img", "els => els.map(e => e.naturalWidth)")
            assert all(w > 0 for w in widths)
            src = await page.get_attribute(".card .board img", "src")
            svg = await page.evaluate("(u) => fetch(u).then(r => r.text())", src)
            assert svg.startswith("<svg") and "lastmove" in svg

            # Vidit-Caruana ends first, drawn by threefold repetition: its card shows the result.
            await page.wait_for_selector("#g-5-4.is-ended", timeout=90_000)
            assert "threefold repetition" in await page.text_content("#g-5-4 .status")
            assert await page.text_content("#g-5-4 .player.white .score") == "\u00bd"
            await page.screenshot(path=str(HERE / "spectator.png"), full_page=True)

            # The game page: the move list with clocks, browsing back a move.
            await page.click("#g-5-3")
            await page.wait_for_selector("#moves .mv")
            assert "Gukesh D" in await page.text_content("#p-bottom")
            assert await page.eval_on_selector_all("#moves .mv .clk", "els => els.length") > 0
            await page.wait_for_timeout(1500)
            await page.screenshot(path=str(HERE / "game.png"))
            n = await page.eval_on_selector_all("#moves .mv", "els => els.length")
            await page.click("#nav-prev")
            await page.wait_for_function(
                "(n) => document.querySelector('#board-img').dataset.url.includes('ply=')", arg=n)
        finally:
            await browser.close()


def demo_games() -> list:
    """The demo round's games in board order (venue/data/candidates_2024_round5.pgn)."""
    import io

    import chess.pgn

    from venue.demo_run import demo_round_text

    f, games = io.StringIO(demo_round_text()), []
    while (g := chess.pgn.read_game(f)) is not None:
        games.append(g)
    return games


async def test_a_page_of_chosen_boards(tmp_path):
    """``/?boards=2,4`` shows boards 2 and 4 only, follows only them (/ws/live?boards=2,4), and their
    moves still arrive; a game page follows its own board; a bad SPEC shows its reason."""
    games = demo_games()
    async with demo(speed=600) as (url, lines), async_playwright() as pw:
        url = url.rstrip("/")
        browser = await pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            page = await browser.new_page(viewport={"width": 1440, "height": 900})
            sockets: list[str] = []
            page.on("websocket", lambda ws: sockets.append(ws.url))
            await page.goto(url + "/?boards=2,4")
            await page.wait_for_selector(".card >> nth=1")
            assert await page.eval_on_selector_all(
                ".card .player.white .name", "els => els.map(e => e.textContent)") == [
                    games[1].headers["White"], games[3].headers["White"]]
            assert await page.eval_on_selector_all(".card", "els => els.map(e => e.id)") == ["g-5-2", "g-5-4"]
            assert await page.text_content("#conn") == "live"
            assert sockets and all("boards=2%2C4" in u or "boards=2,4" in u for u in sockets)

            # Their moves arrive and change, and the SAN shown is the game's own (from the PGN).
            await see_moves_change(page, 2)
            sans = [[], []]
            for k, g in enumerate((games[1], games[3])):
                board = g.board()
                for mv in g.mainline_moves():
                    sans[k].append(board.san(mv))
                    board.push(mv)
            now = await page.eval_on_selector_all(".card .last", "els => els.map(e => e.textContent)")
            for k, text in enumerate(now):
                assert text.split()[-1] in sans[k]
            assert await page.eval_on_selector_all(".card", "els => els.length") == 2
            await page.screenshot(path=str(HERE / "spectator-boards.png"))

            # The game page follows board 3 only.
            sockets.clear()
            await page.goto(url + "/game/5-3")
            await page.wait_for_selector("#moves .mv")
            assert "Gukesh D" in await page.text_content("#p-bottom")
            assert sockets and all("boards=3" in u for u in sockets)

            # A SPEC that makes no sense: the reason, no feed.
            sockets.clear()
            await page.goto(url + "/?boards=4-2")
            assert "range 4-2 is backwards" in await page.text_content("#error")
            assert await page.text_content("#conn") == "refused" and sockets == []
        finally:
            await browser.close()
