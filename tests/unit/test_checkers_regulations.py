"""The 2017 11-Man National's own rules (../shared/regulations/checkers-11-man-national-2017.txt)."""

import pytest

from services.regulations.checkers_rounds import (adjudicate, choose_match_clock, flag_forfeits,
                                                  late_start_draw)
from services.regulations.controls import control_from_spec
from services.regulations.move_timer import FIVE_MINUTE, ONE_MINUTE, MoveTimer
from services.regulations.score_sheets import cross_check

MIN = 60_000


def test_one_minute_rule_ten_second_warning_then_forfeit():
    # X.B.c: "require each player to make a move within one minute of each turn to move. The Referee
    # will, at minimum, give a 10-second warning before the expiration of the minute, and will declare
    # the game forfeited if the player has not moved within the one-minute period."
    t = MoveTimer(ONE_MINUTE)
    assert t.state(0) is None
    t.start("black", 0)
    assert t.state(49_999).phase == "running"
    s = t.state(50_000)
    assert s.phase == "warned" and s.left_ms == 10_000
    assert t.state(60_000).phase == "warned"
    assert t.state(60_001).phase == "forfeit" and t.state(60_001).side == "black"
    t2 = MoveTimer(ONE_MINUTE)
    t2.start("black", 0)
    t2.moved("black", 30_000)
    assert t2.state(70_000).phase == "running" and t2.state(70_000).side == "white"
    with pytest.raises(ValueError):
        t2.moved("black", 81_000)


def test_five_minute_rule():
    # X.B.a: "the ordinary five-minute rule": "time" at five minutes, the move within one more.
    t = MoveTimer(FIVE_MINUTE)
    t.start("white", 0)
    assert t.state(5 * MIN - 1).phase == "running"
    assert t.state(5 * MIN).phase == "warned"
    assert t.state(6 * MIN + 1).phase == "forfeit"


def test_no_game_starts_later_than_30_minutes_before_round_end():
    # X.B.e: "No game shall be started later than 30 minutes before a round time is scheduled to end.
    # Any game, not started in accordance with this rule, shall be declared drawn."
    end = 4 * 60 * MIN
    assert not late_start_draw(end, end - 30 * MIN, end - 30 * MIN)
    assert late_start_draw(end, end - 29 * MIN, end - 29 * MIN)
    assert late_start_draw(end, None, end - 30 * MIN + 1)
    assert not late_start_draw(end, None, end - 31 * MIN)


def test_adjudication_win_only_by_unanimous_vote():
    # X.B.d: "An adjudication win can only be awarded by unanimous vote of the Committee."
    members = ["Expert A", "Expert B", "Expert C"]
    win = adjudicate(members, {"Expert A": "white", "Expert B": "white", "Expert C": "white"})
    assert win.result == "0-1" and win.unanimous
    split = adjudicate(members, {"Expert A": "white", "Expert B": "white", "Expert C": "draw"})
    assert split.result == "1/2-1/2" and not split.unanimous
    assert split.to_json()["binding"] is True
    with pytest.raises(ValueError, match="three"):
        adjudicate(members[:2], {"Expert A": "white", "Expert B": "white"})


def test_match_clock_choice_agreed_or_by_recorded_coin_flip():
    # X.A.a: "1) ... 90 minutes ... Or 2) ... 80 minutes + 10-second increment ... If the players
    # cannot mutually agree ... decided at random (e. g., coin flip)."
    assert choose_match_clock("80+10", "80+10").how == "agreed"
    with pytest.raises(ValueError, match="coin flip"):
        choose_match_clock("90", "80+10")
    c = choose_match_clock("90", "80+10", coin="tails")
    assert (c.option, c.how, c.coin) == ("80+10", "coin flip", "tails")
    ctl = control_from_spec(c.control_spec)
    assert ctl.carries_over and ctl.starting_ms("black") == 80 * MIN
    assert ctl.added_on_press("black", 1)[0] == 10_000


def test_flag_fall_forfeits_the_next_game_if_not_started():
    # X.A.b: "A player whose time expires forfeits the current game, as well as the next game if not started."
    assert flag_forfeits(0, next_started=False) == [0, 1]
    assert flag_forfeits(1, next_started=False) == [1]


def test_score_sheets_cross_checked_against_the_board():
    # XII: "both copies, one from each player, are necessary to permit crosschecking for recording
    # errors"; the opening of german_open_2004.pdn: 11-15 22-17 15-19.
    board = ["11-15", "22-17", "15-19", "24x15"]
    diffs = cross_check(board, {"black": ["11-15", "22-17", "15-18", "24x15"],
                                "white": ["11-15", "22-17", "15-19"]})
    assert [(d.ply, d.sheet, d.board, d.written) for d in diffs] == [
        (3, "black", "15-19", "15-18"), (4, "white", "24x15", None)]
    assert cross_check(board, {"black": list(board)}) == []


