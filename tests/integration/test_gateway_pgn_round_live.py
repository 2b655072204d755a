"""``venue gateway --tournament FILE.toml --round ROUND.pgn`` registers the file in the log, once,
against the real Mosquitto 127.0.0.1:1883 and Redis 127.0.0.1:6379 (a missing service fails this
test: it never skips), this checkout's ``venue`` run as a subprocess.

docs/tournament-log.md "A changed file": ``venue serve`` and ``venue gateway`` "register the file
they are given each time they start"; the same file appends nothing; a changed file while a round is
in play stops the command with exit code 2, nothing written. The round's pairings come from a PGN
file here (an outside pairing program's), which used to leave the file out of the log: what folds it
(the dashboard's views, a restarted gateway) had no tournament.

The preset events/us-championship-2023.toml with a fresh slug; the PGN is its round 1 as the Berger
tables pair it (tests/unit/test_start_up_pgn.py).
"""

from __future__ import annotations

import asyncio
import signal
import time

import pytest
from eventually import eventually_async
from start_up_preset import LATER, pairings_pgn
from venue_serve import MQTT, READY, REDIS, VENUE, Serve, hall  # noqa: F401 - hall is a fixture

pytestmark = pytest.mark.live


def gateway_argv(h, pgn: str) -> list[str]:
    return [VENUE, "gateway", "--mqtt", MQTT, "--store", h.store, "--tournament", str(h.file), "--round", pgn]


async def ready(gateway: Serve, timeout: float = 30.0) -> None:
    """Until ``venue gateway`` prints its ready line (``... Ctrl-C to stop.``, after the slug)."""
    def said() -> bool:
        if gateway.proc.poll() is not None:
            pytest.fail(f"venue gateway exited {gateway.proc.returncode}: {gateway.err}")
        assert any(line.endswith(READY) for line in gateway.lines), f"not ready: {gateway.lines} {gateway.err}"
        return True

    await eventually_async(said, timeout, poll=0.05)


async def test_the_gateway_registers_the_file_of_a_pgn_round_once(hall, tmp_path):
    h = hall(REDIS)
    pgn = pairings_pgn(tmp_path)
    first = Serve(gateway_argv(h, pgn))
    await ready(first)
    assert await first.stop(signal.SIGINT) == 0
    assert "venue gateway: tournament file registered: 2023 U.S. Championship (12 players, 11 rounds)" in first.lines
    assert [e.type for e in await h.log.read()] == ["tournament_registered", "round_started"]
    registered = (await h.log.read())[0]
    assert registered.data["slug"] == h.slug

    again = Serve(gateway_argv(h, pgn))  # a restart with the same command line
    await ready(again)
    assert await again.stop(signal.SIGINT) == 0
    assert "venue gateway: tournament file unchanged since it was registered: nothing appended" in again.lines
    before = await h.log.read()
    assert [e.type for e in before] == ["tournament_registered", "round_started"]

    h.file.write_text(h.file.read_text().replace(*LATER))  # edited while round 1 is in play
    refused = Serve(gateway_argv(h, pgn))
    deadline = time.monotonic() + 30
    while not refused.err and time.monotonic() < deadline:  # its message, then its exit
        await asyncio.sleep(0.05)
    assert refused.proc.wait(timeout=15) == 2, (refused.lines, refused.err)
    assert any("the tournament file differs from the one registered, and round 1 is in play (1 change(s)):"
               in line for line in refused.err), refused.err
    assert await h.log.read() == before
