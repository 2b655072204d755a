"""Live FIDE rating changes (services.tournament.rating_change).

Source of every expected value: FIDE Rating Regulations effective from 1 March 2024 (FIDE Handbook
B.02): the 8.1.2 table (rating difference D -> scoring probability PD), 8.3.1 (a difference above
400 counts as 400), 8.3.2 (change = K x the sum of score - PD), 8.3.3 (K 10 from 2400, 20 under
2400, 40 as listed; K x games at most 700). Each value below is worked by hand from that table.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from services.tournament.rating_change import expected_score, k_factor, rating_changes
from services.tournament.results import GameResult, field_from_results

# A four-player round robin, three rounds; start number -> (name, rating)
PLAYERS = {1: ("A", 2450), 2: ("B", 2300), 3: ("C", 2150), 4: ("D", 1950)}
RESULTS = [
    GameResult(1, 1, 4, "1-0"), GameResult(1, 2, 3, "1/2-1/2"),
    GameResult(2, 1, 3, "1/2-1/2"), GameResult(2, 4, 2, "0-1"),
    GameResult(3, 1, 2, "0-1"), GameResult(3, 3, 4, "+-"),  # a forfeit: not rated
]


def test_the_table_read_both_ways_with_the_400_point_rule():
    assert expected_score(2300, 2150) == Fraction(70, 100)  # D 150: row 146-153, PD .70
    assert expected_score(2150, 2300) == Fraction(30, 100)  # the lower-rated: 1 - .70
    assert expected_score(2300, 1950) == Fraction(89, 100)  # D 350: row 345-357
    assert expected_score(2450, 1950) == Fraction(92, 100)  # D 500 counts as 400: row 392-411
    assert expected_score(1950, 2450) == Fraction(8, 100)
    assert expected_score(2000, 2002) == Fraction(50, 100)  # D 2: row 0-3


def test_k_factor_by_rating_listed_and_limited_to_700():
    assert k_factor(2399) == 20 and k_factor(2400) == 10  # 8.3.3
    assert k_factor(2100, listed=40) == 40
    assert k_factor(2100, listed=40, games=20) == 35  # 40 x 20 > 700: the largest K with K x 20 <= 700
    with pytest.raises(ValueError):
        k_factor(2100, listed=30)


def test_a_small_event_hand_computed():
    field = field_from_results(PLAYERS, RESULTS, rounds=3)
    got = rating_changes(field)
    # A 2450, K 10: vs D (D 400 -> .92) 1 - .92 = +.08; vs C (300 -> .85) .5 - .85 = -.35;
    # vs B (150 -> .70) 0 - .70 = -.70; sum -.97 -> -9.7
    assert got[1].k == 10 and got[1].games == 3 and got[1].change == Fraction(-97, 10)
    # B 2300, K 20: vs C .5 - .70 = -.20; vs D (350 -> .89) 1 - .89 = +.11; vs A 1 - .30 = +.70;
    # sum .61 -> +12.2
    assert got[2].change == Fraction(122, 10) and got[2].shown() == "+12.2"
    # C 2150, K 20: vs B .5 - .30 = +.20; vs A .5 - .15 = +.35; the forfeit win does not count: +11.0
    assert got[3].games == 2 and got[3].change == 11 and got[3].shown() == "+11.0"
    # D 1950, K 20: vs A 0 - .08; vs B 0 - .11; the forfeit loss does not count: -.19 -> -3.8
    assert got[4].change == Fraction(-38, 10) and got[4].shown() == "-3.8"


def test_unrated_players_get_none_and_their_games_do_not_count():
    field = field_from_results({1: ("A", 2000), 2: ("U", None)}, [GameResult(1, 1, 2, "1-0")], rounds=1)
    got = rating_changes(field)
    assert 2 not in got and got[1].games == 0 and got[1].shown() == "0.0"


def test_games_in_progress_do_not_count():
    field = field_from_results(PLAYERS, [GameResult(1, 1, 4, "*"), GameResult(1, 2, 3, "1-0")], rounds=1)
    got = rating_changes(field)
    assert got[1].games == 0 and got[2].change == 20 * (1 - Fraction(70, 100))  # +6.0


# --- on the standings (GET /api/standings), from the log -------------------------------------------

def test_the_standings_carry_the_hand_computed_changes():
    """The same event played through the log (round_started with the players' ratings, game_ended per
    game): /api/standings shows each row's change as worked above."""
    import asyncio

    from starlette.testclient import TestClient

    from dashboard.app import create_app
    from dashboard.arbiter.auth import Accounts
    from services.eventlog.memory import MemoryLog
    from rating_event import CHANGES, entries

    log = MemoryLog("rating-test")
    asyncio.run(log.append_many(entries()))
    with TestClient(create_app(log, accounts=Accounts([], b"k" * 32))) as client:
        for _ in range(200):
            body = client.get("/api/standings").json()
            if body.get("round") == 3 and len(body.get("rows", [])) == 4:
                break
        changes = {row["name"]: row["rating_change"] for row in body["rows"]}
    assert changes == CHANGES == {"A": "-9.7", "B": "+12.2", "C": "+11.0", "D": "-3.8"}
