"""The broadcast delay at its edges (issue 13 "Broadcast delay"): "a result appended at t=0 with
delay 900 s is invisible at 899 s and visible at 901 s", on every public route (the JSON API, the
PGN feeds, the board pictures, the standings, ``/ws/live`` snapshots and deltas), with an injected
clock and no sleeps; arbiters see the hall live.

The event: tests/broadcast_helpers.py (the Keres Memorial sample's players in a rapid round robin,
``[broadcast] delay = 900``); board 1 plays the first plies of Praggnanandhaa-Nepomniachtchi
(Candidates 2024, round 5), its last ply and the result appended at t=0 (``T0``).
"""

from __future__ import annotations

import asyncio

import anyio
import pytest
from starlette.testclient import TestClient

from broadcast_helpers import T0, candidates_round5, keres_players, registration_entries, tournament_text
from dashboard.app import create_app
from dashboard.arbiter.auth import Account, Accounts, hash_password
from replay_entries import game_entries
from services.eventlog.memory import MemoryLog

DELAY_MS = 900_000
PLIES = 8
LOGIN, PASSWORD = "chief", "delay-9.2"


class Clock:
    """The dashboard's injected clock (ms since the epoch)."""

    def __init__(self, now: int):
        self.now = now

    def __call__(self) -> int:
        return self.now


