"""Which ply a clock press belongs to, by counting (issue "Nothing lost": presses reaching the log
before or after the board's moves, in any order, land on the same plies).

A press by side X ends X's move (FIDE Laws 6.2.1): the k-th press of X since the clock started is X's
k-th move made while the clock ran. ``GameState.timed_from`` is the number of plies made before the
clock started (0 in chess; 3 when a checkers event plays the three balloted moves before starting
the clock, 11-Man National 2017 X.A.d). Pure.
"""

from __future__ import annotations

from services.state.model import GameState


def moves_by(g: GameState, side: str, upto_ply: int) -> int:
    """How many of plies 1..``upto_ply`` ``side`` made."""
    return (upto_ply + 1) // 2 if side == g.first_side else upto_ply // 2


def clock_for_ply(g: GameState, ply: int) -> int | None:
    """The mover's time after ``ply`` (ms) from the presses folded so far, or None."""
    mover = g.mover(ply)
    k = moves_by(g, mover, ply) - moves_by(g, mover, g.timed_from or 0)
    presses = g.presses[mover]
    return presses[k - 1] if 1 <= k <= len(presses) else None


def ply_of_press(g: GameState, side: str, k: int) -> int:
    """The ply of ``side``'s ``k``-th press (k from 1), whether or not it has been played yet."""
    j = moves_by(g, side, g.timed_from or 0) + k  # side's j-th move overall
    return 2 * j - 1 if side == g.first_side else 2 * j


def completed_moves(g: GameState, side: str) -> int:
    """``side``'s completed moves (FIDE Laws 6.2.1: the press completes a move): its plies on the
    board whose press has come; all of its plies when the game has no clock reading at all."""
    if g.clock is None:
        return g.moves_by(side)
    return min(g.moves_by(side), moves_by(g, side, g.timed_from or 0) + len(g.presses[side]))
