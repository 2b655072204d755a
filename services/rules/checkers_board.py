"""American (English) checkers: positions and moves, with pydraughts as the rules engine.

pydraughts (``draughts.Board(variant="english")``, 0.6.7) decides which moves are legal and what a
move does to the board; this module only gives its answers the venue's shapes:

- ``Position``: a canonical, hashable key (side to move, men and kings per colour) for repetition
  claims and FEN output. pydraughts' FEN lists squares in string order ("B1,10,11,12,2,..."), so a
  raw FEN string cannot serve as the key of "the same position" (WCDF).
- ``CheckersMove``: one complete legal move as pydraughts gives it (full route ``steps_move``,
  ``captures``) plus what the claims need (did a man move, does it crown) and the pydraughts
  ``Move`` itself, which ``CheckersGame`` pushes.
- ``legal_moves(pos, board)``: pydraughts' legal moves of a position, sorted by route and cached
  per position (a bounded LRU shared by all games: pydraughts needs milliseconds per call, and
  every game of a round starts from the same few balloted positions).

Board (ACF/WCDF rules, "the checkerboard and its arrangement"): the 32 playing squares are numbered
1-32 row by row; Black (Red on the venue's boards) starts with men on 1-12 and moves first, White
starts on 21-32. The rules of play (pydraughts' "english" variant, checked by the unit tests on the
ACF/WCDF rules, perft and 721 Tinsley games): men move one square diagonally forward, kings in all
four directions; capturing is compulsory (any capture, no rule of the greatest number) and a
capture sequence is jumped to its end; a man reaching the far row is crowned and the move ends.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass, field

import draughts

from services.rules.base import BLACK, WHITE, Side

SQUARES = range(1, 33)
BLACK_CROWN_ROW = frozenset({29, 30, 31, 32})  # where Black's men are crowned
WHITE_CROWN_ROW = frozenset({1, 2, 3, 4})  # where White's men are crowned
VARIANT = "english"  # pydraughts' name for American/English checkers (GameType 21)
CACHE_SIZE = 20_000  # positions whose legal moves are kept (a few kB each)


@dataclass(frozen=True)
class Position:
    """A checkers position: the side to move and the squares (1-32) of each colour's men and kings.

    Hashable and canonical: two positions with the same side to move and the same sets of men and
    kings per colour are equal, whatever order the squares were listed in (the key for repetition
    claims, WCDF: "the same position"). Build it with ``Position.start()``,
    ``services.rules.checkers_notation.parse_fen`` or ``position_of(board)`` (a pydraughts board).
    """

    turn: Side
    black_men: frozenset[int]
    black_kings: frozenset[int]
    white_men: frozenset[int]
    white_kings: frozenset[int]

    @staticmethod
    def start() -> "Position":
        """The standard start: Black men on 1-12, White men on 21-32, Black to move."""
        return _START

    def men(self, side: str) -> frozenset[int]:
        """Squares of ``side``'s men (uncrowned pieces)."""
        return self.black_men if side == BLACK else self.white_men

    def kings(self, side: str) -> frozenset[int]:
        """Squares of ``side``'s kings."""
        return self.black_kings if side == BLACK else self.white_kings

    def pieces(self, side: str) -> frozenset[int]:
        """Squares of all of ``side``'s pieces."""
        return self.men(side) | self.kings(side)

    @property
    def occupied(self) -> frozenset[int]:
        """Every occupied square."""
        return self.black_men | self.black_kings | self.white_men | self.white_kings

    @property
    def fen(self) -> str:
        """Canonical PDN FEN: ``B``/``W`` to move, then White's and Black's squares in ascending
        order, kings prefixed ``K``: ``"B:W21,...,32:B1,...,12"``."""
        return f"{'B' if self.turn == BLACK else 'W'}:W{_list(self.white_men, self.white_kings)}" \
               f":B{_list(self.black_men, self.black_kings)}"

    @property
    def legal_moves(self) -> tuple["CheckersMove", ...]:
        """pydraughts' legal moves in this position (see ``legal_moves``)."""
        return legal_moves(self)

    def after_king_step(self, move: "CheckersMove") -> "Position":
        """The position after a king's step that takes nothing (``move.irreversible`` False): the
        king stands on ``move.end`` instead of ``move.start``, the other side is to move. Used to
        look one move ahead for repetition claims without a pydraughts board per candidate; no
        rule is decided here (pydraughts listed the move as legal). Raises ValueError for any other
        move (a man's move or a capture changes more than one square: ask pydraughts)."""
        side = self.turn
        if move.irreversible or move.start not in self.kings(side):
            raise ValueError(f"{move.text} is not a king's step without a capture")
        kings = (self.kings(side) - {move.start}) | {move.end}
        if side == BLACK:
            return Position(WHITE, self.black_men, kings, self.white_men, self.white_kings)
        return Position(BLACK, self.black_men, self.black_kings, self.white_men, kings)


