"""American (English) checkers: the board, a position, and the legal moves in it.

The rules engine behind ``CheckersGame``. Pure and deterministic. It is our own small move
generator rather than pydraughts' because pydraughts (0.6.7) needs ~3 ms a move (it rebuilds a
board per candidate jump), too slow to replay a venue's games or a 700-game archive in a test run;
the unit tests check this module against pydraughts (perft and move lists along real games).

Board (ACF/WCDF rules, "the checkerboard and its arrangement"): the 32 playing squares are numbered
1-32 row by row; Black (Red on the venue's boards) starts with men on 1-12 and moves first, White
starts on 21-32. Square ``n`` lies on row ``(n - 1) // 4`` (0 = Black's back row) and, on the full
8x8 board, on column ``2 * ((n - 1) % 4) + (1 if the row is even else 0)``.

Moves (ACF/WCDF rules of play):
- a man moves one square diagonally forward (Black towards 29-32, White towards 1-4), a king one
  square diagonally in any direction;
- capturing is compulsory: when any capture exists, the player must capture (any capture: there
  is no rule of the greatest number in American checkers), and a capture sequence must be jumped
  to its end (the multi-jump is completed);
- a man that reaches the far row is crowned and the move ends there, even when the new king
  could jump on (crowning ends the move).
A piece is never jumped twice in one move; the square a king left is empty for the rest of its jump.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from services.rules.base import BLACK, WHITE, other

SQUARES = range(1, 33)
BLACK_CROWN_ROW = frozenset({29, 30, 31, 32})  # where Black's men are crowned
WHITE_CROWN_ROW = frozenset({1, 2, 3, 4})  # where White's men are crowned
_FORWARD = {BLACK: ((1, -1), (1, 1)), WHITE: ((-1, -1), (-1, 1))}
_ALL_DIRECTIONS = ((1, -1), (1, 1), (-1, -1), (-1, 1))


def _coords(square: int) -> tuple[int, int]:
    row = (square - 1) // 4
    return row, 2 * ((square - 1) % 4) + (1 if row % 2 == 0 else 0)


def _square(row: int, col: int) -> int | None:
    if 0 <= row < 8 and 0 <= col < 8 and (row + col) % 2 == 1:
        return 4 * row + col // 2 + 1
    return None


def _tables() -> tuple[dict, dict]:
    step: dict[tuple[int, tuple[int, int]], int | None] = {}
    jump: dict[tuple[int, tuple[int, int]], tuple[int, int] | None] = {}
    for sq in SQUARES:
        row, col = _coords(sq)
        for d in _ALL_DIRECTIONS:
            step[sq, d] = _square(row + d[0], col + d[1])
            over, land = _square(row + d[0], col + d[1]), _square(row + 2 * d[0], col + 2 * d[1])
            jump[sq, d] = (over, land) if over and land else None
    return step, jump


_STEP, _JUMP = _tables()


@dataclass(frozen=True)
class Position:
    """A checkers position: the side to move and the squares (1-32) of each colour's men and kings.

    Hashable and canonical: two positions with the same side to move and the same sets of men and
    kings per colour are equal, whatever order the squares were listed in (the key for repetition
    claims, WCDF: "the same position"). Build it with ``Position.start()`` or
    ``services.rules.checkers_notation.parse_fen``.
    """

    turn: str
    black_men: frozenset[int]
    black_kings: frozenset[int]
    white_men: frozenset[int]
    white_kings: frozenset[int]

    @staticmethod
    def start() -> "Position":
        """The standard start: Black men on 1-12, White men on 21-32, Black to move."""
        return Position(BLACK, frozenset(range(1, 13)), frozenset(), frozenset(range(21, 33)), frozenset())

    def men(self, side: str) -> frozenset[int]:
        """Squares of ``side``'s men (uncrowned pieces)."""
        return self.black_men if side == BLACK else self.white_men

    def kings(self, side: str) -> frozenset[int]:
        """Squares of ``side``'s kings."""
        return self.black_kings if side == BLACK else self.white_kings

    def pieces(self, side: str) -> frozenset[int]:
        """Squares of all of ``side``'s pieces."""
        return self.men(side) | self.kings(side)

    @cached_property
    def occupied(self) -> frozenset[int]:
        """Every occupied square."""
        return self.black_men | self.black_kings | self.white_men | self.white_kings

    @cached_property
    def legal_moves(self) -> tuple["CheckersMove", ...]:
        """Every legal move for the side to move, captures only when a capture exists (compulsory
        capture), each capture jumped to its end. Empty when the side to move has lost (no move)."""
        return _generate(self)


