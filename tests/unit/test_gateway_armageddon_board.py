"""The drawn game's board messages after its end, before the Armageddon game's first move on the same
board (gateway.hall.Hall through ``hall_driver.Driver``, time passed in).

Under Norway Chess 2023 the drawn game's end sets up the Armageddon game on the board at once
(``armageddon_scheduled``: the board's game is the Armageddon from then on). The board still has
messages of the drawn game to send: the arbiter's result signal (F07, ../shared/cases/field-cases.md:
"After the game has ended, the arbiter places the kings on the centre squares to report the result"
... "d5+e4 (light squares) = 1-0, d4+e5 (dark squares) = 0-1, mixed = ½-½"), its own result
message after the clock's, its last move late after the clock's result; and while the pieces are
set up again it sends placements of neither game. Before the Armageddon's first move these are the
drawn game's (docs/protocol.md "An Armageddon game after a drawn game"): a drawn Armageddon is
Black's ("If the Armageddon game is drawn, black will win"), so one ended by the drawn game's
signal would score a game never played.

The drawn game: FIDE Candidates 2024, round 1, Abasov - Nepomniachtchi (drawn, 1/2-1/2, final
position 5k2/5pp1/p6p/1p6/3rR3/1P3P2/1P3KPP/8 b after 34.Re4; White's king on f2, Black's on f8),
played under events/norway-chess-2023.toml with its ``[%clk]`` figures
(tests/unit/test_gateway_armageddon_clock.py, which has the sources).
"""

from __future__ import annotations

import chess
import pytest
from armageddon_board import (DRAWN, MOVE_BEFORE_PRESS_MS, PAUSE_AFTER_MS, RESULT_AFTER_MS, START_MS, Board,
                              classical, clock_result, plies, scheduled)

from gateway.which_game import EITHER, HELD
from services.regulations.clock_watch import GRACE_MS


SIGNAL_AFTER_MS = 30_000  # the arbiter comes to the board half a minute after the draw
# F07: "mixed = ½-½": White's king on the light d5, Black's on the dark e5 (both empty at the end)
DRAW_SIGNAL = ("f2d5", "f8e5")


class SensorBoard(Board):
    """The same board as a sensor board (``--boards-kind position``): each move is the placement
    after it (docs/protocol.md "Placement boards")."""

    def __init__(self, game):
        super().__init__(game)
        self.position = chess.Board()
        self.d.place("1", self.position.board_fen(), after_ms=0)  # the first snapshot: the start

    def play(self, moves: list[dict], *, press: bool = True) -> None:
        for p in moves:
            self.position.push_uci(p["uci"])
            self.d.place("1", self.position.board_fen(), after_ms=p["think"] - MOVE_BEFORE_PRESS_MS)
            if press:
                self.press(p)

    def placement(self, *moved: str) -> str:
        """The pieces of the position now with ``moved`` (UCI) lifted and put down, no rules."""
        pieces = chess.BaseBoard(self.position.board_fen())
        for uci in moved:
            m = chess.Move.from_uci(uci)
            piece = pieces.remove_piece_at(m.from_square)
            assert piece is not None
            pieces.set_piece_at(m.to_square, piece)
        return pieces.board_fen()

    def signal(self, *, after_ms: int = SIGNAL_AFTER_MS) -> None:
        """F07: the arbiter puts White's king on d5, then Black's on e5 (1/2-1/2)."""
        self.d.place("1", self.placement(DRAW_SIGNAL[0]), after_ms=after_ms)
        self.d.place("1", self.placement(*DRAW_SIGNAL), after_ms=2_000)

    def set_up_again(self) -> None:
        """The pieces back on their squares for the Armageddon: a rook lifted with the kings still
        on the centre squares (a placement of neither game), then the start."""
        lifted = chess.BaseBoard(self.placement(*DRAW_SIGNAL))
        lifted.remove_piece_at(chess.D4)
        self.d.place("1", lifted.board_fen(), after_ms=5_000)
        self.position = chess.Board()
        self.d.place("1", self.position.board_fen(), after_ms=60_000)


def armageddon_ended(b: Board) -> list[dict]:
    return [e for e in b.d.of("game_ended") if e["game"] == b.arm]


def signal_reports(b: Board) -> list[dict]:
    return [e for e in b.d.of("result_reported") if e["reason"] == "result signal"]


