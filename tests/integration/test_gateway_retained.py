"""Retained device messages are never recorded (issue 28 item 3), against the real Mosquitto.

Issue 28: "A retained message on a move topic (the ACL allows retain there) is re-recorded at every
gateway start and became the first move of the next round's game on that board before the board sent
anything." A stale move is published retained on board 1's move topic before the gateway of a fresh
tournament ever subscribed; the broker hands it to the gateway at each subscription with RETAIN set
(MQTT 3.1.1 3.3.1.3). It is acknowledged and ignored at the first start and at a restart; the board's
real moves are then the game's first. A retained ``status`` (the protocol's own, docs/protocol.md
"Status") is still recorded. Mosquitto's ACL file cannot refuse retain on some topics only
(deploy/README.md "Retained messages"), so this is the gateway's rule.

Moves: FIDE Candidates 2024 (open), round 1, Abasov - Nepomniachtchi
(../shared/data/chess/fide_candidates_2024_open.pgn, game 2); the stale move is the last move of the
game before it in the file (Caruana - Nakamura, game 1), as a board left from a previous game.
"""

from __future__ import annotations

import asyncio
import json
import uuid

import aiomqtt
import pytest
from eventually import eventually_async
from live_helpers import Device, candidates_moves, log_until, played

from gateway import Gateway
from services.eventlog.memory import MemoryLog

pytestmark = pytest.mark.live
MQTT = "mqtt://127.0.0.1:1883"


def round_data() -> dict:
    return {"round": "1", "event": "Retained", "site": "", "date": "2024.04.04", "games": [
        {"id": "1-1", "board": "1", "round": "1", "white": "Abasov, Nijat", "black": "Nepomniachtchi, Ian",
         "variant": "chess", "time_control": None, "fen": None, "kind": "classical"}]}


async def start(log: MemoryLog, slug: str) -> tuple[Gateway, asyncio.Task]:
    gw = Gateway(log, MQTT, slug)
    task = asyncio.create_task(gw.run())
    await asyncio.wait_for(gw.ready.wait(), 10)
    return gw, task


async def stop(task: asyncio.Task) -> None:
    task.cancel()
    await asyncio.gather(task, return_exceptions=True)


async def test_a_retained_move_published_before_the_gateway_starts_is_not_recorded(shared_data):
    slug = f"retained-{uuid.uuid4().hex[:8]}"
    stale = candidates_moves(shared_data, 1)[-1]
    moves = candidates_moves(shared_data, 2)[:4]
    move_topic, status_topic = f"venue/{slug}/boards/1/move", f"venue/{slug}/boards/1/status"
    log = MemoryLog(slug)
    await log.append("round_started", round_data())
    async with aiomqtt.Client("127.0.0.1", 1883, identifier=f"board-{slug}") as board:
        await board.publish(move_topic, json.dumps({"seq": 1, "move": stale}), qos=1, retain=True)
        await board.publish(status_topic, "online", qos=1, retain=True)
        try:
            gw, task = await start(log, slug)
            try:
                await eventually_async(lambda: gw.counts["retained"] == 1, 10)
                entries = await log_until(log, lambda es: any(e.type == "device_online" for e in es), 10)
            finally:
                await stop(task)
            gw, task = await start(log, slug)  # a restart: the broker sends the retained move again
            try:
                await eventually_async(lambda: gw.counts["retained"] == 1, 10)
                device = Device(board, slug, "1")
                for uci in moves:
                    await device.send("move", move=uci)
                entries = await log_until(log, lambda es: len(played(es, "1-1")) == len(moves), 10)
            finally:
                await stop(task)
        finally:  # clear the retained messages (an empty retained payload, MQTT 3.1.1 3.3.1.3)
            await board.publish(move_topic, b"", qos=1, retain=True)
            await board.publish(status_topic, b"", qos=1, retain=True)
    assert played(entries, "1-1") == moves  # the board's own moves are the game's first
    assert not any(stale in json.dumps(e.data) for e in entries)  # the stale move is nowhere in the log
    assert [e.type for e in entries].count("device_online") == 1  # the retained status, once
    assert not [e for e in entries if e.type in ("message_rejected", "message_duplicate", "seq_gap")]


async def test_a_retained_status_is_recorded_once_across_a_new_round_and_restarts():
    """Fresh-user report #13: every restart of ``venue serve`` after a round had started appended a
    ``device_offline`` per board from the retained statuses. docs/protocol.md "Status": the retained
    message the gateway "receives again after each reconnect or restart is not recorded twice".
    Board 1's last will ``offline`` retained; the gateway records it, round 2 starts on board 1,
    the gateway restarts twice: still one ``device_offline``."""
    slug = f"retained-{uuid.uuid4().hex[:8]}"
    status_topic = f"venue/{slug}/boards/1/status"
    log = MemoryLog(slug)
    await log.append("round_started", round_data())
    async with aiomqtt.Client("127.0.0.1", 1883, identifier=f"board-{slug}") as board:
        await board.publish(status_topic, "offline", qos=1, retain=True)
        try:
            gw, task = await start(log, slug)
            try:
                await log_until(log, lambda es: any(e.type == "device_offline" for e in es), 10)
            finally:
                await stop(task)
            nxt = round_data()
            nxt["round"] = "2"
            nxt["games"] = [{**g, "id": "2-1", "round": "2"} for g in nxt["games"]]
            await log.append("round_started", nxt)
            for _ in range(2):  # restarts: the broker sends the retained status again each time
                gw, task = await start(log, slug)
                try:
                    await eventually_async(lambda: gw.counts["messages"] >= 1, 10)
                finally:
                    await stop(task)
        finally:
            await board.publish(status_topic, b"", qos=1, retain=True)
    entries = await log.read()
    assert [e.type for e in entries].count("device_offline") == 1