def test_one_minute_rule_enforced_live_by_the_gateways_regulations():
    # X.B.c: "require each player to make a move within one minute ... give a 10-second warning ...
    # and will declare the game forfeited if the player has not moved within the one-minute period."
    from pathlib import Path

    from services.regulations.enforcer import Enforcer
    from services.regulations.tournament_file import load_tournament

    path = Path(__file__).resolve().parents[2] / "events" / "checkers-11-man-national-2017.toml"
    e = Enforcer(load_tournament(path.read_text(), str(path)))
    e.observe("round_started", {"round": "1", "games": [{"id": "1-1", "board": "1", "round": "1",
                                                         "white": "A", "black": "B", "variant": "checkers"}]}, 0)
    e.observe("move_timer_started", {"game": "1-1", "rule": "one_minute", "side": "black"}, 1000)
    e.observe("move_played", {"game": "1-1", "turn": "white"}, 20_000)  # Black moved in time
    assert e.tick(69_000) == []
    [warn] = e.tick(70_000)  # 50 s into White's minute
    assert warn[0] == "move_timer_warning" and warn[1]["side"] == "white"
    assert e.tick(75_000) == []
    out = e.tick(80_001)
    assert [t for t, _ in out] == ["move_timer_forfeit", "game_ended"]
    # White forfeited, so Black won: "0-1" (our codes put White's score first, docs/checkers.md)
    assert out[1][1]["result"] == "0-1" and out[1][1]["termination"] == "time_forfeit"


# --- X.B.e live: the late-start draw in the gateway's regulations ---------------------------------
LATE_START = ("No game shall be started later than 30 minutes before a round time is scheduled to end. "
              "Any game, not started in accordance with this rule, shall be declared drawn.")


def late_start_enforcer(end_ms: int | None):
    """The preset's regulations with round 1 scheduled to end at ``end_ms``, two checkers boards."""
    import dataclasses
    from pathlib import Path

    from services.regulations.enforcer import Enforcer
    from services.regulations.tournament_file import load_tournament

    path = Path(__file__).resolve().parents[2] / "events" / "checkers-11-man-national-2017.toml"
    t = load_tournament(path.read_text(), str(path))
    r1 = dataclasses.replace(t.rounds[0], end_ms=end_ms)
    e = Enforcer(dataclasses.replace(t, rounds=(r1, *t.rounds[1:])))
    e.observe("round_started", {"round": "1", "games": [
        {"id": f"1-{b}", "board": str(b), "round": "1", "white": "A", "black": "B", "variant": "checkers"}
        for b in (1, 2)]}, r1.start_ms)
    return e, r1


def test_late_start_draw_for_a_game_not_started_when_the_limit_passes():
    # X.B.e: the limit is 30 minutes before the scheduled end; a game not started by then is drawn.
    end = 4 * 60 * MIN
    e, _ = late_start_enforcer(end)
    limit = end - 30 * MIN
    assert e.observe("move_played", {"game": "1-1", "turn": "white", "ply": 1}, limit) == []  # "not later than"
    assert e.tick(limit) == []
    out = e.tick(limit + 1)
    assert [(t, d["game"]) for t, d in out] == [("late_start_draw", "1-2"), ("game_ended", "1-2")]
    draw, ended = out[0][1], out[1][1]
    assert LATE_START in draw["rule"] and "X.B.e" in draw["rule"]
    assert (draw["round_end_ms"], draw["latest_start_ms"], draw["started_at"]) == (end, limit, None)
    assert (ended["result"], ended["termination"], ended["by"], ended["ply"]) == (
        "1/2-1/2", "late_start", "regulations", 0)
    assert e.tick(limit + 60_000) == []  # declared once


def test_late_start_draw_for_a_game_first_moved_after_the_limit():
    # X.B.e: "Any game, not started in accordance with this rule, shall be declared drawn": the first
    # move (Red's, X.A.d) made after the limit draws the game at once.
    end = 4 * 60 * MIN
    e, _ = late_start_enforcer(end)
    late = end - 30 * MIN + 1
    out = e.observe("move_played", {"game": "1-2", "turn": "white", "ply": 1}, late)
    assert [t for t, _ in out] == ["late_start_draw", "game_ended"]
    assert out[0][1]["started_at"] == late and out[1][1]["ply"] == 1
    assert out[1][1]["result"] == "1/2-1/2"
    # A referee who reopens the game ("*") is not overruled again by the regulations.
    e.observe("game_ended", out[1][1], late)
    e.observe("arbiter_decision", {"game": "1-2", "result": "*"}, late + 1000)
    assert [d["game"] for t, d in e.tick(late + 5000) if t == "late_start_draw"] == ["1-1"]  # never started
    assert e.observe("move_played", {"game": "1-2", "turn": "black", "ply": 2}, late + 6000) == []


def test_a_clock_started_in_time_starts_the_game():
    # X.A.d: "As the game starts, Red's clock is started, Red's first balloted move is made": a game
    # whose clock was started before the limit was started in accordance with X.B.e.
    end = 4 * 60 * MIN
    e, _ = late_start_enforcer(end)
    limit = end - 30 * MIN
    e.observe("clock_started", {"game": "1-1", "white_ms": 90 * MIN, "black_ms": 90 * MIN, "running": "black"},
              limit - 10_000)
    assert e.observe("move_played", {"game": "1-1", "turn": "white", "ply": 1}, limit + 5000) == []
    assert [d["game"] for t, d in e.tick(limit + 6000) if t == "late_start_draw"] == ["1-2"]


def test_no_late_start_draw_without_a_scheduled_end():
    # X.A.i: the Master Division "is open-ended without rigid round-ending time": a round without
    # ``end`` never draws a game for starting late.
    e, r1 = late_start_enforcer(None)
    assert e.tick(r1.start_ms + 24 * 60 * MIN) == []


def test_a_late_start_is_a_drawn_termination():
    # X.B.e: "shall be declared drawn"
    from services.rules.checkers_results import check_outcome

    assert check_outcome("1/2-1/2", "late_start").code == "1/2-1/2"
    with pytest.raises(ValueError, match="draw"):
        check_outcome("1-0", "late_start")
