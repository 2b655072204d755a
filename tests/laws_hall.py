"""A tournament's log, its gateway over the real Mosquitto (127.0.0.1:1883) and a device connection
for every board, with SQLite or Redis (127.0.0.1:6379) as the log's store, for the live tests of the
Laws at their edges and of two games on one board (tests/integration/test_laws_live.py,
test_two_games_live.py): ``Hall``, made for each store by the ``hall`` fixture (params "sqlite" and
"redis"), and ``of``, the data of a log's entries of one type.

The ``hall`` fixture is imported by name (``from laws_hall import hall``) by the modules that use
it, not put in tests/integration/conftest.py: other modules there have a ``hall`` fixture of their
own (venue_serve's, test_gateway_faults'), and a folder-wide one would stand in silently where a
module forgot its own.

``tests/`` is on ``sys.path`` (see live_helpers.py): ``from laws_hall import Hall``.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import time
import uuid
from pathlib import Path

import aiomqtt
import pytest
from eventlog_helpers import delete_redis_log
from live_helpers import log_until, running

from dashboard.arbiter.actions import build
from gateway import Gateway
from services.arbiter_office.tournament_log import tournament_registered_data
from services.eventlog import open_log
from services.state import HallState
from services.views.spectator import SpectatorView


MOSQUITTO = ("127.0.0.1", 1883)
REDIS = "redis://127.0.0.1:6379/0"


class Hall:
    """A tournament's log, its gateway over Mosquitto, and a device connection for every board."""

    def __init__(self, store: str, tmp_path: Path):
        self.slug = f"laws-{uuid.uuid4().hex[:8]}"
        self.store = f"sqlite:///{tmp_path / 'log.sqlite'}" if store == "sqlite" else REDIS
        self.log = open_log(self.store, self.slug)
        self.seqs: dict[tuple[str, str], int] = {}
        self.feedback: dict[str, list[dict]] = {}
        self.client = None

    async def send(self, board: str, kind: str, **body) -> None:
        device = "clock" if kind == "clock" else "board"
        self.seqs[(board, device)] = seq = self.seqs.get((board, device), 0) + 1
        await self.client.publish(f"venue/{self.slug}/boards/{board}/{kind}", json.dumps({"seq": seq, **body}), qos=1)

    async def clock(self, board: str, event: str, white_ms: int, black_ms: int, running: str | None, **extra):
        await self.send(board, "clock", event=event, white_ms=white_ms, black_ms=black_ms, running=running, **extra)

    async def entries(self, pred, timeout: float = 10.0) -> list:
        return await log_until(self.log, pred, timeout)

    async def state(self) -> HallState:
        state = HallState()
        for e in await self.log.read():
            state.apply(e)
        return state

    async def arbiter(self, action: str, body: dict) -> list:
        """What POST /api/arbiter/actions appends for the arbiter "chief": the action judged on the
        state folded from the log, at now (``dashboard.arbiter.routes.actions``); ActionError (the
        route's 400) for a decision the Laws or the regulations do not allow."""
        state = await self.state()
        items = build(action, body, "chief", SpectatorView(state).every_game(), state, now_ms=int(time.time() * 1000))
        return await self.log.append_many([(t, d, None) for t, d in items])

    async def register(self, t) -> None:
        """Register tournament file ``t`` in the log, as ``venue serve --tournament`` does."""
        await self.log.append("tournament_registered", tournament_registered_data(dataclasses.replace(t, slug=self.slug)))

    async def answered(self, board: str, count: int, timeout: float = 10.0) -> list[dict]:
        """The first ``count`` feedback messages on ``board``'s feedback topic."""
        async with asyncio.timeout(timeout):
            async for message in self.client.messages:
                name = str(message.topic).split("/")[3]
                self.feedback.setdefault(name, []).append(json.loads(message.payload))
                if len(self.feedback.get(board, [])) >= count:
                    break
        return self.feedback[board][:count]

    @contextlib.asynccontextmanager
    async def running(self, tournament=None):
        gateway = Gateway(self.log, f"mqtt://{MOSQUITTO[0]}:{MOSQUITTO[1]}", self.slug, tournament=tournament,
                          client_id=f"gw-{self.slug}")
        async with running(gateway):
            async with aiomqtt.Client(*MOSQUITTO, identifier=f"dev-{self.slug}") as client:
                self.client = client
                await client.subscribe(f"venue/{self.slug}/boards/+/feedback", qos=1)
                yield gateway

    async def close(self) -> None:
        await self.log.close()
        if self.store.startswith("redis"):
            await delete_redis_log(self.store, self.slug)


@pytest.fixture(params=["sqlite", "redis"])
async def hall(request, tmp_path):
    h = Hall(request.param, tmp_path)
    try:
        yield h
    finally:
        await h.close()


def of(entries, type_: str, game: str | None = None) -> list[dict]:
    return [e.data for e in entries if e.type == type_ and (game is None or e.data.get("game") == game)]
