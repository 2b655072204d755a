"""Prize money (services/tournament/prizes.py).

Sources: Norway Chess 2023 "Prize Money" (table #1 750 000 ... #10 120 000 NOK; "Prize money will be
shared among the players with the same score. This does not apply to the first prize."); US Championship
2023 "1. Prompt Arrival" ($500 fine per occurrence deducted from the prize; "Players who withdraw or
forfeit a game may not receive any prize money.")."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

import pytest

from services.tournament.prizes import NORWAY_2023, US_2023_LATE_FINE, PrizeRule, distribute, us_2023


@dataclass
class Row:
    rank: int
    start_no: int
    points: float


def test_norway_table_totals_the_fund() -> None:
    # "The total prize fund of the Tournament is 2 500 000 NOK."
    assert sum(NORWAY_2023.prizes) == 2_500_000


def test_norway_no_ties_each_place() -> None:
    rows = [Row(i, i, 20 - i) for i in range(1, 11)]
    got = distribute(rows, NORWAY_2023).by_start_no()
    assert [got[i].net for i in range(1, 11)] == list(NORWAY_2023.prizes)


def test_norway_shared_on_equal_score() -> None:
    # players 3 and 4 share places 3 and 4: (250 000 + 200 000) / 2
    rows = [Row(1, 1, 18), Row(2, 2, 16), Row(3, 3, 15), Row(3, 4, 15)] + [Row(i, i, 14 - i) for i in range(5, 11)]
    got = distribute(rows, NORWAY_2023).by_start_no()
    assert got[3].net == got[4].net == Decimal(225_000)
    assert got[3].places == (3, 4)


def test_norway_first_prize_not_shared() -> None:
    # three tied on top: the play-off winner (ranked 1) takes #1 alone; the other two share #2 + #3.
    rows = [Row(1, 7, 16), Row(2, 2, 16), Row(2, 5, 16)] + [Row(i, i + 10, 14 - i) for i in range(4, 11)]
    got = distribute(rows, NORWAY_2023).by_start_no()
    assert got[7].net == Decimal(750_000)
    assert got[2].net == got[5].net == Decimal(325_000)


def test_us_2023_fines_deducted() -> None:
    # two late arrivals: 2 x $500 deducted from the prize
    rule = us_2023([50_000, 35_000, 25_000])
    rows = [Row(1, 1, 8), Row(2, 2, 7.5), Row(3, 3, 7)]
    got = distribute(rows, rule, fines={2: 2 * US_2023_LATE_FINE}).by_start_no()
    assert (got[2].gross, got[2].fines, got[2].net) == (Decimal(35_000), Decimal(1000), Decimal(34_000))


def test_us_2023_no_prize_after_forfeit_or_withdrawal() -> None:
    rule = us_2023([50_000, 35_000, 25_000])
    rows = [Row(1, 1, 8), Row(2, 2, 7.5), Row(3, 3, 7)]
    got = distribute(rows, rule, forfeited_or_withdrew=[3]).by_start_no()
    assert got[3].net == 0 and got[3].withheld == Decimal(25_000)
    assert got[1].net == Decimal(50_000)


def test_fine_larger_than_prize_is_reported_unpaid() -> None:
    rule = us_2023([1000])
    got = distribute([Row(1, 1, 3), Row(2, 2, 2)], rule, fines={1: 1500, 2: 500}).by_start_no()
    assert (got[1].net, got[1].unpaid_fines) == (Decimal(0), Decimal(500))
    assert (got[2].net, got[2].unpaid_fines) == (Decimal(0), Decimal(500))


def test_tiebreak_sharing_equal_rank_shares() -> None:
    rule = PrizeRule(prizes=(Decimal(100), Decimal(50), Decimal(1)), sharing="tiebreak")
    result = distribute([Row(1, 1, 3), Row(2, 2, 2), Row(2, 3, 2)], rule)
    got = result.by_start_no()
    assert got[2].net == got[3].net == Decimal("25.50")
    assert result.undistributed == 0


def test_bad_input() -> None:
    with pytest.raises(ValueError, match="rank order"):
        distribute([Row(2, 1, 1), Row(1, 2, 2)], NORWAY_2023)
    with pytest.raises(ValueError, match="negative"):
        distribute([Row(1, 1, 1)], NORWAY_2023, fines={1: -5})
    with pytest.raises(ValueError, match="sharing"):
        distribute([Row(1, 1, 1)], PrizeRule(prizes=(Decimal(1),), sharing="lots"))
