"""One chess ply from plain UCI, judged and written in SAN with one look at the position.

python-chess stays the authority: ``Board.push`` applies the move and every case this module does
not settle itself goes back to python-chess (``play_plain_uci`` returns None, the board untouched).
What it saves is python-chess's repeated work for the usual ply of an e-board (``parse_uci`` then
``san_and_push``): the chess960 conversions of a move that cannot be castling, the king's slider
blockers and checkers computed once for the legality test and again for the SAN's disambiguation,
and the legal move generation that disambiguation runs even when no other piece could reach the
square. Its answers are python-chess's, byte for byte (tests/unit/test_chess_ply_oracle.py).

Settled here, when the side to move is not in check (FIDE Laws 3.9) and the text is exact plain UCI
(``e2e4``, ``e7e8q``: lower case, no spaces):
- a knight, bishop, rook or queen move (3.2-3.6) or a king move of one square (3.8.1), legal when
  it does not leave its own king attacked (3.9.1): a piece off its king's lines cannot be pinned, a
  pinned piece may move along the pin (``Board.pin_mask``), a king may go to any square not
  attacked (``Board.is_attacked_by``);
- a pawn's push, double step or capture (3.7.1-3.7.3), with its promotion piece exactly when it
  reaches the last rank (3.7.5.1, 7.5.2: a missing piece is python-chess's and the caller's case).
Left to python-chess: moves out of check, castling and anything from e1/e8 while a king stands there
(king-takes-rook notation, field case F02), en passant (3.7.3.1), and everything illegal or
unparsable (so the refusals keep their words).

SAN as python-chess writes it (FIDE Laws Appendix C: C.8 the piece letter and the square of
arrival, C.9 ``x`` for a capture and a pawn's file of departure, C.10 disambiguation: the file of
departure, else the rank, both when neither alone tells; then ``=Q`` for a promotion, ``+`` for
check and ``#`` for checkmate): another piece of the same type and colour that could legally move to
the same square makes the file, rank or both; the suffix is read from the board after the push
(check 3.9, checkmate 5.1.1).
"""

from __future__ import annotations

import chess

_SQUARE = {name: index for index, name in enumerate(chess.SQUARE_NAMES)}
_PROMOTION = {"n": chess.KNIGHT, "b": chess.BISHOP, "r": chess.ROOK, "q": chess.QUEEN}
_LETTER = {chess.KNIGHT: "N", chess.BISHOP: "B", chess.ROOK: "R", chess.QUEEN: "Q", chess.KING: "K"}
_PROMOTED = {chess.KNIGHT: "=N", chess.BISHOP: "=B", chess.ROOK: "=R", chess.QUEEN: "=Q"}
_SQUARES = chess.BB_SQUARES
_RAYS = chess.BB_RAYS
_KINGS_HOME = chess.BB_E1 | chess.BB_E8
_LAST_RANK = {chess.WHITE: chess.BB_RANK_8, chess.BLACK: chess.BB_RANK_1}
_SECOND_RANK = {chess.WHITE: chess.BB_RANK_2, chess.BLACK: chess.BB_RANK_7}
_FILE_NAMES, _RANK_NAMES = chess.FILE_NAMES, chess.RANK_NAMES
_KNIGHT_ATTACKS, _KING_ATTACKS, _PAWN_ATTACKS = (
    chess.BB_KNIGHT_ATTACKS, chess.BB_KING_ATTACKS, chess.BB_PAWN_ATTACKS)
_DIAG_MASKS, _DIAG_ATTACKS = chess.BB_DIAG_MASKS, chess.BB_DIAG_ATTACKS
_FILE_MASKS, _FILE_ATTACKS = chess.BB_FILE_MASKS, chess.BB_FILE_ATTACKS
_RANK_MASKS, _RANK_ATTACKS = chess.BB_RANK_MASKS, chess.BB_RANK_ATTACKS
_RANKS, _FILES = chess.BB_RANKS, chess.BB_FILES


def _reach(piece_type: int, square: int, occupied: int) -> int:
    """The squares a piece of ``piece_type`` on ``square`` attacks with ``occupied`` filled (3.2-3.6,
    3.8.1); the same sets as ``Board.attacks_mask``. Also the squares from which such a piece reaches
    ``square``: lines are symmetric."""
    if piece_type == chess.KNIGHT:
        return _KNIGHT_ATTACKS[square]
    if piece_type == chess.KING:
        return _KING_ATTACKS[square]
    reach = 0
    if piece_type != chess.ROOK:  # bishop or queen
        reach = _DIAG_ATTACKS[square][_DIAG_MASKS[square] & occupied]
    if piece_type != chess.BISHOP:  # rook or queen
        reach |= (_RANK_ATTACKS[square][_RANK_MASKS[square] & occupied]
                  | _FILE_ATTACKS[square][_FILE_MASKS[square] & occupied])
    return reach