def _list(men: frozenset[int], kings: frozenset[int]) -> str:
    return ",".join(f"K{sq}" if sq in kings else str(sq) for sq in sorted(men | kings))


_START = Position(BLACK, frozenset(range(1, 13)), frozenset(), frozenset(range(21, 33)), frozenset())


@dataclass(frozen=True)
class CheckersMove:
    """One complete legal move. ``route``: the squares the piece stands on, start to end, with every
    landing square of a multi-jump (e.g. (6, 15, 24); pydraughts' ``steps_move``). ``captured``:
    the squares of the pieces jumped, in order (pydraughts' ``captures``; empty for an ordinary
    move). ``man``: True when the moving piece was a man. ``crowns``: True when the move crowns
    the man. ``engine``: the pydraughts ``Move`` (pushable on any pydraughts board standing in
    the position it was generated for; not part of equality)."""

    route: tuple[int, ...]
    captured: tuple[int, ...]
    man: bool
    crowns: bool
    engine: draughts.Move | None = field(default=None, compare=False, hash=False, repr=False)

    @property
    def is_capture(self) -> bool:
        """True for a jump (one or more pieces taken)."""
        return bool(self.captured)

    @property
    def start(self) -> int:
        """The square the piece moves from."""
        return self.route[0]

    @property
    def end(self) -> int:
        """The square the piece ends on."""
        return self.route[-1]

    @property
    def text(self) -> str:
        """Standard numeric notation with the full route: "11-15", "23x14", "6x15x24"."""
        return ("x" if self.captured else "-").join(str(sq) for sq in self.route)

    @property
    def irreversible(self) -> bool:
        """True when a man moved or a piece was taken (what resets the 40-move count, WCDF)."""
        return self.man or bool(self.captured)


def new_board(pos: Position) -> draughts.Board:
    """A pydraughts board (variant "english") standing in ``pos``."""
    return draughts.Board(VARIANT, pos.fen)


def position_of(board: draughts.Board) -> Position:
    """The canonical ``Position`` of a pydraughts board (read from its FEN, whose square order
    varies). Side to move: pydraughts' ``draughts.BLACK``/``WHITE`` in the FEN's ``B``/``W``."""
    turn, white, black = board.fen.split(":")
    wm, wk = _squares(white[1:])
    bm, bk = _squares(black[1:])
    return Position(BLACK if turn == "B" else WHITE, bm, bk, wm, wk)


def _squares(text: str) -> tuple[frozenset[int], frozenset[int]]:
    men, kings = [], []
    for item in text.split(","):
        if item.startswith("K"):
            kings.append(int(item[1:]))
        elif item:
            men.append(int(item))
    return frozenset(men), frozenset(kings)


_CACHE: OrderedDict[Position, tuple[CheckersMove, ...]] = OrderedDict()
_CACHE_LOCK = threading.Lock()  # the cache is shared; a gateway may run games in threads


def legal_moves(pos: Position, board: draughts.Board | None = None) -> tuple[CheckersMove, ...]:
    """Every legal move of the side to move in ``pos``, as pydraughts' ``legal_moves()`` gives
    them (captures only when a capture exists, each jumped to its end), sorted by route. Empty
    when the side to move has lost (no move). ``board``: a pydraughts board standing in ``pos``
    (saves building one); it is only read. Answers are cached per position (LRU, ``CACHE_SIZE``)."""
    with _CACHE_LOCK:
        cached = _CACHE.get(pos)
        if cached is not None:
            _CACHE.move_to_end(pos)
            return cached
    board = board if board is not None else new_board(pos)
    crown = BLACK_CROWN_ROW if pos.turn == BLACK else WHITE_CROWN_ROW
    men = pos.men(pos.turn)
    moves = []
    for m in board.legal_moves():
        route = tuple(m.steps_move)
        man = route[0] in men
        moves.append(CheckersMove(route, tuple(m.captures or ()), man, man and route[-1] in crown, m))
    found = tuple(sorted(moves, key=lambda m: m.route))
    with _CACHE_LOCK:
        _CACHE[pos] = found
        while len(_CACHE) > CACHE_SIZE:
            _CACHE.popitem(last=False)
    return found


def clear_cache() -> None:
    """Forget every cached answer of ``legal_moves`` (for benchmarks measuring a cold start)."""
    with _CACHE_LOCK:
        _CACHE.clear()


def apply_move(pos: Position, move: CheckersMove) -> Position:
    """The position after ``move`` (one of ``legal_moves(pos)``), as pydraughts plays it on a
    board set up in ``pos``. A king's step without a capture is answered without a board
    (``Position.after_king_step``)."""
    if not move.irreversible:
        return pos.after_king_step(move)
    board = new_board(pos)
    board.push(move.engine)
    return position_of(board)


__all__ = [
    "Position",
    "CheckersMove",
    "legal_moves",
    "apply_move",
    "new_board",
    "position_of",
    "clear_cache",
    "BLACK_CROWN_ROW",
    "WHITE_CROWN_ROW",
    "SQUARES",
    "VARIANT",
]