def test_the_result_signal_after_the_boards_result_is_the_drawn_games(drawn_game):
    # the board's result first (the players' draw by agreement), then the arbiter's F07 signal, the
    # pieces set up again and the Armageddon played: the signal confirms the drawn game's result
    b = SensorBoard(drawn_game)
    paused = b.drawn()
    b.clock("pause", paused, None, after_ms=PAUSE_AFTER_MS)
    b.signal()
    (report,) = signal_reports(b)
    assert (report["game"], report["result"]) == (DRAWN, "1/2-1/2")
    assert b.d.feedback[-1][1]["accepted"] is True
    b.set_up_again()
    b.set_and_start()
    moves = b.armageddon()
    b.play(moves)

    assert not armageddon_ended(b) and not b.d.of("armageddon_decided")
    assert b.d.played() == [p["uci"] for p in plies(b.game, {"white": START_MS, "black": START_MS})] + [
        p["uci"] for p in moves]
    assert b.state(b.arm).ply == len(moves) and b.state(DRAWN).result == "1/2-1/2"
    assert not b.d.of("move_rejected")
    b.no_false_alarm()


def test_the_snapshot_after_the_signal_that_ended_the_game_is_the_drawn_games(drawn_game):
    # no result message: the F07 signal ends the drawn game (and sets up the Armageddon), and the
    # board's next snapshot, a piece lifted with the kings still on the centre squares, shows the
    # same signal again: the drawn game's, not a drawn Armageddon
    b = SensorBoard(drawn_game)
    moves = classical(b)
    b.clock("pause", {"white": moves[-1]["white_ms"], "black": moves[-1]["black_ms"] - RESULT_AFTER_MS},
            None, after_ms=RESULT_AFTER_MS)
    b.signal()
    (ended,) = b.d.of("game_ended")
    assert (ended["game"], ended["result"], ended["by"]) == (DRAWN, "1/2-1/2", "device")
    scheduled(b)
    b.set_up_again()
    b.set_and_start()
    b.play(b.armageddon())

    assert not armageddon_ended(b) and not b.d.of("armageddon_decided")
    assert [e["game"] for e in signal_reports(b)] == [DRAWN, DRAWN]
    assert b.state(b.arm).ply == 6
    b.no_false_alarm()


def test_the_boards_result_after_the_clocks_is_the_drawn_games(drawn_game):
    # the clock reports the draw first (docs/protocol.md: "result" with "device": "clock"), then the
    # board: the same result, the drawn game's, not a drawn Armageddon won by Black
    b = Board(drawn_game)
    classical(b)
    clock_result(b)
    b.d.send("1", "result", {"result": "1/2-1/2", "reason": "agreement"}, after_ms=1_000)
    (late,) = [e for e in b.d.of("result_reported") if e["device"] == "board"]
    assert late["game"] == DRAWN and b.d.feedback[-1][1]["accepted"] is True
    b.set_and_start()
    b.play(b.armageddon())

    assert [e["game"] for e in b.d.of("game_ended")] == [DRAWN] and not b.d.of("armageddon_decided")
    b.no_false_alarm()


def test_the_signal_by_king_moves_after_the_boards_result_is_the_drawn_games(drawn_game):
    # a board that reports moves (F07: "The e-board publishes f3e4 (legal!), then e6d5"): the kings'
    # moves onto the centre squares after the draw are the drawn game's signal, neither the
    # Armageddon's illegal moves (F05: its board held) nor its end
    b = Board(drawn_game)
    paused = b.drawn()
    b.clock("pause", paused, None, after_ms=PAUSE_AFTER_MS)
    b.d.move("1", DRAW_SIGNAL[0], after_ms=SIGNAL_AFTER_MS)
    b.d.move("1", DRAW_SIGNAL[1], after_ms=2_000)
    (report,) = signal_reports(b)
    assert (report["game"], report["result"]) == (DRAWN, "1/2-1/2")
    assert not b.d.of("move_rejected") and not b.d.hall.state.boards["1"].held
    b.set_and_start()
    moves = b.armageddon()
    b.play(moves)

    assert b.state(b.arm).ply == len(moves) and not b.d.of("armageddon_decided")
    assert not [e for e in b.d.of("move_played") if e.get("resumed")]
    b.no_false_alarm()


