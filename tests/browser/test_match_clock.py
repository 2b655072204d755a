"""The referee records a Master division match clock in the console (docs/arbiter.md), in a browser,
with the real gateway running the preset's regulations.

Source: ../shared/regulations/checkers-11-man-national-2017.txt X.A.a: "1) At beginning of the
round, 90 minutes will be set on both players' side of the clock. Or 2) ... 80 minutes + 10-second
increment will be set on both players' side of the clock. In other words, each player earns
additional 10 seconds of time with each press of the clock. If the players cannot mutually agree on
which of these time options to use, then the decision shall be decided at random (e. g., coin
flip)." The coin's faces are ``checkers_rounds.choose_match_clock``'s: heads = 90, tails = 80+10.

The round: round 1 of events/checkers-11-man-national-2017.toml (Berger tables: board 1 is the
match Player 02 - Player 11, games "1-1.1" and "1-1.2"), board 1 on ACF ballot 15 (9-13 23-18
11-15, ../shared/data/checkers/acf_3move_ballots.csv). The referee, logged in through the page:

1. picks game 2 of the match: refused (the choice is made before game 1), the reason shown;
2. picks game 1, the players disagree (Red 90, White 80+10) and no coin is given: refused, the
   reason shown, nothing recorded;
3. the coin comes up tails: 80 minutes + 10 s a move, recorded with the referee's login, both
   games' ``time_control`` in /api/games and game 1's clock at 80:00 paused;
4. the board starts the clock at 80:00 and Red plays the balloted 9-13 and presses: the device
   shows the 10 s increment and the gateway's model agrees (no ``clock_disagreement``);
5. a new choice now is refused: game 1 has started.

Screenshots: tests/browser/referee-clock-refused.png (step 2) and referee-clock.png (step 3).
"""

from __future__ import annotations

import asyncio
import json
import time
import uuid
from pathlib import Path

import aiomqtt
import httpx
import pytest
from browser_helpers import ARGS, CHROMIUM, ENV, LOGIN, referee_page, wait_for

from dashboard.app import create_app
from dashboard.arbiter.auth import Accounts
from gateway import Gateway, embedded_broker
from services.protocol.mqtt_url import parse_mqtt_url
from services.eventlog import open_log
from services.arbiter_office.round_from_file import round_from_tournament
from services.arbiter_office.tournament_log import tournament_registered_data
from services.regulations.tournament_file import load_tournament
from services.rules.checkers_ballots import load_deck
from venue.serve import serving

HERE = Path(__file__).resolve().parent
PRESET = HERE.parents[1] / "events" / "checkers-11-man-national-2017.toml"
MIN, S = 60_000, 1_000
SPEC_80_10 = {"white": "80m", "black": "80m", "increment": "10s", "match_clock": True}


async def submit(page, error_expected: bool):
    await page.click("#ref-clock button[type=submit]")
    if error_expected:
        await page.wait_for_function("() => document.querySelector('#ref-clock .error').textContent !== ''")
        return await page.text_content("#ref-clock .error")
    await page.wait_for_selector("#clock-result.ok")
    return await page.text_content("#clock-result")


