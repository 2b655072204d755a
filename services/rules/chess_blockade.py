"""Blocked chess positions: which squares each side's men can ever reach, and whether a side's
pieces can ever give check to the other king (FIDE Laws 5.2.2 dead position, 6.9 flag fall).

The question "can this side checkmate by any possible series of legal moves" cannot be answered by
material alone when pawns lock the board: with a closed chain of rammed pawns that no piece can
attack, K+B+pawns v K+B+pawns may be dead at once (5.2.2), while the same material with one open
file is not. This module answers the structural half of that question without playing moves, in
the manner of the "semi-static" stage of Ambrona's Chess Unwinnability Analyzer (CHA, "A Practical
Algorithm for Chess Unwinnability"): every claim it makes is an over-approximation of what can
ever happen, so a "no" (this side can never give check) is a proof, and a "maybe" proves nothing.

How (all on 64-bit bitboards, python-chess's square numbering):

1. Guess which men are *frozen*, i.e. will never move and never be captured: every pawn standing
   right behind another pawn (a rammed pawn, or a pawn behind its own blocked pawn) and every piece
   (not a king) whose every step lands on a man of its own side. Frozen men are walls.
2. With those walls, flood-fill where everything else could ever stand, ignoring every other man
   (over-approximation): each piece type by its own steps (rook: orthogonal steps, bishop:
   diagonal, queen and king: both, knight: jumps); each unfrozen pawn by its pushes and by
   captures wherever an enemy man could stand, except that it cannot push onto the square of an
   enemy pawn standing there now unless that pawn could leave it other than by pushing into the
   square it faces (by a capture, or by being captured); a pawn that can reach its last rank by
   everything a promoted queen or knight could reach from there. A king never enters a square a
   frozen enemy pawn attacks. The two sides' fills depend on each other (where a pawn may capture)
   and are settled together.
3. Drop from the frozen set every man the fill shows could move after all: a pawn whose square
   ahead is not a wall or that could capture, a piece with a step to a square not held by its own
   frozen men, any man an enemy man could capture (an enemy king only where none of the man's own
   frozen men guards it). Repeat 2-3 until nothing changes (the frozen set only shrinks).
4. What is left is consistent: before the first frozen man could move, every man stays inside its
   fill, and from inside its fill nothing can reach a frozen man, so none ever moves. Then a side
   can never check the other king (and so never checkmate) when none of its pieces, promoted
   pieces or pawns can ever attack a square of the other king's fill. A pawn checks only from a
   square it moves to (a king may not step into its attack), or the king already in check.

A second, narrower proof covers a side whose only checking men are bishops of one square colour
(``_bishops_cannot_mate``): a king checked by such a bishop always has the king-step squares of
the other colour around it, so the mate needs each of them taken away: by the edge, a wall, a
square the mated king can never enter, one of its own men that can get there, or the mating
side's king.

Limits (stated so that no caller reads more into a "maybe"): the fill ignores which squares are
attacked by anything but frozen pawns, so pieces that are in fact trapped by other pieces (a rook
shut in behind its own king) count as free; a position with a legal en passant capture is not
analysed; the result says nothing about stalemate or repetition. The search in
``services.rules.chess_helpmate`` covers what this cannot see.

Cost: an open position (a rook with an open file, a free knight) is dismissed by ``analyse(board,
prove)`` after a bitboard test (about a microsecond); a closed one costs some hundreds of
microseconds (bench/bench_dead_position.py).
"""

from __future__ import annotations

from dataclasses import dataclass

import chess

_ALL = chess.BB_ALL
_NOT_A = ~chess.BB_FILE_A & _ALL
_NOT_H = ~chess.BB_FILE_H & _ALL
_NOT_AB = ~(chess.BB_FILE_A | chess.BB_FILE_B) & _ALL
_NOT_GH = ~(chess.BB_FILE_G | chess.BB_FILE_H) & _ALL
_LAST_RANK = {chess.WHITE: chess.BB_RANK_8, chess.BLACK: chess.BB_RANK_1}


def _west(b: int) -> int:
    return (b >> 1) & _NOT_H


