"""Prize money by the event's rule. Pure.

:func:`distribute` takes the final ranking (rank, start number, points; e.g. the rows of
services/tournament/standings.py) and a :class:`PrizeRule`:

* ``sharing="score"``: players with the same score share equally the prizes of the places they occupy
  (Norway Chess 2023: "Prize money will be shared among the players with the same score. This does not
  apply to the first prize." With ``first_prize_shared=False`` the player ranked first (after the
  play-off / tie-breaks) takes the first prize alone; the others of his score share the next places.)
* ``sharing="tiebreak"``: each place goes to the player ranked there by the tie-breaks; players still on
  an equal rank share the prizes of their places equally.

Deductions (US Championship 2023, "Prompt Arrival" and "No Electronics"): a fine is deducted from the
player's prize ("Players not at their board at the beginning of each round may receive a fine of $500 to
be deducted from their prize for each occurrence"); a player who withdrew or forfeited a game gets no
prize money when ``withhold_after_forfeit`` ("Players who withdraw or forfeit a game may not receive any
prize money."). A withheld prize is not passed on to the next player (the regulation does not say it
is): it is reported as ``withheld``. Amounts are :class:`~decimal.Decimal`, rounded down to ``unit``;
the rounding remainder of a shared prize is reported in ``PrizeResult.undistributed``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import ROUND_DOWN, Decimal
from typing import Protocol


class Ranked(Protocol):
    """What :func:`distribute` needs of a standings row."""

    rank: int
    start_no: int
    points: float


@dataclass(frozen=True)
class PrizeRule:
    """``prizes`` by place (#1 first), ``currency``, ``sharing`` "score" or "tiebreak",
    ``first_prize_shared``, ``withhold_after_forfeit``, ``unit`` (smallest amount paid), ``source``."""

    prizes: tuple[Decimal, ...]
    currency: str = ""
    sharing: str = "score"
    first_prize_shared: bool = True
    withhold_after_forfeit: bool = False
    unit: Decimal = Decimal("0.01")
    source: str = ""


NORWAY_2023 = PrizeRule(
    prizes=tuple(Decimal(v) for v in (750_000, 400_000, 250_000, 200_000, 180_000, 170_000, 160_000,
                                     140_000, 130_000, 120_000)),
    currency="NOK", sharing="score", first_prize_shared=False, unit=Decimal(1),
    source="norway-chess-2023.txt, Prize Money",
)
"""Norway Chess 2023: 2 500 000 NOK, #1 750 000 ... #10 120 000; shared on equal score except #1."""

US_2023_LATE_FINE = Decimal(500)
"""US Championship 2023: "$500 to be deducted from their prize for each occurrence" (lateness; the same
amount for an electronic device)."""


def us_2023(prizes: Sequence[int | Decimal]) -> PrizeRule:
    """The US Championship 2023 rule for a given prize table (the regulation gives no amounts): places
    by tie-breaks after the play-off, fines deducted, no prize after a forfeit or withdrawal."""
    return PrizeRule(tuple(Decimal(p) for p in prizes), currency="USD", sharing="tiebreak",
                     withhold_after_forfeit=True, source="us-championship-2023.txt, 1. Prompt Arrival, 3.")


@dataclass
class PrizeAward:
    """One player's prize: ``places`` covered, ``gross`` (share before deductions), ``fines`` deducted,
    ``net`` paid, ``withheld`` (gross not paid after a forfeit/withdrawal), ``unpaid_fines`` (fines above
    the prize), ``note``."""

    start_no: int
    places: tuple[int, ...]
    gross: Decimal
    fines: Decimal = Decimal(0)
    net: Decimal = Decimal(0)
    withheld: Decimal = Decimal(0)
    unpaid_fines: Decimal = Decimal(0)
    note: str = ""
    pending: bool = False


@dataclass
class PrizeResult:
    """All awards (in ranking order, players without prize money left out unless fined) and the
    amount not distributed by rounding."""

    awards: list[PrizeAward] = field(default_factory=list)
    undistributed: Decimal = Decimal(0)

    def by_start_no(self) -> dict[int, PrizeAward]:
        """Awards keyed by start number."""
        return {a.start_no: a for a in self.awards}


def _groups(rows: list[Ranked], rule: PrizeRule, decided: Sequence[int] = (),
            first_place: bool = True) -> list[list[Ranked]]:
    key = (lambda r: r.points) if rule.sharing == "score" else (lambda r: r.rank)
    groups: list[list[Ranked]] = [[r] for r in rows[:len(decided)]]
    for r in rows[len(decided):]:
        if len(groups) > len(decided) and key(groups[-1][0]) == key(r):
            groups[-1].append(r)
        else:
            groups.append([r])
    if not rule.first_prize_shared and first_place and not decided and groups and len(groups[0]) > 1:
        groups = [[groups[0][0]], groups[0][1:]] + groups[1:]
    return groups


def distribute(ranking: Iterable[Ranked], rule: PrizeRule, *, fines: Mapping[int, Decimal | int] | None = None,
               forfeited_or_withdrew: Iterable[int] = (), decided: Sequence[int] = (),
               pending: Iterable[int] = ()) -> PrizeResult:
    """Share ``rule.prizes`` over ``ranking`` (best first; ties by rank or score as the rule says).

    ``fines``: start number -> total fines (e.g. 2 late arrivals = 1000). ``forfeited_or_withdrew``:
    players who forfeited a game or withdrew. ``decided``: the play-off's order, the first rows of
    ``ranking``: each of them takes his own place's prize, never shared ("Places decided by a play-off
    are paid by its result"). ``pending``: players whose places a play-off still has to decide:
    their places' prizes are not paid (awards with ``pending``). Raises ValueError for an unknown
    ``sharing``, a negative fine, a ranking that is not in rank order, or ``decided`` that is not
    the ranking's start.
    """
    if rule.sharing not in ("score", "tiebreak"):
        raise ValueError(f"unknown prize sharing {rule.sharing!r} (score or tiebreak)")
    rows = list(ranking)
    if [r.rank for r in rows] != sorted(r.rank for r in rows):
        raise ValueError("ranking must be in rank order")
    owed = {s: Decimal(v) for s, v in (fines or {}).items()}
    if any(v < 0 for v in owed.values()):
        raise ValueError("a fine cannot be negative")
    if [r.start_no for r in rows[:len(decided)]] != list(decided):
        raise ValueError("the play-off's order must open the ranking")
    out = set(forfeited_or_withdrew) if rule.withhold_after_forfeit else set()
    waiting = set(pending)
    result = PrizeResult()
    place = 0
    held = [r for r in rows if r.start_no in waiting]
    if held:  # the tie the play-off decides: its places are held, nothing paid
        places = tuple(range(1, len(held) + 1))
        result.awards += [PrizeAward(r.start_no, places, Decimal(0), pending=True,
                                     note="decided by the play-off: not paid before it has decided") for r in held]
        rows = [r for r in rows if r.start_no not in waiting]
        place = len(held)
    for group in _groups(rows, rule, decided, first_place=not held):
        places = tuple(range(place + 1, place + 1 + len(group)))
        place += len(group)
        pot = sum((rule.prizes[p - 1] for p in places if p <= len(rule.prizes)), Decimal(0))
        share = (pot / len(group)).quantize(rule.unit, rounding=ROUND_DOWN) if pot else Decimal(0)
        result.undistributed += pot - share * len(group)
        for r in group:
            fine = owed.get(r.start_no, Decimal(0))
            if not pot and not fine:
                continue
            award = PrizeAward(r.start_no, places, share)
            if r.start_no in out:
                award.withheld = share
                award.note = "no prize money after a forfeit or withdrawal"
                paid = Decimal(0)
            else:
                paid = share
            award.fines = min(fine, paid)
            award.unpaid_fines = fine - award.fines
            award.net = paid - award.fines
            result.awards.append(award)
    return result
