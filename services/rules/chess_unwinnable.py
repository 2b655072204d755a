"""Can this side checkmate by any possible series of legal moves? (FIDE Laws 6.9 flag fall, 5.2.2
dead position, 7.5.5 second illegal move.)

Article 6.9: "if a player does not complete the prescribed number of moves in the allotted time,
the game is lost by the player. However, the game is drawn if the position is such that the
opponent cannot checkmate the player's king by any possible series of legal moves." Article
5.2.2: "The game is drawn when a position has arisen in which neither player can checkmate the
opponent's king with any series of legal moves. The game is said to end in a 'dead position'."

``can_checkmate(board, side)`` answers the 6.9 question for one side, ``dead_position(board)``
the 5.2.2 question for both, each with a ``Unwinnability`` verdict that says how it was decided:

1. static (microseconds): the side has no mating material (python-chess
   ``has_insufficient_material``: a bare king; a lone knight, or bishops of one square colour,
   against nothing the other side could block its own king with); the position is already mate or
   stalemate;
2. blockade (tens to hundreds of microseconds, only when pawns are rammed): a locked structure
   that leaves the side no square from which to give check ever (``chess_blockade``);
3. bounded helpmate search (``chess_helpmate.explore``; both sides play for the side's mate):
   first every line of up to ``FORCED_DEPTH`` plies, stopping at the first that stays open (a few
   positions in a free position: a fraction of a millisecond); then, only where few positions can
   be reachable (five men at most; the side to move with at most ``FORCED_MOVES`` legal moves, or
   ``CLOSING_MOVES`` with pawns rammed), every reachable position, up to ``CLOSING_NODES``. A mate
   reached proves "winnable" (the line is kept for the arbiter), a walk that settled every line
   without one proves "unwinnable" (e.g. a flagged side whose only legal move captures the
   opponent's last piece; kings jammed behind their pawns), else "undetermined".

Soundness: "unwinnable" is only ever a proof. "undetermined" is what a limited budget leaves; a
caller deciding a flag fall treats it as winnable (the flag fall loses, as before; an arbiter may
still rule otherwise), and a caller testing for a dead position treats it as not dead (the game
goes on; no game is ever ended wrongly).

Limits: the search counts positions, not plies, and ignores the 50/75-move and repetition rules
(9.3, 9.6): "any possible series of legal moves" is read, as CHA reads it, without them. It proves
no mate where a mate needs a long manoeuvre in an open position (it leaves "undetermined"), and
positions where only a long manoeuvre proves the impossibility (closed structures the blockade
cannot settle, with mobile pieces on both sides) also end "undetermined". Measured against the
test vectors of Ambrona's Chess Unwinnability Analyzer (CHA) and against real timeouts:
``bench/bench_dead_position.py``; positions of each kind in tests/unit/test_chess_unwinnable.py.

The verdicts are pure functions of the position (python-chess ``Board``; the board is not
changed).
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import islice

import chess

from services.events.vocabulary import Termination
from services.rules.base import BLACK, WHITE
from services.rules.chess_blockade import analyse, rammed
from services.rules.chess_helpmate import EXHAUSTED, FOUND, explore

WINNABLE, UNWINNABLE, UNDETERMINED = "winnable", "unwinnable", "undetermined"

# How a verdict was reached (``Unwinnability.reason``).
MATERIAL = Termination.INSUFFICIENT_MATERIAL  # static, 1.
MATED = Termination.CHECKMATE  # the position on the board is already a mate, by or of the side
STALEMATE = Termination.STALEMATE
BLOCKED = "blocked"  # 2.
SEARCH_EXHAUSTED = "no_mate_reachable"  # 3., every reachable position searched
HELPMATE = "helpmate"  # 3., a mating line found
BUDGET = "search_budget_spent"  # 3., undetermined

FORCED_DEPTH = 8  # plies of the first, all-lines walk (stops at the first free line)
CLOSING_MOVES = 9  # measured on CHA's test vectors: 93% of the exhausted searches start there
CLOSING_NODES = 2_500  # ... and need fewer positions than this (bench/bench_dead_position.py)
FLAG_FALL_NODES = 5_000  # one search per flag fall (bench/bench_dead_position.py: its cost)
START_NODES = 5_000  # the same for a game set up from a FEN, judged before its first move
PER_PLY_NODES = 300  # the per-move check's forced-line walk, when it runs at all
PER_PLY_DEPTH = 6  # ... in plies
FORCED_MOVES = 2  # ... which is when the side to move has at most this many legal moves
FEW_MEN = 4  # ... counted only in a closed position or with at most this many men besides the kings

_COLOR = {WHITE: chess.WHITE, BLACK: chess.BLACK}
_SIDE = {chess.WHITE: WHITE, chess.BLACK: BLACK}


@dataclass(frozen=True)
class Unwinnability:
    """Whether ``side`` ("white"/"black") can checkmate in the position.

    ``verdict``: ``WINNABLE``, ``UNWINNABLE`` or ``UNDETERMINED``; ``reason``: how (``MATERIAL``,
    ``MATED``, ``STALEMATE``, ``BLOCKED``, ``SEARCH_EXHAUSTED``, ``HELPMATE``, ``BUDGET``);
    ``line``: for ``HELPMATE``, the series of legal moves (UCI) from the position to the mate,
    else empty; ``nodes``: positions the search visited (0 when it did not run)."""

    side: str
    verdict: str
    reason: str
    line: tuple[str, ...] = ()
    nodes: int = 0

    @property
    def unwinnable(self) -> bool:
        """True only when it is proved that ``side`` cannot checkmate."""
        return self.verdict == UNWINNABLE

    def to_json(self) -> dict:
        """``{"side", "verdict", "reason", "line", "nodes"}``."""
        return {"side": self.side, "verdict": self.verdict, "reason": self.reason,
                "line": list(self.line), "nodes": self.nodes}


def can_checkmate(board: chess.Board, side: str, nodes: int = FLAG_FALL_NODES) -> Unwinnability:
    """Whether ``side`` ("white"/"black") can checkmate the other king by some series of legal
    moves from ``board`` (FIDE Laws 6.9; module notes). ``nodes``: the search budget (0 = static
    and blockade only). Raises ValueError for a bad side or a negative budget."""
    color = _COLOR.get(side)
    if color is None:
        raise ValueError(f"not a side: {side!r}")
    if nodes < 0:
        raise ValueError(f"nodes must not be negative, got {nodes}")
    static = _static(board, color)
    if static is not None:
        return static
    blockade = analyse(board, (color,))
    if blockade is not None and not blockade.can_give_check(color):
        return Unwinnability(side, UNWINNABLE, BLOCKED)
    if nodes == 0:
        return Unwinnability(side, UNDETERMINED, BUDGET)
    spent = 0
    for depth in (FORCED_DEPTH, None):
        budget = nodes - spent if depth is not None else min(nodes - spent, CLOSING_NODES)
        found = explore(board, color, budget, depth)
        spent += found.nodes
        if found.status == FOUND:
            return Unwinnability(side, WINNABLE, HELPMATE, found.line, spent)
        if found.status == EXHAUSTED:
            return Unwinnability(side, UNWINNABLE, SEARCH_EXHAUSTED, (), spent)
        if spent >= nodes or (depth is not None and not _worth_closing(board)):
            break
    return Unwinnability(side, UNDETERMINED, BUDGET, (), spent)


def _worth_closing(board: chess.Board) -> bool:
    """Whether to walk every reachable position (module notes, 3.): at most five men stand on the
    board, or the side to move has at most ``FORCED_MOVES`` legal moves, or at most
    ``CLOSING_MOVES`` with pawns rammed (kings and pieces jammed behind them)."""
    if chess.popcount(board.occupied) <= 5:
        return True
    count = sum(1 for _ in islice(board.generate_legal_moves(), CLOSING_MOVES + 1))
    return count <= FORCED_MOVES or (count <= CLOSING_MOVES and bool(rammed(board)))


def _static(board: chess.Board, color: chess.Color) -> Unwinnability | None:
    """The verdicts that need no search: no mating material, or the game already over on the
    board (mate or stalemate). None otherwise."""
    side = _SIDE[color]
    if board.has_insufficient_material(color):
        return Unwinnability(side, UNWINNABLE, MATERIAL)
    if not any(board.generate_legal_moves()):
        if board.is_check():
            mated_loser = board.turn != color
            return Unwinnability(side, WINNABLE if mated_loser else UNWINNABLE, MATED)
        return Unwinnability(side, UNWINNABLE, STALEMATE)
    return None


@dataclass(frozen=True)
class DeadPosition:
    """FIDE Laws 5.2.2 for one position: ``dead`` (True only when proved for both sides),
    ``white`` and ``black``: each side's ``Unwinnability``; ``reason``: the termination word for
    the game when dead: ``"insufficient_material"`` when material alone proves it (python-chess
    ``is_insufficient_material``), else ``"dead_position"``."""

    dead: bool
    white: Unwinnability
    black: Unwinnability

    @property
    def reason(self) -> Termination:
        if self.white.reason == MATERIAL and self.black.reason == MATERIAL:
            return Termination.INSUFFICIENT_MATERIAL
        return Termination.DEAD_POSITION


def dead_position(board: chess.Board, nodes: int = PER_PLY_NODES) -> DeadPosition:
    """Whether ``board`` is a dead position (FIDE Laws 5.2.2): neither side can checkmate by any
    series of legal moves. ``nodes``: the search budget per side (0, the default: static and
    blockade verdicts only, cheap enough for every move; the search runs only for a side the
    cheaper stages leave open). Raises ValueError for a negative budget."""
    first = can_checkmate(board, WHITE, nodes)
    if not first.unwinnable:
        # The other side's verdict cannot make the position dead; do not pay for it.
        return DeadPosition(False, first, Unwinnability(BLACK, UNDETERMINED, BUDGET))
    second = can_checkmate(board, BLACK, nodes)
    return DeadPosition(second.unwinnable, first, second)


def forced_dead(board: chess.Board, nodes: int = PER_PLY_NODES, depth: int = PER_PLY_DEPTH) -> bool:
    """Whether every line of up to ``depth`` plies from ``board`` ends where neither side
    can mate any more (no mating material, a blockade, a mate of the side that would win, a
    stalemate): a dead position by force, e.g. when the only legal move captures the opponent's
    last piece (FIDE Laws 5.2.2). False proves nothing."""
    for color in chess.COLORS:
        if board.has_insufficient_material(color):
            continue
        if explore(board, color, max(nodes, 1), depth).status != EXHAUSTED:
            return False
    return True


class DeadPositionWatch:
    """The dead-position test (FIDE Laws 5.2.2) run after every move of a game, kept cheap: what
    python-chess's insufficient material (which the game checks itself) does not cover.

    - A blockade (``chess_blockade``) can only change when a pawn moves or a man is taken, so it
      is analysed after such moves only and remembered; in an open position the analysis stops
      after a bitboard test (about a microsecond).
    - A forced line to a dead position (``forced_dead``) is looked for only where one is likely:
      the side to move has at most ``FORCED_MOVES`` legal moves, counted only in a closed position
      (the blockade analysis ran to the end) or with at most ``FEW_MEN`` men beside the kings (a
      short forced line can only take a few men off the board).

    ``bench/bench_dead_position.py`` and ``bench/bench_rules.py`` measure the cost per move."""

    __slots__ = ("_closed", "_blocked")

    def __init__(self, board: chess.Board):
        self._note(board)

    def _note(self, board: chess.Board) -> None:
        blockade = analyse(board, _BOTH)
        self._closed = blockade is not None
        self._blocked = blockade is not None and not blockade.can_give_check(chess.WHITE) \
            and not blockade.can_give_check(chess.BLACK)

    def after_move(self, board: chess.Board, zeroing: bool) -> bool:
        """Whether the position on ``board``, just reached, is dead by blockade or by force.
        ``zeroing``: the move moved a pawn or took a man."""
        if zeroing:
            self._note(board)
        if self._blocked:
            return True
        if not (self._closed or chess.popcount(board.occupied) <= FEW_MEN + 2):
            return False
        if sum(1 for _ in islice(board.generate_legal_moves(), FORCED_MOVES + 1)) > FORCED_MOVES:
            return False
        return forced_dead(board)


_BOTH = (chess.WHITE, chess.BLACK)


__all__ = [
    "BLOCKED", "BUDGET", "DeadPosition", "HELPMATE", "MATED", "MATERIAL", "SEARCH_EXHAUSTED",
    "STALEMATE", "UNDETERMINED", "UNWINNABLE", "Unwinnability", "WINNABLE",
    "DeadPositionWatch", "can_checkmate", "dead_position", "forced_dead",
]
