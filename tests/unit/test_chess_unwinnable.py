"""Can a side checkmate by any possible series of legal moves (FIDE Laws 6.9, 5.2.2)?
``services.rules.chess_unwinnable`` on the kinds of positions of Ambrona's Chess Unwinnability
Analyzer (CHA) test vectors, and on positions built from the Laws.

Sources of the expected values:
- CHA's test vectors, miguel-ambrona/D3-Chess ``tests/test-vector.txt`` (cited by line): "WB" both
  sides can helpmate, "W-" only White, "-B" only Black, "--" neither (a dead position). A "W" or
  "B" means that side can mate: our verdict for it must never be "unwinnable". A "-" means it
  cannot: where our test proves it (the verdicts asserted below), it must be "unwinnable".
- A helpmate line we return is checked by replaying it with python-chess: legal moves ending in a
  checkmate by that side (FIDE Laws 1.4.1, 5.1.1).
- Positions built here are explained in their test, with CHA 2.6.1 (built from D3-Chess and run as
  an oracle) agreeing on each.
"""

from __future__ import annotations

import chess
import pytest

from services.rules.chess_blockade import analyse
from services.rules.chess_unwinnable import (
    BLOCKED, HELPMATE, MATERIAL, SEARCH_EXHAUSTED, STALEMATE, UNDETERMINED, UNWINNABLE, WINNABLE,
    can_checkmate, dead_position, forced_dead,
)

NODES = 3000


def board_of(fen: str) -> chess.Board:
    """A board from a test-vector FEN (four fields: the move counters are added)."""
    fields = fen.split()
    return chess.Board(" ".join(fields + ["-", "-", "0", "1"][len(fields) - 2:]))


def assert_mates(fen: str, side: str, line: tuple[str, ...]) -> None:
    """``line`` replays legally from ``fen`` and ends with ``side`` checkmating (Laws 5.1.1)."""
    board = board_of(fen)
    for uci in line:
        move = chess.Move.from_uci(uci)
        assert move in board.legal_moves, (uci, board.fen())
        board.push(move)
    assert board.is_checkmate() and (board.turn == chess.BLACK) == (side == "white")


# (test-vector.txt line, label, FEN, White's reason, Black's reason): the "--" vectors we prove.
DEAD = [
    (1637, "--", "3k4/8/8/p1p2p1p/P1P2P1P/8/8/3K4 w - -", BLOCKED, BLOCKED),
    (86, "--", "1k6/8/8/p1p1p1p1/P1P1P1P1/8/8/1K6 b - -", BLOCKED, BLOCKED),
    (1061, "--", "4k3/8/8/8/1p1p1p2/1P1P1Pp1/B1B1B1P1/NB1B1BK1 w - -", BLOCKED, BLOCKED),
    (1116, "--", "3k4/2p1p3/1pP1Pp2/1P1n1P2/1p1N1p2/1Pp1pP2/2P1P3/3K4 w - -", BLOCKED, BLOCKED),
    (1273, "--", "8/p1k5/P1p5/2P1p3/4P1p1/6P1/8/3K4 w - -", BLOCKED, BLOCKED),
    (1289, "--", "4k3/5p2/4pP2/3pP3/2pP4/1pP5/pP6/K7 w - -", STALEMATE, STALEMATE),
    (1671, "--", "4k3/3b1b2/4b3/3b1b2/4b3/3B1B2/4B3/3BKB2 w - -", MATERIAL, MATERIAL),
    (1159, "--", "8/1p6/kPp5/2P5/1pP5/1P6/2K5/8 w - -", SEARCH_EXHAUSTED, SEARCH_EXHAUSTED),
    (915, "--", "8/8/6p1/6P1/6PK/6P1/6PP/6k1 w - -", SEARCH_EXHAUSTED, SEARCH_EXHAUSTED),
    (98, "--", "Bb1k1b2/bKp1p1p1/1pP1P1P1/1P4P1/p7/P7/8/8 b - -", SEARCH_EXHAUSTED, SEARCH_EXHAUSTED),
    (508, "--", "k7/6p1/6P1/6PK/6P1/1p2p1PR/1P2P2P/8 b - -", SEARCH_EXHAUSTED, SEARCH_EXHAUSTED),
]


