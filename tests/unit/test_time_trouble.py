"""Impending time trouble in checkers (11-Man National 2017 X.A.d,
../shared/regulations/checkers-11-man-national-2017.txt):

    "The Referee may also call attention to impending time trouble (5 minutes or less prior to a
    time control), and spectators are never to do so."

The gateway's regulations (services.regulations.referee, time passed in) tell the referee once per
side per game when a side's time on a match clock is 5:00 or less; the referee's call is an action
(dashboard.arbiter.actions ``call_time_trouble``), recorded with who, for whom, when and the rule."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from eventually import eventually
from starlette.testclient import TestClient

from dashboard.app import create_app
from dashboard.arbiter.actions import ActionError, build
from dashboard.arbiter.auth import Account, Accounts, hash_password
from services.eventlog.memory import MemoryLog
from alert_feed import FoldedAlerts
from referee_harness import Referee as Enforcer
from referee_harness import played
from services.regulations.clock_rules import TIME_TROUBLE_RULE
from services.regulations.tournament_file import load_tournament

X_A_D = ("The Referee may also call attention to impending time trouble (5 minutes or less prior to a time "
         "control), and spectators are never to do so.")
EVENTS = Path(__file__).resolve().parents[2] / "events"
MIN, S = 60_000, 1000
FULL = 90 * MIN  # the preset's match clock, X.A.a option 1: 90 minutes each


def checkers_enforcer() -> Enforcer:
    """The 11-Man National 2017 preset (a 90-minute match clock) with one checkers game."""
    path = EVENTS / "checkers-11-man-national-2017.toml"
    e = Enforcer(load_tournament(path.read_text(), str(path)))
    e.observe("round_started", {"round": "1", "games": [{"id": "1-1", "board": "1", "round": "1", "white": "W",
                                                         "black": "R", "variant": "checkers", "fen": None}]}, 0)
    return e


def feed(e: Enforcer, at: int, type_: str, **data) -> None:
    if type_ == "move_played":
        data = {**played("1-1", data["ply"], data.get("move", ""), first="black"), **data}
    e.observe(type_, {"game": "1-1", "board": "1", **data}, at)


def trouble(out):
    return [d for t, d in out if t == "time_trouble_impending"]


def test_the_rule_is_quoted():
    assert X_A_D in TIME_TROUBLE_RULE and TIME_TROUBLE_RULE.startswith("11-Man National 2017 X.A.d")


def test_each_side_crossing_five_minutes_on_a_90_minute_match_clock_alerts_once():
    # X.A.d: "5 minutes or less prior to a time control"; the preset's 90-minute match clock has its
    # control at 0:00, so each side is alerted once its clock shows 5:00 or less.
    e = checkers_enforcer()
    feed(e, 0, "clock_started", white_ms=FULL, black_ms=FULL, running="black")  # Red's clock first
    # Red thinks 84 minutes: 6:00 left, never at 5:00
    assert trouble(e.tick(60 * MIN)) == [] and trouble(e.tick(84 * MIN - 1)) == []
    feed(e, 84 * MIN, "move_played", ply=1, move="11-15", turn="white")
    feed(e, 84 * MIN, "clock_pressed", white_ms=FULL, black_ms=6 * MIN, running="white")
    assert trouble(e.tick(150 * MIN)) == []
    # White's 85 minutes: 5:00 left at 169:00, not a millisecond before
    assert trouble(e.tick(169 * MIN - 1)) == []
    [white] = trouble(e.tick(169 * MIN))
    assert (white["side"], white["player"], white["left_ms"], white["threshold_ms"]) == ("white", "W", 5 * MIN, 5 * MIN)
    assert white["game"] == "1-1" and white["board"] == "1" and X_A_D in white["rule"]
    assert trouble(e.tick(169 * MIN + 30 * S)) == []  # once per side
    feed(e, 170 * MIN, "move_played", ply=2, move="23-19", turn="black")
    feed(e, 170 * MIN, "clock_pressed", white_ms=4 * MIN, black_ms=6 * MIN, running="black")
    assert trouble(e.tick(170 * MIN + 30 * S)) == []  # White still at 4:00: said already
    # Red runs again from 6:00: 5:00 at 171:00
    assert trouble(e.tick(171 * MIN - 1)) == []
    [red] = trouble(e.tick(171 * MIN))
    assert (red["side"], red["player"], red["left_ms"]) == ("black", "R", 5 * MIN)
    assert trouble(e.tick(173 * MIN)) == []


def test_a_restarted_gateway_does_not_say_it_again():
    # The gateway replays its own answers through observe after a restart: the alert is folded.
    e = checkers_enforcer()
    feed(e, 0, "clock_started", white_ms=FULL, black_ms=FULL, running="black")
    [red] = trouble(e.tick(86 * MIN))
    again = checkers_enforcer()
    feed(again, 0, "clock_started", white_ms=FULL, black_ms=FULL, running="black")
    again.observe("time_trouble_impending", red, 86 * MIN)
    assert trouble(again.tick(87 * MIN)) == []


def test_nothing_before_the_clock_starts_nor_once_the_game_is_over():
    e = checkers_enforcer()
    assert trouble(e.tick(100 * MIN)) == []  # the clock never started: not in play
    feed(e, 0, "clock_started", white_ms=FULL, black_ms=FULL, running="black")
    feed(e, 10 * MIN, "game_ended", result="1-0", termination="resignation", by="device")
    assert trouble(e.tick(88 * MIN)) == []


def test_nothing_for_a_chess_game():
    # X.A.d is the checkers referee's; a chess game at 2:00 gets no such alert.
    path = EVENTS / "us-championship-2023.toml"
    t = load_tournament(path.read_text(), str(path))
    e = Enforcer(t)
    start = t.round(1).start_ms
    e.observe("round_started", {"round": "1", "games": [{"id": "1-1", "board": "1", "round": "1", "white": "A",
                                                         "black": "B", "variant": "chess", "kind": t.kind}]}, start)
    e.observe("player_arrived", {"game": "1-1", "side": "white"}, start)
    e.observe("player_arrived", {"game": "1-1", "side": "black"}, start)
    e.observe("clock_started", {"game": "1-1", "board": "1", "white_ms": 90 * MIN, "black_ms": 90 * MIN,
                                "running": "white"}, start)
    assert e.watches.get("1-1").remaining("white", start + 88 * MIN) == 2 * MIN
    assert trouble(e.tick(start + 88 * MIN)) == []


# --- the referee's call ------------------------------------------------------------------------
GAMES = {
    "2-1": {"id": "2-1", "board": "1", "white": "Chinook", "black": "Tinsley, Marion", "status": "playing",
            "result": "*", "ply": 40, "variant": "checkers", "turn": "white",
            "clock": {"white_ms": 4 * MIN + 12 * S, "black_ms": 20 * MIN, "running": "white", "at": 1}},
    "2-2": {"id": "2-2", "board": "2", "white": "A", "black": "B", "status": "ended", "result": "0-1",
            "ply": 30, "variant": "checkers"},
    "1-1": {"id": "1-1", "board": "3", "white": "Caruana, Fabiano", "black": "Nakamura, Hikaru",
            "status": "playing", "result": "*", "ply": 40},
}


def test_call_time_trouble_records_who_for_whom_and_the_rule():
    # X.A.d: "The Referee may also call attention to impending time trouble"
    [(type_, data)] = build("call_time_trouble", {"game": "2-1", "side": "white", "alert": 12}, "referee", GAMES)
    assert type_ == "time_trouble_called"
    assert data == {"by": "referee", "game": "2-1", "board": "1", "side": "white", "player": "Chinook",
                    "left_ms": 4 * MIN + 12 * S, "alert": 12, "rule": TIME_TROUBLE_RULE}
    assert X_A_D in data["rule"]


def test_call_time_trouble_refused_for_chess_ended_games_and_bad_sides():
    with pytest.raises(ActionError, match="1-1 is a chess game; call_time_trouble is a checkers referee's action"):
        build("call_time_trouble", {"game": "1-1", "side": "white"}, "chief", GAMES)
    with pytest.raises(ActionError, match=r"2-2 has already ended \(0-1\); there is no time trouble"):
        build("call_time_trouble", {"game": "2-2", "side": "black"}, "referee", GAMES)
    with pytest.raises(ActionError, match="side: must be white or black"):
        build("call_time_trouble", {"game": "2-1", "side": "red"}, "referee", GAMES)
    with pytest.raises(ActionError, match="side: is missing"):
        build("call_time_trouble", {"game": "2-1"}, "referee", GAMES)


def test_the_call_answers_that_sides_alert_and_is_a_recorded_action():
    q = FoldedAlerts()
    alert = {"game": "2-1", "board": "1", "side": "white", "player": "Chinook", "left_ms": 5 * MIN,
             "threshold_ms": 5 * MIN, "rule": TIME_TROUBLE_RULE}
    [a] = q.apply(5, 1000, "time_trouble_impending", alert)
    [b] = q.apply(6, 1000, "time_trouble_impending", {**alert, "side": "black", "player": "Tinsley, Marion"})
    assert (a.severity, a.status) == ("info", "open") and "X.A.d" in a.title
    [(_, called)] = build("call_time_trouble", {"game": "2-1", "side": "white"}, "referee", GAMES)
    closed = q.apply(7, 2000, "time_trouble_called", called)
    assert closed == [a] and a.status == "resolved" and b.status == "open"
    assert q.actions[-1]["type"] == "time_trouble_called" and q.actions[-1]["by"] == "referee"


def wait_for(client, seq):
    eventually(lambda: client.get("/api/health").json()["seq"] >= seq, 5)


def test_call_time_trouble_through_the_api():
    # X.A.d through POST /api/arbiter/actions: logged in only; recorded with the login and the log's
    # time; a chess game of the round is refused in words.
    setups = [{"id": "1-1", "board": "1", "round": "1", "white": "Chinook", "black": "Tinsley, Marion",
               "white_elo": None, "black_elo": None, "variant": "checkers", "time_control": None, "fen": None,
               "kind": "classical"},
              {"id": "1-2", "board": "2", "round": "1", "white": "A", "black": "B", "white_elo": None,
               "black_elo": None, "variant": "chess", "time_control": None, "fen": None, "kind": "classical"}]
    log = MemoryLog("checkers-2017")
    asyncio.run(log.append_many([
        ("round_started", {"round": "1", "event": "11-Man", "site": "", "date": "2017.07.01", "games": setups}, None),
        ("time_trouble_impending", {"game": "1-1", "board": "1", "side": "black", "player": "Tinsley, Marion",
                                    "left_ms": 5 * MIN, "threshold_ms": 5 * MIN, "rule": TIME_TROUBLE_RULE}, None)]))
    accounts = Accounts([Account("referee", "Referee", hash_password("s3cret"))], b"k" * 32)
    with TestClient(create_app(log, accounts=accounts)) as client:
        wait_for(client, 2)
        body = {"action": "call_time_trouble", "game": "1-1", "side": "black", "alert": 2}
        assert client.post("/api/arbiter/actions", json=body).status_code == 401
        token = client.post("/api/arbiter/login", json={"login": "referee", "password": "s3cret"}).json()["token"]
        auth = {"Authorization": f"Bearer {token}"}
        r = client.post("/api/arbiter/actions", headers=auth, json=body)
        assert r.status_code == 200
        [entry] = r.json()["entries"]
        assert entry["type"] == "time_trouble_called" and isinstance(entry["at"], int)
        assert {k: entry["data"][k] for k in ("by", "game", "side", "player", "alert")} == \
            {"by": "referee", "game": "1-1", "side": "black", "player": "Tinsley, Marion", "alert": 2}
        assert X_A_D in entry["data"]["rule"]
        r = client.post("/api/arbiter/actions", headers=auth,
                        json={"action": "call_time_trouble", "game": "1-2", "side": "white"})
        assert r.status_code == 400 and "1-2 is a chess game" in r.json()["error"]
        wait_for(client, 3)
        desk = client.get("/api/arbiter/alerts", headers=auth).json()
        assert not [a for a in desk["alerts"] if a["kind"] == "time_trouble_impending"]
        assert any(x["type"] == "time_trouble_called" for x in desk["actions"])
