"""The play-off's console and boards for the live play-off tests (tests/integration/test_playoff_live*.py):
an arbiter signed in to a running dashboard (POST /api/arbiter/actions with the page's CSRF token), and
a hall board's e-board and clock publishing over the real Mosquitto (127.0.0.1:1883)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import uuid
from collections.abc import AsyncIterator
from dataclasses import dataclass

import aiomqtt
import httpx
from dashboard_helpers import LOGIN, PASSWORD, accounts
from eventlog_helpers import delete_redis_log
from live_helpers import running
from playoff_event import main_event, tournament, winner

from gateway import Gateway
from services.eventlog import open_log
from services.eventlog.base import EventLog
from venue.serve import dashboard_at

REDIS = "redis://127.0.0.1:6379/0"
MQTT = ("127.0.0.1", 1883)
FOOLS_MATE = ["f2f3", "e7e5", "g2g4", "d8h4"]
"""The shortest mate (Black mates at ply 4, FIDE Laws 5.1.1)."""
SCHOLARS_MATE = ["e2e4", "e7e5", "d1h5", "b8c6", "f1c4", "g8f6", "h5f7"]
"""White mates at ply 7 (FIDE Laws 5.1.1)."""


class Board:
    """A hall board's e-board and clock (board 1 unless said), publishing as devices do
    (docs/protocol.md); each play-off round counts its messages from 1 again (:meth:`new_round`)."""

    def __init__(self, client: aiomqtt.Client, slug: str, board: str = "1"):
        self.client, self.slug, self.board, self.seqs = client, slug, board, {"board": 0, "clock": 0}

    def new_round(self) -> None:
        self.seqs = {"board": 0, "clock": 0}

    async def send(self, kind: str, **body) -> None:
        device = "clock" if kind == "clock" else "board"
        self.seqs[device] += 1
        await self.client.publish(f"venue/{self.slug}/boards/{self.board}/{kind}", json.dumps({"seq": self.seqs[device], **body}),
                                  qos=1)

    async def play(self, moves: list[str], white_ms: int, black_ms: int) -> None:
        """The clock started for White, then each move and its press (a second a move)."""
        left = {"white": white_ms, "black": black_ms}
        await self.send("clock", event="start", white_ms=white_ms, black_ms=black_ms, running="white")
        for i, uci in enumerate(moves):
            side, other = ("white", "black") if i % 2 == 0 else ("black", "white")
            await self.send("move", move=uci)
            left[side] -= 1000
            await self.send("clock", event="press", white_ms=left["white"], black_ms=left["black"], running=other)


class Console:
    """The arbiters' console over HTTP: signed in, the page's CSRF token on every action."""

    def __init__(self, http: httpx.AsyncClient):
        self.http, self.headers = http, {}

    async def sign_in(self) -> None:
        page = (await self.http.get("/arbiter")).text
        [token] = re.findall(r'<meta name="csrf-token" content="([^"]+)"', page)
        self.headers = {"X-CSRFToken": token}
        r = await self.http.post("/api/arbiter/login", json={"login": LOGIN, "password": PASSWORD})
        assert r.status_code == 200, r.text

    async def act(self, action: str, **body) -> httpx.Response:
        return await self.http.post("/api/arbiter/actions", json={"action": action, **body}, headers=self.headers)

    async def ok(self, action: str, **body) -> dict:
        r = await self.act(action, **body)
        assert r.status_code == 200, r.text
        return r.json()

    async def standings(self, pred, timeout: float = 20.0) -> dict:
        """GET /api/standings once ``pred`` holds for it (the dashboard follows the log); on a
        timeout, an AssertionError with the play-off as last seen."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            d = (await self.http.get("/api/standings")).json()
            if pred(d):
                return d
            if loop.time() > deadline:
                raise AssertionError(f"not within {timeout} s; the play-off as last seen: {d.get('playoff')}")
            await asyncio.sleep(0.05)


@dataclass
class PlayoffHall:
    """What a live play-off test drives: the Redis ``log``, the running ``gateway``, the signed-in
    ``console``, an MQTT client for the boards (``mqtt``) and the tournament's ``slug``."""

    log: EventLog
    gateway: Gateway
    console: Console
    mqtt: aiomqtt.Client
    slug: str

    def board(self, number: str = "1") -> Board:
        """Hall board ``number``'s devices, counting their messages from 1."""
        return Board(self.mqtt, self.slug, number)


@contextlib.asynccontextmanager
async def playoff_hall(event_file: str, rule=winner) -> AsyncIterator[PlayoffHall]:
    """The seed event ``event_file`` (events/) played to its last round by ``rule``
    (tests/playoff_event.py) in a new Redis log, a gateway on Mosquitto and a dashboard following the
    log, an arbiter signed in; the log is deleted afterwards."""
    slug = f"it-playoff-{uuid.uuid4().hex[:8]}"
    log = open_log(REDIS, slug)
    await log.append_many([(type_, data, None) for type_, data in main_event(tournament(event_file, slug), rule)])
    gateway = Gateway(log, f"mqtt://{MQTT[0]}:{MQTT[1]}", slug, client_id=f"gw-{slug}")
    try:
        async with running(gateway), dashboard_at(log, "127.0.0.1", 0, accounts=accounts()) as (url, _), \
                httpx.AsyncClient(base_url=url) as http, aiomqtt.Client(*MQTT, identifier=f"dev-{slug}") as mqtt:
            console = Console(http)
            await console.sign_in()
            yield PlayoffHall(log, gateway, console, mqtt, slug)
    finally:
        await log.close()
        await delete_redis_log(REDIS, slug)