@pytest.mark.parametrize("line, label, fen, white, black", DEAD)
def test_cha_dead_positions_are_proved_dead(line, label, fen, white, black):
    """CHA test-vector.txt lines as listed, "--": neither side can mate (5.2.2). Locked chains
    neither king can cross, pieces hemmed in by their own pawns, a stalemate, material, and
    positions only a walk of every reachable position settles (kings jammed behind their pawns)."""
    board = board_of(fen)
    found = dead_position(board, NODES)
    assert found.dead and found.reason == ("insufficient_material" if white == MATERIAL else "dead_position")
    assert (found.white.verdict, found.white.reason) == (UNWINNABLE, white)
    assert (found.black.verdict, found.black.reason) == (UNWINNABLE, black)


# One side only ("W-", "-B"): (line, label, FEN, White's verdict, Black's verdict).
ONE_SIDE = [
    (1232, "W-", "k7/1qQ5/K7/P7/8/8/8/8 w - -", WINNABLE, UNWINNABLE),
    (47, "W-", "6k1/6P1/6K1/8/8/8/8/8 w - -", WINNABLE, UNWINNABLE),
    (871, "W-", "1b2kb2/bKp1p1pB/1pP1P1P1/pP4P1/8/P7/8/8 b - -", WINNABLE, UNWINNABLE),
    (1612, "W-", "8/8/2kb4/2b5/1p1p1pBp/1P1P1P1P/8/3K4 w - -", UNDETERMINED, UNWINNABLE),
    (135, "-B", "8/8/8/3P2p1/PQ3p2/6kP/6P1/2q4K w - -", UNWINNABLE, WINNABLE),
    (1024, "-B", "8/8/8/7p/5K1k/7P/8/8 b - -", UNWINNABLE, WINNABLE),
    (376, "-B", "8/b1k3b1/5b2/p1p1p1p1/P1P1P1P1/2K2B2/5bB1/8 w - -", UNWINNABLE, UNDETERMINED),
]


@pytest.mark.parametrize("line, label, fen, white, black", ONE_SIDE)
def test_cha_one_sided_positions(line, label, fen, white, black):
    """CHA test-vector.txt lines as listed: the side marked "-" cannot mate and is proved so; the
    side that can is never called unwinnable, and a mating line found replays to its mate (6.9:
    the flag fall of the side that cannot mate is a loss, of the other a draw)."""
    board = board_of(fen)
    for side, letter, expected in (("white", label[0], white), ("black", label[1], black)):
        verdict = can_checkmate(board, side, NODES)
        assert verdict.verdict == expected, (side, verdict)
        assert (letter == "-") == (verdict.verdict == UNWINNABLE) or verdict.verdict == UNDETERMINED
        if verdict.reason == HELPMATE:
            assert_mates(fen, side, verdict.line)


