"""Crosstable model: one row per player with every round's opponent, colour and result. Pure.

Feeds GET /api/crosstable. Rows come in rank order (services/tournament/standings.py); each
:class:`CrossCell` carries the TRF16 code from the player's side ("1" "=" "0" played, "+" "-" forfeits,
"U" PAB, "H" "F" "Z" byes, " " not played / in progress), so a cell reads like a TRF round block:
``text`` gives "12 w 1", "0000 - U".
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from services.tournament.results import GameResult, field_from_results
from services.tournament.scoring import CLASSICAL, Scoring
from services.tournament.standings import standings
from services.tournament.tiebreaks import TieBreakSpec, Value


@dataclass(frozen=True)
class CrossCell:
    """One round of one player: opponent start number (None: bye/absent), colour "w"/"b"/None, TRF code,
    points scored (the event's scoring)."""

    round: int
    opponent: int | None
    color: str | None
    code: str
    points: float

    @property
    def text(self) -> str:
        """The cell as a TRF16 round block without its leading blanks, e.g. "12 w 1" or "0000 - U"."""
        opp = "0000" if self.opponent is None else str(self.opponent)
        return f"{opp:>4} {self.color or '-'} {self.code}"


@dataclass
class CrossRow:
    """A player's row: rank, start number, name, rating, cells (one per round), total, tie-breaks."""

    rank: int
    start_no: int
    name: str
    rating: int | None
    cells: list[CrossCell]
    total: float
    tiebreaks: dict[str, Value] = field(default_factory=dict)


def crosstable(results: Iterable[GameResult], players: Mapping[int, tuple[str, int | None]] | Iterable[int], *,
               rounds: int | None = None, scoring: Scoring = CLASSICAL,
               tiebreaks: Sequence[str | TieBreakSpec] = ("PTS",), round_robin: bool = False,
               edition: str = "2026", provisional: bool = False) -> list[CrossRow]:
    """The crosstable in rank order. Same arguments and errors as
    :func:`services.tournament.standings.standings`."""
    results = list(results)
    players = dict(players) if isinstance(players, Mapping) else list(players)
    fld = field_from_results(players, results, rounds=rounds, scoring=scoring, provisional=provisional)
    rows = standings(results, players, rounds=rounds, scoring=scoring, tiebreaks=tiebreaks,
                     round_robin=round_robin, edition=edition, provisional=provisional)
    out = []
    for r in rows:
        p = fld.players[r.start_no]
        cells = [CrossCell(e.round, e.opponent, e.color, e.code, e.points) for e in p.entries]
        out.append(CrossRow(r.rank, r.start_no, r.name, r.rating, cells, r.points, dict(r.tiebreaks)))
    return out
