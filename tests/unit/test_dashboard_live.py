"""``/ws/live`` over a real uvicorn server: snapshot, deltas with seq, resume, and field case F12.

Sources: the entries of round 5 of the FIDE Candidates 2024 (open),
../shared/data/chess/fide_candidates_2024_open.pgn; ../shared/cases/field-cases.md F12 (three
spectators, one never reads; 500 updates; the others get every update within 1 s; memory for the
slow one bounded; it ends with a coalesced latest full state, not the backlog).
"""

from __future__ import annotations

import asyncio
import json
import time

import pytest
import websockets
from dashboard_helpers import T0
from eventually import eventually_async
from live_socket import _raw_ws_that_never_reads, interleaved, recv
from replay_entries import game_entries, round_started

from dashboard.app import create_app
from services.eventlog.memory import MemoryLog
from venue.serve import serving


async def test_snapshot_then_deltas_with_seq(round5):
    log = MemoryLog("candidates-2024")
    await log.append_many([round_started(round5, "5", T0)])
    async with serving(create_app(log)) as url:
        async with websockets.connect(url.replace("http", "ws") + "/ws/live") as ws:
            snap = await recv(ws)
            assert snap["type"] == "snapshot" and snap["seq"] == 1
            assert [g["id"] for g in snap["games"]] == ["5-1", "5-2", "5-3", "5-4"]
            entries = await log.append_many(game_entries(round5[0], "5-1", "1", T0 + 1000)[:5])
            got = [await recv(ws) for _ in entries]
            assert [m["seq"] for m in got] == [e.seq for e in entries]
            assert {k: got[1]["append"][k] for k in ("move", "san")} == {"move": "e2e4", "san": "e4"}
            assert got[2]["clk"] == [[1, 7_164_000]]  # 1. e4 {[%clk 1:59:24]}


async def test_resume_after_seq(round5):
    log = MemoryLog("candidates-2024")
    items = [round_started(round5, "5", T0)] + game_entries(round5[1], "5-2", "2", T0 + 1000)
    await log.append_many(items[:11])
    async with serving(create_app(log)) as url:
        base = url.replace("http", "ws") + "/ws/live"
        async with websockets.connect(base) as ws:
            assert (await recv(ws))["seq"] == 11
        missed = await log.append_many(items[11:21])
        async with websockets.connect(base + "?after=11") as ws:
            got = [await recv(ws) for _ in missed]
            assert [m["type"] for m in got] == ["game"] * 10
            assert [m["seq"] for m in got] == list(range(12, 22))
        async with websockets.connect(base + "?after=21") as ws:  # nothing missed: silence
            with pytest.raises(asyncio.TimeoutError):
                await recv(ws, timeout=0.3)


async def test_resume_too_old_gets_a_snapshot(round5):
    log = MemoryLog("candidates-2024")
    items = [round_started(round5, "5", T0)] + game_entries(round5[1], "5-2", "2", T0 + 1000)
    await log.append_many(items[:60])
    async with serving(create_app(log, history=10)) as url:
        async with websockets.connect(url.replace("http", "ws") + "/ws/live?after=5") as ws:
            snap = await recv(ws)
            assert snap["type"] == "snapshot" and snap["seq"] == 60
            assert snap["games"][1]["ply"] == 29  # clock_started + 29 x (move, press) + the press of ply 29