def entries(shared_data) -> list[tuple[str, dict, int]]:
    """Registration an hour before t=0, round 1, board 1's first plies ending at t=0, then its
    result at t=0."""
    text = tournament_text(keres_players(shared_data), delay_s=DELAY_MS // 1000)
    out = registration_entries(text, T0 - 3_600_000)
    game = game_entries(candidates_round5(shared_data)[0], "1-1", "1", T0 - 3_000_000, end=False)
    plies = [e for e in game if e[0] in ("clock_started", "move_played", "clock_pressed")][: 1 + 2 * PLIES]
    shift = T0 - plies[-1][2]  # the last press at t=0, the game's own timing before it kept
    out += [(t, d, at + shift) for t, d, at in plies]
    out.append(("game_ended", {"game": "1-1", "board": "1", "result": "1-0", "termination": "resignation",
                               "ply": PLIES, "by": "device"}, T0))
    return out


@pytest.fixture
def hall(shared_data):
    log = MemoryLog("keres-rapid")
    asyncio.run(log.append_many(entries(shared_data)))
    clock = Clock(T0 + DELAY_MS - 1000)
    accounts = Accounts([Account(LOGIN, "Chief Arbiter", hash_password(PASSWORD))], b"k" * 32)
    app = create_app(log, clock=clock, accounts=accounts)
    with TestClient(app) as client:
        _caught_up(client)
        yield client, clock


def _caught_up(client: TestClient) -> None:
    for _ in range(200):
        if client.get("/api/health").json()["caught_up"]:
            return
        client.portal.call(anyio.sleep, 0.01)
    raise AssertionError("the feed did not catch up with the log")


def public_view(client: TestClient) -> dict:
    g = client.get("/api/games/1-1").json()
    pgn = client.get("/api/games/1-1.pgn").text
    return {"status": g["status"], "result": g["result"], "ply": g["ply"],
            "pgn_result": next(line for line in pgn.splitlines() if line.startswith("[Result ")),
            "round_pgn_result": client.get("/api/round.pgn").text.split("\n\n")[0].count('[Result "1-0"]'),
            "games_result": client.get("/api/games").json()["games"][0]["result"],
            "picture": client.get(f"/board/1-1.svg?ply={PLIES}").status_code,
            "points": {r["name"]: r["points"] for r in client.get("/api/standings").json()["rows"]}}


def test_a_result_at_t0_is_invisible_at_899s_and_visible_at_901s(hall, shared_data):
    client, clock = hall
    spectator = TestClient(client.app)  # no session: the public
    clock.now = T0 + 899_000
    before = public_view(spectator)
    assert before["status"] == "playing" and before["result"] == "*" and before["ply"] == PLIES - 1
    assert before["pgn_result"] == '[Result "*"]' and before["round_pgn_result"] == 0
    assert before["games_result"] == "*"
    assert before["picture"] == 400  # ply 8 was made at t=0: not yet public
    assert set(before["points"].values()) == {0}
    clock.now = T0 + 901_000
    after = public_view(spectator)
    assert after["status"] == "ended" and after["result"] == "1-0" and after["ply"] == PLIES
    assert after["pgn_result"] == '[Result "1-0"]' and after["round_pgn_result"] == 1
    assert after["games_result"] == "1-0" and after["picture"] == 200
    # Ehlvest (start no 1) beat Smirnov (4) in round 1 (1-4, Berger tables)
    assert after["points"]["Ehlvest, Jaan"] == 1 and after["points"]["Smirnov, Artem"] == 0


def test_arbiters_see_the_hall_live(hall):
    client, clock = hall
    clock.now = T0 + 1000  # a second after the result: the public sees the game as it stood 15 min ago
    r = client.post("/api/arbiter/login", json={"login": LOGIN, "password": PASSWORD})
    assert r.status_code == 200
    live = client.get("/api/games/1-1").json()  # the cookie session
    assert live["result"] == "1-0" and live["ply"] == PLIES
    public = TestClient(client.app).get("/api/games/1-1").json()
    assert public["result"] == "*" and public["ply"] < PLIES
    # a page elsewhere cannot read the live hall through the arbiter's cookie
    other = client.get("/api/games/1-1", headers={"Origin": "http://127.0.0.1:9999"}).json()
    assert other["result"] == "*"


def test_the_running_clock_counts_down_from_the_delayed_reading(hall, shared_data):
    """At t: the public clock is the reading as it stood at t - 900 s, running from there: its
    shown time (``ms - (now - at)``, README "Dashboard API") equals what the clock showed then."""
    client, clock = hall
    log = entries(shared_data)
    readings = [(at, d) for t, d, at in log if t in ("clock_started", "clock_pressed")]
    clock.now = T0 + 899_000
    g = TestClient(client.app).get("/api/games/1-1").json()
    at, last = [(at, d) for at, d in readings if at <= clock.now - DELAY_MS][-1]
    assert g["clock"]["running"] == last["running"]
    side = last["running"]
    shown = g["clock"][f"{side}_ms"] - (clock.now - g["clock"]["at"])
    then = last[f"{side}_ms"] - ((clock.now - DELAY_MS) - at)
    assert shown == then


def test_the_live_feed_snapshot_and_deltas_are_delayed(hall):
    client, clock = hall
    clock.now = T0 + 899_000
    with client.websocket_connect("/ws/live") as ws:  # no session cookie on this client yet
        snap = ws.receive_json()
        g = next(x for x in snap["games"] if x["id"] == "1-1")
        assert g["result"] == "*" and g["ply"] == PLIES - 1
        clock.now = T0 + 901_000  # the feed's ticker releases the ply and the result when due
        got = []
        while not any(m.get("set", {}).get("result") == "1-0" for m in got):
            data = ws.receive_json()
            got += data if isinstance(data, list) else [data]
        assert any(m.get("append", {}).get("move") for m in got)  # ply 8 came first
        assert all(m["seq"] > snap["seq"] for m in got)


def test_the_delay_comes_from_the_tournament_file():
    from services.regulations.tournament_file import load_tournament
    from services.regulations.fields import TournamentFileError

    base = tournament_text([{"name": f"P{i}", "rating": 2000, "fide_id": str(i), "title": None} for i in range(4)])
    assert load_tournament(base).broadcast_delay_ms == 0
    assert load_tournament(base + '\n[broadcast]\ndelay = "15m"\n').broadcast_delay_ms == 900_000
    assert load_tournament(base + "\n[broadcast]\ndelay = 3600\n").broadcast_delay_ms == 3_600_000
    for bad in ("3601", "-1", "true", '"soon"'):
        with pytest.raises(TournamentFileError, match="broadcast.delay"):
            load_tournament(base + f"\n[broadcast]\ndelay = {bad}\n")


@pytest.mark.parametrize("delay_s", [None, 900])
def test_the_same_file_read_again_changes_nothing_and_a_new_delay_shows(delay_s):
    """README "A changed file": the same tournament file registers nothing new; a delay changed
    between rounds is listed as a change."""
    import msgspec

    from services.events import decode
    from services.arbiter_office.tournament_changes import registration_changes
    from services.arbiter_office.tournament_log import tournament_registered_data
    from services.regulations.tournament_file import load_tournament

    players = [{"name": f"P{i}", "rating": 2000, "fide_id": str(i), "title": None} for i in range(4)]
    data = tournament_registered_data(load_tournament(tournament_text(players, delay_s=delay_s)))
    folded = msgspec.to_builtins(decode("tournament_registered", decode("tournament_registered", data).encode()[1]))
    assert registration_changes(folded, data) == []
    other = tournament_registered_data(load_tournament(tournament_text(players, delay_s=1800)))
    assert registration_changes(folded, other) == [
        {"section": "tournament", "key": "broadcast_delay_ms", "was": (delay_s or 0) * 1000, "now": 1_800_000}]
