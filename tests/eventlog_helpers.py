"""Fixtures and helpers for the event log tests: one fresh store per backend, and a private Redis.

``tests/`` is on ``sys.path`` (see live_helpers.py); test modules import the fixtures by name
(``from eventlog_helpers import backend, url, log, tournament``) so pytest finds them.

The shared Redis (127.0.0.1:6379, or $VENUE_TEST_REDIS) serves the contract tests under random
tournament slugs. Tests that freeze, kill or flush Redis use a ``PrivateRedis`` of their own on a
free port instead, never the shared one.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import signal
import socket
import subprocess
import uuid
from pathlib import Path

import pytest
import redis.asyncio as aioredis
from eventually import eventually

from gateway.broker import free_port
from services.eventlog import open_log
from services.eventlog.redis import tournament_keys

REDIS_URL = os.environ.get("VENUE_TEST_REDIS", "redis://127.0.0.1:6379/0")


@pytest.fixture(params=["memory", "sqlite", pytest.param("redis", marks=pytest.mark.live)])
def backend(request) -> str:
    return request.param


@pytest.fixture
def tournament() -> str:
    """A slug no other test (or run) uses, so Redis keys never collide."""
    return f"test-{uuid.uuid4().hex[:12]}"


@pytest.fixture
async def url(backend, tmp_path, tournament):
    """The URL of a fresh store for ``backend``; the Redis keys are deleted afterwards."""
    if backend == "memory":
        # a named store, so that a second open_log on the same URL sees the same entries
        yield f"memory://contract-{tournament}"
    elif backend == "sqlite":
        yield f"sqlite:///{tmp_path}/log.sqlite"
    else:
        yield REDIS_URL
        await delete_redis_log(REDIS_URL, tournament)


@pytest.fixture
async def log(url, tournament):
    log = open_log(url, tournament)
    yield log
    await log.close()


async def delete_redis_log(url: str, tournament: str) -> None:
    """Delete every key of ``tournament``'s log in the Redis at ``url``."""
    client = aioredis.Redis.from_url(url)
    try:
        await client.delete(*tournament_keys(tournament))
    finally:
        await client.aclose()


async def take(agen, n: int, timeout: float = 5.0) -> list:
    """The next ``n`` items of an async iterator, failing after ``timeout`` seconds."""
    out = []
    async with asyncio.timeout(timeout):
        async for item in agen:
            out.append(item)
            if len(out) == n:
                break
    return out


class PrivateRedis:
    """A ``redis-server`` of the test's own on a free port, in ``directory``: persistence off (as a
    Redis run without AOF), or ``config`` (a redis.conf) with only port, bind and directory
    overridden. ``freeze``/``thaw`` SIGSTOP/SIGCONT it, ``restart`` kills it (-9) and starts it
    again on the same port and directory (empty without persistence)."""

    def __init__(self, directory: Path, config: Path | None = None):
        binary = shutil.which("redis-server")
        assert binary, "redis-server is not installed (apt-get install redis-server)"
        self.binary, self.directory, self.config = binary, directory, config
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.proc: subprocess.Popen | None = None

    def start(self) -> None:
        persistence = [str(self.config)] if self.config else []
        overrides = ["--port", str(self.port), "--bind", "127.0.0.1", "--dir", str(self.directory)]
        if not self.config:
            overrides += ["--save", "", "--appendonly", "no"]
        self.proc = subprocess.Popen([self.binary, *persistence, *overrides],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

        def answers() -> bool:
            if self.proc.poll() is not None:
                pytest.fail("the private redis-server exited")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.2) as s:
                    s.sendall(b"PING\r\n")
                    return s.recv(16).startswith(b"+PONG")
            except OSError:
                return False

        eventually(answers, 10)

    def freeze(self) -> None:
        os.kill(self.proc.pid, signal.SIGSTOP)

    def thaw(self) -> None:
        os.kill(self.proc.pid, signal.SIGCONT)

    def restart(self) -> None:
        """kill -9 and start again, empty: what a Redis without AOF is after a crash."""
        self.stop(signal.SIGKILL)
        self.start()

    def stop(self, sig: int = signal.SIGTERM) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.thaw()
            self.proc.send_signal(sig)
            self.proc.wait(10)


@pytest.fixture
def private_redis(tmp_path):
    """A running ``PrivateRedis``, stopped afterwards."""
    server = PrivateRedis(tmp_path)
    server.start()
    try:
        yield server
    finally:
        server.stop()
