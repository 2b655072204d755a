"""Several dashboard nodes behind one address: a node killed mid-round loses its spectators nothing
(issue 15, "The deployment runs ... several dashboard nodes behind one address; a test kills one
node mid-round and its spectators reconnect to another and miss nothing").

The deployment as it ships, on this machine: the gateway as deploy/systemd/venue-gateway.service
starts it and two dashboard nodes as deploy/systemd/venue-dashboard@.service does (``%i``: a free
port each), all on deploy/venue.env.example pointed at the real Mosquitto (127.0.0.1:1883) and
Redis (127.0.0.1:6379) under a fresh tournament slug (tests/integration/test_deploy_commands.py);
in front of them Debian's nginx running deploy/nginx/nginx.conf with only its ``[site]`` directives
rewritten (user, pid, logs, a free port, the upstream file: deploy/nginx/venue-upstream.conf with
the two nodes' ports) and its temporary files in the test's directory. ``./run tests`` installs
nginx when it is missing; without it this test fails (it never skips).

Four boards play the first plies of four real games (FIDE Candidates 2024 (open), games 1-4,
../shared/data/chess/fide_candidates_2024_open.pgn) over MQTT. Spectators connect through nginx
with the pages' client (tests/live_spectator.py, dashboard/static/live.js in Python): every board
(the hall page), a page's range and one board (the game page). Mid-round, while the boards go on
playing, the node holding some of them (its ``/api/health`` counts them) is killed with SIGKILL.
Its spectators reconnect through the same address, land on the other node and resume from the last
seq they saw (dashboard/live.py: the missed deltas, not a snapshot). In the end every spectator
holds every ply of every game it follows exactly once and in order, equal to the log's
``move_played`` entries, both in its games and in the moves as they reached it.
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import time
import uuid
from pathlib import Path

import aiomqtt
import httpx
import pytest
import redis
from live_helpers import log_until
from live_spectator import Spectator
from nginx_site import nginx_binary, site_config
from test_deploy_commands import DEPLOY, deploy_env, exec_start
from test_restart_live import Device, candidates_moves, played

from gateway.broker import free_port
from services.eventlog import open_log
from services.eventlog.redis import tournament_keys

pytestmark = pytest.mark.integration

BOARDS = ("1", "2", "3", "4")
PLIES = 40  # per board: the first 40 plies of each game
KILL_AFTER = 16  # plies per board played before the kill
WATCH = ("", "", "", "1-2", "3", "4", "2-4")  # data-boards of the hall page, a page's range, a game page


class Proc:
    """A process of the deployment, its output in files under the test's directory."""

    def __init__(self, name: str, argv: list[str], env: dict, tmp: Path):
        self.name = name
        self.out, self.err = tmp / f"{name}.out", tmp / f"{name}.err"
        self.proc = subprocess.Popen(argv, env={**os.environ, **env}, stdout=open(self.out, "w"),
                                     stderr=open(self.err, "w"), text=True)

    def why(self) -> str:
        return f"{self.name} exited {self.proc.returncode}: {self.err.read_text()[-2000:]}"

    async def printed(self, text: str, timeout: float = 30.0) -> None:
        deadline = time.monotonic() + timeout
        while text not in self.out.read_text():
            assert self.proc.poll() is None, self.why()
            assert time.monotonic() < deadline, f"{self.name} not ready: {self.out.read_text()}"
            await asyncio.sleep(0.05)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)


async def healthy(url: str, timeout: float = 30.0) -> dict:
    """``/api/health`` of ``url`` once it answers ok (caught up with the log)."""
    deadline = time.monotonic() + timeout
    async with httpx.AsyncClient(timeout=2) as client:
        while True:
            try:
                r = await client.get(f"{url}/api/health")
                if r.status_code == 200 and r.json()["ok"] and r.json()["caught_up"]:
                    return r.json()
            except httpx.HTTPError:
                pass
            assert time.monotonic() < deadline, f"{url} not healthy"
            await asyncio.sleep(0.1)


def round_started(boards) -> dict:
    """``round_started`` of a classical round on ``boards`` (docs/events.md), no clocks required."""
    return {"round": "1", "event": "Nodes", "site": "", "date": "2024.04.04", "games": [
        {"id": f"1-{b}", "board": b, "round": "1", "white": f"W{b}", "black": f"B{b}", "variant": "chess",
         "time_control": None, "fen": None, "kind": "classical"} for b in boards]}