async def _f12(app, publish, n: int, cap: int, send_buffer: int | None = None) -> None:
    """Three spectators; the third never reads. ``publish(i)`` makes update ``i`` (0..n-1) and
    returns its seq. Checks the F12 expectations."""
    hub = app.state.feed.hub
    kw = {} if send_buffer is None else {"send_buffer": send_buffer}
    async with serving(app, **kw) as url:
        host, port = url.removeprefix("http://").split(":")
        ws_url = url.replace("http", "ws") + "/ws/live"
        fast = [await websockets.connect(ws_url, max_queue=None) for _ in range(2)]
        for ws in fast:
            assert (await recv(ws))["type"] == "snapshot"
        slow = _raw_ws_that_never_reads(host, int(port))
        await eventually_async(lambda: len(hub.clients) >= 3)
        received = [dict() for _ in fast]

        async def reader(i, ws):
            while len(received[i]) < n:
                m = await recv(ws)
                received[i][m["seq"]] = time.monotonic()

        readers = [asyncio.create_task(reader(i, ws)) for i, ws in enumerate(fast)]
        published = {}
        for i in range(n):
            seq = await publish(i)
            published[seq] = time.monotonic()
            await asyncio.sleep(0.002)  # moves plus clock ticks, spread out as in a hall
        await asyncio.wait_for(asyncio.gather(*readers), 10)

        for got in received:
            assert sorted(got) == sorted(published)  # every update, none twice
            assert max(got[s] - published[s] for s in published) <= 1.0
        stale = [c for c in hub.clients if c.dropped > 0]
        assert len(stale) == 1  # only the spectator that stopped reading lost its backlog
        assert all(c.high_water <= cap for c in hub.clients)  # memory bounded by the queue cap

        # Spectator 3 reads again: after what was already in flight it gets one coalesced state.
        slow.setblocking(False)
        loop = asyncio.get_running_loop()
        data = b""
        marker = f'"type":"snapshot","seq":{app.state.feed.view.seq}'.encode()
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and marker not in data:
            try:
                chunk = await asyncio.wait_for(loop.sock_recv(slow, 65536), 1)
            except asyncio.TimeoutError:
                continue
            if not chunk:
                break
            data += chunk
        slow.close()
        assert marker in data
        assert data.count(b'"type":"game"') < n  # the backlog was dropped, not delivered
        for ws in fast:
            await ws.close()


async def test_f12_500_updates_of_2kb(round5):
    """F12 as written: 500 updates of about 2 KB each, through the publish path (Hub.publish)."""
    log = MemoryLog("candidates-2024")
    await log.append_many([round_started(round5, "5", T0)])
    cap = 64
    app = create_app(log, queue_cap=cap)
    hub = app.state.feed.hub
    # Each update is Gukesh-Abasov's full GAME state at a ply (moves, SAN, %clk): about 2 KB.
    from services.views.spectator import SpectatorView as HallView
    from services.eventlog.base import Entry

    view = HallView()
    view.apply(Entry(1, T0, *round_started(round5, "5", T0)[:2]))
    states = []
    for k, (t, d, at) in enumerate(game_entries(round5[2], "5-3", "3", T0 + 1000), start=2):
        view.apply(Entry(k, at, t, d))
        states.append(view.game("5-3"))
    window = states[40:140]  # the states from about ply 20 on: ~2.3 KB each with GAME's per-ply "spent"
    texts = [json.dumps({"type": "game", "seq": 2 + i, "id": "5-3", "set": window[i % 100]})
             for i in range(500)]
    assert 1800 <= sum(map(len, texts)) / 500 <= 2600

    async def publish(i):
        hub.publish(2 + i, texts[i])
        return 2 + i

    await _f12(app, publish, 500, cap)


async def test_f12_real_feed(round5):
    """F12 through the whole pipeline (log, fold, encode, publish): the round's real entries."""
    log = MemoryLog("candidates-2024")
    await log.append_many([round_started(round5, "5", T0)])
    cap = 16
    app = create_app(log, queue_cap=cap)
    updates = interleaved(round5)

    async def publish(i):
        return (await log.append(*updates[i])).seq

    # Real deltas are a few hundred bytes: a 16 KiB send buffer makes the stall show within the round.
    await _f12(app, publish, len(updates), cap, send_buffer=16 * 1024)


# --- /ws/live?boards=SPEC ------------------------------------------------------------------------

async def _drain(ws, timeout=0.5) -> list[dict]:
    """Every message that arrives until ``timeout`` seconds of silence."""
    out = []
    while True:
        try:
            out.append(await recv(ws, timeout=timeout))
        except asyncio.TimeoutError:
            return out