def _east(b: int) -> int:
    return (b << 1) & _NOT_A


def _north(b: int) -> int:
    return (b << 8) & _ALL


def _south(b: int) -> int:
    return b >> 8


def _orthogonal_step(b: int) -> int:
    """``b`` and every square one rook step from it."""
    return b | _west(b) | _east(b) | _north(b) | _south(b)


def _diagonal_step(b: int) -> int:
    """``b`` and every square one bishop step from it."""
    sides = _west(b) | _east(b)
    return b | _north(sides) | _south(sides)


def _king_step(b: int) -> int:
    """``b`` and every square one king (or queen) step from it."""
    row = b | _west(b) | _east(b)
    return row | _north(row) | _south(row)


def _knight_step(b: int) -> int:
    """``b`` and every square a knight's jump from it."""
    one = ((b >> 1) & _NOT_H) | ((b << 1) & _NOT_A)
    two = ((b >> 2) & _NOT_GH) | ((b << 2) & _NOT_AB)
    return b | (((one << 16) | (one >> 16) | (two << 8) | (two >> 8)) & _ALL)


def _any_step(b: int) -> int:
    """What a promoted piece (queen or knight, which between them reach everything the others
    do) can step to."""
    return _king_step(b) | _knight_step(b)


_STEPS = {
    chess.KNIGHT: _knight_step, chess.BISHOP: _diagonal_step, chess.ROOK: _orthogonal_step,
    chess.QUEEN: _king_step, chess.KING: _king_step,
}


def _fill(start: int, passable: int, step) -> int:
    """Every square reachable from ``start`` by repeated ``step``s through ``passable`` squares
    (the start squares included)."""
    reach = start
    while True:
        grown = reach | (step(reach) & passable)
        if grown == reach:
            return reach
        reach = grown


def _forward(b: int, color: chess.Color) -> int:
    return _north(b) if color else _south(b)


def _pawn_attacks(b: int, color: chess.Color) -> int:
    sides = _west(b) | _east(b)
    return _north(sides) if color else _south(sides)


@dataclass(frozen=True)
class Reach:
    """The over-approximated reach of one side, with the ``frozen`` men (both sides') as walls.

    ``pieces[piece_type]``: squares its unfrozen pieces of that type (knight .. queen) could ever
    stand on; ``promoted``: squares a piece promoted from one of its pawns could stand on;
    ``cones``: per unfrozen pawn, ``(start, squares)`` (bitboards: where it stands, where it could
    ever stand); ``pawn_attacks``: squares its pawns (frozen or not) could ever attack;
    ``pawn_checks``: squares on which its pawns could ever give check: those attacked from a square
    a pawn moves to (a pawn that stays where it is never checks a king that was not already in
    check there: the king may not step into its attack), and the enemy king's square when a pawn
    already checks it; ``king``: squares its king could ever stand on."""

    pieces: dict
    promoted: int
    cones: tuple
    pawn_attacks: int
    pawn_checks: int
    king: int

    @property
    def pawns(self) -> int:
        """Squares its unfrozen pawns could stand on."""
        out = 0
        for _, cone in self.cones:
            out |= cone
        return out

    @property
    def presence(self) -> int:
        """Squares where a man of this side other than the king could ever stand."""
        out = self.promoted | self.pawns
        for squares in self.pieces.values():
            out |= squares
        return out

    def captures(self, target: int) -> bool:
        """Whether a man of this side other than the king could ever move onto a square of
        ``target`` (a capture, when an enemy stands there)."""
        if target & self.pawn_attacks:
            return True
        if self.promoted and target & _any_step(self.promoted):
            return True
        for piece_type, squares in self.pieces.items():
            if squares and target & _STEPS[piece_type](squares):
                return True
        return False

    def checks(self) -> int:
        """Squares on which this side could ever give check: where its pieces could stand (a
        piece attacking a square that is not a wall could also move to it) and what its pawns
        could attack."""
        out = self.promoted | self.pawn_checks
        for squares in self.pieces.values():
            out |= squares
        return out

    def only_bishops_check(self, target: int) -> bool:
        """Whether the men of this side that could check on ``target`` are at most bishops of
        one square colour (the case ``_bishops_cannot_mate`` can still settle)."""
        if self.pawn_checks & target or self.promoted & target:
            return False
        for piece_type in (chess.KNIGHT, chess.ROOK, chess.QUEEN):
            if self.pieces[piece_type] & target:
                return False
        bishops = self.pieces[chess.BISHOP] & target
        return not (bishops & chess.BB_LIGHT_SQUARES and bishops & chess.BB_DARK_SQUARES)


