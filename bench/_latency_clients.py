"""The bench process's side of ``bench/bench_latency.py``: the boards, the recording spectators and
the bare-hop subscriber. Every instant is ``time.perf_counter()`` in this one process.

- ``Boards``: one MQTT connection per hall board (as real devices have), clean session, TCP_NODELAY;
  ``publish_wave`` sends one QoS 1 message per board, back to back, and records each send instant.
- ``Recorder``: a ``/ws/live`` spectator that parses every frame (one message or a JSON array of
  them) and keeps the first receipt instant of each ``(game id, ply)``: from a ``game`` delta with an
  ``append``, or from a ``snapshot``/``round`` message (a spectator whose queue overflowed gets a
  snapshot instead of the deltas, F12: the plies in it count as received then, and are counted apart).
- ``HopSubscriber``: one MQTT client subscribed to the bare-hop topics; keeps the receipt instant of
  each ``(board, wave)``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections import defaultdict

import aiomqtt
import websockets

from devices import mqtt_adapter as adapter


def _no_delay(client: aiomqtt.Client) -> None:
    adapter.no_delay(client)


class Progress:
    """Counts of distinct keys received per wave; ``wait(wave, n)`` until ``n`` are in."""

    def __init__(self) -> None:
        self.counts: dict[int, int] = defaultdict(int)
        self._want: tuple[int, int] | None = None
        self._event = asyncio.Event()

    def add(self, wave: int) -> None:
        self.counts[wave] += 1
        if self._want and self._want[0] == wave and self.counts[wave] >= self._want[1]:
            self._event.set()

    async def wait(self, wave: int, n: int, timeout: float) -> bool:
        if self.counts[wave] >= n:
            return True
        self._want = (wave, n)
        self._event.clear()
        try:
            await asyncio.wait_for(self._event.wait(), timeout)
            return True
        except asyncio.TimeoutError:
            return False
        finally:
            self._want = None


class Boards:
    """``n`` MQTT connections, board ``b`` (1-based, a string) publishing on ``topic(b)``."""

    def __init__(self, host: str, port: int, boards: list[str], prefix: str):
        self.host, self.port, self.boards, self.prefix = host, port, boards, prefix
        self.clients: dict[str, aiomqtt.Client] = {}
        self._stack = contextlib.AsyncExitStack()

    async def connect(self) -> None:
        gate = asyncio.Semaphore(50)

        async def one(b: str) -> None:
            async with gate:
                client = aiomqtt.Client(self.host, self.port, identifier=f"{self.prefix}-b{b}",
                                        clean_session=True, keepalive=60)
                await self._stack.enter_async_context(client)
                client.pending_calls_threshold = 100_000
                _no_delay(client)
                self.clients[b] = client

        await asyncio.gather(*(one(b) for b in self.boards))

    async def publish_wave(self, topic, payloads: dict[str, str], sent: dict, spread: float = 0.0) -> int:
        """Publish ``payloads[b]`` on ``topic(b)`` for every board; ``sent[b] = instant``: back to
        back, or board ``i`` at ``i / n * spread`` seconds when ``spread`` > 0 (an even rate).
        Returns how many paho refused (link down)."""
        refused = 0
        start = time.perf_counter()
        for i, b in enumerate(self.boards):
            if spread > 0:
                due = start + i * spread / len(self.boards)
                if due > time.perf_counter():
                    await asyncio.sleep(due - time.perf_counter())
            t, ok = self.publish_one(b, topic(b), payloads[b])
            sent[b] = t
            refused += not ok
        return refused

    def publish_one(self, board: str, topic: str, payload: str) -> tuple[float, bool]:
        """Board ``board`` publishes ``payload`` (QoS 1) now: (the instant, accepted by paho)."""
        t = time.perf_counter()
        client = self.clients[board]
        info = adapter.paho(client).publish(topic, payload, qos=1)
        adapter.write_now(client)
        return t, info.rc == 0

    async def close(self) -> None:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self._stack.aclose(), 20)


class Recorder:
    """One spectator on ``url`` that records when each ``(game id, ply)`` first reached it."""

    def __init__(self, url: str, deflate: bool = True, snapshot: bool = True):
        self.url = url
        self.wants_snapshot = snapshot  # False: a channel of deltas only (nchan), no snapshot first
        self.deflate = deflate
        self.seen: dict[tuple[str, int], float] = {}
        self.via_snapshot = 0
        self.frames = 0
        self.bytes = 0
        self.progress = Progress()
        self.error: str | None = None
        self._ws = None
        self._task: asyncio.Task | None = None
        self.snapshot = asyncio.Event()

    async def start(self) -> None:
        self._ws = await websockets.connect(self.url, max_size=None, open_timeout=60, ping_interval=None,
                                            compression="deflate" if self.deflate else None)
        self._task = asyncio.create_task(self._read())
        if self.wants_snapshot:
            await asyncio.wait_for(self.snapshot.wait(), 60)

    async def _read(self) -> None:
        try:
            async for frame in self._ws:
                t = time.perf_counter()
                self.frames += 1
                self.bytes += len(frame)
                data = json.loads(frame)
                for m in data if isinstance(data, list) else (data,):
                    self._message(m, t)
        except Exception as exc:  # noqa: BLE001 - reported by the bench
            self.error = f"{type(exc).__name__}: {exc}"

    def lost(self) -> bool:
        """True when its connection has ended (the server closed it, or it failed)."""
        return self._task is None or self._task.done()

    def _message(self, m: dict, t: float) -> None:
        kind = m.get("type")
        if kind == "game":
            ply = (m.get("set") or {}).get("ply")
            if "append" in m and isinstance(ply, int):
                self._saw((m["id"], ply), t)
        elif kind in ("snapshot", "round"):
            first = not self.snapshot.is_set()
            for g in m.get("games") or ():
                for p in range(1, int(g.get("ply") or 0) + 1):
                    if (g["id"], p) not in self.seen and not first:
                        self.via_snapshot += 1
                    self._saw((g["id"], p), t)
            self.snapshot.set()

    def _saw(self, key: tuple[str, int], t: float) -> None:
        if key not in self.seen:
            self.seen[key] = t
            self.progress.add(key[1])

    async def close(self) -> None:
        if self._ws is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._ws.close(), 5)
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(BaseException):
                await self._task


class HopSubscriber:
    """The bare hop's receiving end: subscribed (QoS 1) to ``filter``; ``seen[(board, wave)]``."""

    def __init__(self, host: str, port: int, topic_filter: str, client_id: str):
        self.host, self.port, self.filter, self.client_id = host, port, topic_filter, client_id
        self.seen: dict[tuple[str, int], float] = {}
        self.progress = Progress()
        self._stack = contextlib.AsyncExitStack()
        self._task: asyncio.Task | None = None

    async def start(self) -> None:
        client = aiomqtt.Client(self.host, self.port, identifier=self.client_id, clean_session=True)
        await self._stack.enter_async_context(client)
        _no_delay(client)
        await client.subscribe(self.filter, qos=1, timeout=10)
        self._task = asyncio.create_task(self._read(client))

    async def _read(self, client: aiomqtt.Client) -> None:
        async for message in client.messages:
            t = time.perf_counter()
            board = str(message.topic).rsplit("/", 1)[-1]
            wave = json.loads(message.payload)["seq"]
            key = (board, wave)
            if key not in self.seen:
                self.seen[key] = t
                self.progress.add(wave)

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(BaseException):
                await self._task
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self._stack.aclose(), 10)
