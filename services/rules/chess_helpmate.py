"""A bounded helpmate search: can ``winner`` checkmate if both sides play for it (FIDE Laws 6.9,
5.2.2 "by any possible series of legal moves")?

Both sides cooperate: the question is whether *some* series of legal moves ends in a mate of the
loser's king, not what good play would do. ``explore`` walks the positions reachable from the
start depth first, each once, and returns a proof either way or an honest "don't know":

- ``FOUND``: a mate by ``winner`` was reached; the series of moves (UCI) that reaches it is kept,
  replayable by anyone;
- ``EXHAUSTED``: every position reachable from the start was visited (up to transpositions) and
  none is a mate by ``winner``, so none can be reached; this is what proves, for instance, that a
  side whose only legal move captures the opponent's last piece cannot be mated, or that two kings
  jammed behind their pawns never get out;
- ``OPEN`` (with a depth only): a line reached the depth without being settled, and the walk
  stopped there: in a free position this happens after a handful of positions, which is what makes
  a short forced-line test cheap;
- ``UNDETERMINED``: the node budget ran out first.

Leaves are settled early when ``winner`` can no longer mate for a static reason: python-chess's
``has_insufficient_material`` (a lone king; a lone knight or same-coloured bishops against no
pawns and nothing that could block its own king), or a blockade (``chess_blockade``) that leaves
``winner`` no square from which to give check. Those are proofs, so they keep the exhaustion
argument sound; a blockade can only change when a pawn moves or a man is taken, so it is only
looked at again after such a move.

Order (walking everything, where it matters for finding a mate soon; the idea of Ambrona's CHA,
steering towards a mating pattern, written here in our own terms): moves that make progress
towards a mate first, then ordinary moves, then moves that work against it. Progress for
``winner``: a capture, a pawn move, a promotion, a piece moving closer to the loser's king.
Progress for the loser: its king walking towards the corner chosen for the mate, and, when
``winner`` cannot mate without the loser's own men hemming its king in (a lone knight, bishops of
one colour), pawn moves and promotions to a minor piece. Working against it: the loser capturing,
``winner`` capturing the men it needs as blockers.

Limits: positions are told apart by the 9.2.2 key (``position_key``), so the 50/75-move and
repetition rules (9.3, 9.6) are not modelled; a found line may be long and artless (it proves a
mate exists, it does not play well). Pure: works on a copy of the board; no I/O, no clock reads.
"""

from __future__ import annotations

from dataclasses import dataclass

import chess

from services.rules.chess_blockade import analyse
from services.rules.chess_position import position_key

MAX_PLIES = 400  # the longest line a walk of everything follows (Python's recursion limit is 1000)
FOUND, EXHAUSTED, OPEN, UNDETERMINED = "found", "exhausted", "open", "undetermined"


def _knight_distances() -> list[list[int]]:
    table = [[0] * 64 for _ in range(64)]
    for start in chess.SQUARES:
        seen = {start: 0}
        frontier = [start]
        while frontier:
            nxt = []
            for square in frontier:
                for target in chess.SquareSet(chess.BB_KNIGHT_ATTACKS[square]):
                    if target not in seen:
                        seen[target] = seen[square] + 1
                        nxt.append(target)
            frontier = nxt
        for target, distance in seen.items():
            table[start][target] = distance
    return table


_KNIGHT_DISTANCE = _knight_distances()
_CORNERS = (chess.A1, chess.H1, chess.A8, chess.H8)


@dataclass(frozen=True)
class HelpmateResult:
    """``status``: ``FOUND``, ``EXHAUSTED`` or ``UNDETERMINED`` (module notes); ``line``: the moves
    (UCI) from the start to the mate when found, else empty; ``nodes``: positions visited."""

    status: str
    line: tuple[str, ...]
    nodes: int


class _OutOfNodes(Exception):
    pass


class _Open(Exception):
    pass


