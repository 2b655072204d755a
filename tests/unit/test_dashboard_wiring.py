"""The dashboard app wires the other folds to the same log: standings (dashboard.standings) and the
arbiters' console (dashboard.arbiter, docs/arbiter.md: every action needs a login; without one 401
and nothing recorded; /ws/arbiter closes with 1008). Game data: round 5 of the FIDE Candidates 2024,
../shared/data/chess/fide_candidates_2024_open.pgn."""

from __future__ import annotations

import asyncio

import pytest
from dashboard_helpers import T0
from eventually import eventually
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from dashboard.app import create_app
from dashboard.arbiter.auth import Account, Accounts, hash_password
from services.eventlog.memory import MemoryLog
from replay_entries import game_entries, round_started



def wait_for(client, seq):
    eventually(lambda: client.get("/api/health").json()["seq"] >= seq, 5)


def test_arbiter_routes_need_a_login_and_actions_reach_the_spectators(round5):
    log = MemoryLog("candidates-2024")
    asyncio.run(log.append_many([round_started(round5, "5", T0)]
                                + game_entries(round5[0], "5-1", "1", T0 + 1000)[:9]))
    accounts = Accounts([Account("arbiter1", "Chief Arbiter", hash_password("s3cret"))], b"k" * 32)
    with TestClient(create_app(log, accounts=accounts)) as client:
        wait_for(client, 10)
        assert client.get("/arbiter").status_code == 200
        assert client.get("/api/arbiter/alerts").status_code == 401
        r = client.post("/api/arbiter/actions", json={"action": "set_result", "game": "5-1", "result": "1/2-1/2"})
        assert r.status_code == 401
        assert asyncio.run(log.last_seq()) == 10  # nothing recorded
        with pytest.raises(WebSocketDisconnect) as closed:
            with client.websocket_connect("/ws/arbiter") as ws:
                ws.receive_text()
        assert closed.value.code == 1008

        assert client.post("/api/arbiter/login", json={"login": "arbiter1", "password": "nope"}).status_code == 401
        token = client.post("/api/arbiter/login", json={"login": "arbiter1", "password": "s3cret"}).json()["token"]
        auth = {"Authorization": f"Bearer {token}"}
        r = client.post("/api/arbiter/actions", headers=auth,
                        json={"action": "set_result", "game": "5-1", "result": "1/2-1/2", "termination": "agreement"})
        assert r.status_code == 200
        assert [e["type"] for e in r.json()["entries"]] == ["arbiter_decision", "game_ended"]
        wait_for(client, 12)
        g = client.get("/api/games/5-1").json()
        assert (g["status"], g["result"], g["termination"]) == ("ended", "1/2-1/2", "agreement")


def test_standings_pages_are_served():
    with TestClient(create_app(MemoryLog("candidates-2024"), accounts=Accounts([], b"k" * 32))) as client:
        assert client.get("/standings").status_code == 200
        assert client.get("/crosstable").status_code == 200
        body = client.get("/api/standings").json()  # an empty log: no tournament registered yet
        assert (body["round"], body["rows"]) == (0, [])
