"""Standings and crosstable rows from the rounds the log recorded, special scores included. Pure.

Built on ``services.tournament``: the field is made by ``results.field_from_results`` and ranked by
``tiebreaks.compute_tiebreaks``, exactly as ``services.tournament.standings.standings`` does; what
this module adds are the arbiter's special scores, which a :class:`GameResult` cannot hold:

* "1/2-0" and "0-1/2" (e.g. FIDE Laws 6.9 / 9.2 decisions where one side gets nothing), "0-0" (both
  lose, the game was played): a played game with the codes "=" / "0" from each side (TRF16 allows the
  two sides' codes to differ). Points: the event's value of the code (Norway: a half point is
  scored as its draw value, 1; the regulations do not say), tie-break points 1 / ½ / 0.

A record is ``(GameResult, special)``: ``special`` is None or one of :data:`SPECIAL_SCORES`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from services.tournament.crosstable import CrossRow, cells_of
from services.tournament.model import Entry, Field
from services.tournament.results import GameResult, field_from_results, second_games
from services.tournament.scoring import CLASSICAL, Scoring
from services.tournament.standings import StandingRow, tiebreak_specs
from services.tournament.tiebreaks import compute_tiebreaks

SPECIAL_SCORES = {"1/2-0": ("=", "0"), "0-1/2": ("0", "="), "0-0": ("0", "0")}
"""Arbiter's special scores -> (White's code, Black's code); docs/arbiter.md ``set_result``."""

Record = tuple[GameResult, str | None]


def build_field(players: Mapping[int, tuple[str, int | None]], records: Sequence[Record], *, rounds: int,
                scoring: Scoring = CLASSICAL, provisional: bool = False) -> Field:
    """The tie-break :class:`Field` of ``players`` (start number -> (name, rating)) after ``records``.

    Raises ValueError as ``field_from_results`` does (unknown player or code, two results in a round)."""
    plain = [g if s is None else GameResult(g.round, g.white, g.black, "1/2-1/2") for g, s in records]
    fld = field_from_results(players, plain, rounds=rounds, scoring=scoring, provisional=provisional)
    for g, special in records:
        if special is None:
            continue
        assert g.black is not None  # a special score is given to a game at a board, never to a bye
        for sno, opp, colour, code in ((g.white, g.black, "w", SPECIAL_SCORES[special][0]),
                                       (g.black, g.white, "b", SPECIAL_SCORES[special][1])):
            tb = CLASSICAL.points(code)
            fld.players[sno].entries[g.round - 1] = Entry(g.round, opp, colour, code, scoring.points(code), tb)
    return fld


PLAYED_CODES = ("1-0", "0-1", "1/2-1/2")
"""Results of a game played over the board (GameResult codes; forfeits are ``+-``, ``-+``, ``--``)."""


def rank(players: Mapping[int, tuple[str, int | None]], records: Sequence[Record], *, rounds: int,
         scoring: Scoring = CLASSICAL, tiebreaks: Sequence[str] = ("PTS",), round_robin: bool = False,
         lots: Mapping[int, int] | None = None, provisional: bool = False) -> tuple[Field, list[StandingRow]]:
    """The field and its ranked rows (as ``services.tournament.standings.standings``). Raises
    ValueError for bad records or an unknown tie-break."""
    specs = tiebreak_specs(tiebreaks)
    fld = build_field(players, records, rounds=rounds, scoring=scoring, provisional=provisional)
    win = scoring.round_points("1")[1]
    table = compute_tiebreaks(fld, specs, round_robin=round_robin, lots=lots, win=win, draw=win / 2)
    running: dict[int, int] = {}
    for g, _ in records:
        if not g.finished and not (provisional and g.provisional):
            for s in (g.white, g.black):
                if s is not None:
                    running[s] = running.get(s, 0) + 1
    some_open = provisional and any(not g.finished for g, _ in records)
    seconds: dict[int, int] = {}  # a checkers match's second game played: a game of its own (X.A.b)
    for g, _ in records:
        if g.second in PLAYED_CODES and g.black is not None:
            for s in (g.white, g.black):
                seconds[s] = seconds.get(s, 0) + 1
    rows = []
    for r in table.rows:
        p = fld.players[r.start_no]
        rows.append(StandingRow(
            rank=r.rank, start_no=r.start_no, name=p.name, rating=p.rating, points=p.points,
            played=sum(1 for e in p.entries if e.played) + seconds.get(r.start_no, 0),
            in_progress=running.get(r.start_no, 0),
            tiebreaks={s.text: r.values[s.text] for s in specs[1:]}, provisional=some_open))
    return fld, rows


def cross_rows(fld: Field, rows: Sequence[StandingRow], records: Sequence[Record] = ()) -> list[CrossRow]:
    """Crosstable rows (``services.tournament.crosstable``) in the order of ``rows``; ``records``:
    the rounds' records, whose two-game matches give their cells both games
    (``results.second_games``)."""
    seconds = second_games(g for g, _ in records)
    out = []
    for r in rows:
        p = fld.players[r.start_no]
        cells = cells_of(p.entries, r.start_no, seconds)
        out.append(CrossRow(r.rank, r.start_no, r.name, r.rating, cells, r.points, dict(r.tiebreaks)))
    return out
