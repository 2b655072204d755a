"""Folding the penalties the Laws give (``penalty_proposed``): each offence is counted per player
and game (FIDE Laws 7.5.5: "for the second completed illegal move by the same player ..."; 9.5.3),
and a press that completed no ply is taken out of the per-ply clock record, so the side's next
press belongs to its next move (``services.state.plies`` matches presses to plies by counting): a
press without a move (7.5.3) at once; the press that completed an illegal move (7.5.1) when the
replacement move is played (``void_at_resume``, from the ``move_played`` that lifts the hold). An
illegal move that stands instead (A.5.2) keeps its press: it is a ply of the record."""

from __future__ import annotations

from services.events import PenaltyProposed
from services.state.changes import Changes
from services.state.hall import HallState, folds
from services.state.plies import ply_of_press



@folds(PenaltyProposed)
def _penalty(state: HallState, ev: PenaltyProposed, at: int, ch: Changes) -> None:
    g = state.games[ev.game]
    counts = g.offences.setdefault(ev.side, {})
    counts[ev.offence] = counts.get(ev.offence, 0) + 1
    k = ev.presses
    if k is None:
        return
    g.reported.add(("press_without_move", ev.side, k))  # never proposed twice for one press
    board = state.boards.get(g.board)
    if ev.how == "illegal_move" and board is not None and board.game == g.id and board.held \
            and board.held_by == ev.side:
        board.held_press = k  # taken back with the replacement move, kept if the move stands
    elif ev.how == "press_without_move":
        void_press(g, ev.side, k, at)


def void_press(g, side: str, k: int, at: int) -> None:
    """``side``'s ``k``-th press completed no ply: out of the per-ply record and the clock model's
    count (unless a ply on the board owns it by now)."""
    if not 1 <= k <= len(g.presses[side]) or ply_of_press(g, side, k) <= g.ply:
        return
    del g.presses[side][k - 1]
    if g.watch is not None:
        g.watch.void_press(side, at)


def void_at_resume(state: HallState, g, mover: str, at: int) -> None:
    """The replacement move of an illegal move that a press completed (7.5.1, 7.5.5): that press
    completed no ply (called by the ``move_played`` fold before the ply is added)."""
    board = state.boards.get(g.board)
    if board is not None and board.game == g.id and board.held and board.held_by == mover \
            and board.held_press is not None:
        void_press(g, mover, board.held_press, at)
