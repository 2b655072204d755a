"""A match's board message of game 1 that reaches the gateway after game 1 ended, before game 2's
first move (gateway.hall.Hall, time passed in).

Game 1 can end without its last move on the board having reached the gateway: by the clock's result
(docs/protocol.md: "result" with "device": "clock") or an arbiter's decision, the board's message
held up on its way. The board's next ``move`` could begin game 2 (``device_game_began``), so that
late move of game 1 could be taken as game 2's first, and the board's own ``result`` for game 1
after game 2's clock start could end game 2. Before game 2's first move, what game 2 cannot read as
its first move (a move the rules refuse in its start) and the board's result are game 1's, answered
as after its end; a move both games can take (the move game 1's clock shows made, legal in game 2's
start too) waits until the board's next message tells which game it was (docs/protocol.md "Two
games on one board").

Sources: ../shared/regulations/checkers-11-man-national-2017.txt X.A.b ("The clocks shall be paused
between games, but the clock times shall not be reset prior to the second game") and X.A.d ("As the
game starts, Red's clock is started, Red's first balloted move is made"); two real matches of
London 1992, each ballot played twice with the colours reversed:

- games 7 and 8 (venue/data/tinsley_chinook_1992_matches.pdn, records 1 and 2; ACF ballot 123,
  11-15 23-18 10-14): game 7 drawn (PDN "1/2-1/2"), its last move White's 10-14 (ply 80, a king):
  also a move of Black's men in game 8's start, off its ballot;
- games 25 and 26 (records 9 and 10; ballot 15, 9-13 23-18 11-15): game 25 won by Tinsley (White,
  PDN "0-1", venue "1-0"), its last move Black's 14-18 (ply 53, Chinook's): no move in game 26's
  start.

The clock figures are the simulated station's (``devices.checkers_script.match_scripts``).
"""

from __future__ import annotations

import pytest
from london_matches import GAME_25, GAME_26, GAME_7, GAME_8, MATCH_PAIRS, ONE, TWO, Match, ballot

from devices.checkers_script import match_scripts
from gateway.hall import GAME_OVER
from gateway.which_game import EITHER, HELD
from services.rules.base import MoveRefused
from services.rules.checkers_game import CheckersGame
from services.rules.checkers_pdn import replay


def test_the_matches_are_the_records():
    # the facts the module docstring gives, from the PDN
    one, two = match_scripts(GAME_7, GAME_8, "1")
    assert [p.uci for p in one.plies[:3]] == [p.uci for p in two.plies[:3]] == list(ballot(123)["moves"])
    assert (len(one.plies), one.plies[-1].uci, one.plies[-1].side, one.result) == (80, "10-14", "white", "1/2-1/2")
    one, two = match_scripts(GAME_25, GAME_26, "1")
    assert [p.uci for p in one.plies[:3]] == [p.uci for p in two.plies[:3]] == list(ballot(15)["moves"])
    assert (len(one.plies), one.plies[-1].uci, one.plies[-1].side, one.result) == (53, "14-18", "black", "1-0")
    # the rules core on the standard start (Black to move): 10-14 a move of Black's men, 14-18 none
    CheckersGame().play("10-14")
    with pytest.raises(MoveRefused):
        CheckersGame().play("14-18")


def late_move_then_game_two(gw: Match, clocks: dict, *, started: bool = False) -> None:
    """The board's late last move of game 1, answered as game 1's after its end ("game over",
    nothing played, no board held, game 2 not begun by it); then game 2 begun by the clock's start
    (unless ``started``) and played: its record the PDN's, game 1's without its last move.

    A move game 2's start refuses (game 25's 14-18) is game 1's at once. One game 2's start takes
    too (game 7's 10-14, a move of Black's men in game 8's start, the move game 7's clock shows
    made) fits both games: it waits in the log (``message_awaiting_game``, docs/protocol.md "Two
    games on one board") until the board's next move tells: game 2's first (the ballot's 11-15)
    cannot follow 10-14 as game 2's (Black would move twice), so 10-14 was game 1's."""
    late = gw.one.plies[-1].uci
    step = gw.late_last_move()
    ref = step.feedback[-1][1]["ref"]
    takes = _takes_in_start(late)
    if takes:
        (waiting,) = gw.entries("message_awaiting_game")
        assert (waiting["game"], waiting["body"]["move"], waiting["reason"]) == (ONE, late, "either")
        assert step.feedback[-1][1]["reason"] == HELD[EITHER] and not gw.entries("move_rejected")
    else:
        assert step.feedback[-1][1]["reason"] == GAME_OVER
    assert not gw.hall.state.boards["1"].held and gw.hall.state.games[TWO].ply == 0
    if not started:
        assert [b["device"] for b in gw.entries("device_game_began")] == [] and gw.hall.state.boards["1"].game == ONE
        gw.pause_and_start(clocks)
    (begun,) = gw.entries("device_game_began")
    assert (begun["game"], begun["device"]) == (TWO, "clock")
    gw.game_two()
    (rejected,) = [d for d in gw.entries("move_rejected") if d["move"] == late]
    assert (rejected["game"], rejected.get("held", False), rejected["seq"]) == (ONE, False, ref)
    assert [f["reason"] for f in gw.feedback if f["ref"] == ref and f.get("device") == "board"][-1] == GAME_OVER
    assert gw.moves(TWO) == replay(gw.records[1]).moves
    assert gw.moves(ONE) == replay(gw.records[0]).moves[:-1]
    assert not [d for d in gw.entries("move_rejected") if d["game"] == TWO]
    gw.rebuilt_same()


