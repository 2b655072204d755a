"""services.protocol.placement: the move a placement board shows, orientation (F06), the result signal (F07).

Expected moves are the Laws of Chess (3.8.2 castling, 3.7.3.1 en passant, 3.7.3.3 promotion) as
python-chess 1.11.2 plays them; F06 and F07 are ../shared/cases/field-cases.md.
"""

from __future__ import annotations

import chess
import pytest

from services.protocol.placement import (
    MOVE,
    ROTATED_START,
    SAME,
    START_PLACEMENT,
    TRANSIENT,
    castling_prefix,
    infer_move,
    is_rotated_start,
    move_piece,
    normalize,
    result_signal,
    rotate_placement,
    rotate_uci,
)


def after(fen: str, *ucis: str) -> str:
    board = chess.Board(fen)
    for uci in ucis:
        board.push_uci(uci)
    return board.board_fen()


START = chess.STARTING_FEN


def test_plain_move():
    assert infer_move(START, after(START, "e2e4")).move == "e2e4"


def test_lift_and_put_back_is_nothing():
    assert infer_move(START, START_PLACEMENT).kind == SAME


def test_piece_in_the_hand_is_a_passing_state():
    in_hand = START_PLACEMENT.replace("PPPPPPPP", "PPPP1PPP")
    assert infer_move(START, in_hand).kind == TRANSIENT


def test_capture():
    fen = chess.Board()
    for uci in ("e2e4", "d7d5"):
        fen.push_uci(uci)
    assert infer_move(fen.fen(), after(fen.fen(), "e4d5")).move == "e4d5"


def test_castling_with_the_rook_moved_first():
    """Laws 3.8.2: the rook-first intermediate state is itself the legal rook move h1f1, named as a
    possible first half of castling (the gateway waits); the final placement is O-O (e1g1)."""
    fen = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1"
    rook_first = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3KR2"
    assert infer_move(fen, rook_first).move == "h1f1"
    assert castling_prefix(fen, "h1f1") == "e1g1"
    assert castling_prefix(fen, "a1d1") == "e1c1"
    assert castling_prefix(fen, "h1g1") is None
    # with the king's path blocked (a bishop on f1), the rook alone cannot reach f1: no prefix
    blocked = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3KB1R w KQkq - 0 1"
    assert castling_prefix(blocked, "h1g1") is None
    # rook-first castling as a passing state: king still on e1 and rook on f1 with the bishop gone
    black = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R b KQkq - 0 1"
    assert castling_prefix(black, "h8f8") == "e8g8"
    assert infer_move(fen, after(fen, "e1g1")) == infer_move(fen, "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R4RK1")
    assert infer_move(fen, after(fen, "e1g1")).move == "e1g1"
    assert infer_move(fen, after(fen, "e1c1")).move == "e1c1"


def test_en_passant():
    """Laws 3.7.3.1: the captured pawn disappears from the square it passed."""
    board = chess.Board()
    for uci in ("e2e4", "a7a6", "e4e5", "d7d5"):
        board.push_uci(uci)
    result = infer_move(board.fen(), after(board.fen(), "e5d6"))
    assert result.kind == MOVE and result.move == "e5d6"
    # with the pawn moved but the captured one still standing: a passing state
    partial = "rnbqkbnr/1pp1pppp/p2P4/3p4/8/8/PPPP1PPP/RNBQKBNR"
    assert infer_move(board.fen(), partial).kind == TRANSIENT


def test_promotion_shows_the_new_piece():
    """F05 (b) position: Laws 3.7.3.3; the pawn still standing on e8 is no move at all."""
    fen = "8/4P1k1/8/8/8/8/6K1/8 w - - 0 60"
    assert infer_move(fen, "4Q3/6k1/8/8/8/8/6K1/8").move == "e7e8q"
    assert infer_move(fen, "4N3/6k1/8/8/8/8/6K1/8").move == "e7e8n"
    assert infer_move(fen, "4P3/6k1/8/8/8/8/6K1/8").kind == TRANSIENT


def test_bad_placement_raises():
    with pytest.raises(ValueError):
        infer_move(START, "not/a/placement")
    with pytest.raises(ValueError):
        normalize("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")


def test_f06_rotated_start_detected():
    """F06: the first snapshot RNBKQBNR/PPPPPPPP/8/8/8/8/pppppppp/rnbkqbnr is the start turned 180°."""
    assert is_rotated_start("RNBKQBNR/PPPPPPPP/8/8/8/8/pppppppp/rnbkqbnr")
    assert not is_rotated_start(START_PLACEMENT)
    assert rotate_placement(ROTATED_START) == START_PLACEMENT


def test_f06_moves_mapped_s_to_63_minus_s():
    """F06: physical d7d5 -> e2e4, b8c6 -> g1f3."""
    assert rotate_uci("d7d5") == "e2e4"
    assert rotate_uci("b8c6") == "g1f3"
    assert rotate_uci("d2d1q") == "e7e8q"


def test_f06_rotated_placements_infer_the_official_moves():
    physical = rotate_placement(after(START, "e2e4"))
    assert infer_move(START, rotate_placement(physical)).move == "e2e4"


@pytest.mark.parametrize(
    "placement, result",
    [
        ("8/1R6/8/P2k4/4K3/8/r7/8", "1-0"),      # F07: kings on e4 + d5, light squares
        ("8/1R6/8/P3k3/3K4/8/r7/8", "0-1"),      # d4 + e5, dark squares
        ("8/1R6/8/P2K4/3k4/8/r7/8", "1/2-1/2"),  # d5 light + d4 dark: mixed
        ("8/1R6/4k3/P7/4K3/8/r7/8", None),       # only one king on a centre square
    ],
)
def test_f07_result_signal(placement, result):
    """F07 / DGT "indicate result": d5+e4 = 1-0, d4+e5 = 0-1, mixed = 1/2-1/2."""
    assert result_signal(placement) == result


def test_f07_physical_following():
    """F07: f3e4 then e6d5 on the final position 8/1R6/4k3/P7/8/5K2/r7/8 gives the 1-0 signal."""
    final = "8/1R6/4k3/P7/8/5K2/r7/8"
    first = move_piece(final, "f3e4")
    assert result_signal(first) is None
    assert result_signal(move_piece(first, "e6d5")) == "1-0"
