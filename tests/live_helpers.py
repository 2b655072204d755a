"""Helpers shared by the tests that run the gateway for real (integration and browser tests): a
broker, the gateway run as a task, waiting for log entries, the broker and store of a kind
(``backends``), a hall board's device (``Device``), and real games' moves and what the log says was
played.

``tests/`` is on ``sys.path`` (pytest inserts the directory of the root ``conftest.py``), so test
modules import this as ``live_helpers``.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
import uuid
from pathlib import Path

import chess.pgn
from eventually import eventually_async

from gateway import embedded_broker
from services.eventlog import open_log

MOSQUITTO = "mqtt://127.0.0.1:1883"
REDIS = "redis://127.0.0.1:6379/0"


@contextlib.asynccontextmanager
async def broker(which: str):
    """The URL of a broker of kind ``which``: "embedded" (amqtt on a free port, run for the block:
    ``gateway.embedded_broker``) or "mosquitto" (127.0.0.1:1883)."""
    if which == "embedded":
        async with embedded_broker() as url:
            yield url
    else:
        yield MOSQUITTO


@contextlib.asynccontextmanager
async def running(gateway):
    """Run ``gateway`` (a ``gateway.Gateway``) as a task until the block ends; waits up to 30 s until
    it is ready (its state rebuilt, subscribed). Yields the task. 30 s, not less: after a restart the
    embedded broker (amqtt) redelivers the session's queued messages before it answers SUBSCRIBE,
    which took over 10 s on a loaded 2-core machine."""
    task = asyncio.create_task(gateway.run())
    try:
        await asyncio.wait_for(gateway.ready.wait(), 30)
        yield task
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task


async def log_until(log, predicate, timeout: float = 10.0, poll: float = 0.05) -> list:
    """Read ``log`` every ``poll`` s until ``predicate(entries)`` holds; returns those entries.
    Raises AssertionError, listing what the log holds, after ``timeout`` s."""
    async def holds() -> list:
        entries = await log.read()
        assert predicate(entries), f"not in the log: {[(e.type, e.data) for e in entries][-20:]}"
        return entries

    return await eventually_async(holds, timeout, poll=poll)


async def entries_matching(log, pred, timeout: float = 20.0) -> list:
    """The log's entries ``e`` with ``pred(e)``, once there is at least one (AssertionError after
    ``timeout`` s)."""
    entries = await log_until(log, lambda es: any(pred(e) for e in es), timeout)
    return [e for e in entries if pred(e)]


def candidates_moves(shared_data: Path, index: int) -> list[str]:
    """UCI moves of the index-th game (from 1) of FIDE Candidates 2024 (open)."""
    stream = io.StringIO((shared_data / "chess" / "fide_candidates_2024_open.pgn").read_text())
    for _ in range(index):
        game = chess.pgn.read_game(stream)
    return [m.uci() for m in game.mainline_moves()]


class Device:
    """A hall board's device: publishes with its own seq (docs/protocol.md)."""

    def __init__(self, client, slug: str, board: str, seq: int = 0):
        self.client, self.slug, self.board, self.seq = client, slug, board, seq

    async def send(self, kind: str, **body) -> None:
        self.seq += 1
        await self.client.publish(f"venue/{self.slug}/boards/{self.board}/{kind}",
                                  json.dumps({"seq": self.seq, **body}), qos=1)


def of(entries, *types: str) -> list:
    return [e for e in entries if e.type in types]


def played(entries, game: str) -> list[str]:
    return [e.data["move"] for e in of(entries, "move_played") if e.data["game"] == game]


async def wait_for(log, pred, timeout: float = 20.0):
    """The entries of ``log`` with ``pred``, once there is one (``entries_matching``)."""
    return await entries_matching(log, pred, timeout)


def slug(name: str) -> str:
    """A tournament slug no other run uses (the shared Redis): ``it-ck-<name>-<8 hex>``."""
    return f"it-ck-{name}-{uuid.uuid4().hex[:8]}"


@contextlib.asynccontextmanager
async def backends(kind: str, tmp_path):
    """(slug, MQTT URL, event log) of one kind: "embedded" (amqtt on a free port + SQLite) or
    "mosquitto" (127.0.0.1:1883 + Redis)."""
    t = slug(kind)
    if kind == "embedded":
        log = open_log(f"sqlite:///{tmp_path / 'log.sqlite'}", t)
        async with embedded_broker() as url:
            yield t, url, log
    else:
        log = open_log(REDIS, t)
        yield t, MOSQUITTO, log
    await log.close()
