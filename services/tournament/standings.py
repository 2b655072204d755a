"""Standings from recorded results: final, live, and provisional. Pure.

``standings(results, players, ...)`` folds the :class:`~services.tournament.results.GameResult` list
into ranked rows. It is recomputed from the results, so a standing changes the moment a result is
recorded. Games still in progress ("*") count as not yet played; with ``provisional=True`` each counts its
``provisional`` result instead ("as if it ended now", e.g. the arbiter's or the engine's reading of the
position as given by the caller), and the rows are marked provisional.

Rank order: the event's tie-breaks in the regulation's order (``tiebreaks``), PTS first (added when the
list does not start with it); ties share a rank. Feeds GET /api/standings.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from services.tournament.results import GameResult, field_from_results
from services.tournament.scoring import CLASSICAL, Scoring
from services.tournament.tiebreaks import TieBreakSpec, Value, compute_tiebreaks, parse_spec


@dataclass
class StandingRow:
    """One player: rank, start number, name, rating, points, games played over the board, games still
    in progress, tie-break values by their names (in order), and whether the row is provisional."""

    rank: int
    start_no: int
    name: str
    rating: int | None
    points: float
    played: int
    in_progress: int
    tiebreaks: dict[str, Value] = field(default_factory=dict)
    provisional: bool = False


def tiebreak_specs(tiebreaks: Sequence[str | TieBreakSpec]) -> list[TieBreakSpec]:
    """Parse the tie-break list, PTS first. Raises ValueError for an unknown tie-break."""
    specs = [t if isinstance(t, TieBreakSpec) else parse_spec(t) for t in tiebreaks]
    if not specs or specs[0].name != "PTS":
        specs.insert(0, parse_spec("PTS"))
    return specs


def standings(results: Iterable[GameResult], players: Mapping[int, tuple[str, int | None]] | Iterable[int], *,
              rounds: int | None = None, scoring: Scoring = CLASSICAL,
              tiebreaks: Sequence[str | TieBreakSpec] = ("PTS",), round_robin: bool = False,
              edition: str = "2026", lots: Mapping[int, int] | None = None,
              provisional: bool = False) -> list[StandingRow]:
    """Ranked standings (best first; equal ranks by start number).

    ``players``: start number -> (name, rating) or just start numbers. ``scoring`` the event's points
    (services/tournament/scoring.py; Norway: NORWAY). Raises ValueError for bad results (unknown player,
    unknown code, two results in a round) or an unknown tie-break.
    """
    results = list(results)
    specs = tiebreak_specs(tiebreaks)
    fld = field_from_results(players, results, rounds=rounds, scoring=scoring, provisional=provisional)
    win = scoring.round_points("1")[1]
    table = compute_tiebreaks(fld, specs, round_robin=round_robin, edition=edition, lots=lots, win=win,
                              draw=win / 2)
    running: dict[int, int] = {}
    for g in results:
        if not g.finished and not (provisional and g.provisional):
            for s in (g.white, g.black):
                if s is not None:
                    running[s] = running.get(s, 0) + 1
    rows = []
    for r in table.rows:
        p = fld.players[r.start_no]
        rows.append(StandingRow(
            rank=r.rank, start_no=r.start_no, name=p.name, rating=p.rating, points=p.points,
            played=sum(1 for e in p.entries if e.played), in_progress=running.get(r.start_no, 0),
            tiebreaks={s.text: r.values[s.text] for s in specs[1:]},
            provisional=provisional and any(not g.finished for g in results),
        ))
    return rows
