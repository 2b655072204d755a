"""Berger tables (FIDE Handbook C.05 Annex 1). Expected tables copied from the published Annex 1
tables (for 3-4, 5-6 and 9-10 players); the 10-player rounds 1-2 are also those quoted in the
"Pairings" issue."""

from __future__ import annotations

import pytest

from services.tournament.pairing.berger import berger_round, berger_schedule, schedule_by_player

# FIDE C.05 Annex 1, "Berger Tables for Round-Robin Tournaments", 3 or 4 players.
TABLE_4 = [
    [(1, 4), (2, 3)],
    [(4, 3), (1, 2)],
    [(2, 4), (3, 1)],
]
# FIDE C.05 Annex 1, 5 or 6 players.
TABLE_6 = [
    [(1, 6), (2, 5), (3, 4)],
    [(6, 4), (5, 3), (1, 2)],
    [(2, 6), (3, 1), (4, 5)],
    [(6, 5), (1, 4), (2, 3)],
    [(3, 6), (4, 2), (5, 1)],
]
# FIDE C.05 Annex 1, 9 or 10 players.
TABLE_10 = [
    [(1, 10), (2, 9), (3, 8), (4, 7), (5, 6)],
    [(10, 6), (7, 5), (8, 4), (9, 3), (1, 2)],
    [(2, 10), (3, 1), (4, 9), (5, 8), (6, 7)],
    [(10, 7), (8, 6), (9, 5), (1, 4), (2, 3)],
    [(3, 10), (4, 2), (5, 1), (6, 9), (7, 8)],
    [(10, 8), (9, 7), (1, 6), (2, 5), (3, 4)],
    [(4, 10), (5, 3), (6, 2), (7, 1), (8, 9)],
    [(10, 9), (1, 8), (2, 7), (3, 6), (4, 5)],
    [(5, 10), (6, 4), (7, 3), (8, 2), (9, 1)],
]


@pytest.mark.parametrize("n,table", [(4, TABLE_4), (6, TABLE_6), (10, TABLE_10)])
def test_published_tables(n: int, table: list) -> None:
    assert berger_schedule(n) == table


def test_issue_quote_ten_players_rounds_1_and_2() -> None:
    assert berger_round(10, 1) == [(1, 10), (2, 9), (3, 8), (4, 7), (5, 6)]
    assert berger_round(10, 2) == [(10, 6), (7, 5), (8, 4), (9, 3), (1, 2)]


@pytest.mark.parametrize("n,table", [(3, TABLE_4), (5, TABLE_6), (9, TABLE_10)])
def test_odd_number_the_dummy_gives_a_bye(n: int, table: list) -> None:
    """C.05 Annex 1: with an odd number of players the highest number (n+1) is a bye."""
    dummy = n + 1
    expected = [[(w if b == dummy else b, None) if dummy in (w, b) else (w, b) for w, b in rnd] for rnd in table]
    assert berger_schedule(n) == expected
    for rnd in berger_schedule(n):
        assert sum(1 for _, b in rnd if b is None) == 1


@pytest.mark.parametrize("n", [4, 6, 10, 12, 16, 20])
def test_everyone_meets_everyone_once_with_balanced_colours(n: int) -> None:
    meetings = set()
    whites = dict.fromkeys(range(1, n + 1), 0)
    for rnd in berger_schedule(n):
        assert sorted(x for board in rnd for x in board) == list(range(1, n + 1))
        for w, b in rnd:
            meetings.add(frozenset((w, b)))
            whites[w] += 1
    assert len(meetings) == n * (n - 1) // 2
    assert all(n // 2 - 1 <= c <= n // 2 for c in whites.values())


def test_double_round_robin_swaps_the_last_two_rounds_of_the_first_cycle() -> None:
    """C.05 Annex 1: "For a double round-robin tournament it is recommended to reverse the order of
    the last two rounds of the first cycle"; the second cycle repeats the table, colours reversed."""
    double = berger_schedule(10, cycles=2)
    assert len(double) == 18
    assert double[:7] == TABLE_10[:7]
    assert double[7] == TABLE_10[8] and double[8] == TABLE_10[7]
    assert double[9:] == [[(b, w) for w, b in rnd] for rnd in TABLE_10]


@pytest.mark.parametrize("n", [4, 6, 8, 10, 12])
def test_double_round_robin_no_colour_three_times_running(n: int) -> None:
    colours: dict[int, list[str]] = {p: [] for p in range(1, n + 1)}
    for rnd in berger_schedule(n, cycles=2):
        for w, b in rnd:
            colours[w].append("w")
            colours[b].append("b")
    for seq in colours.values():
        text = "".join(seq)
        assert "www" not in text and "bbb" not in text


def test_schedule_by_player_uses_the_numbers() -> None:
    numbers = {"Carlsen": 3, "Nakamura": 1, "Caruana": 2, "Ding": 4}
    first = schedule_by_player(4, numbers)[0]
    assert first == [("Nakamura", "Ding"), ("Caruana", "Carlsen")]


@pytest.mark.parametrize("bad", [0, 1])
def test_too_few_players(bad: int) -> None:
    with pytest.raises(ValueError):
        berger_round(bad, 1)


def test_round_out_of_range() -> None:
    with pytest.raises(ValueError, match="round 10 does not exist"):
        berger_round(10, 10)
