"""A device that counts its ``seq`` from 1 again mid-game (a reboot that lost its counter).

Source: a new user's run (fresh-user 2, finding 2, US Championship 2023 file, board 2): 1.e4 e5
2.Nf3 under seqs 1-3, then a reboot and ``b8c6``, ``f1b5``, ``a7a6`` under seqs 1-3 again: each was
answered ``accepted: true, reason: "duplicate"`` and Black's real move 2...Nc6 was dropped with no
alert. docs/protocol.md ("What the gateway does with each message", "After a restart"): a message
under a seq already applied that says something else is refused with the seq it should have used,
recorded as ``message_rejected`` (one grouped alert, ``services.views.alerts.GROUPED``), and changes
nothing in the game; the same message again stays a duplicate (QoS 1 redelivery, a retry).
"""

from __future__ import annotations

import json

import chess
from alert_feed import FoldedAlerts
from hall_driver import Driver
from match_gateway import BALLOT, LateClock

from gateway.hall import DUPLICATE_REASON

OPENING = ["e2e4", "e7e5", "g1f3"]  # the user's seqs 1-3
AFTER_REBOOT = ["b8c6", "f1b5", "a7a6"]  # the same seqs 1-3 again after the reboot


def _fen_after(moves: list[str]) -> str:
    board = chess.Board()
    for uci in moves:
        board.push_uci(uci)
    return board.fen()


def test_a_rebooted_boards_moves_under_used_seqs_are_refused_with_the_next_seq():
    d = Driver("2")
    for seq, uci in enumerate(OPENING, start=1):
        d.move("2", uci, seq=seq)
    official = _fen_after(OPENING)
    # the user's log: the position the later b5a4 was judged in
    assert official == "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2"
    for seq, uci in enumerate(AFTER_REBOOT, start=1):
        step = d.move("2", uci, seq=seq)
        assert [t for t, _ in step.entries] == ["message_rejected"]
        (board, answer), = step.feedback
        assert answer["accepted"] is False and answer["ref"] == seq and answer["device"] == "board"
        assert answer["reason"] == (f"seq {seq} was already used by the move {OPENING[seq - 1]}: a device that "
                                    f"restarted its count mid-game must go on from its last seq (the next is 4)")
        assert answer["fen"] == official and answer["next_seq"] == 4
        (_, data), = step.entries
        assert data["seq"] == seq and data["device"] == "board" and data["board"] == "2"
        assert json.loads(data["raw"]) == {"seq": seq, "move": uci}
    assert d.played("2") == OPENING and d.hall.state.games["1-2"].fen == official
    # the arbiters are told once for the board: the rejections group in one alert (count 3)
    queue = FoldedAlerts()
    for seq, ((t, data), at) in enumerate(zip(d.entries, d.stamps), start=1):
        queue.apply(seq, at, t, json.loads(json.dumps(data)))
    told = [a for a in queue.alerts.values() if a.kind == "message_rejected"]
    assert len(told) == 1 and told[0].count == 3 and told[0].board == "2"
    # the grouped alert words its latest entry (seq 3)
    assert told[0].text == ("Board 2: the board sent seq 3 again with another message (restarted its count "
                            "mid-game?): its messages under used seqs are refused, and moves made meanwhile are "
                            "not in the record; the board must go on from its last seq "
                            "(docs/protocol.md \"After a restart\")")
    # going on from the next seq, as the answer says, plays Black's move
    d.move("2", "b8c6", seq=4)
    assert d.played("2") == OPENING + ["b8c6"]


def test_the_same_move_again_under_its_seq_stays_a_duplicate():
    d = Driver("1")
    for seq, uci in enumerate(OPENING, start=1):
        d.move("1", uci, seq=seq)
    step = d.move("1", "e2e4", seq=1)
    assert [t for t, _ in step.entries] == ["message_duplicate"]
    assert step.feedback[-1][1]["accepted"] is True and step.feedback[-1][1]["reason"] == DUPLICATE_REASON


