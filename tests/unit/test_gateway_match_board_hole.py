"""A match's board message of game 1 resent from a hole the gateway skipped (``seq_gap``) after game
2's first move (gateway.hall.Hall, time passed in).

The board's last messages of game 1 (its last move, its result) are lost on the way; game 1 ends by
the clock's result (docs/protocol.md: "result" with "device": "clock"), the clock's start begins
game 2, and the board's first move of game 2 waits for the missing seqs until the hold runs out
(``seq_gap``: docs/protocol.md "What the gateway does with each message", step 2). A message from
inside a skipped hole is applied when it comes, so the board's game-1 messages resent then reach a
board playing game 2: taken as game 2's, game 1's last move would be played in (or hold) game 2, and
game 1's result would end game 2 (scoring its other player: the colours are reversed, X.A.b). The
board sent them before game 2's first board message (a lower ``seq``): they are game 1's, answered as
after its end (docs/protocol.md "Two games on one board"). A message the board sent for game 2 and
resent from a hole stays game 2's; a result behind a hole waits for it (``result_held``, issue 28).

Sources: ../shared/regulations/checkers-11-man-national-2017.txt X.A.b ("The clocks shall be paused
between games, but the clock times shall not be reset prior to the second game"); the two London
1992 matches of tests/unit/test_gateway_match_board_late.py (venue/data/tinsley_chinook_1992_matches.pdn:
games 7 and 8 on ACF ballot 123, games 25 and 26 on ballot 15), played with the simulated station's
clock figures (``devices.checkers_script.match_scripts``).
"""

from __future__ import annotations

import pytest
from hall_driver import first_seq
from london_matches import GAME_25, GAME_26, MATCH_PAIRS, ONE, TWO, Match

from gateway.hall import GAME_OVER
from services.rules.checkers_pdn import replay

BEFORE_RESEND = 10  # game 2's plies played before the board resends what it lost: past the ballot's three


def lose(gw: Match, count: int) -> int:
    """The board's next ``count`` messages lost on the way (their seqs never reach the gateway);
    returns the first one's seq."""
    first = gw.seq["board"] + 1
    gw.seq["board"] += count
    return first


def expire_hold(gw: Match) -> None:
    """The hold for the missing seqs runs out: ``seq_gap``, then the waiting messages applied."""
    gw.now += gw.hall.hold_ms
    gw.take(gw.hall.tick(gw.now).entries)
    assert gw.entries("seq_gap")


def game_two_after_the_hole(gw: Match, clocks: dict) -> None:
    """Game 1 ended by the clock's result with the board's last move and result lost: the clock
    paused and started for game 2 (which begins it), game 2's first move held for the lost seqs and
    applied when the hold runs out, then game 2 played up to ``BEFORE_RESEND`` plies."""
    gw.clock_result()
    gw.pause_and_start(clocks)
    gw.send("move", {"move": gw.two.plies[0].uci})  # held: the lost seqs come before it
    assert gw.moves(TWO) == []
    expire_hold(gw)
    assert gw.moves(TWO) == [gw.two.plies[0].uci]
    gw.press_two(0)
    gw.game_two(1, BEFORE_RESEND)


def resend_game_one(gw: Match, lost: int) -> None:
    """The board sends again what it lost: game 1's last move, then its result: game 1's, answered
    as after its end; game 2 goes on to its end as the PDN has it."""
    step = gw.send_seq("move", lost, {"move": gw.one.plies[-1].uci})
    (late,) = [d for d in gw.entries("move_rejected") if d["seq"] == lost]
    assert (late["game"], late["move"], late.get("held", False)) == (ONE, gw.one.plies[-1].uci, False)
    assert step.feedback[-1][1]["reason"] == GAME_OVER
    assert not gw.hall.state.boards["1"].held and gw.hall.state.games[TWO].ply == BEFORE_RESEND
    step = gw.send_seq("result", lost + 1, {"result": gw.one.result, "reason": gw.one.reason})
    (late,) = [d for d in gw.entries("result_reported") if d["device"] == "board"]
    assert (late["game"], late["seq"]) == (ONE, lost + 1) and step.feedback[-1][1]["accepted"] is True
    assert [d["game"] for d in gw.entries("game_ended")] == [ONE]
    gw.game_two(BEFORE_RESEND)
    assert gw.moves(TWO) == replay(gw.records[1]).moves
    assert gw.moves(ONE) == replay(gw.records[0]).moves[:-1]
    assert not [d for d in gw.entries("move_rejected") if d["game"] == TWO]
    assert gw.hall.state.games[TWO].status == "playing"
    gw.rebuilt_same()


@pytest.mark.parametrize("first,second,number", MATCH_PAIRS)
def test_game_ones_last_move_and_result_resent_after_game_two_began_are_game_ones(first, second, number):
    # game 7's 10-14 is refused in game 8 after 10 plies (the board would be held, F05), as game 25's
    # 14-18 in game 26; game 1's result would end game 2
    gw = Match(first, second, number)
    clocks = gw.game_one()
    lost = lose(gw, 2)  # the board's message of game 1's last move, then its result
    game_two_after_the_hole(gw, clocks)
    assert first_seq(gw.log, TWO) == lost + 2  # game 2's first move: after the hole
    resend_game_one(gw, lost)


def test_a_gateway_rebuilt_before_the_resend_answers_the_same():
    # a restart between game 2's moves and the board's resend: what the rule reads is in the log
    gw = Match(GAME_25, GAME_26, 15)
    clocks = gw.game_one()
    lost = lose(gw, 2)
    game_two_after_the_hole(gw, clocks)
    gw.hall = gw.rebuilt()
    resend_game_one(gw, lost)


def test_game_twos_last_move_resent_from_a_hole_is_game_twos():
    # the board's message of game 26's last move is lost; its result after it waits for it (issue 28:
    # a result is never applied past a hole, ``result_held``, where it used to end game 26 one ply
    # short once the hold ran out); the last move sent again is game 2's (sent after game 2's first
    # board message): played in game 2, not answered for game 1, and the result then ends game 2 complete
    gw = Match(GAME_25, GAME_26, 15)
    clocks = gw.game_one(last_move=True)
    gw.send("result", {"result": gw.one.result, "reason": gw.one.reason})
    gw.pause_and_start(clocks)
    last = len(gw.two.plies) - 1
    gw.game_two(0, last)
    lost = lose(gw, 1)
    gw.press_two(last)
    gw.send("result", {"result": gw.two.result, "reason": gw.two.reason})  # held for the lost move
    gw.now += gw.hall.hold_ms
    gw.take(gw.hall.tick(gw.now).entries)
    assert gw.entries("seq_gap") == [] and [d["game"] for d in gw.entries("result_held")] == [TWO]
    assert [(d["game"], d["result"]) for d in gw.entries("game_ended")] == [(ONE, gw.one.result)]
    assert lost > first_seq(gw.log, TWO)
    gw.send_seq("move", lost, {"move": gw.two.plies[last].uci})
    assert [(d["game"], d["result"]) for d in gw.entries("game_ended")] == [(ONE, gw.one.result), (TWO, gw.two.result)]
    assert gw.moves(TWO) == replay(GAME_26).moves
    assert not [d for d in gw.entries("move_rejected") if d["game"] == TWO]
    gw.rebuilt_same()
