"""The drawn game's board messages resent from a hole the gateway skipped (``seq_gap``) after the
Armageddon game's first move on the same board (gateway.hall.Hall through ``hall_driver.Driver``,
time passed in).

The board's last messages of the drawn game (its last move, its result) are lost on the way; the
clock's result ends the game (docs/protocol.md: "result" with "device": "clock") and sets up the
Armageddon on the board (``armageddon_scheduled``); the board's first Armageddon move waits for the
missing seqs until the hold runs out (``seq_gap``), and a message from inside the skipped hole is
applied when it comes (docs/protocol.md "What the gateway does with each message", step 2). Taken as
the Armageddon's, the drawn game's last move, 34.Re4 (``e2e4``), would be played as the Armageddon's
4.e4, and the drawn game's result would end the Armageddon drawn: Black's ("If the Armageddon game
is drawn, black will win"). The board sent them before the Armageddon's first board message (a lower
``seq``): they are the drawn game's, answered as after its end (docs/protocol.md "An Armageddon game
after a drawn game"). A message the board sent for the Armageddon and resent from a hole stays the
Armageddon's.

The drawn game and its figures: FIDE Candidates 2024, round 1, Abasov - Nepomniachtchi under
events/norway-chess-2023.toml (tests/unit/test_gateway_armageddon_clock.py has the sources); the
Armageddon's plies are the same game's, with its think times.
"""

from __future__ import annotations

import chess
from armageddon_board import (DRAWN, HOLD_MS, MOVE_BEFORE_PRESS_MS, PAUSE_AFTER_MS, RESULT_AFTER_MS, Board,
                              classical, clock_result)
from hall_driver import first_seq


BEFORE_RESEND = 6  # the Armageddon's plies played before the board resends what it lost


def lose(b: Board, count: int) -> int:
    """The board's next ``count`` messages lost on the way; returns the first one's seq."""
    first = b.d.seqs.get(("1", "board"), 0) + 1
    b.d.seqs[("1", "board")] = first + count - 1
    return first


def armageddon_after_the_hole(b: Board) -> list[dict]:
    """The drawn game played with its last move's board message and the board's result lost, ended
    by the clock's result; the clock paused, set and started for the Armageddon; its first move
    held for the lost seqs and applied when the hold runs out (its press made meanwhile), then its
    plies up to ``BEFORE_RESEND``. Returns the Armageddon's first eight plies."""
    moves = classical(b, last_move=False)
    b.lost = lose(b, 2)
    clock_result(b)
    b.clock("pause", {"white": moves[-1]["white_ms"], "black": moves[-1]["black_ms"] - RESULT_AFTER_MS - PAUSE_AFTER_MS},
            None, after_ms=PAUSE_AFTER_MS)
    b.set_and_start()
    arm = b.armageddon(8)
    b.play(arm[:1])  # 1.d4 held, its press applied (the clock numbers its messages apart)
    assert b.state(b.arm).ply == 0
    waited = HOLD_MS - MOVE_BEFORE_PRESS_MS
    b.d.tick(waited)  # the hold runs out before the press's grace (7.5.3)
    assert b.d.of("seq_gap") and b.state(b.arm).moves == [arm[0]["uci"]]
    b.d.move("1", arm[1]["uci"], after_ms=arm[1]["think"] - MOVE_BEFORE_PRESS_MS - waited)  # Black thinks on
    b.press(arm[1])
    b.play(arm[2:BEFORE_RESEND])
    return arm


def test_the_drawn_games_last_move_and_result_resent_after_the_armageddon_began_are_the_drawn_games(drawn_game):
    b = Board(drawn_game)
    arm = armageddon_after_the_hole(b)
    assert first_seq(b.d.entries, b.arm) == b.lost + 2  # the Armageddon's first move: after the hole
    position = chess.Board()
    for p in arm[:BEFORE_RESEND]:
        position.push_uci(p["uci"])
    assert chess.Move.from_uci("e2e4") in position.legal_moves  # 4.e4 in the Armageddon: legal

    b.d.move("1", "e2e4", seq=b.lost)  # 34.Re4 again
    (late,) = b.d.of("move_rejected")
    assert (late["game"], late["move"], late.get("held", False)) == (DRAWN, "e2e4", False)
    assert b.d.feedback[-1][1]["reason"] == "game over" and b.state(b.arm).ply == BEFORE_RESEND
    b.d.send("1", "result", {"result": "1/2-1/2", "reason": "agreement"}, seq=b.lost + 1)
    (report,) = [e for e in b.d.of("result_reported") if e["device"] == "board"]
    assert report["game"] == DRAWN and b.d.feedback[-1][1]["accepted"] is True
    b.play(arm[BEFORE_RESEND:])

    assert [e["game"] for e in b.d.of("game_ended")] == [DRAWN] and not b.d.of("armageddon_decided")
    assert b.state(b.arm).moves == [p["uci"] for p in arm]
    assert b.state(DRAWN).result == "1/2-1/2"
    b.no_false_alarm()


def test_a_gateway_rebuilt_before_the_resend_answers_the_same(drawn_game):
    b = Board(drawn_game)
    armageddon_after_the_hole(b)
    b.d.hall = b.d.rebuilt()
    b.d.move("1", "e2e4", seq=b.lost)
    b.d.send("1", "result", {"result": "1/2-1/2", "reason": "agreement"}, seq=b.lost + 1)
    assert [(e["game"], e.get("move")) for e in b.d.of("move_rejected")] == [(DRAWN, "e2e4")]
    assert [e["game"] for e in b.d.of("game_ended")] == [DRAWN] and b.state(b.arm).ply == BEFORE_RESEND
    b.no_false_alarm()


def test_the_armageddons_own_move_resent_from_a_hole_is_the_armageddons(drawn_game):
    # the board's message of the Armageddon's 4.Bg5 is lost; its next, 4...Be7, waits for it and is
    # refused when the hold runs out (not Black's turn: the board held, F05); 4.Bg5 sent again is the
    # Armageddon's (sent after its first board message) and resumes play, then 4...Be7 is made again
    b = Board(drawn_game)
    b.drawn()
    b.clock("pause", {"white": b.last["white_ms"], "black": b.last["black_ms"] - RESULT_AFTER_MS - PAUSE_AFTER_MS},
            None, after_ms=PAUSE_AFTER_MS)
    b.set_and_start()
    arm = b.armageddon(8)
    b.play(arm[:BEFORE_RESEND])
    lost = lose(b, 1)
    b.d.move("1", arm[BEFORE_RESEND + 1]["uci"], after_ms=1_000)  # held
    b.d.tick(HOLD_MS)
    (refused,) = b.d.of("move_rejected")
    assert (refused["game"], refused["held"]) == (b.arm, True)
    assert lost > first_seq(b.d.entries, b.arm)
    b.d.move("1", arm[BEFORE_RESEND]["uci"], seq=lost)
    resumed = b.d.of("move_played")[-1]
    assert (resumed["game"], resumed["move"], resumed["resumed"]) == (b.arm, arm[BEFORE_RESEND]["uci"], True)
    b.d.move("1", arm[BEFORE_RESEND + 1]["uci"])
    assert b.state(b.arm).moves == [p["uci"] for p in arm]
    assert [e["game"] for e in b.d.of("move_rejected")] == [b.arm]
    b.rebuilt_same()
