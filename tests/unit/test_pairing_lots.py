"""Pairing numbers for round robins: recorded drawing of lots, and the players' choice in a given
order (Norway Chess 2023 regulations, classical event: players "take it in turns to choose their
pairing number ..., starting with the Blitz tournament winner and proceeding in the order in which
they finished in the Blitz tournament")."""

from __future__ import annotations

import pytest

from services.tournament.pairing.lots import choose_numbers, draw_lots

PLAYERS = ["Carlsen", "Nakamura", "Caruana", "Ding", "Firouzja", "Giri", "So", "Aronian", "Gukesh", "Praggnanandhaa"]


def test_drawing_of_lots_is_reproducible_from_the_recorded_seed() -> None:
    first = draw_lots(PLAYERS, seed=2023)
    again = draw_lots(PLAYERS, seed=2023)
    assert first == again
    assert first.seed == 2023 and first.method == "lots"
    assert sorted(first.numbers.values()) == list(range(1, 11))


def test_drawing_of_lots_with_a_physical_draw() -> None:
    drawn = [4, 7, 1, 10, 2, 9, 3, 8, 5, 6]
    alloc = draw_lots(PLAYERS, permutation=drawn)
    assert [alloc.numbers[p] for p in PLAYERS] == drawn
    assert alloc.seed is None


@pytest.mark.parametrize("kwargs", [{}, {"seed": 1, "permutation": list(range(1, 11))}, {"permutation": [1] * 10}])
def test_drawing_of_lots_bad_input(kwargs: dict) -> None:
    with pytest.raises(ValueError):
        draw_lots(PLAYERS, **kwargs)


def test_norway_choice_in_blitz_order() -> None:
    blitz_order = PLAYERS  # winner first
    choices = [5, 6, 1, 2, 10, 3, 4, 7, 8, None]
    alloc = choose_numbers(blitz_order, choices)
    assert alloc.method == "choice" and alloc.order == tuple(blitz_order)
    assert alloc.numbers["Carlsen"] == 5
    assert alloc.numbers["Praggnanandhaa"] == 9  # the one number left


def test_norway_choice_cannot_take_a_taken_number() -> None:
    with pytest.raises(ValueError, match="Nakamura chose 2, which is taken"):
        choose_numbers(PLAYERS[:3], [2, 2, None])


@pytest.mark.parametrize("choices,msg", [([1, None, None], "must choose"), ([1, 4, 2], "not in 1..3"), ([1, 2], "3 players")])
def test_norway_choice_bad_input(choices: list, msg: str) -> None:
    with pytest.raises(ValueError, match=msg):
        choose_numbers(PLAYERS[:3], choices)
