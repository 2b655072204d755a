"""Crosstable model: one row per player with every round's opponent, colour and result. Pure.

Feeds GET /api/crosstable. Rows come in rank order (services/tournament/standings.py); each
:class:`CrossCell` carries the TRF16 code from the player's side ("1" "=" "0" played, "+" "-" forfeits,
"U" PAB, "H" "F" "Z" byes, " " not played / in progress), so a cell reads like a TRF round block:
``text`` gives "12 w 1", "0000 - U". A round that is a two-game match (checkers 11-Man National
2017: the same opponent twice, colours reversed in game 2) carries both games in ``games`` and its
``text`` writes the opponent once, then each game's colour and code: "11 w 1 b =".
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from services.tournament.results import GameResult, field_from_results, second_games
from services.tournament.scoring import CLASSICAL, Scoring
from services.tournament.standings import standings
from services.tournament.tiebreaks import TieBreakSpec, Value


@dataclass(frozen=True)
class CrossCell:
    """One round of one player: opponent start number (None: bye/absent), colour "w"/"b"/None, TRF code,
    points scored (the event's scoring; a match round: both games'). ``games``: for a two-game match,
    ``((colour, code) of game 1, (colour, code) of game 2)`` from this player's side (``color`` and
    ``code`` are game 1's); () for a round of one game."""

    round: int
    opponent: int | None
    color: str | None
    code: str
    points: float
    games: tuple[tuple[str | None, str], ...] = ()

    @property
    def text(self) -> str:
        """The cell as a TRF16 round block without its leading blanks, e.g. "12 w 1" or "0000 - U";
        a match round: "  11 w 1 b =" (the opponent, then each game's colour and code)."""
        opp = "0000" if self.opponent is None else str(self.opponent)
        if self.games:
            return f"{opp:>4} " + " ".join(f"{c or '-'} {code}" for c, code in self.games)
        return f"{opp:>4} {self.color or '-'} {self.code}"


def cells_of(entries: Iterable, start_no: int, seconds: Mapping[tuple[int, int], tuple[str | None, str]]
             ) -> list[CrossCell]:
    """A player's cells from his field entries (``services.tournament.model.Entry``) and the second
    games of his match rounds (``results.second_games``)."""
    out = []
    for e in entries:
        second = seconds.get((start_no, e.round))
        games = ((e.color, e.code), second) if second is not None else ()
        out.append(CrossCell(e.round, e.opponent, e.color, e.code, e.points, games))
    return out


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
    """The crosstable in rank order (a match round's cell with both games, :class:`CrossCell`). Same
    arguments and errors as :func:`services.tournament.standings.standings`."""
    results = list(results)
    players = dict(players) if isinstance(players, Mapping) else list(players)
    fld = field_from_results(players, results, rounds=rounds, scoring=scoring, provisional=provisional)
    rows = standings(results, players, rounds=rounds, scoring=scoring, tiebreaks=tiebreaks,
                     round_robin=round_robin, edition=edition, provisional=provisional)
    seconds = second_games(results)
    out = []
    for r in rows:
        p = fld.players[r.start_no]
        cells = cells_of(p.entries, r.start_no, seconds)
        out.append(CrossRow(r.rank, r.start_no, r.name, r.rating, cells, r.points, dict(r.tiebreaks)))
    return out
