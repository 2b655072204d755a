"""Several dashboard nodes behind one address: a node killed mid-round loses its spectators nothing
(issue 15, "The deployment runs ... several dashboard nodes behind one address; a test kills one
node mid-round and its spectators reconnect to another and miss nothing").

The deployment as it ships, on this machine (tests/node_deployment.py): the gateway as
deploy/systemd/venue-gateway.service starts it, two dashboard nodes as
deploy/systemd/venue-dashboard@.service does, on the real Mosquitto and Redis, and in front of them
Debian's nginx running deploy/nginx/nginx.conf with only its ``[site]`` directives rewritten.
``./run tests`` installs nginx when it is missing; without it this test fails (it never skips).

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
import json
import time

import httpx
import pytest
import websockets
from live_helpers import candidates_moves, log_until, played
from live_spectator import Spectator
from node_deployment import ARBITER, NodeDeployment

pytestmark = pytest.mark.live

BOARDS = ("1", "2", "3", "4")
PLIES = 40  # per board: the first 40 plies of each game
KILL_AFTER = 16  # plies per board played before the kill
WATCH = ("", "", "", "1-2", "3", "4", "2-4")  # data-boards of the hall page, a page's range, a game page


def follows(spec: str) -> list[str]:
    """The boards a ``data-boards`` SPEC of WATCH names (every board for "")."""
    if not spec:
        return list(BOARDS)
    lo, _, hi = spec.partition("-")
    return [b for b in BOARDS if int(lo) <= int(b) <= int(hi or lo)]


def holds_all(s: Spectator, games: dict[str, list[str]]) -> bool:
    return all(len(s.games.get(f"1-{b}", {}).get("moves", ())) >= len(games[b]) for b in follows(s.boards))


async def test_a_killed_dashboard_node_loses_its_spectators_nothing(tmp_path, shared_data):
    games = {b: candidates_moves(shared_data, int(b))[:PLIES] for b in BOARDS}
    assert all(len(m) == PLIES for m in games.values())
    spectators: list[Spectator] = []
    async with NodeDeployment(tmp_path, BOARDS) as d:
        try:
            spectators = [Spectator(d.address, spec) for spec in WATCH * 2]
            for s in spectators:
                s.start()
            for s in spectators:
                await asyncio.wait_for(s.first_message.wait(), 10)
            # nginx's round robin spreads them: the first node holds some of them (its own count)
            held = (await d.health(0))["spectators"]
            assert 0 < held < len(spectators), held

            async with d.devices() as play:
                await play(games, range(KILL_AFTER))
                playing = asyncio.create_task(play(games, range(KILL_AFTER, PLIES)))
                await asyncio.sleep(0.1)
                d.dashboards[0].kill()  # mid-round: the boards are still playing
                await playing

            entries = await log_until(d.log, lambda es: all(len(played(es, f"1-{b}")) >= PLIES for b in BOARDS), 20)
            deadline = time.monotonic() + 20
            while not all(holds_all(s, games) for s in spectators) and time.monotonic() < deadline:
                await asyncio.sleep(0.1)
            after = await d.health(1)
        finally:
            for s in spectators:
                await s.close()

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


async def test_the_arbiters_console_works_through_nginx_on_its_port(tmp_path):
    """The console's page is served from ``http://ADDRESS`` (nginx on a port of its own, as compose
    publishes 8000), so its logins and actions carry ``Origin: http://ADDRESS``. deploy/nginx passes
    the Host the browser sent, port included, so the node sees them as its own pages
    (dashboard/origins.py): the login, the session and the console's websocket are accepted, on
    the node the arbiters are routed to (venue_arbiter: the first)."""
    async with NodeDeployment(tmp_path, BOARDS) as d:
        origin = {"Origin": f"http://{d.address}"}
        async with httpx.AsyncClient(base_url=f"http://{d.address}", timeout=5) as c:
            r = await c.post("/api/arbiter/login", json={"login": ARBITER[0], "password": ARBITER[1]},
                             headers=origin)
            assert r.status_code == 200, r.text
            assert (await c.get("/api/arbiter/me")).json()["login"] == ARBITER[0]
            cookie = "; ".join(f"{k}={v}" for k, v in c.cookies.items())
        async with websockets.connect(f"ws://{d.address}/ws/arbiter", additional_headers={**origin, "Cookie": cookie},
                                      open_timeout=10) as ws:
            first = json.loads(await asyncio.wait_for(ws.recv(), 10))
        assert isinstance(first, dict) and first
        assert (await d.health(0))["spectators"] == 0  # an arbiter's console is no spectator
        r = httpx.post(f"http://{d.address}/api/arbiter/login", json={"login": ARBITER[0], "password": ARBITER[1]},
                       headers={"Origin": "http://elsewhere.example"})
        assert r.status_code == 403  # and another page's still is not
        # Issue 28: a client naming a new X-Forwarded-For per try escaped the login limit. nginx sets the
        # header to the address it sees: this client (127.0.0.1, nginx's own host) is counted as itself.
        async with httpx.AsyncClient(base_url=f"http://{d.address}", timeout=5) as c:
            codes = [(await c.post("/api/arbiter/login", json={"login": "guess", "password": "wrong"},
                                   headers={**origin, "X-Forwarded-For": f"198.51.100.{i}"})).status_code
                     for i in range(1, 7)]
        assert codes == [401] * 5 + [429], codes
