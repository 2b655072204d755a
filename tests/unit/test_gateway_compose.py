"""Two reports by the same side before one press (``gateway.compose``, ``move_composed``).

FIDE Laws 6.2.1: "During the game each player, having made his/her move on the chessboard, shall
pause his/her own clock and start his/her opponent's clock (that is to say, he/she shall press
his/her clock). This 'completes' the move." So with a clock in use the move is what the board shows
at the press. Cases from issue 12: a rook slide read as two steps (a1-c1, then c1-d1), castling with
the rook moved first (h1-f1, then e1-g1), on move boards (two ``move`` messages) and sensor boards
(two placements); a pawn's double step read as two single steps (e2-e3, then e3-e4).
"""

from __future__ import annotations

import chess
from hall_driver import Driver

from gateway.compose import COMPOSED
from gateway.hall import HELD
from services.views.spectator import SpectatorView

ROOK = "4k3/4p3/8/8/8/8/4P3/R3K3 w - - 0 30"  # the a1 rook may slide to b1, c1 or d1
CASTLE = "r3k2r/pppq1ppp/2npbn2/2b1p3/2B1P3/2NPBN2/PPPQ1PPP/R3K2R w KQkq - 0 8"  # White may castle short
MIN = 60_000


def placement_after(fen: str, *ucis: str) -> str:
    board = chess.Board(fen)
    for uci in ucis:
        board.push_uci(uci)
    return board.board_fen()


def test_a_rook_slide_read_as_two_steps_is_one_move_at_the_press():
    """a1c1 then c1d1 by White before White's press: the board shows Rd1 at the press, so the move
    is a1d1 (one ply, its clock the press's); Black's reply follows from the right position."""
    d = Driver("1", fen=ROOK)
    d.clock("1", "start", 90 * MIN, 90 * MIN, "white")
    d.move("1", "a1c1")
    step = d.move("1", "c1d1")
    [(t, data)] = step.entries
    assert t == "move_composed"
    assert (data["ply"], data["move"], data["san"], data["replaces"], data["parts"]) == (
        1, "a1d1", "Rd1", "a1c1", ["a1c1", "c1d1"])
    assert step.feedback[0][1] == {"ref": 2, "device": "board", "accepted": True, "reason": COMPOSED, "fen": data["fen"]}
    d.clock("1", "press", 90 * MIN - 5000, 90 * MIN, "black")
    d.move("1", "e7e6")
    g = d.hall.state.games["1-1"]
    assert g.moves == ["a1d1", "e7e6"] and g.san == ["Rd1", "e6"]
    assert g.clocks[0] == 90 * MIN - 5000
    assert g.fen == placement_after(ROOK, "a1d1", "e7e6") + " w - - 0 31"
    assert not d.of("move_rejected")
    game = SpectatorView(d.hall.state).game("1-1")
    assert game["moves"] == ["a1d1", "e7e6"]
    assert (again := d.rebuilt()).state.snapshot() == d.hall.state.snapshot() and again.watches == d.hall.watches


def test_castling_with_the_rook_moved_first_on_a_move_board():
    """h1f1 (a legal rook move on its own) then e1g1 before the press: castling (FIDE Laws 3.8.2:
    the king moves two squares, the rook crosses it; 4.4.2 asks for the king first, boards see
    players who move the rook first all the same)."""
    d = Driver("1", fen=CASTLE)
    d.clock("1", "start", 90 * MIN, 90 * MIN, "white")
    d.move("1", "h1f1")
    d.move("1", "e1g1")
    [composed] = d.of("move_composed")
    assert (composed["move"], composed["san"]) == ("e1g1", "O-O")
    assert d.hall.state.games["1-1"].fen.startswith("r3k2r/pppq1ppp/2npbn2/2b1p3/2B1P3/2NPBN2/PPPQ1PPP/R4RK1 b kq")


