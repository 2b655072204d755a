"""A TRF's point system stated in the file, and standings points that TRF16 cannot hold. Pure.

TRF16 (FIDE C.04 Annex 2) says of the points column (81-84): "This is the number of points in the
tournament standings, which depends on the scoring points system used and on the value of the
pairing-allocated bye (usually the same as a win)", and gives no record that names the system. A reader
(FIDE's rating server, the Dutch engine's checker, our own ``venue tiebreaks``) recomputes the points
from the result codes, so the column must agree with the codes under a system the file states:

* :func:`point_system_lines`: the system as bbpPairings' TRF(bx) extension writes it (its README:
  "codes BBW, BBD, BBL, BBZ, BBF, and BBU for specifying the number of points awarded for a win, draw,
  played loss, zero-point bye, forfeit loss, or pairing-allocated bye", ``BBW pp.p``).
* Norway Chess 2023 scores a classical draw 1½ or 1 by the Armageddon game that follows, which no
  result code can say: the file keeps the classical points in the points column (what FIDE rates and
  the tie-breaks count, "For tie-breaks purpose, only points in classical games will be counted") and
  the event's own points in our own records, one ``VPT`` line per player (:func:`standings_lines`,
  read back by :func:`standings_points`), after a ``VPS`` line naming the system. The ranks (86-89)
  are the final order by the event's points.

``VPT`` layout: ``VPT`` columns 1-3, start number 5-8, total 10-14 (``%5.1f``), then the points of
each round, ``%5.1f`` each, one blank between (0.0 for a round not played yet).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from services.tournament.scoring import Scoring

POINT_SYSTEM_CODES = (("BBW", "win"), ("BBD", "draw"), ("BBL", "loss"), ("BBZ", "zero_bye"),
                      ("BBF", "forfeit_loss"), ("BBU", "pab"))
"""bbpPairings' TRF(bx) point-system records and the :class:`Scoring` field each states."""

STANDINGS_SYSTEM = "VPS"
STANDINGS_POINTS = "VPT"


def point_system_lines(scoring: Scoring) -> list[str]:
    """``BBW  1.0`` ... ``BBU  1.0``: the points ``scoring`` gives each code, as bbpPairings reads them."""
    return [f"{code} {getattr(scoring, attr):4.1f}" for code, attr in POINT_SYSTEM_CODES]


def standings_lines(system: str, points: Mapping[int, Sequence[float]]) -> list[str]:
    """The ``VPS`` line (``system``: the event's point system in words) and one ``VPT`` line per start
    number in ``points`` (start number -> the event's points in each round), in start-number order."""
    out = [f"{STANDINGS_SYSTEM} {system}"]
    for sno in sorted(points):
        per_round = points[sno]
        out.append(f"{STANDINGS_POINTS} {sno:>4} {sum(per_round):5.1f} " + " ".join(f"{p:5.1f}" for p in per_round))
    return [line.rstrip() for line in out]


def standings_points(header: Sequence[str]) -> dict[int, list[float]]:
    """The ``VPT`` lines of a TRF's non-player lines: start number -> the event's points per round
    ({} when there are none). Raises ValueError naming the line for a start number or a number that
    is not one, or a total that is not the sum of the rounds."""
    out: dict[int, list[float]] = {}
    for line in header:
        if line[:3] != STANDINGS_POINTS:
            continue
        parts = line[3:].split()
        try:
            sno, total, rounds = int(parts[0]), float(parts[1]), [float(p) for p in parts[2:]]
        except (IndexError, ValueError):
            raise ValueError(f"{STANDINGS_POINTS} line {line!r}: start number, total and each round's points "
                             "must be numbers") from None
        if abs(sum(rounds) - total) > 1e-9:
            raise ValueError(f"{STANDINGS_POINTS} line {line!r}: the total {total} is not the sum of the rounds "
                             f"({sum(rounds)})")
        if sno in out:
            raise ValueError(f"{STANDINGS_POINTS} line {line!r}: start number {sno} given twice")
        out[sno] = rounds
    return out
