"""The engine evaluation in a real browser (issue 31 item 4, acceptance: "the evaluation appears
only after the delay and never on ``/arbiter``"): ``venue analyse``'s ``Analyser`` with Debian's
Stockfish (100 ms a position, board 1 only) beside a dashboard whose tournament file delays the
public by 3 s; a spectator's game page, the hall page and an arbiter's console in chromium.

The event: tests/broadcast_helpers.py's Keres Rapid file (its ``[broadcast] delay`` set to 3 s);
boards 1 and 2 play Candidates 2024 round 5 games to 6 plies (replay_entries), an hour ago, so
the moves are public; the evaluation is made now. The page records when it first draws the bar
(``Date.now()``, the same clock as the log's ``at``): never before the entry's ``at`` + the delay.
Saves engine-evaluation.png beside this file.
"""

from __future__ import annotations

import asyncio
import time
import uuid
from pathlib import Path

import pytest
from page_server import arbiter_console, serve
from playwright.async_api import async_playwright

from broadcast_helpers import candidates_round5, keres_players, tournament_text
from browser_helpers import ARGS, CHROMIUM
from dashboard.app import create_app
from dashboard_helpers import LOGIN, PASSWORD, accounts
from eventually import eventually_async
from replay_entries import game_entries
from services.eventlog.memory import MemoryLog
from services.events import PositionEvaluated
from services.arbiter_office.round_from_file import round_from_tournament
from services.arbiter_office.tournament_log import tournament_registered_data
from services.regulations.tournament_file import load_tournament
from venue.analyse import Analyser, default_engine

pytestmark = pytest.mark.browser
HERE = Path(__file__).resolve().parent
DELAY_S = 3

WATCH = """() => {
  window.__evalSeen = null;
  const id = setInterval(() => {
    const box = document.getElementById('eval');
    if (box && !box.hidden) {
      window.__evalSeen = {t: Date.now(), score: document.getElementById('eval-score').textContent,
                           line: document.getElementById('eval-line').textContent,
                           plies: document.querySelectorAll('#moves .mv').length};
      clearInterval(id);
    }
  }, 10);
}"""


async def test_the_evaluation_appears_after_the_delay_and_never_on_arbiter(shared_data):
    engine = default_engine()
    assert engine is not None, "Debian's stockfish is missing: ./run tests installs it"
    now = int(time.time() * 1000)
    hour = 3_600_000
    t = load_tournament(tournament_text(keres_players(shared_data), delay_s=DELAY_S))
    games = candidates_round5(shared_data)
    log = MemoryLog(f"eval-{uuid.uuid4().hex[:8]}")
    items = [("tournament_registered", tournament_registered_data(t), now - 2 * hour),
             ("round_started", round_from_tournament(t, 1, start_ms=now - hour), now - hour)]
    items += game_entries(games[0], "1-1", "1", now - hour + 1000, end=False)[: 1 + 2 * 6]
    items += game_entries(games[1], "1-2", "2", now - hour + 1000, end=False)[: 1 + 2 * 6]
    await log.append_many(sorted(items, key=lambda x: x[2]))

    async with serve(create_app(log, accounts=accounts())) as url, async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        analyser = None
        try:
            page = await browser.new_page(viewport={"width": 1280, "height": 900})
            await page.goto(url + "/game/1-1")
            await page.wait_for_function("() => document.querySelectorAll('#moves .mv').length === 6")
            assert await page.is_hidden("#eval")
            await page.evaluate(WATCH)
            console = await arbiter_console(browser, url, LOGIN, PASSWORD)

            # at the usual priority: at idle priority (the product's) a busy test machine may starve it
            analyser = asyncio.create_task(Analyser(log, engine, budget_ms=100, max_boards=1,
                                                    out=lambda line: None, idle=False).run())

            async def evaluated():
                if analyser.done():
                    analyser.result()
                got = [e for e in await log.read() if e.type == PositionEvaluated.TYPE]
                assert got, "no evaluation yet"
                return got

            [entry] = await eventually_async(evaluated, 30)
            e = PositionEvaluated(**entry.data)
            assert (e.game, e.ply) == ("1-1", 6)  # board 1 only (--max-boards 1)
            seen = await (await page.wait_for_function("() => window.__evalSeen", timeout=30_000)).json_value()
            assert seen["t"] >= entry.at + DELAY_S * 1000, "drawn before the delay had passed"
            assert seen["plies"] == 6
            want = f"#{e.mate}" if e.mate is not None else f"{'+' if e.score_cp >= 0 else ''}{e.score_cp / 100:.2f}"
            assert seen["score"] == want
            assert seen["line"].startswith(f"4. {e.best_line_san[0]}")  # ply 7 is White's 4th move
            await page.screenshot(path=str(HERE / "engine-evaluation.png"), full_page=True)
            public = await page.evaluate("() => fetch('/api/games/1-1').then(r => r.json())")
            assert public["evaluation"]["best_line_san"] == e.best_line_san

            # the arbiters' console: the live GAME has no evaluation, the page shows none
            live = await console.evaluate("() => fetch('/api/games/1-1').then(r => r.json())")
            assert live["ply"] == 6 and "evaluation" not in live
            assert e.engine not in await console.content()
            # the hall page draws none either, and board 2 (past --max-boards) has none
            await page.goto(url + "/")
            await page.wait_for_selector("#g-1-1")
            assert e.engine not in await page.content()
            other = await page.evaluate("() => fetch('/api/games/1-2').then(r => r.json())")
            assert other["evaluation"] is None
        finally:
            if analyser is not None:
                analyser.cancel()
                await asyncio.gather(analyser, return_exceptions=True)
            await browser.close()
