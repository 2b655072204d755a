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


def _run_length(match: re.Match) -> str:
    return _RUNS[match.group()]


_CASTLING_LETTERS = ((chess.BB_H1, "K"), (chess.BB_A1, "Q"), (chess.BB_H8, "k"), (chess.BB_A8, "q"))
_RANK_STARTS = (56, 48, 40, 32, 24, 16, 8, 0)  # the FEN's ranks, 8 down to 1: their a-file square
# A rank's squares as one number: its byte of each of the key's first eight bitboards (the six piece
# types, then each colour's men), byte ``i`` at bit ``64 * i``. ``_stacked`` puts the whole board's
# bitboards side by side the same way, so each rank's number is one shift and one mask of it, and its
# FEN text one dict look-up (building the text square by square was most of the FEN's cost).
_PLACED = 8
_RANK_MASK = sum(255 << 64 * i for i in range(_PLACED))
_ROWS: dict[int, str] = {}  # a rank's number -> its FEN text: the few thousand rows real games show
_ROWS_KEPT = 20_000  # then started afresh: a bound, never reached by real games


def _stacked(key: PositionKey) -> int:
    return (key[0] | key[1] << 64 | key[2] << 128 | key[3] << 192 | key[4] << 256 | key[5] << 320
            | key[6] << 384 | key[7] << 448)


def _row_text(row: int) -> str:
    """The FEN text of a rank given by its number (see ``_RANK_MASK``), made once per distinct row."""
    text = _ROWS.get(row)
    if text is None:
        squares = ["1"] * 8
        white, black = (row >> 64 * OCC_WHITE) & 255, (row >> 64 * OCC_BLACK) & 255
        for upper, lower, index in _SYMBOLS:
            pieces = (row >> 64 * index) & 255
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
        if len(_ROWS) >= _ROWS_KEPT:
            _ROWS.clear()
        text = _ROWS[row] = _EMPTY_RUN.sub(_run_length, "".join(squares))
    return text


def fen_of_key(key: PositionKey, halfmove_clock: int, fullmove_number: int) -> str:
    """The FEN of a standard-chess position given by its key and the two counters; the same text as
    python-chess's ``Board.fen()`` (en passant square shown only when legal, as there). Costs about a
    tenth of ``Board.fen()``, which is why a played move keeps its key and makes its FEN on demand:
    each rank's text is looked up by the rank's squares (``_row_text``)."""
    board = _stacked(key)
    rows = _ROWS
    placement = "/".join([rows.get(row) or _row_text(row)
                          for row in [(board >> start) & _RANK_MASK for start in _RANK_STARTS]])
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