def _takes_in_start(move: str) -> bool:
    """Whether the rules core takes ``move`` in checkers' standard start (game 2's)."""
    try:
        CheckersGame().play(move)
    except MoveRefused:
        return False
    return True


@pytest.mark.parametrize("first,second,number", MATCH_PAIRS)
def test_game_ones_last_move_late_after_the_clocks_result_does_not_begin_game_two(first, second, number):
    # game 1's last move pressed, the clock's result, then the board's message of that move:
    # game 1's, as on a board with no game after it; game 2 begins by the clock's start and is played
    gw = Match(first, second, number)
    clocks = gw.game_one()
    gw.clock_result()
    (ended,) = gw.entries("game_ended")
    assert (ended["game"], ended["result"], ended["ply"]) == (ONE, gw.one.result, len(gw.one.plies) - 1)
    late_move_then_game_two(gw, clocks)


@pytest.mark.parametrize("first,second,number", MATCH_PAIRS)
def test_game_ones_last_move_after_game_twos_clock_start_is_game_ones(first, second, number):
    # the board's message later still: after the clock's pause of game 1 and its start of game 2
    # (which begins game 2 for the clock, ``device_game_began``), before game 2's first move
    gw = Match(first, second, number)
    clocks = gw.game_one()
    gw.clock_result()
    gw.pause_and_start(clocks)
    late_move_then_game_two(gw, clocks, started=True)


def test_a_gateway_rebuilt_before_the_late_move_answers_the_same():
    # a restart between game 7's end and the board's 10-14: what the rule reads (game 7's presses,
    # its final position) is in the log, so the rebuilt gateway answers "game over" for game 7 too
    gw = Match(GAME_7, GAME_8, 123)
    clocks = gw.game_one()
    gw.clock_result()
    gw.hall = gw.rebuilt()
    late_move_then_game_two(gw, clocks)


def test_game_ones_last_move_late_after_the_arbiters_result_is_game_ones():
    # the arbiter records game 7's draw (docs/arbiter.md: set_result) before the board's 10-14
    # arrives: the same as after the clock's result
    from dashboard.arbiter.actions import build

    gw = Match(GAME_7, GAME_8, 123)
    clocks = gw.game_one()
    games = {ONE: {"id": ONE, "board": "1", "status": "playing", "result": "*"}}
    for type_, data in build("set_result", {"game": ONE, "result": gw.one.result}, "chief", games):
        gw.now += 1_000
        gw.take([(type_, data)])
        gw.take(gw.hall.external(type_, data, gw.now, None, gw.now).entries)
    assert [(d["game"], d["result"]) for d in gw.entries("game_ended")] == [(ONE, "1/2-1/2")]
    late_move_then_game_two(gw, clocks)


def test_the_boards_result_of_game_one_after_game_twos_clock_start_is_game_ones():
    # game 25 ended by the clock's result after its last move; the board's own result for it comes
    # after the clock's pause and start for game 26: game 25's (the same result: accepted), not
    # game 26 ended at ply 0
    gw = Match(GAME_25, GAME_26, 15)
    clocks = gw.game_one(last_move=True)
    gw.clock_result()
    gw.pause_and_start(clocks)
    step = gw.send("result", {"result": gw.one.result, "reason": gw.one.reason})
    (late,) = [d for d in gw.entries("result_reported") if d["device"] == "board"]
    assert late["game"] == ONE and step.feedback[-1][1]["accepted"] is True
    assert [d["game"] for d in gw.entries("game_ended")] == [ONE]
    gw.game_two()
    assert gw.moves(TWO) == replay(GAME_26).moves
    assert gw.hall.state.games[TWO].status == "playing"
    gw.rebuilt_same()


def test_game_twos_own_first_move_off_the_ballot_is_still_refused_as_game_twos():
    # game 7 ended with its every move on the board (nothing owed): a first move of game 8 that is
    # legal in its start but not the ballot's (10-14, ballot 123 opens 11-15) is game 8's, refused
    # as off the ballot and the board held (X.A.d, docs/checkers.md "The balloted opening is checked")
    gw = Match(GAME_7, GAME_8, 123)
    clocks = gw.game_one(last_move=True)
    gw.send("result", {"result": gw.one.result, "reason": gw.one.reason})
    gw.clock("pause", clocks["white"], clocks["black"], None)
    step = gw.send("move", {"move": "10-14"})
    (off,) = gw.entries("move_rejected")
    assert (off["game"], off["held"], off["expected"], off["ballot_ply"]) == (TWO, True, "11-15", 1)
    assert step.feedback[-1][1]["reason"].startswith("not the balloted move")
    gw.clock("start", gw.two.white_ms, gw.two.black_ms, gw.two.first_side)
    gw.game_two()
    assert gw.moves(TWO) == replay(GAME_8).moves
    gw.rebuilt_same()

