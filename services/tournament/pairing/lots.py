"""Allocation of round-robin pairing numbers: by a recorded drawing of lots, or chosen by the players in
a given order (Norway Chess 2023, classical event: "Players will take it in turns to choose their pairing
number ..., starting with the Blitz tournament winner and proceeding in the order in which they finished
in the Blitz tournament").

Pure: the randomness is a seed passed in; the result carries what must be recorded (FIDE C.05: the
drawing of lots is public and its result is part of the tournament record).
"""

from __future__ import annotations

import random
from dataclasses import dataclass


@dataclass(frozen=True)
class NumberAllocation:
    """Pairing numbers by player, and how they were allocated.

    ``numbers``: player -> pairing number 1..n; ``method``: "lots" or "choice"; ``seed``: the seed of
    a drawing of lots (None for a choice or a given permutation); ``order``: players in the order they
    drew or chose.
    """

    numbers: dict[str, int]
    method: str
    seed: int | None
    order: tuple[str, ...]


def draw_lots(players: list[str], seed: int | None = None, permutation: list[int] | None = None) -> NumberAllocation:
    """Pairing numbers by drawing of lots.

    Either ``permutation`` (the numbers drawn, in the order of ``players``; e.g. from a physical draw) or
    ``seed`` (a pseudo-random draw, reproducible from the seed recorded with it) must be given.
    Raises ValueError for duplicate players, a permutation that is not 1..n, or neither/both inputs.
    """
    if len(set(players)) != len(players):
        raise ValueError("a player is listed twice")
    if (seed is None) == (permutation is None):
        raise ValueError("give exactly one of seed and permutation")
    n = len(players)
    if permutation is None:
        permutation = list(range(1, n + 1))
        random.Random(seed).shuffle(permutation)
    elif sorted(permutation) != list(range(1, n + 1)):
        raise ValueError(f"the numbers drawn must be 1..{n}, each once")
    return NumberAllocation(dict(zip(players, permutation)), "lots", seed, tuple(players))


def choose_numbers(order: list[str], choices: list[int | None]) -> NumberAllocation:
    """Pairing numbers chosen by the players in turn.

    ``order``: the players in the order they choose (Norway Chess: the blitz standings, winner first);
    ``choices[i]``: the free number player ``order[i]`` picked. The last player may give None: he gets
    the one number left. Raises ValueError when a number is taken already or outside 1..n, when a
    player other than the last gives None, or when the lists differ in length.
    """
    n = len(order)
    if len(choices) != n:
        raise ValueError(f"{n} players but {len(choices)} choices")
    if len(set(order)) != n:
        raise ValueError("a player is listed twice")
    free = set(range(1, n + 1))
    numbers: dict[str, int] = {}
    for i, (player, number) in enumerate(zip(order, choices)):
        if number is None:
            if i != n - 1:
                raise ValueError(f"{player} must choose a number: {len(free)} are still free")
            number = free.pop()
        elif number not in free:
            why = "is taken" if 1 <= number <= n else f"is not in 1..{n}"
            raise ValueError(f"{player} chose {number}, which {why}")
        else:
            free.discard(number)
        numbers[player] = number
    return NumberAllocation(numbers, "choice", None, tuple(order))
