"""The 2017 11-Man National's own rules (../shared/regulations/checkers-11-man-national-2017.txt)."""

import pytest
from referee_harness import played

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

    from referee_harness import Referee as Enforcer
    from services.regulations.tournament_file import load_tournament

    # the Major and Minor divisions' rule (X.B.c; X.A.i keeps it out of the Master division)
    path = Path(__file__).resolve().parents[2] / "events" / "checkers-11-man-national-2017-major-minor.toml"
    e = Enforcer(load_tournament(path.read_text(), str(path)))
    e.observe("round_started", {"round": "1", "games": [{"id": "1-1", "board": "1", "round": "1",
                                                         "white": "A", "black": "B", "variant": "checkers"}]}, 0)
    e.observe("move_timer_started", {"game": "1-1", "rule": "one_minute", "side": "black"}, 1000)
    e.observe("move_played", played("1-1", 1, "11-15", first="black"), 20_000)  # Black moved in time
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

    from referee_harness import Referee as Enforcer
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
    assert e.observe("move_played", played("1-1", 1, "11-15", first="black"), limit) == []  # "not later than"
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
    out = e.observe("move_played", played("1-2", 1, "11-15", board="2", first="black"), late)
    assert [t for t, _ in out] == ["late_start_draw", "game_ended"]
    assert out[0][1]["started_at"] == late and out[1][1]["ply"] == 1
    assert out[1][1]["result"] == "1/2-1/2"
    # A referee who reopens the game ("*") is not overruled again by the regulations.
    e.observe("game_ended", out[1][1], late)
    e.observe("arbiter_decision", {"game": "1-2", "result": "*"}, late + 1000)
    assert [d["game"] for t, d in e.tick(late + 5000) if t == "late_start_draw"] == ["1-1"]  # never started
    assert e.observe("move_played", played("1-2", 2, "23-19", board="2", first="black"), late + 6000) == []


def test_a_clock_started_in_time_starts_the_game():
    # X.A.d: "As the game starts, Red's clock is started, Red's first balloted move is made": a game
    # whose clock was started before the limit was started in accordance with X.B.e.
    end = 4 * 60 * MIN
    e, _ = late_start_enforcer(end)
    limit = end - 30 * MIN
    e.observe("clock_started", {"game": "1-1", "board": "1", "device": "clock", "seq": 1, "white_ms": 90 * MIN,
                                "black_ms": 90 * MIN, "running": "black"},
              limit - 10_000)
    assert e.observe("move_played", played("1-1", 1, "11-15", first="black"), limit + 5000) == []
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


# --- X.A.d: the three balloted moves and the clock ---------------------------------------------------
X_A_D = ("As the game starts, Red's clock is started, Red's first balloted move is made, Red's clock is "
         "stopped, and White's is automatically started, etc.  Alternatively, the three balloted moves may "
         "be played prior to starting white's clock for white's second move.")
BALLOT_5 = ("9-13", "22-18", "6-9")  # ACF deck no. 5, "Dreaded Edinburgh" (test_checkers_ballots.py)
WHITE_2ND = "25-22"  # White's second move after that ballot in ../shared/data/checkers/tinsley.pdn (line 204)
S = 1000


def ballot_enforcer(ballot_first: bool):
    """The preset's regulations (90 minutes each, X.A.a option 1) with the X.A.d setting, one game."""
    import dataclasses
    from pathlib import Path

    from referee_harness import Referee as Enforcer
    from services.regulations.tournament_file import load_tournament

    path = Path(__file__).resolve().parents[2] / "events" / "checkers-11-man-national-2017.toml"
    t = load_tournament(path.read_text(), str(path))
    t = dataclasses.replace(t, regulations=dataclasses.replace(t.regulations, ballot_moves_before_clock=ballot_first))
    e = Enforcer(t)
    e.observe("round_started", {"round": "1", "games": [{"id": "1-1", "board": "1", "round": "1", "white": "A",
                                                         "black": "B", "variant": "checkers", "fen": None}]}, 0)
    return e


def play(e, events):
    """Feed (at_ms, type, data) entries; returns every answer."""
    out = []
    for at, type_, data in events:
        out += e.observe(type_, {"game": "1-1", "board": "1", **data}, at)
    return out


def move(ply: int, text: str):
    data = played("1-1", ply, text, first="black")
    del data["game"], data["board"]  # play() adds them
    return "move_played", data


def clock(event: str, white_ms: int, black_ms: int, running):
    return f"clock_{event}", {"white_ms": white_ms, "black_ms": black_ms, "running": running}