def test_a_rebuilt_gateway_refuses_a_reused_seq_as_the_live_one_did():
    """The applied messages' contents are folded from the log (``DeviceSeq.contents``): a gateway
    restarted on it decides the same (tests/unit/test_fold_property.py's rule)."""
    d = Driver("1")
    for seq, uci in enumerate(OPENING, start=1):
        d.move("1", uci, seq=seq)
    d.move("1", "b8c6", seq=1)
    again = d.rebuilt()
    assert again.state.snapshot() == d.hall.state.snapshot()
    step = again.handle("venue/hall-test/boards/1/move", b'{"seq": 2, "move": "f1b5"}', d.now + 10)
    assert [t for t, _ in step.entries] == ["message_rejected"] and step.feedback[-1][1]["accepted"] is False
    step = again.handle("venue/hall-test/boards/1/move", b'{"seq": 2, "move": "e7e5"}', d.now + 20)
    assert [t for t, _ in step.entries] == ["message_duplicate"]


def test_a_castling_resent_as_king_takes_rook_stays_a_duplicate():
    """docs/protocol.md "Fields": king-takes-rook ``e1h1`` is read as castling (recorded ``e1g1``);
    its redelivery is the same message, not a reused seq."""
    d = Driver("1", fen="r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1")
    d.move("1", "e1h1", seq=1)
    assert d.played() == ["e1g1"]
    step = d.move("1", "e1h1", seq=1)
    assert [t for t, _ in step.entries] == ["message_duplicate"]


def test_a_clock_press_under_a_used_seq_with_other_figures_is_refused():
    """A clock counting from 1 again after a reboot: its press under a used seq shows other
    figures (docs/protocol.md "Topics": the press of the example, then another)."""
    d = Driver("1")
    d.move("1", "e2e4", seq=1)
    d.clock("1", "press", 5391000, 5400000, "black")  # the clock's seq 1
    d.move("1", "e7e5", seq=2)
    before = d.hall.state.games["1-1"].clock
    step = d.send("1", "clock", {"event": "press", "white_ms": 5391000, "black_ms": 5385000,
                                 "running": "white"}, seq=1)
    assert [t for t, _ in step.entries] == ["message_rejected"]
    (_, answer), = step.feedback
    assert answer["accepted"] is False and answer["device"] == "clock"
    assert answer["reason"].startswith("seq 1 was already used by the clock's press (white_ms 5391000, "
                                       "black_ms 5400000, running black)")
    assert d.hall.state.games["1-1"].clock == before
    step = d.send("1", "clock", {"event": "press", "white_ms": 5391000, "black_ms": 5400000,
                                 "running": "black"}, seq=1)
    assert [t for t, _ in step.entries] == ["message_duplicate"]


def test_a_checkers_board_counting_again_is_refused_and_its_resend_is_a_duplicate():
    """Checkers: a move is told apart by its first square (numeric notation, docs/protocol.md
    "Fields"). London 1992 game 25's ballot 9-13 23-18 11-15 (tests/match_gateway.py) under seqs
    1-3, then under seq 1 again 9-13 (a redelivery) and 18-14 (a move from square 18, not 9: a
    rebooted board's next move, whatever it is)."""
    gw = LateClock()
    for move in BALLOT["moves"]:
        gw.send("move", {"move": move})
    played = [d["move"] for d in gw.entries("move_played")]
    assert played == list(BALLOT["moves"])
    step = gw.send_seq("move", 1, {"move": "9-13"})
    assert [t for t, _ in step.entries] == ["message_duplicate"]
    step = gw.send_seq("move", 1, {"move": "18-14"})
    assert [t for t, _ in step.entries] == ["message_rejected"]
    (_, answer), = step.feedback
    assert answer["accepted"] is False and answer["next_seq"] == 4
    assert answer["reason"].startswith("seq 1 was already used by the move 9-13: ")
    assert [d["move"] for d in gw.entries("move_played")] == played
