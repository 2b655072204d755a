"""Clock presses queued in the real Mosquitto (127.0.0.1:1883) while the gateway is stopped are judged
at when they were made, not when the restarted gateway reads them (``services.clock.instant``).

Field case F11 (../shared/cases/field-cases.md): "Stop the broker for 5 s (or drop the gateway's TCP
link). During the gap the e-board publishes plies 21-24 at QoS 1 ... After the restart, the e-board
publishes ply 25." Here the in-process gateway is stopped (its session kept by the broker, MQTT 3.1.1
3.1.2.4) after ply 4, plies 5-8 are played meanwhile, and a new gateway on the same log starts 5 s
after ply 8's press and reads the queue; ply 9 follows live. The moves are the opening of FIDE
Candidates 2024, round 5, Praggnanandhaa - Nepomniachtchi (``venue/data/candidates_2024_round5.pgn``),
under the event's control (120 minutes for 40 moves, no increment before move 41: spec
``40/7200:1800+30``); the clock device shows what a correct clock shows for the real time each
player took here (FIDE Laws 6.2.1: the press completes the move). The tolerance is the default 2 s
(docs/tournament-file.md ``clock_tolerance``); before this fix the restarted gateway charged ply 5's
press the whole outage and reported a ``clock_disagreement`` of about 6 s.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
import uuid
from datetime import datetime, timezone

import aiomqtt
import pytest
from candidates_r5 import CANDIDATES, CONTROL, START_MS, source_game
from live_helpers import Device, log_until, running

from gateway import Gateway
from services.eventlog import open_log

pytestmark = pytest.mark.live
MQTT = "mqtt://127.0.0.1:1883"
THINK_S = 0.4
OUTAGE_S = 5.0  # F11: "Stop the broker for 5 s"


class Clock:
    """A correct clock device: the running side's time falls with the wall clock, a press stops it
    and starts the opponent's (no increment before move 41)."""

    def __init__(self, device: Device, sent_at: bool):
        self.device, self.sent_at = device, sent_at
        self.ms = {"white": START_MS, "black": START_MS}
        self.running, self.since = "white", 0.0

    async def _send(self, event: str) -> None:
        extra = {"sent_at": datetime.now(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")} \
            if self.sent_at else {}
        await self.device.send("clock", event=event, white_ms=self.ms["white"], black_ms=self.ms["black"],
                               running=self.running, **extra)

    async def start(self) -> None:
        self.since = time.time()
        await self._send("start")

    async def press(self) -> None:
        now = time.time()
        self.ms[self.running] -= int((now - self.since) * 1000)
        self.running, self.since = ("black" if self.running == "white" else "white"), now
        await self._send("press")


def round_data() -> dict:
    return {"round": "1", "event": "Candidates 2024", "site": "Toronto", "date": "2024.04.09", "games": [
        {"id": "1-1", "board": "1", "round": "1", "white": "Praggnanandhaa R", "black": "Nepomniachtchi, Ian",
         "variant": "chess", "time_control": CONTROL, "fen": None, "kind": "classical"}]}


@pytest.mark.parametrize("sent_at", [True, False], ids=["sent_at", "no sent_at"])
async def test_presses_queued_while_the_gateway_is_stopped_give_no_false_disagreement(tmp_path, sent_at):
    slug = f"outage-{uuid.uuid4().hex[:8]}"
    store = f"sqlite:///{tmp_path / 'venue.sqlite'}"
    moves = [m.uci() for m in source_game().mainline_moves()][:9]
    log = open_log(store, slug)
    await log.append("round_started", round_data())
    try:
        async with aiomqtt.Client("127.0.0.1", 1883, identifier=f"dev-{slug}") as client:
            board, clock = Device(client, slug, "1"), Clock(Device(client, slug, "1"), sent_at)

            async def ply(uci: str) -> None:
                await asyncio.sleep(THINK_S)
                await board.send("move", move=uci)
                await clock.press()

            first = Gateway(log, MQTT, slug, tournament=CANDIDATES)
            async with running(first):
                await clock.start()
                for uci in moves[:4]:
                    await ply(uci)
                await log_until(log, lambda es: sum(e.type == "clock_pressed" for e in es) == 4, 15)
            for uci in moves[4:8]:  # the gateway is away: the broker queues them
                await ply(uci)
            await asyncio.sleep(OUTAGE_S)
            again = open_log(store, slug)
            try:
                second = Gateway(again, MQTT, slug, tournament=CANDIDATES)
                async with running(second):
                    await log_until(again, lambda es: sum(e.type == "clock_pressed" for e in es) == 8, 20)
                    await ply(moves[8])
                    entries = await log_until(again, lambda es: sum(e.type == "clock_pressed" for e in es) == 9, 15)
                    await asyncio.sleep(0.3)  # the regulations' answers to the last press
                    entries = await again.read()
            finally:
                with contextlib.suppress(Exception):
                    await again.close()
    finally:
        await log.close()
    assert [e.data["move"] for e in entries if e.type == "move_played"] == moves
    assert [e.data for e in entries if e.type == "clock_disagreement" and e.data["kind"] in ("time", "move_counter")] == []
    queued = [e for e in entries if e.type == "clock_pressed"][4:8]
    if sent_at:  # judged at the clock's own instants, each before the restarted gateway read it
        assert all(e.data["made_at"] < e.at - OUTAGE_S * 1000 for e in queued)
    else:  # known only to lie after ply 4's press (itself read within 30 s of the first gateway's
        # link coming up: known only to lie after an earlier instant still, services.clock.instant)
        fourth = [e for e in entries if e.type == "clock_pressed"][3]
        assert all(e.data["earliest_at"] <= fourth.at for e in queued)
