"""Recorded game results (as the event log knows them) turned into a tie-break :class:`Field`.

Pure. A :class:`GameResult` is one pairing of one round:

* ``result`` "1-0", "0-1", "1/2-1/2" (played); "+-" / "-+" (forfeit win for White / Black); "--"
  (double forfeit: unplayed for both, F10 d / F14); "*" (not finished, game in progress);
* a bye has ``black=None`` and ``result`` "U" (pairing-allocated bye), "H" (half-point bye), "F"
  (full-point bye) or "Z" (zero-point bye);
* ``armageddon``: for events with an Armageddon after a drawn classical game (Norway Chess 2023),
  "1-0", "0-1", "1/2-1/2" (a draw is a win for Black) or "*" while it is being played.
* ``provisional``: for a game in progress, the result to assume "as if it ended now" (same codes as
  ``result``); used only by provisional standings.
* ``second``: the second game of a two-game match in one round (checkers, 11-Man National 2017), its
  result written from ``white``'s side (same codes as ``result``; "*" not finished). Each game
  scores as a game: the round's points (and tie-break points) are the two games' together; the
  entry's code (colour, played or not) is the first game's.

Rounds a player has no record for are absences (code " ").
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from services.tournament.model import Entry, Field, Player
from services.tournament.scoring import CLASSICAL, NorwayScoring, Scoring, armageddon_winner
from services.tournament.trf import TrfTournament

_PAIR_CODES = {
    "1-0": ("1", "0"), "0-1": ("0", "1"), "1/2-1/2": ("=", "="), "½-½": ("=", "="),
    "+-": ("+", "-"), "-+": ("-", "+"), "--": ("-", "-"), "*": (" ", " "),
}
_BYE_CODES = frozenset("UHFZ")


@dataclass(frozen=True)
class GameResult:
    """One pairing: round (1-based), White's and Black's start numbers (Black None for a bye), result;
    see the module docstring for the codes."""

    round: int
    white: int
    black: int | None
    result: str = "*"
    armageddon: str | None = None
    provisional: str | None = None
    second: str | None = None

    @property
    def finished(self) -> bool:
        """Whether the result is final (not "*"), the match's second game's too."""
        return self.result != "*" and self.second != "*"


def _arm_codes(armageddon: str | None) -> tuple[str | None, str | None]:
    if armageddon is None:
        return None, None
    if armageddon == "*":
        return "*", "*"
    return ("1", "0") if armageddon_winner(armageddon) == "white" else ("0", "1")


def field_from_results(players: Mapping[int, tuple[str, int | None]] | Iterable[int],
                       results: Iterable[GameResult], *, rounds: int | None = None,
                       scoring: Scoring = CLASSICAL, provisional: bool = False) -> Field:
    """Build the :class:`Field` of ``players`` (start number -> (name, rating), or just start numbers)
    from ``results``.

    With ``provisional`` a game in progress counts its ``provisional`` result (if given). Raises
    ValueError for an unknown player, an unknown result code, or a player with two records in a round.
    """
    info = dict(players) if isinstance(players, Mapping) else {s: ("", None) for s in players}
    results = list(results)
    n = rounds if rounds is not None else max((g.round for g in results), default=0)
    slots: dict[int, dict[int, Entry]] = {s: {} for s in info}

    def put(sno: int, e: Entry) -> None:
        if sno not in slots:
            raise ValueError(f"round {e.round}: unknown player {sno}")
        if e.round in slots[sno]:
            raise ValueError(f"round {e.round}: player {sno} has two results")
        slots[sno][e.round] = e

    for g in results:
        if g.round < 1 or g.round > n:
            raise ValueError(f"round {g.round} outside 1..{n}")
        res = g.provisional if (provisional and g.result == "*" and g.provisional) else g.result
        if g.black is None:
            if res not in _BYE_CODES:
                raise ValueError(f"round {g.round}: bye of player {g.white}: unknown bye code {res!r}")
            pts, tb = scoring.round_points(res)
            put(g.white, Entry(g.round, None, None, res, pts, tb))
            continue
        if res not in _PAIR_CODES:
            raise ValueError(f"round {g.round}: {g.white}-{g.black}: unknown result {res!r}")
        wc, bc = _PAIR_CODES[res]
        wa, ba = _arm_codes(g.armageddon) if res == "1/2-1/2" or res == "½-½" else (None, None)
        if wc == "=" and g.armageddon is None and isinstance(scoring, NorwayScoring):
            wa = ba = "*"  # Armageddon not started yet: count only the points already sure
        unplayed_colours = wc in "+- "
        if g.second is not None and g.second not in _PAIR_CODES:
            raise ValueError(f"round {g.round}: {g.white}-{g.black}: unknown second game result {g.second!r}")
        w2, b2 = _PAIR_CODES[g.second] if g.second is not None else (None, None)
        for sno, opp, code, colour, arm, code2 in ((g.white, g.black, wc, "w", wa, w2),
                                                   (g.black, g.white, bc, "b", ba, b2)):
            pts, tb = scoring.round_points(code, arm)
            if code2 is not None:  # a match's second game scores as a game of its own
                pts2, tb2 = scoring.round_points(code2)
                pts, tb = pts + pts2, tb + tb2
            put(sno, Entry(g.round, opp, None if (unplayed_colours and code != " ") else colour, code, pts, tb))
    out: dict[int, Player] = {}
    for sno, (name, rating) in info.items():
        entries = [slots[sno].get(r) or Entry(r, None, None, " ", scoring.absent, scoring.absent)
                   for r in range(1, n + 1)]
        out[sno] = Player(sno, name, rating, entries)
    return Field(out, n)


def second_games(results: Iterable[GameResult]) -> dict[tuple[int, int], tuple[str | None, str]]:
    """The second game of each two-game match (``GameResult.second``, checkers 11-Man National
    2017: colours reversed in game 2) from each player's side: ``(start_no, round) -> (colour,
    TRF code)``; colour "w"/"b" (game 1's White is Black in game 2), None for a forfeit ("+"/"-",
    unplayed); code " " while the game is not finished. Rounds without a second game are left
    out. Raises ValueError for an unknown result code."""
    out: dict[tuple[int, int], tuple[str | None, str]] = {}
    for g in results:
        if g.second is None or g.black is None:
            continue
        if g.second not in _PAIR_CODES:
            raise ValueError(f"round {g.round}: {g.white}-{g.black}: unknown second game result {g.second!r}")
        w2, b2 = _PAIR_CODES[g.second]
        out[(g.white, g.round)] = (None if w2 in "+-" else "b", w2)
        out[(g.black, g.round)] = (None if b2 in "+-" else "w", b2)
    return out


def results_from_trf(t: TrfTournament) -> list[GameResult]:
    """The pairings of a parsed TRF as :class:`GameResult` records (one per pairing, White's line first;
    a forfeit without colours is listed under the lower start number). Byes and absences with a code
    (U, H, F, Z) become byes; blank rounds are left out. Raises ValueError for codes that contradict
    each other across the two lines."""
    back = {("1", "0"): "1-0", ("0", "1"): "0-1", ("=", "="): "1/2-1/2", ("W", "L"): "1-0", ("L", "W"): "0-1",
            ("D", "D"): "1/2-1/2", ("+", "-"): "+-", ("-", "+"): "-+", ("-", "-"): "--", (" ", " "): "*"}
    out: list[GameResult] = []
    for p in t.players.values():
        for g in p.games:
            if g.opponent is None:
                if g.result in _BYE_CODES:
                    out.append(GameResult(g.round, p.start_no, None, g.result))
                continue
            is_white = g.color == "w" or (g.color is None and p.start_no < g.opponent)
            if not is_white:
                continue
            other = t.players[g.opponent].game(g.round)
            pair = (g.result, other.result if other else " ")
            if pair not in back:
                raise ValueError(f"round {g.round}: {p.start_no}-{g.opponent}: results {pair} do not match")
            out.append(GameResult(g.round, p.start_no, g.opponent, back[pair]))
    return sorted(out, key=lambda r: (r.round, r.white))
