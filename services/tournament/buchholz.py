"""Buchholz (BH) and Sonneborn-Berger (SB) with their cut and median variants: FIDE C.07 Art. 8 / 9
(Buchholz, Sonneborn-Berger; numbering: verify), Art. 14 (modifiers Cut-n / Median-n) and Art. 16 (unplayed rounds).

Pure. BH is the sum of the opponents' (adjusted) scores; SB the sum of each opponent's score times the
points scored against him. In a Swiss every round counts: an unplayed round (forfeit, bye, absence)
counts against a dummy opponent (services/tournament/unplayed.py). In a round robin only rounds with a
scheduled opponent count, forfeits included (their scheduled opponent is taken as met).

Cut-n drops the n least significant values (lowest opponent's score, then lowest value); where the
player has voluntary unplayed rounds, the one with the lowest dummy score is dropped instead, unless
the least significant round adds more to the total than it (possible for SB only) (C.07 14.6, as FIDE's
TieBreakServer v1.9.57 applies it; tools/compare_tiebreaks.py). Median-n drops the n least and the n
most significant values.
"""

from __future__ import annotations

from dataclasses import dataclass

from services.tournament.model import Field
from services.tournament.unplayed import adjusted_scores, dummy_score


@dataclass(frozen=True)
class _Item:
    score: float  # the opponent's (or dummy's) score
    value: float  # what the round adds: score (BH) or score x own points (SB)
    vur: bool  # a voluntary unplayed round


def _items(field: Field, round_robin: bool, edition: str, sb: bool, draw: float) -> dict[int, list[_Item]]:
    adjusted = adjusted_scores(field, round_robin, draw)
    out: dict[int, list[_Item]] = {}
    for sno, p in field.players.items():
        items = []
        for e in p.entries:
            if round_robin:
                if e.opponent is None:
                    continue
                score, vur = adjusted[e.opponent], False
            elif e.played and e.opponent is not None:  # played implies an opponent
                score, vur = adjusted[e.opponent], False
            else:
                score, vur = dummy_score(p, e, adjusted, field.rounds, edition, draw), e.voluntary_unplayed
            items.append(_Item(score, score * e.tb_points if sb else score, vur))
        out[sno] = items
    return out


def _cut(items: list[_Item], low: int, high: int, rounds: int) -> list[_Item]:
    low = min(low, rounds)
    high = min(high, rounds - low)
    items = list(items)
    for _ in range(low):
        if not items:
            break
        by_value = sorted(items, key=lambda i: (i.score, i.value))
        # among the VURs the least significant is the one with the lowest (dummy) score, as for any
        # round: TieBreakServer v1.9.57 (issue 30's comparison, tests/data/tiebreaks_unplayed)
        vur_first = sorted(items, key=lambda i: (not i.vur, i.score, i.value))
        if not vur_first[0].vur or by_value[0].value > vur_first[0].value:
            items.remove(by_value[0])
        else:
            items.remove(vur_first[0])
    for _ in range(high):
        if not items:
            break
        items.remove(max(items, key=lambda i: (i.score, i.value)))
    return items


def buchholz(field: Field, *, round_robin: bool, edition: str = "2026", sonneborn_berger: bool = False,
             cut_low: int = 0, cut_high: int = 0, draw: float = 0.5) -> dict[int, float]:
    """BH (or SB with ``sonneborn_berger``) for every player, by start number.

    ``cut_low``/``cut_high``: Cut-n is (n, 0), Median-n is (n, n) (C.07 Art. 14).
    Raises ValueError for an unknown ``edition``.
    """
    return {
        sno: sum(i.value for i in _cut(items, cut_low, cut_high, field.rounds))
        for sno, items in _items(field, round_robin, edition, sonneborn_berger, draw).items()
    }