def cannot_mate_statically(board: chess.Board, winner: chess.Color, blockade_applies: bool = True) -> bool:
    """True when ``winner`` provably cannot mate in ``board`` without looking at moves: too little
    material (python-chess ``has_insufficient_material``) or, when ``blockade_applies``, a blockade
    with no square from which ``winner`` could check. False proves nothing."""
    if board.has_insufficient_material(winner):
        return True
    if blockade_applies:
        blockade = analyse(board, (winner,))
        if blockade is not None and not blockade.can_give_check(winner):
            return True
    return False


def needs_blockers(board: chess.Board, winner: chess.Color) -> bool:
    """Whether ``winner``'s own men could not mate a bare king: no pawns, and nothing but knights
    and bishops of one square colour beside a single knight (so the loser's men must block)."""
    own = board.occupied_co[winner]
    if board.pawns & own or (board.rooks | board.queens) & own:
        return False
    knights = board.knights & own
    bishops = board.bishops & own
    if knights and bishops:
        return False
    if knights:
        return chess.popcount(knights) == 1
    return not (bishops & chess.BB_LIGHT_SQUARES and bishops & chess.BB_DARK_SQUARES)


def _mating_corner(board: chess.Board, winner: chess.Color) -> chess.Square:
    """The corner the loser's king is walked to: of the winning bishops' colour when they are all on
    one colour, else the one nearest to the loser's king."""
    king = board.king(not winner)
    assert king is not None  # a legal position has both kings
    bishops = board.bishops & board.occupied_co[winner]
    corners: tuple[chess.Square, ...] = _CORNERS
    if bishops and not (bishops & chess.BB_LIGHT_SQUARES and bishops & chess.BB_DARK_SQUARES):
        dark = bool(bishops & chess.BB_DARK_SQUARES)
        corners = tuple(c for c in _CORNERS if bool(chess.BB_SQUARES[c] & chess.BB_DARK_SQUARES) == dark)
    return min(corners, key=lambda c: chess.square_distance(c, king))


def explore(board: chess.Board, winner: chess.Color, node_limit: int,
            depth: int | None = None) -> HelpmateResult:
    """Visit every position reachable from ``board`` (each once, depth first, cheapest moves first)
    looking for a mate by ``winner``. With ``depth``, only lines of up to ``depth`` plies are
    followed and the walk stops at the first line that reaches that depth without being settled
    (``OPEN``: nothing proved; this makes the call cheap wherever play is free). Without it every
    line is followed to its end. ``FOUND`` (with the line) and ``EXHAUSTED`` are proofs;
    ``UNDETERMINED``: ``node_limit`` positions were visited first. Raises ValueError for a limit
    below 1 or a negative depth."""
    if node_limit < 1:
        raise ValueError(f"node_limit must be at least 1, got {node_limit}")
    if depth is not None and depth < 0:
        raise ValueError(f"depth must not be negative, got {depth}")
    search = _Search(board, winner, node_limit)
    if depth is None:
        return search.walk(_EVERYTHING, MAX_PLIES)
    return search.walk(_FIRST_OPEN, depth)


# How ``_Search.walk`` spends its budget: plies with a stop at the first unsettled line (``explore``
# with a depth), or every position once (``explore`` without).
_FIRST_OPEN, _EVERYTHING = "first_open", "everything"


