"""Folding the engine's evaluations (``position_evaluated``, written by ``venue analyse``).

An evaluation is kept only for the position the game stands in when it is folded: its ``ply`` is
the game's and its ``fen`` names the same position (placement, side to move, castling, en passant;
the move counters aside). In the public fold, which takes the log's entries only once the broadcast
delay has passed (``services.views.delay``), the move reaching that position is therefore always
public before its evaluation is; an evaluation of a position the game has already left (the analyser
was slower than the players) is dropped rather than shown against a later move.
"""

from __future__ import annotations

from services.events import PositionEvaluated
from services.state.changes import Changes
from services.state.fold import HallState, folds


def same_position(a: str, b: str) -> bool:
    """Whether FENs ``a`` and ``b`` name one position (their first four fields: FIDE Laws 9.2.3's
    "same position"; the move counters are no part of it)."""
    return a.split()[:4] == b.split()[:4]


@folds(PositionEvaluated)
def _evaluated(state: HallState, ev: PositionEvaluated, at: int, ch: Changes) -> None:
    g = state.games[ev.game]
    if ev.ply != g.ply or not same_position(ev.fen, g.fen):
        return  # a position the game has left (or, corrected, never reached): nothing to show
    g.evaluation = ev
    ch.game(g.id, "evaluation")