def _free_to_leave(board: chess.Board, us: bool, king: int, origin: int, target: int) -> bool:
    """Whether the piece on ``origin`` (not the king) may go to ``target`` without exposing its king
    on ``king`` (3.9.1), the side not being in check: off the king's lines, or on a line holding no
    enemy queen, nor rook (rank, file) or bishop (diagonal), it cannot be pinned; pinned, it stays on
    the pin's line (python-chess's ``_is_safe`` for such a move)."""
    line = _RAYS[king][origin]
    if not line:
        return True
    straight = (king ^ origin) & 7 == 0 or (king ^ origin) >> 3 == 0  # same file or same rank
    snipers = board.queens | (board.rooks if straight else board.bishops)
    if not line & snipers & board.occupied_co[not us]:
        return True  # no enemy piece on that line could pin it
    return bool(board.pin_mask(us, origin) & _SQUARES[target])


def play_plain_uci(board: chess.Board, text: str, in_check: bool) -> tuple[chess.Move, str] | None:
    """Push the move ``text`` (exact plain UCI) on ``board`` and return it with its SAN (suffix
    included), when this module settles it as legal (see the module docstring); else None with the
    board unchanged, for python-chess to judge. ``in_check``: whether the side to move is in check
    (the caller knows it from the last SAN's suffix); True always returns None.

    The returned move and SAN equal ``board.parse_uci(text)`` and ``board.san_and_push(...)``."""
    if in_check or not 4 <= len(text) <= 5:
        return None
    origin = _SQUARE.get(text[0:2])
    target = _SQUARE.get(text[2:4])
    if origin is None or target is None:
        return None
    us = board.turn
    from_bb, to_bb = _SQUARES[origin], _SQUARES[target]
    ours = board.occupied_co[us]
    if not ours & from_bb or ours & to_bb:
        return None
    if from_bb & _KINGS_HOME & board.kings:
        return None  # castling either way, or king-takes-rook: python-chess's conversions decide
    promotion = None
    if len(text) == 5:
        promotion = _PROMOTION.get(text[4])
        if promotion is None:
            return None
    occupied = board.occupied
    theirs = board.occupied_co[not us]
    capture = bool(theirs & to_bb)
    kings = board.kings
    if from_bb & board.pawns:
        if promotion is None:
            if to_bb & _LAST_RANK[us]:
                return None
        elif not to_bb & _LAST_RANK[us]:
            return None
        step = 8 if us else -8
        if capture:
            if not _PAWN_ATTACKS[us][origin] & to_bb:
                return None
        elif occupied & to_bb:
            return None
        elif target != origin + step:
            if not (target == origin + 2 * step and from_bb & _SECOND_RANK[us]
                    and not occupied & _SQUARES[origin + step]):
                return None
        king = (kings & ours).bit_length() - 1
        if not _free_to_leave(board, us, king, origin, target):
            return None
        san = f"{_FILE_NAMES[origin & 7]}x" if capture else ""
        san += chess.SQUARE_NAMES[target]
        if promotion is not None:
            san += _PROMOTED[promotion]
    else:
        if promotion is not None:
            return None
        piece_type = board.piece_type_at(origin)
        if piece_type is None or not _reach(piece_type, origin, occupied) & to_bb:  # None: not on a piece
            return None
        if piece_type == chess.KING:
            if board.is_attacked_by(not us, target):
                return None
            others = 0
        else:
            king = (kings & ours).bit_length() - 1
            if not _free_to_leave(board, us, king, origin, target):
                return None
            others = _rivals(board, us, king, piece_type, origin, target, occupied)
        san = _LETTER[piece_type]
        if others:
            san += _disambiguation(origin, others)
        if capture:
            san += "x"
        san += chess.SQUARE_NAMES[target]
    move = chess.Move(origin, target, promotion)
    board.push(move)
    their_king = (board.kings & board.occupied_co[not us]).bit_length() - 1
    if board.attackers_mask(us, their_king):  # Board.is_check() without looking the king up again
        san += "+" if any(board.generate_legal_moves()) else "#"
    return move, san


def _rivals(board: chess.Board, us: bool, king: int, piece_type: int, origin: int, target: int,
            occupied: int) -> int:
    """The squares of the other pieces of ``piece_type`` and colour ``us`` that could legally move to
    ``target`` (the side not in check), as python-chess's SAN finds them (Appendix C.10)."""
    same = board.pieces_mask(piece_type, us) & ~_SQUARES[origin]
    if not same:
        return 0
    candidates = same & _reach(piece_type, target, occupied)
    others = 0
    while candidates:
        low = candidates & -candidates
        candidates ^= low
        if _free_to_leave(board, us, king, low.bit_length() - 1, target):
            others |= low
    return others


def _disambiguation(origin: int, others: int) -> str:
    """The file, rank or both of ``origin`` that tell it from ``others`` (Appendix C.10), in
    python-chess's rule: the file unless another shares it; the rank when another shares the file;
    both when others share each."""
    file, rank = origin & 7, origin >> 3
    column = bool(others & _RANKS[rank])
    row = bool(others & _FILES[file])
    if not row:
        column = True
    return (_FILE_NAMES[file] if column else "") + (_RANK_NAMES[rank] if row else "")
