"""The live hall end to end: simulated boards and clocks -> MQTT -> gateway -> event log ->
dashboard, checked through the dashboard's API the way a broadcaster would read it.

1. ``venue demo`` in-process: embedded MQTT broker + SQLite log (the demo's own pieces).
2. ``venue serve`` and ``venue simulate`` as separate processes on the real Mosquitto
   (127.0.0.1:1883) and Redis (127.0.0.1:6379; or $VENUE_TEST_MQTT / $VENUE_TEST_REDIS).

Source of every expected value: round 5 of the FIDE Candidates 2024 (open) as shipped in
venue/data/candidates_2024_round5.pgn (copied unchanged from
../shared/data/chess/fide_candidates_2024_open.pgn): each game's moves, [%clk] after every move and
result must come out of /api/games/{id}.pgn exactly.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import os
import signal
import socket
import subprocess
import sys
import time
import uuid
from importlib import resources

import chess.pgn
import httpx
import pytest

from services.eventlog.redis import tournament_keys
from venue.demo import run_demo
from venue.demo_run import ROUND_FILE

pytestmark = pytest.mark.live

MQTT_URL = os.environ.get("VENUE_TEST_MQTT", "mqtt://127.0.0.1:1883")
REDIS_URL = os.environ.get("VENUE_TEST_REDIS", "redis://127.0.0.1:6379/0")
SPEED = 3000.0  # the round (about six hours of play) in about ten seconds


def source_games() -> list[chess.pgn.Game]:
    text = resources.files("venue").joinpath("data", ROUND_FILE).read_text("utf-8")
    f = io.StringIO(text)
    games = []
    while (g := chess.pgn.read_game(f)) is not None:
        games.append(g)
    assert len(games) == 4
    return games


async def wait_round_over(base: str, timeout: float = 120.0) -> list[dict]:
    seen = None
    async with httpx.AsyncClient(base_url=base, timeout=5) as http:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                games = (await http.get("/api/games")).json()["games"]
            except httpx.HTTPError as exc:
                seen = repr(exc)
            else:
                seen = [(g["id"], g["ply"], g["status"]) for g in games]
                if len(games) == 4 and all(g["status"] == "ended" for g in games):
                    return games
            await asyncio.sleep(0.25)
    raise AssertionError(f"the round did not finish: {seen}")


async def check_exports(base: str, games: list[dict]) -> None:
    """Every game's moves, %clk and result from the API equal the source game's."""
    src = source_games()
    async with httpx.AsyncClient(base_url=base, timeout=10) as http:
        for g, s in zip(games, src):
            assert (g["white"], g["black"]) == (s.headers["White"], s.headers["Black"])
            assert g["result"] == s.headers["Result"]
            assert g["moves"] == [n.move.uci() for n in s.mainline()]
            pgn = chess.pgn.read_game(io.StringIO((await http.get(f"/api/games/{g['id']}.pgn")).text))
            assert [n.move for n in pgn.mainline()] == [n.move for n in s.mainline()]
            assert [n.clock() for n in pgn.mainline()] == [n.clock() for n in s.mainline()]
            assert pgn.headers["Result"] == s.headers["Result"]
        text = (await http.get("/api/round.pgn")).text
        assert text.count("[Event ") == 4


async def test_demo_on_embedded_broker_and_sqlite():
    lines: list[str] = []
    task = asyncio.create_task(run_demo(speed=SPEED, port=0, out=lines.append))
    try:
        for _ in range(300):
            if any("spectators" in ln for ln in lines) or task.done():
                break
            await asyncio.sleep(0.05)
        base = next(ln.split()[-1] for ln in lines if "spectators" in ln).rstrip("/")
        games = await wait_round_over(base)
        await check_exports(base, games)
        async with httpx.AsyncClient(base_url=base, timeout=10) as http:
            text = (await http.get("/api/round.pgn")).text
        assert text.count('[Site "Toronto CAN"]') == 4  # venue/data/README.md: "open section, Toronto"
        for _ in range(100):  # the demo says so, and keeps serving the finished round
            if "round over" in lines:
                break
            await asyncio.sleep(0.05)
        assert not task.done()
    finally:
        task.cancel()
        with contextlib.suppress(BaseException):
            await task
    assert "round over" in lines
    results = [ln for ln in lines if ln.strip().startswith("result")]
    assert len(results) == 4
    assert any("Vidit, Santosh Gujrathi - Caruana, Fabiano  1/2-1/2 (threefold repetition)" in ln
               for ln in results)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.parametrize("layout", ["serve", "gateway+dashboard"])
async def test_hall_on_mosquitto_and_redis(tmp_path, layout):
    """``venue serve`` (or ``venue gateway`` and ``venue dashboard`` as two processes) and
    ``venue simulate``, each its own process, on the real broker and store."""
    import redis

    tournament = f"it-hall-{uuid.uuid4().hex[:8]}"
    port = free_port()
    round_file = tmp_path / "round5.pgn"
    round_file.write_text(resources.files("venue").joinpath("data", ROUND_FILE).read_text("utf-8"))
    venue = [sys.executable, "-m", "venue"]
    common = ["--store", REDIS_URL, "--tournament", tournament]
    if layout == "serve":
        commands = [["serve", "--mqtt", MQTT_URL, *common, "--round", str(round_file), "--port", str(port)]]
    else:
        commands = [["gateway", "--mqtt", MQTT_URL, *common, "--round", str(round_file)],
                    ["dashboard", *common, "--port", str(port)]]
    services = [subprocess.Popen(venue + c, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
                for c in commands]
    sim = None
    try:
        base = f"http://127.0.0.1:{port}"
        async with httpx.AsyncClient(base_url=base, timeout=2) as http:
            for _ in range(200):
                with contextlib.suppress(httpx.HTTPError):
                    if len((await http.get("/api/games")).json()["games"]) == 4:
                        break
                for proc in services:
                    assert proc.poll() is None, proc.communicate()
                await asyncio.sleep(0.1)
        await asyncio.sleep(1.0)  # the gateway subscribes (its own process) before the boards play
        sim = subprocess.Popen(venue + ["simulate", "--mqtt", MQTT_URL, "--tournament", tournament,
                                        "--pgn", str(round_file), "--speed", str(SPEED)],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        games = await wait_round_over(base)
        await check_exports(base, games)
        out, err = sim.communicate(timeout=60)
        assert sim.returncode == 0, err
        assert "Traceback" not in err
    finally:
        for proc in [sim, *services]:
            if proc is not None and proc.poll() is None:
                proc.send_signal(signal.SIGINT)
        outputs = [proc.communicate(timeout=30) for proc in services]
        with contextlib.suppress(Exception):
            redis.Redis.from_url(REDIS_URL).delete(*tournament_keys(tournament))
    for proc, (out, err) in zip(services, outputs):
        assert proc.returncode == 0, err
        assert "Traceback" not in err and "stopped" in out
    assert "round 5 (4 boards, logged)" in outputs[0][0]
