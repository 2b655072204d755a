"""Parked spectators (dashboard.parked, dashboard.direct_ws.DirectProtocol.park; issue 31 "Spectators,
cheaper"): under ``venue.serve`` a ``/ws/live`` spectator holds no task once its first messages are
sent, still gets every delta once and in order, stays connected while it answers pings, may send text
(ignored), leaves the hub when it goes away; a slow one is bounded (F12) and ends with a snapshot.

Sources: the entries of round 5 of the FIDE Candidates 2024 (open),
../shared/data/chess/fide_candidates_2024_open.pgn; ../shared/cases/field-cases.md F12.
"""

from __future__ import annotations

import asyncio

import websockets
from dashboard_helpers import T0
from live_socket import _raw_ws_that_never_reads, interleaved, recv
from replay_entries import round_started

from dashboard.app import create_app
from dashboard.direct_ws import parker
from services.eventlog.memory import MemoryLog
from venue.serve import serving


def last_on_page(published, games) -> int:
    """The seq of the last entry of ``games`` among ``published`` ``[(seq, entry)]``."""
    return max(seq for seq, e in published if e.data.get("game") in games)


async def _until(predicate, timeout: float = 5.0) -> None:
    deadline = asyncio.get_running_loop().time() + timeout
    while not predicate():
        assert asyncio.get_running_loop().time() < deadline, "condition not met in time"
        await asyncio.sleep(0.01)


async def test_parked_spectators_hold_no_task_and_get_every_delta_in_order(round5):
    log = MemoryLog("candidates-2024")
    await log.append_many([round_started(round5, "5", T0)])
    app = create_app(log)
    hub = app.state.feed.hub
    async with serving(app) as url:
        ws_url = url.replace("http", "ws") + "/ws/live"
        tasks_before = len(asyncio.all_tasks())
        clients = [await websockets.connect(ws_url + ("?boards=1-2" if i % 2 else ""), max_queue=None)
                   for i in range(20)]
        for ws in clients:
            assert (await recv(ws))["type"] == "snapshot"
        await _until(lambda: all(c.wake.callback is not None for c in hub.clients))
        # 20 spectators, their own websockets client tasks aside (2 each in this process): no server task
        assert len(asyncio.all_tasks()) - tasks_before <= 2 * len(clients)
        await clients[0].send("hello")  # a spectator that talks is ignored, not stalled
        published = []
        updates = interleaved(round5)
        for i in range(0, len(updates), 7):
            published += [(e.seq, e) for e in await log.append_many(updates[i:i + 7])]
            await asyncio.sleep(0.003)
        game_board = {g["id"]: g["board"] for g in app.state.feed.view.games()}
        last = published[-1][0]
        for i, ws in enumerate(clients):
            got, boards = [], set()
            while not got or got[-1] < last:
                m = await recv(ws)
                if m["type"] == "game":
                    got.append(m["seq"])
                    boards.add(game_board[m["id"]])
                if i % 2 and got and m["seq"] >= last_on_page(published, ("5-1", "5-2")):
                    break
            assert got == sorted(set(got))  # in order, none twice
            assert boards == ({"1", "2"} if i % 2 else {"1", "2", "3", "4"})
        assert len(hub.clients) == 20 and all(c.dropped == 0 for c in hub.clients)
        assert sum(c.sent_direct for c in hub.clients) > 0
        for ws in clients[:10]:
            await ws.close()
        await _until(lambda: len(hub.clients) == 10)  # gone from the hub when the connection ends
        for ws in clients[10:]:
            await ws.close()
        await _until(lambda: not hub.clients)


async def test_a_parked_spectator_that_never_reads_is_bounded_then_gets_a_snapshot(round5):
    """F12 on the parked path: the slow spectator's queue is bounded (it goes stale), the fast one
    gets every delta, and once the slow one reads it is sent the coalesced latest state."""
    log = MemoryLog("candidates-2024")
    await log.append_many([round_started(round5, "5", T0)])
    app = create_app(log, queue_cap=16)
    hub = app.state.feed.hub
    async with serving(app, send_buffer=4096) as url:
        host, port = url.removeprefix("http://").split(":")
        fast = await websockets.connect(url.replace("http", "ws") + "/ws/live", max_queue=None)
        assert (await recv(fast))["type"] == "snapshot"
        slow = _raw_ws_that_never_reads(host, int(port))
        await _until(lambda: len(hub.clients) == 2 and all(c.wake.callback for c in hub.clients))
        updates, seqs = interleaved(round5), []
        for i in range(0, len(updates), 7):  # bursts, as a hall's moves and presses come
            seqs += [e.seq for e in await log.append_many(updates[i:i + 7])]
            await asyncio.sleep(0.003)
        got: list[int] = []
        while not got or got[-1] < seqs[-1]:
            got.append((await recv(fast))["seq"])
        assert got == sorted(set(got))  # the fast one: in order, none twice, to the last
        slow_client = next(c for c in hub.clients if c.dropped)
        assert slow_client.high_water <= 16
        fast_client = next(c for c in hub.clients if c is not slow_client)
        assert fast_client.dropped == 0
        slow.setblocking(False)
        loop = asyncio.get_running_loop()
        marker = f'"type":"snapshot","seq":{app.state.feed.view.seq}'.encode()
        data = b""
        deadline = loop.time() + 10
        while marker not in data and loop.time() < deadline:
            try:
                data += await asyncio.wait_for(loop.sock_recv(slow, 65536), 1)
            except asyncio.TimeoutError:
                pass
        assert marker in data  # the latest state, coalesced, after what was already in flight
        slow.close()
        await fast.close()
        await _until(lambda: not hub.clients)


def test_park_is_absent_under_another_server():
    """Without uvicorn's DirectProtocol the endpoint keeps its tasks (Starlette's TestClient, others)."""
    assert parker({"type": "websocket", "extensions": {"websocket.http.response": {}}}) is None
    assert parker({"type": "websocket"}) is None
