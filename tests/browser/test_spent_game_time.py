"""The time a player took over each move is shown in game time, also in a replay run faster than real
time (the demo's ``--speed 60``; a newcomer's run of the README saw "7. Bf4 1:34:41 0:20" for a
19-minute think). ``spent`` is wall time between plies reaching the log (services/views/spectator.py);
a page whose clocks run ``clock_rate`` times faster shows it that many times longer. Expected values:
the think times of a real game (Candidates 2024 round 5, its %clk) as ``tests/replay_entries.py``
lays them out in game time."""

from __future__ import annotations

import pytest
from page_server import ARGS, CHROMIUM, serve
from playwright.async_api import async_playwright

from broadcast_helpers import candidates_round5
from dashboard.app import create_app
from replay_entries import game_entries
from services.eventlog.memory import MemoryLog
from services.arbiter_office.setup import round_from_pgn

pytestmark = pytest.mark.browser
RATE = 50  # every think time (whole seconds) is a whole number of ms of wall time at this rate
PLIES = 10


def fmt(ms: int) -> str:
    """docs: the pages show a duration as m:ss (h:mm:ss from an hour), seconds rounded up."""
    s = -(-ms // 1000)
    h, m, x = s // 3600, s // 60 % 60, s % 60
    return f"{h}:{m:02d}:{x:02d}" if h else f"{m}:{x:02d}"


async def test_a_replay_at_50x_shows_each_moves_time_in_game_time(shared_data):
    game = candidates_round5(shared_data)[0]
    start = 1_780_000_000_000
    played = game_entries(game, "5-1", "1", start, press_first=True, end=False)
    played = [e for e in played if e[0] in ("clock_started", "move_played")][: 1 + PLIES]
    instants = [at for _, _, at in played]
    thinks = [b - a for a, b in zip(instants, instants[1:])]  # game time, from the clock's start
    assert all(t % 1000 == 0 for t in thinks) and len(thinks) == PLIES
    pgn = f'[Event "Candidates"]\n[Round "5"]\n[White "{game.headers["White"]}"]\n[Black "{game.headers["Black"]}"]\n\n*\n'
    setup = round_from_pgn(pgn)
    setup["games"][0].update(id="5-1", board="1")
    log = MemoryLog("spent-rate")
    await log.append("round_started", setup, start - 1000)
    for type_, data, at in played:  # the wall clock of a replay at RATE: game time / RATE
        await log.append(type_, data, start + (at - start) // RATE)
    async with serve(create_app(log, clock_rate=RATE)) as url, async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            page = await browser.new_page()
            await page.goto(url + "/game/5-1")
            await page.wait_for_selector("#moves .mv .took")
            took = await page.eval_on_selector_all("#moves .mv .took", "els => els.map(e => e.textContent)")
            assert took == [fmt(t) for t in thinks]
            beside_black = await page.text_content(".player .spent[data-side='black']")
            assert beside_black == fmt(thinks[-1])  # ply 10: Black's last move
        finally:
            await browser.close()
