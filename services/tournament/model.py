"""The field of a tournament as the tie-break rules see it: players and what each round gave them.

Pure data. Built from a TRF file (:func:`field_from_trf`) or from recorded game results
(services/tournament/standings.py). Every player has exactly ``rounds`` entries, one per round; a round
with no record is an absence (code " ", no opponent, unplayed).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from services.tournament.scoring import CLASSICAL, PLAYED_CODES, VOLUNTARY_UNPLAYED_CODES, Scoring
from services.tournament.trf import TrfTournament
from services.tournament.trf_points import standings_points


@dataclass(frozen=True)
class Entry:
    """One round of one player.

    ``opponent`` start number or None (bye, absence); ``color`` "w"/"b" for a paired round, else None;
    ``code`` the TRF16 result code from this player's side; ``points`` the event's points (standings);
    ``tb_points`` the points the tie-breaks count (Norway: classical game only; else = ``points``).
    """

    round: int
    opponent: int | None
    color: str | None
    code: str
    points: float
    tb_points: float

    @property
    def played(self) -> bool:
        """Played over the board against an opponent (C.07 Art. 16: not an unplayed round)."""
        return self.code in PLAYED_CODES and self.opponent is not None

    @property
    def pab(self) -> bool:
        """A pairing-allocated bye (TRF "U")."""
        return self.code == "U"

    @property
    def voluntary_unplayed(self) -> bool:
        """A voluntary unplayed round (C.07 Art. 16.2): forfeit loss, half/zero-point bye, absence."""
        return self.code in VOLUNTARY_UNPLAYED_CODES


@dataclass
class Player:
    """A participant: start number, name, rating (None when unrated), one :class:`Entry` per round."""

    start_no: int
    name: str = ""
    rating: int | None = None
    entries: list[Entry] = field(default_factory=list)

    @property
    def points(self) -> float:
        """Total points (the event's scoring)."""
        return sum(e.points for e in self.entries)

    @property
    def tb_points(self) -> float:
        """Total of the points the tie-breaks count."""
        return sum(e.tb_points for e in self.entries)


@dataclass
class Field:
    """All players (by start number) and the number of rounds counted."""

    players: dict[int, Player]
    rounds: int


def field_from_trf(t: TrfTournament, scoring: Scoring = CLASSICAL, rounds: int | None = None) -> Field:
    """Build a :class:`Field` from a parsed TRF.

    ``rounds`` defaults to the larger of XXR and the longest player line. Rating 0 is read as unrated.
    Points come from ``scoring`` (the printed totals are not trusted); where the file keeps the
    event's own points in ``VPT`` lines (Norway Chess: ``services.tournament.trf_points``), those are
    the standings points and ``scoring``'s the tie-break points. Raises ValueError when a paired round
    is not matched by the opponent's line, or for a ``VPT`` line that is not well formed.
    """
    n = rounds if rounds is not None else max(t.total_rounds or 0, t.rounds_played)
    own = standings_points(t.header)
    players: dict[int, Player] = {}
    for p in t.players.values():
        entries = []
        for r in range(1, n + 1):
            g = p.game(r)
            if g is None:
                entries.append(Entry(r, None, None, " ", scoring.absent, scoring.absent))
                continue
            if g.opponent is not None:
                back = t.players[g.opponent].game(r)
                if back is None or back.opponent != p.start_no:
                    raise ValueError(f"player {p.start_no}: round {r}: opponent {g.opponent} lists no game with him")
            pts = scoring.points(g.result)
            event_pts = own[p.start_no][r - 1] if p.start_no in own and r <= len(own[p.start_no]) else pts
            entries.append(Entry(r, g.opponent, g.color if g.opponent is not None else None, g.result, event_pts, pts))
        players[p.start_no] = Player(p.start_no, p.name, p.rating or None, entries)
    return Field(players, n)