FULL = 90 * MIN
# A device clock run the first way: started for Red at 0; Red's ballot move at 5 s, White's at 12 s,
# Red's at 20 s, each pressed; White's second move pressed at 60 s: White used 7 + 40 s.
FIRST_WAY = [(0, *clock("started", FULL, FULL, "black")),
             (5 * S, *move(1, BALLOT_5[0])), (5 * S, *clock("pressed", FULL, FULL - 5 * S, "white")),
             (12 * S, *move(2, BALLOT_5[1])), (12 * S, *clock("pressed", FULL - 7 * S, FULL - 5 * S, "black")),
             (20 * S, *move(3, BALLOT_5[2])), (20 * S, *clock("pressed", FULL - 7 * S, FULL - 13 * S, "white")),
             (60 * S, *move(4, WHITE_2ND)), (60 * S, *clock("pressed", FULL - 47 * S, FULL - 13 * S, "black"))]
# The alternative: the balloted moves at 5, 12 and 20 s with the clock off; the clock started for
# White at 25 s; White's second move pressed at 65 s: White used 40 s, Red nothing yet.
ALTERNATIVE = [(5 * S, *move(1, BALLOT_5[0])), (12 * S, *move(2, BALLOT_5[1])), (20 * S, *move(3, BALLOT_5[2])),
               (25 * S, *clock("started", FULL, FULL, "white")),
               (65 * S, *move(4, WHITE_2ND)), (65 * S, *clock("pressed", FULL - 40 * S, FULL, "black"))]


def test_ballot_moves_timed_by_default():
    # X.A.d, the first way (the default): every balloted move is timed from Red's first.
    assert "Red's clock is started, Red's first balloted move is made" in X_A_D
    e = ballot_enforcer(False)
    assert play(e, FIRST_WAY) == []
    model = e.watches.get("1-1").model
    assert (model.remaining("white", 60 * S), model.remaining("black", 60 * S)) == (FULL - 47 * S, FULL - 13 * S)


def test_ballot_moves_before_the_clock_charge_nothing():
    # X.A.d, the alternative: "the three balloted moves may be played prior to starting white's clock
    # for white's second move": the model starts with White's clock after them, nothing charged before.
    assert "prior to starting white's clock for white's second move" in X_A_D
    e = ballot_enforcer(True)
    assert play(e, ALTERNATIVE) == []
    model = e.watches.get("1-1").model
    assert (model.remaining("white", 65 * S), model.remaining("black", 65 * S)) == (FULL - 40 * S, FULL)


def test_a_clock_run_during_the_ballot_disagrees_with_the_alternative():
    # X.A.d alternative set for the event, but the device clock ran from Red's first balloted move:
    # the model charges nothing for the ballot and starts White's clock at the third balloted move
    # (20 s), so White's figure after its second move (7 s of ballot time more) is reported.
    e = ballot_enforcer(True)
    [(kind, found)] = play(e, FIRST_WAY)
    assert kind == "clock_disagreement"
    assert (found["kind"], found["side"], found["device_ms"], found["model_ms"]) == (
        "time", "white", FULL - 47 * S, FULL - 40 * S)


def test_ballot_setting_in_the_tournament_file():
    # X.A.d: either way, as the event decides; the first way unless the file says otherwise.
    from pathlib import Path

    from services.arbiter_office.tournament_log import tournament_from_data, tournament_registered_data
    from services.regulations.fields import TournamentFileError
    from services.regulations.tournament_file import load_tournament

    events = Path(__file__).resolve().parents[2] / "events"
    text = (events / "checkers-11-man-national-2017.toml").read_text()
    assert load_tournament(text).regulations.ballot_moves_before_clock is False
    on = text.replace("ballot_moves_before_clock = false", "ballot_moves_before_clock = true", 1)
    assert on != text
    t = load_tournament(on)
    assert t.regulations.ballot_moves_before_clock is True
    assert tournament_from_data(tournament_registered_data(t)).regulations.ballot_moves_before_clock is True
    assert "ballot_moves_before_clock" not in tournament_registered_data(load_tournament(text))["regulations"]
    bad = on.replace("ballot_moves_before_clock = true", 'ballot_moves_before_clock = "yes"')
    line = bad.splitlines().index('ballot_moves_before_clock = "yes"') + 1
    with pytest.raises(TournamentFileError) as err:
        load_tournament(bad, "checkers.toml")
    assert str(err.value).startswith(f"checkers.toml:{line}: regulations.ballot_moves_before_clock: ")
    chess = (events / "us-championship-2023.toml").read_text().replace(
        "[regulations]\n", "[regulations]\nballot_moves_before_clock = true\n", 1)
    with pytest.raises(TournamentFileError, match="checkers setting") as err:
        load_tournament(chess, "us.toml")
    assert err.value.line == chess.splitlines().index("ballot_moves_before_clock = true") + 1
