"""The arbiters' console shows a board that holds messages until their game is decided (docs/arbiter.md
"A board that holds its messages"; docs/protocol.md "Two games on one board"), and the decision that
releases them. Everything runs for real: a device publishes on an embedded broker, the gateway
writes the log, the dashboard serves the console to Debian's chromium.

Norway Chess 2023 (events/norway-chess-2023.toml: "If the classical game is drawn, an Armageddon game
will be played"; draws only by a claim to the arbiter in the classical game before move 30, and a
claim is decided by the arbiter, FIDE Laws 9.2): board 2 plays Abasov - Nepomniachtchi (FIDE
Candidates 2024 round 1, ../shared/data/chess/fide_candidates_2024_open.pgn, 67 plies to a
threefold repetition), the board reports the claim, and the players set the clock for the
Armageddon (10 and 7 minutes) and play its first move before the arbiter clicks: the tile says
"holds 3", the board's panel says why; accepting the claim gives them to the Armageddon.
"""

from __future__ import annotations

import dataclasses
import json
import time
import uuid
from pathlib import Path

import pytest
from browser_helpers import abasov_nepomniachtchi, candidates
from hall_console import device, hall
from live_helpers import entries_matching

from services.eventlog import open_log
from services.arbiter_office.setup import round_from_pgn
from services.regulations.tournament_file import load_tournament

pytestmark = pytest.mark.browser
HERE = Path(__file__).resolve().parent
EVENTS = Path(__file__).resolve().parents[2] / "events"
MIN = 60_000


async def test_a_claim_holds_the_board_the_console_says_so_and_accepting_it_gives_the_armageddon_its_messages(
        shared_data):
    text = candidates(shared_data)
    moves = [m.uci() for m in abasov_nepomniachtchi(text).mainline_moves()]
    slug = f"held-{uuid.uuid4().hex[:8]}"
    now = int(time.time() * 1000)  # the round starts now: no one is late (FIDE Laws 6.7.1)
    norway = load_tournament((EVENTS / "norway-chess-2023.toml").read_text(), "norway-chess-2023.toml")
    norway = dataclasses.replace(norway, slug=slug, rounds=(dataclasses.replace(norway.rounds[0], start_ms=now),
                                                             *norway.rounds[1:]))
    log = open_log("memory://", slug)
    setup = {**round_from_pgn(text, round="1"), "start_ms": now}
    for g in setup["games"]:
        g.update(kind="classical", time_control=norway.time_controls["classical"])
    await log.append("round_started", setup)
    for side in ("white", "black"):
        await log.append("player_arrived", {"game": "1-2", "board": "2", "side": side, "arrived_at": now, "by": "chief"})
    async with hall(log, slug, tournament=norway) as (page, broker, _browser, _url), device(broker, slug) as dev:
        topic = f"venue/{slug}/boards/2"
        for seq, uci in enumerate(moves, start=1):
            await dev.publish(f"{topic}/move", json.dumps({"seq": seq, "move": uci}), qos=1)
        await dev.publish(f"{topic}/result", json.dumps({"seq": len(moves) + 1, "result": "1/2-1/2",
                                                         "reason": "threefold repetition"}), qos=1)
        await entries_matching(log, lambda e: e.type == "draw_claim_reported")  # the board waits
        # the arbiter rules at the board; the players set the clock and start the Armageddon
        for seq, (event, running) in enumerate((("set", None), ("start", "white")), start=1):
            await dev.publish(f"{topic}/clock", json.dumps({"seq": seq, "event": event, "white_ms": 10 * MIN,
                                                             "black_ms": 7 * MIN, "running": running}), qos=1)
        await dev.publish(f"{topic}/move", json.dumps({"seq": len(moves) + 2, "move": "d2d4"}), qos=1)
        await entries_matching(log, lambda e: e.type == "message_awaiting_game" and e.data["device"] == "board")
        tile = '#grid .tile[data-board="2"]'
        await page.wait_for_selector(f"{tile} .held >> text=holds 3", timeout=5000)
        await page.click(tile)
        await page.wait_for_selector("#detail >> text=The board holds 3 messages", timeout=5000)
        words = await page.text_content("#detail")
        assert "its game waits for your decision" in words and "Game 1-2 goes on" in words
        await page.screenshot(path=str(HERE / "held-board.png"), full_page=True)
        # the claim's alert: accept it (FIDE Laws 9.2: the arbiter upholds the claim)
        (reported,) = await entries_matching(log, lambda e: e.type == "draw_claim_reported")
        await page.click(f'.alert[data-id="{reported.seq}"]')
        await page.click("#detail button[data-act=accept_claim]")
        armageddon = await entries_matching(log, lambda e: e.type == "move_played" and e.data["game"] == "1-2-A")
        await page.wait_for_selector(f"{tile} .held", state="detached", timeout=5000)
        await page.screenshot(path=str(HERE / "held-board-released.png"), full_page=True)
    entries = await log.read()
    assert [e.data["move"] for e in armageddon] == ["d2d4"]
    assert [e.data["move"] for e in entries if e.type == "move_played" and e.data["game"] == "1-2"] == moves
    assert [e.type for e in entries if e.type.startswith("clock_") and e.data.get("game") == "1-2-A"] == [
        "clock_set", "clock_started"]
    assert not [e for e in entries if e.type == "message_awaiting_game" and e.data["game"] == "1-2-A"]