class _Search:
    def __init__(self, board: chess.Board, winner: chess.Color, node_limit: int):
        self.board = board.copy(stack=False)
        self.winner = winner
        self.limit = node_limit
        self.nodes = 0
        self.corner = _mating_corner(board, winner)
        self.blockers = needs_blockers(board, winner)
        self.seen: dict = {}
        self.cut = False
        self.line: list[chess.Move] = []

    def walk(self, mode: str, budget: int) -> HelpmateResult:
        """One walk from the start, ``budget`` plies deep at most. ``UNDETERMINED`` when a line
        was cut short (``_EVERYTHING``: longer than ``MAX_PLIES``)."""
        self.seen = {}
        self.cut = False
        try:
            found = self._walk(mode, budget, 0, cannot_mate_statically(self.board, self.winner))
        except _OutOfNodes:
            return HelpmateResult(UNDETERMINED, (), self.nodes)
        except _Open:
            return HelpmateResult(OPEN, (), self.nodes)
        if found:
            return HelpmateResult(FOUND, tuple(move.uci() for move in reversed(self.line)), self.nodes)
        if self.cut:
            return HelpmateResult(UNDETERMINED, (), self.nodes)
        return HelpmateResult(EXHAUSTED, (), self.nodes)

    def _walk(self, mode: str, budget: int, ply: int, blocked: bool) -> bool:
        """True when a mate by the winner lies within ``budget`` of the current position (the
        line is then in ``self.line``, last move first). ``blocked``: the static cut-off holds
        here (a move that moves no pawn and takes nothing cannot change it, so it is only
        recomputed after one that does). Sets ``self.cut`` when a line was left unfinished;
        raises ``_Open`` for it in ``_FIRST_OPEN``, ``_OutOfNodes`` past the node limit."""
        if self.nodes >= self.limit:
            raise _OutOfNodes
        self.nodes += 1
        board = self.board
        key = position_key(board)
        before = self.seen.get(key)
        # Walking everything, a position once seen is done; else one seen with at least as many
        # plies to go is.
        if before is not None and (mode == _EVERYTHING or before >= budget):
            return False
        self.seen[key] = budget
        if blocked:
            return False
        moves = list(board.generate_legal_moves())
        if not moves:
            return board.turn != self.winner and board.is_check()
        if budget <= 0 or ply >= MAX_PLIES:
            if mode == _FIRST_OPEN:
                raise _Open
            self.cut = True
            return False
        # Stopping at the first open line, any order does; else most promising first.
        ordered = moves if mode == _FIRST_OPEN else [move for _, _, move in sorted(self._costed(moves))]
        for move in ordered:
            zeroing = board.is_zeroing(move)
            board.push(move)
            try:
                child_blocked = cannot_mate_statically(board, self.winner) if zeroing else False
                if self._walk(mode, budget - 1, ply + 1, child_blocked):
                    self.line.append(move)
                    return True
            finally:
                board.pop()
        return False

    def _costed(self, moves: list[chess.Move]) -> list[tuple[int, int, chess.Move]]:
        """``(rank, tie-break, move)`` for each move: 0 progress, 1 ordinary, 2 against (module
        notes)."""
        board = self.board
        winner = self.winner
        out = []
        if board.turn == winner:
            target = board.king(not winner)
            assert target is not None  # a legal position has both kings
            for index, move in enumerate(moves):
                if move.promotion:
                    cost = 0 if move.promotion in (chess.QUEEN, chess.KNIGHT) else 1
                elif board.is_capture(move):
                    cost = 2 if self.blockers else 0
                elif board.pawns & chess.BB_SQUARES[move.from_square]:
                    cost = 0
                else:
                    cost = 0 if self._closer(move, target) else 1
                out.append((cost, index, move))
        else:
            corner = self.corner
            king = board.king(board.turn)
            for index, move in enumerate(moves):
                if board.is_capture(move):
                    cost = 2
                elif move.from_square == king:
                    cost = 0 if self._closer(move, corner) else 1
                elif self.blockers and (move.promotion in (chess.KNIGHT, chess.BISHOP) or
                                        (not move.promotion and board.pawns & chess.BB_SQUARES[move.from_square])):
                    cost = 0
                elif move.promotion:
                    cost = 2
                else:
                    cost = 0 if self.blockers and self._closer(move, corner) else 1
                out.append((cost, index, move))
        return out

    def _closer(self, move: chess.Move, target: chess.Square) -> bool:
        """Whether ``move`` brings the moved piece closer to ``target`` (knights by jumps, the
        others by king steps)."""
        if self.board.knights & chess.BB_SQUARES[move.from_square]:
            return _KNIGHT_DISTANCE[move.to_square][target] < _KNIGHT_DISTANCE[move.from_square][target]
        return chess.square_distance(move.to_square, target) < chess.square_distance(move.from_square, target)
