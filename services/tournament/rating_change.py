"""Live FIDE rating changes: each rated player's change for the games played so far. Pure.

Source: FIDE Rating Regulations effective from 1 March 2024 (FIDE Handbook B.02):
- 8.1.2, the table converting a rating difference D into the higher-rated player's scoring
  probability PD (the lower-rated player's is 1 - PD): ``PD_TABLE``;
- 8.3.1, a difference of more than 400 points counts as 400 (since 1 March 2024 in every game,
  no longer once per event: FIDE Qualification Commission, "New rating regulations come into force",
  1 March 2024);
- 8.3.2, for each game against a rated opponent dR = score - PD; the change is K x the sum of dR;
- 8.3.3, K: 40 for a player new to the list until 30 games, and for a player under 18 while rated
  under 2300; 20 while the rating is under 2400; 10 once the published rating has reached 2400. The
  list publishes each player's K: the tournament file's ``k_factor`` gives it; without it K is read
  from the rating (20 under 2400, else 10). When K x the games rated in the period exceeds 700, K is
  the largest whole number for which it does not (applied here to this event's games).

Only games played over the board against a rated opponent count (win "1", draw "=", loss "0" in
TRF-16 codes): forfeits, byes and results marked not rated ("W", "D", "L") do not. An unrated player
gets no live change (an initial rating needs games over several events, 8.2).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from services.tournament.model import Field

# 8.1.2: (the largest D of the row, PD of the higher-rated player in hundredths); D above 735: 1.00
PD_TABLE: tuple[tuple[int, int], ...] = (
    (3, 50), (10, 51), (17, 52), (25, 53), (32, 54), (39, 55), (46, 56), (53, 57), (61, 58), (68, 59),
    (76, 60), (83, 61), (91, 62), (98, 63), (106, 64), (113, 65), (121, 66), (129, 67), (137, 68),
    (145, 69), (153, 70), (162, 71), (170, 72), (179, 73), (188, 74), (197, 75), (206, 76), (215, 77),
    (225, 78), (235, 79), (245, 80), (256, 81), (267, 82), (278, 83), (290, 84), (302, 85), (315, 86),
    (328, 87), (344, 88), (357, 89), (374, 90), (391, 91), (411, 92), (432, 93), (456, 94), (484, 95),
    (517, 96), (559, 97), (619, 98), (735, 99),
)
MAX_DIFFERENCE = 400  # 8.3.1
K_PERIOD_LIMIT = 700  # 8.3.3: K x games rated in the period
SCORES = {"1": Fraction(1), "=": Fraction(1, 2), "0": Fraction(0)}  # TRF-16 codes of rated results


def expected_score(rating: int, opponent: int) -> Fraction:
    """The player's scoring probability PD against ``opponent`` (8.1.2, with 8.3.1's 400 points),
    e.g. 2300 against 2150: 0.70; 2150 against 2300: 0.30."""
    d = max(-MAX_DIFFERENCE, min(MAX_DIFFERENCE, rating - opponent))
    high = next((pd for top, pd in PD_TABLE if abs(d) <= top), 100)
    return Fraction(high if d >= 0 else 100 - high, 100)


def k_factor(rating: int, listed: int | None = None, games: int = 0) -> int:
    """The development coefficient K (8.3.3): ``listed`` (the rating list's K, from the tournament
    file) when given, else 20 under 2400 and 10 from 2400; then limited so that K x ``games`` (rated
    in the period) is at most 700. Raises ValueError for a listed K other than 10, 20 or 40."""
    if listed is not None and listed not in (10, 20, 40):
        raise ValueError(f"K must be 10, 20 or 40 (FIDE Rating Regulations 8.3.3), not {listed}")
    k = listed if listed is not None else (20 if rating < 2400 else 10)
    if games and k * games > K_PERIOD_LIMIT:
        k = K_PERIOD_LIMIT // games
    return k


@dataclass(frozen=True)
class RatingChange:
    """One player's live change: ``rating`` (before the event), ``k`` (8.3.3), ``games`` rated so
    far, ``score`` in them, ``expected`` (the sum of PD), ``change`` = K x (score - expected), as a
    Fraction (shown to one decimal; the rating list rounds each event's change)."""

    start_no: int
    rating: int
    k: int
    games: int
    score: Fraction
    expected: Fraction
    change: Fraction

    def shown(self) -> str:
        """``change`` to one decimal with its sign, as broadcasts show it (``+7.6``, ``-2.0``, ``0.0``)."""
        tenths = int((abs(self.change) * 10 + Fraction(1, 2)) // 1)
        sign = "-" if self.change < 0 and tenths else "+" if tenths else ""
        return f"{sign}{tenths // 10}.{tenths % 10}"


def rating_changes(field: Field, listed_k: dict[int, int] | None = None) -> dict[int, RatingChange]:
    """Each rated player's change for the games of ``field`` played so far, by start number
    (``listed_k``: start number -> the list's K). Players without a rating are left out."""
    listed_k = listed_k or {}
    out: dict[int, RatingChange] = {}
    for sno, p in field.players.items():
        if p.rating is None:
            continue
        rated = []
        for e in p.entries:
            opp = field.players.get(e.opponent) if e.opponent is not None else None
            if e.code in SCORES and opp is not None and opp.rating is not None:
                rated.append((SCORES[e.code], expected_score(p.rating, opp.rating)))
        k = k_factor(p.rating, listed_k.get(sno), len(rated))
        score = sum((s for s, _ in rated), Fraction(0))
        expected = sum((pd for _, pd in rated), Fraction(0))
        out[sno] = RatingChange(sno, p.rating, k, len(rated), score, expected, k * (score - expected))
    return out
