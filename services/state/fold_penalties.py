"""Folding the penalties the Laws give (``penalty_proposed``): each offence is counted per player
and game (FIDE Laws 7.5.5: "for the second completed illegal move by the same player ..."; 9.5.3),
and the press that completed an illegal move, or that was made without a move (7.5.3), is taken
out of the per-ply clock record: it completed no ply, so the side's next press belongs to its next
move (``services.state.plies`` matches presses to plies by counting)."""

from __future__ import annotations

from services.events import PenaltyProposed
from services.state.changes import Changes
from services.state.hall import HallState, folds
from services.state.plies import ply_of_press

VOIDING = ("illegal_move", "press_without_move")  # ``how``: a press that completed no legal move


@folds(PenaltyProposed)
def _penalty(state: HallState, ev: PenaltyProposed, at: int, ch: Changes) -> None:
    g = state.games[ev.game]
    counts = g.offences.setdefault(ev.side, {})
    counts[ev.offence] = counts.get(ev.offence, 0) + 1
    k = ev.presses
    if ev.how not in VOIDING or k is None:
        return
    g.reported.add(("press_without_move", ev.side, k))  # never proposed twice for one press
    if not 1 <= k <= len(g.presses[ev.side]):
        return
    if ply_of_press(g, ev.side, k) <= g.ply:
        return  # that press belongs to a ply on the board by now: it completed a move
    del g.presses[ev.side][k - 1]
    if g.watch is not None:
        g.watch.void_press(ev.side, at)
