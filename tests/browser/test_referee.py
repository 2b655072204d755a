"""The checkers referee's tools in the arbiter's console (issue 6; docs/arbiter.md), in a browser.

Rules (../shared/regulations/checkers-11-man-national-2017.txt): XII, the score sheets crosschecked
"for recording errors"; X.B.a, the five-minute rule ("Either the time clocks or the ordinary
five-minute rule shall apply to timing moves"), provided by the Major and Minor divisions' preset
registered in the log (the Master division has no referee's timer: X.A.i); X.B.d, the Adjudication
Committee of three ("An adjudication win can only be awarded by unanimous vote of the Committee").

The round: the six Tinsley-Chinook games of London 1992 (venue/data/tinsley_chinook_1992.pdn, one
checkers game a board) plus one chess game on board 7 (FIDE Candidates 2024 round 1, board 1,
../shared/data/chess), so the console must offer the referee's tools for the checkers games only.
Board 1 (game 8: Chinook - Tinsley) publishes its first 36 plies through the real gateway over an
embedded broker, as a hall board does (docs/protocol.md), in the full routes the rules core replays
from the record. Then the referee, logged in through the page:

1. enters White's score sheet typed as in the record, with one recording error (24-20 for White's
   4th move, 24-19) and the sheet a move short: both plies are flagged on the page and in the log;
2. starts the five-minute rule for the player on move: Red (Black), as Red made ply 1 and 36 plies
   are played; the log holds ``move_timer_started`` and the page shows the timer on;
3. records an adjudication with two members only: the API's refusal is shown on the page and
   nothing is recorded; then with three, two voting a White win and one a draw: a draw, not
   unanimous (X.B.d), recorded and the game ended ½-½ in the log and in ``/api/games``.

Screenshots: tests/browser/referee-sheet.png (the flagged differences) and referee.png (the end).
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import time
import uuid
from importlib import resources
from pathlib import Path

import aiomqtt
import httpx
import pytest
from browser_helpers import ARGS, CHROMIUM, ENV, LOGIN, candidates, referee_page, wait_for
from eventually import eventually_async

from dashboard.app import create_app
from dashboard.arbiter.auth import Accounts
from gateway import Gateway, embedded_broker
from services.protocol.mqtt_url import parse_mqtt_url
from services.eventlog import open_log
from services.arbiter_office.setup import round_from_pgn
from services.arbiter_office.tournament_log import tournament_registered_data
from services.regulations.tournament_file import load_tournament
from services.rules.checkers_pdn import read_pdn, replay
from venue.serve import serving

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
SOURCE = resources.files("venue").joinpath("data", "tinsley_chinook_1992.pdn").read_text("utf-8")
GAME = "1-1"
PLIES = 36
# White's sheet as the record writes it (game 8, to White's 18th move), with one recording error
# and stopping a move short.
SHEET = """1. 11-15 23-18 2. 10x14 18x11 3. 8x15 22-17 4. 14-18 24-20 5. 15x24 28x19 6.
7-11 17x14 7. 11-16 19-15 8. 4-8 21-17 9. 16-19 17-13 10. 12-16 25-21 11. 18-22
26x17 12. 9x18 29x25 13. 16-20 17x14 14. 2-7 21-17 15. 19x24 30-26 16. 7-10
14x7 17. 3x10x19 27-23 18. 18x27"""


def the_round() -> dict:
    """Round 1: the six London 1992 checkers games on boards 1-6 (the test adds the chess game)."""
    data = round_from_pgn(SOURCE, variant="checkers")
    assert [g["variant"] for g in data["games"]] == ["checkers"] * 6
    return data


@pytest.mark.browser
async def test_referee_uses_score_sheet_timer_and_adjudication(shared_data):
    from playwright.async_api import async_playwright

    record = replay(read_pdn(SOURCE)[0])
    moves = list(record.moves[:PLIES])
    assert moves[7] == "24-19" and moves[35] == "32x23x16"  # the record's 4. ... 24-19 and 18. ... 32x23x16
    data = the_round()
    chess = round_from_pgn(candidates(shared_data), round="1")["games"][0]
    data["games"].append({**chess, "id": "1-7", "board": "7"})
    slug = f"ref-{uuid.uuid4().hex[:8]}"
    log = open_log("memory://", slug)
    # The Major and Minor divisions' file (X.B: the referee's timers), round 1 from now for 4 hours.
    now = int(time.time() * 1000)
    name = "checkers-11-man-national-2017-major-minor.toml"
    t = load_tournament((ROOT / "events" / name).read_text(), name)
    t = dataclasses.replace(t, slug=slug, rounds=(dataclasses.replace(t.rounds[0], start_ms=now, end_ms=now + 4 * 3_600_000),
                                                  *t.rounds[1:]))
    await log.append("tournament_registered", tournament_registered_data(t))
    await log.append("round_started", {**data, "start_ms": now, "end_ms": now + 4 * 3_600_000})
    app = create_app(log, accounts=Accounts.load(None, ENV))

    async with embedded_broker() as broker, serving(app) as url, async_playwright() as pw:
        gateway = Gateway(log, broker, slug, client_id=f"gw-{slug}")
        gw_task = asyncio.create_task(gateway.run())
        browser = await pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            await asyncio.wait_for(gateway.ready.wait(), 10)
            target = parse_mqtt_url(broker)
            async with aiomqtt.Client(target.host, target.port, identifier=f"board-{slug}") as client:
                for seq, move in enumerate(moves, start=1):
                    await client.publish(f"venue/{slug}/boards/1/move", json.dumps({"seq": seq, "move": move}), qos=1)
                await wait_for(log, lambda e: e.type == "move_played" and e.data["ply"] == PLIES)

            page = await referee_page(browser, url)
            # The referee's tools list the checkers games only (not board 7's chess game).
            options = await page.eval_on_selector_all("#ref-game option", "els => els.map(e => e.value)")
            assert options == [g["id"] for g in data["games"] if g["variant"] == "checkers"]
            await page.select_option("#ref-game", GAME)
            await page.wait_for_function("() => document.querySelector('#ref-status').textContent.includes('36 plies')")
            status = await page.text_content("#ref-status")
            assert "Chinook" in status and "M Tinsley" in status and "Red (Black) to move" in status

            # 1. White's score sheet (XII): the recording error and the missing move are flagged.
            await page.select_option("#sheet-side", "white")
            await page.fill("#sheet-moves", SHEET)
            await page.click("#ref-sheet button[type=submit]")
            await page.wait_for_selector("#sheet-result.flagged")
            rows = await page.eval_on_selector_all(
                "#sheet-result tr[data-ply]", "rs => rs.map(r => [...r.cells].map(c => c.textContent))")
            assert rows == [["4…", "24-19", "24-20"], ["18…", "32x23x16", "(missing)"]]
            [diff] = await wait_for(log, lambda e: e.type == "score_sheet_differences")
            assert (diff.data["game"], diff.data["side"], diff.data["by"]) == (GAME, "white", LOGIN)
            assert diff.data["differences"] == [
                {"ply": 8, "sheet": "white", "board": "24-19", "written": "24-20"},
                {"ply": 36, "sheet": "white", "board": "32x23x16", "written": None}]
            # The flag reaches the alert queue too.
            await page.wait_for_selector(f'.alert[data-id="{diff.seq}"] >> text=Score sheet differs')
            await page.screenshot(path=str(HERE / "referee-sheet.png"), full_page=True)

            # 2. The five-minute rule (X.B.a) for the player on move: Red, ply 37.
            await page.select_option("#timer-rule", "five_minute")
            await page.click("#ref-timer button[type=submit]")
            await page.wait_for_selector("#timer-result.ok")
            assert "Five-minute rule started for Red (Black)" in await page.text_content("#timer-result")
            [timer] = await wait_for(log, lambda e: e.type == "move_timer_started")
            assert (timer.data["game"], timer.data["rule"], timer.data["side"], timer.data["by"]) == (
                GAME, "five_minute", "black", LOGIN)
            await page.wait_for_selector("#timer-on")
            assert "Five-minute rule on since" in await page.text_content("#timer-on")

            # 3. Adjudication (X.B.d): a committee of two is refused, the API's reason shown.
            before = len(await log.read())
            for i, name in enumerate(["Expert A", "Expert B"]):
                await page.fill(f"#ref-adjudicate .member-row:nth-child({i + 1}) .member", name)
                await page.select_option(f"#ref-adjudicate .member-row:nth-child({i + 1}) .vote", "white")
            await page.click("#ref-adjudicate button[type=submit]")
            await page.wait_for_function("() => document.querySelector('#ref-adjudicate .error').textContent !== ''")
            assert "three different members (X.B.d)" in await page.text_content("#ref-adjudicate .error")
            assert len(await log.read()) == before
            # Three members, two for White and one for a draw: not unanimous, so a draw.
            await page.fill("#ref-adjudicate .member-row:nth-child(3) .member", "Expert C")
            await page.select_option("#ref-adjudicate .member-row:nth-child(3) .vote", "draw")
            await page.click("#ref-adjudicate button[type=submit]")
            await page.wait_for_selector("#adj-result.ok")
            text = await page.text_content("#adj-result")
            assert "Draw (½-½)" in text and "not unanimous" in text and "Expert C: Draw" in text
            assert await page.text_content("#ref-adjudicate .error") == ""
            [adj] = await wait_for(log, lambda e: e.type == "adjudication_recorded")
            assert (adj.data["result"], adj.data["unanimous"], adj.data["binding"], adj.data["by"]) == (
                "1/2-1/2", False, True, LOGIN)
            assert adj.data["votes"] == {"Expert A": "white", "Expert B": "white", "Expert C": "draw"}
            [ended] = await wait_for(log, lambda e: e.type == "game_ended" and e.data["game"] == GAME)
            assert (ended.data["result"], ended.data["termination"]) == ("1/2-1/2", "arbiter")
            async with httpx.AsyncClient(base_url=url) as http:
                async def ended() -> dict:
                    game = (await http.get(f"/api/games/{GAME}")).json()
                    assert game["status"] == "ended", game
                    return game

                game = await eventually_async(ended, poll=0.05)
            assert (game["status"], game["result"]) == ("ended", "1/2-1/2")
            await page.wait_for_function("() => document.querySelector('#ref-status').textContent.includes('ended')")
            await page.wait_for_selector('#actions li[data-type="adjudication_recorded"]')
            await page.screenshot(path=str(HERE / "referee.png"), full_page=True)
        finally:
            await browser.close()
            gw_task.cancel()
            await asyncio.gather(gw_task, return_exceptions=True)
            await log.close()
