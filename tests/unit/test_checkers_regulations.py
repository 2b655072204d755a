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
