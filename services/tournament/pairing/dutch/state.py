"""What the Dutch system needs to know about each player for the round being paired.

Derived from a :class:`~.history.RoundInput`: score, ranking, colour preference (C.04.3 A.6 / E),
float history of the last two rounds (C.04.3 A.4), bye eligibility (C.04.1 d / C.04.3 C.2) and the
opponents already met (C.04.3 C.1).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from services.tournament.pairing.dutch.history import BLACK, NO_COLOR, WHITE, Game, PointSystem, RoundInput, invert

FLOAT_DOWN, FLOAT_UP, FLOAT_NONE = 0, 1, 2


@dataclass
class RoundPlayer:
    """One player as seen by the pairing of the current round.

    ``rank``: 0-based position in the initial ranking (by start number) among valid players;
    ``score``: tenths of a point including any acceleration; ``color_pref`` WHITE/BLACK/NO_COLOR;
    ``imbalance``: |whites - blacks| over played games; ``repeated``: the colour of the last two (or
    more) played games when they were the same, else NO_COLOR; ``strong``: a strong, not absolute,
    preference (C.04.3 A.6.b); ``floats[k-1]``: float direction k rounds ago (k = 1, 2);
    ``colors``: the colours of the played games, oldest first; ``bye_ok``: may get the PAB;
    ``unplayed``: rounds without a played game (byes, forfeits, absences; C.04.3 C.9); ``played``:
    games played over the board (the C.9 count the engine ranks).
    """

    start_no: int
    rank: int
    score: int
    color_pref: int = NO_COLOR
    imbalance: int = 0
    repeated: int = NO_COLOR
    strong: bool = False
    floats: tuple[int, int] = (FLOAT_NONE, FLOAT_NONE)
    colors: list[int] = field(default_factory=list)
    bye_ok: bool = True
    met: frozenset[int] = frozenset()
    unplayed: int = 0
    played: int = 0

    @property
    def absolute_imbalance(self) -> bool:
        """Colour difference above 1 (C.04.3 A.6.a)."""
        return self.imbalance > 1

    @property
    def absolute(self) -> bool:
        """An absolute colour preference: difference above 1 or the same colour twice running (A.6.a)."""
        return self.imbalance > 1 or self.repeated != NO_COLOR


def _color_data(colors: list[int]) -> tuple[int, int, int, bool]:
    """(preference, imbalance, repeated colour, strong) from the played colours (C.04.3 A.6)."""
    whites = colors.count(WHITE)
    blacks = len(colors) - whites
    run = 0
    last = NO_COLOR
    for c in colors:
        run = run + 1 if c == last else 1
        last = c
    lower = BLACK if whites > blacks else WHITE
    imbalance = abs(whites - blacks)
    if imbalance > 1:
        pref = lower
    elif run > 1:
        pref = invert(last)
    elif imbalance > 0:
        pref = lower
    elif run:
        pref = invert(last)
    else:
        pref = NO_COLOR
    repeated = last if run > 1 else NO_COLOR
    absolute = imbalance > 1 or repeated != NO_COLOR
    return pref, imbalance, repeated, (not absolute) and imbalance > 0


def _pab_eligible(start_no: int, games: list[Game], pts: PointSystem) -> bool:
    """C.04.2 (2026) / C.04.3 C.2: no PAB for a player who already had one, or who scored the points
    of a win without playing (forfeit win, full-point bye)."""
    for g in games:
        if g.played:
            continue
        if (g.participated and g.opponent is None) or pts.of(start_no, g) >= pts.win:
            return False
    return True


def build_players(inp: RoundInput) -> tuple[list[RoundPlayer], dict[int, RoundPlayer]]:
    """(players to pair this round, every valid player by start number).

    Valid players are those who took part in some pairing or are not absent from this round; they
    are ranked by start number. Absent players (a ``next_entry`` or in ``inp.absent``) are not
    paired.
    """
    pr = inp.played_rounds
    pts = inp.points
    def absent_now(s: int) -> bool:
        entry = inp.players[s].next_entry
        return s in inp.absent or (entry is not None and not entry.participated)

    # A player absent now who never took part in a pairing has no pairing number yet (a late
    # entry, or one who withdrew before round 1): ranks, and so E.5 colours, count only the others.
    valid = [s for s in sorted(inp.players) if not absent_now(s) or any(g.participated for g in inp.players[s].games)]

    def score_back(start_no: int, back: int) -> int:
        """Score (tenths, with acceleration) before the last ``back`` rounds."""
        rec = inp.players[start_no]
        total = sum(pts.of(start_no, g) for g in rec.games[: pr - back])
        idx = pr - back
        acc = rec.accelerations[idx] if idx < len(rec.accelerations) else 0
        return total + acc

    forbidden: dict[int, set[int]] = {}
    for group in inp.forbidden:
        for s in group:
            forbidden.setdefault(s, set()).update(group - {s})
    everyone: dict[int, RoundPlayer] = {}
    for rank, s in enumerate(valid):
        rec = inp.players[s]
        colors = [g.color for g in rec.games if g.played]
        pref, imbalance, repeated, strong = _color_data(colors)
        floats = []
        for back in (1, 2):
            if pr < back:
                floats.append(FLOAT_NONE)
                continue
            g = rec.games[pr - back]
            if not g.played:
                # A8: points without playing count as a downfloat; an unplayed loss is no float.
                floats.append(FLOAT_DOWN if pts.of(s, g) > pts.loss else FLOAT_NONE)
                continue
            mine = score_back(s, back)
            theirs = mine if g.opponent is None else score_back(g.opponent, back)
            floats.append(FLOAT_DOWN if mine > theirs else FLOAT_UP if mine < theirs else FLOAT_NONE)
        everyone[s] = RoundPlayer(
            start_no=s,
            rank=rank,
            score=score_back(s, 0),
            color_pref=pref,
            imbalance=imbalance,
            repeated=repeated,
            strong=strong,
            floats=(floats[0], floats[1]),
            colors=colors,
            bye_ok=_pab_eligible(s, rec.games, pts),
            met=(frozenset(g.opponent for g in rec.games if g.played and g.opponent is not None)
                 | frozenset(forbidden.get(s, ()))),
            unplayed=sum(1 for g in rec.games if not g.played),
            played=len(colors),
        )
    to_pair = [
        p for s, p in everyone.items()
        if inp.players[s].next_entry is None and s not in inp.absent
    ]
    to_pair.sort(key=lambda p: (-p.score, p.rank))
    return to_pair, everyone