@pytest.mark.parametrize("proposed", [False, True], ids=["in_grace", "press_without_move_proposed"])
def test_the_drawn_games_last_move_late_after_the_clocks_result_is_not_the_armageddons_first(drawn_game, proposed):
    # the board's last move, 34.Re4 (e2e4, White's press for it recorded), reaches the gateway after
    # the clock's result ended the game: "game over" for the drawn game, as on a board with no game
    # after it, not 1.e4 in the Armageddon (the same squares) nor an illegal move holding its board;
    # also when the move was so late that the press was taken as made without a move first
    # (FIDE Laws 7.5.3, proposed after the clock model's grace period: ClockWatch.GRACE_MS). Both
    # games can take e2e4 (the drawn game owes it, the Armageddon's start takes it), so it waits in
    # the log (message_awaiting_game, docs/protocol.md "Two games on one board") until the board's
    # next move tells: the Armageddon's 1.d4 cannot follow 1.e4 (White twice), so e2e4 was 34.Re4
    b = Board(drawn_game)
    moves = classical(b, last_move=False)
    assert moves[-1]["uci"] == "e2e4" and moves[-1]["side"] == "white"
    if proposed:
        b.d.tick(GRACE_MS + 1)
        (penalty,) = b.d.of("penalty_proposed")
        assert (penalty["game"], penalty["side"]) == (DRAWN, "white")
    clock_result(b)
    b.d.move("1", moves[-1]["uci"], after_ms=1_000)
    ref = b.d.feedback[-1][1]["ref"]
    (waiting,) = b.d.of("message_awaiting_game")
    assert (waiting["game"], waiting["body"]["move"], waiting["reason"]) == (DRAWN, "e2e4", "either")
    assert b.d.feedback[-1][1]["reason"] == HELD[EITHER] and not b.d.of("move_rejected")
    assert b.state(b.arm).ply == 0 and not b.d.hall.state.boards["1"].held
    b.set_and_start()
    arm_moves = b.armageddon()
    b.play(arm_moves)
    (late,) = b.d.of("move_rejected")
    assert (late["game"], late["move"], late.get("held", False), late["seq"]) == (DRAWN, "e2e4", False, ref)
    assert [f["reason"] for _, f in b.d.feedback if f["ref"] == ref and f["device"] == "board"][-1] == "game over"

    assert b.state(b.arm).moves == [p["uci"] for p in arm_moves]
    assert not [e for e in b.d.of("move_played") if e.get("resumed")]
    assert [e["game"] for e in b.d.of("penalty_proposed")] == ([DRAWN] if proposed else [])
    assert not b.d.of("clock_disagreement") and not armageddon_ended(b)
    b.rebuilt_same()


def test_the_armageddons_own_first_move_and_start_are_its_own(drawn_game):
    # what the Armageddon reads before its first move stays its own: the start placement (same) and
    # its first move as a placement
    b = SensorBoard(drawn_game)
    paused = b.drawn()
    b.clock("pause", paused, None, after_ms=PAUSE_AFTER_MS)
    b.position = chess.Board()
    b.d.place("1", b.position.board_fen(), after_ms=60_000)
    (seen,) = [e for e in b.d.of("placement_seen") if e["game"] == b.arm]
    assert seen["reading"] == "same"
    b.set_and_start()
    (first,) = b.armageddon(1)
    b.play([first])
    assert b.state(b.arm).moves == [first["uci"]]
    b.no_false_alarm()


def test_another_result_signalled_before_the_armageddons_first_move_conflicts_with_the_drawn_games(drawn_game):
    # the arbiter's signal shows another result (both kings on the dark d4 and e5: "0-1", F07) after
    # the draw was recorded: a conflict with the drawn game's result, answered "game over: result
    # already 1/2-1/2" (docs/protocol.md "Feedback"), not an Armageddon won by Black at ply 0
    b = SensorBoard(drawn_game)
    paused = b.drawn()
    b.clock("pause", paused, None, after_ms=PAUSE_AFTER_MS)
    wrong = chess.BaseBoard(b.placement("f2e5"))
    wrong.remove_piece_at(chess.D4)  # the black rook off d4 for Black's king
    wrong.set_piece_at(chess.D4, wrong.remove_piece_at(chess.F8))
    b.d.place("1", wrong.board_fen(), after_ms=SIGNAL_AFTER_MS)
    (report,) = signal_reports(b)
    assert (report["game"], report["result"]) == (DRAWN, "0-1")
    assert b.d.feedback[-1][1]["accepted"] is False
    assert b.d.feedback[-1][1]["reason"] == "game over: result already 1/2-1/2"
    assert b.state(DRAWN).result == "1/2-1/2" and b.state(b.arm).status == "waiting"
    b.no_false_alarm()
