"""The shipped deployment with two dashboard nodes behind nginx, on this machine, for the node-kill
tests (tests/integration/test_dashboard_nodes.py, tests/browser/test_spectator_nodes.py).

- the gateway as deploy/systemd/venue-gateway.service starts it, and two dashboard nodes as
  deploy/systemd/venue-dashboard@.service does (``%i``: a free port each), on
  deploy/venue.env.example pointed at the real Mosquitto (127.0.0.1:1883) and Redis
  (127.0.0.1:6379) under a fresh tournament slug (shipped_deploy.deploy_env);
- Debian's nginx running deploy/nginx/nginx.conf in front of them (tests/nginx_site.py);
- a classical round of ``boards`` in the log (``round_started``, docs/events.md), played by
  ``play`` over MQTT with each board's own device seq (docs/protocol.md).

Every process's output is kept under the test's directory; the Redis keys are deleted at the end.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import subprocess
import uuid
from pathlib import Path

import aiomqtt
import httpx
import pytest
import redis
from eventually import eventually_async
from live_helpers import Device
from nginx_site import nginx_binary, site_config
from shipped_deploy import DEPLOY, deploy_env, exec_start

from gateway.broker import free_port
from services.eventlog import open_log
from services.eventlog.redis import tournament_keys

DASHBOARD_UNIT = DEPLOY / "systemd" / "venue-dashboard@.service"
GATEWAY_UNIT = DEPLOY / "systemd" / "venue-gateway.service"
ARBITER = ("chief", "nodes-test-password")  # login, password


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
        def shown() -> bool:
            if self.proc.poll() is not None:
                pytest.fail(self.why())
            assert text in self.out.read_text(), f"{self.name} not ready: {self.out.read_text()}"
            return True

        await eventually_async(shown, timeout)

    def kill(self) -> None:
        """SIGKILL, as a crash or a lost machine ends a process."""
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(5)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)


async def healthy(url: str, timeout: float = 30.0) -> dict:
    """``/api/health`` of ``url`` once it answers ok and has caught up with the log."""
    async with httpx.AsyncClient(timeout=2) as client:
        async def health() -> dict | None:
            with contextlib.suppress(httpx.HTTPError):
                r = await client.get(f"{url}/api/health")
                if r.status_code == 200 and r.json()["ok"] and r.json()["caught_up"]:
                    return r.json()
            return None

        return await eventually_async(health, timeout)


def round_started(boards) -> dict:
    """``round_started`` of a classical round on ``boards`` without clocks (docs/events.md)."""
    return {"round": "1", "event": "Nodes", "site": "", "date": "2024.04.04", "games": [
        {"id": f"1-{b}", "board": b, "round": "1", "white": f"W{b}", "black": f"B{b}", "variant": "chess",
         "time_control": None, "fen": None, "kind": "classical"} for b in boards]}


class NodeDeployment:
    """``async with NodeDeployment(tmp, boards) as d``: everything above up and healthy.
    ``d.address``: nginx's ``host:port``; ``d.nodes``: the nodes' ports; ``d.dashboards``: their
    processes; ``d.log``: the tournament's log."""

    def __init__(self, tmp: Path, boards: tuple[str, ...]):
        nginx_binary()  # installed, or the test fails here (never skips)
        self.tmp, self.boards = tmp, boards
        self.slug = f"nodes-{uuid.uuid4().hex[:8]}"
        self.nodes = [free_port(), free_port()]
        self.port = free_port()
        self.address = f"127.0.0.1:{self.port}"
        # an arbiter account (docs/arbiter.md, VENUE_ARBITERS) and the one session secret of all nodes
        self.env = {**deploy_env(self.slug, self.nodes[0]), "VENUE_ARBITERS": f"{ARBITER[0]}:{ARBITER[1]}",
                    "VENUE_SECRET": uuid.uuid4().hex}
        self.log = open_log(self.env["VENUE_LOG_URL"], self.slug)
        self.procs: list[Proc] = []
        self.dashboards: list[Proc] = []
        self._devices: dict[str, Device] = {}

    async def __aenter__(self) -> "NodeDeployment":
        try:
            await self.log.append("round_started", round_started(self.boards))
            gateway = Proc("gateway", exec_start(GATEWAY_UNIT, self.env), self.env, self.tmp)
            self.procs.append(gateway)
            for i, port in enumerate(self.nodes):
                argv = [w.replace("%i", str(port)) for w in exec_start(DASHBOARD_UNIT, self.env)]
                self.dashboards.append(Proc(f"dashboard{i + 1}", argv, self.env, self.tmp))
            self.procs += self.dashboards
            self.procs.append(Proc("nginx", site_config(self.port, self.tmp, self.nodes), {}, self.tmp))
            await gateway.printed("Ctrl-C to stop.")
            for port in (*self.nodes, self.port):  # the last one through nginx
                await healthy(f"http://127.0.0.1:{port}")
        except BaseException:
            await self.__aexit__(None, None, None)
            raise
        return self

    async def __aexit__(self, *exc) -> None:
        for p in reversed(self.procs):
            p.stop()
        await self.log.close()
        redis.Redis.from_url(self.env["VENUE_LOG_URL"]).delete(*tournament_keys(self.slug))

    async def health(self, node: int) -> dict:
        """Node ``node``'s (0 or 1) ``/api/health``."""
        return await healthy(f"http://127.0.0.1:{self.nodes[node]}")

    @contextlib.asynccontextmanager
    async def devices(self):
        """The boards' MQTT connection; yields ``play(games, plies)``: for each ply index in
        ``plies``, every board sends its game's move, then a 20 ms pause."""
        async with aiomqtt.Client("127.0.0.1", 1883, identifier=f"boards-{self.slug}") as client:
            devices = {b: self._devices.setdefault(b, Device(client, self.slug, b)) for b in self.boards}
            for d in devices.values():
                d.client = client

            async def play(games: dict[str, list[str]], plies: range) -> None:
                for i in plies:
                    for b in self.boards:
                        await devices[b].send("move", move=games[b][i])
                    await asyncio.sleep(0.02)

            yield play