@dataclass(frozen=True)
class CheckersMove:
    """One complete move. ``route``: the squares the piece stands on, start to end, with every
    landing square of a multi-jump (e.g. (6, 15, 24)). ``captured``: the squares of the pieces
    jumped, in order (empty for an ordinary move). ``man``: True when the moving piece was a man
    (so the move advanced a man). ``crowns``: True when the move crowns the man."""

    route: tuple[int, ...]
    captured: tuple[int, ...]
    man: bool
    crowns: bool

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


def _crown_row(side: str) -> frozenset[int]:
    return BLACK_CROWN_ROW if side == BLACK else WHITE_CROWN_ROW


def _jumps(
    start: int,
    at: int,
    dirs: tuple[tuple[int, int], ...],
    crown: frozenset[int] | None,
    enemy: frozenset[int],
    occupied: frozenset[int],
    taken: tuple[int, ...],
    route: tuple[int, ...],
) -> list[CheckersMove]:
    """Every completed jump sequence continuing from ``at`` (the moving piece has left ``start``).
    ``crown``: the man's crowning row, None for a king."""
    found: list[CheckersMove] = []
    for d in dirs:
        hop = _JUMP[at, d]
        if hop is None:
            continue
        over, land = hop
        if over not in enemy or over in taken or (land in occupied and land != start):
            continue
        new_route, new_taken = route + (land,), taken + (over,)
        if crown is not None and land in crown:
            found.append(CheckersMove(new_route, new_taken, True, True))  # crowning ends the move
            continue
        more = _jumps(start, land, dirs, crown, enemy, occupied, new_taken, new_route)
        found.extend(more or [CheckersMove(new_route, new_taken, crown is not None, False)])
    return found


def _generate(pos: Position) -> tuple[CheckersMove, ...]:
    side = pos.turn
    men, kings = sorted(pos.men(side)), sorted(pos.kings(side))
    enemy, occupied, crown, forward = pos.pieces(other(side)), pos.occupied, _crown_row(side), _FORWARD[side]
    captures: list[CheckersMove] = []
    for sq in men:
        captures.extend(_jumps(sq, sq, forward, crown, enemy, occupied, (), (sq,)))
    for sq in kings:
        captures.extend(_jumps(sq, sq, _ALL_DIRECTIONS, None, enemy, occupied, (), (sq,)))
    if captures:
        return tuple(sorted(captures, key=lambda m: m.route))
    steps: list[CheckersMove] = []
    for sq in men:
        for d in forward:
            to = _STEP[sq, d]
            if to and to not in occupied:
                steps.append(CheckersMove((sq, to), (), True, to in crown))
    for sq in kings:
        for d in _ALL_DIRECTIONS:
            to = _STEP[sq, d]
            if to and to not in occupied:
                steps.append(CheckersMove((sq, to), (), False, False))
    return tuple(sorted(steps, key=lambda m: m.route))


def apply_move(pos: Position, move: CheckersMove) -> Position:
    """The position after ``move`` (which must be one of ``pos.legal_moves``; not re-checked here)."""
    side, opp = pos.turn, other(pos.turn)
    men, kings = set(pos.men(side)), set(pos.kings(side))
    opp_men, opp_kings = set(pos.men(opp)) - set(move.captured), set(pos.kings(opp)) - set(move.captured)
    if move.start in men:
        men.discard(move.start)
        (kings if move.crowns else men).add(move.end)
    else:
        kings.discard(move.start)
        kings.add(move.end)
    if side == BLACK:
        return Position(opp, frozenset(men), frozenset(kings), frozenset(opp_men), frozenset(opp_kings))
    return Position(opp, frozenset(opp_men), frozenset(opp_kings), frozenset(men), frozenset(kings))


__all__ = ["Position", "CheckersMove", "apply_move", "BLACK_CROWN_ROW", "WHITE_CROWN_ROW", "SQUARES"]