def test_after_the_press_a_second_report_is_a_move_out_of_turn():
    """Once White has pressed, the move is complete (6.2.1): c1d1 by White is illegal with Black to
    move, refused, and the board held (F05) until its next legal message (Black's e7e6)."""
    d = Driver("1", fen=ROOK)
    d.clock("1", "start", 90 * MIN, 90 * MIN, "white")
    d.move("1", "a1c1")
    d.clock("1", "press", 90 * MIN - 5000, 90 * MIN, "black")
    d.move("1", "c1d1")
    [rejected] = d.of("move_rejected")
    assert rejected["held"] is True and rejected["side"] == "white"
    assert d.of("move_composed") == [] and d.hall.state.games["1-1"].moves == ["a1c1"]
    assert d.move("1", "d1d2").feedback[-1][1]["reason"] == HELD
    d.move("1", "e7e6")
    assert d.of("move_played")[-1]["resumed"] is True


def test_a_composition_that_is_no_legal_move_stays_an_illegal_move():
    """b1-c3 then c3-d5 by the knight: b1d5 is no knight move, so the second report is what it was,
    an illegal move with Black to move (F05: refused, held)."""
    d = Driver("1", fen="4k3/4p3/8/8/8/8/4P3/1N2K3 w - - 0 30")
    d.clock("1", "start", 90 * MIN, 90 * MIN, "white")
    d.move("1", "b1c3")
    d.move("1", "c3d5")
    assert d.of("move_composed") == [] and d.of("move_rejected")[0]["held"] is True


def test_without_a_clock_the_reports_are_composed_until_the_opponent_replies():
    """No clock reading in the game: nothing but the opponent's reply completes the move, and the
    board cannot tell a release on c1 (4.7) from a reading in passing: the product composes
    (docs/protocol.md); after Black's reply a further White report is a move out of turn."""
    d = Driver("1", fen=ROOK)
    d.move("1", "a1c1")
    d.move("1", "c1d1")
    assert [c["move"] for c in d.of("move_composed")] == ["a1d1"]
    d.move("1", "e7e6")
    d.move("1", "d1d3")  # White's next move: a normal ply
    d.move("1", "d3d8")  # ... then a second White report: composed again (d1d8 is a rook move)
    assert d.hall.state.games["1-1"].moves == ["a1d1", "e7e6", "d1d8"]


def test_two_placements_before_the_press_on_a_sensor_board():
    """A sensor board sees the rook on c1 (a legal move: recorded), then on d1: with Black to move
    no legal move gives that placement, and from the position before a1c1 one does (a1d1):
    composed. A pawn's double step read as two single steps likewise: e2e3 then e3e4 = e2e4."""
    d = Driver("1", fen=ROOK)
    d.clock("1", "start", 90 * MIN, 90 * MIN, "white")
    d.place("1", placement_after(ROOK, "a1c1"))
    assert d.played() == ["a1c1"]
    lifted = chess.Board(placement_after(ROOK, "a1c1") + " w - - 0 1")
    lifted.remove_piece_at(chess.C1)
    d.place("1", lifted.board_fen())  # the rook in the hand: passing
    d.place("1", placement_after(ROOK, "a1d1"))
    [composed] = d.of("move_composed")
    assert (composed["move"], composed["from"], composed["parts"]) == ("a1d1", "position", ["a1c1", None])
    d.clock("1", "press", 90 * MIN - 5000, 90 * MIN, "black")
    d.place("1", placement_after(ROOK, "a1d1", "e7e5"))
    assert d.hall.state.games["1-1"].moves == ["a1d1", "e7e5"]

    d = Driver("1", fen=ROOK)
    d.place("1", placement_after(ROOK, "e2e3"))
    d.place("1", placement_after(ROOK, "e2e4"))
    assert d.hall.state.games["1-1"].moves == ["e2e4"]
    assert d.hall.state.games["1-1"].san == ["e4"]


def test_a_composed_move_that_mates_ends_the_game():
    """The composed move is judged like any move: a1a7 then a7a8 is a1a8, mate on the back rank
    (FIDE Laws 5.1.1), which ends the game."""
    fen = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 30"
    d = Driver("1", fen=fen)
    d.clock("1", "start", 90 * MIN, 90 * MIN, "white")
    d.move("1", "a1a7")
    d.move("1", "a7a8")
    [end] = d.of("game_ended")
    assert (end["result"], end["termination"], end["ply"]) == ("1-0", "checkmate", 1)
    assert d.hall.state.games["1-1"].san == ["Ra8#"]
