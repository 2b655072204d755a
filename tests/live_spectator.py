"""The spectator pages' client of ``/ws/live``, in Python: ``Venue.connect()`` of
dashboard/static/live.js, step for step, for tests and benches that need many spectators.

What it does as live.js does (keep the two in step):

- connects to ``ws://ADDRESS/ws/live`` with ``boards=SPEC`` when the page follows some boards and
  ``after=SEQ`` once it has seen a seq (``state.seq``);
- a ``snapshot`` or ``round`` message replaces the round and its games and sets ``seq``; a ``game``
  delta moves ``seq`` up to its own and is applied to its game when the client holds that game
  (``append`` adds a move and its SAN, ``clk`` sets clock figures by ply, ``set`` the other fields);
  a frame is one message or a JSON array of them, in order;
- on a close it reconnects after ``retry`` seconds, drawn between half and one and a half times the
  current delay (so the spectators of a node that went away do not all come back in the same
  instant), the delay doubling from 0.5 s up to 8 s and starting again at 0.5 s once a connection
  opens; a close with code 1008 (a refused ``boards`` SPEC) is final.

What it adds for the tests (live.js has no use for it): ``received`` (each game's moves in the
order they reached this client: the first snapshot's, then every ``append``), ``connections``,
``drops``, the message types each connection began with and when (``opened_with``, ``opened_at``)
and ``on_append``, called
with ``(game id, ply)`` at each ``append`` (a bench's clock).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import time
from urllib.parse import urlencode

import websockets

RETRY_FIRST_S = 0.5  # live.js: let retry = 500 (ms)
RETRY_MAX_S = 8.0  # live.js: Math.min(retry * 2, 8000)


class Spectator:
    """One spectator of ``address`` (``host:port``); ``boards``: a page's ``data-boards`` SPEC or ""."""

    def __init__(self, address: str, boards: str = "", on_append=None, rng: random.Random | None = None):
        self.address = address
        self.boards = boards
        self.seq = 0
        self.round = None
        self.games: dict[str, dict] = {}
        self.received: dict[str, list[str]] = {}
        self.connections = 0
        self.drops = 0
        self.opened_with: list[str] = []  # the type of each connection's first message
        self.opened_at: list[float] = []  # and when it came (time.perf_counter())
        self.refused: str | None = None
        self.on_append = on_append
        self._rng = rng or random.Random()
        self._task: asyncio.Task | None = None
        self._ws = None
        self.first_message = asyncio.Event()

    def url(self) -> str:
        """live.js's ``open()``: the feed's URL with ``boards`` and ``after`` as it stands now."""
        params = {}
        if self.boards:
            params["boards"] = self.boards
        if self.seq:
            params["after"] = self.seq
        return f"ws://{self.address}/ws/live" + (f"?{urlencode(params)}" if params else "")

    def start(self) -> None:
        self._task = asyncio.create_task(self._run())

    async def _run(self) -> None:
        retry = RETRY_FIRST_S
        while True:
            first = True
            try:
                async with websockets.connect(self.url(), max_size=None, compression=None,
                                              ping_interval=None, open_timeout=10) as ws:
                    self._ws = ws
                    self.connections += 1
                    retry = RETRY_FIRST_S  # ws.onopen
                    async for frame in ws:
                        data = json.loads(frame)
                        for m in data if isinstance(data, list) else [data]:
                            if first:
                                self.opened_with.append(m.get("type"))
                                self.opened_at.append(time.perf_counter())
                                first = False
                            self.handle(m)
                if ws.close_code == 1008:
                    self.refused = ws.close_reason
                    return
            except websockets.ConnectionClosed as exc:
                if exc.rcvd is not None and exc.rcvd.code == 1008:
                    self.refused = exc.rcvd.reason
                    return
            except (OSError, asyncio.TimeoutError, websockets.InvalidHandshake):
                pass
            finally:
                self._ws = None
            if self.connections:
                self.drops += 1
            await asyncio.sleep(retry * (0.5 + self._rng.random()))
            retry = min(retry * 2, RETRY_MAX_S)

    def handle(self, m: dict) -> None:
        """live.js's ``handle(m)`` for one message."""
        kind = m.get("type")
        if kind in ("snapshot", "round"):
            self.round = m["round"]
            self.games = {g["id"]: g for g in m["games"]}
            self.seq = m["seq"]
            for g in m["games"]:
                self.received.setdefault(g["id"], list(g["moves"]))
            self.first_message.set()
        elif kind == "game":
            g = self.games.get(m["id"])
            self.seq = max(self.seq, m["seq"])
            if g is not None:
                self._apply(g, m)

    def _apply(self, g: dict, d: dict) -> None:
        """live.js's ``applyGame(g, d)``, plus ``received`` and ``on_append``."""
        if "append" in d:
            g["moves"].append(d["append"]["move"])
            g["san"].append(d["append"]["san"])
            g.setdefault("clocks", []).append(None)
            g.setdefault("spent", []).append(d["append"].get("spent"))
            self.received.setdefault(g["id"], []).append(d["append"]["move"])
            if self.on_append is not None:
                self.on_append(g["id"], len(g["moves"]))
        for ply, ms in d.get("clk") or ():
            clocks = g.setdefault("clocks", [])
            clocks.extend([None] * (ply - len(clocks)))
            clocks[ply - 1] = ms
        g.update(d.get("set") or {})

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(BaseException):
                await self._task
        if self._ws is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._ws.close(), 2)
