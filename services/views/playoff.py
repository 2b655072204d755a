"""The play-off as the standings read it: where it stands (``services.tournament.playoff_walk`` over
the stages the log recorded), the final ranking it makes, and which prizes wait for it. Pure.

* :func:`playoff_step`: None when no play-off is due (no rule, the event not over, one leader);
  otherwise the walk's step (the next stage, the stage being played, the arbiter's turn, decided).
* :func:`final_rows`: the standings with the tied players in the play-off's order once it has
  decided (ranks 1..k, each its own place; ``playoff`` says how); the rows keep the main event's
  points and tie-breaks (the crosstable is the main event's).
* :func:`prize_pending`: the players whose places the play-off decides, while it has not: their
  prizes are not paid yet ("Places decided by a play-off are paid by its result, never by tie-break
  first").
"""

from __future__ import annotations

import dataclasses

from services.tournament.playoff_walk import Decided, Step, walk
from services.tournament.standings import StandingRow


def _tie(view) -> list[int]:
    """The players the play-off is for: those recorded when it began, else those tied for first."""
    po = view.state.tournament.playoff
    return list(po.tied) if po.stages else view.tied_for_first()


def playoff_step(view) -> Step | None:
    """The play-off's step (module docstring) for ``view`` (a ``TournamentView``)."""
    t = view.tournament
    if t is None or t.regulations.playoff == "none" or not view.finished():
        return None
    tied = _tie(view)
    if len(tied) < 2:
        return None
    po = view.state.tournament.playoff
    names = {s: p["name"] for s, p in view.players.items()}
    return walk(t.regulations.playoff, tied, po.records(), names=names, lots=po.order_lots)


def final_rows(view, rows: list[StandingRow]) -> list[StandingRow]:
    """``rows`` (the main event's standings) with the play-off's order on top once it has decided."""
    step = playoff_step(view)
    if not isinstance(step, Decided):
        return rows
    by_no = {r.start_no: r for r in rows}
    top = [dataclasses.replace(by_no[s], rank=i) for i, s in enumerate(step.order, start=1)]
    rest = [r for r in rows if r.start_no not in step.order]
    return top + rest


def prize_pending(view) -> set[int]:
    """Start numbers whose prizes wait for the play-off (empty when none is due or it decided)."""
    step = playoff_step(view)
    if step is None or isinstance(step, Decided):
        return set()
    return set(_tie(view))


def decided_order(view) -> list[int]:
    """The play-off's order (winner first) once it decided; empty otherwise."""
    step = playoff_step(view)
    return list(step.order) if isinstance(step, Decided) else []