@pytest.mark.browser
async def test_referee_records_the_match_clock(shared_data):
    from playwright.async_api import async_playwright

    deck = {b.number: b for b in load_deck()}
    assert deck[15].moves == ("9-13", "23-18", "11-15")
    t = load_tournament(PRESET.read_text("utf-8"), str(PRESET))
    data = round_from_tournament(t, 1, ballots=[deck[15].to_json()] * 5)
    assert [g["id"] for g in data["games"]][:2] == ["1-1.1", "1-1.2"]
    slug = f"clock-{uuid.uuid4().hex[:8]}"
    log = open_log("memory://", slug)
    await log.append("tournament_registered", tournament_registered_data(t))
    await log.append("round_started", data)
    app = create_app(log, accounts=Accounts.load(None, ENV))

    async with embedded_broker() as broker, serving(app) as url, async_playwright() as pw:
        gateway = Gateway(log, broker, slug, tournament=t, client_id=f"gw-{slug}")
        gw_task = asyncio.create_task(gateway.run())
        browser = await pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            await asyncio.wait_for(gateway.ready.wait(), 10)
            page = await referee_page(browser, url)
            before = len(await log.read())

            # 1. game 2 of the match: the clock is chosen before game 1
            await page.select_option("#ref-game", "1-1.2")
            error = await submit(page, True)
            assert "1-1.2 is game 2 of match 1-1; the match clock is chosen once, before game 1 (1-1.1) starts" in error

            # 2. game 1, the players disagree, no coin: refused, nothing recorded
            await page.select_option("#ref-game", "1-1.1")
            await page.wait_for_function("() => document.querySelector('#ref-status').textContent.includes('match 1-1, game 1 of 2')")
            await page.select_option("#clock-black", "90")
            await page.select_option("#clock-white", "80+10")
            error = await submit(page, True)
            assert "the players disagree (Red 90, White 80+10): the referee's coin flip decides" in error
            assert len(await log.read()) == before
            await (await page.query_selector("#referee")).screenshot(path=str(HERE / "referee-clock-refused.png"))

            # 3. the coin flip: tails, 80 minutes + 10 s a move
            await page.select_option("#clock-coin", "tails")
            text = await submit(page, False)
            assert "80 minutes + 10 s a move, by coin flip (tails) for match 1-1 (games 1-1.1, 1-1.2)" in text
            assert "Red wanted 90 minutes, White 80 minutes + 10 s a move" in text
            assert await page.text_content("#ref-clock .error") == ""
            [chosen] = await wait_for(log, lambda e: e.type == "match_clock_chosen")
            assert (chosen.data["by"], chosen.data["option"], chosen.data["how"], chosen.data["coin"]) == (
                LOGIN, "80+10", "coin flip", "tails")
            assert chosen.data["wishes"] == {"black": "90", "white": "80+10"}
            async with httpx.AsyncClient(base_url=url) as http:
                for _ in range(100):
                    one = (await http.get("/api/games/1-1.1")).json()
                    if one.get("match_clock"):
                        break
                    await asyncio.sleep(0.05)
                two = (await http.get("/api/games/1-1.2")).json()
            assert one["time_control"] == two["time_control"] == SPEC_80_10
            assert (one["clock"]["white_ms"], one["clock"]["black_ms"], one["clock"]["running"]) == (80 * MIN, 80 * MIN, None)
            await page.wait_for_selector("#match-clock-on")
            assert "match clock: 80 minutes + 10 s a move, by coin flip (tails)" in await page.text_content("#ref-status")
            await page.wait_for_selector('#actions li[data-type="match_clock_chosen"]')
            await page.screenshot(path=str(HERE / "referee-clock.png"), full_page=True)

            # 4. the board: clock started at 80:00 for Red, 9-13 (ballot 15), pressed with the 10 s added
            target = parse_mqtt_url(broker)
            async with aiomqtt.Client(target.host, target.port, identifier=f"board-{slug}") as client:
                topic = f"venue/{slug}/boards/1"
                await client.publish(f"{topic}/clock", json.dumps({"seq": 1, "event": "start", "white_ms": 80 * MIN,
                                                                   "black_ms": 80 * MIN, "running": "black"}), qos=1)
                await wait_for(log, lambda e: e.type == "clock_started")
                started = time.monotonic()
                await asyncio.sleep(1.0)
                await client.publish(f"{topic}/move", json.dumps({"seq": 1, "move": "9-13"}), qos=1)
                used = int((time.monotonic() - started) * 1000)
                await client.publish(f"{topic}/clock", json.dumps({
                    "seq": 2, "event": "press", "white_ms": 80 * MIN, "black_ms": 80 * MIN - used + 10 * S,
                    "running": "white"}), qos=1)
                await wait_for(log, lambda e: e.type == "clock_pressed")
            await asyncio.sleep(0.5)
            assert [e for e in await log.read() if e.type == "clock_disagreement"] == []

            # 5. game 1 has started: no new choice
            await page.wait_for_function("() => document.querySelector('#ref-status').textContent.includes('1 plies')")
            await page.select_option("#clock-coin", "heads")
            error = await submit(page, True)
            assert "1-1.1 has started (1 plies played)" in error
            assert len([e for e in await log.read() if e.type == "match_clock_chosen"]) == 1
        finally:
            await browser.close()
            gw_task.cancel()
            await asyncio.gather(gw_task, return_exceptions=True)
            await log.close()
