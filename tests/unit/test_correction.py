"""An arbiter's correction of a game's record reaches everyone (issue 13 "Corrections reach
everyone"): "take it back to ply N and enter the right moves"; the correction is a log entry
(``game_corrected``); spectators already watching move to the corrected line at once (one delta
that sets the whole record, no dead branch); the PGN feed carries the corrected game; the gateway's
rules core follows it.

The game: Praggnanandhaa-Nepomniachtchi, FIDE Candidates 2024 round 5 (../shared/data/chess/
fide_candidates_2024_open.pgn), whose board recorded 1. e4 e5 2. Nf3 Nf6 3. Nxe5 d6 4. Nf3 Nxe4.
The arbiter rules that plies 5 to 8 were never played and the players went 3. Nc3 Nc6 instead (a
hypothetical correction; the expected record is python-chess's replay of the six moves).
"""

from __future__ import annotations

import asyncio
import io

import chess
import chess.pgn
import pytest
from eventually import eventually
from starlette.testclient import TestClient

from broadcast_helpers import T0, candidates_round5
from dashboard.app import create_app
from dashboard.arbiter.auth import Account, Accounts, hash_password
from gateway.hall import Hall
from replay_entries import game_entries, round_started
from services.eventlog.memory import MemoryLog

LOGIN, PASSWORD = "chief", "Laws-7.5.1"
CORRECTED = ["e4", "e5", "Nf3", "Nf6", "Nc3", "Nc6"]


def bearer(app) -> dict:
    """An arbiter's script: its own client (no cookie), logged in, the token as a Bearer header."""
    r = TestClient(app).post("/api/arbiter/login", json={"login": LOGIN, "password": PASSWORD})
    assert r.status_code == 200, r.text
    return {"Authorization": f"Bearer {r.json()['token']}"}


def expected() -> tuple[list[str], str]:
    board = chess.Board()
    ucis = [board.push_san(san).uci() for san in CORRECTED]
    return ucis, board.fen()


@pytest.fixture
def hall(shared_data):
    games = candidates_round5(shared_data)
    log = MemoryLog("candidates-2024")
    plies = [e for e in game_entries(games[0], "5-1", "1", T0 + 1000, end=False)][: 1 + 2 * 8]
    asyncio.run(log.append_many([round_started(games, "5", T0)] + plies))
    accounts = Accounts([Account(LOGIN, "Chief Arbiter", hash_password(PASSWORD))], b"k" * 32)
    with TestClient(create_app(log, accounts=accounts)) as client:
        eventually(lambda: client.get("/api/games/5-1").json()["ply"] == 8, 5)
        yield client, log


def test_a_correction_reaches_a_watching_spectator_and_the_pgn_feed(hall):
    client, log = hall
    # one client (the app's own event loop) for the socket and the action: the memory log wakes its
    # followers in that loop; the spectator's socket has no session, the action a Bearer token
    spectator = script = client
    auth = bearer(client.app)
    with spectator.websocket_connect("/ws/live?boards=1") as ws:
        snap = ws.receive_json()
        assert next(g for g in snap["games"] if g["id"] == "5-1")["ply"] == 8
        r = script.post("/api/arbiter/actions", headers=auth,
                        json={"action": "correct_record", "game": "5-1", "ply": 4, "moves": "Nc3 Nc6",
                              "reason": "the e-board recorded moves the players did not make"})
        assert r.status_code == 200, r.text
        entry = r.json()["entries"][0]
        assert entry["type"] == "game_corrected" and entry["data"]["by"] == LOGIN
        ucis, fen = expected()
        assert entry["data"]["moves"] == ucis[4:] and entry["data"]["removed"] == ["f3e5", "d7d6", "e5f3", "f6e4"]
        delta = ws.receive_json()
        delta = delta[0] if isinstance(delta, list) else delta
        assert delta["type"] == "game" and delta["id"] == "5-1"
        assert delta["set"]["moves"] == ucis and delta["set"]["san"] == CORRECTED
        assert delta["set"]["ply"] == 6 and delta["set"]["fen"] == fen and len(delta["set"]["clocks"]) == 6
        assert delta["set"]["corrections"] == 1
    pgn = chess.pgn.read_game(io.StringIO(spectator.get("/api/games/5-1.pgn").text))
    assert [n.san() for n in pgn.mainline()] == CORRECTED and pgn.end().board().fen() == fen
    # %clk of the plies that stand are kept (1. e4 {[%clk 1:59:24]}, the game's own)
    assert pgn.mainline().__iter__().__next__().clock() == 1 * 3600 + 59 * 60 + 24


def test_bad_corrections_are_refused_naming_why(hall):
    client, _ = hall
    auth, script = bearer(client.app), TestClient(client.app)
    cases = [({"ply": 9, "moves": "Nc3"}, "ply: the plies that stand"),
             ({"ply": 4, "moves": "Ke2 Ke7 Kd1"}, "ply 7"),  # 5. Kd1 is no legal move after 4... Ke7
             ({"ply": 4, "moves": ["f3e5", "d7d6", "e5f3", "f6e4"]}, "nothing to correct")]
    for body, words in cases:
        r = script.post("/api/arbiter/actions", headers=auth, json={"action": "correct_record", "game": "5-1", **body})
        assert r.status_code == 400 and words in r.json()["error"], r.text


def test_the_gateway_rules_core_follows_the_corrected_record(hall):
    """A gateway folding the log (as after a restart, or live) judges the next move from the
    corrected position: its cached rules core is rebuilt when earlier plies changed."""
    client, log = hall
    auth = bearer(client.app)
    gw = Hall("candidates-2024")
    for e in asyncio.run(log.read()):
        gw.fold(e.type, e.data, e.at, e.seq)
    assert gw.rules.game(gw.state.games["5-1"]).ply == 8
    # the same number of plies, another line: 4. Nf3 Nxe4 taken back and 3. Nc3 Nc6 3... entered
    r = client.post("/api/arbiter/actions", headers=auth,
                                    json={"action": "correct_record", "game": "5-1", "ply": 4,
                                          "moves": "Nc3 Nc6 Bb5 Bb4"})
    assert r.status_code == 200, r.text
    for e in asyncio.run(log.read())[-1:]:
        gw.fold(e.type, e.data, e.at, e.seq)
    g = gw.state.games["5-1"]
    assert g.ply == 8 and g.moves[-1] == "f8b4"
    board = chess.Board()
    for san in CORRECTED + ["Bb5", "Bb4"]:
        board.push_san(san)
    assert gw.rules.game(g).moves == g.moves and gw.rules.game(g).fen == board.fen()