async def test_boards_filter_snapshot_and_deltas(round5):
    log = MemoryLog("candidates-2024")
    await log.append_many([round_started(round5, "5", T0)])
    updates = interleaved(round5)[:120]
    async with serving(create_app(log)) as url:
        base = url.replace("http", "ws") + "/ws/live"
        async with websockets.connect(base + "?boards=3") as three, \
                websockets.connect(base + "?boards=1,4") as page, websockets.connect(base) as everyone:
            snaps = [await recv(ws) for ws in (three, page, everyone)]
            assert [[g["board"] for g in s["games"]] for s in snaps] == [["3"], ["1", "4"], ["1", "2", "3", "4"]]
            assert snaps[0]["games"][0]["white"] == round5[2].headers["White"]
            assert snaps[0]["round"] == snaps[2]["round"] and snaps[0]["seq"] == snaps[2]["seq"] == 1
            await log.append_many(updates)
            got = [await _drain(ws) for ws in (three, page, everyone)]
            assert len(got[2]) == len(updates)  # every entry of these games makes one delta
            for mine, ids in zip(got[:2], ({"5-3"}, {"5-1", "5-4"})):
                assert mine == [m for m in got[2] if m["id"] in ids]
            ucis = [m["append"]["move"] for m in got[0] if "append" in m]
            assert ucis == [mv.uci() for mv in round5[2].mainline_moves()][:len(ucis)] and ucis

            # A new round reaches everyone, cut to each selection's boards.
            entry = await log.append(*round_started(round5, "6", T0 + 10**7))
            rounds = [await recv(ws) for ws in (three, page, everyone)]
            assert all(m["type"] == "round" and m["seq"] == entry.seq for m in rounds)
            assert [[g["board"] for g in m["games"]] for m in rounds] == [["3"], ["1", "4"], ["1", "2", "3", "4"]]


async def test_resume_with_boards(round5):
    log = MemoryLog("candidates-2024")
    await log.append_many([round_started(round5, "5", T0)])
    updates = interleaved(round5)
    await log.append_many(updates[:40])
    async with serving(create_app(log)) as url:
        base = url.replace("http", "ws") + "/ws/live"
        async with websockets.connect(base + "?boards=2") as ws:
            last = (await recv(ws))["seq"]
        missed = await log.append_many(updates[40:100])
        async with websockets.connect(f"{base}?boards=2&after={last}") as ws:
            got = await _drain(ws)
        want = [e.seq for e in missed if e.data.get("game") == "5-2"]
        assert want and [m["seq"] for m in got] == want
        assert {m["type"] for m in got} == {"game"}
        async with websockets.connect(f"{base}?after={last}&boards=4") as ws:  # either order
            assert {m["id"] for m in await _drain(ws)} == {"5-4"}
        async with websockets.connect(f"{base}?boards=2&after=0") as ws:  # too old: a cut snapshot
            snap = await recv(ws)
            assert snap["type"] == "snapshot" and [g["id"] for g in snap["games"]] == ["5-2"]


@pytest.mark.parametrize("query, reason", [
    ("boards=5-2", "boards: range 5-2 is backwards"),
    ("boards=x-y", "boards: 'x-y' is not a range of board numbers (LO-HI)"),
    ("boards=", "boards: empty list"),
    ("boards=1,,2", "boards: empty item"),
    ("boards=1-5000", "boards: more than 2000 boards"),
    ("boards=1&boards=2", "boards: given more than once"),
])
async def test_bad_boards_close_with_1008_and_the_reason(round5, query, reason):
    log = MemoryLog("candidates-2024")
    await log.append_many([round_started(round5, "5", T0)])
    app = create_app(log)
    async with serving(app) as url:
        async with websockets.connect(url.replace("http", "ws") + "/ws/live?" + query) as ws:
            with pytest.raises(websockets.ConnectionClosed) as exc:
                await ws.recv()
        assert exc.value.rcvd.code == 1008 and exc.value.rcvd.reason == reason
        assert app.state.feed.hub.clients == set()


