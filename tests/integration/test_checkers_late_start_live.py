"""The late-start draw of the 2017 11-Man National enforced live by the gateway (issue 6).

X.B.e (../shared/regulations/checkers-11-man-national-2017.txt): "No game shall be started later
than 30 minutes before a round time is scheduled to end. Any game, not started in accordance with
this rule, shall be declared drawn."

The checkers preset with its placeholder round ends uncommented (a Major/Minor division file) is
registered, round 1 paired from it (11 players: five boards and a bye, each match with a ballot
drawn from the ACF deck) and its end moved to 30 minutes and a few seconds from now, so the limit
passes during the test. Board 1 makes Red's first balloted move before the limit (X.A.d: "Red's first
balloted move is made"; the gateway refuses a move off the ballot, tests/unit/test_ballot_check.py);
every other board stays unstarted and must be drawn by the gateway's regulations with an entry
naming the rule. A move on a drawn board afterwards is refused (the game is over).
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import time
import uuid
from pathlib import Path

import aiomqtt
import pytest
from live_helpers import wait_for

from gateway import Gateway, embedded_broker
from services.protocol.mqtt_url import parse_mqtt_url
from services.eventlog import open_log
from services.regulations.tournament_file import load_tournament
from venue.tournament import register, start_round

pytestmark = pytest.mark.live
PRESET = Path(__file__).resolve().parents[2] / "events" / "checkers-11-man-national-2017.toml"
MIN = 60_000
LEAD_MS = 4000  # the limit passes this long after the gateway starts


async def wait_for_all(log, count: int, timeout=10.0):
    """The log once it holds ``count`` late-start draws (each game's in the tick that finds it)."""
    deadline = time.monotonic() + timeout
    while True:
        entries = await log.read()
        if len([e for e in entries if e.type == "late_start_draw"]) >= count or time.monotonic() > deadline:
            return entries
        await asyncio.sleep(0.05)


async def test_games_not_started_30_minutes_before_the_round_end_are_drawn(tmp_path):
    slug = f"it-late-{uuid.uuid4().hex[:8]}"
    t = load_tournament(PRESET.read_text().replace("# end = ", "end = "), str(PRESET))
    now = int(time.time() * 1000)
    end = now + 30 * MIN + LEAD_MS
    r1 = dataclasses.replace(t.rounds[0], start_ms=end - 4 * 60 * MIN, end_ms=end)
    t = dataclasses.replace(t, slug=slug, rounds=(r1, *t.rounds[1:]))
    log = open_log(f"sqlite:///{tmp_path / 'log.sqlite'}", slug)
    rs = await start_round(log, await register(log, t), 1)
    games = [g["id"] for g in rs["games"]]
    first_on = {}  # board -> the first game it plays (a checkers match has two: X.A.b)
    for g in rs["games"]:
        first_on.setdefault(str(g["board"]), g["id"])
    assert len(first_on) == 5  # 11 players, Berger tables: five boards and a bye
    async with embedded_broker() as broker:
        gw = Gateway(log, broker, slug, tournament=t, client_id=f"gw-{slug}")
        task = asyncio.create_task(gw.run())
        try:
            await asyncio.wait_for(gw.ready.wait(), 10)
            target = parse_mqtt_url(broker)
            async with aiomqtt.Client(target.host, target.port, identifier=f"dev-{slug}") as client:
                red_first = {str(g["board"]): g["ballot"]["moves"][0] for g in rs["games"]}
                await client.publish(f"venue/{slug}/boards/1/move", json.dumps({"seq": 1, "move": red_first["1"]}),
                                     qos=1)
                [first] = await wait_for(log, lambda e: e.type == "move_played" and e.data.get("board") == "1")
                started = first.data["game"]
                assert started == first_on["1"]
                assert first.at <= end - 30 * MIN, "board 1 must start before the limit for this test"

                # Every other game of the round is drawn once the limit passes; the started one is not.
                await wait_for(log, lambda e: e.type == "late_start_draw" and e.data["game"] == first_on["5"],
                               timeout=LEAD_MS / 1000 + 20)
                entries = await wait_for_all(log, len(games) - 1)
                drawn = [e for e in entries if e.type == "late_start_draw"]
                assert sorted(e.data["game"] for e in drawn) == sorted(g for g in games if g != started)
                for e in drawn:
                    assert "X.B.e" in e.data["rule"] and "shall be declared drawn" in e.data["rule"]
                    assert e.data["latest_start_ms"] == end - 30 * MIN and e.data["started_at"] is None
                    assert e.at > end - 30 * MIN
                    [ended] = [x for x in entries if x.type == "game_ended" and x.data["game"] == e.data["game"]]
                    assert (ended.data["result"], ended.data["termination"], ended.data["by"]) == (
                        "1/2-1/2", "late_start", "regulations")
                assert not [x for x in entries if x.type == "game_ended" and x.data["game"] == started]

                # Board 2's Red arrives now: its games were declared drawn, the move is refused.
                await client.publish(f"venue/{slug}/boards/2/move", json.dumps({"seq": 1, "move": red_first["2"]}),
                                     qos=1)
                [refused] = await wait_for(log, lambda e: e.type == "move_rejected" and e.data.get("board") == "2")
                assert "game over" in refused.data["reason"]
                assert not [e for e in await log.read() if e.type == "move_played" and e.data.get("board") == "2"]
        finally:
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)
            await log.close()
