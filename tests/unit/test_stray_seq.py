"""Stray messages on a board's topic must not turn the board's own messages into duplicates.

docs/protocol.md ("What the gateway does with each message", 2): a duplicate is the same message
again (QoS 1 redelivery, a device retry); a refused move changes nothing in the game, so its seq
stays open for another move; "a stray message with a jumped seq cannot turn the device's real
messages into duplicates".

The case (a new user's run of the demo, 2026-12-02): on board 2 (Firouzja - Nakamura, Candidates
2024 round 5), after the board's seq 19, someone published an illegal move under seq 20 and then
``{"seq": 22, "move": "a1a8"}``. The hold for seq 21 ran out (``seq_gap``), 22 was applied (refused,
the board held), and the board's own seq 20 (``exd4``) was then answered "duplicate": the board's
later moves that happened to be legal in the wrong position were recorded (36 plies and 0-1 for the
real game's 126). The record must be the real game, whichever way the board's messages and the
stray ones interleave, and a gateway rebuilt from the log must hold the same state.
"""

from __future__ import annotations

import chess
import pytest
from candidates_r5 import firouzja_nakamura
from hall_driver import Driver

HOLD_MS = 5000  # the gateway's default hold for a missing seq (docs/protocol.md)
STRAY_AT = 20  # the board's seq the first stray took


def stray_illegal(moves: list[str]) -> str:
    """A move the side to move cannot make after ``moves`` (e2e5: never a legal chess move)."""
    board = chess.Board()
    for uci in moves:
        board.push_uci(uci)
    assert not board.is_legal(chess.Move.from_uci("e2e5"))
    return "e2e5"


def replay(when: str) -> tuple[Driver, list[str]]:
    """Board 2 replayed by its board with the two strays after seq 19; ``when`` the board's own
    messages from seq 20 on come: ``"after the hold"`` (as in the case), ``"during the hold"``, or
    ``"between the strays"`` (the board's seq 20 before the jump)."""
    moves = firouzja_nakamura()
    d = Driver("2", hold_ms=HOLD_MS)
    for seq, uci in enumerate(moves[:STRAY_AT - 1], start=1):
        d.move("2", uci, seq=seq)
    d.move("2", stray_illegal(moves[:STRAY_AT - 1]), seq=STRAY_AT)
    rest = list(enumerate(moves[STRAY_AT - 1:], start=STRAY_AT))
    if when == "between the strays":
        seq, uci = rest.pop(0)
        d.move("2", uci, seq=seq)
    d.move("2", "a1a8", seq=STRAY_AT + 2)
    if when == "after the hold":
        d.tick(HOLD_MS + 1000)
        assert d.of("seq_gap") == [{"board": "2", "device": "board", "expected": STRAY_AT + 1, "got": STRAY_AT + 2}]
    for seq, uci in rest:
        d.move("2", uci, seq=seq)
    d.tick(HOLD_MS + 1000)
    return d, moves


@pytest.mark.parametrize("when", ["after the hold", "during the hold", "between the strays"])
def test_a_stray_jump_after_a_stray_illegal_move_leaves_the_real_game_recorded(when):
    d, moves = replay(when)
    assert d.played("2") == moves
    assert d.of("message_duplicate") == []  # every one of the board's messages was news
    final = chess.Board()
    for uci in moves:
        final.push_uci(uci)
    assert d.hall.state.games["1-2"].fen == final.fen()  # the source's final position (0-1, Black resigned)
    assert (again := d.rebuilt()).state.snapshot() == d.hall.state.snapshot() and again.watches == d.hall.watches


def test_the_strays_own_messages_again_are_duplicates_and_play_nothing():
    """The strays' messages redelivered (QoS 1) change nothing: same seq, same move."""
    d, moves = replay("after the hold")
    before = len(d.entries)
    d.move("2", "e2e5", seq=STRAY_AT)
    d.move("2", "a1a8", seq=STRAY_AT + 2)
    assert [t for t, _ in d.entries[before:]] == ["message_duplicate", "message_duplicate"]
    assert d.played("2") == moves


def test_a_seq_the_move_meant_used_is_used_up():
    """Once the board's own move played under the refused seq, that seq is used like any played
    move's: another move under it is refused as a reused seq (docs/protocol.md "After a restart"),
    nothing played, also for a gateway rebuilt from the log."""
    d, moves = replay("after the hold")
    for hall in (d.hall, d.rebuilt()):
        dev = hall.state.boards["2"].devices["board"]
        assert dev.refused == []
    step = d.move("2", "d2d4", seq=STRAY_AT)
    assert [t for t, _ in step.entries] == ["message_rejected"]
    assert d.played("2") == moves


def test_seqs_refused_long_ago_stay_open_while_the_board_plays_on():
    """Two strays each took a seq with an illegal move and the board's own messages under them
    came after later ones (the order a jump's hold gives): each is the move meant, not a
    duplicate. A refusal followed by the board's own other messages is still no use of the seq."""
    moves = firouzja_nakamura()
    d = Driver("2", hold_ms=HOLD_MS)
    for seq, uci in enumerate(moves[:10], start=1):
        d.move("2", uci, seq=seq)
    d.move("2", stray_illegal(moves[:10]), seq=11)
    d.move("2", "a1a8", seq=14)  # a jump: 12 and 13 missing
    d.tick(HOLD_MS + 1000)
    d.move("2", "h8h1", seq=15)  # the stray again, next seq after its jump: refused (held)
    assert [t for t, _ in d.entries[-1:]] == ["move_rejected"]
    for seq, uci in enumerate(moves[10:], start=11):
        d.move("2", uci, seq=seq)
    assert d.played("2") == moves
    assert (again := d.rebuilt()).state.snapshot() == d.hall.state.snapshot() and again.watches == d.hall.watches
