"""The chess position as the repetition rules see it, and cheap facts about a python-chess board.

``position_key`` is FIDE Laws 9.2.2 "the same position": same player to move, same pieces on the
same squares, same possible moves, so the castling rights (3.8.2: lost only by moving the king or
that rook) and an en passant square only when an en passant capture is actually legal (9.2.2.1). It
equals python-chess's own ``Board._transposition_key()`` (proved on every ply of the real games by
tests/unit/test_chess_equivalence.py), built from public attributes only.
"""

from __future__ import annotations

import re

import chess

# Indices into a position key.
PAWNS, KNIGHTS, BISHOPS, ROOKS, QUEENS, KINGS = range(6)
OCC_WHITE, OCC_BLACK, TURN, CASTLING, EP = 6, 7, 8, 9, 10
OCC = {chess.WHITE: OCC_WHITE, chess.BLACK: OCC_BLACK}

PositionKey = tuple  # (11 ints / bools / None), see the indices above


def position_key(board: chess.Board) -> PositionKey:
    """The 9.2.2 identity of ``board``'s position: a hashable 11-tuple (bitboards of the six piece
    types, of each colour, side to move, clean castling rights as a bitboard of rook squares, the en
    passant square or None when no legal en passant capture exists)."""
    ep = board.ep_square
    if ep is not None and not board.has_legal_en_passant():
        ep = None
    return (
        board.pawns, board.knights, board.bishops, board.rooks, board.queens, board.kings,
        board.occupied_co[chess.WHITE], board.occupied_co[chess.BLACK], board.turn,
        # clean_castling_rights() costs ~2 us; most positions of a game have no rights left.
        board.clean_castling_rights() if board.castling_rights else 0,
        ep,
    )


_SYMBOLS = (
    ("P", "p", PAWNS), ("N", "n", KNIGHTS), ("B", "b", BISHOPS),
    ("R", "r", ROOKS), ("Q", "q", QUEENS), ("K", "k", KINGS),
)
_EMPTY_RUN = re.compile("1{2,8}")
_RUNS = {"1" * n: str(n) for n in range(2, 9)}
# A rank's FEN text by its eight squares ("1" empty): the few thousand rows real games show, made once
# each (the regex that writes runs of empty squares was a third of the FEN's cost).
_RANKS: dict[str, str] = {}
_RANKS_KEPT = 20_000  # then started afresh: a bound, never reached by real games


def _run_length(match: re.Match) -> str:
    return _RUNS[match.group()]


def _rank_text(row: str) -> str:
    text = _RANKS.get(row)
    if text is None:
        if len(_RANKS) >= _RANKS_KEPT:
            _RANKS.clear()
        text = _RANKS[row] = _EMPTY_RUN.sub(_run_length, row)
    return text


_CASTLING_LETTERS = ((chess.BB_H1, "K"), (chess.BB_A1, "Q"), (chess.BB_H8, "k"), (chess.BB_A8, "q"))
_RANK_STARTS = (56, 48, 40, 32, 24, 16, 8, 0)


def fen_of_key(key: PositionKey, halfmove_clock: int, fullmove_number: int) -> str:
    """The FEN of a standard-chess position given by its key and the two counters; the same text as
    python-chess's ``Board.fen()`` (en passant square shown only when legal, as there). Costs about a
    fifth of ``Board.fen()``, which is why a played move keeps its key and makes its FEN on demand."""
    squares = ["1"] * 64
    white, black = key[OCC_WHITE], key[OCC_BLACK]
    for upper, lower, index in _SYMBOLS:
        pieces = key[index]
        bb = pieces & white
        while bb:
            low = bb & -bb
            squares[low.bit_length() - 1] = upper
            bb ^= low
        bb = pieces & black
        while bb:
            low = bb & -bb
            squares[low.bit_length() - 1] = lower
            bb ^= low
    placement = "/".join([_rank_text("".join(squares[start:start + 8])) for start in _RANK_STARTS])
    rights = key[CASTLING]
    castling = ("".join(letter for bb, letter in _CASTLING_LETTERS if rights & bb) or "-") if rights else "-"
    ep = chess.SQUARE_NAMES[key[EP]] if key[EP] is not None else "-"
    turn = "w" if key[TURN] else "b"
    return f"{placement} {turn} {castling} {ep} {halfmove_clock} {fullmove_number}"


def has_legal_move(board: chess.Board, in_check: bool) -> bool:
    """Whether the side to move has any legal move (False = checkmate or stalemate, FIDE Laws 5.1.1,
    5.2.1). ``in_check``: whether that side is in check (the caller knows it from the SAN suffix).

    Cheap path first: out of check, an unpinned pawn with an empty square ahead always has a legal
    push, and a pawn on no line (rank, file, diagonal) through its own king cannot be pinned. Else
    python-chess's legal move generator decides."""
    if not in_check:
        us = board.turn
        own = board.occupied_co[us]
        pawns = board.pawns & own
        empty = ~board.occupied & chess.BB_ALL
        targets = ((pawns << 8) if us else (pawns >> 8)) & empty
        if targets:
            king_rays = chess.BB_RAYS[(board.kings & own).bit_length() - 1]
            step = -8 if us else 8
            tried = 0
            while targets and tried < 3:
                low = targets & -targets
                square = low.bit_length() - 1 + step
                if not king_rays[square] or not board.is_pinned(us, square):
                    return True
                targets ^= low
                tried += 1
    return any(board.generate_legal_moves())
