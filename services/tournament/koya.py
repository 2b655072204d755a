"""Koya System (KS) and the Koya System Extended: FIDE C.07 (article number to verify).

Pure. KS is the points a player scored against the opponents who finished with at least half of the
maximum possible score (50 %). The maximum counts the games a player could play: in a round robin with an
odd number of players every player sits out one round per cycle, and a player who was never paired does
not count. The Extended system moves the limit by whole half-points (``limit_offset`` -0.5, -1.0, ...;
C.07 "KS/L-n"), until the tie is broken when applied step by step by the event.
"""

from __future__ import annotations

from services.tournament.model import Field


def koya_limit(field: Field, *, round_robin: bool, percent: float = 50.0, limit_offset: float = 0.0,
               win: float = 1.0) -> float:
    """The score an opponent must reach to count (tie-break points)."""
    max_games = field.rounds
    if round_robin:
        n = len(field.players)
        if n and field.rounds % n == 0:  # odd number of players: one bye per cycle
            max_games -= field.rounds // n
        max_games -= sum(1 for p in field.players.values()
                         if all(e.opponent is None and not e.pab for e in p.entries))
    return percent * win * max_games / 100.0 + limit_offset


def koya(field: Field, *, round_robin: bool, percent: float = 50.0, limit_offset: float = 0.0,
         win: float = 1.0) -> dict[int, float]:
    """KS for every player, by start number. Rounds with a scheduled opponent count, forfeits included."""
    lim = koya_limit(field, round_robin=round_robin, percent=percent, limit_offset=limit_offset, win=win)
    totals = {sno: p.tb_points for sno, p in field.players.items()}
    return {
        sno: sum(e.tb_points for e in p.entries if e.opponent is not None and totals[e.opponent] >= lim)
        for sno, p in field.players.items()
    }