async def test_a_stale_board_client_gets_a_cut_snapshot(round5):
    """F12 for a filtered client: its backlog is dropped and it is sent its own boards' state."""
    from dashboard.boardspec import parse
    from dashboard.feed import Feed
    from dashboard.hub import Hub
    from dashboard.live import _Cut
    from dashboard.ws_feed import write_feed
    from services.eventlog.base import Entry

    hub = Hub(cap=4)
    feed = Feed(None, hub)
    boards = parse("2")
    client = hub.add(boards)
    items = [round_started(round5, "5", T0)] + interleaved(round5)[:200]
    for seq, (t, d, at) in enumerate(items, start=1):
        feed.ingest(Entry(seq, at, t, d))
    assert client.stale

    sent: list[str] = []

    class Socket:
        async def send_text(self, text):
            sent.append(text)

    task = asyncio.create_task(write_feed(Socket(), _Cut(feed, boards), client, [], 0))
    await eventually_async(lambda: sent, 5)
    task.cancel()
    assert len(sent) == 1
    snap = json.loads(sent[0])
    assert snap["type"] == "snapshot" and snap["seq"] == len(items)
    assert snap["games"] == [g for g in feed.view.games() if g["board"] == "2"]


# --- the fast path: one shared frame written to idle spectators (dashboard/direct_ws.py) ----------

async def test_direct_frames_keep_every_delta_in_order(round5):
    """The round's real entries appended in bursts while three spectators read: each gets every
    delta once, in log order, whether it went as a shared frame (idle client) or through its queue
    (busy client); most go the direct way."""
    log = MemoryLog("candidates-2024")
    await log.append_many([round_started(round5, "5", T0)])
    app = create_app(log)
    hub = app.state.feed.hub
    updates = interleaved(round5)
    async with serving(app) as url:
        ws_url = url.replace("http", "ws") + "/ws/live"
        clients = [await websockets.connect(ws_url, max_queue=None) for _ in range(3)]
        for ws in clients:
            assert (await recv(ws))["type"] == "snapshot"
        published = []
        for i in range(0, len(updates), 7):  # bursts of 7 entries, as a hall's moves and presses come
            published += [e.seq for e in await log.append_many(updates[i:i + 7])]
            await asyncio.sleep(0.003)
        for ws in clients:
            got = []
            while len(got) < len(published):
                m = await recv(ws)
                if m["type"] == "game":
                    got.append(m["seq"])
            assert got == sorted(set(got))  # in order, none twice
            assert set(got) <= set(published) and got[-1] == published[-1]
        assert sum(c.sent_direct for c in hub.clients) > 0
        assert all(c.dropped == 0 for c in hub.clients)
        for ws in clients:
            await ws.close()


def test_direct_writer_absent_under_another_server():
    """Without uvicorn's DirectProtocol (any other ASGI server) the hub falls back to send_text."""
    from dashboard.direct_ws import direct_writer

    assert direct_writer({"type": "websocket", "extensions": {"websocket.http.response": {}}}) is None
    assert direct_writer({"type": "websocket"}) is None


# --- issue 11 "Restarts seen late and snapshots that go back in time" ------------------------------

class _SlowLog(MemoryLog):
    """A log whose follower hands out each entry late, as a dashboard catching up with a long log."""

    def __init__(self, *args, delay_s: float = 0.02, **kwargs):
        super().__init__(*args, **kwargs)
        self.delay_s = delay_s

    async def follow(self, after: int = 0, **kwargs):
        async for entry in super().follow(after, **kwargs):
            await asyncio.sleep(self.delay_s)
            yield entry


async def test_a_restarting_dashboard_sends_nothing_older_than_the_log(round5):
    """A dashboard that has not caught up serves no snapshot: the first message a spectator gets is
    as new as the log was when the dashboard started (issue 11: "a dashboard restarting accepts
    spectators before it has caught up and sends them a snapshot older than their own state")."""
    log = _SlowLog("candidates-2024")
    stored = await log.append_many([round_started(round5, "5", T0)] + interleaved(round5)[:60])
    async with serving(create_app(log)) as url:
        async with websockets.connect(url.replace("http", "ws") + "/ws/live") as ws:
            first = await recv(ws, timeout=10)
            assert first["type"] == "snapshot" and first["seq"] >= stored[-1].seq
            assert sum(g["ply"] for g in first["games"]) == sum(
                1 for e in stored if e.type == "move_played")


