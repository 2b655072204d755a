"""Baku acceleration (FIDE C.04.7) as bbpPairings (FIDE-endorsed) applies it.

The first half of the players by pairing number (the larger half for an odd count) get virtual
points: a win's worth in each round of the first quarter of the event, a draw's worth in the rest of
its first half. With R rounds, accelerated rounds are 1 .. (R-1)//2 + 1, of which the first
((R-1)//2)//2 + 1 are worth a win. Virtual points count for pairing only (score groups, floats), never
in the standings.
"""

from __future__ import annotations


def baku_accelerations(start_numbers: list[int], total_rounds: int, win: int, draw: int, loss: int,
                       upto_round: int) -> dict[int, list[int]]:
    """Virtual points (tenths) per player and 0-based round, for rounds 0..``upto_round``.

    ``start_numbers``: every player in pairing-number order. Raises ValueError when the point system
    is not win = 2 draws and loss = 0 (the method assumes it).
    """
    if loss or draw * 2 != win:
        raise ValueError("Baku acceleration needs a point system with win = 2 draws and loss = 0")
    last_round = (total_rounds - 1) // 2
    last_full = last_round // 2
    out: dict[int, list[int]] = {}
    for start_no in start_numbers[: (len(start_numbers) - 1) // 2 + 1]:
        out[start_no] = [win if rnd <= last_full else draw for rnd in range(min(last_round, upto_round) + 1)]
    return out
