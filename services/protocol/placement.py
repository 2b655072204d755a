"""Placement boards: which move a sensed piece placement shows, board orientation, the result signal.

Pure (python-chess, no I/O). A placement is the piece-placement field of a FEN
(``"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR"``), as read from the board's sensors: rank 8 first,
White pieces upper case. Squares are python-chess indices (a1 = 0, h8 = 63).

Rules (docs/protocol.md, "Placement boards"):
- a stable placement that equals the official position after exactly one legal move is that move
  (captures, castling, en passant, promotion: the placement shows the new piece);
- a placement equal to the official one is nothing (a piece lifted and put back);
- any other placement is a passing state (a piece in the hand, a captured piece not yet removed)
  and is ignored: the board sends the next stable placement later;
- castling with the rook moved first: the placement with only the rook moved can itself be a legal
  rook move (h1f1 with f1 and g1 empty). ``castling_prefix`` names such a move; the gateway waits for
  the next message before playing it (the king arriving makes it castling, a clock press or another
  placement makes it the rook move).
- F06 (field cases): a board whose first snapshot is the start position turned 180 degrees is read
  with every square s mapped to 63 - s, for placements and for UCI alike.
- F07 (field cases, DGT "indicate result"): both kings on the centre squares (never a legal position,
  the four centre squares touch each other) is the result signal: kings on d5 + e4 (light) = 1-0,
  on d4 + e5 (dark) = 0-1, one on a light and one on a dark centre square = 1/2-1/2.
"""

from __future__ import annotations

from dataclasses import dataclass

import chess

START_PLACEMENT = chess.STARTING_BOARD_FEN
ROTATED_START = "RNBKQBNR/PPPPPPPP/8/8/8/8/pppppppp/rnbkqbnr"
CENTRE = {chess.D4: "dark", chess.E5: "dark", chess.D5: "light", chess.E4: "light"}

SAME = "same"
MOVE = "move"
TRANSIENT = "transient"


@dataclass(frozen=True)
class Inference:
    """What a placement shows. ``kind``: ``"same"`` (the official position: nothing happened),
    ``"move"`` (``move`` holds the UCI of the one legal move that gives it) or ``"transient"``
    (matches no legal move: a passing state, ignored)."""

    kind: str
    move: str | None = None


def normalize(placement: str) -> str:
    """The canonical placement text (``"8/8/..."`` with digits merged). Raises ValueError when the
    text is not a piece placement of 8 ranks of 8 squares."""
    if not isinstance(placement, str) or " " in placement.strip():
        raise ValueError(f"not a piece placement: {placement!r}")
    try:
        return chess.BaseBoard(placement.strip()).board_fen()
    except ValueError as exc:
        raise ValueError(f"not a piece placement: {placement!r}") from exc


def rotate_square(square: int) -> int:
    """Square seen on a board turned 180 degrees: s -> 63 - s (F06)."""
    return 63 - square


def rotate_placement(placement: str) -> str:
    """The placement of a board turned 180 degrees (F06). Raises ValueError on a bad placement."""
    board = chess.BaseBoard(normalize(placement))
    return board.transform(chess.flip_vertical).transform(chess.flip_horizontal).board_fen()


def rotate_uci(uci: str) -> str:
    """A UCI move read on a board turned 180 degrees, in official squares: ``d7d5`` -> ``e2e4``
    (F06). The promotion letter is kept. Raises ValueError when ``uci`` is not UCI."""
    move = chess.Move.from_uci(uci)
    if not move:
        raise ValueError(f"not a move: {uci!r}")
    return chess.Move(
        rotate_square(move.from_square), rotate_square(move.to_square), move.promotion
    ).uci()


def is_rotated_start(placement: str) -> bool:
    """True when ``placement`` is the standard start turned 180 degrees (F06)."""
    try:
        return normalize(placement) == ROTATED_START
    except ValueError:
        return False


def infer_move(fen: str | chess.Board, placement: str) -> Inference:
    """The move from the official position ``fen`` that gives ``placement`` (see module rules).

    ``fen`` may be a python-chess Board (left as it was). Raises ValueError when ``placement`` is not
    a piece placement.
    """
    try:
        target = _bitboards(chess.BaseBoard(placement.strip()))
    except (AttributeError, ValueError) as exc:
        raise ValueError(f"not a piece placement: {placement!r}") from exc
    board = fen if isinstance(fen, chess.Board) else chess.Board(fen)
    if _bitboards(board) == target:
        return Inference(SAME)
    emptied = board.occupied & ~target[6] & ~target[7]
    for move in board.legal_moves:
        # only a move from a square that is empty now can give the placement (saves push/pop)
        if not emptied & chess.BB_SQUARES[move.from_square]:
            continue
        board.push(move)
        same = _bitboards(board) == target
        board.pop()
        if same:
            return Inference(MOVE, move.uci())
    return Inference(TRANSIENT)


def _bitboards(board: chess.BaseBoard) -> tuple[int, ...]:
    """The placement as python-chess's bitboards: comparing them is ~50x cheaper than FEN text."""
    return (board.pawns, board.knights, board.bishops, board.rooks, board.queens, board.kings,
            board.occupied_co[chess.WHITE], board.occupied_co[chess.BLACK])


def castling_prefix(fen: str, uci: str) -> str | None:
    """The castling move (``"e1g1"``...) of which the rook move ``uci`` may be the first half, when
    that castling is legal in ``fen``; else None (Laws 3.8.2, 4.4.2: castle by moving the king first;
    boards see players who move the rook first all the same)."""
    board = chess.Board(fen)
    move = chess.Move.from_uci(uci)
    for castle in board.legal_moves:
        if not board.is_castling(castle):
            continue
        rook_from = chess.H1 if chess.square_file(castle.to_square) == 6 else chess.A1
        rook_to = chess.F1 if rook_from == chess.H1 else chess.D1
        if board.turn == chess.BLACK:
            rook_from, rook_to = rook_from + 56, rook_to + 56
        if (move.from_square, move.to_square) == (rook_from, rook_to):
            return castle.uci()
    return None


def result_signal(placement: str) -> str | None:
    """The result the kings on the centre squares signal (F07), or None when they do not.

    Returns ``"1-0"`` (both on light squares d5/e4), ``"0-1"`` (both on dark d4/e5) or
    ``"1/2-1/2"`` (one light, one dark). Raises ValueError on a bad placement.
    """
    board = chess.BaseBoard(normalize(placement))
    white = board.pieces(chess.KING, chess.WHITE)
    black = board.pieces(chess.KING, chess.BLACK)
    if len(white) != 1 or len(black) != 1:
        return None
    w, b = next(iter(white)), next(iter(black))
    if w not in CENTRE or b not in CENTRE:
        return None
    colours = {CENTRE[w], CENTRE[b]}
    if colours == {"light"}:
        return "1-0"
    if colours == {"dark"}:
        return "0-1"
    return "1/2-1/2"


def move_piece(placement: str, uci: str) -> str:
    """The placement after physically moving the piece on the move's from-square to its to-square,
    with no legality check (used after the game has ended, to follow the result signal)."""
    board = chess.BaseBoard(normalize(placement))
    move = chess.Move.from_uci(uci)
    piece = board.remove_piece_at(move.from_square)
    if piece is not None:
        board.set_piece_at(move.to_square, piece)
    return board.board_fen()