@dataclass(frozen=True)
class Blockade:
    """The result of the analysis of one position: ``frozen`` (men that can never move nor be
    captured, both sides), and per side (``chess.WHITE``/``chess.BLACK``) its ``Reach``."""

    frozen: int
    reach: dict

    def can_give_check(self, color: chess.Color) -> bool:
        """False when ``color`` can never give a check that mates the other king (FIDE Laws
        5.2.2, 6.9): no square it could check on lies where that king could ever stand, or only
        bishops of one colour could check and no such mate exists (``_bishops_cannot_mate``).
        True means "not proved impossible"."""
        target = self.reach[not color].king
        if not self.reach[color].checks() & target:
            return False
        return not _bishops_cannot_mate(self, color)


def rammed(board: chess.Board) -> int:
    """The white pawns that stand right in front of a black pawn (bitboard)."""
    return _south(board.pawns & board.occupied_co[chess.BLACK]) & board.pawns & board.occupied_co[chess.WHITE]


def analyse(board: chess.Board, prove: tuple = ()) -> Blockade | None:
    """The blockade analysis of ``board`` (module notes), or None when it does not apply: no pawn
    rammed against an enemy pawn (nothing can be frozen), or an en passant capture is legal.
    ``prove``: the colours the caller needs proved unable to check; None as soon as one of them
    plainly can (``_plainly_checks`` before any fill; after the first round, a knight, rook,
    queen, promoted piece, pawn or bishops of both colours able to check: later rounds only let
    men reach further), which keeps a call for an open position to a few microseconds. Pure; the
    board is not changed."""
    if not rammed(board):
        return None
    if board.ep_square is not None and board.has_legal_en_passant():
        return None
    if any(_plainly_checks(board, color) for color in prove):
        return None
    pawns = board.pawns
    # First guess: pawns with a pawn right in front, and the pieces hemmed in by their own men.
    # Only shrinks from here.
    frozen = (pawns & board.occupied_co[chess.WHITE] & _south(pawns)) \
        | (pawns & board.occupied_co[chess.BLACK] & _north(pawns)) | _hemmed(board)
    first = True
    while True:
        reach = _round(board, frozen)
        if first and any(reach[color].checks() & reach[not color].king
                         and not reach[color].only_bishops_check(reach[not color].king) for color in prove):
            return None
        first = False
        thawed = _thawed(board, frozen, reach)
        if not thawed:
            return Blockade(frozen, reach)
        frozen &= ~thawed


def _hemmed(board: chess.Board) -> int:
    """The pieces (not kings) every step of which lands on a man of their own side now."""
    out = 0
    for color in chess.COLORS:
        own = board.occupied_co[color]
        for piece_type in (chess.KNIGHT, chess.BISHOP, chess.ROOK, chess.QUEEN):
            bb = board.pieces_mask(piece_type, color)
            while bb:
                square = bb & -bb
                bb ^= square
                if not _STEPS[piece_type](square) & ~square & ~own:
                    out |= square
    return out


def _plainly_checks(board: chess.Board, color: chess.Color) -> bool:
    """A quick sign that the analysis cannot prove ``color`` unable to check: it has a rook or
    queen and a file holds no pawn (the piece runs the file's length), or a knight with a square
    to jump to now (a knight is stopped by no wall, and where enemy pawns could take it, they are
    free to capture). Misses only cost completeness: the caller then gets None."""
    own = board.occupied_co[color]
    if (board.rooks | board.queens) & own:
        pawn_files = board.pawns
        pawn_files |= pawn_files >> 32
        pawn_files |= pawn_files >> 16
        pawn_files |= pawn_files >> 8
        if pawn_files & 0xFF != 0xFF:
            return True
    knights = board.knights & own
    while knights:
        square = knights & -knights
        knights ^= square
        if _knight_step(square) & ~square & ~own:
            return True
    return False