async def test_a_client_ahead_of_the_dashboard_waits_for_it(round5, monkeypatch):
    """A client that saw seq N (on another dashboard node) is served by a node that has folded at
    least N, or told to come back (close 1013), never sent an older state."""
    import httpx

    import dashboard.live as live

    monkeypatch.setattr(live, "CATCH_UP_WAIT_S", 0.5)
    log = _SlowLog("candidates-2024", delay_s=0.2)  # this node folds 5 entries a second
    stored = await log.append_many([round_started(round5, "5", T0)] + interleaved(round5)[:20])
    async with serving(create_app(log)) as url:
        base = url.replace("http", "ws") + "/ws/live"
        # the log holds seq 21, the node has not folded it within the wait: come back later
        async with websockets.connect(base + f"?after={stored[-1].seq}") as ws:
            with pytest.raises(websockets.ConnectionClosed) as closed:
                await recv(ws, timeout=5)
            assert closed.value.rcvd.code == 1013
        log.delay_s = 0
        entries = await log.append_many(interleaved(round5)[20:23])
        async with httpx.AsyncClient(base_url=url) as http:  # until this node has folded them

            async def folded() -> bool:
                return (await http.get("/api/health")).json()["seq"] >= entries[-1].seq

            await eventually_async(folded)
        async with websockets.connect(base + f"?after={entries[-1].seq}") as ws:
            await log.append_many(interleaved(round5)[23:24])
            m = await recv(ws)
            assert m["seq"] > entries[-1].seq


async def test_a_seq_beyond_the_logs_end_gets_a_snapshot_of_this_log(round5):
    """A page left open across a restart of the demo (a new log) resumes with ``after`` = a seq of
    the old log, beyond this log's end: no node will ever fold that far, so it is sent this log's
    snapshot at once (a new user saw such a page stay on the old games, saying LIVE, for ever)."""
    log = MemoryLog("candidates-2024")
    stored = await log.append_many([round_started(round5, "5", T0)] + interleaved(round5)[:10])
    async with serving(create_app(log)) as url:
        async with websockets.connect(url.replace("http", "ws") + "/ws/live?after=999999") as ws:
            first = await recv(ws, timeout=5)
            assert first["type"] == "snapshot" and first["seq"] == stored[-1].seq
            await log.append_many(interleaved(round5)[10:11])
            m = await recv(ws)
            assert m["type"] == "game" and m["seq"] == stored[-1].seq + 1


async def test_a_node_behind_a_balancer_refuses_work_until_it_has_caught_up(round5):
    """``--refuse-until-caught-up`` (deploy/'s nginx deployment): a restarted node still replaying
    the log answers 503 with Retry-After, to page loads and to websocket handshakes alike, so nginx's
    ``proxy_next_upstream ... http_503`` sends the spectator to another node (issue 15: "a test kills
    one node mid-round and its spectators reconnect to another and miss nothing"); ``/api/health``
    stays open. Once caught up it serves as usual, nothing older than the log."""
    import httpx

    log = _SlowLog("candidates-2024", delay_s=0.05)
    stored = await log.append_many([round_started(round5, "5", T0)] + interleaved(round5)[:60])
    async with serving(create_app(log, refuse_until_caught_up=True)) as url:
        async with httpx.AsyncClient(base_url=url, timeout=5) as http:
            page = await http.get("/")
            assert page.status_code == 503 and page.headers["retry-after"] == "2"
            health = await http.get("/api/health")
            assert health.status_code in (200, 503) and health.json()["caught_up"] is False
            with pytest.raises(websockets.InvalidStatus) as refused:
                async with websockets.connect(url.replace("http", "ws") + "/ws/live"):
                    pass
            assert refused.value.response.status_code == 503

            async def caught_up() -> bool:
                return (await http.get("/api/health")).json()["caught_up"]

            await eventually_async(caught_up, 20, poll=0.1)
            assert (await http.get("/")).status_code == 200
        async with websockets.connect(url.replace("http", "ws") + "/ws/live") as ws:
            first = await recv(ws, timeout=10)
            assert first["type"] == "snapshot" and first["seq"] >= stored[-1].seq
