"""Reading a chess move as it arrives (UCI from e-boards, SAN from people) into a legal python-chess
move, or refusing it with a reason an arbiter can read.

Never trust input: python-chess's ``Board.push`` applies any move without checking it (field case
F05: ``push(Move.from_uci('e1e3'))`` silently "succeeds"), so everything here goes through
``Board.parse_uci`` / ``Board.parse_san``, which only return legal moves.
"""

from __future__ import annotations

from typing import NamedTuple

import chess

from services.rules.base import MoveRefused

# PlayedMove.note when an e-board reported castling as the king taking its own rook (e1h1 for O-O):
# python-chess reads it as castling (field case F02 note); the gateway logs that it was given so.
KING_TAKES_ROOK = "king_takes_rook"

_FILES = frozenset("abcdefgh")
_RANKS = frozenset("12345678")


class ParsedMove(NamedTuple):
    """A legal move in the board's position. ``move``: the python-chess move (castling as e1g1);
    ``note``: None, or ``KING_TAKES_ROOK`` when castling was given as king-takes-rook."""

    move: chess.Move
    note: str | None


def looks_like_uci(text: str) -> bool:
    """True for text shaped like UCI (``e2e4``, ``e7e8q``, ``0000``); anything else is read as SAN."""
    if text == "0000":
        return True
    return (len(text) in (4, 5) and text[0] in _FILES and text[1] in _RANKS
            and text[2] in _FILES and text[3] in _RANKS)


def parse_move(board: chess.Board, text: object) -> ParsedMove:
    """The legal move ``text`` (UCI or SAN) names in ``board``'s position; the board is unchanged.

    Raises MoveRefused (``reason`` names the move and the position's FEN) when the text is not a
    string, is unparsable, is a null move, is ambiguous SAN, or is illegal. A pawn reaching the last
    rank without naming its new piece (``e7e8`` when ``e7e8q`` is legal) is refused with its own
    reason: FIDE Laws 3.7.5.1 / 7.5.2, field case F05(b)."""
    if not isinstance(text, str):
        raise _refused(board, repr(text), "not a move text")
    given = text.strip()
    if not given:
        raise _refused(board, given, "empty move")
    if looks_like_uci(given):
        return _parse_uci(board, given)
    return _parse_san(board, given)


def _parse_uci(board: chess.Board, given: str) -> ParsedMove:
    try:
        move = board.parse_uci(given)
    except chess.IllegalMoveError:
        raise _illegal_uci(board, given) from None
    except ValueError:
        raise _refused(board, given, "unparsable move") from None
    if not move:
        raise _refused(board, given, "null move")
    # parse_uci turns king-takes-rook (e1h1) into castling (e1g1): the only case where the target
    # square read differs from the one given.
    if given[2:4] != chess.SQUARE_NAMES[move.to_square]:
        return ParsedMove(move, KING_TAKES_ROOK)
    return ParsedMove(move, None)


def _parse_san(board: chess.Board, given: str) -> ParsedMove:
    try:
        move = board.parse_san(given)
    except chess.AmbiguousMoveError:
        raise _refused(board, given, "ambiguous move") from None
    except chess.IllegalMoveError:
        raise _refused(board, given, "illegal move") from None
    except ValueError:
        raise _refused(board, given, "unparsable move") from None
    if not move:
        raise _refused(board, given, "null move")
    return ParsedMove(move, None)


def _illegal_uci(board: chess.Board, given: str) -> MoveRefused:
    move = chess.Move.from_uci(given)
    if move.promotion is None and _reaches_last_rank_as_pawn(board, move):
        with_queen = chess.Move(move.from_square, move.to_square, chess.QUEEN)
        if board.is_legal(with_queen):
            return _refused(board, given, f"promotion without the new piece (e.g. {with_queen.uci()})")
    return _refused(board, given, "illegal move")


def _reaches_last_rank_as_pawn(board: chess.Board, move: chess.Move) -> bool:
    piece = board.piece_at(move.from_square)
    last_rank = 7 if board.turn == chess.WHITE else 0
    return (piece is not None and piece.piece_type == chess.PAWN and piece.color == board.turn
            and chess.square_rank(move.to_square) == last_rank)


def _refused(board: chess.Board, given: str, why: str) -> MoveRefused:
    fen = board.fen()
    return MoveRefused(given, f"{why}: {given} in {fen}", fen)
