"""Whether a game's start position can be played at all: checked when a round is set up, so a round
file with an impossible start is refused there, naming the file and the board, instead of every move
on that board being refused all game.

FIDE Laws 3.10.3: "A position is illegal when it cannot have been reached by any series of legal
moves"; 7.2.1: "If during a game it is found that the initial position of the pieces was incorrect,
the game shall be cancelled and a new game shall be played." Chess: python-chess's
``Board.status()`` (each flag it sets named in words: no king, pawns on the first or last rank, the
side not to move in check, castling rights whose king or rook is not on its square (3.8.2.1), an en
passant square no double step can have made (3.7.3.1), ...). Checkers (ACF/WCDF rules): the PDN FEN
read by ``checkers_notation.parse_fen`` (a square named twice or for both colours, a man on its
crowning row, more than 12 pieces a side) and the position handed to pydraughts; beside that, the
side that has just moved must have a piece on the board (a side cannot move itself off the board).
Pure: no I/O.
"""

from __future__ import annotations

import chess

STATUS_WORDS: dict[int, str] = {
    chess.STATUS_NO_WHITE_KING: "White has no king",
    chess.STATUS_NO_BLACK_KING: "Black has no king",
    chess.STATUS_TOO_MANY_KINGS: "a side has more than one king",
    chess.STATUS_TOO_MANY_WHITE_PAWNS: "White has more than 8 pawns",
    chess.STATUS_TOO_MANY_BLACK_PAWNS: "Black has more than 8 pawns",
    chess.STATUS_PAWNS_ON_BACKRANK: "a pawn stands on the first or the last rank",
    chess.STATUS_TOO_MANY_WHITE_PIECES: "White has more than 16 pieces",
    chess.STATUS_TOO_MANY_BLACK_PIECES: "Black has more than 16 pieces",
    chess.STATUS_BAD_CASTLING_RIGHTS: "castling rights it cannot have",
    chess.STATUS_INVALID_EP_SQUARE: "an en passant square no pawn's double step can have made",
    chess.STATUS_OPPOSITE_CHECK: "the side not to move is in check",
    chess.STATUS_EMPTY: "the board is empty",
    chess.STATUS_TOO_MANY_CHECKERS: "the side to move is in check by more than two men",
    chess.STATUS_IMPOSSIBLE_CHECK: "a check no last move can have given",
}


class StartPositionError(ValueError):
    """A start position that cannot be played. ``fen`` as given; ``variant``; ``problems``: each
    fault in words (e.g. "castling right K: no white rook on h1"). ``str()`` is one sentence naming
    them and the Laws' article."""

    def __init__(self, fen: object, variant: str, problems: list[str]):
        self.fen = fen
        self.variant = variant
        self.problems = problems
        law = "FIDE Laws 3.10.3, 7.2.1" if variant == "chess" else "ACF/WCDF rules"
        super().__init__(f"start position {fen!r} cannot be played ({law}): {'; '.join(problems)}")


def chess_problems(board: chess.Board) -> list[str]:
    """Each fault python-chess's ``Board.status()`` finds in ``board``, in words; [] for a valid
    position. Castling rights are named one by one with the king or rook that is missing."""
    status = board.status()
    problems = []
    for flag, words in STATUS_WORDS.items():
        if not status & flag:
            continue
        if flag == chess.STATUS_BAD_CASTLING_RIGHTS:
            problems.extend(_castling_problems(board) or [words])
        else:
            problems.append(words)
    return problems


def _castling_problems(board: chess.Board) -> list[str]:
    """FIDE Laws 3.8.2.1: a castling right needs the king and that rook on their squares.
    (python-chess reads a FEN's "K" as the outermost rook on the king's side of the first rank,
    so a right it cannot keep may sit on another square of that rank: named by its letter.)"""
    found = []
    bad = board.castling_rights & ~board.clean_castling_rights()
    named: list[tuple[str, int, int, chess.Color]] = []
    for square in chess.scan_forward(bad):
        color = chess.WHITE if chess.square_rank(square) == 0 else chess.BLACK
        kingside = chess.square_file(square) > chess.square_file(chess.E1)
        letter = ("K" if kingside else "Q") if color == chess.WHITE else ("k" if kingside else "q")
        rank = 0 if color == chess.WHITE else 7
        entry = (letter, chess.square(7 if kingside else 0, rank), chess.square(4, rank), color)
        if entry not in named:
            named.append(entry)
    for letter, rook_square, king_square, color in sorted(named, key=lambda e: "KQkq".index(e[0])):
        name = "white" if color == chess.WHITE else "black"
        missing = []
        if board.piece_at(king_square) != chess.Piece(chess.KING, color):
            missing.append(f"no {name} king on {chess.square_name(king_square)}")
        if board.piece_at(rook_square) != chess.Piece(chess.ROOK, color):
            missing.append(f"no {name} rook on {chess.square_name(rook_square)}")
        found.append(f"castling right {letter}: " + (" and ".join(missing) or "not the king's and rook's squares "
                                                                          "of the standard start"))
    return found


def check_start(fen: object, variant: str = "chess") -> None:
    """Raise ``StartPositionError`` when ``fen`` (a FEN, or a PDN FEN in checkers) is not a position
    a game can be played from (see the module docstring); None means the standard start and is
    always fine. Raises ValueError for an unknown variant."""
    if fen is None:
        return
    if variant == "chess":
        try:
            board = chess.Board(fen) if isinstance(fen, str) else None
        except ValueError as exc:
            raise StartPositionError(fen, variant, [f"not a FEN ({exc})"]) from None
        if board is None:
            raise StartPositionError(fen, variant, ["not a FEN"])
        problems = chess_problems(board)
        if problems:
            raise StartPositionError(fen, variant, problems)
        return
    if variant == "checkers":
        from services.rules.checkers_game import CheckersGame

        try:
            game = CheckersGame(fen=fen if isinstance(fen, str) else str(fen))  # read, then handed to pydraughts
        except (ValueError, KeyError, IndexError) as exc:
            raise StartPositionError(fen, variant, [str(exc)]) from None
        mover = "white" if game.turn == "black" else "black"
        if not game.position.pieces(mover):
            raise StartPositionError(fen, variant, [f"{game.turn} is to move but {mover}, who has just moved, "
                                                    "has no piece on the board"])
        return
    raise ValueError(f"unknown variant {variant!r}")
