"""Average Rating of Opponents (ARO): FIDE C.07 (rating tie-breaks; article number to verify). Pure.

The mean rating of the opponents met over the board (unplayed rounds do not count), rounded to the
nearest whole number, halves up. As FIDE's TieBreakServer does, ARO is given only when every player of
the event has a rating; otherwise (and for a player with no rated game) it is None.
"""

from __future__ import annotations

import math

from services.tournament.model import Field


def average_rating_of_opponents(field: Field, cut_low: int = 0, cut_high: int = 0) -> dict[int, int | None]:
    """ARO (with optional Cut-n / Median-n on the ratings) for every player, by start number."""
    all_rated = all(p.rating is not None for p in field.players.values())
    out: dict[int, int | None] = {}
    for sno, p in field.players.items():
        met = [field.players[e.opponent] for e in p.entries if e.played and e.opponent is not None]
        ratings = sorted(o.rating for o in met if o.rating is not None)
        ratings = ratings[cut_low:len(ratings) - cut_high if cut_high else None]
        if not all_rated or not ratings:
            out[sno] = None
        else:
            out[sno] = math.floor(sum(ratings) / len(ratings) + 0.5 + 1e-9)
    return out