def _defended(board: chess.Board, frozen: int, color: chess.Color) -> int:
    """Squares ``color``'s frozen men guard for good (an enemy king can never take there)."""
    own_frozen = frozen & board.occupied_co[color]
    defended = _pawn_attacks(own_frozen & board.pawns, color)
    for piece_type in (chess.KNIGHT, chess.BISHOP, chess.ROOK, chess.QUEEN):
        bb = own_frozen & board.pieces_mask(piece_type, color)
        while bb:
            square = bb & -bb
            bb ^= square
            defended |= _STEPS[piece_type](square) & ~square
    return defended


def _round(board: chess.Board, frozen: int) -> dict:
    """Both sides' ``Reach`` with ``frozen`` men as walls, settled together (a pawn's captures and
    its way past an enemy pawn depend on where the enemy can stand)."""
    passable = ~frozen & _ALL
    fixed = {}
    for color in chess.COLORS:
        pieces = {}
        for piece_type in (chess.KNIGHT, chess.BISHOP, chess.ROOK, chess.QUEEN):
            start = board.pieces_mask(piece_type, color) & ~frozen
            pieces[piece_type] = _fill(start, passable, _STEPS[piece_type]) if start else 0
        enemy_frozen_attacks = _pawn_attacks(frozen & board.pawns & board.occupied_co[not color], not color)
        king = _fill(board.kings & board.occupied_co[color], passable & ~enemy_frozen_attacks, _king_step)
        fixed[color] = (pieces, king, _defended(board, frozen, color))
    reach = {color: _reach(board, color, frozen, fixed[color], None, None) for color in chess.COLORS}
    while True:
        again = {color: _reach(board, color, frozen, fixed[color], reach[not color], reach[color])
                 for color in chess.COLORS}
        if again == reach:
            return reach
        reach = again


def _reach(board: chess.Board, color: chess.Color, frozen: int, fixed: tuple,
           enemy: Reach | None, before: Reach | None) -> Reach:
    """``color``'s ``Reach``: the piece and king fills (``fixed``, they do not depend on the enemy)
    and the pawn cones given the ``enemy``'s reach and this side's own reach ``before`` (both from
    the previous pass; None on the first: the pawns then only push where nothing stands in the
    way)."""
    pieces, king, _ = fixed
    own = board.occupied_co[color]
    enemy_color = not color
    passable = ~frozen & _ALL
    last = _LAST_RANK[color]
    enemy_men = board.occupied_co[enemy_color] & ~board.kings
    enemy_pawns_free = board.pawns & board.occupied_co[enemy_color] & ~frozen
    if enemy is None:
        capturable = enemy_men
        enemy_cones = {}
        leaves = 0
    else:
        capturable = enemy.presence | enemy_men
        enemy_cones = dict(enemy.cones)
        leaves = _leaving(board, enemy_color, frozen, enemy, before) & enemy_pawns_free
    cones = []
    bb = board.pawns & own & ~frozen
    while bb:
        start = bb & -bb
        bb ^= start
        cones.append((start, _cone(start, color, passable, capturable, enemy_pawns_free, leaves, enemy_cones)))
    all_cones = moved = 0
    for start, cone in cones:
        all_cones |= cone
        moved |= cone & ~start
    promotion_squares = all_cones & last
    promoted = _fill(promotion_squares, passable, _any_step) if promotion_squares else 0
    pawn_attacks = _pawn_attacks((all_cones | (frozen & own & board.pawns)) & ~last, color)
    pawn_checks = _pawn_attacks(moved & ~last, color) \
        | (pawn_attacks & board.kings & board.occupied_co[enemy_color])
    return Reach(pieces, promoted, tuple(cones), pawn_attacks, pawn_checks, king)