def follows(spec: str) -> list[str]:
    """The boards a ``data-boards`` SPEC of WATCH names (every board for "")."""
    if not spec:
        return list(BOARDS)
    lo, _, hi = spec.partition("-")
    return [b for b in BOARDS if int(lo) <= int(b) <= int(hi or lo)]


@pytest.fixture
def deployment(tmp_path):
    slug = f"nodes-{uuid.uuid4().hex[:8]}"
    yield slug, tmp_path
    redis.Redis.from_url("redis://127.0.0.1:6379/0").delete(*tournament_keys(slug))


async def test_a_killed_dashboard_node_loses_its_spectators_nothing(deployment, shared_data):
    slug, tmp = deployment
    nginx_binary()  # installed, or the test fails here
    games = {b: candidates_moves(shared_data, int(b))[:PLIES] for b in BOARDS}
    assert all(len(m) == PLIES for m in games.values())
    nodes = [free_port(), free_port()]
    env = deploy_env(slug, nodes[0])
    log = open_log(env["VENUE_LOG_URL"], slug)
    await log.append("round_started", round_started(BOARDS))
    procs: list[Proc] = []
    spectators: list[Spectator] = []
    try:
        gateway = Proc("gateway", exec_start(DEPLOY / "systemd" / "venue-gateway.service", env), env, tmp)
        procs.append(gateway)
        unit = DEPLOY / "systemd" / "venue-dashboard@.service"
        dashboards = [Proc(f"dashboard{i + 1}", [w.replace("%i", str(port)) for w in exec_start(unit, env)],
                           env, tmp) for i, port in enumerate(nodes)]
        procs += dashboards
        port = free_port()
        balancer = Proc("nginx", site_config(port, tmp, nodes), {}, tmp)
        procs.append(balancer)
        await gateway.printed("Ctrl-C to stop.")
        for node in nodes:
            await healthy(f"http://127.0.0.1:{node}")
        await healthy(f"http://127.0.0.1:{port}")  # through nginx

        spectators = [Spectator(f"127.0.0.1:{port}", spec) for spec in WATCH * 2]
        for s in spectators:
            s.start()
        for s in spectators:
            await asyncio.wait_for(s.first_message.wait(), 10)
        # nginx's round robin spreads them: the first node holds some of them (its own count)
        held = (await healthy(f"http://127.0.0.1:{nodes[0]}"))["spectators"]
        assert 0 < held < len(spectators), held

        async with aiomqtt.Client("127.0.0.1", 1883, identifier=f"boards-{slug}") as client:
            devices = {b: Device(client, slug, b) for b in BOARDS}

            async def play(plies: range) -> None:
                for i in plies:
                    for b in BOARDS:
                        await devices[b].send("move", move=games[b][i])
                    await asyncio.sleep(0.02)

            await play(range(KILL_AFTER))
            playing = asyncio.create_task(play(range(KILL_AFTER, PLIES)))
            await asyncio.sleep(0.1)
            dashboards[0].proc.send_signal(signal.SIGKILL)  # mid-round: the boards are still playing
            dashboards[0].proc.wait(5)
            await playing

        entries = await log_until(log, lambda es: all(len(played(es, f"1-{b}")) >= PLIES for b in BOARDS), 20)
        deadline = time.monotonic() + 20
        while not all(_holds_all(s, games) for s in spectators) and time.monotonic() < deadline:
            await asyncio.sleep(0.1)
        after = await healthy(f"http://127.0.0.1:{nodes[1]}")
    finally:
        for s in spectators:
            await s.close()
        for p in reversed(procs):
            p.stop()
        await log.close()

    dropped = [s for s in spectators if s.drops]
    assert len(dropped) == held, "the killed node's spectators, and only they, were dropped"
    assert after["spectators"] == len(spectators), "all of them are now on the other node"
    for s in spectators:
        for b in follows(s.boards):
            gid = f"1-{b}"
            assert played(entries, gid) == games[b]  # the log: every ply once, in order
            assert s.games[gid]["moves"] == games[b], (s.boards, gid, s.opened_with)
            assert s.received[gid] == games[b], (s.boards, gid, s.opened_with)  # as they arrived
        assert set(s.games) == {f"1-{b}" for b in follows(s.boards)}
        assert s.refused is None
    for s in dropped:
        # resumed from its last seq: the missed deltas, never a second snapshot
        assert s.connections == 2 and s.opened_with[0] == "snapshot" and s.opened_with[1] == "game", s.opened_with


def _holds_all(s: Spectator, games: dict[str, list[str]]) -> bool:
    return all(len(s.games.get(f"1-{b}", {}).get("moves", ())) >= len(games[b]) for b in follows(s.boards))
