"""``venue serve`` run as the README's "Running it at a venue" says, as a subprocess of this checkout's
``venue``, for the live restart tests (tests/integration/test_restart_live.py,
test_gateway_pgn_round_live.py, test_gateway_faults.py): the README's command line read from
README.md (``README_SERVE``, ``FIRST``), the real Mosquitto 127.0.0.1:1883 and the README's Redis
``redis://127.0.0.1:6379/1``, a process whose output is collected (``Serve``), and the preset
events/us-championship-2023.toml copied with a fresh slug (``Hall``, made by the ``hall`` fixture).

The ``hall`` fixture is imported by name (``from venue_serve import hall``) by the modules that use
it, not put in tests/integration/conftest.py: other modules there have a ``hall`` fixture of their
own (test_laws_live's, test_gateway_faults'), and a folder-wide one would stand in silently where a
module forgot its own.

``tests/`` is on ``sys.path`` (see live_helpers.py): ``from venue_serve import Serve``.
"""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
import threading
import uuid
from pathlib import Path

import pytest
from eventually import eventually_async
from live_helpers import log_until

from gateway.broker import free_port
from services.eventlog import open_log
from services.eventlog.redis import tournament_keys


REPO = Path(__file__).resolve().parents[1]
VENUE = str(Path(sys.executable).with_name("venue"))
PRESET = REPO / "events" / "us-championship-2023.toml"
MQTT = "mqtt://127.0.0.1:1883"
REDIS = "redis://127.0.0.1:6379/1"  # README "Running it at a venue"
PASSWORD_ENV = {"VENUE_ARBITER_CHIEF_PASSWORD": "choose-one"}  # the README's export
READY = "Ctrl-C to stop."


class Serve:
    """One ``venue serve`` process; its stdout lines collected as they come."""

    def __init__(self, argv: list[str]):
        self.proc = subprocess.Popen(argv, env={**os.environ, **PASSWORD_ENV}, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True)
        self.lines: list[str] = []
        self.err: list[str] = []
        threading.Thread(target=self._read, args=(self.proc.stdout, self.lines), daemon=True).start()
        threading.Thread(target=self._read, args=(self.proc.stderr, self.err), daemon=True).start()

    @staticmethod
    def _read(stream, into: list[str]) -> None:
        for line in stream:
            into.append(line.rstrip("\n"))

    async def ready(self, timeout: float = 30.0) -> None:
        def said() -> bool:
            if self.proc.poll() is not None:
                pytest.fail(f"venue serve exited {self.proc.returncode}: {self.err}")
            assert READY in self.lines, f"venue serve not ready: {self.lines} {self.err}"
            return True

        await eventually_async(said, timeout, poll=0.05)

    async def stop(self, sig: int) -> int:
        self.proc.send_signal(sig)
        try:
            await eventually_async(lambda: self.proc.poll() is not None, 15)
        except AssertionError:
            self.proc.kill()
            raise AssertionError("venue serve did not stop within 15 s") from None
        return self.proc.returncode

    def out(self) -> str:
        return "\n".join(self.lines)


class Hall:
    """A tournament file copied with a fresh slug, its store, and the README's command lines."""

    def __init__(self, tmp_path: Path, store: str, edit=lambda text: text):
        self.slug = f"restart-{uuid.uuid4().hex[:8]}"
        text = PRESET.read_text().replace('slug = "us-championship-2023"', f'slug = "{self.slug}"')
        assert self.slug in text
        self.file = tmp_path / "us-championship-2023.toml"
        self.file.write_text(edit(text))
        self.store = store if store != "sqlite" else f"sqlite:///{tmp_path / 'venue.sqlite'}"
        self.port = 0
        self.log = open_log(self.store, self.slug)

    def argv(self, *extra: str) -> list[str]:
        """The README's command line for this hall with ``extra`` (``--round``, ``--round-start``) and a
        fresh free ``--port`` (each start its own: a port left free by the stopped process may be taken
        by anything on the machine meanwhile)."""
        self.port = free_port()
        words = README_SERVE[:-len(FIRST)]
        words = [str(self.file) if w == README_FILE else self.store if w == README_STORE else w for w in words]
        return [VENUE, *words[1:], *extra, "--port", str(self.port)]

    async def entries(self, pred=lambda es: True, timeout: float = 15.0):
        return await log_until(self.log, pred, timeout)

    async def close(self) -> None:
        await self.log.close()
        if self.store.startswith("redis"):
            import redis.asyncio as aioredis

            conn = aioredis.from_url(self.store)
            await conn.delete(*tournament_keys(self.slug))
            await conn.aclose()


@pytest.fixture
async def hall(request, tmp_path):
    made: list[Hall] = []

    def make(store: str, edit=lambda text: text) -> Hall:
        made.append(Hall(tmp_path, store, edit))
        return made[-1]

    yield make
    for h in made:
        await h.close()


FIRST = ["--round", "1", "--round-start", "now"]
README_FILE, README_STORE = "events/us-championship-2023.toml", REDIS


def readme_serve() -> list[str]:
    """The README's ``venue serve`` command for a tournament file, as words (continuations joined)."""
    text = (REPO / "README.md").read_text().replace("\\\n", " ")
    [line] = [ln for ln in text.splitlines() if ln.startswith("venue serve") and README_FILE in ln]
    words = shlex.split(line)
    assert words[-len(FIRST):] == FIRST and README_STORE in words and MQTT in words, words
    return words


README_SERVE = readme_serve()