def _leaving(board: chess.Board, color: chess.Color, frozen: int, own: Reach, enemy: Reach | None) -> int:
    """The squares of ``color``'s pawns that could leave their square other than by a push: by a
    capture (an enemy man could stand where they capture) or by being captured there (``enemy``:
    the capturing side's reach; None: nothing known yet)."""
    if enemy is None:
        return 0
    out = 0
    enemy_men = board.occupied_co[not color] & ~board.kings
    targets = enemy.presence | enemy_men
    defended = _defended(board, frozen, color)
    enemy_king_steps = _king_step(enemy.king)
    for start, _ in own.cones:
        if _pawn_attacks(start, color) & targets or enemy.captures(start) \
                or (start & enemy_king_steps and not start & defended):
            out |= start
    return out


def _cone(start: int, color: chess.Color, passable: int, capturable: int, enemy_pawns: int,
          leaves: int, enemy_cones: dict) -> int:
    """Where the pawn on ``start`` could ever stand: pushes through ``passable`` squares, captures
    onto ``capturable`` ones; a push onto a square an enemy pawn stands on now needs that pawn
    gone: it ``leaves`` by a capture or is captured, or (for a push from a square other than the
    start) it pushed on before this pawn arrived behind it (its cone holds that square)."""
    last = _LAST_RANK[color]
    cone = start
    while True:
        movable = cone & ~last
        ahead = _forward(movable, color) & passable
        blocked = ahead & enemy_pawns & ~leaves
        grown = cone | (ahead & ~blocked) | (_pawn_attacks(movable, color) & capturable)
        while blocked:
            target = blocked & -blocked
            blocked ^= target
            behind = _forward(target, not color)
            if behind != start and behind & cone and behind & enemy_cones.get(target, 0):
                grown |= target
        if grown == cone:
            return cone
        cone = grown


def _thawed(board: chess.Board, frozen: int, reach: dict) -> int:
    """The frozen men the fills show could move or be captured after all."""
    thawed = 0
    for color in chess.COLORS:
        enemy = reach[not color]
        enemy_men = board.occupied_co[not color] & ~board.kings
        own_frozen = frozen & board.occupied_co[color]
        defended = _defended(board, frozen, color)
        enemy_king_steps = _king_step(enemy.king)
        bb = own_frozen
        while bb:
            square = bb & -bb
            bb ^= square
            if square & board.pawns:
                if not _forward(square, color) & frozen:
                    thawed |= square  # the square ahead can be emptied
                    continue
                if _pawn_attacks(square, color) & (enemy.presence | enemy_men):
                    thawed |= square  # it could capture
                    continue
            else:
                piece = board.piece_type_at(square.bit_length() - 1)
                assert piece is not None  # own_frozen holds only occupied squares
                steps = _STEPS[piece](square) & ~square
                if steps & ~own_frozen:
                    thawed |= square  # a piece with a square to go to
                    continue
            if enemy.captures(square) or (square & enemy_king_steps and not square & defended):
                thawed |= square  # it could be captured
    return thawed


def _bishops_cannot_mate(blockade: Blockade, color: chess.Color) -> bool:
    """True when the men of ``color`` that could check the other king are bishops of one square
    colour only, and around every square where such a bishop could check that king there is a
    square of the other colour the king could step to that nothing could take away: not the
    mating side's king (which could stand next to it), nor a man of the mated side (which could
    block it). Sound in the same sense as the fill (module notes)."""
    own = blockade.reach[color]
    enemy = blockade.reach[not color]
    target = enemy.king
    if not own.only_bishops_check(target):
        return False
    checkers = own.checks() & target
    bishop_colour = chess.BB_LIGHT_SQUARES if checkers & chess.BB_LIGHT_SQUARES else chess.BB_DARK_SQUARES
    other_colour = ~bishop_colour & _ALL
    covered = _king_step(own.king) | enemy.presence
    candidates = checkers
    while candidates:
        square = candidates & -candidates
        candidates ^= square
        escapes = _king_step(square) & ~square & other_colour & target
        if not escapes & ~covered:
            return False  # every escape square could be taken away: a mate is not excluded
    return True