WINNABLE_BOTH = [
    (401, "WB", "8/3kp3/8/8/8/4P3/3K4/8 w - -"),
    (1767, "WB", "8/8/6p1/5pPp/B1p1pPRP/PpPpP2p/1B1P4/5K1k b - -"),
    (1312, "WB", "Bk6/1P6/1P6/8/5p1p/P7/2PP1P1P/R3K3 w - -"),
    (1036, "WB", "4K3/8/3pBp2/3PbP2/3pBp2/3PbP2/8/4k3 b - -"),
    (17, "WB", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -"),
]


@pytest.mark.parametrize("line, label, fen", WINNABLE_BOTH)
def test_cha_winnable_positions_are_never_called_unwinnable(line, label, fen):
    """CHA test-vector.txt lines as listed, "WB": both sides can mate. The verdict is "winnable"
    with a line that replays to the mate, or "undetermined" (e.g. line 1036, bishops locked among
    pawns), never "unwinnable", and the position is never dead."""
    board = board_of(fen)
    assert not dead_position(board, NODES).dead
    for side in ("white", "black"):
        verdict = can_checkmate(board, side, NODES)
        assert verdict.verdict in (WINNABLE, UNDETERMINED)
        if verdict.verdict == WINNABLE and verdict.reason == HELPMATE:
            assert_mates(fen, side, verdict.line)


def test_a_locked_chain_no_king_can_cross_is_dead_at_once():
    """FIDE Laws 5.2.2, built: pawns rammed on b, d, f and h. Every empty square of the 4th rank
    is attacked by a black pawn and every empty square of the 5th by a white one, so neither king
    can cross, take a pawn or be reached: dead (CHA 2.6.1: unwinnable for both). With the h-pawn
    one step back the white king walks round by h4 and takes h5: not dead (CHA: a white mate)."""
    locked = board_of("4k3/8/8/1p1p1p1p/1P1P1P1P/8/8/4K3 w - -")
    blockade = analyse(locked)
    assert blockade is not None and not blockade.can_give_check(chess.WHITE) \
        and not blockade.can_give_check(chess.BLACK)
    assert chess.popcount(blockade.frozen) == 8  # every pawn frozen
    assert dead_position(locked, 0).dead  # no search needed
    open_h = board_of("4k3/8/8/1p1p1p1p/1P1P1P2/7P/8/4K3 w - -")
    assert not dead_position(open_h, NODES).dead


def test_a_flagged_side_whose_only_move_takes_the_last_piece():
    """FIDE Laws 6.9, built: Black (K+R) to move is in check from the unguarded Qg7, and Kxg7 is
    its only legal move, after which White has a bare king. White cannot mate by any series of
    legal moves; Black still can (CHA 2.6.1: white unwinnable, black winnable). python-chess's
    has_insufficient_material(WHITE) is False (a queen), the material test alone would say 1-0."""
    board = board_of("7k/6Q1/8/8/8/8/3r4/K7 b - -")
    assert not board.has_insufficient_material(chess.WHITE)
    white = can_checkmate(board, "white")
    assert (white.verdict, white.reason) == (UNWINNABLE, SEARCH_EXHAUSTED)
    assert can_checkmate(board, "black").verdict != UNWINNABLE
    assert not dead_position(board, NODES).dead
    # With a white pawn that can still queen, White can mate again (CHA: winnable).
    assert can_checkmate(board_of("7k/6Q1/8/8/8/P7/3r4/K7 b - -"), "white").verdict != UNWINNABLE


def test_forced_line_to_a_bare_king():
    """FIDE Laws 5.2.2 on a real game (FIDE World Cup 2025, White to move after 89...Kf3): Kxh2 is
    White's only legal move (g1 and g2 are attacked) and leaves K v K, so the position is dead
    before it is played (CHA 2.6.1: unwinnable for both)."""
    board = board_of("8/8/8/8/8/5k2/7p/7K w - -")
    assert forced_dead(board)
    assert dead_position(board, NODES).dead
    assert not forced_dead(board_of("8/8/8/8/8/5k2/7p/6K1 w - -"))  # Kxh2 not forced: Kf1


def test_budget_and_bad_input():
    """The budget bounds the work: with none, only static and blockade verdicts; bad sides and
    budgets are refused (ValueError)."""
    board = board_of("7k/6Q1/8/8/8/8/3r4/K7 b - -")
    assert can_checkmate(board, "white", 0).verdict == UNDETERMINED
    with pytest.raises(ValueError):
        can_checkmate(board, "red")
    with pytest.raises(ValueError):
        can_checkmate(board, "white", -1)
    assert can_checkmate(board, "white").to_json()["verdict"] == "unwinnable"


def test_blockade_is_not_applied_with_en_passant_or_without_rammed_pawns():
    """A legal en passant capture (3.7.3.1) would undo the frozen guess at once, and a position
    without a pawn rammed against an enemy pawn has nothing to freeze: no analysis (None)."""
    assert analyse(chess.Board()) is None
    ep = chess.Board("4k3/8/8/1pP5/1P6/8/8/4K3 w - b6 0 2")
    assert ep.has_legal_en_passant() and analyse(ep) is None
