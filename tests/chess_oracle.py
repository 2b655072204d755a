"""python-chess as the oracle of the chess rules' tests (test_chess_equivalence, test_chess_properties,
test_chess_ply_oracle): its terminations in the venue's words, the PGN result of its winner, the dead
positions (FIDE Laws 5.2.2) of real games it does not see, and its open bug #1188.

``tests/`` is on ``sys.path`` (see live_helpers.py): ``from chess_oracle import is_bug_1188``.
"""

from __future__ import annotations

import chess


# Termination words per python-chess termination.
_WORDS = {
    chess.Termination.CHECKMATE: "checkmate",
    chess.Termination.STALEMATE: "stalemate",
    chess.Termination.INSUFFICIENT_MATERIAL: "insufficient_material",
    chess.Termination.SEVENTYFIVE_MOVES: "seventyfive_moves",
    chess.Termination.FIVEFOLD_REPETITION: "fivefold_repetition",
}
_RESULT = {chess.WHITE: "1-0", chess.BLACK: "0-1", None: "1/2-1/2"}

# Dead positions (5.2.2) in real games that python-chess's outcome() does not report, with the
# game and CHA 2.6.1's verdict ("<fen> white" and "<fen> black": both "unwinnable").
ORACLE_DEAD = {
    # FIDE World Cup 2025, game 290 of the file, after ply 178: White's only legal move is Kxh2
    # (g1 and g2 are attacked), leaving K v K. The game records 90.Kxh2 and ends 1/2-1/2.
    "8/8/8/8/8/5k2/7p/7K w - - 0 90": "fide_world_cup_2025.pgn",
}


def is_bug_1188(board: chess.Board) -> bool:
    """python-chess #1188: at halfmove clock 99 every legal non-pawn non-capture move leaves the
    opponent without a legal move, so its can_claim_fifty_moves() wrongly says False."""
    if board.halfmove_clock != 99:
        return False
    quiet = [m for m in board.legal_moves if not board.is_zeroing(m)]
    ends = []
    for move in quiet:
        board.push(move)
        ends.append(not any(board.legal_moves))
        board.pop()
    return bool(quiet) and all(ends)
